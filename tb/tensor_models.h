// The verilated tensor units of the configs that are built (tiny, small, trn2), and a helper
// that calls a generic function with the model type matching a config's name.
#pragma once

#include <string>

#include "Vtern_tensor_unit_small.h"
#include "Vtern_tensor_unit_tiny.h"
#include "Vtern_tensor_unit_trn2.h"
#include "common/config.h"
#include "common/error.h"

namespace tern::tb {

template <typename Fn>
auto with_tensor_model(const CoreConfig& cfg, Fn&& fn) {
  if (cfg.name == "tiny") return fn(static_cast<Vtern_tensor_unit_tiny*>(nullptr));
  if (cfg.name == "small") return fn(static_cast<Vtern_tensor_unit_small*>(nullptr));
  if (cfg.name == "trn2") return fn(static_cast<Vtern_tensor_unit_trn2*>(nullptr));
  throw Error("no verilated tensor unit for config '" + cfg.name + "' (built: tiny, small, trn2)");
}

}  // namespace tern::tb
