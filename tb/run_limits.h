// The two limits a testbench programs before a run (GLB.WATCHDOG and GLB.BUDGET, docs/csr.md):
// by default the registers' reset values, as on the chip.
#pragma once

#include <cstdint>

#include "core/csr_map.h"

namespace tern::tb {

struct RunLimits {
  uint32_t watchdog = csr::glb::kWatchdogReset;  // cycles one instruction may take (0: none)
  uint32_t budget = csr::glb::kBudgetReset;      // instructions a sequencer may start (0: none)
};

}  // namespace tern::tb
