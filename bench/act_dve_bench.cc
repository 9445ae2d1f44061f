// tern_bench_act_dve: the Scalar (ACT) and Vector (DVE) Engines. Reports the cycles one
// instruction takes against its free size (from the simulation; ACT also back to back), the
// start cost that follows (cycles - n), and the accuracy table of every ACT function (a dense sweep
// of 10^6 points over its valid range and every BF16 input, against double precision).
// Writes build/bench/act_dve.json (a list of records) and, with --markdown FILE, the
// accuracy table of docs/act-accuracy.md.
#include <fmt/format.h>

#include <fstream>
#include <random>

#include "Vtern_act_tiny.h"
#include "core_models.h"
#if TERN_SMALL_CORE
#include "Vtern_act_small.h"
#endif
#include "act_accuracy.h"
#include "bench_json.h"
#include "cmdline.h"
#include "act_check.h"
#include "dve_check.h"
#include "common/config.h"
#include "common/error.h"

namespace {

using namespace tern;

struct CycleRecord {
  std::string engine, config, op;
  uint32_t n, instructions;
  uint64_t cycles;
};

// The Scalar Engine of the small config when the build has it, else tiny's: its cycles do not
// depend on the lane count (docs/scalar-engine.md).
#if TERN_SMALL_CORE
using ActModel = Vtern_act_small;
constexpr const char* kActConfig = "small";
#else
using ActModel = Vtern_act_tiny;
constexpr const char* kActConfig = "tiny";
#endif

// One ACT function over n elements per lane, `count` instructions back to back.
CycleRecord act_cycles(const CoreConfig& cfg, act::ActFunc f, uint32_t n, uint32_t count) {
  tb::RtlActUnit<ActModel> rtl(cfg.partitions, 1);
  act::ScalarEngine golden(cfg.partitions, 1);
  std::mt19937_64 rng(n);
  std::vector<tb::ActOp> ops;
  for (uint32_t i = 0; i < count; ++i) {
    tb::ActOp op = tb::random_act_op(cfg.partitions, 1, rng);
    op.cmd = {};
    op.cmd.func = static_cast<uint8_t>(f);
    op.cmd.in_dtype = op.cmd.out_dtype = static_cast<uint8_t>(Dtype::kBf16);
    op.cmd.n = n;
    op.in.assign(cfg.partitions, std::vector<uint32_t>(n));
    for (auto& row : op.in) {
      for (auto& e : row) e = tb::random_act_element(Dtype::kBf16, rng);
    }
    ops.push_back(std::move(op));
  }
  const tb::ActCheck r = tb::run_and_check_act(rtl, golden, ops, 100'000'000);
  if (r.mismatch_count) throw Error("ACT results differ from the golden model: " + r.mismatches.front());
  return {"act", cfg.name, act::act_func_name(f), n, count, r.cycles};
}

// Vector Engine instructions over n elements on an idle engine, for the tiny and small
// configs: cycles from the first command until idle, and the first result's cycle; one
// instruction, and for the element-wise ones also eight back to back (the engine takes the
// next behind the last one's beats: docs/vector-engine.md "Back to back").
void bench_dve(const std::string& config_dir, const std::vector<uint32_t>& sizes, std::vector<bench::Record>& records) {
  const DveOp ops[] = {DveOp::kTensorTensor, DveOp::kTensorScalar, DveOp::kTensorReduce, DveOp::kTensorCopy,
                       DveOp::kTensorTensorScan, DveOp::kBnStats, DveOp::kMax8, DveOp::kTranspose};
  for (const char* name : {"tiny", "small"}) {
    const CoreConfig cfg = load_config(config_dir + "/" + name + ".yaml");
    tb::with_dve_model(cfg, [&](auto* tag) {
      using Model = std::remove_pointer_t<decltype(tag)>;
      std::mt19937_64 rng(2026);
      for (DveOp op : ops) {
        for (uint32_t n0 : sizes) {
          for (uint32_t count : {1u, 8u}) {
            if (count > 1 && !dve_streams(op)) continue;
            DveCommand c;
            c.op = op;
            c.alu0 = DveAlu::kAdd;
            c.alu1 = DveAlu::kMultiply;
            c.in0 = c.in1 = Dtype::kBf16;
            c.out = Dtype::kBf16;
            c.imm0 = 0x3F800000u;
            c.imm1 = 0x40000000u;
            const uint32_t block = std::min(cfg.partitions, 32u);
            c.n = op == DveOp::kTranspose ? std::max(block, n0 / block * block) : op == DveOp::kMax8 ? std::max(8u, n0) : n0;
            if (op == DveOp::kBnStats) c.in0 = c.out = Dtype::kFp32;
            tb::RtlDve<Model> rtl(cfg);
            VectorEngine golden(cfg);
            std::vector<tb::DveItem> items;
            for (uint32_t i = 0; i < count; ++i) items.push_back(tb::make_item(c, cfg.partitions, rng));
            const tb::DveCheck r = tb::run_and_check(rtl, golden, items, 10'000'000);
            if (r.mismatches) throw Error(fmt::format("DVE {} differs from the golden model: {}", dve_op_name(op), r.first_mismatch));
            const double per = static_cast<double>(r.cycles) / count, start = per - c.n;
            fmt::print("dve {:<6} {:<20} n {:>5} x {} instructions: {:>7} cycles, {:.2f} per instruction, first result at "
                       "cycle {}, start cost {:.2f}\n", name, dve_op_name(op), c.n, count, r.cycles, per, r.first_out_cycle,
                       start);
            records.push_back({{"engine", "dve"}, {"config", name}, {"op", dve_op_name(op)}, {"n", c.n},
                               {"instructions", count}, {"cycles", r.cycles}, {"cycles_per_instruction", per},
                               {"first_result_cycle", r.first_out_cycle}, {"start_cost", start}});
          }
        }
      }
      return 0;
    });
  }
}

}  // namespace

int main(int argc, char** argv) {
  try {
    std::string out_dir = "build/bench", config_dir = "configs", markdown;
    bool quick = false;
    CLI::App app{"tern_bench_act_dve: the Scalar and Vector Engines' cycles and the activation "
                 "functions' accuracy, into <out>/act_dve.json"};
    app.add_option("--out", out_dir, "the JSON's directory")->capture_default_str();
    app.add_option("--configs", config_dir, "the configs' directory")->capture_default_str();
    app.add_option("--markdown", markdown, "also write the accuracy tables to this file");
    app.add_flag("--quick", quick, "few sizes and points: a smoke test of the bench");
    if (int status = 0; !tern::cli::parse(app, argc, argv, status)) return status;
    const CoreConfig act_cfg = load_config(config_dir + "/" + kActConfig + ".yaml");
    std::vector<bench::Record> records;

    // Cycles vs free size.
    const std::vector<uint32_t> sizes = quick ? std::vector<uint32_t>{1, 64} : std::vector<uint32_t>{1, 8, 64, 512, 2048};
    for (uint32_t n : sizes) {
      for (uint32_t count : {1u, 8u}) {
        const CycleRecord r = act_cycles(act_cfg, act::ActFunc::kGelu, n, count);
        const double per = static_cast<double>(r.cycles) / r.instructions;
        fmt::print("{} {:<6} {:<8} n {:>5} x {} instructions: {:>7} cycles, {:.2f} per instruction, start cost {:.2f}\n",
                   r.engine, r.config, r.op, r.n, r.instructions, r.cycles, per, per - r.n);
        records.push_back({{"engine", r.engine}, {"config", r.config}, {"op", r.op}, {"n", r.n},
                           {"instructions", r.instructions}, {"cycles", r.cycles}, {"cycles_per_instruction", per},
                           {"start_cost", per - r.n}});
      }
    }

    bench_dve(config_dir, quick ? std::vector<uint32_t>{1, 64} : std::vector<uint32_t>{1, 8, 64, 512, 4096}, records);

    // The accuracy table.
    std::string table =
        "| function | valid range | fp32 max ulp | fp32 mean ulp | max ulp / condition | worst input | "
        "BF16 inputs | BF16 not faithful | BF16 max ulp |\n|---|---|---|---|---|---|---|---|---|\n";
    for (int i = 0; i < act::kNumActFuncs; ++i) {
      const auto f = static_cast<act::ActFunc>(i);
      const auto a = oracle::measure_act(f, quick ? 10000 : 1000000, [f](uint32_t x) { return act::act_function(f, x); });
      const act::ValidRange r = act::valid_range(f);
      const std::string range = f == act::ActFunc::kReciprocal ? fmt::format("+-[{:g}, {:g}]", r.lo, r.hi)
                                                              : fmt::format("[{:g}, {:g}]", r.lo, r.hi);
      table += fmt::format("| {} | {} | {:.3f} | {:.3f} | {:.3f} | {:g} | {} | {} | {:.3f} |\n", act::act_func_name(f),
                           range, a.max_ulp, a.mean_ulp, a.max_ulp_conditioned, a.worst_input, a.bf16_inputs,
                           a.bf16_unfaithful, a.bf16_max_ulp);
      records.push_back({{"engine", "act"}, {"accuracy", act::act_func_name(f)}, {"valid_lo", r.lo},
                         {"valid_hi", r.hi}, {"points", a.points}, {"max_ulp", a.max_ulp}, {"mean_ulp", a.mean_ulp},
                         {"max_ulp_conditioned", a.max_ulp_conditioned}, {"worst_input", a.worst_input},
                         {"bf16_inputs", a.bf16_inputs}, {"bf16_unfaithful", a.bf16_unfaithful},
                         {"bf16_max_ulp", a.bf16_max_ulp}});
    }
    fmt::print("\n{}", table);
    if (!markdown.empty()) std::ofstream(markdown) << table;

    bench::write_records(out_dir, "act_dve.json", records);
    return 0;
  } catch (const std::exception& e) {
    fmt::print(stderr, "tern_bench_act_dve: error: {}\n", e.what());
    return 1;
  }
}
