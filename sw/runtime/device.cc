#include "runtime/device.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>

#include "common/error.h"
#include "core/memory.h"
#include "isa/image.h"

namespace tern {

Backend parse_backend(const std::string& name) {
  if (name == "golden") return Backend::kGolden;
  if (name == "rtl") return Backend::kRtl;
  if (name == "cross") return Backend::kCross;
  throw Error(fmt::format("unknown backend '{}' (golden, rtl, cross)", name));
}

const char* backend_name(Backend b) {
  switch (b) {
    case Backend::kGolden: return "golden";
    case Backend::kRtl: return "rtl";
    case Backend::kCross: return "cross";
  }
  return "?";
}

Device::Device(const CoreConfig& cfg, Backend backend, DeviceOptions options)
    : cfg_(cfg), backend_(backend), options_(std::move(options)) {}

Device::Device(const CoreConfig& cfg, Backend backend, core::CoreOptions options)
    : cfg_(cfg), backend_(backend) {
  options_.core = options;
}

DeviceRun Device::run(const kernel::Kernel& k, const isa::Program& program,
                      const std::map<std::string, TensorBits>& inputs) {
  return run(k.image(program), inputs);
}

namespace {

// HBM as the image lays it out: every input at its address, outputs zero; each input checked
// against its entry by name, size and trip bound.
std::vector<uint8_t> input_hbm(const isa::ProgramImage& image, const std::map<std::string, TensorBits>& inputs) {
  const std::string who = fmt::format("kernel '{}'", image.name);
  std::vector<uint8_t> hbm(std::max<uint64_t>(isa::kImageAlign, isa::image_align(image.data_bytes())), 0);
  for (const isa::TensorEntry& t : image.tensors) {
    if (t.output) continue;
    auto it = inputs.find(t.name);
    if (it == inputs.end()) throw Error(fmt::format("{}: input '{}' was not given", who, t.name));
    const size_t n = size_t(t.rows) * t.cols;
    if (it->second.size() != n)
      throw Error(fmt::format("{}: input '{}' has {} elements, its shape {} x {} needs {}", who,
                              t.name, it->second.size(), t.rows, t.cols, n));
    if (t.trip_max != 0 && it->second[0] > t.trip_max)
      throw Error(fmt::format("{}: trip count '{}' is {}, and the kernel was built for at most {}",
                              who, t.name, int32_t(it->second[0]), t.trip_max));
    const uint32_t eb = core::dtype_bytes(t.dtype);
    for (size_t i = 0; i < n; ++i)
      for (uint32_t b = 0; b < eb; ++b) hbm[t.address + i * eb + b] = uint8_t(it->second[i] >> (8 * b));
  }
  for (const auto& [name, bits] : inputs) {
    const isa::TensorEntry* t = image.find(name);
    if (!t || t->output) throw Error(fmt::format("{} has no input '{}'", who, name));
  }
  return hbm;
}

}  // namespace

DeviceRun Device::run(const isa::ProgramImage& image, const std::map<std::string, TensorBits>& inputs) {
  isa::check_image(image, fmt::format("kernel '{}'", image.name));
  const std::vector<uint8_t> hbm = input_hbm(image, inputs);
  const isa::Program& program = image.program;
  DeviceRun r;
  std::vector<uint8_t> after;
  if (backend_ == Backend::kGolden) {
    core::CoreOptions opt = options_.core;
    opt.hbm_bytes = std::max<uint64_t>(opt.hbm_bytes, hbm.size());
    core::CoreModel model(cfg_, opt);
    model.hbm().write(0, hbm.data(), hbm.size());
    r.stats = model.run(program);
    r.trace = model.trace();
    after.resize(hbm.size());
    model.hbm().read(0, after.data(), after.size());
  } else {
    if (!options_.rtl)
      throw Error(fmt::format("kernel '{}': backend {} needs the RTL platform's runner in "
                              "DeviceOptions::rtl (tern::rtl_runner() of tern_runtime_rtl; "
                              "tern-rtl has it)", image.name, backend_name(backend_)));
    RtlResult rr = options_.rtl(RtlJob{cfg_, image, program, hbm, options_, backend_ == Backend::kCross});
    after = std::move(rr.hbm);
    r.trace = std::move(rr.timeline);
    r.rtl = rr.stats;
    r.stats.cycles = rr.stats.cycles;
    for (int s = 0; s < isa::kNumSeqs; ++s) {
      r.stats.seq[size_t(s)].instructions = rr.stats.retired[size_t(s)];
      r.stats.seq[size_t(s)].busy_cycles = rr.stats.busy_cycles[size_t(s)];
      r.stats.seq[size_t(s)].wait_cycles = rr.stats.sem_wait_cycles[size_t(s)];
    }
    for (const core::TraceEvent& e : r.trace) r.stats.dma_transfers += e.agent.rfind("dma.", 0) == 0;
    r.stats.dma_bytes_read = rr.stats.dma_bytes_read;
    r.stats.dma_bytes_written = rr.stats.dma_bytes_written;
  }
  for (const isa::TensorEntry& t : image.tensors) {
    if (!t.output) continue;
    const uint32_t eb = core::dtype_bytes(t.dtype);
    TensorBits& out = r.outputs[t.name];
    out.resize(size_t(t.rows) * t.cols);
    for (size_t i = 0; i < out.size(); ++i) {
      uint32_t v = 0;
      for (uint32_t b = 0; b < eb; ++b) v |= uint32_t(after.at(t.address + i * eb + b)) << (8 * b);
      out[i] = v;
    }
  }
  return r;
}

std::string trace_json(const std::vector<core::TraceEvent>& trace, const std::string& kernel,
                       const std::string& time_unit) {
  // One process, one thread per agent (the engines in the sequencers' order, then the DMA
  // queues); "X" complete events, a cycle per microsecond; a semaphore wait is its own slice.
  std::map<std::string, int> tid;
  for (int s = 0; s < isa::kNumSeqs; ++s) tid.emplace(isa::seq_name(isa::Seq(s)), s + 1);
  for (const auto& e : trace) tid.emplace(e.agent, int(tid.size()) + 1);
  using Json = nlohmann::ordered_json;
  auto meta = [](const char* name, int thread, const std::string& value) {
    return Json{{"name", name}, {"ph", "M"}, {"pid", 1}, {"tid", thread}, {"args", {{"name", value}}}};
  };
  Json events = Json::array();
  events.push_back(meta("process_name", 0, "tern " + kernel));
  for (const auto& [agent, id] : tid) events.push_back(meta("thread_name", id, agent));
  for (const auto& e : trace) {
    if (e.wait_start < e.start)
      events.push_back({{"name", "wait"}, {"cat", "semaphore"}, {"ph", "X"}, {"pid", 1}, {"tid", tid[e.agent]},
                        {"ts", e.wait_start}, {"dur", e.start - e.wait_start}, {"args", {{"sync", e.detail}}}});
    events.push_back({{"name", e.name}, {"cat", e.agent}, {"ph", "X"}, {"pid", 1}, {"tid", tid[e.agent]},
                      {"ts", e.start}, {"dur", e.end - e.start},
                      {"args", {{"pc", e.pc}, {"issue", e.issue}, {"sync", e.detail}}}});
  }
  // One event a line: readable, and a viewer's loader does not care.
  std::string out = "{\"traceEvents\":[\n";
  for (size_t k = 0; k < events.size(); ++k) out += (k ? ",\n" : "") + events[k].dump();
  out += "\n],\"displayTimeUnit\":\"ns\",\"otherData\":" + Json{{"time_unit", time_unit}}.dump() + "}\n";
  return out;
}

}  // namespace tern
