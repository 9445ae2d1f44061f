#include "core_harness.h"

#include <verilated.h>
#include <verilated_fst_c.h>

#include <fmt/format.h>

#include "Vtern_core_small.h"
#include "Vtern_core_tiny.h"
#include "axil_master.h"
#include "common/error.h"
#include "core/csr_map.h"

namespace tern::tb {

CoreImage core_image_layout(const isa::Program& p, uint32_t program_base) {
  if (program_base % isa::kInstrBytes != 0)
    throw Error(fmt::format("core image: program base 0x{:x} is not {}-byte aligned", program_base,
                            isa::kInstrBytes));
  CoreImage img;
  uint32_t at = program_base;
  for (int s = 0; s < isa::kNumSeqs; ++s) {
    img.prog_base[size_t(s)] = at;
    at += uint32_t(p.streams[size_t(s)].size()) * isa::kInstrBytes;
  }
  img.desc_base = (at + isa::kDescBytes - 1) / isa::kDescBytes * isa::kDescBytes;
  img.end = img.desc_base + uint32_t(p.descriptors.size()) * isa::kDescBytes;
  return img;
}

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
uint32_t CoreHarness<Top>::dma_engines() {
  return csr::glb::kConfigDmaEngines.get(csr_read(csr::glb_addr(csr::glb::kConfigDma)));
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
  using namespace csr;
  const CoreImage img = core_image_layout(p, program_base);
  if (img.end > mem_->bytes().size())
    throw Error(fmt::format("core image: ends at 0x{:x}, past HBM (0x{:x} bytes)", img.end,
                            mem_->bytes().size()));
  for (int s = 0; s < isa::kNumSeqs; ++s) {
    uint32_t at = img.prog_base[size_t(s)];
    for (const isa::Instruction& in : p.streams[size_t(s)]) {
      const isa::InstrBits bits = isa::encode(in);
      mem_->write(at, bits.words.data(), isa::kInstrBytes);
      at += isa::kInstrBytes;
    }
  }
  for (size_t d = 0; d < p.descriptors.size(); ++d) {
    const isa::DescBits bits = isa::encode(p.descriptors[d]);
    mem_->write(img.desc_base + d * isa::kDescBytes, bits.words.data(), isa::kDescBytes);
  }

  // The driver's sequence (docs/csr.md).
  csr_write(glb_addr(glb::kHbmSize), uint32_t(mem_->bytes().size()));
  csr_write(glb_addr(glb::kDescBase), img.desc_base);
  csr_write(glb_addr(glb::kDescCount), uint32_t(p.descriptors.size()));
  csr_write(glb_addr(glb::kWatchdog), opt_.watchdog);
  for (uint32_t s = 0; s < isa::kNumSeqs; ++s) {
    csr_write(seq_addr(s, seq::kProgBase), img.prog_base[s]);
    csr_write(seq_addr(s, seq::kProgLen), uint32_t(p.streams[s].size()));
  }
  csr_write(glb_addr(glb::kIrqStatus), ~0u);
  csr_write(glb_addr(glb::kIrqEnable),
            glb::kIrqError.mask() | glb::kIrqDmaError.mask() | glb::kIrqIdle.mask());
  csr_write(glb_addr(glb::kCtrl), glb::kCtrlSemClear.put(1));
  csr_write(glb_addr(glb::kCtrl), glb::kCtrlStart.put((1u << isa::kNumSeqs) - 1));

  CoreRunResult r;
  Top& t = *top_;
  for (; r.cycles < opt_.max_cycles && !t.irq_o; ++r.cycles) tick();
  r.timed_out = !t.irq_o;
  r.irq_status = csr_read(glb_addr(glb::kIrqStatus));
  for (uint32_t s = 0; s < isa::kNumSeqs; ++s) {
    r.err_code[s] = seq::kStatusErrCode.get(csr_read(seq_addr(s, seq::kStatus)));
    r.err_pc[s] = csr_read(seq_addr(s, seq::kErrPc));
    r.retired[s] = csr_read(seq_addr(s, seq::kRetired));
    r.busy_cycles[s] = csr_read(seq_addr(s, seq::kBusyCycles));
    r.sem_wait_cycles[s] = csr_read(seq_addr(s, seq::kSemWaitCycles));
    r.fetch_wait_cycles[s] = csr_read(seq_addr(s, seq::kFetchWaitCycles));
    r.conflict_cycles[s] = csr_read(seq_addr(s, seq::kConflictCycles));
  }
  const uint32_t engines = dma_engines();
  for (uint32_t e = 0; e < engines; ++e) {
    CoreDmaStatus d;
    d.err_status = csr_read(dma_addr(e, dma::kErrStatus));
    d.err_desc = csr_read(dma_addr(e, dma::kErrDesc));
    d.err_pc = csr_read(dma_addr(e, dma::kErrPc));
    d.hwm = csr_read(dma_addr(e, dma::kOutstandingHwm));
    d.bytes_read = uint64_t(csr_read(dma_addr(e, dma::kBytesReadHi))) << 32 |
                   csr_read(dma_addr(e, dma::kBytesReadLo));
    d.bytes_written = uint64_t(csr_read(dma_addr(e, dma::kBytesWrittenHi))) << 32 |
                      csr_read(dma_addr(e, dma::kBytesWrittenLo));
    r.dma.push_back(d);
  }
  for (uint32_t i = 0; i < isa::kNumSems; ++i) r.sems[i] = csr_read(sem_addr(i));
  return r;
}

template class CoreHarness<Vtern_core_tiny>;
template class CoreHarness<Vtern_core_small>;

}  // namespace tern::tb
