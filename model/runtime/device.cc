#include "runtime/device.h"

#include <fmt/format.h>

#include "common/error.h"
#include "core/memory.h"

namespace tern {

Device::Device(const CoreConfig& cfg, Backend backend, core::CoreOptions options)
    : cfg_(cfg), backend_(backend), options_(options) {}

DeviceRun Device::run(const kernel::Kernel& k, const isa::Program& program,
                      const std::map<std::string, TensorBits>& inputs) {
  if (backend_ != Backend::kGolden)  // the RTL backend arrives with the core top (issue 7)
    throw Error(fmt::format("kernel '{}': backend {} is not built yet", k.name(), int(backend_)));
  core::CoreOptions opt = options_;
  opt.hbm_bytes = std::max<uint64_t>(opt.hbm_bytes, k.hbm_bytes());
  core::CoreModel model(cfg_, opt);
  for (const auto& t : k.tensors()) {
    if (t->output) continue;
    auto it = inputs.find(t->name);
    if (it == inputs.end())
      throw Error(fmt::format("kernel '{}': input '{}' was not given", k.name(), t->name));
    const size_t n = size_t(t->rows) * t->cols;
    if (it->second.size() != n)
      throw Error(fmt::format("kernel '{}': input '{}' has {} elements, its shape {} x {} needs {}",
                              k.name(), t->name, it->second.size(), t->rows, t->cols, n));
    const uint32_t eb = core::dtype_bytes(t->dtype);
    for (size_t i = 0; i < n; ++i) {
      const uint32_t v = it->second[i];
      const uint8_t b[4] = {uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)};
      model.hbm().write(t->address + i * eb, b, eb);
    }
  }
  for (const auto& [name, bits] : inputs) {
    bool known = false;
    for (const auto& t : k.tensors()) known |= t->name == name && !t->output;
    if (!known) throw Error(fmt::format("kernel '{}' has no input '{}'", k.name(), name));
  }
  DeviceRun r;
  r.stats = model.run(program);
  r.trace = model.trace();
  for (const auto& t : k.tensors()) {
    if (!t->output) continue;
    const uint32_t eb = core::dtype_bytes(t->dtype);
    TensorBits& out = r.outputs[t->name];
    out.resize(size_t(t->rows) * t->cols);
    for (size_t i = 0; i < out.size(); ++i) {
      uint8_t b[4] = {};
      model.hbm().read(t->address + i * eb, b, eb);
      out[i] = uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24;
    }
  }
  return r;
}

std::string trace_json(const std::vector<core::TraceEvent>& trace, const std::string& kernel) {
  // One process, one thread per agent; "X" complete events, timestamps in estimated cycles.
  std::map<std::string, int> tid;
  for (const auto& e : trace) tid.emplace(e.agent, int(tid.size()) + 1);
  std::string out = "{\"traceEvents\":[\n";
  out += fmt::format("{{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,"
                     "\"args\":{{\"name\":\"tern {}\"}}}}", kernel);
  for (const auto& [agent, id] : tid)
    out += fmt::format(",\n{{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":{},"
                       "\"args\":{{\"name\":\"{}\"}}}}", id, agent);
  for (const auto& e : trace) {
    if (e.wait_start < e.start)
      out += fmt::format(",\n{{\"name\":\"wait\",\"cat\":\"semaphore\",\"ph\":\"X\",\"pid\":1,"
                         "\"tid\":{},\"ts\":{},\"dur\":{},\"args\":{{\"sync\":\"{}\"}}}}",
                         tid[e.agent], e.wait_start, e.start - e.wait_start, e.detail);
    out += fmt::format(",\n{{\"name\":\"{}\",\"cat\":\"{}\",\"ph\":\"X\",\"pid\":1,\"tid\":{},"
                       "\"ts\":{},\"dur\":{},\"args\":{{\"pc\":{},\"sync\":\"{}\"}}}}",
                       e.name, e.agent, tid[e.agent], e.start, e.end - e.start, e.pc, e.detail);
  }
  out += "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"time_unit\":\"estimated cycles\"}}\n";
  return out;
}

}  // namespace tern
