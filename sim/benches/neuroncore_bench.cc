// tern_sim_neuroncore: waveform regression bench of the whole NeuronCore RTL (rtl/core/tern_core.sv)
// through tb/core_harness.h: the reference kernels (--kernels) and constrained-random kernel-API
// programs (--random N) on the RTL and on the golden core model, HBM and faults compared; the
// FST shows the last run.
#include <fmt/format.h>

#include <random>
#include <string>

#include "Vtern_core_tiny.h"
#include "core_models.h"
#if TERN_SMALL_CORE
#include "Vtern_core_small.h"
#endif
#include "common/error.h"
#include "core_compare.h"
#include "stimulus/kernel_random.h"
#include "kernels/kernels.h"
#include "verdict.h"

namespace {

using namespace tern;

void record(sim::Verdict& v, const std::string& what, const tb::CoreCompare& c) {
  for (const std::string& e : c.errors) v.errors.push_back(fmt::format("{}: {}", what, e));
  if (c.golden_fault) v.errors.push_back(fmt::format("{}: the golden model faulted", what));
  v.cycles += c.rtl.cycles;
}

template <typename Top>
sim::Verdict run(const CoreConfig& cfg, uint64_t seed, bool kernels_too, uint32_t random,
                 const std::string& waves) {
  std::mt19937_64 rng(seed);
  sim::Verdict v;
  const auto& refs = kernels::reference_kernels();
  const size_t total = (kernels_too ? refs.size() : 0) + random;
  size_t run_index = 0;
  auto options = [&] {
    tb::CoreRunOptions opt;
    if (++run_index == total) opt.waves = waves;
    return opt;
  };
  if (kernels_too) {
    for (const kernels::RefKernel& ref : refs) {
      const kernels::Shape shape = ref.default_shape(cfg);
      const stimulus::KernelImage img = stimulus::reference_kernel_image(ref, cfg, shape, uint32_t(seed));
      const tb::CoreCompare c = tb::compare_core<Top>(cfg, img.program, img.hbm, img.regions, options());
      fmt::print("{} {}: {} RTL cycles\n", ref.name, kernels::shape_text(shape), c.rtl.cycles);
      record(v, ref.name, c);
    }
  }
  for (uint32_t i = 0; i < random; ++i) {
    const stimulus::KernelImage rk = stimulus::random_kernel(cfg, rng);
    const tb::CoreCompare c = tb::compare_core<Top>(cfg, rk.program, rk.hbm, rk.regions, options());
    record(v, fmt::format("random {} ({})", i, rk.recipe), c);
  }
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  return sim::run_bench([&] {
    const sim::BenchArgs args(argc, argv, {{"--kernels", "1"}, {"--random", "0"}});
    const std::string waves = args.waves;
    const uint64_t seed = args.seed;
    const bool kernels_too = args.number("--kernels") != 0;
    const uint32_t random = args.number("--random");
    const CoreConfig cfg = args.built_config();
    fmt::print("seed {} config {} kernels {} random {} waves {}\n", seed, cfg.name,
               kernels_too ? "all" : "none", random, waves.empty() ? "off" : waves);
    if (cfg.name == "tiny") return run<Vtern_core_tiny>(cfg, seed, kernels_too, random, waves);
#if TERN_SMALL_CORE
    if (cfg.name == "small") return run<Vtern_core_small>(cfg, seed, kernels_too, random, waves);
#endif
    tb::no_core_model("the NeuronCore bench", cfg.name);
  });
}
