// The platform for the tiny and small NeuronCore models (the verilated headers first; see
// core_platform_impl.h).
#include "Vtern_core_small.h"
#include "Vtern_core_tiny.h"
#include "platform/core_platform_impl.h"

namespace tern::tb {

template class CorePlatform<Vtern_core_tiny>;
template class CorePlatform<Vtern_core_small>;

}  // namespace tern::tb
