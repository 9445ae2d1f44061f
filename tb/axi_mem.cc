#include "axi_mem.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "common/axi.h"
#include "common/error.h"

namespace tern::tb {

AxiMem::AxiMem(const AxiMemOptions& opt) : opt_(opt), mem_(opt.size, 0), rng_(opt.seed) {
  if (opt_.data_bytes < 4 || (opt_.data_bytes & (opt_.data_bytes - 1)) != 0)
    throw Error(fmt::format("AxiMem: data width of {} bytes is not a power of two >= 4",
                            opt_.data_bytes));
  out_.rdata.assign(opt_.data_bytes / 4, 0);
  reset();
}

void AxiMem::reset() {
  reads_.clear();
  writes_.clear();
  out_ = AxiSlavePins{};
  out_.rdata.assign(opt_.data_bytes / 4, 0);
  aw_wait_ = w_wait_ = ar_wait_ = false;
}

void AxiMem::write(uint64_t addr, const void* src, uint64_t bytes) {
  if (addr > mem_.size() || bytes > mem_.size() - addr)
    throw Error(fmt::format("AxiMem backdoor write of {} bytes at 0x{:x} is outside its 0x{:x} "
                            "bytes", bytes, addr, mem_.size()));
  std::memcpy(mem_.data() + addr, src, bytes);
}

void AxiMem::read(uint64_t addr, void* dst, uint64_t bytes) const {
  if (addr > mem_.size() || bytes > mem_.size() - addr)
    throw Error(fmt::format("AxiMem backdoor read of {} bytes at 0x{:x} is outside its 0x{:x} "
                            "bytes", bytes, addr, mem_.size()));
  std::memcpy(dst, mem_.data() + addr, bytes);
}

void AxiMem::fail(const std::string& what) const {
  throw Error(fmt::format("AXI protocol error at cycle {}: {}", now_, what));
}

uint64_t AxiMem::beat_addr(const Burst& b, uint32_t k) const {
  const uint64_t aligned = b.addr & ~uint64_t(opt_.data_bytes - 1);
  return aligned + uint64_t(k) * opt_.data_bytes;
}

uint64_t AxiMem::due_after(uint32_t addr, uint32_t latency) const {
  for (const auto& [first, end] : lost_)
    if (first <= addr && addr < end) return UINT64_MAX;
  return now_ + latency;
}

uint32_t AxiMem::beat_resp(uint64_t word) const {
  if (word + opt_.data_bytes > mem_.size()) return uint32_t(AxiResp::kDecerr);
  for (const auto& [first, end] : slverr_)
    if (word < end && first < word + opt_.data_bytes) return uint32_t(AxiResp::kSlverr);
  return uint32_t(AxiResp::kOkay);
}

void AxiMem::check_burst(const char* ch, uint32_t addr, uint32_t len, uint32_t size,
                         uint32_t burst) const {
  const std::string what = fmt::format("{} addr 0x{:x} len {} size {} burst {}", ch, addr, len,
                                       size, burst);
  if (len > 255) fail(what + ": len > 255");
  if (burst != 1) fail(what + ": only INCR bursts are served");
  if ((1u << size) != opt_.data_bytes)
    fail(fmt::format("{}: beats of {} bytes on a {}-byte bus", what, 1u << size, opt_.data_bytes));
  const uint64_t last = (uint64_t(addr) & ~uint64_t(opt_.data_bytes - 1)) +
                        uint64_t(len + 1) * opt_.data_bytes - 1;
  if ((uint64_t(addr) >> 12) != (last >> 12))
    fail(fmt::format("{}: the burst crosses a 4 KiB boundary (last byte 0x{:x})", what, last));
}

void AxiMem::cycle(const AxiMasterPins& m) {
  // Stability: a valid without its ready must stay high with the same payload.
  if (aw_wait_ && (!m.awvalid || m.awid != prev_.awid || m.awaddr != prev_.awaddr ||
                   m.awlen != prev_.awlen || m.awsize != prev_.awsize || m.awburst != prev_.awburst))
    fail("AWVALID dropped or the AW payload changed before AWREADY");
  if (ar_wait_ && (!m.arvalid || m.arid != prev_.arid || m.araddr != prev_.araddr ||
                   m.arlen != prev_.arlen || m.arsize != prev_.arsize || m.arburst != prev_.arburst))
    fail("ARVALID dropped or the AR payload changed before ARREADY");
  if (w_wait_ && (!m.wvalid || m.wdata != prev_.wdata || m.wstrb != prev_.wstrb ||
                  m.wlast != prev_.wlast))
    fail("WVALID dropped or the W payload changed before WREADY");

  const bool aw_hs = m.awvalid && out_.awready;
  const bool w_hs = m.wvalid && out_.wready;
  const bool b_hs = out_.bvalid && m.bready;
  const bool ar_hs = m.arvalid && out_.arready;
  const bool r_hs = out_.rvalid && m.rready;
  aw_wait_ = m.awvalid && !out_.awready;
  ar_wait_ = m.arvalid && !out_.arready;
  w_wait_ = m.wvalid && !out_.wready;
  prev_ = m;

  if (r_hs) {
    Burst& b = reads_.front();
    ++stats_.read_beats;
    if (++b.beat > b.len) reads_.pop_front();
  }
  if (b_hs) writes_.pop_front();
  if (ar_hs) {
    check_burst("AR", m.araddr, m.arlen, m.arsize, m.arburst);
    Burst b;
    b.id = m.arid;
    b.addr = m.araddr;
    b.len = m.arlen;
    b.due = due_after(m.araddr, opt_.read_latency);
    reads_.push_back(b);
    ++stats_.reads;
    stats_.max_len = std::max(stats_.max_len, m.arlen);
  }
  if (aw_hs) {
    check_burst("AW", m.awaddr, m.awlen, m.awsize, m.awburst);
    Burst b;
    b.id = m.awid;
    b.addr = m.awaddr;
    b.len = m.awlen;
    writes_.push_back(b);
    ++stats_.writes;
    stats_.max_len = std::max(stats_.max_len, m.awlen);
  }
  if (w_hs) {
    auto it = std::find_if(writes_.begin(), writes_.end(), [](const Burst& b) { return !b.w_done; });
    if (it == writes_.end()) fail("a W beat with no AW waiting for data");
    Burst& b = *it;
    const uint64_t word = beat_addr(b, b.beat);
    const uint32_t first_lane = b.beat == 0 ? (b.addr & (opt_.data_bytes - 1)) : 0;
    for (uint32_t i = 0; i < first_lane; ++i)
      if (m.wstrb[i])
        fail(fmt::format("AW addr 0x{:x}: WSTRB lane {} below the burst's start address", b.addr, i));
    if (m.wlast != (b.beat == b.len))
      fail(fmt::format("AW addr 0x{:x} len {}: WLAST {} on beat {}", b.addr, b.len, m.wlast, b.beat));
    const uint32_t resp = beat_resp(word);
    b.resp = std::max(b.resp, resp);
    if (resp == uint32_t(AxiResp::kOkay))
      for (uint32_t i = 0; i < opt_.data_bytes; ++i)
        if (m.wstrb[i]) mem_[word + i] = uint8_t(m.wdata[i / 4] >> (8 * (i % 4)));
    ++stats_.write_beats;
    if (b.beat++ == b.len) {
      b.w_done = true;
      b.due = due_after(b.addr, opt_.write_latency);
    }
  }
  const uint32_t rf = uint32_t(reads_.size()), wf = uint32_t(writes_.size());
  stats_.max_reads_in_flight = std::max(stats_.max_reads_in_flight, rf);
  stats_.max_writes_in_flight = std::max(stats_.max_writes_in_flight, wf);
  stats_.max_in_flight = std::max(stats_.max_in_flight, rf + wf);

  // Next outputs.
  auto chance = [&](uint32_t pct) { return pct >= 100 || rng_() % 100 < pct; };
  out_.awready = writes_.size() < opt_.max_writes && chance(opt_.ready_percent);
  out_.arready = reads_.size() < opt_.max_reads && chance(opt_.ready_percent);
  out_.wready = std::any_of(writes_.begin(), writes_.end(), [](const Burst& b) { return !b.w_done; }) &&
                chance(opt_.ready_percent);
  out_.bvalid = !writes_.empty() && writes_.front().w_done && now_ >= writes_.front().due;
  if (out_.bvalid) {
    out_.bid = writes_.front().id;
    out_.bresp = writes_.front().resp;
  }
  const bool r_hold = out_.rvalid && !r_hs;  // an offered beat stays until taken
  if (!r_hold) {
    out_.rvalid = !reads_.empty() && now_ >= reads_.front().due && chance(opt_.rvalid_percent);
    if (out_.rvalid) {
      const Burst& b = reads_.front();
      const uint64_t word = beat_addr(b, b.beat);
      out_.rid = b.id;
      out_.rresp = beat_resp(word);
      out_.rlast = b.beat == b.len;
      for (uint32_t i = 0; i < opt_.data_bytes / 4; ++i) {
        uint32_t v = 0;
        if (out_.rresp == uint32_t(AxiResp::kOkay)) std::memcpy(&v, mem_.data() + word + 4 * i, 4);
        out_.rdata[i] = v;
      }
    }
  }
  ++now_;
}

}  // namespace tern::tb
