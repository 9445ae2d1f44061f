// tern_csr_pkg: the NeuronCore's host CSR map (docs/csr.md).
// Generated from model/core/csr_map.cc by `tern csr sv`: do not edit.
//
// 16-bit byte addresses of 32-bit registers. Instance i of block <Blk> (Glb, Seq, Dma, Sem)
// sits at <Blk>Base + i * <Blk>Stride; <Blk><Reg> is a register's offset in its instance,
// <Blk><Reg>Reset its value after reset, <Blk><Reg>Mask its defined bits and
// <Blk><Reg><Field>Lsb / Width its fields.
package tern_csr_pkg;

  // Shared definitions: a block uses only some of them, so a block linted as its own top
  // would report the others as unused. The waiver covers these localparams only.
  /* verilator lint_off UNUSEDPARAM */

  // Blocks: instance i of <Blk> at <Blk>Base + i * <Blk>Stride
  localparam int unsigned AddrBits      = 16;        // byte address
  localparam int unsigned DataBits      = 32;
  localparam logic [15:0] GlbBase       = 16'h0000;  // Identification, configuration, global control and status, interrupts, settings.
  localparam logic [15:0] GlbStride     = 16'h0100;
  localparam int unsigned GlbStrideBits = 8;
  localparam int unsigned GlbCount      = 1;
  localparam logic [15:0] SeqBase       = 16'h0100;  // One per sequencer, in `tern::isa::Seq` order: pe, act, dve, pool, sp.
  localparam logic [15:0] SeqStride     = 16'h0040;
  localparam int unsigned SeqStrideBits = 6;
  localparam int unsigned SeqCount      = 5;
  localparam logic [15:0] DmaBase       = 16'h0400;  // One per DMA engine; engines at or past the config's `dma_engines` are unmapped.
  localparam logic [15:0] DmaStride     = 16'h0040;
  localparam int unsigned DmaStrideBits = 6;
  localparam int unsigned DmaCount      = 16;        // at most; the config's engines are mapped
  localparam logic [15:0] SemBase       = 16'h0800;  // The semaphore values.
  localparam logic [15:0] SemStride     = 16'h0004;
  localparam int unsigned SemStrideBits = 2;
  localparam int unsigned SemCount      = 64;

  // glb registers: offset in the instance, reset value, defined bits
  localparam logic [15:0] GlbId                 = 16'h0000;      // RO: Magic 0x5445524E ("TERN").
  localparam logic [31:0] GlbIdReset            = 32'h5445524E;
  localparam logic [31:0] GlbIdMask             = 32'hFFFFFFFF;
  localparam logic [15:0] GlbVersion            = 16'h0004;      // RO: Version of this register map.
  localparam logic [31:0] GlbVersionReset       = 32'h00010002;
  localparam logic [31:0] GlbVersionMask        = 32'hFFFFFFFF;
  localparam logic [15:0] GlbConfig             = 16'h0008;      // RO: Array sizes of the config.
  localparam logic [31:0] GlbConfigReset        = 32'h00000000;  // hardware value
  localparam logic [31:0] GlbConfigMask         = 32'h00FFFFFF;
  localparam logic [15:0] GlbConfigDma          = 16'h000C;      // RO: Counts of the config.
  localparam logic [31:0] GlbConfigDmaReset     = 32'h00000000;  // hardware value
  localparam logic [31:0] GlbConfigDmaMask      = 32'hFFFFFFFF;
  localparam logic [15:0] GlbConfigSbuf         = 16'h0010;      // RO: SBUF bytes per partition.
  localparam logic [31:0] GlbConfigSbufReset    = 32'h00000000;  // hardware value
  localparam logic [31:0] GlbConfigSbufMask     = 32'hFFFFFFFF;
  localparam logic [15:0] GlbConfigPsum         = 16'h0014;      // RO: PSUM geometry.
  localparam logic [31:0] GlbConfigPsumReset    = 32'h00000000;  // hardware value
  localparam logic [31:0] GlbConfigPsumMask     = 32'hFFFFFFFF;
  localparam logic [15:0] GlbScratch            = 16'h0018;      // RW: No effect: for the driver's bus checks.
  localparam logic [31:0] GlbScratchReset       = 32'h00000000;
  localparam logic [31:0] GlbScratchMask        = 32'hFFFFFFFF;
  localparam logic [15:0] GlbCtrl               = 16'h0020;      // WO: Global control: each written 1 is a one-cycle pulse.
  localparam logic [31:0] GlbCtrlReset          = 32'h00000000;
  localparam logic [31:0] GlbCtrlMask           = 32'h00031F1F;
  localparam logic [15:0] GlbStatus             = 16'h0024;      // RO: Sequencer state, one bit per sequencer.
  localparam logic [31:0] GlbStatusReset        = 32'h00000000;  // hardware value
  localparam logic [31:0] GlbStatusMask         = 32'h1F1F1F1F;
  localparam logic [15:0] GlbIrqEnable          = 16'h0028;      // RW: Interrupt enables, bit for bit over IRQ_STATUS.
  localparam logic [31:0] GlbIrqEnableReset     = 32'h00000000;
  localparam logic [31:0] GlbIrqEnableMask      = 32'h031F1F1F;
  localparam logic [15:0] GlbIrqStatus          = 16'h002C;      // W1C: Interrupt events, sticky until written 1. irq = |(IRQ_STATUS & IRQ_ENABLE).
  localparam logic [31:0] GlbIrqStatusReset     = 32'h00000000;
  localparam logic [31:0] GlbIrqStatusMask      = 32'h031F1F1F;
  localparam logic [15:0] GlbSrSeed             = 16'h0030;      // RW: Stochastic-rounding seed; every write also reseeds the generators.
  localparam logic [31:0] GlbSrSeedReset        = 32'h00000000;
  localparam logic [31:0] GlbSrSeedMask         = 32'hFFFFFFFF;
  localparam logic [15:0] GlbWatchdog           = 16'h0034;      // RW: Cycles one instruction may take, from its fetch to its retirement, waits included, and one DMA transfer, from its descriptor fetch to its last response (fault 10 past it); 0: off.
  localparam logic [31:0] GlbWatchdogReset      = 32'h01000000;
  localparam logic [31:0] GlbWatchdogMask       = 32'hFFFFFFFF;
  localparam logic [15:0] GlbDescBase           = 16'h0038;      // RW: HBM byte address of DMA descriptor 0.
  localparam logic [31:0] GlbDescBaseReset      = 32'h00000000;
  localparam logic [31:0] GlbDescBaseMask       = 32'hFFFFFFFF;
  localparam logic [15:0] GlbHbmSize            = 16'h003C;      // RW: HBM bytes the core may address; accesses past it fault.
  localparam logic [31:0] GlbHbmSizeReset       = 32'h00000000;
  localparam logic [31:0] GlbHbmSizeMask        = 32'hFFFFFFFF;
  localparam logic [15:0] GlbDescCount          = 16'h0040;      // RW: DMA descriptors in the table; a trigger naming one past it faults (kDma).
  localparam logic [31:0] GlbDescCountReset     = 32'h00000000;
  localparam logic [31:0] GlbDescCountMask      = 32'hFFFFFFFF;
  localparam logic [15:0] GlbBudget             = 16'h0044;      // RW: Instructions each sequencer may start in one run (fault 8 at the next); 0: no limit.
  localparam logic [31:0] GlbBudgetReset        = 32'h00400000;
  localparam logic [31:0] GlbBudgetMask         = 32'hFFFFFFFF;
  localparam logic [15:0] GlbEccCtrl            = 16'h0048;      // WO: ECC control (docs/ecc.md): each written 1 is a one-cycle pulse.
  localparam logic [31:0] GlbEccCtrlReset       = 32'h00000000;
  localparam logic [31:0] GlbEccCtrlMask        = 32'h00000007;
  localparam logic [15:0] GlbEccInject          = 16'h004C;      // RW: What ECC_CTRL.arm injects.
  localparam logic [31:0] GlbEccInjectReset     = 32'h00000000;
  localparam logic [31:0] GlbEccInjectMask      = 32'h00011FFF;
  localparam logic [15:0] GlbEccInjectAddr      = 16'h0050;      // RW: Where ECC_CTRL.arm injects.
  localparam logic [31:0] GlbEccInjectAddrReset = 32'h00000000;
  localparam logic [31:0] GlbEccInjectAddrMask  = 32'hFFFFFFFF;
  localparam logic [15:0] GlbEccStatus          = 16'h0054;      // RO: ECC state.
  localparam logic [31:0] GlbEccStatusReset     = 32'h00000000;  // hardware value
  localparam logic [31:0] GlbEccStatusMask      = 32'h0000001F;
  localparam logic [15:0] GlbEccSbufCe          = 16'h0058;      // RO: SBUF words (4 aligned bytes of a partition) scrubs found with a corrected error only.
  localparam logic [31:0] GlbEccSbufCeReset     = 32'h00000000;  // hardware value
  localparam logic [31:0] GlbEccSbufCeMask      = 32'hFFFFFFFF;
  localparam logic [15:0] GlbEccSbufUe          = 16'h005C;      // RO: SBUF words scrubs found with an uncorrectable error.
  localparam logic [31:0] GlbEccSbufUeReset     = 32'h00000000;  // hardware value
  localparam logic [31:0] GlbEccSbufUeMask      = 32'hFFFFFFFF;
  localparam logic [15:0] GlbEccSbufUeAddr      = 16'h0060;      // RO: The first uncorrectable SBUF word since the last clear, in scrub order (word, then partition); valid with ECC_STATUS.sbuf_ue.
  localparam logic [31:0] GlbEccSbufUeAddrReset = 32'h00000000;  // hardware value
  localparam logic [31:0] GlbEccSbufUeAddrMask  = 32'hFFFFFFFF;
  localparam logic [15:0] GlbEccPsumCe          = 16'h0064;      // RO: PSUM words scrubs found with a corrected error only.
  localparam logic [31:0] GlbEccPsumCeReset     = 32'h00000000;  // hardware value
  localparam logic [31:0] GlbEccPsumCeMask      = 32'hFFFFFFFF;
  localparam logic [15:0] GlbEccPsumUe          = 16'h0068;      // RO: PSUM words scrubs found with an uncorrectable error.
  localparam logic [31:0] GlbEccPsumUeReset     = 32'h00000000;  // hardware value
  localparam logic [31:0] GlbEccPsumUeMask      = 32'hFFFFFFFF;
  localparam logic [15:0] GlbEccPsumUeAddr      = 16'h006C;      // RO: The first uncorrectable PSUM word since the last clear; valid with ECC_STATUS.psum_ue.
  localparam logic [31:0] GlbEccPsumUeAddrReset = 32'h00000000;  // hardware value
  localparam logic [31:0] GlbEccPsumUeAddrMask  = 32'hFFFFFFFF;

  // seq registers: offset in the instance, reset value, defined bits
  localparam logic [15:0] SeqProgBase             = 16'h0000;      // RW: HBM byte address of the program's instruction 0.
  localparam logic [31:0] SeqProgBaseReset        = 32'h00000000;
  localparam logic [31:0] SeqProgBaseMask         = 32'hFFFFFFFF;
  localparam logic [15:0] SeqProgLen              = 16'h0004;      // RW: Program length, instructions.
  localparam logic [31:0] SeqProgLenReset         = 32'h00000000;
  localparam logic [31:0] SeqProgLenMask          = 32'hFFFFFFFF;
  localparam logic [15:0] SeqCtrl                 = 16'h0008;      // WO: Sequencer control: each written 1 is a one-cycle pulse.
  localparam logic [31:0] SeqCtrlReset            = 32'h00000000;
  localparam logic [31:0] SeqCtrlMask             = 32'h00000003;
  localparam logic [15:0] SeqStatus               = 16'h000C;      // RO: Sequencer state.
  localparam logic [31:0] SeqStatusReset          = 32'h00000000;  // hardware value
  localparam logic [31:0] SeqStatusMask           = 32'h000000F7;
  localparam logic [15:0] SeqErrPc                = 16'h0010;      // RO: Instruction index of the fault.
  localparam logic [31:0] SeqErrPcReset           = 32'h00000000;  // hardware value
  localparam logic [31:0] SeqErrPcMask            = 32'hFFFFFFFF;
  localparam logic [15:0] SeqPc                   = 16'h0014;      // RO: Current instruction index.
  localparam logic [31:0] SeqPcReset              = 32'h00000000;  // hardware value
  localparam logic [31:0] SeqPcMask               = 32'hFFFFFFFF;
  localparam logic [15:0] SeqRetired              = 16'h0018;      // RO: Instructions retired.
  localparam logic [31:0] SeqRetiredReset         = 32'h00000000;  // hardware value
  localparam logic [31:0] SeqRetiredMask          = 32'hFFFFFFFF;
  localparam logic [15:0] SeqBusyCycles           = 16'h001C;      // RO: Cycles busy.
  localparam logic [31:0] SeqBusyCyclesReset      = 32'h00000000;  // hardware value
  localparam logic [31:0] SeqBusyCyclesMask       = 32'hFFFFFFFF;
  localparam logic [15:0] SeqSemWaitCycles        = 16'h0020;      // RO: Cycles waiting on a semaphore.
  localparam logic [31:0] SeqSemWaitCyclesReset   = 32'h00000000;  // hardware value
  localparam logic [31:0] SeqSemWaitCyclesMask    = 32'hFFFFFFFF;
  localparam logic [15:0] SeqFetchWaitCycles      = 16'h0024;      // RO: Cycles waiting for an instruction fetch.
  localparam logic [31:0] SeqFetchWaitCyclesReset = 32'h00000000;  // hardware value
  localparam logic [31:0] SeqFetchWaitCyclesMask  = 32'hFFFFFFFF;
  localparam logic [15:0] SeqConflictCycles       = 16'h0028;      // RO: Cycles stalled by an SBUF/PSUM port conflict.
  localparam logic [31:0] SeqConflictCyclesReset  = 32'h00000000;  // hardware value
  localparam logic [31:0] SeqConflictCyclesMask   = 32'hFFFFFFFF;
  localparam logic [15:0] SeqNotifyCode           = 16'h002C;      // RO: Code of the last `notify` (IRQ_STATUS.notify); 0 after reset.
  localparam logic [31:0] SeqNotifyCodeReset      = 32'h00000000;  // hardware value
  localparam logic [31:0] SeqNotifyCodeMask       = 32'hFFFFFFFF;

  // dma registers: offset in the instance, reset value, defined bits
  localparam logic [15:0] DmaBytesReadLo         = 16'h0000;      // RO: Bytes read, bits 31:0 (read HI, LO, HI: retry when HI changed).
  localparam logic [31:0] DmaBytesReadLoReset    = 32'h00000000;  // hardware value
  localparam logic [31:0] DmaBytesReadLoMask     = 32'hFFFFFFFF;
  localparam logic [15:0] DmaBytesReadHi         = 16'h0004;      // RO: Bytes read, bits 63:32.
  localparam logic [31:0] DmaBytesReadHiReset    = 32'h00000000;  // hardware value
  localparam logic [31:0] DmaBytesReadHiMask     = 32'hFFFFFFFF;
  localparam logic [15:0] DmaBytesWrittenLo      = 16'h0008;      // RO: Bytes written, bits 31:0.
  localparam logic [31:0] DmaBytesWrittenLoReset = 32'h00000000;  // hardware value
  localparam logic [31:0] DmaBytesWrittenLoMask  = 32'hFFFFFFFF;
  localparam logic [15:0] DmaBytesWrittenHi      = 16'h000C;      // RO: Bytes written, bits 63:32.
  localparam logic [31:0] DmaBytesWrittenHiReset = 32'h00000000;  // hardware value
  localparam logic [31:0] DmaBytesWrittenHiMask  = 32'hFFFFFFFF;
  localparam logic [15:0] DmaOutstandingHwm      = 16'h0010;      // RO: Most AXI transactions outstanding at once.
  localparam logic [31:0] DmaOutstandingHwmReset = 32'h00000000;  // hardware value
  localparam logic [31:0] DmaOutstandingHwmMask  = 32'hFFFFFFFF;
  localparam logic [15:0] DmaErrStatus           = 16'h0014;      // RO: The engine's first error, held by the engine.
  localparam logic [31:0] DmaErrStatusReset      = 32'h00000000;  // hardware value
  localparam logic [31:0] DmaErrStatusMask       = 32'h07FFFF0F;
  localparam logic [15:0] DmaErrDesc             = 16'h0018;      // RO: Descriptor index of the failing transfer.
  localparam logic [31:0] DmaErrDescReset        = 32'h00000000;  // hardware value
  localparam logic [31:0] DmaErrDescMask         = 32'hFFFFFFFF;
  localparam logic [15:0] DmaErrPc               = 16'h001C;      // RO: Instruction index of the failing trigger (sequencer in ERR_STATUS.seq).
  localparam logic [31:0] DmaErrPcReset          = 32'h00000000;  // hardware value
  localparam logic [31:0] DmaErrPcMask           = 32'hFFFFFFFF;

  // sem registers: offset in the instance, reset value, defined bits
  localparam logic [15:0] SemValue      = 16'h0000;      // RO: Semaphore value (int32).
  localparam logic [31:0] SemValueReset = 32'h00000000;  // hardware value
  localparam logic [31:0] SemValueMask  = 32'hFFFFFFFF;

  // glb fields
  localparam int unsigned GlbVersionMinorLsb             = 0;   // minor version: compatible additions
  localparam int unsigned GlbVersionMinorWidth           = 16;
  localparam int unsigned GlbVersionMajorLsb             = 16;  // major version: incompatible changes
  localparam int unsigned GlbVersionMajorWidth           = 16;
  localparam int unsigned GlbConfigPartitionsLsb         = 0;   // SBUF/PSUM partitions
  localparam int unsigned GlbConfigPartitionsWidth       = 8;
  localparam int unsigned GlbConfigPeRowsLsb             = 8;   // Tensor Engine rows
  localparam int unsigned GlbConfigPeRowsWidth           = 8;
  localparam int unsigned GlbConfigPeColsLsb             = 16;  // Tensor Engine columns
  localparam int unsigned GlbConfigPeColsWidth           = 8;
  localparam int unsigned GlbConfigDmaEnginesLsb         = 0;   // DMA engines (blocks past it are unmapped)
  localparam int unsigned GlbConfigDmaEnginesWidth       = 8;
  localparam int unsigned GlbConfigDmaQueuesLsb          = 8;   // queues per DMA engine
  localparam int unsigned GlbConfigDmaQueuesWidth        = 8;
  localparam int unsigned GlbConfigDmaSeqsLsb            = 16;  // sequencers
  localparam int unsigned GlbConfigDmaSeqsWidth          = 8;
  localparam int unsigned GlbConfigDmaSemsLsb            = 24;  // semaphores
  localparam int unsigned GlbConfigDmaSemsWidth          = 8;
  localparam int unsigned GlbConfigPsumBanksLsb          = 0;   // PSUM banks
  localparam int unsigned GlbConfigPsumBanksWidth        = 8;
  localparam int unsigned GlbConfigPsumBankBytesLsb      = 8;   // bytes per bank per partition
  localparam int unsigned GlbConfigPsumBankBytesWidth    = 24;
  localparam int unsigned GlbCtrlStartLsb                = 0;   // start sequencer i (from instruction 0 at its PROG_BASE)
  localparam int unsigned GlbCtrlStartWidth              = 5;
  localparam int unsigned GlbCtrlHaltLsb                 = 8;   // request sequencer i to halt
  localparam int unsigned GlbCtrlHaltWidth               = 5;
  localparam int unsigned GlbCtrlSemClearLsb             = 16;  // set every semaphore to 0
  localparam int unsigned GlbCtrlSemClearWidth           = 1;
  localparam int unsigned GlbCtrlCntClearLsb             = 17;  // clear the performance counters
  localparam int unsigned GlbCtrlCntClearWidth           = 1;
  localparam int unsigned GlbStatusBusyLsb               = 0;   // sequencer i is running
  localparam int unsigned GlbStatusBusyWidth             = 5;
  localparam int unsigned GlbStatusHaltedLsb             = 8;   // sequencer i has halted
  localparam int unsigned GlbStatusHaltedWidth           = 5;
  localparam int unsigned GlbStatusErrorLsb              = 16;  // sequencer i stopped on an error (code in its STATUS)
  localparam int unsigned GlbStatusErrorWidth            = 5;
  localparam int unsigned GlbStatusWaitingLsb            = 24;  // sequencer i waits on a semaphore
  localparam int unsigned GlbStatusWaitingWidth          = 5;
  localparam int unsigned GlbIrqEnableHaltedLsb          = 0;   // sequencer i halted (rising edge of its halted flag)
  localparam int unsigned GlbIrqEnableHaltedWidth        = 5;
  localparam int unsigned GlbIrqEnableErrorLsb           = 8;   // sequencer i stopped on an error (error code became non-zero)
  localparam int unsigned GlbIrqEnableErrorWidth         = 5;
  localparam int unsigned GlbIrqEnableNotifyLsb          = 16;  // sequencer i executed `notify` (code in its NOTIFY_CODE)
  localparam int unsigned GlbIrqEnableNotifyWidth        = 5;
  localparam int unsigned GlbIrqEnableDmaErrorLsb        = 24;  // a DMA engine reported an error (see its ERR_STATUS)
  localparam int unsigned GlbIrqEnableDmaErrorWidth      = 1;
  localparam int unsigned GlbIrqEnableIdleLsb            = 25;  // core idle: every sequencer and DMA engine idle after a start
  localparam int unsigned GlbIrqEnableIdleWidth          = 1;
  localparam int unsigned GlbIrqStatusHaltedLsb          = 0;   // sequencer i halted (rising edge of its halted flag)
  localparam int unsigned GlbIrqStatusHaltedWidth        = 5;
  localparam int unsigned GlbIrqStatusErrorLsb           = 8;   // sequencer i stopped on an error (error code became non-zero)
  localparam int unsigned GlbIrqStatusErrorWidth         = 5;
  localparam int unsigned GlbIrqStatusNotifyLsb          = 16;  // sequencer i executed `notify` (code in its NOTIFY_CODE)
  localparam int unsigned GlbIrqStatusNotifyWidth        = 5;
  localparam int unsigned GlbIrqStatusDmaErrorLsb        = 24;  // a DMA engine reported an error (see its ERR_STATUS)
  localparam int unsigned GlbIrqStatusDmaErrorWidth      = 1;
  localparam int unsigned GlbIrqStatusIdleLsb            = 25;  // core idle: every sequencer and DMA engine idle after a start
  localparam int unsigned GlbIrqStatusIdleWidth          = 1;
  localparam int unsigned GlbEccCtrlArmLsb               = 0;   // arm ECC_INJECT's memory: its next write of ECC_INJECT_ADDR's byte stores the codeword with ECC_INJECT.flip's bits inverted (a byte outside the memory: SLVERR, nothing changes)
  localparam int unsigned GlbEccCtrlArmWidth             = 1;
  localparam int unsigned GlbEccCtrlScrubLsb             = 1;   // check every word of SBUF and PSUM on the idle cycles of their read ports (ECC_STATUS.busy until done); the counts add up
  localparam int unsigned GlbEccCtrlScrubWidth           = 1;
  localparam int unsigned GlbEccCtrlClearLsb             = 2;   // clear the scrub counts and first-error addresses
  localparam int unsigned GlbEccCtrlClearWidth           = 1;
  localparam int unsigned GlbEccInjectFlipLsb            = 0;   // codeword bits to invert (bit 12: the overall parity)
  localparam int unsigned GlbEccInjectFlipWidth          = 13;
  localparam int unsigned GlbEccInjectPsumLsb            = 16;  // 0: SBUF, 1: PSUM
  localparam int unsigned GlbEccInjectPsumWidth          = 1;
  localparam int unsigned GlbEccInjectAddrOffsetLsb      = 0;   // byte in the partition
  localparam int unsigned GlbEccInjectAddrOffsetWidth    = 24;
  localparam int unsigned GlbEccInjectAddrPartitionLsb   = 24;  // partition
  localparam int unsigned GlbEccInjectAddrPartitionWidth = 8;
  localparam int unsigned GlbEccStatusSbufArmedLsb       = 0;   // an SBUF injection waits for its write
  localparam int unsigned GlbEccStatusSbufArmedWidth     = 1;
  localparam int unsigned GlbEccStatusPsumArmedLsb       = 1;   // a PSUM injection waits for its write
  localparam int unsigned GlbEccStatusPsumArmedWidth     = 1;
  localparam int unsigned GlbEccStatusBusyLsb            = 2;   // a scrub is running
  localparam int unsigned GlbEccStatusBusyWidth          = 1;
  localparam int unsigned GlbEccStatusSbufUeLsb          = 3;   // ECC_SBUF_UE_ADDR holds an address
  localparam int unsigned GlbEccStatusSbufUeWidth        = 1;
  localparam int unsigned GlbEccStatusPsumUeLsb          = 4;   // ECC_PSUM_UE_ADDR holds an address
  localparam int unsigned GlbEccStatusPsumUeWidth        = 1;
  localparam int unsigned GlbEccSbufUeAddrOffsetLsb      = 0;   // byte offset of the word
  localparam int unsigned GlbEccSbufUeAddrOffsetWidth    = 24;
  localparam int unsigned GlbEccSbufUeAddrPartitionLsb   = 24;  // partition
  localparam int unsigned GlbEccSbufUeAddrPartitionWidth = 8;
  localparam int unsigned GlbEccPsumUeAddrOffsetLsb      = 0;   // byte offset of the word
  localparam int unsigned GlbEccPsumUeAddrOffsetWidth    = 24;
  localparam int unsigned GlbEccPsumUeAddrPartitionLsb   = 24;  // partition
  localparam int unsigned GlbEccPsumUeAddrPartitionWidth = 8;

  // seq fields
  localparam int unsigned SeqCtrlStartLsb       = 0;  // start this sequencer
  localparam int unsigned SeqCtrlStartWidth     = 1;
  localparam int unsigned SeqCtrlHaltLsb        = 1;  // request this sequencer to halt
  localparam int unsigned SeqCtrlHaltWidth      = 1;
  localparam int unsigned SeqStatusBusyLsb      = 0;  // running
  localparam int unsigned SeqStatusBusyWidth    = 1;
  localparam int unsigned SeqStatusHaltedLsb    = 1;  // halted
  localparam int unsigned SeqStatusHaltedWidth  = 1;
  localparam int unsigned SeqStatusWaitingLsb   = 2;  // waiting on a semaphore
  localparam int unsigned SeqStatusWaitingWidth = 1;
  localparam int unsigned SeqStatusErrCodeLsb   = 4;  // fault code (tern::core::FaultKind); 0: none
  localparam int unsigned SeqStatusErrCodeWidth = 4;

  // dma fields
  localparam int unsigned DmaErrStatusCodeLsb     = 0;   // error code; 0: none
  localparam int unsigned DmaErrStatusCodeWidth   = 4;
  localparam int unsigned DmaErrStatusDetailLsb   = 8;   // code-specific detail (AXI response, field)
  localparam int unsigned DmaErrStatusDetailWidth = 8;
  localparam int unsigned DmaErrStatusQueueLsb    = 16;  // queue of the failing transfer
  localparam int unsigned DmaErrStatusQueueWidth  = 8;
  localparam int unsigned DmaErrStatusSeqLsb      = 24;  // sequencer that triggered it
  localparam int unsigned DmaErrStatusSeqWidth    = 3;

  // Fault codes (tern::core::FaultKind, model/core/fault.cc)
  localparam logic [3:0] FaultNone               = 4'd0;   // no fault
  localparam logic [3:0] FaultIllegalInstruction = 4'd1;   // illegal instruction
  localparam logic [3:0] FaultOperand            = 4'd2;   // operand
  localparam logic [3:0] FaultEngine             = 4'd3;   // engine
  localparam logic [3:0] FaultDma                = 4'd4;   // dma
  localparam logic [3:0] FaultMemory             = 4'd5;   // memory
  localparam logic [3:0] FaultRace               = 4'd6;   // race
  localparam logic [3:0] FaultDeadlock           = 4'd7;   // deadlock
  localparam logic [3:0] FaultBudget             = 4'd8;   // instruction budget
  localparam logic [3:0] FaultPc                 = 4'd9;   // pc
  localparam logic [3:0] FaultWatchdog           = 4'd10;  // watchdog

  // DMA fault details (tern::core::DmaDetail, model/core/fault.cc)
  localparam logic [3:0] DmaDetDescFetch  = 4'd0;   // SLVERR or DECERR fetching the descriptor
  localparam logic [3:0] DmaDetSrcZeroDim = 4'd1;   // a source dim of size 0
  localparam logic [3:0] DmaDetSrcAlign   = 4'd2;   // source address or byte step not a multiple of the element size
  localparam logic [3:0] DmaDetSrcHbm     = 4'd3;   // a source element outside [0, HBM_SIZE)
  localparam logic [3:0] DmaDetSrcPStep   = 4'd4;   // a negative source partition step
  localparam logic [3:0] DmaDetSrcPart    = 4'd5;   // the last source partition is P or more
  localparam logic [3:0] DmaDetSrcOffset  = 4'd6;   // a source byte outside its partition
  localparam logic [3:0] DmaDetDstZeroDim = 4'd7;   // a destination dim of size 0
  localparam logic [3:0] DmaDetDstAlign   = 4'd8;   // destination address or byte step not a multiple of the element size
  localparam logic [3:0] DmaDetDstHbm     = 4'd9;   // a destination element outside [0, HBM_SIZE)
  localparam logic [3:0] DmaDetDstPStep   = 4'd10;  // a negative destination partition step
  localparam logic [3:0] DmaDetDstPart    = 4'd11;  // the last destination partition is P or more
  localparam logic [3:0] DmaDetDstOffset  = 4'd12;  // a destination byte outside its partition
  localparam logic [3:0] DmaDetCount      = 4'd13;  // source and destination element counts differ
  localparam logic [3:0] DmaDetSlvErr     = 4'd14;  // SLVERR on a data read or write
  localparam logic [3:0] DmaDetDecErr     = 4'd15;  // DECERR on a data read or write

  // Sequencer states (tern::core::SeqState, model/core/seq_state.cc): tern_seq's state
  // register and its trace port.
  typedef enum logic [3:0] {
    SeqStIdle       = 4'd0,   // not started since reset
    SeqStFetch      = 4'd1,   // requesting the instruction at pc
    SeqStFetchWait  = 4'd2,   // waiting for the fetch response
    SeqStWait       = 4'd4,   // decoded; waiting for its semaphore condition (or the pending one)
    SeqStExec       = 4'd5,   // executing a control instruction or offering it to its port
    SeqStMem        = 4'd6,   // requesting an ld/st word
    SeqStMemWait    = 4'd7,   // waiting for the ld/st response
    SeqStEng        = 4'd8,   // offering an engine instruction its engine has not taken
    SeqStEngWait    = 4'd9,   // waiting for the engine's done
    SeqStDma        = 4'd10,  // offering a DMA trigger
    SeqStHalted     = 4'd11,  // halted
    SeqStError      = 4'd12   // stopped on a fault
  } seq_state_e;

  /* verilator lint_on UNUSEDPARAM */

endpackage
