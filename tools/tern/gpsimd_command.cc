#include "gpsimd_command.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <fstream>
#include <memory>

#include "cmdline.h"
#include "common/input.h"
#include "gpsimd/bare_metal.h"
#include "run_command.h"

namespace tern {
namespace {

constexpr const char* kAbout =
    "Loads the ELF into core 0's local memory and runs it from its entry point until it writes its\n"
    "exit code to `tohost` (1: pass; (n << 1) | 1: test n failed), an exception stops the core, or\n"
    "--max-cycles pass. Build programs with riscv64-unknown-elf-gcc -march=rv32imf -mabi=ilp32f\n"
    "(docs/gpsimd.md); for the RTL backends, whose cores have no F unit yet, -march=rv32im -mabi=ilp32.\n"
    "Exit status: 0 pass, n for test n failing (at most 255), 1 otherwise.";

struct Options {
  std::string elf;
  std::string backend = "golden";
  uint64_t max_cycles = 100'000'000;
  std::string trace;
};

std::string trace_line(const gpsimd::Retire& r) {
  std::string line = fmt::format("{:08x} {:08x}", r.pc, r.insn);
  if (r.dest != gpsimd::Retire::Dest::kNone) {
    line += fmt::format(" {}{}={:08x}", r.dest == gpsimd::Retire::Dest::kX ? 'x' : 'f', r.rd, r.rd_value);
  }
  if (r.mem_write) line += fmt::format(" mem[{:08x}]{}={:x}", r.mem_addr, unsigned(r.mem_bytes), r.mem_data);
  return line + "\n";
}

int run(const Options& o, std::ostream& out, const GpsimdRtlRun& rtl) {
  const gpsimd::ElfImage image = gpsimd::load_elf_file(o.elf);
  std::unique_ptr<std::ofstream> trace;
  if (!o.trace.empty()) {
    trace = std::make_unique<std::ofstream>(o.trace);
    if (!*trace) throw Error(fmt::format("tern gpsimd run: --trace {}: cannot be written", o.trace));
  }
  gpsimd::RetireHook on_retire;
  if (trace) on_retire = [&trace](const gpsimd::Retire& r) { *trace << trace_line(r); };
  gpsimd::BareMetalResult result;
  if (o.backend == "golden") {
    gpsimd::Core core(gpsimd::CoreConfig{});
    result = gpsimd::run_bare_metal(core, image, o.max_cycles, on_retire);
  } else {
    result = rtl(image, o.backend == "cross", o.max_cycles, on_retire);
  }
  fmt::print(out, "{}: {}{}\n", o.elf, o.backend == "cross" ? "RTL and ISS agree; " : "", result.summary());
  return result.exit_status();
}

}  // namespace

int run_gpsimd_command(const std::vector<std::string>& args, std::ostream& out, const GpsimdRtlRun& rtl) {
  CLI::App app{"tern gpsimd: programs on the GPSIMD engine's RISC-V cores", "tern gpsimd"};
  app.require_subcommand(1);
  CLI::App* cmd = app.add_subcommand("run", "run a bare-metal RV32IMF ELF on one core");
  cmd->footer(kAbout);
  Options o;
  cmd->add_option("elf", o.elf, "the program (an RV32 ELF executable)")->required();
  cmd->add_option("--backend", o.backend, "golden (the instruction-set simulator), rtl (the RTL core: RV32IM "
                  "programs) or cross (both in lock-step)")
      ->check(CLI::IsMember({"golden", "rtl", "cross"}))
      ->capture_default_str();
  cli::add_uint(*cmd, "--max-cycles", o.max_cycles, "stop with an error after this many cycles", 1);
  cmd->add_option("--trace", o.trace, "write every retired instruction (pc, word, register and memory "
                  "writes) to FILE")->type_name("FILE");
  if (!cli::parse_command(app, "tern gpsimd", args, out)) return 0;
  if (!o.trace.empty()) check_output_path(o.trace, "tern gpsimd run --trace", {o.elf});
  if (o.backend != "golden" && !rtl) {
    std::vector<std::string> handed{"gpsimd"};
    handed.insert(handed.end(), args.begin(), args.end());
    exec_tern_rtl(handed);
  }
  return run(o, out, rtl);
}

}  // namespace tern
