// The CSR table: every register's name, access, reset value, fields and meaning, from the
// offsets and field positions of csr_map.h.
#include "core/csr_map.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/error.h"

namespace tern::csr {

const std::vector<BlockInfo>& blocks() {
  static const std::vector<BlockInfo> kBlocks = {
      {Block::kGlb, "glb", kGlbBase, kGlbStride, kGlbCount,
       "Identification, configuration, global control and status, interrupts, settings."},
      {Block::kSeq, "seq", kSeqBase, kSeqStride, kSeqCount,
       "One per sequencer, in `tern::isa::Seq` order: pe, act, dve, pool, sp."},
      {Block::kDma, "dma", kDmaBase, kDmaStride, kDmaCount,
       "One per DMA engine; engines at or past the config's `dma_engines` are unmapped."},
      {Block::kSem, "sem", kSemBase, kSemStride, kSemCount, "The semaphore values."},
  };
  return kBlocks;
}

const BlockInfo& block(Block b) {
  for (const BlockInfo& info : blocks())
    if (info.block == b) return info;
  throw Error(fmt::format("csr: no block {}", int(b)));
}

const char* access_name(Access a) {
  switch (a) {
    case Access::kRW: return "RW";
    case Access::kRO: return "RO";
    case Access::kW1C: return "W1C";
    case Access::kWO: return "WO";
  }
  return "?";
}

uint32_t Reg::mask() const {
  uint32_t m = 0;
  for (const Field& f : fields) m |= f.bits.mask();
  return fields.empty() ? ~0u : m;
}

std::string Reg::qualified_name() const { return std::string(csr::block(block).name) + "." + name; }

const std::vector<Reg>& regs() {
  using A = Access;
  using B = Block;
  // Fields shared by IRQ_ENABLE and IRQ_STATUS.
  const std::vector<Field> irq_fields = {
      {"halted", glb::kIrqHalted, "sequencer i halted (rising edge of its halted flag)"},
      {"error", glb::kIrqError, "sequencer i stopped on an error (error code became non-zero)"},
      {"notify", glb::kIrqNotify, "sequencer i executed `notify` (code in its NOTIFY_CODE)"},
      {"dma_error", glb::kIrqDmaError, "a DMA engine reported an error (see its ERR_STATUS)"},
      {"idle", glb::kIrqIdle, "core idle: every sequencer and DMA engine idle after a start"},
  };
  static const std::vector<Reg> kRegs = {
      // --- global ---
      {B::kGlb, "id", glb::kId, A::kRO, glb::kIdValue, false, {}, "Magic 0x5445524E (\"TERN\")."},
      {B::kGlb, "version", glb::kVersion, A::kRO, glb::kVersionValue, false,
       {{"minor", {0, 16}, "minor version: compatible additions"},
        {"major", {16, 16}, "major version: incompatible changes"}},
       "Version of this register map."},
      {B::kGlb, "config", glb::kConfig, A::kRO, 0, true,
       {{"partitions", glb::kConfigPartitions, "SBUF/PSUM partitions"},
        {"pe_rows", glb::kConfigPeRows, "Tensor Engine rows"},
        {"pe_cols", glb::kConfigPeCols, "Tensor Engine columns"}},
       "Array sizes of the config."},
      {B::kGlb, "config_dma", glb::kConfigDma, A::kRO, 0, true,
       {{"engines", glb::kConfigDmaEngines, "DMA engines (blocks past it are unmapped)"},
        {"queues", glb::kConfigDmaQueues, "queues per DMA engine"},
        {"seqs", glb::kConfigDmaSeqs, "sequencers"},
        {"sems", glb::kConfigDmaSems, "semaphores"}},
       "Counts of the config."},
      {B::kGlb, "config_sbuf", glb::kConfigSbuf, A::kRO, 0, true, {},
       "SBUF bytes per partition."},
      {B::kGlb, "config_psum", glb::kConfigPsum, A::kRO, 0, true,
       {{"banks", glb::kConfigPsumBanks, "PSUM banks"},
        {"bank_bytes", glb::kConfigPsumBankBytes, "bytes per bank per partition"}},
       "PSUM geometry."},
      {B::kGlb, "scratch", glb::kScratch, A::kRW, 0, false, {},
       "No effect: for the driver's bus checks."},
      {B::kGlb, "ctrl", glb::kCtrl, A::kWO, 0, false,
       {{"start", glb::kCtrlStart, "start sequencer i (from instruction 0 at its PROG_BASE)"},
        {"halt", glb::kCtrlHalt, "request sequencer i to halt"},
        {"sem_clear", glb::kCtrlSemClear, "set every semaphore to 0"},
        {"cnt_clear", glb::kCtrlCntClear, "clear the performance counters"}},
       "Global control: each written 1 is a one-cycle pulse."},
      {B::kGlb, "status", glb::kStatus, A::kRO, 0, true,
       {{"busy", glb::kStatusBusy, "sequencer i is running"},
        {"halted", glb::kStatusHalted, "sequencer i has halted"},
        {"error", glb::kStatusError, "sequencer i stopped on an error (code in its STATUS)"},
        {"waiting", glb::kStatusWaiting, "sequencer i waits on a semaphore"}},
       "Sequencer state, one bit per sequencer."},
      {B::kGlb, "irq_enable", glb::kIrqEnable, A::kRW, 0, false, irq_fields,
       "Interrupt enables, bit for bit over IRQ_STATUS."},
      {B::kGlb, "irq_status", glb::kIrqStatus, A::kW1C, 0, false, irq_fields,
       "Interrupt events, sticky until written 1. irq = |(IRQ_STATUS & IRQ_ENABLE)."},
      {B::kGlb, "sr_seed", glb::kSrSeed, A::kRW, 0, false, {},
       "Stochastic-rounding seed; every write also reseeds the generators."},
      {B::kGlb, "watchdog", glb::kWatchdog, A::kRW, glb::kWatchdogReset, false, {},
       "Cycles one instruction may take, from its fetch to its retirement, waits included, and "
       "one DMA transfer, from its descriptor fetch to its last response (fault 10 past it); "
       "0: off."},
      {B::kGlb, "desc_base", glb::kDescBase, A::kRW, 0, false, {},
       "HBM byte address of DMA descriptor 0."},
      {B::kGlb, "hbm_size", glb::kHbmSize, A::kRW, 0, false, {},
       "HBM bytes the core may address; accesses past it fault."},
      {B::kGlb, "desc_count", glb::kDescCount, A::kRW, 0, false, {},
       "DMA descriptors in the table; a trigger naming one past it faults (kDma)."},
      {B::kGlb, "budget", glb::kBudget, A::kRW, glb::kBudgetReset, false, {},
       "Instructions each sequencer may start in one run (fault 8 at the next); 0: no limit."},
      {B::kGlb, "ecc_ctrl", glb::kEccCtrl, A::kWO, 0, false,
       {{"arm", glb::kEccCtrlArm,
         "arm ECC_INJECT's memory: its next write of ECC_INJECT_ADDR's byte stores the codeword "
         "with ECC_INJECT.flip's bits inverted (a byte outside the memory: SLVERR, nothing "
         "changes)"},
        {"scrub", glb::kEccCtrlScrub,
         "check every word of SBUF and PSUM on the idle cycles of their read ports (ECC_STATUS.busy "
         "until done); the counts add up"},
        {"clear", glb::kEccCtrlClear, "clear the scrub counts and first-error addresses"}},
       "ECC control (docs/ecc.md): each written 1 is a one-cycle pulse."},
      {B::kGlb, "ecc_inject", glb::kEccInject, A::kRW, 0, false,
       {{"flip", glb::kEccInjectFlip, "codeword bits to invert (bit 12: the overall parity)"},
        {"psum", glb::kEccInjectPsum, "0: SBUF, 1: PSUM"}},
       "What ECC_CTRL.arm injects."},
      {B::kGlb, "ecc_inject_addr", glb::kEccInjectAddr, A::kRW, 0, false,
       {{"offset", glb::kEccAddrOffset, "byte in the partition"},
        {"partition", glb::kEccAddrPartition, "partition"}},
       "Where ECC_CTRL.arm injects."},
      {B::kGlb, "ecc_status", glb::kEccStatus, A::kRO, 0, true,
       {{"sbuf_armed", glb::kEccStatusSbufArmed, "an SBUF injection waits for its write"},
        {"psum_armed", glb::kEccStatusPsumArmed, "a PSUM injection waits for its write"},
        {"busy", glb::kEccStatusBusy, "a scrub is running"},
        {"sbuf_ue", glb::kEccStatusSbufUe, "ECC_SBUF_UE_ADDR holds an address"},
        {"psum_ue", glb::kEccStatusPsumUe, "ECC_PSUM_UE_ADDR holds an address"}},
       "ECC state."},
      {B::kGlb, "ecc_sbuf_ce", glb::kEccSbufCe, A::kRO, 0, true, {},
       "SBUF words (4 aligned bytes of a partition) scrubs found with a corrected error only."},
      {B::kGlb, "ecc_sbuf_ue", glb::kEccSbufUe, A::kRO, 0, true, {},
       "SBUF words scrubs found with an uncorrectable error."},
      {B::kGlb, "ecc_sbuf_ue_addr", glb::kEccSbufUeAddr, A::kRO, 0, true,
       {{"offset", glb::kEccAddrOffset, "byte offset of the word"},
        {"partition", glb::kEccAddrPartition, "partition"}},
       "The first uncorrectable SBUF word since the last clear, in scrub order (word, then "
       "partition); valid with ECC_STATUS.sbuf_ue."},
      {B::kGlb, "ecc_psum_ce", glb::kEccPsumCe, A::kRO, 0, true, {},
       "PSUM words scrubs found with a corrected error only."},
      {B::kGlb, "ecc_psum_ue", glb::kEccPsumUe, A::kRO, 0, true, {},
       "PSUM words scrubs found with an uncorrectable error."},
      {B::kGlb, "ecc_psum_ue_addr", glb::kEccPsumUeAddr, A::kRO, 0, true,
       {{"offset", glb::kEccAddrOffset, "byte offset of the word"},
        {"partition", glb::kEccAddrPartition, "partition"}},
       "The first uncorrectable PSUM word since the last clear; valid with ECC_STATUS.psum_ue."},
      // --- per sequencer ---
      {B::kSeq, "prog_base", seq::kProgBase, A::kRW, 0, false, {},
       "HBM byte address of the program's instruction 0."},
      {B::kSeq, "prog_len", seq::kProgLen, A::kRW, 0, false, {}, "Program length, instructions."},
      {B::kSeq, "ctrl", seq::kCtrl, A::kWO, 0, false,
       {{"start", seq::kCtrlStart, "start this sequencer"},
        {"halt", seq::kCtrlHalt, "request this sequencer to halt"}},
       "Sequencer control: each written 1 is a one-cycle pulse."},
      {B::kSeq, "status", seq::kStatus, A::kRO, 0, true,
       {{"busy", seq::kStatusBusy, "running"},
        {"halted", seq::kStatusHalted, "halted"},
        {"waiting", seq::kStatusWaiting, "waiting on a semaphore"},
        {"err_code", seq::kStatusErrCode, "fault code (tern::core::FaultKind); 0: none"}},
       "Sequencer state."},
      {B::kSeq, "err_pc", seq::kErrPc, A::kRO, 0, true, {}, "Instruction index of the fault."},
      {B::kSeq, "pc", seq::kPc, A::kRO, 0, true, {}, "Current instruction index."},
      {B::kSeq, "retired", seq::kRetired, A::kRO, 0, true, {}, "Instructions retired."},
      {B::kSeq, "busy_cycles", seq::kBusyCycles, A::kRO, 0, true, {}, "Cycles busy."},
      {B::kSeq, "sem_wait_cycles", seq::kSemWaitCycles, A::kRO, 0, true, {},
       "Cycles waiting on a semaphore."},
      {B::kSeq, "fetch_wait_cycles", seq::kFetchWaitCycles, A::kRO, 0, true, {},
       "Cycles waiting for an instruction fetch."},
      {B::kSeq, "conflict_cycles", seq::kConflictCycles, A::kRO, 0, true, {},
       "Cycles stalled by an SBUF/PSUM port conflict."},
      {B::kSeq, "notify_code", seq::kNotifyCode, A::kRO, 0, true, {},
       "Code of the last `notify` (IRQ_STATUS.notify); 0 after reset."},
      // --- per DMA engine ---
      {B::kDma, "bytes_read_lo", dma::kBytesReadLo, A::kRO, 0, true, {},
       "Bytes read, bits 31:0 (read HI, LO, HI: retry when HI changed)."},
      {B::kDma, "bytes_read_hi", dma::kBytesReadHi, A::kRO, 0, true, {}, "Bytes read, bits 63:32."},
      {B::kDma, "bytes_written_lo", dma::kBytesWrittenLo, A::kRO, 0, true, {},
       "Bytes written, bits 31:0."},
      {B::kDma, "bytes_written_hi", dma::kBytesWrittenHi, A::kRO, 0, true, {},
       "Bytes written, bits 63:32."},
      {B::kDma, "outstanding_hwm", dma::kOutstandingHwm, A::kRO, 0, true, {},
       "Most AXI transactions outstanding at once."},
      {B::kDma, "err_status", dma::kErrStatus, A::kRO, 0, true,
       {{"code", dma::kErrStatusCode, "error code; 0: none"},
        {"detail", dma::kErrStatusDetail, "code-specific detail (AXI response, field)"},
        {"queue", dma::kErrStatusQueue, "queue of the failing transfer"},
        {"seq", dma::kErrStatusSeq, "sequencer that triggered it"}},
       "The engine's first error, held by the engine."},
      {B::kDma, "err_desc", dma::kErrDesc, A::kRO, 0, true, {},
       "Descriptor index of the failing transfer."},
      {B::kDma, "err_pc", dma::kErrPc, A::kRO, 0, true, {},
       "Instruction index of the failing trigger (sequencer in ERR_STATUS.seq)."},
      // --- semaphores ---
      {B::kSem, "value", sem::kValue, A::kRO, 0, true, {}, "Semaphore value (int32)."},
  };
  return kRegs;
}

const Reg& reg(const std::string& qualified_name) {
  for (const Reg& r : regs())
    if (r.qualified_name() == qualified_name) return r;
  throw Error(fmt::format("csr: no register '{}'", qualified_name));
}

uint32_t offset(const std::string& qualified_name, uint32_t index) {
  const Reg& r = reg(qualified_name);
  const BlockInfo& b = block(r.block);
  if (index >= b.count)
    throw Error(fmt::format("csr: {}[{}]: the {} block has {} instances", qualified_name, index,
                            b.name, b.count));
  return b.base + b.stride * index + r.offset;
}

std::vector<Instance> instances(uint32_t num_dma) {
  std::vector<Instance> out;
  for (const BlockInfo& b : blocks()) {
    const uint32_t count = b.block == Block::kDma ? std::min(num_dma, b.count) : b.count;
    for (uint32_t i = 0; i < count; ++i)
      for (const Reg& r : regs())
        if (r.block == b.block)
          out.push_back({&r, i, b.base + b.stride * i + r.offset,
                         b.count == 1 ? r.qualified_name()
                                      : fmt::format("{}[{}]", r.qualified_name(), i)});
  }
  std::sort(out.begin(), out.end(),
            [](const Instance& a, const Instance& b) { return a.addr < b.addr; });
  return out;
}

}  // namespace tern::csr
