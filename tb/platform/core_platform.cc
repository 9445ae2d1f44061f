// The platform for the tiny and small NeuronCore models (the verilated headers first; see
// core_platform_impl.h).
#include "Vtern_core_tiny.h"
#if TERN_SMALL_CORE
#include "Vtern_core_small.h"
#endif
#include "platform/core_platform_impl.h"

namespace tern::tb {

template class CorePlatform<Vtern_core_tiny>;
#if TERN_SMALL_CORE
template class CorePlatform<Vtern_core_small>;
#endif

}  // namespace tern::tb
