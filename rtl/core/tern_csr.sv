// tern_csr: the NeuronCore's host CSR block (docs/csr.md), an AXI4-Lite slave over the map of
// tern_csr_pkg (generated from model/core/csr_map.cc: every offset, reset value, mask and
// field position below comes from it).
//
// Bus: 32-bit data, 16-bit byte addresses, one transaction per channel at a time. AW and W are
// accepted independently (each is held until the other arrives); the write takes effect the
// cycle after both are held and its response follows. A read is answered the cycle after AR.
// Unmapped or unaligned addresses and writes to RO registers answer SLVERR and change nothing;
// WO registers read 0. WSTRB selects the bytes of RW registers and of the bits a W1C or WO
// write acts on.
//
// Interrupts (IRQ_STATUS, sticky until written 1; irq_o = |(IRQ_STATUS & IRQ_ENABLE)): a
// sequencer's halted flag rising, its error code becoming non-zero, its notify, any DMA error
// pulse, and the core idle (every sequencer and DMA engine idle after a start). An event in the cycle of a W1C
// clear of its bit wins.
module tern_csr #(
  parameter int unsigned NumDma             = tern_cfg_pkg::DmaEngines,
  parameter int unsigned Partitions         = tern_cfg_pkg::Partitions,
  parameter int unsigned PeRows             = tern_cfg_pkg::PeRows,
  parameter int unsigned PeCols             = tern_cfg_pkg::PeCols,
  parameter int unsigned DmaQueues          = tern_cfg_pkg::DmaQueues,
  parameter int unsigned SbufPartitionBytes = tern_cfg_pkg::SbufPartitionBytes,
  parameter int unsigned PsumBanks          = tern_cfg_pkg::PsumBanks,
  parameter int unsigned PsumBankBytes      = tern_cfg_pkg::PsumBankBytes,
  localparam int unsigned S    = tern_csr_pkg::SeqCount,
  localparam int unsigned NSem = tern_csr_pkg::SemCount,
  localparam int unsigned ECW  = tern_csr_pkg::SeqStatusErrCodeWidth,
  localparam int unsigned DCW  = tern_csr_pkg::DmaErrStatusCodeWidth,
  localparam int unsigned DDW  = tern_csr_pkg::DmaErrStatusDetailWidth,
  localparam int unsigned DQW  = tern_csr_pkg::DmaErrStatusQueueWidth,
  localparam int unsigned DSW  = tern_csr_pkg::DmaErrStatusSeqWidth,
  localparam int unsigned IdxW = $clog2(tern_csr_pkg::SemCount),
  localparam int unsigned FlipW = tern_csr_pkg::GlbEccInjectFlipWidth
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  // AXI4-Lite slave
  // BEGIN GENERATED: tern axi axi4lite slave s_axil
  input  logic         s_axil_awvalid_i,
  output logic         s_axil_awready_o,
  input  logic [15:0]  s_axil_awaddr_i,
  input  logic [2:0]   s_axil_awprot_i,
  input  logic         s_axil_wvalid_i,
  output logic         s_axil_wready_o,
  input  logic [31:0]  s_axil_wdata_i,
  input  logic [3:0]   s_axil_wstrb_i,
  output logic         s_axil_bvalid_o,
  input  logic         s_axil_bready_i,
  output logic [1:0]   s_axil_bresp_o,
  input  logic         s_axil_arvalid_i,
  output logic         s_axil_arready_o,
  input  logic [15:0]  s_axil_araddr_i,
  input  logic [2:0]   s_axil_arprot_i,
  output logic         s_axil_rvalid_o,
  input  logic         s_axil_rready_i,
  output logic [31:0]  s_axil_rdata_o,
  output logic [1:0]   s_axil_rresp_o,
  // END GENERATED: tern axi
  // control of the sequencers and the core (pulses last one cycle)
  output logic [S*32-1:0]     prog_base_o,
  output logic [S*32-1:0]     prog_len_o,
  output logic [S-1:0]        start_o,
  output logic [S-1:0]        halt_req_o,
  output logic                sem_clear_o,
  output logic                cnt_clear_o,
  output logic [31:0]         watchdog_o,
  output logic [31:0]         desc_base_o,
  output logic [31:0]         hbm_size_o,
  output logic [31:0]         desc_count_o,
  output logic [31:0]         budget_o,
  output logic [31:0]         sr_seed_o,
  output logic                sr_seed_valid_o,
  output logic                irq_o,
  // sequencer state and counters, sequencer i in slice i
  input  logic [S-1:0]        busy_i,
  input  logic [S-1:0]        halted_i,
  input  logic [S-1:0]        waiting_i,
  input  logic [S*ECW-1:0]    err_code_i,
  input  logic [S*32-1:0]     err_pc_i,
  input  logic [S*32-1:0]     pc_i,
  input  logic [S*32-1:0]     retired_i,
  input  logic [S*32-1:0]     busy_cycles_i,
  input  logic [S*32-1:0]     sem_wait_cycles_i,
  input  logic [S*32-1:0]     fetch_wait_cycles_i,
  input  logic [S*32-1:0]     conflict_cycles_i,
  input  logic [S-1:0]        notify_valid_i,
  input  logic [S*32-1:0]     notify_code_i,
  // DMA engines, engine e in slice e
  input  logic [NumDma*64-1:0]  dma_bytes_read_i,
  input  logic [NumDma*64-1:0]  dma_bytes_written_i,
  input  logic [NumDma*32-1:0]  dma_outstanding_hwm_i,
  input  logic [NumDma*DCW-1:0] dma_err_code_i,
  input  logic [NumDma*DDW-1:0] dma_err_detail_i,
  input  logic [NumDma*DQW-1:0] dma_err_queue_i,
  input  logic [NumDma*DSW-1:0] dma_err_seq_i,
  input  logic [NumDma*32-1:0]  dma_err_desc_i,
  input  logic [NumDma*32-1:0]  dma_err_pc_i,
  input  logic [NumDma-1:0]     dma_err_valid_i,  // pulse: an error was recorded
  input  logic [NumDma-1:0]     dma_busy_i,       // a transfer queued or in flight
  // semaphores
  input  logic [NSem*32-1:0]  sem_values_i,
  // ECC of SBUF (index 0) and PSUM (1), docs/ecc.md
  output logic [1:0]          ecc_arm_o,       // pulse: ECC_CTRL.arm for ECC_INJECT's memory
  output logic [7:0]          ecc_inj_part_o,
  output logic [23:0]         ecc_inj_off_o,
  output logic [FlipW-1:0]    ecc_inj_flip_o,
  output logic                ecc_scrub_o,     // pulse
  output logic                ecc_clear_o,     // pulse
  input  logic [1:0]          ecc_armed_i,
  input  logic [1:0]          ecc_busy_i,
  input  logic [2*32-1:0]     ecc_ce_i,
  input  logic [2*32-1:0]     ecc_ue_i,
  input  logic [1:0]          ecc_ue_valid_i,
  input  logic [2*32-1:0]     ecc_ue_addr_i
);
  // The config registers' values.
  localparam logic [31:0] CfgConfig =
      ((32'(Partitions) & ((32'd1 << tern_csr_pkg::GlbConfigPartitionsWidth) - 32'd1))
         << tern_csr_pkg::GlbConfigPartitionsLsb) |
      ((32'(PeRows) & ((32'd1 << tern_csr_pkg::GlbConfigPeRowsWidth) - 32'd1))
         << tern_csr_pkg::GlbConfigPeRowsLsb) |
      ((32'(PeCols) & ((32'd1 << tern_csr_pkg::GlbConfigPeColsWidth) - 32'd1))
         << tern_csr_pkg::GlbConfigPeColsLsb);
  localparam logic [31:0] CfgConfigDma =
      ((32'(NumDma) & ((32'd1 << tern_csr_pkg::GlbConfigDmaEnginesWidth) - 32'd1))
         << tern_csr_pkg::GlbConfigDmaEnginesLsb) |
      ((32'(DmaQueues) & ((32'd1 << tern_csr_pkg::GlbConfigDmaQueuesWidth) - 32'd1))
         << tern_csr_pkg::GlbConfigDmaQueuesLsb) |
      ((32'(S) & ((32'd1 << tern_csr_pkg::GlbConfigDmaSeqsWidth) - 32'd1))
         << tern_csr_pkg::GlbConfigDmaSeqsLsb) |
      ((32'(NSem) & ((32'd1 << tern_csr_pkg::GlbConfigDmaSemsWidth) - 32'd1))
         << tern_csr_pkg::GlbConfigDmaSemsLsb);
  localparam logic [31:0] CfgConfigSbuf = 32'(SbufPartitionBytes);
  localparam logic [31:0] CfgConfigPsum =
      ((32'(PsumBanks) & ((32'd1 << tern_csr_pkg::GlbConfigPsumBanksWidth) - 32'd1))
         << tern_csr_pkg::GlbConfigPsumBanksLsb) |
      ((32'(PsumBankBytes) & ((32'd1 << tern_csr_pkg::GlbConfigPsumBankBytesWidth) - 32'd1))
         << tern_csr_pkg::GlbConfigPsumBankBytesLsb);

  logic unused_prot;
  assign unused_prot = ^{s_axil_awprot_i, s_axil_arprot_i};

  // --- State ---------------------------------------------------------------------------------
  // bus
  logic              aw_valid_q, aw_valid_d, w_valid_q, w_valid_d, b_valid_q, b_valid_d;
  logic              r_valid_q, r_valid_d;
  logic [15:0]       aw_addr_q, aw_addr_d;
  logic [31:0]       w_data_q, w_data_d, r_data_q, r_data_d;
  logic [3:0]        w_strb_q, w_strb_d;
  logic [1:0]        b_resp_q, b_resp_d, r_resp_q, r_resp_d;
  // registers
  logic [31:0]       scratch_q, scratch_d, irq_enable_q, irq_enable_d, irq_status_q, irq_status_d;
  logic [31:0]       sr_seed_q, sr_seed_d, watchdog_q, watchdog_d;
  logic [31:0]       desc_base_q, desc_base_d, hbm_size_q, hbm_size_d, desc_count_q, desc_count_d;
  logic [31:0]       budget_q, budget_d;
  logic [31:0]       ecc_inject_q, ecc_inject_d, ecc_inject_addr_q, ecc_inject_addr_d;
  logic [1:0]        ecc_arm_q, ecc_arm_d;
  logic              ecc_scrub_q, ecc_scrub_d, ecc_clear_q, ecc_clear_d;
  logic [S*32-1:0]   prog_base_q, prog_base_d, prog_len_q, prog_len_d, notify_code_q, notify_code_d;
  // pulses
  logic [S-1:0]      start_q, start_d, halt_q, halt_d;
  logic              sem_clear_q, sem_clear_d, cnt_clear_q, cnt_clear_d;
  logic              sr_seed_valid_q, sr_seed_valid_d;
  // interrupt edges
  logic [S-1:0]      halted_q, err_q, err_now;
  logic              armed_q, armed_d;

  // --- Decode ----------------------------------------------------------------------------------
  logic            rd_aligned, rd_glb, rd_seq, rd_dma, rd_sem;
  logic            wr_aligned, wr_glb, wr_seq, wr_dma, wr_sem;
  logic [IdxW-1:0] rd_idx, wr_idx;
  logic [15:0]     rd_off, wr_off;

  tern_csr_decode #(.NumDma(NumDma)) u_rd_decode (
    .addr_i    (s_axil_araddr_i),
    .aligned_o (rd_aligned),
    .glb_o     (rd_glb),
    .seq_o     (rd_seq),
    .dma_o     (rd_dma),
    .sem_o     (rd_sem),
    .idx_o     (rd_idx),
    .off_o     (rd_off)
  );

  tern_csr_decode #(.NumDma(NumDma)) u_wr_decode (
    .addr_i    (aw_addr_q),
    .aligned_o (wr_aligned),
    .glb_o     (wr_glb),
    .seq_o     (wr_seq),
    .dma_o     (wr_dma),
    .sem_o     (wr_sem),
    .idx_o     (wr_idx),
    .off_o     (wr_off)
  );

  // --- Read data -------------------------------------------------------------------------------
  logic [31:0] rd_data;
  logic        rd_err;
  logic [2:0]  rs;  // sequencer of the read
  logic [3:0]  rdm; // DMA engine of the read
  assign rs  = rd_idx[2:0];
  assign rdm = rd_idx[3:0];

  always_comb begin
    rd_data = 32'd0;
    rd_err  = 1'b0;
    if (!rd_aligned) begin
      rd_err = 1'b1;
    end else if (rd_glb) begin
      unique case (rd_off)
        tern_csr_pkg::GlbId:         rd_data = tern_csr_pkg::GlbIdReset;
        tern_csr_pkg::GlbVersion:    rd_data = tern_csr_pkg::GlbVersionReset;
        tern_csr_pkg::GlbConfig:     rd_data = CfgConfig;
        tern_csr_pkg::GlbConfigDma:  rd_data = CfgConfigDma;
        tern_csr_pkg::GlbConfigSbuf: rd_data = CfgConfigSbuf;
        tern_csr_pkg::GlbConfigPsum: rd_data = CfgConfigPsum;
        tern_csr_pkg::GlbScratch:    rd_data = scratch_q;
        tern_csr_pkg::GlbCtrl:       rd_data = 32'd0;
        tern_csr_pkg::GlbStatus: begin
          rd_data[tern_csr_pkg::GlbStatusBusyLsb +: tern_csr_pkg::GlbStatusBusyWidth]       = busy_i;
          rd_data[tern_csr_pkg::GlbStatusHaltedLsb +: tern_csr_pkg::GlbStatusHaltedWidth]   = halted_i;
          rd_data[tern_csr_pkg::GlbStatusErrorLsb +: tern_csr_pkg::GlbStatusErrorWidth]     = err_now;
          rd_data[tern_csr_pkg::GlbStatusWaitingLsb +: tern_csr_pkg::GlbStatusWaitingWidth] = waiting_i;
        end
        tern_csr_pkg::GlbIrqEnable:  rd_data = irq_enable_q;
        tern_csr_pkg::GlbIrqStatus:  rd_data = irq_status_q;
        tern_csr_pkg::GlbSrSeed:     rd_data = sr_seed_q;
        tern_csr_pkg::GlbWatchdog:   rd_data = watchdog_q;
        tern_csr_pkg::GlbDescBase:   rd_data = desc_base_q;
        tern_csr_pkg::GlbHbmSize:    rd_data = hbm_size_q;
        tern_csr_pkg::GlbDescCount:  rd_data = desc_count_q;
        tern_csr_pkg::GlbBudget:     rd_data = budget_q;
        tern_csr_pkg::GlbEccCtrl:    rd_data = 32'd0;
        tern_csr_pkg::GlbEccInject:  rd_data = ecc_inject_q;
        tern_csr_pkg::GlbEccInjectAddr: rd_data = ecc_inject_addr_q;
        tern_csr_pkg::GlbEccStatus: begin
          rd_data[tern_csr_pkg::GlbEccStatusSbufArmedLsb] = ecc_armed_i[0];
          rd_data[tern_csr_pkg::GlbEccStatusPsumArmedLsb] = ecc_armed_i[1];
          rd_data[tern_csr_pkg::GlbEccStatusBusyLsb]      = |ecc_busy_i;
          rd_data[tern_csr_pkg::GlbEccStatusSbufUeLsb]    = ecc_ue_valid_i[0];
          rd_data[tern_csr_pkg::GlbEccStatusPsumUeLsb]    = ecc_ue_valid_i[1];
        end
        tern_csr_pkg::GlbEccSbufCe:     rd_data = ecc_ce_i[0 +: 32];
        tern_csr_pkg::GlbEccSbufUe:     rd_data = ecc_ue_i[0 +: 32];
        tern_csr_pkg::GlbEccSbufUeAddr: rd_data = ecc_ue_addr_i[0 +: 32];
        tern_csr_pkg::GlbEccPsumCe:     rd_data = ecc_ce_i[32 +: 32];
        tern_csr_pkg::GlbEccPsumUe:     rd_data = ecc_ue_i[32 +: 32];
        tern_csr_pkg::GlbEccPsumUeAddr: rd_data = ecc_ue_addr_i[32 +: 32];
        default:                     rd_err  = 1'b1;
      endcase
    end else if (rd_seq) begin
      unique case (rd_off)
        tern_csr_pkg::SeqProgBase:        rd_data = prog_base_q[32*rs +: 32];
        tern_csr_pkg::SeqProgLen:         rd_data = prog_len_q[32*rs +: 32];
        tern_csr_pkg::SeqCtrl:            rd_data = 32'd0;
        tern_csr_pkg::SeqStatus: begin
          rd_data[tern_csr_pkg::SeqStatusBusyLsb]    = busy_i[rs];
          rd_data[tern_csr_pkg::SeqStatusHaltedLsb]  = halted_i[rs];
          rd_data[tern_csr_pkg::SeqStatusWaitingLsb] = waiting_i[rs];
          rd_data[tern_csr_pkg::SeqStatusErrCodeLsb +: ECW] = err_code_i[ECW*rs +: ECW];
        end
        tern_csr_pkg::SeqErrPc:           rd_data = err_pc_i[32*rs +: 32];
        tern_csr_pkg::SeqPc:              rd_data = pc_i[32*rs +: 32];
        tern_csr_pkg::SeqRetired:         rd_data = retired_i[32*rs +: 32];
        tern_csr_pkg::SeqBusyCycles:      rd_data = busy_cycles_i[32*rs +: 32];
        tern_csr_pkg::SeqSemWaitCycles:   rd_data = sem_wait_cycles_i[32*rs +: 32];
        tern_csr_pkg::SeqFetchWaitCycles: rd_data = fetch_wait_cycles_i[32*rs +: 32];
        tern_csr_pkg::SeqConflictCycles:  rd_data = conflict_cycles_i[32*rs +: 32];
        tern_csr_pkg::SeqNotifyCode:      rd_data = notify_code_q[32*rs +: 32];
        default:                          rd_err  = 1'b1;
      endcase
    end else if (rd_dma) begin
      unique case (rd_off)
        tern_csr_pkg::DmaBytesReadLo:     rd_data = dma_bytes_read_i[64*rdm +: 32];
        tern_csr_pkg::DmaBytesReadHi:     rd_data = dma_bytes_read_i[64*rdm + 32 +: 32];
        tern_csr_pkg::DmaBytesWrittenLo:  rd_data = dma_bytes_written_i[64*rdm +: 32];
        tern_csr_pkg::DmaBytesWrittenHi:  rd_data = dma_bytes_written_i[64*rdm + 32 +: 32];
        tern_csr_pkg::DmaOutstandingHwm:  rd_data = dma_outstanding_hwm_i[32*rdm +: 32];
        tern_csr_pkg::DmaErrStatus: begin
          rd_data[tern_csr_pkg::DmaErrStatusCodeLsb +: DCW]   = dma_err_code_i[DCW*rdm +: DCW];
          rd_data[tern_csr_pkg::DmaErrStatusDetailLsb +: DDW] = dma_err_detail_i[DDW*rdm +: DDW];
          rd_data[tern_csr_pkg::DmaErrStatusQueueLsb +: DQW]  = dma_err_queue_i[DQW*rdm +: DQW];
          rd_data[tern_csr_pkg::DmaErrStatusSeqLsb +: DSW]    = dma_err_seq_i[DSW*rdm +: DSW];
        end
        tern_csr_pkg::DmaErrDesc:         rd_data = dma_err_desc_i[32*rdm +: 32];
        tern_csr_pkg::DmaErrPc:           rd_data = dma_err_pc_i[32*rdm +: 32];
        default:                          rd_err  = 1'b1;
      endcase
    end else if (rd_sem) begin
      unique case (rd_off)
        tern_csr_pkg::SemValue: rd_data = sem_values_i[32*rd_idx +: 32];
        default:                rd_err  = 1'b1;
      endcase
    end else begin
      rd_err = 1'b1;
    end
  end

  // An injection's byte lies in the memory ECC_INJECT names.
  logic ecc_inj_in_range;
  assign ecc_inj_in_range =
      32'(ecc_inj_part_o) < Partitions &&
      32'(ecc_inj_off_o) < (ecc_inject_q[tern_csr_pkg::GlbEccInjectPsumLsb] ?
                            PsumBanks * PsumBankBytes : SbufPartitionBytes);

  // --- Next state ------------------------------------------------------------------------------
  logic        wr_commit, wr_err;
  logic [31:0] wbytes;  // the bytes WSTRB selects
  logic [31:0] wbits;   // the data bits in them
  logic [31:0] irq_set, irq_clear;
  logic [2:0]  ws;      // sequencer of the write
  logic        idle_evt;
  assign ws = wr_idx[2:0];
  assign wbytes = {{8{w_strb_q[3]}}, {8{w_strb_q[2]}}, {8{w_strb_q[1]}}, {8{w_strb_q[0]}}};
  assign wbits  = w_data_q & wbytes;
  assign wr_commit = aw_valid_q && w_valid_q;

  always_comb begin
    for (int i = 0; i < S; i++) err_now[i] = |err_code_i[ECW*i +: ECW];
  end

  assign idle_evt = armed_q && (busy_i == '0) && (dma_busy_i == '0);

  always_comb begin
    // bus defaults: hold
    aw_valid_d = aw_valid_q;
    aw_addr_d  = aw_addr_q;
    w_valid_d  = w_valid_q;
    w_data_d   = w_data_q;
    w_strb_d   = w_strb_q;
    b_valid_d  = b_valid_q;
    b_resp_d   = b_resp_q;
    r_valid_d  = r_valid_q;
    r_data_d   = r_data_q;
    r_resp_d   = r_resp_q;
    // registers: hold; pulses: off
    scratch_d       = scratch_q;
    irq_enable_d    = irq_enable_q;
    sr_seed_d       = sr_seed_q;
    watchdog_d      = watchdog_q;
    desc_base_d     = desc_base_q;
    hbm_size_d      = hbm_size_q;
    desc_count_d    = desc_count_q;
    budget_d        = budget_q;
    ecc_inject_d    = ecc_inject_q;
    ecc_inject_addr_d = ecc_inject_addr_q;
    ecc_arm_d       = '0;
    ecc_scrub_d     = 1'b0;
    ecc_clear_d     = 1'b0;
    prog_base_d     = prog_base_q;
    prog_len_d      = prog_len_q;
    start_d         = '0;
    halt_d          = '0;
    sem_clear_d     = 1'b0;
    cnt_clear_d     = 1'b0;
    sr_seed_valid_d = 1'b0;
    irq_clear       = 32'd0;
    wr_err          = 1'b1;

    // AW and W, each held until the write is done; B once it is.
    if (s_axil_awvalid_i && s_axil_awready_o) begin
      aw_valid_d = 1'b1;
      aw_addr_d  = s_axil_awaddr_i;
    end
    if (s_axil_wvalid_i && s_axil_wready_o) begin
      w_valid_d = 1'b1;
      w_data_d  = s_axil_wdata_i;
      w_strb_d  = s_axil_wstrb_i;
    end
    if (s_axil_bvalid_o && s_axil_bready_i) b_valid_d = 1'b0;

    if (wr_commit) begin
      if (!wr_aligned) begin
        wr_err = 1'b1;
      end else if (wr_glb) begin
        wr_err = 1'b0;
        unique case (wr_off)
          tern_csr_pkg::GlbScratch:
            scratch_d = ((scratch_q & ~wbytes) | wbits) & tern_csr_pkg::GlbScratchMask;
          tern_csr_pkg::GlbCtrl: begin
            start_d     = wbits[tern_csr_pkg::GlbCtrlStartLsb +: tern_csr_pkg::GlbCtrlStartWidth];
            halt_d      = wbits[tern_csr_pkg::GlbCtrlHaltLsb +: tern_csr_pkg::GlbCtrlHaltWidth];
            sem_clear_d = wbits[tern_csr_pkg::GlbCtrlSemClearLsb];
            cnt_clear_d = wbits[tern_csr_pkg::GlbCtrlCntClearLsb];
          end
          tern_csr_pkg::GlbIrqEnable:
            irq_enable_d = ((irq_enable_q & ~wbytes) | wbits) & tern_csr_pkg::GlbIrqEnableMask;
          tern_csr_pkg::GlbIrqStatus:
            irq_clear = wbits & tern_csr_pkg::GlbIrqStatusMask;
          tern_csr_pkg::GlbSrSeed: begin
            sr_seed_d       = ((sr_seed_q & ~wbytes) | wbits) & tern_csr_pkg::GlbSrSeedMask;
            sr_seed_valid_d = 1'b1;
          end
          tern_csr_pkg::GlbWatchdog:
            watchdog_d = ((watchdog_q & ~wbytes) | wbits) & tern_csr_pkg::GlbWatchdogMask;
          tern_csr_pkg::GlbDescBase:
            desc_base_d = ((desc_base_q & ~wbytes) | wbits) & tern_csr_pkg::GlbDescBaseMask;
          tern_csr_pkg::GlbHbmSize:
            hbm_size_d = ((hbm_size_q & ~wbytes) | wbits) & tern_csr_pkg::GlbHbmSizeMask;
          tern_csr_pkg::GlbDescCount:
            desc_count_d = ((desc_count_q & ~wbytes) | wbits) & tern_csr_pkg::GlbDescCountMask;
          tern_csr_pkg::GlbBudget:
            budget_d = ((budget_q & ~wbytes) | wbits) & tern_csr_pkg::GlbBudgetMask;
          tern_csr_pkg::GlbEccCtrl: begin
            if (wbits[tern_csr_pkg::GlbEccCtrlArmLsb] && !ecc_inj_in_range) begin
              wr_err = 1'b1;  // an injection outside its memory: refused, nothing pulses
            end else begin
              // The arm goes to the memory ECC_INJECT names.
              ecc_arm_d[ecc_inject_q[tern_csr_pkg::GlbEccInjectPsumLsb]] =
                  wbits[tern_csr_pkg::GlbEccCtrlArmLsb];
              ecc_scrub_d = wbits[tern_csr_pkg::GlbEccCtrlScrubLsb];
              ecc_clear_d = wbits[tern_csr_pkg::GlbEccCtrlClearLsb];
            end
          end
          tern_csr_pkg::GlbEccInject:
            ecc_inject_d = ((ecc_inject_q & ~wbytes) | wbits) & tern_csr_pkg::GlbEccInjectMask;
          tern_csr_pkg::GlbEccInjectAddr:
            ecc_inject_addr_d =
                ((ecc_inject_addr_q & ~wbytes) | wbits) & tern_csr_pkg::GlbEccInjectAddrMask;
          default: wr_err = 1'b1;  // RO or unmapped
        endcase
      end else if (wr_seq) begin
        wr_err = 1'b0;
        unique case (wr_off)
          tern_csr_pkg::SeqProgBase:
            prog_base_d[32*ws +: 32] =
                ((prog_base_q[32*ws +: 32] & ~wbytes) | wbits) & tern_csr_pkg::SeqProgBaseMask;
          tern_csr_pkg::SeqProgLen:
            prog_len_d[32*ws +: 32] =
                ((prog_len_q[32*ws +: 32] & ~wbytes) | wbits) & tern_csr_pkg::SeqProgLenMask;
          tern_csr_pkg::SeqCtrl: begin
            start_d[ws] = wbits[tern_csr_pkg::SeqCtrlStartLsb];
            halt_d[ws]  = wbits[tern_csr_pkg::SeqCtrlHaltLsb];
          end
          default: wr_err = 1'b1;  // RO or unmapped
        endcase
      end
      // DMA engines and semaphores hold only RO registers: wr_err stays set.
      aw_valid_d = 1'b0;
      w_valid_d  = 1'b0;
      b_valid_d  = 1'b1;
      b_resp_d   = wr_err ? tern_pkg::AxiRespSlverr : tern_pkg::AxiRespOkay;
    end

    // AR: the read is answered the next cycle.
    if (s_axil_rvalid_o && s_axil_rready_i) r_valid_d = 1'b0;
    if (s_axil_arvalid_i && s_axil_arready_o) begin
      r_valid_d = 1'b1;
      r_data_d  = rd_data;
      r_resp_d  = rd_err ? tern_pkg::AxiRespSlverr : tern_pkg::AxiRespOkay;
    end

    // Interrupt events; an event wins over a clear of its bit in the same cycle.
    irq_set = 32'd0;
    irq_set[tern_csr_pkg::GlbIrqStatusHaltedLsb +: tern_csr_pkg::GlbIrqStatusHaltedWidth] =
        halted_i & ~halted_q;
    irq_set[tern_csr_pkg::GlbIrqStatusErrorLsb +: tern_csr_pkg::GlbIrqStatusErrorWidth] =
        err_now & ~err_q;
    irq_set[tern_csr_pkg::GlbIrqStatusNotifyLsb +: tern_csr_pkg::GlbIrqStatusNotifyWidth] =
        notify_valid_i;
    irq_set[tern_csr_pkg::GlbIrqStatusDmaErrorLsb] = |dma_err_valid_i;
    irq_set[tern_csr_pkg::GlbIrqStatusIdleLsb] = idle_evt;
    irq_status_d = ((irq_status_q & ~irq_clear) | irq_set) & tern_csr_pkg::GlbIrqStatusMask;

    // "All idle" is armed by a start and fires once every sequencer and DMA engine is idle.
    armed_d = (armed_q && !idle_evt) || (start_q != '0);

    notify_code_d = notify_code_q;
    for (int i = 0; i < S; i++)
      if (notify_valid_i[i]) notify_code_d[32*i +: 32] = notify_code_i[32*i +: 32];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      aw_valid_q      <= 1'b0;
      aw_addr_q       <= 16'd0;
      w_valid_q       <= 1'b0;
      w_data_q        <= 32'd0;
      w_strb_q        <= 4'd0;
      b_valid_q       <= 1'b0;
      b_resp_q        <= tern_pkg::AxiRespOkay;
      r_valid_q       <= 1'b0;
      r_data_q        <= 32'd0;
      r_resp_q        <= tern_pkg::AxiRespOkay;
      scratch_q       <= tern_csr_pkg::GlbScratchReset;
      irq_enable_q    <= tern_csr_pkg::GlbIrqEnableReset;
      irq_status_q    <= tern_csr_pkg::GlbIrqStatusReset;
      sr_seed_q       <= tern_csr_pkg::GlbSrSeedReset;
      watchdog_q      <= tern_csr_pkg::GlbWatchdogReset;
      desc_base_q     <= tern_csr_pkg::GlbDescBaseReset;
      hbm_size_q      <= tern_csr_pkg::GlbHbmSizeReset;
      desc_count_q    <= tern_csr_pkg::GlbDescCountReset;
      budget_q        <= tern_csr_pkg::GlbBudgetReset;
      ecc_inject_q    <= tern_csr_pkg::GlbEccInjectReset;
      ecc_inject_addr_q <= tern_csr_pkg::GlbEccInjectAddrReset;
      ecc_arm_q       <= '0;
      ecc_scrub_q     <= 1'b0;
      ecc_clear_q     <= 1'b0;
      prog_base_q     <= {S{tern_csr_pkg::SeqProgBaseReset}};
      prog_len_q      <= {S{tern_csr_pkg::SeqProgLenReset}};
      notify_code_q   <= {S{tern_csr_pkg::SeqNotifyCodeReset}};
      start_q         <= '0;
      halt_q          <= '0;
      sem_clear_q     <= 1'b0;
      cnt_clear_q     <= 1'b0;
      sr_seed_valid_q <= 1'b0;
      halted_q        <= '0;
      err_q           <= '0;
      armed_q         <= 1'b0;
    end else begin
      aw_valid_q      <= aw_valid_d;
      aw_addr_q       <= aw_addr_d;
      w_valid_q       <= w_valid_d;
      w_data_q        <= w_data_d;
      w_strb_q        <= w_strb_d;
      b_valid_q       <= b_valid_d;
      b_resp_q        <= b_resp_d;
      r_valid_q       <= r_valid_d;
      r_data_q        <= r_data_d;
      r_resp_q        <= r_resp_d;
      scratch_q       <= scratch_d;
      irq_enable_q    <= irq_enable_d;
      irq_status_q    <= irq_status_d;
      sr_seed_q       <= sr_seed_d;
      watchdog_q      <= watchdog_d;
      desc_base_q     <= desc_base_d;
      hbm_size_q      <= hbm_size_d;
      desc_count_q    <= desc_count_d;
      budget_q        <= budget_d;
      ecc_inject_q    <= ecc_inject_d;
      ecc_inject_addr_q <= ecc_inject_addr_d;
      ecc_arm_q       <= ecc_arm_d;
      ecc_scrub_q     <= ecc_scrub_d;
      ecc_clear_q     <= ecc_clear_d;
      prog_base_q     <= prog_base_d;
      prog_len_q      <= prog_len_d;
      notify_code_q   <= notify_code_d;
      start_q         <= start_d;
      halt_q          <= halt_d;
      sem_clear_q     <= sem_clear_d;
      cnt_clear_q     <= cnt_clear_d;
      sr_seed_valid_q <= sr_seed_valid_d;
      halted_q        <= halted_i;
      err_q           <= err_now;
      armed_q         <= armed_d;
    end
  end

  // --- Outputs ---------------------------------------------------------------------------------
  assign s_axil_awready_o = !aw_valid_q && !b_valid_q;
  assign s_axil_wready_o  = !w_valid_q && !b_valid_q;
  assign s_axil_bvalid_o  = b_valid_q;
  assign s_axil_bresp_o   = b_resp_q;
  assign s_axil_arready_o = !r_valid_q;
  assign s_axil_rvalid_o  = r_valid_q;
  assign s_axil_rdata_o   = r_data_q;
  assign s_axil_rresp_o   = r_resp_q;

  assign prog_base_o     = prog_base_q;
  assign prog_len_o      = prog_len_q;
  assign start_o         = start_q;
  assign halt_req_o      = halt_q;
  assign sem_clear_o     = sem_clear_q;
  assign cnt_clear_o     = cnt_clear_q;
  assign watchdog_o      = watchdog_q;
  assign desc_base_o     = desc_base_q;
  assign hbm_size_o      = hbm_size_q;
  assign desc_count_o    = desc_count_q;
  assign budget_o        = budget_q;
  assign sr_seed_o       = sr_seed_q;
  assign sr_seed_valid_o = sr_seed_valid_q;
  assign irq_o           = |(irq_status_q & irq_enable_q);
  assign ecc_arm_o       = ecc_arm_q;
  assign ecc_inj_part_o  = ecc_inject_addr_q[tern_csr_pkg::GlbEccInjectAddrPartitionLsb +: 8];
  assign ecc_inj_off_o   = ecc_inject_addr_q[tern_csr_pkg::GlbEccInjectAddrOffsetLsb +: 24];
  assign ecc_inj_flip_o  = ecc_inject_q[tern_csr_pkg::GlbEccInjectFlipLsb +: FlipW];
  assign ecc_scrub_o     = ecc_scrub_q;
  assign ecc_clear_o     = ecc_clear_q;

  logic unused_decode;
  assign unused_decode = ^{wr_dma, wr_sem, wr_idx[IdxW-1:3], rd_idx[IdxW-1:4]};

`ifndef SYNTHESIS
  // AXI4-Lite: a response is held until taken.
  ASSERT_B_STABLE: assert property (@(posedge clk_i) disable iff (!rst_ni)
      s_axil_bvalid_o && !s_axil_bready_i |=> s_axil_bvalid_o && $stable(s_axil_bresp_o));
  ASSERT_R_STABLE: assert property (@(posedge clk_i) disable iff (!rst_ni)
      s_axil_rvalid_o && !s_axil_rready_i |=> s_axil_rvalid_o && $stable(s_axil_rdata_o));
`endif

endmodule
