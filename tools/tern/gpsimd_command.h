// `tern gpsimd run prog.elf`: a bare-metal RV32IMF program on one GPSIMD core (docs/gpsimd.md).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace tern {

// Runs `tern gpsimd <args>`, writing the outcome to `out`; returns the process exit status
// (0 pass, the failing test number for a failure code, 1 for a fault or the cycle limit).
int run_gpsimd_command(const std::vector<std::string>& args, std::ostream& out);

}  // namespace tern
