#include "core/fault.h"

namespace tern::core {

const std::vector<FaultInfo>& fault_table() {
  static const std::vector<FaultInfo> table = {
      {FaultKind::kIllegalInstruction, "illegal instruction", "IllegalInstruction",
       "unknown opcode, reserved bit set, undefined field value, or not the sequencer's", true},
      {FaultKind::kOperand, "operand", "Operand",
       "operand outside SBUF/PSUM, past the partitions, misaligned, or of the wrong shape", true},
      {FaultKind::kEngine, "engine", "Engine",
       "the engine rejected the command (matmul limits, dtype, size)", true},
      {FaultKind::kDma, "dma", "Dma", "descriptor, queue or DMA address outside its memory", true},
      {FaultKind::kMemory, "memory", "Memory",
       "instruction fetch or ld/st outside HBM, misaligned, or answered with an error", true},
      {FaultKind::kRace, "race", "Race",
       "unsynchronised conflicting accesses to SBUF/PSUM (golden model only)", true},
      {FaultKind::kDeadlock, "deadlock", "Deadlock",
       "every running sequencer waits on a semaphore and nothing in the core can change one", true},
      {FaultKind::kBudget, "instruction budget", "Budget",
       "the sequencer would start more instructions than GLB.BUDGET allows in one run", true},
      {FaultKind::kPc, "pc", "Pc", "a branch or the stream ran past the end of the stream", true},
      {FaultKind::kWatchdog, "watchdog", "Watchdog",
       "one instruction (fetch, wait, ld/st, engine or DMA trigger) took more than GLB.WATCHDOG "
       "cycles (RTL only: the golden model has no cycle-exact time)", false},
  };
  return table;
}

const char* fault_name(FaultKind k) {
  for (const FaultInfo& f : fault_table())
    if (f.kind == k) return f.name;
  return "?";
}

}  // namespace tern::core
