// `tern fp`: the numerics blocks as a filter over lines of hex operands (golden or RTL).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace tern {

// Runs `tern fp <args>` reading `in` and writing `out`; returns the process exit code.
int run_fp_command(const std::vector<std::string>& args, std::istream& in, std::ostream& out);

}  // namespace tern
