// tern_sim_platform: waveform regression bench of the NeuronCore RTL in the SystemC TLM-2.0
// platform (tb/platform/): every reference kernel runs through the host initiator, the AXI
// bridges and the HBM target, compared with the golden model at --check end|transfer|lockstep.
// The FST holds every kernel of the run, one after the other (SystemC elaborates once).
// The verilated models before <systemc> (see tb/platform/core_platform.cc).
#include "Vtern_core_tiny.h"
#include "core_models.h"
#if TERN_SMALL_CORE
#include "Vtern_core_small.h"
#endif

#include <fmt/format.h>

#include <string>
#include <systemc>

#include "common/error.h"
#include "stimulus/kernel_random.h"
#include "kernels/kernels.h"
#include "platform/platform_check.h"
#include "verdict.h"

namespace {

using namespace tern;

template <typename Top>
sim::Verdict run(const CoreConfig& cfg, uint64_t seed, tb::CheckDepth depth, uint32_t latency,
                 const std::string& waves) {
  tb::PlatformOptions opt;
  opt.core_port = {latency, 64};
  opt.waves = waves;
  tb::CorePlatform<Top> platform("platform", opt);
  sim::Verdict v;
  for (const kernels::RefKernel& ref : kernels::reference_kernels()) {
    const kernels::Shape shape = ref.default_shape(cfg);
    const stimulus::KernelImage img = stimulus::reference_kernel_image(ref, cfg, shape, uint32_t(seed));
    const tb::PlatformCompare c =
        tb::platform_compare(platform, cfg, img.program, img.hbm, img.regions, depth);
    fmt::print("{} {}: {} cycles, {} instructions in lock-step, {} HBM bytes scoreboarded, "
               "{:.0f} cycles/s\n", ref.name, kernels::shape_text(shape), c.run.cycles,
               c.lockstep_instructions, c.scoreboard_bytes,
               double(c.run.cycles) / std::max(c.run.wall_seconds, 1e-9));
    for (const std::string& e : c.outcome.errors) v.errors.push_back(fmt::format("{}: {}", ref.name, e));
    if (c.outcome.golden_fault) v.errors.push_back(fmt::format("{}: the golden model faulted", ref.name));
    v.cycles += c.run.cycles;
  }
  return v;
}

}  // namespace

int sc_main(int argc, char** argv) {
  return sim::run_bench([&] {
    const sim::BenchArgs args(argc, argv, {{"--check", "lockstep"}, {"--hbm-latency", "200"}});
    const std::string waves = args.waves;
    const CoreConfig cfg = args.built_config();
    const tb::CheckDepth depth = tb::parse_check_depth(args.text("--check"));
    const uint32_t latency = args.number("--hbm-latency");
    fmt::print("seed {} config {} check {} hbm latency {} waves {}\n", args.seed, cfg.name,
               args.text("--check"), latency, waves.empty() ? "off" : waves);
    if (cfg.name == "tiny") return run<Vtern_core_tiny>(cfg, args.seed, depth, latency, waves);
#if TERN_SMALL_CORE
    if (cfg.name == "small") return run<Vtern_core_small>(cfg, args.seed, depth, latency, waves);
#endif
    tb::no_core_model("the platform bench", cfg.name);
  });
}
