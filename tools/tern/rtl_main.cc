// tern-rtl: `tern run` with the RTL backends linked in (the verilated NeuronCore in the SystemC
// platform). `tern run --backend rtl|cross` hands over to it with the same arguments; it can
// also be called directly: tern-rtl <kernel> [tern run options]. `tern gpsimd run --backend
// rtl|cross` hands over as `tern-rtl gpsimd run ...` (the GPSIMD core's RTL, sw/gpsimd).
#include <fmt/format.h>

#include <iostream>
#include <string>
#include <systemc>
#include <vector>

#include "gpsimd/rtl_backend.h"
#include "gpsimd_command.h"
#include "runtime/rtl_backend.h"
#include "run_command.h"

int sc_main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if (!args.empty() && args[0] == "gpsimd") {
      const tern::GpsimdRtlRun rtl = [](const tern::gpsimd::ElfImage& image, bool cross, uint64_t max_cycles,
                                        const tern::gpsimd::RetireHook& hook) {
        const auto mode = cross ? tern::gpsimd::RtlMode::kCross : tern::gpsimd::RtlMode::kRtl;
        return tern::gpsimd::run_bare_metal_rtl(image, mode, max_cycles, hook);
      };
      return tern::run_gpsimd_command({args.begin() + 1, args.end()}, std::cout, rtl);
    }
    return tern::run_run_command(args, std::cout, tern::rtl_runner());
  } catch (const std::exception& e) {
    fmt::print(stderr, "tern: error: {}\n", e.what());
    return 1;
  }
}
