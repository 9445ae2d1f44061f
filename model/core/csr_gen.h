// The CSR map's generated artefacts, read from the table of csr_map.cc: the SystemVerilog
// package tern_csr_pkg (checked in as rtl/core/tern_csr_pkg.sv) and the register tables of
// docs/csr.md. `tern csr sv` and `tern csr md` print them; tests/csr_gen_test.sh fails when the
// checked-in copies drift from the definition.
#pragma once

#include <string>

namespace tern::csr {

// The package tern_csr_pkg: bus widths, block bases/strides/counts, and per register its
// offset, reset value, mask and the lsb and width of every field.
std::string csr_sv_package();

// Markdown: the address map and one register table and field table per block.
std::string csr_markdown_tables();

// The lines between which docs/csr.md holds csr_markdown_tables().
constexpr const char* kMarkdownBegin = "<!-- BEGIN GENERATED: tern csr md -->";
constexpr const char* kMarkdownEnd = "<!-- END GENERATED: tern csr md -->";

// `text` with the lines between kMarkdownBegin and kMarkdownEnd replaced by the tables; throws
// tern::Error naming `source` when a marker line is missing.
std::string update_markdown(const std::string& text, const std::string& source);

}  // namespace tern::csr
