// `tern link`: the NeuronLink format's generated SystemVerilog package and docs tables
// (model/link/link_gen.h).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace tern {

// Runs `tern link <args>` writing to `out`; returns the process exit code.
int run_link_command(const std::vector<std::string>& args, std::ostream& out);

}  // namespace tern
