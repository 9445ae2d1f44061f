// The harness of tern_core_compute (sequencers + SBUF/PSUM + the four engines): the sequencer
// harness of tb/seq_harness.h, with the SBUF/PSUM backdoor of tb/onchip_backdoor.h.
#pragma once

#include <cstdint>

#include "Vtern_core_compute_small.h"
#include "Vtern_core_compute_tiny.h"
#include "isa/isa.h"
#include "onchip_backdoor.h"
#include "seq_harness.h"

namespace tern::tb {

using RtlCoreComputeTiny = SeqHarness<Vtern_core_compute_tiny>;
using RtlCoreComputeSmall = SeqHarness<Vtern_core_compute_small>;

}  // namespace tern::tb
