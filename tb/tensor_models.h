// The verilated tensor units of the configs that are built (tiny, small, and trn2 when the build
// has it: TERN_TRN2_TENSOR_UNIT, rtl/CMakeLists.txt), and a helper that calls a generic function
// with the model type matching a config's name.
#pragma once

#include <string>

#include "Vtern_tensor_unit_small.h"
#include "Vtern_tensor_unit_tiny.h"
#if TERN_TRN2_TENSOR_UNIT
#include "Vtern_tensor_unit_trn2.h"
#endif
#include "common/config.h"
#include "common/error.h"

namespace tern::tb {

template <typename Fn>
auto with_tensor_model(const CoreConfig& cfg, Fn&& fn) {
  if (cfg.name == "tiny") return fn(static_cast<Vtern_tensor_unit_tiny*>(nullptr));
  if (cfg.name == "small") return fn(static_cast<Vtern_tensor_unit_small*>(nullptr));
#if TERN_TRN2_TENSOR_UNIT
  if (cfg.name == "trn2") return fn(static_cast<Vtern_tensor_unit_trn2*>(nullptr));
#endif
  throw Error("no verilated tensor unit for config '" + cfg.name + "' in this build (built: tiny, small" +
              (TERN_TRN2_TENSOR_UNIT ? ", trn2)" : "; trn2 with -DTERN_TRN2_CORE=ON, as make bench does)"));
}

}  // namespace tern::tb
