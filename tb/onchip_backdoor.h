// SBUF and PSUM backdoor access for any harness whose verilated top has the sbuf_bd_* and
// psum_bd_* ports of tern_lane_mem (tern_core_compute, tern_core): one aligned word of every
// partition per cycle.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "isa/isa.h"
#include "ports.h"

namespace tern::tb {

// The SBUF or PSUM backdoor ports of a top, by memory.
template <typename Top>
struct OnchipPorts {
  Top& t;
  isa::Mem mem;
  auto& valid() { return mem == isa::Mem::kSbuf ? t.sbuf_bd_valid_i : t.psum_bd_valid_i; }
  auto& write() { return mem == isa::Mem::kSbuf ? t.sbuf_bd_write_i : t.psum_bd_write_i; }
  auto& mask() { return mem == isa::Mem::kSbuf ? t.sbuf_bd_mask_i : t.psum_bd_mask_i; }
  auto& addr() { return mem == isa::Mem::kSbuf ? t.sbuf_bd_addr_i : t.psum_bd_addr_i; }
  auto& wdata() { return mem == isa::Mem::kSbuf ? t.sbuf_bd_wdata_i : t.psum_bd_wdata_i; }
  auto& rdata() { return mem == isa::Mem::kSbuf ? t.sbuf_bd_rdata_o : t.psum_bd_rdata_o; }
};

// Writes the aligned word at byte `addr` of partitions 0 .. words.size() - 1 (words[p]) in one
// cycle.
template <typename Harness>
void write_onchip_row(Harness& h, isa::Mem mem, uint32_t addr, const std::vector<uint32_t>& words) {
  OnchipPorts<std::remove_reference_t<decltype(h.top())>> port{h.top(), mem};
  for (size_t w = 0; w * 32 < words.size(); ++w) {
    const size_t left = words.size() - w * 32;
    detail::set_word(port.mask(), w, left >= 32 ? ~0u : (1u << left) - 1);
  }
  for (size_t p = 0; p < words.size(); ++p) detail::set_word(port.wdata(), p, words[p]);
  port.addr() = addr;
  port.valid() = 1;
  port.write() = 1;
  h.tick();
  port.valid() = 0;
  port.write() = 0;
}

// The aligned word at byte `addr` of partitions 0 .. partitions - 1 (a read takes a cycle).
template <typename Harness>
std::vector<uint32_t> read_onchip_row(Harness& h, isa::Mem mem, uint32_t addr, uint32_t partitions) {
  auto& t = h.top();
  OnchipPorts<std::remove_reference_t<decltype(t)>> port{t, mem};
  port.write() = 0;
  port.addr() = addr;
  port.valid() = 1;
  h.tick();
  port.valid() = 0;
  t.eval();
  std::vector<uint32_t> words(partitions);
  for (uint32_t p = 0; p < partitions; ++p) words[p] = detail::get_word(port.rdata(), p);
  return words;
}

template <typename Harness>
uint32_t read_onchip(Harness& h, isa::Mem mem, uint32_t partition, uint32_t addr) {
  return read_onchip_row(h, mem, addr, partition + 1)[partition];
}

}  // namespace tern::tb
