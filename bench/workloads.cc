#include "workloads.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <utility>

#include "common/error.h"
#include "common/input.h"
#include "common/parse.h"

namespace tern::bench {
namespace {

constexpr size_t kMaxSuiteBytes = 1 << 20;

struct Reader {
  std::string source;
  std::string where(const YAML::Node& n) const { return yaml_where(source, n.Mark()); }
  YAML::Node need(const YAML::Node& map, const std::string& key, YAML::NodeType::value type) const {
    const YAML::Node v = map[key];
    if (!v || v.Type() != type)
      throw Error(fmt::format("{}: '{}' is missing or not a {}", where(map), key,
                              type == YAML::NodeType::Sequence ? "list" : type == YAML::NodeType::Map ? "map" : "value"));
    return v;
  }
  uint32_t size(const YAML::Node& v, const std::string& what) const {
    if (!v.IsScalar()) throw Error(fmt::format("{}: {} is not a number", where(v), what));
    return uint32_t(parse_uint(v.Scalar(), fmt::format("{}: {}", where(v), what), 1, 1u << 20));
  }
  std::vector<uint32_t> sizes(const YAML::Node& map, const std::string& key) const {
    std::vector<uint32_t> out;
    for (const YAML::Node& v : need(map, key, YAML::NodeType::Sequence)) out.push_back(size(v, key));
    return out;
  }
};

}  // namespace

std::vector<Workload> load_workloads(const std::string& path) {
  const Reader r{path};
  const YAML::Node root = load_yaml(read_input_file(path, "workload suite", kMaxSuiteBytes), path);
  if (!root.IsMap()) throw Error(fmt::format("{}: the suite is not a map", path));
  // dtype -> the kernel that runs the suite's GEMMs with operands of that dtype.
  std::vector<std::pair<std::string, std::string>> gemm_kernels;
  for (const auto& e : r.need(root, "gemm_kernels", YAML::NodeType::Map)) {
    const std::string dtype = e.first.Scalar();
    if (dtype != "bf16" && dtype != "fp8")
      throw Error(fmt::format("{}: dtype '{}': the suite's GEMMs take bf16 or fp8", r.where(e.first), dtype));
    if (!e.second.IsScalar())
      throw Error(fmt::format("{}: the {} GEMM kernel is not a name", r.where(e.second), dtype));
    try {
      kernels::find_kernel(e.second.Scalar());
    } catch (const Error& err) {
      throw Error(fmt::format("{}: {}", r.where(e.second), err.what()));
    }
    gemm_kernels.emplace_back(dtype, e.second.Scalar());
  }
  std::vector<Workload> out;
  std::set<std::pair<std::string, kernels::Shape>> seen;
  auto add = [&](Workload w) {
    if (seen.insert({w.kernel, w.shape}).second) out.push_back(std::move(w));
  };
  auto gemm = [&](const std::string& model, const std::string& layer, uint32_t m, uint32_t k, uint32_t n) {
    for (const auto& [dtype, kernel] : gemm_kernels)
      add({model, layer, kernel, {{"m", m}, {"k", k}, {"n", n}}, m, k, n, dtype});
  };
  for (const auto& entry : r.need(root, "models", YAML::NodeType::Map)) {
    const std::string model = entry.first.Scalar();
    const YAML::Node& m = entry.second;
    const uint32_t hidden = r.size(r.need(m, "hidden", YAML::NodeType::Scalar), "hidden");
    const uint32_t head_dim = r.size(r.need(m, "head_dim", YAML::NodeType::Scalar), "head_dim");
    const std::string norm = r.need(m, "norm", YAML::NodeType::Scalar).Scalar();
    if (norm != "layernorm" && norm != "rmsnorm")
      throw Error(fmt::format("{}: norm '{}' is neither layernorm nor rmsnorm", r.where(m["norm"]), norm));
    for (uint32_t t : r.sizes(m, "tokens")) {
      for (const auto& layer : r.need(m, "gemm", YAML::NodeType::Map)) {
        const YAML::Node& kn = layer.second;
        if (!kn.IsSequence() || kn.size() != 2)
          throw Error(fmt::format("{}: layer '{}' is not [K, N]", r.where(kn), layer.first.Scalar()));
        gemm(model, layer.first.Scalar(), t, r.size(kn[0], "K"), r.size(kn[1], "N"));
      }
      add({model, "softmax", "softmax", {{"rows", t}, {"d", t}}, 0, 0, 0, "fp32"});
      add({model, "norm", norm, {{"rows", t}, {"d", hidden}}, 0, 0, 0, "fp32"});
      add({model, "attention", "attention", {{"s", t}, {"d", head_dim}}, 0, 0, 0, "fp32"});
    }
  }
  for (uint32_t s : r.sizes(root, "square")) gemm("square", "gemm", s, s, s);
  return out;
}

Record workload_record(const Workload& w, const CoreConfig& cfg, const std::string& backend,
                       uint64_t cycles, const core::RunStats& golden, uint64_t tensor_bytes,
                       uint32_t port_bytes_per_cycle) {
  const uint64_t array = uint64_t(cfg.pe_rows) * cfg.pe_cols;
  uint64_t compute = (golden.pe_macs + array - 1) / array;
  if (w.m == 0)  // not a GEMM: the busiest engine, as the kernel issues its work
    for (const core::SeqStats& s : golden.seq) compute = std::max(compute, s.busy_cycles);
  const uint64_t hbm = (tensor_bytes + port_bytes_per_cycle - 1) / port_bytes_per_cycle;
  const double c = double(std::max<uint64_t>(cycles, 1));
  const double moved = double(golden.hbm_bytes) / double(port_bytes_per_cycle);
  return {{"model", w.model}, {"layer", w.layer}, {"kernel", w.kernel}, {"shape", kernels::shape_text(w.shape)},
          {"config", cfg.name}, {"backend", backend}, {"M", w.m}, {"K", w.k}, {"N", w.n}, {"dtype", w.dtype},
          {"cycles", cycles}, {"golden_cycles", golden.cycles}, {"macs", golden.pe_macs},
          {"hbm_bytes", golden.hbm_bytes}, {"tensor_bytes", tensor_bytes}, {"compute_bound_cycles", compute},
          {"hbm_bound_cycles", hbm}, {"bound", compute >= hbm ? "compute" : "hbm"},
          {"pe_utilization", double((golden.pe_macs + array - 1) / array) / c}, {"hbm_utilization", moved / c},
          {"roofline_fraction", double(std::max(compute, hbm)) / c}};
}

}  // namespace tern::bench
