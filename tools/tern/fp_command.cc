#include "fp_command.h"

#include <iostream>
#include <memory>

#include "cmdline.h"
#include "common/error.h"
#include "fp_blocks.h"
#include "fp_filter.h"

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

// The verilated numerics blocks (tb/fp_blocks.h) behind the filter's interface.
class RtlBackend final : public fpcmd::Backend {
 public:
  uint32_t add(uint32_t a, uint32_t b) override { return rtl_.fp32_add(a, b); }
  uint32_t mac(uint32_t acc, Dtype ta, uint32_t a, Dtype tb, uint32_t b) override {
    return rtl_.mac_step(acc, ta, a, tb, b);
  }
  uint32_t from_fp32(Dtype to, uint32_t x, ConvertMode mode, uint32_t random) override {
    return rtl_.convert_from_fp32(to, x, mode, random);
  }
  uint32_t to_fp32(Dtype from, uint32_t x) override { return rtl_.convert_to_fp32(from, x); }
  bool converts_integers() const override { return false; }
  const char* name() const override { return "RTL"; }

 private:
  tb::RtlFp rtl_;
};

struct Options {
  std::string op;
  bool rtl = false;
  fpcmd::OpOptions op_options;
};

// The options from args (CLI11); false after --help, printed to out.
bool parse_options(const std::vector<std::string>& args, Options& o, std::ostream& out) {
  std::string backend = "golden", round = "rne", types;
  fpcmd::OpOptions& p = o.op_options;
  CLI::App app{"tern fp: the numerics blocks over hex vectors", "tern fp"};
  app.footer(kOps);
  app.add_option("op", o.op, "add, mac, to-<dtype> or from-<dtype>")->required();
  app.add_option("--backend", backend, "golden or rtl (the verilated blocks)")
      ->check(CLI::IsMember({"golden", "rtl"}))->capture_default_str();
  app.add_option("--round", round, "rne or sr")->check(CLI::IsMember({"rne", "sr"}))->capture_default_str();
  cli::add_uint(app, "--seed", p.seed, "the SR generator's seed");
  cli::add_uint(app, "--lane", p.lane, "the SR generator's lane");
  app.add_flag("--saturate", p.mode.saturate, "to-<dtype>: saturate instead of overflowing to Inf");
  app.add_option("--types", types, "mac: the operand dtypes A,B (default bf16,bf16)");
  if (!cli::parse_command(app, "tern fp", args, out)) return false;
  o.rtl = backend == "rtl";
  p.mode.rounding = round == "sr" ? Rounding::kStochastic : Rounding::kNearestEven;
  if (!types.empty()) {
    const size_t comma = types.find(',');
    if (comma == std::string::npos) throw Error("--types wants two dtypes: A,B");
    p.ta = fpcmd::parse_dtype(types.substr(0, comma));
    p.tb = fpcmd::parse_dtype(types.substr(comma + 1));
  }
  return true;
}

}  // namespace

int run_fp_command(const std::vector<std::string>& args, std::istream& in, std::ostream& out) {
  Options o;
  if (!parse_options(args, o, out)) return 0;
  std::unique_ptr<fpcmd::Backend> backend;
  if (o.rtl) {
    backend = std::make_unique<RtlBackend>();
  } else {
    backend = std::make_unique<fpcmd::GoldenBackend>();
  }
  const fpcmd::Operation op = fpcmd::make_operation(o.op, o.op_options, *backend);
  fpcmd::filter(op, o.op_options, in, out);
  return 0;
}

}  // namespace tern
