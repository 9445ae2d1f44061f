// `tern csr`: the CSR map's generated SystemVerilog package and docs tables
// (model/core/csr_gen.h).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace tern {

// Runs `tern csr <args>` writing to `out`; returns the process exit code.
int run_csr_command(const std::vector<std::string>& args, std::ostream& out);

}  // namespace tern
