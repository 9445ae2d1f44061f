// `tern gpsimd run prog.elf`: a bare-metal RV32IMF program on one GPSIMD core (docs/gpsimd.md).
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "gpsimd/bare_metal.h"

namespace tern {

// The RTL backends (tern-rtl passes sw/gpsimd/rtl_backend.h's): the image, whether to run in
// lock-step with the ISS, the cycle limit, the retire hook.
using GpsimdRtlRun = std::function<gpsimd::BareMetalResult(const gpsimd::ElfImage&, bool cross, uint64_t,
                                                           const gpsimd::RetireHook&)>;

// Runs `tern gpsimd <args>`, writing the outcome to `out`; returns the process exit status
// (0 pass, the failing test number for a failure code, 1 for a fault or the cycle limit).
// Without `rtl`, `--backend rtl` and `cross` hand over to tern-rtl.
int run_gpsimd_command(const std::vector<std::string>& args, std::ostream& out, const GpsimdRtlRun& rtl = {});

}  // namespace tern
