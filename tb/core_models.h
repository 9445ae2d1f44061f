// Which NeuronCore-level models (Scalar Engine, compute cluster, whole core) this build holds:
// tiny always, small when configured with TERN_SMALL_CORE=ON (rtl/CMakeLists.txt; `make
// test-small`, `make bench`). The libraries of those models define TERN_SMALL_CORE (0 or 1)
// for their users.
#pragma once

#ifndef TERN_SMALL_CORE
#error "TERN_SMALL_CORE comes with tern_rtl_act, tern_rtl_core and tern_rtl_neuroncore: link one"
#endif

#include <fmt/format.h>

#include <string>

#include "common/error.h"

namespace tern::tb {

inline constexpr bool kHaveSmallCore = TERN_SMALL_CORE != 0;

// The error for a config with no model here, naming the option that builds the small ones.
[[noreturn]] inline void no_core_model(const std::string& who, const std::string& config) {
  throw Error(fmt::format("{}: this build has no verilated model for config '{}' (built: tiny{}){}", who,
                          config, kHaveSmallCore ? ", small" : "",
                          !kHaveSmallCore && config == "small"
                              ? "; configure with -DTERN_SMALL_CORE=ON (make test-small) for the small core"
                              : ""));
}

}  // namespace tern::tb
