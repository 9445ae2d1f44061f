// tern_sim_dve: waveform regression bench of the Vector Engine. Runs a small instruction mix
// (every instruction at least once, then random ones with stream stalls, and a rejected
// command) on the config's verilated tern_dve, compares every result element and every error
// report with the golden model, and ends with PASS or FAIL.
#include <fmt/format.h>

#include <random>
#include <string>

#include "common/error.h"
#include "dve_check.h"
#include "verdict.h"

int main(int argc, char** argv) {
  using namespace tern;
  return sim::run_bench([&] {
    const sim::BenchArgs args(argc, argv, {{"--instructions", "40"}});
    const std::string waves = args.waves;
    const uint64_t seed = args.seed;
    const uint32_t instructions = args.number("--instructions");
    const CoreConfig cfg = args.built_config();
    fmt::print("seed {} config {} ({} lanes) instructions {} waves {}\n", seed, cfg.name, cfg.partitions,
               instructions, waves.empty() ? "off" : waves);
    std::mt19937_64 rng(seed);
    const uint32_t P = cfg.partitions;
    std::vector<tb::DveItem> items;
    tb::RandomOptions opts;
    opts.max_n = 12;
    opts.illegal = false;
    for (int op = 0; op < kNumDveOps; ++op) {  // every instruction once, legal
      DveCommand c;
      do {
        c = tb::random_command(P, rng, opts);
      } while (static_cast<int>(c.op) != op);
      c.n = std::min<uint32_t>(c.n, 48);
      if (c.op == DveOp::kMax8) c.n = std::max<uint32_t>(c.n, 8);
      if (c.op == DveOp::kTranspose) c.n = P < 32 ? P : 32;
      items.push_back(tb::make_item(c, P, rng));
    }
    DveCommand bad;
    bad.op = DveOp::kTensorTensor;
    bad.alu0 = DveAlu::kBitwiseXor;  // on fp32: rejected
    items.push_back(tb::make_item(bad, P, rng));
    for (uint32_t i = 0; i < instructions; ++i) {
      DveCommand c = tb::random_command(P, rng, opts);
      c.n = std::min<uint32_t>(c.n, 48);
      if (c.op == DveOp::kMax8) c.n = std::max<uint32_t>(c.n, 8);
      if (c.op == DveOp::kTranspose) c.n = P < 32 ? P : 32;
      items.push_back(tb::make_item(c, P, rng));
    }
    const tb::DveCheck r = tb::with_dve_model(cfg, [&](auto* tag) {
      using Model = std::remove_pointer_t<decltype(tag)>;
      tb::RtlDve<Model> rtl(cfg);
      if (!waves.empty()) rtl.trace(waves);
      rtl.set_stalls(static_cast<uint32_t>(seed));
      VectorEngine golden(cfg);
      rtl.seed(static_cast<uint32_t>(seed));
      golden.seed(static_cast<uint32_t>(seed));
      return tb::run_and_check(rtl, golden, items, 10'000'000);
    });
    fmt::print("{} instructions, {} elements compared, {} rejected, {} cycles, {} mismatches\n", r.commands,
               r.elements, r.errors.size(), r.cycles, r.mismatches);
    sim::Verdict v{r.cycles, {}};
    if (r.mismatches != 0) v.errors.push_back(fmt::format("{} mismatches, first: {}", r.mismatches, r.first_mismatch));
    if (r.errors.size() != 1) v.errors.push_back(fmt::format("{} rejected commands, expected 1", r.errors.size()));
    if (r.elements == 0) v.errors.push_back("nothing was checked");
    return v;
  });
}
