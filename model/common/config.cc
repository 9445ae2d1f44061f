#include "common/config.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <limits>
#include <set>

#include "common/error.h"
#include "common/input.h"
#include "common/parse.h"
#include "common/names.h"

namespace tern {
namespace {

bool is_pow2(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

std::string where(const std::string& source, const YAML::Mark& mark) { return yaml_where(source, mark); }

// Config files are a dozen lines; a bound stops `--config /dev/zero` and the like at once.
constexpr size_t kMaxConfigBytes = 64 * 1024;

// One key of the schema: where it lands in the struct and its legal range.
struct Field {
  const char* key;
  uint32_t CoreConfig::*member;
  uint64_t min;
  uint64_t max;
  bool pow2;
};

constexpr Field kFields[] = {
    {"partitions", &CoreConfig::partitions, 1, 128, true},
    {"pe_rows", &CoreConfig::pe_rows, 1, 128, true},
    {"pe_cols", &CoreConfig::pe_cols, 1, 128, true},
    {"sbuf_partition_bytes", &CoreConfig::sbuf_partition_bytes, 64, 256 * 1024, false},
    {"psum_banks", &CoreConfig::psum_banks, 1, 8, true},
    {"psum_bank_bytes", &CoreConfig::psum_bank_bytes, 16, 2048, true},
    {"dma_engines", &CoreConfig::dma_engines, 1, 16, false},
    {"dma_queues", &CoreConfig::dma_queues, 1, 16, false},
    {"axi_data_bits", &CoreConfig::axi_data_bits, 32, 1024, true},
};

uint32_t read_uint(const YAML::Node& node, const Field& f, const std::string& source) {
  if (!node.IsScalar()) {
    throw Error(fmt::format("{}: '{}' must be an integer, got a {}", where(source, node.Mark()),
                            f.key, node.IsMap() ? "map" : "sequence"));
  }
  const std::string what = fmt::format("{}: '{}'", where(source, node.Mark()), f.key);
  const uint64_t value = parse_uint(node.Scalar(), what, f.min, f.max);
  if (f.pow2 && !is_pow2(value)) {
    throw Error(fmt::format("{}: '{}' = {} must be a power of two", where(source, node.Mark()),
                            f.key, value));
  }
  return static_cast<uint32_t>(value);
}

void check_consistency(const CoreConfig& c, const YAML::Node& root, const std::string& source) {
  auto fail = [&](const char* key, const std::string& why) {
    throw Error(fmt::format("{}: {}", where(source, root[key].Mark()), why));
  };
  if (c.pe_rows != c.partitions) {
    fail("pe_rows", fmt::format("pe_rows ({}) must equal partitions ({}): the array contracts "
                                "over the partition dimension",
                                c.pe_rows, c.partitions));
  }
  if (c.pe_cols > c.partitions) {
    fail("pe_cols", fmt::format("pe_cols ({}) must not exceed partitions ({}): results land in "
                                "PSUM partitions 0..M-1",
                                c.pe_cols, c.partitions));
  }
  if (c.sbuf_partition_bytes % 64 != 0) {
    fail("sbuf_partition_bytes",
         fmt::format("sbuf_partition_bytes ({}) must be a multiple of 64", c.sbuf_partition_bytes));
  }
}

}  // namespace

CoreConfig parse_config(const std::string& yaml_text, const std::string& source) {
  const YAML::Node root = load_yaml(yaml_text, source);
  if (!root.IsMap()) {
    throw Error(fmt::format("{}: a config must be a map of keys to values", source));
  }

  std::set<std::string> known{"name"};
  for (const Field& f : kFields) known.insert(f.key);
  for (const auto& kv : root) {
    const std::string key = kv.first.as<std::string>();
    if (!known.count(key)) {
      std::string list;
      for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
      throw Error(fmt::format("{}: unknown key '{}' (known keys: {})",
                              where(source, kv.first.Mark()), key, list));
    }
  }

  CoreConfig cfg;
  if (!root["name"]) throw Error(fmt::format("{}: missing key 'name'", source));
  if (!root["name"].IsScalar() || root["name"].Scalar().empty()) {
    throw Error(fmt::format("{}: 'name' must be a non-empty string", where(source, root["name"].Mark())));
  }
  cfg.name = root["name"].Scalar();
  // The name reaches generated SystemVerilog and C++ text and file names: one word, no newline.
  if (cfg.name.size() > 64 || cfg.name.find_first_not_of(
          "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-") != std::string::npos) {
    throw Error(fmt::format("{}: 'name' may use only letters, digits, '_', '.' and '-' (at most 64), got '{}'",
                            where(source, root["name"].Mark()), cfg.name));
  }
  for (const Field& f : kFields) {
    const YAML::Node node = root[f.key];
    if (!node) throw Error(fmt::format("{}: missing key '{}'", source, f.key));
    cfg.*(f.member) = read_uint(node, f, source);
  }
  check_consistency(cfg, root, source);
  return cfg;
}

CoreConfig load_config(const std::string& path) {
  return parse_config(read_input_file(path, "config file", kMaxConfigBytes), path);
}

std::string config_difference(const CoreConfig& a, const CoreConfig& b) {
  for (const Field& f : kFields) {
    if (a.*(f.member) != b.*(f.member)) return fmt::format("{} = {}, not {}", f.key, a.*(f.member), b.*(f.member));
  }
  return "";
}

std::string config_sv_package(const CoreConfig& cfg) {
  std::string out = fmt::format(
      "// Generated from config '{}' by `tern config sv`: do not edit.\n"
      "package tern_cfg_pkg;\n",
      cfg.name);
  for (const Field& f : kFields)
    out += fmt::format("  localparam int unsigned {} = {};\n", upper_camel(f.key), cfg.*(f.member));
  // Derived: tests/config_sv_test.sh holds the RTL's tern_pkg::sbuf_row_bytes to this value.
  const CoreConfig::FetchCache fetch = cfg.fetch_cache();
  out += fmt::format(
      "  /* verilator lint_off UNUSEDPARAM */\n"
      "  localparam int unsigned SbufRowBytes = {};  // CoreConfig::sbuf_row_bytes\n"
      "  /* verilator lint_on UNUSEDPARAM */\n"
      "  // Each sequencer's instruction cache (tern_seq_axi): CoreConfig::fetch_cache\n"
      "  localparam int unsigned FetchLines = {};\n"
      "  localparam int unsigned FetchGroup = {};\n"
      "  localparam int unsigned FetchAhead = {};\n",
      cfg.sbuf_row_bytes(), fetch.lines, fetch.group, fetch.ahead);
  out += "endpackage\n";
  return out;
}

}  // namespace tern
