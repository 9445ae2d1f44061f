#include "core_compute.h"

#include "Vtern_core_compute_small.h"
#include "Vtern_core_compute_tiny.h"
#include "seq_harness_impl.h"

namespace tern::tb {

template <typename Top>
void write_onchip(SeqHarness<Top>& h, isa::Mem mem, uint32_t partition, uint32_t addr, uint32_t word) {
  Top& t = h.top();
  if (mem == isa::Mem::kSbuf) {
    t.sbuf_bd_valid_i = 1;
    t.sbuf_bd_write_i = 1;
    t.sbuf_bd_partition_i = uint8_t(partition);
    t.sbuf_bd_addr_i = addr;
    t.sbuf_bd_wdata_i = word;
  } else {
    t.psum_bd_valid_i = 1;
    t.psum_bd_write_i = 1;
    t.psum_bd_partition_i = uint8_t(partition);
    t.psum_bd_addr_i = addr;
    t.psum_bd_wdata_i = word;
  }
  h.tick();
  t.sbuf_bd_valid_i = 0;
  t.psum_bd_valid_i = 0;
}

template <typename Top>
uint32_t read_onchip(SeqHarness<Top>& h, isa::Mem mem, uint32_t partition, uint32_t addr) {
  Top& t = h.top();
  t.sbuf_bd_write_i = 0;
  t.psum_bd_write_i = 0;
  t.sbuf_bd_partition_i = uint8_t(partition);
  t.psum_bd_partition_i = uint8_t(partition);
  t.sbuf_bd_addr_i = addr;
  t.psum_bd_addr_i = addr;
  t.eval();
  return mem == isa::Mem::kSbuf ? t.sbuf_bd_rdata_o : t.psum_bd_rdata_o;
}

template class SeqHarness<Vtern_core_compute_tiny>;
template class SeqHarness<Vtern_core_compute_small>;
template void write_onchip(RtlCoreComputeTiny&, isa::Mem, uint32_t, uint32_t, uint32_t);
template void write_onchip(RtlCoreComputeSmall&, isa::Mem, uint32_t, uint32_t, uint32_t);
template uint32_t read_onchip(RtlCoreComputeTiny&, isa::Mem, uint32_t, uint32_t);
template uint32_t read_onchip(RtlCoreComputeSmall&, isa::Mem, uint32_t, uint32_t);

}  // namespace tern::tb
