// `tern isa`: the ISA's generated SystemVerilog package and docs tables (model/isa/isa_gen.h).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace tern {

// Runs `tern isa <args>` writing to `out`; returns the process exit code.
int run_isa_command(const std::vector<std::string>& args, std::ostream& out);

}  // namespace tern
