// CorePlatform<Top>: the SystemC TLM-2.0 platform around the verilated NeuronCore
// (docs/platform.md).
//
//   HostInitiator --csr--> AxilTlmBridge --pins--> tern_core --pins--> AxiTlmBridge --+
//         |                                          (clock thread)      AxiChecker   |
//         +--hbm (port 1)--> HbmTarget <--------------------------------- (port 0) ---+
//
// The verilated C++ model sits inside the SC_MODULE and is clocked by its clock thread, which
// also advances both bridges and the AXI checker once per cycle and reads the core's trace
// port: the sequencers' retires (for lock-step checks) and the per-engine timeline. The host
// thread runs the driver (tb/core_driver.h) over TLM: it loads the program through its HBM
// port, programs the CSRs, starts the sequencers and waits for the interrupt.
//
// SystemC elaborates once per process: build one platform (per config) and call run() for
// each program; it resets the core between runs. run() is called from outside the
// simulation (sc_main / a test body); it returns when the host has read the status back.
#pragma once

#include <systemc>

#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "axi_checker.h"
#include "core/core_model.h"
#include "core_driver.h"
#include "platform/axi_tlm_bridge.h"
#include "platform/hbm_target.h"

class VerilatedFstC;

namespace tern::tb {

struct PlatformOptions {
  HbmPortTiming core_port{200, 64};   // the core's AXI4 master
  HbmPortTiming host_port{20, 64};    // the host's loads
  uint64_t max_cycles = 50'000'000;   // from start to the interrupt
  RunLimits limits;                   // GLB.WATCHDOG and GLB.BUDGET
  std::string waves;                  // FST file for all runs of the platform (empty: none)
  double clock_mhz = 1000.0;          // nominal clock: SystemC time per cycle
};

// One retired instruction from the trace port.
struct RetireEvent {
  uint64_t cycle = 0;
  int seq = 0;
  uint32_t pc = 0;
  uint32_t rd = 0, rd_value = 0;  // rd 0: no register written
};

struct PlatformRun {
  CoreRunResult status;                    // the CSRs after the interrupt
  std::vector<core::TraceEvent> timeline;  // per-engine instructions and DMA transfers
  AxiCheckerStats axi;
  HbmStats hbm;                            // the core's HBM port
  uint64_t cycles = 0;                     // start to interrupt
  double wall_seconds = 0;
};

template <typename Top>
class CorePlatform : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(CorePlatform);
  CorePlatform(sc_core::sc_module_name name, PlatformOptions opt);
  ~CorePlatform() override;

  // Runs `p` with HBM holding `hbm_image` from address 0 (sized `hbm_bytes`); the program
  // image goes at `program_base`. With `expect`, the host first checks the core's CONFIG CSRs
  // against it. Throws tern::Error for a config mismatch, protocol errors, timeouts and
  // whatever a hook throws (the simulation stops at once).
  PlatformRun run(const isa::Program& p, const std::vector<uint8_t>& hbm_image,
                  uint64_t hbm_bytes, uint32_t program_base, const CoreConfig* expect = nullptr);

  HbmTarget& hbm() { return *hbm_; }
  const PlatformOptions& options() const { return opt_; }
  // Hooks, called in the clock thread as things happen.
  std::function<void(const RetireEvent&)> on_retire;
  std::function<void(const AxiWriteEvent&)> on_hbm_write;
  // A DMA transfer ended: global queue, descriptor, cycle.
  std::function<void(uint32_t queue, uint32_t desc, uint64_t cycle)> on_dma_end;

 private:
  struct Impl;
  void clock_thread();
  void host_thread();
  PlatformOptions opt_;
  std::unique_ptr<Impl> impl_;
  std::unique_ptr<HbmTarget> hbm_;
};

}  // namespace tern::tb
