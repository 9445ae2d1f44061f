// `tern run <kernel>`: build a reference kernel for a config and shape, run it on a backend,
// check it against its fp64 reference, print the statistics, optionally write the program and
// a Perfetto trace.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "runtime/device.h"

namespace tern {

// `rtl`: the RTL backends' runner (tern-rtl passes the platform's); without it, `--backend rtl`
// and `cross` hand over to tern-rtl.

int run_run_command(const std::vector<std::string>& args, std::ostream& out, RtlRunner rtl = {});

// Replaces this process with tern-rtl (beside it) given `args`; an error when it cannot start.
[[noreturn]] void exec_tern_rtl(const std::vector<std::string>& args);

}  // namespace tern
