// tern_sim_control: waveform regression bench of the control ISA (rtl/core/tern_seq_cluster.sv:
// the five sequencers and the semaphore bank). Runs random control programs at their extremes,
// half of them with a hazard that ends in a fault, on the RTL and on the golden core model
// (tb/control_random.h), prints the functional coverage table, and passes when every program
// agrees and, from 1000 programs on, every coverage bin was hit. `make sim` runs 2000;
// TAGS=nightly runs 10^6 (docs/verification.md "Random programs over the control ISA").
#include <fmt/format.h>

#include <random>
#include <string>

#include "common/config.h"
#include "control_random.h"
#include "isa/asm.h"
#include "verdict.h"

int main(int argc, char** argv) {
  using namespace tern;
  return sim::run_bench([&] {
    const sim::BenchArgs args(argc, argv, {{"--programs", "2000"}, {"--progress", "0"}});
    const CoreConfig cfg = args.built_config();
    const uint32_t programs = args.number("--programs"), progress = args.number("--progress");
    if (cfg.name != "tiny") throw Error(fmt::format("the control bench runs on tiny, not '{}'", cfg.name));
    fmt::print("seed {} programs {} waves {}\n", args.seed, programs, args.waves.empty() ? "off" : args.waves);
    std::mt19937_64 rng(args.seed);
    tb::ControlProgramCheck check(cfg);
    sim::Verdict v;
    for (uint32_t n = 0; n < programs && v.errors.empty(); ++n) {
      for (const std::string& e : check.run_one(rng, n)) v.errors.push_back(e);
      if (progress != 0 && (n + 1) % progress == 0) fmt::print("{} programs\n", n + 1);
    }
    fmt::print("{}", check.coverage().table());
    if (programs >= 1000)
      for (const std::string& bin : check.coverage().missing()) v.errors.push_back("coverage bin never hit: " + bin);
    v.cycles = check.rtl_cycles();
    if (!args.waves.empty() && programs > 0) {  // the last program again, traced
      tb::SeqRunOptions opt = tb::ControlProgramCheck::options();
      opt.waves = args.waves;
      tb::RtlSeqCluster traced(tb::kControlHbmBytes, opt);
      traced.run(isa::assemble(check.last_program(), "last"), tb::kControlProgramBase);
    }
    return v;
  });
}
