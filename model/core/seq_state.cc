#include "core/seq_state.h"

namespace tern::core {

const std::vector<SeqStateInfo>& seq_state_table() {
  using S = SeqState;
  static const std::vector<SeqStateInfo> table = {
      {S::kIdle, "Idle", "not started since reset"},
      {S::kFetch, "Fetch", "requesting the instruction at pc"},
      {S::kFetchWait, "FetchWait", "waiting for the fetch response"},
      {S::kWait, "Wait", "decoded; waiting for its semaphore condition (or the pending one)"},
      {S::kExec, "Exec", "executing a control instruction or offering it to its port"},
      {S::kMem, "Mem", "requesting an ld/st word"},
      {S::kMemWait, "MemWait", "waiting for the ld/st response"},
      {S::kEng, "Eng", "offering an engine instruction its engine has not taken"},
      {S::kEngWait, "EngWait", "waiting for the engine's done"},
      {S::kDma, "Dma", "offering a DMA trigger"},
      {S::kHalted, "Halted", "halted"},
      {S::kError, "Error", "stopped on a fault"},
  };
  return table;
}

}  // namespace tern::core
