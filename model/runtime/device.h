// tern::Device: the runtime. Load a kernel's program and input tensors, run, read outputs and
// statistics. The golden backend runs the golden core model; the RTL backend (the NeuronCore
// RTL issue) plugs in behind the same calls, so user code does not change.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/config.h"
#include "core/core_model.h"
#include "isa/isa.h"
#include "kernel/kernel.h"

namespace tern {

enum class Backend : uint8_t { kGolden = 0 };

// A tensor's elements as raw dtype bits, row-major.
using TensorBits = std::vector<uint32_t>;

struct DeviceRun {
  core::RunStats stats;
  std::vector<core::TraceEvent> trace;
  std::map<std::string, TensorBits> outputs;
};

class Device {
 public:
  explicit Device(const CoreConfig& cfg, Backend backend = Backend::kGolden,
                  core::CoreOptions options = {});

  // Runs `program` of kernel `k` with the named inputs (every input tensor must be given, with
  // rows x cols elements). Throws core::CoreFault for a bad program, tern::Error for bad input.
  DeviceRun run(const kernel::Kernel& k, const isa::Program& program,
                const std::map<std::string, TensorBits>& inputs);

 private:
  CoreConfig cfg_;
  Backend backend_;
  core::CoreOptions options_;
};

// Chrome/Perfetto trace-event JSON of a run's per-engine timeline (estimated cycles as us).
std::string trace_json(const std::vector<core::TraceEvent>& trace, const std::string& kernel);

}  // namespace tern
