#include "fp_command.h"

#include <fmt/format.h>

#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "common/error.h"
#include "common/parse.h"
#include "cmdline.h"
#include "fp_blocks.h"
#include "numerics/numerics.h"
#include "numerics/sr_rng.h"

namespace tern {
namespace {

constexpr const char* kOps = R"(Reads lines of hex operands on stdin, writes each line back with the hex result appended.
ops:
  add           fp32 + fp32 (RNE)                         operands: a b
  mac           acc + a*b, exact product, fp32 RNE        operands: acc a b (--types, default bf16,bf16)
  to-<dtype>    fp32 -> dtype (--round, --saturate)       operands: x
  from-<dtype>  dtype -> fp32                             operands: x
dtypes: fp32 tf32 bf16 fp16 fp8e4m3 fp8e5m2 int8 uint8 int32 (integers: golden backend only)
Stochastic rounding draws one value per line from the lane's generator (seed, lane).)";

Dtype parse_dtype(const std::string& name) {
  if (auto t = dtype_from_name(name)) return *t;
  throw Error(fmt::format("unknown dtype '{}'", name));
}

struct Options {
  std::string op;
  bool rtl = false;
  ConvertMode mode;
  uint32_t seed = 0;
  uint32_t lane = 0;
  Dtype ta = Dtype::kBf16;
  Dtype tb = Dtype::kBf16;
};

// The options from args (CLI11); false after --help, printed to out.
bool parse_options(const std::vector<std::string>& args, Options& o, std::ostream& out) {
  std::string backend = "golden", round = "rne", types;
  CLI::App app{"tern fp: the numerics blocks over hex vectors", "tern fp"};
  app.footer(kOps);
  app.add_option("op", o.op, "add, mac, to-<dtype> or from-<dtype>")->required();
  app.add_option("--backend", backend, "golden or rtl (the verilated blocks)")
      ->check(CLI::IsMember({"golden", "rtl"}))->capture_default_str();
  app.add_option("--round", round, "rne or sr")->check(CLI::IsMember({"rne", "sr"}))->capture_default_str();
  cli::add_uint(app, "--seed", o.seed, "the SR generator's seed");
  cli::add_uint(app, "--lane", o.lane, "the SR generator's lane");
  app.add_flag("--saturate", o.mode.saturate, "to-<dtype>: saturate instead of overflowing to Inf");
  app.add_option("--types", types, "mac: the operand dtypes A,B (default bf16,bf16)");
  if (!cli::parse_command(app, "tern fp", args, out)) return false;
  o.rtl = backend == "rtl";
  o.mode.rounding = round == "sr" ? Rounding::kStochastic : Rounding::kNearestEven;
  if (!types.empty()) {
    const size_t comma = types.find(',');
    if (comma == std::string::npos) throw Error("--types wants two dtypes: A,B");
    o.ta = parse_dtype(types.substr(0, comma));
    o.tb = parse_dtype(types.substr(comma + 1));
  }
  return true;
}

// One operation: the operand widths it reads and the function producing the result.
struct Operation {
  std::vector<int> operand_bits;
  int result_bits;
  std::function<uint32_t(const std::vector<uint32_t>&, uint32_t random)> apply;
};

}  // namespace

int run_fp_command(const std::vector<std::string>& args, std::istream& in, std::ostream& out) {
  Options o;
  if (!parse_options(args, o, out)) return 0;
  std::unique_ptr<tb::RtlFp> rtl;
  if (o.rtl) rtl = std::make_unique<tb::RtlFp>();

  Operation op;
  if (o.op == "add") {
    op = {{32, 32}, 32, [&](const std::vector<uint32_t>& v, uint32_t) {
            return rtl ? rtl->fp32_add(v[0], v[1]) : fp32_add(v[0], v[1]);
          }};
  } else if (o.op == "mac") {
    if (!is_mac_dtype(o.ta) || !is_mac_dtype(o.tb)) {
      throw Error(fmt::format("mac: {} x {} is not a Tensor Engine type pair", dtype_name(o.ta),
                              dtype_name(o.tb)));
    }
    op = {{32, dtype_bits(o.ta), dtype_bits(o.tb)}, 32,
          [&](const std::vector<uint32_t>& v, uint32_t) {
            return rtl ? rtl->mac_step(v[0], o.ta, v[1], o.tb, v[2])
                       : mac_step(v[0], o.ta, v[1], o.tb, v[2]);
          }};
  } else if (o.op.rfind("to-", 0) == 0) {
    const Dtype t = parse_dtype(o.op.substr(3));
    if (rtl && !is_float(t)) throw Error("the RTL down-converter has float targets only");
    op = {{32}, dtype_bits(t), [&, t](const std::vector<uint32_t>& v, uint32_t r) {
            return rtl ? rtl->convert_from_fp32(t, v[0], o.mode, r)
                       : convert_from_fp32(t, v[0], o.mode, r);
          }};
  } else if (o.op.rfind("from-", 0) == 0) {
    const Dtype t = parse_dtype(o.op.substr(5));
    if (rtl && !is_float(t)) throw Error("the RTL up-converter has float sources only");
    op = {{dtype_bits(t)}, 32, [&, t](const std::vector<uint32_t>& v, uint32_t) {
            return rtl ? rtl->convert_to_fp32(t, v[0]) : convert_to_fp32(t, v[0]);
          }};
  } else {
    throw Error(fmt::format("unknown op '{}' (try: tern fp --help)", o.op));
  }

  SrRng rng(o.seed, o.lane);
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    const std::string body = line.substr(0, line.find('#'));
    std::istringstream tokens(body);
    std::vector<std::string> words;
    for (std::string w; tokens >> w;) words.push_back(w);
    if (words.empty()) {
      out << line << "\n";  // blank and comment lines pass through
      continue;
    }
    if (words.size() != op.operand_bits.size()) {
      throw Error(fmt::format("line {}: {} wants {} operand(s), got {}", line_no, o.op,
                              op.operand_bits.size(), words.size()));
    }
    std::vector<uint32_t> values;
    for (size_t i = 0; i < words.size(); ++i) {
      values.push_back(uint32_t(parse_hex(words[i], fmt::format("line {}", line_no), op.operand_bits[i])));
    }
    const uint32_t random = o.mode.rounding == Rounding::kStochastic ? rng.draw() : 0;
    const uint32_t result = op.apply(values, random);
    out << fmt::format("{} {:0{}X}\n", line, result, op.result_bits / 4);
  }
  return 0;
}

}  // namespace tern
