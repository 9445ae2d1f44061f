// tern_sim_core: waveform regression bench of the compute side (rtl/core/tern_core_compute.sv:
// the five sequencers, semaphores, SBUF, PSUM and the four engines). Runs random Vector
// Engine programs, each from random SBUF/PSUM contents, on the RTL and on the golden core model
// and compares the memories and faults; the FST shows the last program.
#include <fmt/format.h>

#include <random>
#include <string>

#include "common/error.h"
#include "core_check.h"
#include "verdict.h"

namespace {

template <typename Harness>
tern::sim::Verdict run(const tern::CoreConfig& cfg, uint64_t seed, uint32_t programs,
                       const std::string& waves) {
  using namespace tern;
  std::mt19937_64 rng(seed);
  sim::Verdict v;
  for (uint32_t i = 0; i < programs; ++i) {
    uint32_t span = 0;
    const isa::Program p = tb::random_vec_program(cfg, rng, &span);
    tb::SeqRunOptions opt;
    if (i + 1 == programs) opt.waves = waves;
    Harness rtl(tb::kCoreHbmBytes, opt);
    uint64_t cycles = 0;
    for (const std::string& e : tb::compare_with_golden(cfg, rtl, p, span, rng, &cycles))
      v.errors.push_back(fmt::format("program {}: {}", i, e));
    v.cycles += cycles;
  }
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace tern;
  return sim::run_bench([&] {
    const sim::BenchArgs args(argc, argv, {{"--programs", "20"}});
    const std::string waves = args.waves;
    const uint64_t seed = args.seed;
    const uint32_t programs = args.number("--programs");
    const CoreConfig cfg = args.built_config();
    fmt::print("seed {} config {} programs {} waves {}\n", seed, cfg.name, programs,
               waves.empty() ? "off" : waves);
    if (cfg.name == "tiny") return run<tb::RtlCoreComputeTiny>(cfg, seed, programs, waves);
#if TERN_SMALL_CORE
    if (cfg.name == "small") return run<tb::RtlCoreComputeSmall>(cfg, seed, programs, waves);
#endif
    tb::no_core_model("the core bench", cfg.name);
  });
}
