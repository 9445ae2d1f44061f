// tern_bench_sim_speed: simulated cycles per wall second of the whole NeuronCore (small config)
// in the SystemC platform, verilated for one thread and for two, on the same kernels (each run
// checked against the golden model), and, when the build has the trn2 core (TERN_TRN2_CORE), of
// the trn2 core with one thread on smaller shapes (kTrn2Shapes: it simulates a few hundred
// cycles per second). Writes <out>/sim_speed.json. The two-thread and trn2 models are built for
// the benches only (`make bench`). Every platform is elaborated before the first run (SystemC
// elaborates once per process).
// The verilated models before <systemc> (see tb/platform/core_platform_impl.h).
#include "Vtern_core_small.h"
#include "Vtern_core_small_mt.h"
#ifdef TERN_TRN2_CORE
#include "Vtern_core_trn2.h"
#endif
#include "platform/core_platform_impl.h"

#include <fmt/format.h>

#include <string>
#include <utility>
#include <vector>

#include "bench_json.h"
#include "cmdline.h"
#include "common/error.h"
#include "stimulus/kernel_random.h"
#include "kernels/kernels.h"
#include "platform/platform_check.h"

namespace tern::tb {
template class CorePlatform<Vtern_core_small_mt>;
#ifdef TERN_TRN2_CORE
template class CorePlatform<Vtern_core_trn2>;
#endif
}  // namespace tern::tb

namespace {

using namespace tern;

#ifdef TERN_TRN2_CORE
// The trn2 runs: small shapes (the default ones would take hours at a few hundred cycles/s).
const std::vector<std::pair<const char*, const char*>> kTrn2Shapes = {
    {"gemm", "m=16,k=16,n=16"}, {"layernorm", "rows=128,d=16"}};
#endif

// `shape` empty: the kernel's default shape for the config.
template <typename Top>
bench::Record measure(tb::CorePlatform<Top>& platform, const CoreConfig& cfg, const std::string& kernel,
                      uint32_t threads, const std::string& shape_text = "") {
  const kernels::RefKernel& ref = kernels::find_kernel(kernel);
  const kernels::Shape shape =
      shape_text.empty() ? ref.default_shape(cfg) : kernels::parse_shape(ref, shape_text, cfg);
  const stimulus::KernelImage img = stimulus::reference_kernel_image(ref, cfg, shape, 1);
  const tb::PlatformCompare c =
      tb::platform_compare(platform, cfg, img.program, img.hbm, img.regions, tb::CheckDepth::kEnd);
  if (!c.outcome.errors.empty())
    throw Error(fmt::format("{} ({} threads): the RTL differs from the golden model: {}", kernel,
                            threads, c.outcome.errors.front()));
  const double speed = double(c.run.cycles) / std::max(c.run.wall_seconds, 1e-9);
  fmt::print("{} {} on {} thread(s): {} cycles in {:.2f} s, {:.0f} cycles/s\n", kernel,
             kernels::shape_text(shape), threads, c.run.cycles, c.run.wall_seconds, speed);
  return {{"config", cfg.name}, {"kernel", kernel}, {"shape", kernels::shape_text(shape)}, {"threads", threads},
          {"cycles", c.run.cycles}, {"wall_seconds", c.run.wall_seconds}, {"sim_cycles_per_s", speed}};
}

}  // namespace

int sc_main(int argc, char** argv) {
  try {
    std::string out = "build/bench", configs = "configs";
    CLI::App app{"tern_bench_sim_speed: simulated cycles per second, into <out>/sim_speed.json"};
    app.add_option("--out", out, "the JSON's directory")->capture_default_str();
    app.add_option("--configs", configs, "the configs' directory")->capture_default_str();
    if (int status = 0; !tern::cli::parse(app, argc, argv, status)) return status;
    const CoreConfig cfg = load_config(configs + "/small.yaml");
    tb::PlatformOptions opt;
    tb::CorePlatform<Vtern_core_small> one("platform_1t", opt);
    tb::CorePlatform<Vtern_core_small_mt> two("platform_2t", opt);
#ifdef TERN_TRN2_CORE
    const CoreConfig trn2_cfg = load_config(configs + "/trn2.yaml");
    tb::CorePlatform<Vtern_core_trn2> trn2("platform_trn2", opt);
#endif
    std::vector<bench::Record> records;
    for (const char* kernel : {"gemm", "layernorm"}) {
      records.push_back(measure(one, cfg, kernel, 1));
      records.push_back(measure(two, cfg, kernel, 2));
    }
#ifdef TERN_TRN2_CORE
    for (const auto& [kernel, shape] : kTrn2Shapes) records.push_back(measure(trn2, trn2_cfg, kernel, 1, shape));
#endif
    bench::write_records(out, "sim_speed.json", records);
    return 0;
  } catch (const std::exception& e) {
    fmt::print(stderr, "tern_bench_sim_speed: error: {}\n", e.what());
    return 1;
  }
}
