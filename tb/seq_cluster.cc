// The sequencer cluster's harness.
#include "Vtern_seq_cluster.h"
#include "seq_harness_impl.h"

namespace tern::tb {
template class SeqHarness<Vtern_seq_cluster>;
}  // namespace tern::tb
