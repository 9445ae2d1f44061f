// The configs the verilated models were built from (configs/*.yaml when CMake configured). A
// model is chosen by config name; this check makes a config file of the same name with other
// sizes an error instead of a run on hardware of the wrong size.
#pragma once

#include "common/config.h"

namespace tern::tb {

// Throws tern::Error when no model was built for cfg.name, or when cfg's sizes differ from the
// built config of that name (naming the first size that differs). `who` starts the message.
void require_built_config(const CoreConfig& cfg, const std::string& who);

}  // namespace tern::tb
