// The compute side's harness instances.
#include "core_compute.h"

#include "Vtern_core_compute_small.h"
#include "Vtern_core_compute_tiny.h"
#include "seq_harness_impl.h"

namespace tern::tb {
template class SeqHarness<Vtern_core_compute_tiny>;
template class SeqHarness<Vtern_core_compute_small>;
}  // namespace tern::tb
