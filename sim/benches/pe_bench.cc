// tern_sim_pe: waveform regression bench of the Tensor Engine + PSUM. Runs a random program
// (LoadStationary, MultiplyMoving with accumulation chains, Transpose, illegal commands) on
// the config's verilated unit, compares every touched PSUM word and every error report with
// the golden model, and ends with PASS or FAIL.
#include <fmt/format.h>

#include <random>
#include <string>

#include "common/error.h"
#include "pe_check.h"
#include "tensor_models.h"
#include "verdict.h"

int main(int argc, char** argv) {
  using namespace tern;
  return sim::run_bench([&] {
    const sim::BenchArgs args(argc, argv, {{"--matmuls", "20"}, {"--max-n", "16"}, {"--scenario", "random"}});
    const std::string waves = args.waves, scenario = args.text("--scenario");
    const uint64_t seed = args.seed;
    const uint32_t matmuls = args.number("--matmuls"), max_n = args.number("--max-n");
    const CoreConfig cfg = args.built_config();
    fmt::print("scenario {} seed {} config {} ({}x{} array) matmuls {} waves {}\n", scenario, seed,
               cfg.name, cfg.pe_rows, cfg.pe_cols, matmuls, waves.empty() ? "off" : waves);
    std::mt19937_64 rng(seed);
    std::vector<tb::PeOpItem> ops;
    if (scenario == "random") {
      ops = tb::random_program(cfg, matmuls, rng, {max_n, true, true});
    } else if (scenario == "full") {  // one full-size matmul per dtype pair: R x C x max-n
      for (Dtype ts : tb::kPeDtypes) {
        ops.push_back({{PeOp::kLoadStationary, ts, cfg.pe_rows, cfg.pe_cols},
                       tb::random_tile(ts, cfg.pe_rows, cfg.pe_cols, rng)});
        for (Dtype tm : tb::kPeDtypes) {
          ops.push_back({{PeOp::kMultiplyMoving, tm, 0, 0, max_n, 0, 0, tm != ts},
                         tb::random_tile(tm, cfg.pe_rows, max_n, rng)});
        }
      }
    } else {
      throw Error(fmt::format("unknown scenario '{}' (random, full)", scenario));
    }
    const tb::CheckResult r = tb::with_tensor_model(cfg, [&](auto* tag) {
      using Model = std::remove_pointer_t<decltype(tag)>;
      tb::RtlTensorUnit<Model> rtl(cfg);
      rtl.fill_psum(0);
      if (!waves.empty()) rtl.trace(waves);
      TensorEngine golden(cfg);
      Psum psum(cfg);
      return tb::run_and_check(cfg, rtl, golden, psum, ops, 100'000'000);
    });
    fmt::print("{} matmuls, {} MACs, {} PSUM words compared, {} cycles (estimate {}), {} mismatches\n",
               r.matmuls, r.macs, r.words_checked, r.cycles, r.estimate, r.mismatches);
    sim::Verdict v{r.cycles, {}};
    if (r.mismatches != 0) v.errors.push_back(fmt::format("{} mismatches, first: {}", r.mismatches, r.first_mismatch));
    if (r.cycles != r.estimate) v.errors.push_back(fmt::format("cycles {} differ from the model's estimate {}", r.cycles, r.estimate));
    if (r.words_checked == 0) v.errors.push_back("nothing was checked");
    return v;
  });
}
