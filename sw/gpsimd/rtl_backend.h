// The RTL backends of bare-metal GPSIMD runs (`tern gpsimd run --backend rtl|cross`, which run
// in tern-rtl): the RTL core alone (tb/gpsimd_rtl.h), or in lock-step with the ISS, where the
// first difference in a retired instruction, its EX cycle or an exception is an error.
#pragma once

#include <cstdint>
#include <string>

#include "gpsimd/bare_metal.h"
#include "gpsimd/elf_image.h"

namespace tern::gpsimd {

enum class RtlMode : uint8_t { kRtl, kCross };

// The RTL cores have no F unit yet: an image built for the single-float ABI is an error naming
// the file, before any run.
// `waves`, when set, is an FST file of the RTL's whole run.
BareMetalResult run_bare_metal_rtl(const ElfImage& image, RtlMode mode, uint64_t max_cycles,
                                   const RetireHook& on_retire = {}, const HostWrites& writes = {},
                                   const std::string& waves = {});

}  // namespace tern::gpsimd
