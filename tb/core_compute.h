// The harness of tern_core_compute (sequencers + SBUF/PSUM + the DVE and POOL datapaths): the
// sequencer harness plus backdoor access to SBUF and PSUM, one aligned word at a time.
#pragma once

#include <cstdint>

#include "isa/isa.h"
#include "seq_harness.h"

class Vtern_core_compute_tiny;
class Vtern_core_compute_small;

namespace tern::tb {

using RtlCoreComputeTiny = SeqHarness<Vtern_core_compute_tiny>;
using RtlCoreComputeSmall = SeqHarness<Vtern_core_compute_small>;

template <typename Top>
void write_onchip(SeqHarness<Top>& h, isa::Mem mem, uint32_t partition, uint32_t addr, uint32_t word);
template <typename Top>
uint32_t read_onchip(SeqHarness<Top>& h, isa::Mem mem, uint32_t partition, uint32_t addr);

}  // namespace tern::tb
