// tern::Device: the runtime. Load a kernel's program and input tensors, run, read outputs and
// statistics. Three backends behind the same call (docs/platform.md):
//   golden  the golden core model (estimated cycles);
//   rtl     the verilated NeuronCore in the SystemC platform (simulated cycles, CSR counters,
//           the trace port's timeline);
//   cross   both, compared at the chosen depth (end, transfer, lockstep); a mismatch throws.
// The RTL backends are the testbench's SystemC platform behind sw/runtime/rtl_backend.h
// (library tern_runtime_rtl): a program that runs on them links it and passes its runner in
// DeviceOptions::rtl; without one, rtl and cross are a clear error.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/config.h"
#include "core/core_model.h"
#include "isa/isa.h"
#include "kernel/kernel.h"

namespace tern {

enum class Backend : uint8_t { kGolden = 0, kRtl = 1, kCross = 2 };
Backend parse_backend(const std::string& name);  // golden, rtl, cross
const char* backend_name(Backend b);

// A tensor's elements as raw dtype bits, row-major.
using TensorBits = std::vector<uint32_t>;

struct DeviceOptions;

// The RTL's own figures (rtl and cross), from its CSR counters and the platform.
struct RtlRunStats {
  uint64_t cycles = 0;  // start to interrupt
  double wall_seconds = 0;
  std::array<uint64_t, isa::kNumSeqs> retired{}, busy_cycles{}, sem_wait_cycles{},
      fetch_wait_cycles{}, conflict_cycles{};
  uint64_t dma_bytes_read = 0, dma_bytes_written = 0;
  uint32_t dma_outstanding_hwm = 0;
  uint64_t axi_reads = 0, axi_writes = 0;
  uint64_t lockstep_instructions = 0, scoreboard_bytes = 0;  // cross: what was compared
};

struct DeviceRun {
  core::RunStats stats;                   // golden: the model's; rtl: its instruction counts
  std::vector<core::TraceEvent> trace;    // golden: estimated; rtl/cross: the RTL's timeline
  std::map<std::string, TensorBits> outputs;
  std::optional<RtlRunStats> rtl;
};

// What the RTL backends are given and give back.
struct RtlJob {
  const CoreConfig& cfg;
  const isa::ProgramImage& image;  // the program and its tensors
  const isa::Program& program;
  const std::vector<uint8_t>& hbm;  // inputs at their addresses
  const DeviceOptions& options;
  bool cross = false;
};
struct RtlResult {
  std::vector<uint8_t> hbm;              // after the run
  std::vector<core::TraceEvent> timeline;
  RtlRunStats stats;
};
using RtlRunner = std::function<RtlResult(const RtlJob&)>;

struct DeviceOptions {
  core::CoreOptions core;        // the golden model's options; core.hbm_timing is the RTL platform's too
  std::string check = "end";     // cross: end, transfer or lockstep
  std::string waves;             // rtl/cross: an FST file of the run (empty: none)
  RtlRunner rtl;                 // rtl/cross: the platform's runner (rtl_runner())
};

class Device {
 public:
  explicit Device(const CoreConfig& cfg, Backend backend = Backend::kGolden,
                  DeviceOptions options = {});
  Device(const CoreConfig& cfg, Backend backend, core::CoreOptions options);

  // Runs `program` of kernel `k` with the named inputs (every input tensor must be given, with
  // rows x cols elements). Throws core::CoreFault for a bad program (golden), tern::Error for
  // bad input, an RTL fault or a cross mismatch.
  DeviceRun run(const kernel::Kernel& k, const isa::Program& program,
                const std::map<std::string, TensorBits>& inputs);
  // The same for a self-describing image (a .tbin or assembly file's): its tensor table says
  // where the inputs go and the outputs come from.
  DeviceRun run(const isa::ProgramImage& image, const std::map<std::string, TensorBits>& inputs);

 private:
  CoreConfig cfg_;
  Backend backend_;
  DeviceOptions options_;
};

// Chrome/Perfetto trace-event JSON of a run's per-engine timeline; `time_unit` names what a
// microsecond of the trace is ("estimated cycles", "RTL cycles").
std::string trace_json(const std::vector<core::TraceEvent>& trace, const std::string& kernel,
                       const std::string& time_unit = "estimated cycles");

}  // namespace tern
