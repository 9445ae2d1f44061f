// The engines' command and error codes in their SystemVerilog packages (rtl/dve/tern_dve_pkg.sv,
// rtl/act/tern_act_pkg.sv, rtl/pe/tern_pe_pkg.sv), generated from the golden model's enums into
// each package's block between two marker lines, so every code is defined once (in C++).
// `tern codes sv --update FILE` rewrites a package's block; tests/test_rtl_pkg.cc fails when a
// checked-in block drifts from the definition.
#pragma once

#include <string>
#include <vector>

namespace tern::core {

// The packages that hold a generated block.
const std::vector<std::string>& engine_code_packages();

// The block of `package` (one of engine_code_packages()); throws tern::Error for another.
std::string engine_codes_block(const std::string& package);

// The lines between which a package holds its block.
constexpr const char* kCodesBegin = "  // BEGIN GENERATED: tern codes sv";
constexpr const char* kCodesEnd = "  // END GENERATED: tern codes sv";

// `text`, a package's source named `source`, with its block replaced (the package named by its
// `package <name>;` line); throws tern::Error naming `source` when the package is none of
// engine_code_packages() or a marker line is missing.
std::string update_engine_codes(const std::string& text, const std::string& source);

}  // namespace tern::core
