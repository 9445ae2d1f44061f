// CoreHarness: the verilated NeuronCore (rtl/core/tern_core.sv) in plain C++ for GoogleTest:
// HBM is the AXI4 memory model (tb/axi_mem.h) on the core's master port, the host is the
// AXI4-Lite master (tb/axil_master.h) on its CSR port. `run` loads a program image, programs
// the CSRs as a driver would (docs/csr.md), starts every sequencer and waits for the
// interrupt: the core idle, or the first error (the golden model stops at its first fault).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "axi_mem.h"
#include "dut.h"
#include "core_driver.h"
#include "isa/isa.h"

class VerilatedFstC;

namespace tern::tb {

struct CoreRunOptions {
  uint32_t read_latency = 8;      // HBM: AR to first R beat
  uint32_t write_latency = 4;     // HBM: last W beat to B
  uint32_t ready_percent = 100;   // HBM back-pressure
  uint64_t max_cycles = 4'000'000;
  RunLimits limits;               // GLB.WATCHDOG and GLB.BUDGET
  std::string waves;              // an FST file to write (empty: none)
  uint64_t seed = 1;
};

template <typename Top>
class CoreHarness {
 public:
  CoreHarness(uint64_t hbm_bytes, CoreRunOptions opt);
  ~CoreHarness();
  CoreHarness(const CoreHarness&) = delete;
  CoreHarness& operator=(const CoreHarness&) = delete;

  AxiMem& hbm() { return *mem_; }
  Top& top() { return *top_; }
  uint32_t dma_engines() { return core_dma_engines(*this); }
  // One clock cycle of the core and of the HBM model.
  void tick();
  uint32_t csr_read(uint32_t addr);
  void csr_write(uint32_t addr, uint32_t value);
  void hbm_write(uint64_t addr, const void* src, uint64_t bytes) { mem_->write(addr, src, bytes); }
  // Writes the image to HBM, programs the CSRs, starts all sequencers and runs to the
  // interrupt.
  CoreRunResult run(const isa::Program& p, uint32_t program_base);

 private:
  Dut<Top> top_;
  std::unique_ptr<VerilatedFstC> fst_;
  std::unique_ptr<AxiMem> mem_;
  CoreRunOptions opt_;
  uint64_t time_ = 0;
};

}  // namespace tern::tb
