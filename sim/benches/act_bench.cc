// tern_sim_act: waveform regression bench of the Scalar Engine. Runs a random instruction mix
// (every function, dtypes in and out, RNE and SR, scale/bias immediates and per-lane vectors,
// the reduce commands, some illegal commands) under stream stalls on the config's verilated
// engine, compares every result, accumulator and error report with the golden model, and ends
// with PASS or FAIL.
#include <fmt/format.h>

#include <random>
#include <string>

#include "Vtern_act_tiny.h"
#include "core_models.h"
#if TERN_SMALL_CORE
#include "Vtern_act_small.h"
#endif
#include "act_check.h"
#include "common/config.h"
#include "common/error.h"
#include "verdict.h"

namespace {

template <typename Model>
tern::tb::ActCheck run(const tern::CoreConfig& cfg, const std::vector<tern::tb::ActOp>& ops, uint32_t seed,
                       const std::string& waves) {
  tern::tb::RtlActUnit<Model> rtl(cfg.partitions, seed);
  if (!waves.empty()) rtl.trace(waves, 3);  // engine and lane ports; not every unit's insides
  rtl.set_stalls(seed);
  tern::act::ScalarEngine golden(cfg.partitions, seed);
  return tern::tb::run_and_check_act(rtl, golden, ops, 10'000'000);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace tern;
  return sim::run_bench([&] {
    const sim::BenchArgs args(argc, argv, {{"--commands", "200"}, {"--max-n", "16"}});
    const std::string waves = args.waves;
    const uint64_t seed = args.seed;
    const uint32_t commands = args.number("--commands"), max_n = args.number("--max-n");
    const CoreConfig cfg = args.built_config();
    fmt::print("seed {} config {} ({} lanes) commands {} waves {}\n", seed, cfg.name, cfg.partitions, commands,
               waves.empty() ? "off" : waves);
    std::mt19937_64 rng(seed);
    std::vector<tb::ActOp> ops;
    for (uint32_t i = 0; i < commands; ++i) ops.push_back(tb::random_act_op(cfg.partitions, max_n, rng));
    const auto s = static_cast<uint32_t>(seed);
    tb::ActCheck r;
    if (cfg.name == "tiny") r = run<Vtern_act_tiny>(cfg, ops, s, waves);
#if TERN_SMALL_CORE
    else if (cfg.name == "small") r = run<Vtern_act_small>(cfg, ops, s, waves);
#endif
    else tb::no_core_model("the scalar engine bench", cfg.name);
    fmt::print("{} commands ({} rejected), {} elements per lane, {} cycles, {} mismatches\n", r.commands, r.rejected,
               r.elements, r.cycles, r.mismatch_count);
    sim::Verdict v{r.cycles, {}};
    for (const auto& m : r.mismatches) v.errors.push_back(m);
    if (r.elements == 0) v.errors.push_back("nothing was checked");
    return v;
  });
}
