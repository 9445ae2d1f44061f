// tern_sim_core: waveform regression bench of the core RTL so far (rtl/core/tern_core_vec.sv:
// the five sequencers, semaphores, SBUF, PSUM and the DVE/POOL datapaths). Runs random Vector
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
    std::string config, waves;
    uint64_t seed = 1;
    uint32_t programs = 20;
    for (int i = 1; i < argc; ++i) {
      const std::string k = argv[i];
      auto value = [&]() -> std::string {
        if (i + 1 >= argc) throw Error(fmt::format("option {} needs a value", k));
        return argv[++i];
      };
      if (k == "--config") config = value();
      else if (k == "--waves") waves = value();
      else if (k == "--seed") seed = std::stoull(value());
      else if (k == "--programs") programs = static_cast<uint32_t>(std::stoul(value()));
      else throw Error(fmt::format("unknown option '{}'", k));
    }
    if (config.empty()) throw Error("--config <yaml> is required");
    const CoreConfig cfg = load_config(config);
    fmt::print("seed {} config {} programs {} waves {}\n", seed, cfg.name, programs,
               waves.empty() ? "off" : waves);
    if (cfg.name == "tiny") return run<tb::RtlCoreVecTiny>(cfg, seed, programs, waves);
    if (cfg.name == "small") return run<tb::RtlCoreVecSmall>(cfg, seed, programs, waves);
    throw Error(fmt::format("the core bench has models for tiny and small, not '{}'", cfg.name));
  });
}
