// tern: the engineer's command line. Errors are caught here, once, and printed in words.
#include <fmt/format.h>

#include <iostream>
#include <string>
#include <vector>

#include "common/config.h"
#include "common/error.h"
#include "core/engine_codes_gen.h"
#include "numerics/pkg_gen.h"
#include "asm_command.h"
#include "fp_command.h"
#include "csr_command.h"
#include "isa_command.h"
#include "link_command.h"
#include "fpga_command.h"
#include "run_command.h"
#include "text_file.h"

namespace {

constexpr const char* kUsage = R"(usage: tern <command> [args]
commands:
  fp ...                   numerics blocks over hex vectors on stdin (tern fp --help)
  config show <yaml>       validate a config and print its values
  config sv <yaml> [-o F]  the config as the SystemVerilog package tern_cfg_pkg
  asm IN.s -o OUT.tbin     assemble a program into its binary image
  disasm IN.tbin [-o F]    a binary image as canonical assembly text
  run KERNEL [...]         run a reference kernel on a backend (tern run --list)
  numerics sv [-o F]       dtypes, the canonical NaN and rounding codes as the package tern_pkg
  isa sv [-o F]            the ISA as the SystemVerilog package tern_isa_pkg
  isa md [--update F]      the ISA's docs tables, or F's generated block (docs/isa.md)
  csr sv [-o F]            the CSR map as the SystemVerilog package tern_csr_pkg
  csr md [--update F]      the CSR map's docs tables, or F's generated block (docs/csr.md)
  codes sv --update F...   the engine codes' generated block of the packages F (rtl/dve/tern_dve_pkg.sv,
                           rtl/act/tern_act_pkg.sv, rtl/pe/tern_pe_pkg.sv)
  link sv [-o F]           the NeuronLink format as the SystemVerilog package tern_link_pkg
  link md [--update F]     the NeuronLink format's tables, or F's generated block (docs/link.md)
  fpga rom CFG --rows R --cols C -o DIR
                           the iCE40 bitstream's self-checking GEMM ROMs (docs/fpga.md))";

int run_numerics(const std::vector<std::string>& args) {
  if (args.size() == 1 && args[0] == "sv") {
    fmt::print("{}", tern::tern_sv_package());
    return 0;
  }
  if (args.size() == 3 && args[0] == "sv" && args[1] == "-o") {
    tern::write_text_file(args[2], tern::tern_sv_package());
    return 0;
  }
  throw tern::Error("usage: tern numerics sv [-o FILE]");
}

int run_codes(const std::vector<std::string>& args) {
  if (args.size() < 3 || args[0] != "sv" || args[1] != "--update")
    throw tern::Error("usage: tern codes sv --update FILE...");
  for (size_t i = 2; i < args.size(); ++i)
    tern::write_text_file(args[i], tern::core::update_engine_codes(tern::read_text_file(args[i]), args[i]));
  return 0;
}

int run_config(const std::vector<std::string>& args) {
  if (args.size() < 2) throw tern::Error("usage: tern config show|sv <yaml> [-o FILE]");
  const tern::CoreConfig cfg = tern::load_config(args[1]);
  if (args[0] == "show") {
    fmt::print("name: {}\npartitions: {}\npe_rows: {}\npe_cols: {}\nsbuf_partition_bytes: {}\n"
               "psum_banks: {}\npsum_bank_bytes: {}\ndma_engines: {}\ndma_queues: {}\n"
               "axi_data_bits: {}\n",
               cfg.name, cfg.partitions, cfg.pe_rows, cfg.pe_cols, cfg.sbuf_partition_bytes,
               cfg.psum_banks, cfg.psum_bank_bytes, cfg.dma_engines, cfg.dma_queues,
               cfg.axi_data_bits);
    return 0;
  }
  if (args[0] == "sv") {
    const std::string text = tern::config_sv_package(cfg);
    if (args.size() == 4 && args[2] == "-o") {
      tern::write_text_file(args[3], text);
    } else {
      fmt::print("{}", text);
    }
    return 0;
  }
  throw tern::Error(fmt::format("unknown config command '{}'", args[0]));
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    fmt::print(stderr, "{}\n", kUsage);
    return 2;
  }
  try {
    const std::string cmd = args[0];
    args.erase(args.begin());
    if (cmd == "fp") return tern::run_fp_command(args, std::cin, std::cout);
    if (cmd == "config") return run_config(args);
    if (cmd == "numerics") return run_numerics(args);
    if (cmd == "codes") return run_codes(args);
    if (cmd == "asm") return tern::run_asm_command(args);
    if (cmd == "disasm") return tern::run_disasm_command(args, std::cout);
    if (cmd == "isa") return tern::run_isa_command(args, std::cout);
    if (cmd == "csr") return tern::run_csr_command(args, std::cout);
    if (cmd == "link") return tern::run_link_command(args, std::cout);
    if (cmd == "fpga") return tern::run_fpga_command(args, std::cout);
    if (cmd == "run") return tern::run_run_command(args, std::cout);
    if (cmd == "--help" || cmd == "-h") {
      fmt::print("{}\n", kUsage);
      return 0;
    }
    throw tern::Error(fmt::format("unknown command '{}'\n{}", cmd, kUsage));
  } catch (const std::exception& e) {
    fmt::print(stderr, "tern: error: {}\n", e.what());
    return 1;
  }
}
