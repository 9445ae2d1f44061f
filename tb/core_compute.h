// The harness of tern_core_compute (sequencers + SBUF/PSUM + the four engines): the sequencer
// harness of tb/seq_harness.h, with the SBUF/PSUM backdoor of tb/onchip_backdoor.h.
#pragma once

#include <cstdint>

#include "Vtern_core_compute_tiny.h"
#include "core_models.h"
#if TERN_SMALL_CORE
#include "Vtern_core_compute_small.h"
#endif
#include "isa/isa.h"
#include "onchip_backdoor.h"
#include "seq_harness.h"

namespace tern::tb {

using RtlCoreComputeTiny = SeqHarness<Vtern_core_compute_tiny>;
#if TERN_SMALL_CORE
using RtlCoreComputeSmall = SeqHarness<Vtern_core_compute_small>;
#endif

}  // namespace tern::tb
