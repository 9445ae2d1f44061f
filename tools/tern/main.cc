// tern: the engineer's command line. Commands are CLI11 subcommands (tools/cmdline/cmdline.h:
// `tern --help`, `tern <command> --help`); errors are caught here, once, and printed in words.
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "asm_command.h"
#include "cmdline.h"
#include "fp_command.h"
#include "fpga_command.h"
#include "gen_commands.h"
#include "gpsimd_command.h"
#include "run_command.h"

namespace {

// A command that parses its own arguments (its --help included): everything after its name.
CLI::App* add_passthrough(CLI::App& app, const std::string& name, const std::string& what) {
  CLI::App* cmd = app.add_subcommand(name, what);
  cmd->prefix_command();
  cmd->set_help_flag();
  return cmd;
}

void add_asm_commands(CLI::App& app) {
  auto in = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>();
  CLI::App* as = app.add_subcommand("asm", "assemble a program into its binary image");
  as->add_option("in", *in, "the assembly text (.s)")->required();
  as->add_option("-o", *out, "the image to write (.tbin)")->required()->type_name("FILE");
  as->callback([in, out] { tern::assemble_file(*in, *out); });
  CLI::App* dis = app.add_subcommand("disasm", "a binary image as canonical assembly text");
  dis->add_option("in", *in, "the image (.tbin)")->required();
  dis->add_option("-o", *out, "write the text to FILE instead of stdout")->type_name("FILE");
  dis->callback([in, out] { tern::disassemble_file(*in, *out, std::cout); });
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tern: the engineer's command line (README.md)", "tern"};
  app.require_subcommand(1);
  CLI::App* fp = add_passthrough(app, "fp", "numerics blocks over hex vectors on stdin (tern fp --help)");
  CLI::App* run = add_passthrough(app, "run", "run a reference kernel on a backend (tern run --help)");
  CLI::App* fpga = add_passthrough(app, "fpga", "the iCE40 bitstream's self-checking GEMM ROMs (tern fpga --help)");
  CLI::App* gpsimd = add_passthrough(app, "gpsimd", "bare-metal programs on a GPSIMD core (tern gpsimd --help)");
  add_asm_commands(app);
  tern::add_generator_commands(app, std::cout);
  if (argc < 2) {
    fmt::print(stderr, "{}", app.help());
    return 2;
  }
  try {
    if (!tern::cli::parse_argv(app, "tern", std::vector<const char*>(argv, argv + argc), std::cout)) return 0;
    if (*fp) return tern::run_fp_command(fp->remaining(), std::cin, std::cout);
    if (*run) return tern::run_run_command(run->remaining(), std::cout);
    if (*fpga) return tern::run_fpga_command(fpga->remaining(), std::cout);
    if (*gpsimd) return tern::run_gpsimd_command(gpsimd->remaining(), std::cout);
    return 0;
  } catch (const std::exception& e) {
    fmt::print(stderr, "tern: error: {}\n", e.what());
    return 1;
  }
}
