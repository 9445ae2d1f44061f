#include "core/fault.h"

namespace tern::core {

// The RTL's side check reports a side's check by its place after k*ZeroDim: both sides list the
// same checks in the same order.
#define TERN_SAME_PLACE(check) \
  static_assert(int(DmaDetail::kDst##check) - int(DmaDetail::kDstZeroDim) == \
                int(DmaDetail::kSrc##check) - int(DmaDetail::kSrcZeroDim), "DmaDetail order: " #check)
TERN_SAME_PLACE(Align);
TERN_SAME_PLACE(Hbm);
TERN_SAME_PLACE(PStep);
TERN_SAME_PLACE(Part);
TERN_SAME_PLACE(Offset);
#undef TERN_SAME_PLACE
static_assert(int(DmaDetail::kDstZeroDim) - int(DmaDetail::kSrcZeroDim) == 6, "six checks a side");

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
       "one instruction (fetch, wait, ld/st, engine or DMA trigger), or one DMA transfer (an AXI "
       "response that never came), took more than GLB.WATCHDOG cycles (RTL only: the golden "
       "model has no cycle-exact time)", false},
  };
  return table;
}

const std::vector<DmaDetailInfo>& dma_detail_table() {
  using D = DmaDetail;
  static const std::vector<DmaDetailInfo> table = {
      {D::kDescFetch, "DescFetch", "SLVERR or DECERR fetching the descriptor"},
      {D::kSrcZeroDim, "SrcZeroDim", "a source dim of size 0"},
      {D::kSrcAlign, "SrcAlign", "source address or byte step not a multiple of the element size"},
      {D::kSrcHbm, "SrcHbm", "a source element outside [0, HBM_SIZE)"},
      {D::kSrcPStep, "SrcPStep", "a negative source partition step"},
      {D::kSrcPart, "SrcPart", "the last source partition is P or more"},
      {D::kSrcOffset, "SrcOffset", "a source byte outside its partition"},
      {D::kDstZeroDim, "DstZeroDim", "a destination dim of size 0"},
      {D::kDstAlign, "DstAlign", "destination address or byte step not a multiple of the element size"},
      {D::kDstHbm, "DstHbm", "a destination element outside [0, HBM_SIZE)"},
      {D::kDstPStep, "DstPStep", "a negative destination partition step"},
      {D::kDstPart, "DstPart", "the last destination partition is P or more"},
      {D::kDstOffset, "DstOffset", "a destination byte outside its partition"},
      {D::kCount, "Count", "source and destination element counts differ"},
      {D::kSlvErr, "SlvErr", "SLVERR on a data read or write"},
      {D::kDecErr, "DecErr", "DECERR on a data read or write"},
  };
  return table;
}

const char* fault_name(FaultKind k) {
  for (const FaultInfo& f : fault_table())
    if (f.kind == k) return f.name;
  return "?";
}

}  // namespace tern::core
