// The ISA's generated artefacts, read from the tables of isa.cc: the SystemVerilog package
// tern_isa_pkg (checked in as rtl/core/tern_isa_pkg.sv) and the bit tables of docs/isa.md.
// `tern isa sv` and `tern isa md` print them; tests/isa_gen_test.sh fails when the checked-in
// copies drift from the definition.
#pragma once

#include <string>

namespace tern::isa {

// The package tern_isa_pkg: sizes, sequencer codes, opcodes, op_seq_mask() and the lsb and
// width of every field of every layout.
std::string isa_sv_package();

// Markdown: the opcode table, the format table and one bit-field table per layout.
std::string isa_markdown_tables();

// The lines between which docs/isa.md holds isa_markdown_tables().
constexpr const char* kMarkdownBegin = "<!-- BEGIN GENERATED: tern isa md -->";
constexpr const char* kMarkdownEnd = "<!-- END GENERATED: tern isa md -->";

// `text` with the lines between kMarkdownBegin and kMarkdownEnd replaced by the tables; throws
// tern::Error naming `source` when a marker line is missing.
std::string update_markdown(const std::string& text, const std::string& source);

}  // namespace tern::isa
