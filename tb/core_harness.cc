#include "core_harness.h"

#include <verilated.h>
#include <verilated_fst_c.h>

#include <fmt/format.h>

#include "Vtern_core_tiny.h"
#if TERN_SMALL_CORE
#include "Vtern_core_small.h"
#endif
#include "axil_master.h"
#include "common/error.h"
#include "core/csr_map.h"

namespace tern::tb {

template <typename Top>
CoreHarness<Top>::CoreHarness(uint64_t hbm_bytes, CoreRunOptions opt) : opt_(std::move(opt)) {
  if (!opt_.waves.empty()) Verilated::traceEverOn(true);  // before the model is built
  top_ = std::make_unique<Top>();
  if (!opt_.waves.empty()) {
    fst_ = std::make_unique<VerilatedFstC>();
    top_->trace(fst_.get(), 99);
    fst_->open(opt_.waves.c_str());
  }
  AxiMemOptions mo;
  mo.size = hbm_bytes;
  // WSTRB has a bit per byte of the bus; verilated as the integer type of that width (up to
  // the 512-bit bus's 64 bits).
  mo.data_bytes = uint32_t(sizeof(top_->m_axi_wstrb_o) * 8);
  mo.read_latency = opt_.read_latency;
  mo.write_latency = opt_.write_latency;
  mo.max_reads = 32;
  mo.max_writes = 32;
  mo.ready_percent = opt_.ready_percent;
  mo.seed = opt_.seed;
  mem_ = std::make_unique<AxiMem>(mo);
  top_->rst_ni = 0;
  for (int i = 0; i < 4; ++i) tick();
  top_->rst_ni = 1;
  tick();
}

template <typename Top>
CoreHarness<Top>::~CoreHarness() {
  top_->final();
  if (fst_) fst_->close();
}

template <typename Top>
void CoreHarness<Top>::tick() {
  Top& t = *top_;
  drive_axi(t, mem_->out());
  t.clk_i = 0;
  t.eval();
  if (fst_) fst_->dump(time_++);
  mem_->cycle(sample_axi(t, mem_->data_bytes()));
  t.clk_i = 1;
  t.eval();
  if (fst_) fst_->dump(time_++);
}

template <typename Top>
uint32_t CoreHarness<Top>::csr_read(uint32_t addr) {
  AxilMaster<Top> host(*top_, [this] { tick(); });
  const AxilRead r = host.read(addr);
  if (r.resp != AxiResp::kOkay)
    throw Error(fmt::format("CSR read of 0x{:04x}: {}", addr, axi_resp_name(r.resp)));
  return r.data;
}

template <typename Top>
void CoreHarness<Top>::csr_write(uint32_t addr, uint32_t value) {
  AxilMaster<Top> host(*top_, [this] { tick(); });
  const AxiResp resp = host.write(addr, value);
  if (resp != AxiResp::kOkay)
    throw Error(fmt::format("CSR write of 0x{:04x}: {}", addr, axi_resp_name(resp)));
}

template <typename Top>
CoreRunResult CoreHarness<Top>::run(const isa::Program& p, uint32_t program_base) {
  const CoreImage img = core_image_layout(p, program_base);
  if (img.end > mem_->bytes().size())
    throw Error(fmt::format("core image: ends at 0x{:x}, past HBM (0x{:x} bytes)", img.end,
                            mem_->bytes().size()));
  load_core_image(*this, p, img);
  start_core(*this, p, img, mem_->bytes().size(), opt_.limits);

  CoreRunResult r;
  Top& t = *top_;
  for (; r.cycles < opt_.max_cycles && !t.irq_o; ++r.cycles) tick();
  r.timed_out = !t.irq_o;
  read_core_status(*this, r);
  return r;
}

template class CoreHarness<Vtern_core_tiny>;
#if TERN_SMALL_CORE
template class CoreHarness<Vtern_core_small>;
#endif

}  // namespace tern::tb
