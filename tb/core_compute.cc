// The compute side's harness instances.
#include "core_compute.h"

#include "Vtern_core_compute_tiny.h"
#if TERN_SMALL_CORE
#include "Vtern_core_compute_small.h"
#endif
#include "seq_harness_impl.h"

namespace tern::tb {
template class SeqHarness<Vtern_core_compute_tiny>;
#if TERN_SMALL_CORE
template class SeqHarness<Vtern_core_compute_small>;
#endif
}  // namespace tern::tb
