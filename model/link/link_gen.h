// The NeuronLink format's generated artefacts, read from the tables of link_format.cc: the
// SystemVerilog package tern_link_pkg (checked in as rtl/link/tern_link_pkg.sv) and the bit
// tables of docs/link.md. `tern link sv` and `tern link md` print them;
// tests/link_gen_test.sh fails when a checked-in copy drifts from the definition.
#pragma once

#include <string>

namespace tern::link {

std::string link_sv_package();
std::string link_markdown_tables();

constexpr const char* kMarkdownBegin = "<!-- BEGIN GENERATED: tern link md -->";
constexpr const char* kMarkdownEnd = "<!-- END GENERATED: tern link md -->";

// `text` with the lines between kMarkdownBegin and kMarkdownEnd replaced by the tables; throws
// tern::Error naming `source` when a marker line is missing.
std::string update_markdown(const std::string& text, const std::string& source);

}  // namespace tern::link
