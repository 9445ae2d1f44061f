#include "gen_commands.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "common/axi.h"
#include "common/config.h"
#include "core/csr_gen.h"
#include "core/engine_codes_gen.h"
#include "isa/isa_gen.h"
#include "link/link_gen.h"
#include "numerics/pkg_gen.h"
#include "host/files.h"

namespace tern {
namespace {

using Text = std::function<std::string()>;
using Update = std::function<std::string(const std::string& text, const std::string& path)>;

// `NAME sv [-o FILE]`: the package to stdout or FILE.
void add_sv(CLI::App& cmd, const std::string& what, Text package, std::ostream& out) {
  auto path = std::make_shared<std::string>();
  CLI::App* sv = cmd.add_subcommand("sv", what);
  sv->add_option("-o", *path, "write it to FILE instead of stdout")->type_name("FILE");
  sv->callback([path, package, &out] {
    if (path->empty()) out << package();
    else host::write_text_file(*path, package());
  });
}

// `NAME md [--update FILE]`: the docs tables to stdout, or FILE's generated block replaced.
void add_md(CLI::App& cmd, const std::string& what, Text tables, Update update, std::ostream& out) {
  auto path = std::make_shared<std::string>();
  CLI::App* md = cmd.add_subcommand("md", what);
  md->add_option("--update", *path, "replace the tables between FILE's generated-block markers")
      ->type_name("FILE");
  md->callback([path, tables, update, &out] {
    if (path->empty()) out << tables();
    else host::write_text_file(*path, update(host::read_text_file(*path), *path));
  });
}

void add_generator(CLI::App& app, const std::string& name, const std::string& what,
                   const std::string& sv_what, Text package, const std::string& md_what,
                   Text tables, Update update, std::ostream& out) {
  CLI::App* cmd = app.add_subcommand(name, what);
  cmd->require_subcommand(1);
  add_sv(*cmd, sv_what, std::move(package), out);
  add_md(*cmd, md_what, std::move(tables), std::move(update), out);
}

void add_config(CLI::App& app, std::ostream& out) {
  CLI::App* cmd = app.add_subcommand("config", "a core config, validated");
  cmd->require_subcommand(1);
  auto yaml = std::make_shared<std::string>();
  auto path = std::make_shared<std::string>();
  CLI::App* show = cmd->add_subcommand("show", "print the config's values");
  show->add_option("yaml", *yaml, "the config file")->required();
  show->callback([yaml, &out] {
    const CoreConfig c = load_config(*yaml);
    fmt::print(out, "name: {}\npartitions: {}\npe_rows: {}\npe_cols: {}\nsbuf_partition_bytes: {}\n"
               "psum_banks: {}\npsum_bank_bytes: {}\ndma_engines: {}\ndma_queues: {}\n"
               "axi_data_bits: {}\n", c.name, c.partitions, c.pe_rows, c.pe_cols,
               c.sbuf_partition_bytes, c.psum_banks, c.psum_bank_bytes, c.dma_engines, c.dma_queues,
               c.axi_data_bits);
  });
  CLI::App* sv = cmd->add_subcommand("sv", "the config as the SystemVerilog package tern_cfg_pkg");
  sv->add_option("yaml", *yaml, "the config file")->required();
  sv->add_option("-o", *path, "write it to FILE instead of stdout")->type_name("FILE");
  sv->callback([yaml, path, &out] {
    const std::string text = config_sv_package(load_config(*yaml));
    if (path->empty()) out << text;
    else host::write_text_file(*path, text);
  });
}

// `sv --update FILE...`: each FILE's generated blocks rewritten.
void add_sv_update(CLI::App& cmd, const std::string& what, Update update) {
  auto files = std::make_shared<std::vector<std::string>>();
  CLI::App* sv = cmd.add_subcommand("sv", what);
  sv->add_option("--update", *files, "the files to update")->required()->type_name("FILE");
  sv->callback([files, update] {
    for (const std::string& f : *files) host::write_text_file(f, update(host::read_text_file(f), f));
  });
}

void add_codes(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("codes", "the engines' op and error codes, generated into their packages");
  cmd->require_subcommand(1);
  add_sv_update(*cmd, "replace each FILE's generated block (rtl/dve/tern_dve_pkg.sv, "
                "rtl/act/tern_act_pkg.sv, rtl/pe/tern_pe_pkg.sv)", core::update_engine_codes);
}

void add_axi(CLI::App& app, std::ostream& out) {
  CLI::App* cmd = app.add_subcommand("axi", "the AXI4 and AXI4-Lite ports, generated into the modules and docs");
  cmd->require_subcommand(1);
  add_sv_update(*cmd, "replace each FILE's AXI port blocks (rtl/core/tern_core.sv, tern_csr.sv, "
                "tern_seq_axi.sv, rtl/dma/tern_dma.sv, tern_dma_backend.sv, tern_axi_mux.sv, tb/tern_dma_tb.sv)", update_axi_ports);
  add_md(*cmd, "the markdown signal tables (docs/core-rtl.md)", axi_markdown_tables, update_axi_markdown, out);
}

}  // namespace

void add_generator_commands(CLI::App& app, std::ostream& out) {
  add_generator(app, "isa", "the ISA's generated package and docs tables",
                "the SystemVerilog package tern_isa_pkg (rtl/core/tern_isa_pkg.sv)", isa::isa_sv_package,
                "the markdown opcode, format and bit-field tables (docs/isa.md)",
                isa::isa_markdown_tables, isa::update_markdown, out);
  add_generator(app, "csr", "the CSR map's generated package and docs tables",
                "the SystemVerilog package tern_csr_pkg (rtl/core/tern_csr_pkg.sv)", csr::csr_sv_package,
                "the markdown address map and register tables (docs/csr.md)",
                csr::csr_markdown_tables, csr::update_markdown, out);
  add_generator(app, "link", "the NeuronLink format's generated package and docs tables",
                "the SystemVerilog package tern_link_pkg (rtl/link/tern_link_pkg.sv)",
                link::link_sv_package, "the markdown flit and packet tables (docs/link.md)",
                link::link_markdown_tables, link::update_markdown, out);
  CLI::App* numerics = app.add_subcommand("numerics", "the numerics' generated package");
  numerics->require_subcommand(1);
  add_sv(*numerics, "dtypes, the canonical NaN and rounding codes as the package tern_pkg",
         tern_sv_package, out);
  add_codes(app);
  add_axi(app, out);
  add_config(app, out);
}

}  // namespace tern
