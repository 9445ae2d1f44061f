// tern_sim_gpsimd: waveform regression bench of one GPSIMD core (rtl/gpsimd/tern_gpsimd_core.sv
// with its local memory, tb/tern_gpsimd_tb.sv) in lock-step with the golden ISS: every retired
// instruction, its EX cycle and every exception must agree. --scenario random runs --programs
// seeded random instruction streams (tb/gpsimd_streams.h; the FST shows the first);
// --scenario elf runs the RV32IM program --elf to its tohost write, which must be a pass (the
// FST shows the whole run). The config is not used.
#include <fmt/format.h>

#include <random>
#include <string>

#include "gpsimd/elf_image.h"
#include "gpsimd/rtl_backend.h"
#include "gpsimd_rtl.h"
#include "gpsimd_streams.h"
#include "verdict.h"

namespace {

using namespace tern;  // NOLINT(google-build-using-namespace): the bench's own file

sim::Verdict run_random(const sim::BenchArgs& args) {
  std::mt19937_64 rng(args.seed);
  tb::GpsimdStreams gen(rng);
  const uint32_t programs = args.number("--programs");
  sim::Verdict v;
  uint64_t retired = 0;
  for (uint32_t i = 0; i < programs && v.errors.empty(); ++i) {
    std::vector<uint8_t> bytes;
    for (uint32_t w : gen.program(64 + unsigned(rng() % 192))) {
      for (int k = 0; k < 4; ++k) bytes.push_back(uint8_t(w >> (8 * k)));
    }
    gpsimd::CoreConfig cfg;
    cfg.has_f = false;  // the RTL as it is
    gpsimd::Core iss(cfg);
    tb::GpsimdRtl rtl;
    if (i == 0 && !args.waves.empty()) rtl.trace(args.waves);
    iss.write_memory(tb::GpsimdRtl::kMemBase, bytes);
    rtl.write_memory(tb::GpsimdRtl::kMemBase, bytes);
    iss.set_pc(tb::GpsimdRtl::kMemBase);
    rtl.start(tb::GpsimdRtl::kMemBase);
    const tb::LockstepEnd end = tb::run_lockstep(iss, rtl, 2000);
    if (!end.mismatch.empty()) v.errors.push_back(fmt::format("program {}: {}", i, end.mismatch));
    if (rtl.assertion_failed()) v.errors.push_back(fmt::format("program {}: an RTL assertion failed", i));
    retired += end.retired;
    v.cycles += rtl.cycles();
  }
  fmt::print("{} programs, {} instructions in lock-step\n", programs, retired);
  return v;
}

sim::Verdict run_elf(const sim::BenchArgs& args) {
  const std::string path = args.text("--elf");
  if (path.empty()) throw Error("--scenario elf needs --elf PROGRAM (an RV32IM ELF, tests/gpsimd)");
  const gpsimd::ElfImage image = gpsimd::load_elf_file(path);
  const gpsimd::BareMetalResult r =
      gpsimd::run_bare_metal_rtl(image, gpsimd::RtlMode::kCross, 100'000'000, {}, {}, args.waves);
  fmt::print("{}: {}\n", path, r.summary());
  sim::Verdict v;
  v.cycles = r.cycles;
  if (!r.passed()) v.errors.push_back(r.summary());
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  return tern::sim::run_bench([&] {
    const tern::sim::BenchArgs args(argc, argv, {{"--scenario", "random"}, {"--programs", "200"}, {"--elf", ""}});
    fmt::print("seed {} scenario {} waves {}\n", args.seed, args.text("--scenario"),
               args.waves.empty() ? "off" : args.waves);
    if (args.text("--scenario") == "random") return run_random(args);
    if (args.text("--scenario") == "elf") return run_elf(args);
    throw tern::Error(fmt::format("--scenario '{}': random or elf", args.text("--scenario")));
  });
}
