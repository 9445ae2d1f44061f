#include "run_command.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <ostream>

#include "common/config.h"
#include "common/error.h"
#include "isa/asm.h"
#include "kernels/kernels.h"
#include "runtime/device.h"
#include "text_file.h"

namespace tern {
namespace {

constexpr const char* kUsage = R"(usage: tern run <kernel> [options]
  --config NAME|FILE   tiny, small, trn2 (configs/NAME.yaml) or a config file (default tiny)
  --shape K=V,...      the kernel's sizes (default: scaled to the config)
  --seed N             input seed (default 1)
  --backend golden     the only backend until the RTL core lands
  --trace FILE         Chrome/Perfetto trace JSON of the per-engine timeline
  --asm FILE           the program as assembly text
  --bin FILE           the program's binary image
  --list               the kernels and their shapes)";

CoreConfig resolve_config(const std::string& name) {
  if (name.find('/') != std::string::npos || name.find(".yaml") != std::string::npos)
    return load_config(name);
  return load_config(fmt::format("{}/{}.yaml", TERN_CONFIG_DIR, name));
}

}  // namespace

int run_run_command(const std::vector<std::string>& args, std::ostream& out) {
  if (args.empty()) throw Error(kUsage);
  if (args[0] == "--list") {
    const CoreConfig cfg = resolve_config("tiny");
    for (const auto& k : kernels::reference_kernels())
      fmt::print(out, "{:10} {} (tiny: {})\n", k.name, k.summary,
                 kernels::shape_text(k.default_shape(cfg)));
    return 0;
  }
  const kernels::RefKernel& ref = kernels::find_kernel(args[0]);
  std::string config = "tiny", shape, trace, asm_path, bin_path;
  uint32_t seed = 1;
  for (size_t i = 1; i < args.size(); ++i) {
    auto value = [&]() -> const std::string& {
      if (i + 1 >= args.size()) throw Error(fmt::format("{} needs a value\n{}", args[i], kUsage));
      return args[++i];
    };
    const std::string& a = args[i];
    if (a == "--config") config = value();
    else if (a == "--shape") shape = value();
    else if (a == "--seed") seed = uint32_t(std::stoul(value()));
    else if (a == "--trace") trace = value();
    else if (a == "--asm") asm_path = value();
    else if (a == "--bin") bin_path = value();
    else if (a == "--backend") {
      if (value() != "golden")
        throw Error("--backend: only 'golden' exists until the RTL core (issue 6) lands");
    } else throw Error(fmt::format("unknown option '{}'\n{}", a, kUsage));
  }
  const CoreConfig cfg = resolve_config(config);
  const kernels::Shape s = kernels::parse_shape(ref, shape, cfg);
  kernel::Kernel k(cfg, ref.name);
  ref.build(k, s);
  const isa::Program program = k.finish();
  if (!asm_path.empty()) write_text_file(asm_path, isa::disassemble(program));
  if (!bin_path.empty()) {
    const auto image = isa::to_binary(program);
    write_text_file(bin_path, std::string(image.begin(), image.end()));
  }
  const kernels::Tensors inputs = ref.inputs(s, seed);
  Device device(cfg);
  const DeviceRun run = device.run(k, program, inputs);
  if (!trace.empty()) write_text_file(trace, trace_json(run.trace, ref.name));
  const kernels::CheckResult check = ref.check(s, inputs, run.outputs);
  fmt::print(out, "kernel {} on {} ({}), seed {}, backend golden\n", ref.name, cfg.name,
             kernels::shape_text(s), seed);
  fmt::print(out, "{:6} {:>12} {:>12} {:>12} {:>8}\n", "engine", "instructions", "busy cycles",
             "wait cycles", "busy %");
  for (int i = 0; i < isa::kNumSeqs; ++i) {
    const core::SeqStats& st = run.stats.seq[size_t(i)];
    fmt::print(out, "{:6} {:>12} {:>12} {:>12} {:>7.1f}%\n", isa::seq_name(isa::Seq(i)),
               st.instructions, st.busy_cycles, st.wait_cycles,
               run.stats.cycles ? 100.0 * double(st.busy_cycles) / double(run.stats.cycles) : 0.0);
  }
  fmt::print(out, "dma: {} transfers, {} bytes read, {} bytes written\n", run.stats.dma_transfers,
             run.stats.dma_bytes_read, run.stats.dma_bytes_written);
  fmt::print(out, "estimated cycles: {}\n", run.stats.cycles);
  fmt::print(out, "check: {} elements, worst error {:.3f} of tolerance ({}): {}\n",
             check.elements, check.worst, ref.tolerance, check.ok() ? "PASS" : "FAIL");
  if (!check.ok()) fmt::print(out, "{} failures; first: {}\n", check.failures, check.first_failure);
  return check.ok() ? 0 : 1;
}

}  // namespace tern
