// tern_core_compute: the sequencer cluster with SBUF, PSUM and the four engines behind their
// adapters (PE: tern_pe_adapter, ACT: tern_act_adapter, DVE and POOL: tern_vec_adapter), i.e. the
// NeuronCore without its AXI side (docs/core-rtl.md). Its ports are the cluster's fetch, ld/st,
// DMA-trigger and status ports, the DMA engines' on-chip port, and a backdoor to SBUF and PSUM.
// SBUF and PSUM each have one read and one write port, shared round-robin (tern_rr_arb) by
// the engines and DMA; the Tensor Engine writes PSUM through its own accumulate port.
module tern_core_compute #(
  parameter int unsigned NumDmaUpd = 2,
  localparam int unsigned S  = tern_isa_pkg::NumSeqs,
  localparam int unsigned IB = tern_isa_pkg::InstrBits,
  localparam int unsigned P  = tern_cfg_pkg::Partitions,
  localparam int unsigned SbufBytes = tern_cfg_pkg::SbufPartitionBytes,
  localparam int unsigned PsumBytes = tern_cfg_pkg::PsumBanks * tern_cfg_pkg::PsumBankBytes,
  localparam int unsigned SAW = $clog2(SbufBytes),
  localparam int unsigned SbufRow = tern_pkg::sbuf_row_bytes(tern_cfg_pkg::AxiDataBits / 8, P),
  localparam int unsigned PAW = $clog2(PsumBytes),
  localparam int unsigned Banks = tern_cfg_pkg::PsumBanks,
  localparam int unsigned BankLsb = $clog2(tern_cfg_pkg::PsumBankBytes),  // PSUM byte address
  localparam int unsigned BankBits = $clog2(Banks)
) (
  input  logic                                   clk_i,
  input  logic                                   rst_ni,
  input  logic [S-1:0]                           start_i,
  input  logic                                   sem_clear_i,
  input  logic [S*32-1:0]                        prog_base_i,
  input  logic [S*32-1:0]                        prog_len_i,
  input  logic [31:0]                            watchdog_i,   // cycles one instruction may take, 0: none
  input  logic [31:0]                            budget_i,     // instructions a run may start, 0: none
  input  logic                                   dma_busy_i,   // a DMA transfer is queued or moving
  input  logic                                   dma_fault_i,  // a DMA engine has faulted this run
  input  logic [S-1:0]                           halt_req_i,   // host halt requests
  input  logic                                   sr_seed_valid_i,  // reseed every SR generator
  input  logic [31:0]                            sr_seed_i,
  // instruction fetch
  output logic [S-1:0]                           fetch_req_valid_o,
  input  logic [S-1:0]                           fetch_req_ready_i,
  output logic [S*32-1:0]                        fetch_req_addr_o,
  input  logic [S-1:0]                           fetch_rsp_valid_i,
  input  logic [S*IB-1:0]                        fetch_rsp_data_i,
  input  logic [S-1:0]                           fetch_rsp_err_i,
  // ld/st
  output logic [S-1:0]                           mem_req_valid_o,
  input  logic [S-1:0]                           mem_req_ready_i,
  output logic [S-1:0]                           mem_req_write_o,
  output logic [S*32-1:0]                        mem_req_addr_o,
  output logic [S*32-1:0]                        mem_req_wdata_o,
  input  logic [S-1:0]                           mem_rsp_valid_i,
  input  logic [S*32-1:0]                        mem_rsp_rdata_i,
  input  logic [S-1:0]                           mem_rsp_err_i,
  // DMA triggers
  output logic [S-1:0]                           dma_valid_o,
  input  logic [S-1:0]                           dma_ready_i,
  input  logic [S-1:0]                           dma_err_i,      // with ready: trigger refused
  output logic [S*8-1:0]                         dma_queue_o,
  output logic [S*32-1:0]                        dma_desc_o,
  output logic [S*32-1:0]                        dma_src_add_o,
  output logic [S*32-1:0]                        dma_dst_add_o,
  output logic [S*2-1:0]                         dma_upd_mode_o,
  output logic [S*6-1:0]                         dma_upd_idx_o,
  output logic [S*8-1:0]                         dma_upd_value_o,
  // semaphore updates from the DMA engines (transfer completions)
  input  logic [NumDmaUpd-1:0]                   dma_sem_valid_i,
  input  logic [NumDmaUpd*2-1:0]                 dma_sem_mode_i,
  input  logic [NumDmaUpd*6-1:0]                 dma_sem_idx_i,
  input  logic [NumDmaUpd*8-1:0]                 dma_sem_value_i,
  // status
  output logic [tern_isa_pkg::NumSems*32-1:0]    sem_values_o,
  output logic [S-1:0]                           busy_o,
  output logic [S-1:0]                           halted_o,
  output logic [S-1:0]                           waiting_o,
  output logic [S-1:0]                           notify_valid_o,
  output logic [S*32-1:0]                        notify_code_o,
  output logic [S*4-1:0]                         err_code_o,
  output logic [S*32-1:0]                        err_pc_o,
  output logic [S*32-1:0]                        pc_o,
  output logic [S*32-1:0]                        retired_o,
  output logic [S*32-1:0]                        busy_cycles_o,
  output logic [S*32-1:0]                        sem_wait_cycles_o,
  output logic [S*32-1:0]                        fetch_wait_cycles_o,
  output logic [S*32-1:0]                        conflict_cycles_o,  // engine requests not granted
  // the sequencers' trace (tern_seq)
  output logic [S-1:0]                           trace_retire_o,
  output logic [S*32-1:0]                        trace_pc_o,     // the retiring instruction's pc
  output logic [S*4-1:0]                         trace_state_o,
  output logic [S-1:0]                           trace_rf_we_o,
  output logic [S*6-1:0]                         trace_rf_wa_o,
  output logic [S*32-1:0]                        trace_rf_wd_o,
  // the DMA engines' on-chip port (one element offset of every partition per request)
  input  logic                                   dma_oc_rd_valid_i,
  output logic                                   dma_oc_rd_ready_o,
  input  logic                                   dma_oc_rd_psum_i,
  input  logic [31:0]                            dma_oc_rd_addr_i,
  input  logic                                   dma_oc_rd_row_i,    // SBUF row mode (docs/dma.md)
  input  logic [7:0]                             dma_oc_rd_part_i,
  output logic [P*32-1:0]                        dma_oc_rd_data_o,   // the cycle after the handshake
  input  logic                                   dma_oc_wr_valid_i,
  output logic                                   dma_oc_wr_ready_o,
  input  logic                                   dma_oc_wr_psum_i,
  input  logic [31:0]                            dma_oc_wr_addr_i,
  input  logic [2:0]                             dma_oc_wr_bytes_i,
  input  logic [P-1:0]                           dma_oc_wr_mask_i,
  input  logic [P*32-1:0]                        dma_oc_wr_data_i,
  input  logic                                   dma_oc_wr_row_i,
  input  logic [SbufRow-1:0]                     dma_oc_wr_strb_i,
  // backdoor to SBUF and PSUM (tern_lane_mem): one word of every partition
  input  logic                                   sbuf_bd_valid_i,
  input  logic                                   sbuf_bd_write_i,
  input  logic [P-1:0]                           sbuf_bd_mask_i,
  input  logic [31:0]                            sbuf_bd_addr_i,
  input  logic [P*32-1:0]                        sbuf_bd_wdata_i,
  output logic [P*32-1:0]                        sbuf_bd_rdata_o,
  input  logic                                   psum_bd_valid_i,
  input  logic                                   psum_bd_write_i,
  input  logic [P-1:0]                           psum_bd_mask_i,
  input  logic [31:0]                            psum_bd_addr_i,
  input  logic [P*32-1:0]                        psum_bd_wdata_i,
  output logic [P*32-1:0]                        psum_bd_rdata_o,
  // ECC of SBUF (index 0) and PSUM (1), docs/ecc.md: injection, scrub and what scrubs found
  input  logic [1:0]                             ecc_arm_i,      // pulses
  input  logic [7:0]                             ecc_inj_part_i,
  input  logic [23:0]                            ecc_inj_off_i,
  input  logic [tern_secded_pkg::CodeBits-1:0]   ecc_inj_flip_i,
  input  logic                                   ecc_scrub_i,    // pulse
  input  logic                                   ecc_clear_i,    // pulse
  output logic [1:0]                             ecc_armed_o,
  output logic [1:0]                             ecc_busy_o,
  output logic [2*32-1:0]                        ecc_ce_o,
  output logic [2*32-1:0]                        ecc_ue_o,
  output logic [1:0]                             ecc_ue_valid_o,
  output logic [2*32-1:0]                        ecc_ue_addr_o
);

  // Requesters of the SBUF and PSUM ports, in the sequencers' order, then DMA.
  localparam int unsigned R = 5;
  localparam int unsigned RPe = 0, RAct = 1, RPool = 3, RDma = 4;  // DVE is 2
  localparam int unsigned RW = PAW > SAW ? PAW : SAW;     // read request: the byte offset
  localparam int unsigned WW = RW + 3 + P + P * 32;       // write: offset, bytes, mask, data

  logic [S-1:0]   c_eng_valid, c_eng_ready, c_eng_done, c_eng_ahead, c_eng_err, c_busy, c_halted;
  logic [S*4-1:0] c_eng_err_code;
  logic [S*IB-1:0] c_eng_instr;
  logic [S*tern_isa_pkg::ApSlots*32-1:0]     c_ap_base;
  logic [S*tern_isa_pkg::ScalarSlots*32-1:0] c_sc_base;
  logic [S-1:0]                              c_eng_acc;  // only the PE's matmuls read theirs

  tern_seq_cluster #(
    .NumDmaUpd(NumDmaUpd)
  ) u_cluster (
    .clk_i, .rst_ni, .start_i, .sem_clear_i, .prog_base_i, .prog_len_i, .watchdog_i, .budget_i,
    .dma_busy_i, .dma_fault_i, .halt_req_i,
    .fetch_req_valid_o, .fetch_req_ready_i, .fetch_req_addr_o, .fetch_rsp_valid_i,
    .fetch_rsp_data_i, .fetch_rsp_err_i,
    .mem_req_valid_o, .mem_req_ready_i, .mem_req_write_o, .mem_req_addr_o, .mem_req_wdata_o,
    .mem_rsp_valid_i, .mem_rsp_rdata_i, .mem_rsp_err_i,
    .eng_valid_o    (c_eng_valid),
    .eng_ready_i    (c_eng_ready),
    .eng_instr_o    (c_eng_instr),
    .eng_ap_base_o  (c_ap_base),
    .eng_sc_base_o  (c_sc_base),
    .eng_acc_o      (c_eng_acc),
    .eng_done_i     (c_eng_done),
    .eng_ahead_i    (c_eng_ahead),
    .eng_err_i      (c_eng_err),
    .eng_err_code_i (c_eng_err_code),
    .dma_valid_o, .dma_ready_i, .dma_err_i, .dma_queue_o, .dma_desc_o, .dma_src_add_o, .dma_dst_add_o,
    .dma_upd_mode_o, .dma_upd_idx_o, .dma_upd_value_o,
    .dma_sem_valid_i, .dma_sem_mode_i, .dma_sem_idx_i, .dma_sem_value_i,
    .sem_values_o, .busy_o (c_busy), .halted_o (c_halted), .waiting_o, .notify_valid_o, .notify_code_o,
    .err_code_o, .err_pc_o, .pc_o, .retired_o, .busy_cycles_o, .sem_wait_cycles_o,
    .fetch_wait_cycles_o, .trace_retire_o, .trace_pc_o, .trace_state_o, .trace_rf_we_o, .trace_rf_wa_o,
    .trace_rf_wd_o
  );

  // ---------------------------------------------------------------------------------------
  // Requests to SBUF and PSUM, requester r in slice r.
  // ---------------------------------------------------------------------------------------
  logic [R-1:0]    s_rd_v, s_rd_g, s_wr_v, s_wr_g, p_rd_v, p_rd_g, p_wr_v, p_wr_g;
  logic [R*RW-1:0] s_rd_a, p_rd_a;
  logic [R*WW-1:0] s_wr_q, p_wr_q;
  logic [P*32-1:0] sbuf_rd_data, psum_rd_data;
  logic [P-1:0]    te_we, te_acc;
  logic [P*(PAW-2)-1:0] te_addr;
  logic [P*32-1:0] te_data;
  logic [3:0]      e_busy;  // pe, act, dve, pool adapters
  logic            pe_draining;
  logic [Banks-1:0] psum_bank_busy;
  localparam int unsigned Chunk = tern_pkg::sbuf_chunk_bytes(SbufRow);
  logic [P*8*Chunk-1:0] sbuf_rd_chunk;
  logic [P*32-1:0]      psum_rd_chunk_unused;

  // PE: reads only; its results enter PSUM through the accumulate port.
  tern_pe_adapter #(.P(P)) u_pe (
    .clk_i, .rst_ni,
    .valid_i         (c_eng_valid[RPe]),
    .ready_o         (c_eng_ready[RPe]),
    .instr_i         (c_eng_instr[IB*RPe +: IB]),
    .ap_base_i       (c_ap_base[tern_isa_pkg::ApSlots*32*RPe +: tern_isa_pkg::ApSlots*32]),
    .acc_i           (c_eng_acc[RPe]),
    .done_o          (c_eng_done[RPe]),
    .ahead_o         (c_eng_ahead[RPe]),
    .err_o           (c_eng_err[RPe]),
    .err_code_o      (c_eng_err_code[4*RPe +: 4]),
    .sbuf_rd_valid_o (s_rd_v[RPe]),
    .sbuf_rd_gnt_i   (s_rd_g[RPe]),
    .sbuf_rd_addr_o  (s_rd_a[RW*RPe +: SAW]),
    .sbuf_rd_chunk_i (sbuf_rd_chunk),
    .psum_rd_valid_o (p_rd_v[RPe]),
    .psum_rd_gnt_i   (p_rd_g[RPe]),
    .psum_rd_addr_o  (p_rd_a[RW*RPe +: PAW]),
    .psum_rd_data_i  (psum_rd_data),
    .te_we_o         (te_we),
    .te_acc_o        (te_acc),
    .te_addr_o       (te_addr),
    .te_data_o       (te_data),
    .psum_bank_busy_o (psum_bank_busy),
    .busy_o          (e_busy[0]),
    .draining_o      (pe_draining)
  );
  // The PE sequencer reports halted (and busy) only once its engine's PSUM writes have landed.
  always_comb begin
    busy_o   = c_busy;
    halted_o = c_halted;
    busy_o[RPe]   = c_busy[RPe] || pe_draining;
    halted_o[RPe] = c_halted[RPe] && !pe_draining;
  end
  assign s_wr_v[RPe] = 1'b0;
  assign p_wr_v[RPe] = 1'b0;
  assign s_wr_q[WW*RPe +: WW] = '0;
  assign p_wr_q[WW*RPe +: WW] = '0;
  if (RW > SAW) begin : gen_pe_pad
    assign s_rd_a[RW*RPe + SAW +: RW - SAW] = '0;
  end
  if (RW > PAW) begin : gen_pe_pad_p
    assign p_rd_a[RW*RPe + PAW +: RW - PAW] = '0;
  end

  // The Scalar Engine's generators hold seed 0 after reset, as the golden model's do after
  // construction (tern_dve does the same inside): loaded in the first cycle.
  logic seed_init_q, act_seed_valid;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) seed_init_q <= 1'b1;
    else         seed_init_q <= 1'b0;
  end
  assign act_seed_valid = sr_seed_valid_i || seed_init_q;

  // ACT, DVE and POOL read and write.
  for (genvar e = RAct; e <= RPool; e++) begin : gen_rw_engine
    logic [SAW-1:0] sra, swa;
    logic [PAW-1:0] pra, pwa;
    logic [2:0]     swb, pwb;
    logic [P-1:0]   swm, pwm;
    logic [P*32-1:0] swd, pwd;
    if (e == RAct) begin : gen_act
      tern_act_adapter #(.P(P)) u_act (
        .clk_i, .rst_ni,
        .valid_i         (c_eng_valid[e]),
        .ready_o         (c_eng_ready[e]),
        .instr_i         (c_eng_instr[IB*e +: IB]),
        .ap_base_i       (c_ap_base[tern_isa_pkg::ApSlots*32*e +: tern_isa_pkg::ApSlots*32]),
        .sc_base_i       (c_sc_base[tern_isa_pkg::ScalarSlots*32*e +: tern_isa_pkg::ScalarSlots*32]),
        .done_o          (c_eng_done[e]),
        .ahead_o         (c_eng_ahead[e]),
        .err_o           (c_eng_err[e]),
        .err_code_o      (c_eng_err_code[4*e +: 4]),
        .sbuf_rd_valid_o (s_rd_v[e]), .sbuf_rd_gnt_i (s_rd_g[e]), .sbuf_rd_addr_o (sra),
        .sbuf_rd_data_i  (sbuf_rd_data),
        .sbuf_wr_valid_o (s_wr_v[e]), .sbuf_wr_gnt_i (s_wr_g[e]), .sbuf_wr_addr_o (swa),
        .sbuf_wr_bytes_o (swb), .sbuf_wr_mask_o (swm), .sbuf_wr_data_o (swd),
        .psum_rd_valid_o (p_rd_v[e]), .psum_rd_gnt_i (p_rd_g[e]), .psum_rd_addr_o (pra),
        .psum_rd_data_i  (psum_rd_data),
        .psum_wr_valid_o (p_wr_v[e]), .psum_wr_gnt_i (p_wr_g[e]), .psum_wr_addr_o (pwa),
        .psum_wr_bytes_o (pwb), .psum_wr_mask_o (pwm), .psum_wr_data_o (pwd),
        .sr_seed_valid_i (act_seed_valid),
        .sr_seed_i       (sr_seed_valid_i ? sr_seed_i : 32'd0),
        .busy_o          (e_busy[e])
      );
    end else begin : gen_vec
      tern_vec_adapter #(.P(P)) u_vec (
        .clk_i, .rst_ni,
        .valid_i         (c_eng_valid[e]),
        .ready_o         (c_eng_ready[e]),
        .instr_i         (c_eng_instr[IB*e +: IB]),
        .ap_base_i       (c_ap_base[tern_isa_pkg::ApSlots*32*e +: tern_isa_pkg::ApSlots*32]),
        .sc_base_i       (c_sc_base[tern_isa_pkg::ScalarSlots*32*e +: tern_isa_pkg::ScalarSlots*32]),
        .done_o          (c_eng_done[e]),
        .ahead_o         (c_eng_ahead[e]),
        .err_o           (c_eng_err[e]),
        .err_code_o      (c_eng_err_code[4*e +: 4]),
        .sbuf_rd_valid_o (s_rd_v[e]), .sbuf_rd_gnt_i (s_rd_g[e]), .sbuf_rd_addr_o (sra),
        .sbuf_rd_data_i  (sbuf_rd_data),
        .sbuf_wr_valid_o (s_wr_v[e]), .sbuf_wr_gnt_i (s_wr_g[e]), .sbuf_wr_addr_o (swa),
        .sbuf_wr_bytes_o (swb), .sbuf_wr_mask_o (swm), .sbuf_wr_data_o (swd),
        .psum_rd_valid_o (p_rd_v[e]), .psum_rd_gnt_i (p_rd_g[e]), .psum_rd_addr_o (pra),
        .psum_rd_data_i  (psum_rd_data),
        .psum_wr_valid_o (p_wr_v[e]), .psum_wr_gnt_i (p_wr_g[e]), .psum_wr_addr_o (pwa),
        .psum_wr_bytes_o (pwb), .psum_wr_mask_o (pwm), .psum_wr_data_o (pwd),
        .sr_seed_valid_i,
        .sr_seed_i,
        .busy_o          (e_busy[e])
      );
    end
    assign s_rd_a[RW*e +: RW] = RW'(sra);
    assign p_rd_a[RW*e +: RW] = RW'(pra);
    assign s_wr_q[WW*e +: WW] = {RW'(swa), swb, swm, swd};
    assign p_wr_q[WW*e +: WW] = {RW'(pwa), pwb, pwm, pwd};
  end

  // DMA.
  assign s_rd_v[RDma] = dma_oc_rd_valid_i && !dma_oc_rd_psum_i;
  assign p_rd_v[RDma] = dma_oc_rd_valid_i && dma_oc_rd_psum_i;
  assign s_rd_a[RW*RDma +: RW] = RW'(dma_oc_rd_addr_i);
  assign p_rd_a[RW*RDma +: RW] = RW'(dma_oc_rd_addr_i);
  assign s_wr_v[RDma] = dma_oc_wr_valid_i && !dma_oc_wr_psum_i;
  assign p_wr_v[RDma] = dma_oc_wr_valid_i && dma_oc_wr_psum_i;
  assign s_wr_q[WW*RDma +: WW] = {RW'(dma_oc_wr_addr_i), dma_oc_wr_bytes_i, dma_oc_wr_mask_i, dma_oc_wr_data_i};
  assign p_wr_q[WW*RDma +: WW] = s_wr_q[WW*RDma +: WW];
  assign dma_oc_rd_ready_o = dma_oc_rd_psum_i ? p_rd_g[RDma] : s_rd_g[RDma];
  assign dma_oc_wr_ready_o = dma_oc_wr_psum_i ? p_wr_g[RDma] : s_wr_g[RDma];
  logic dma_rd_psum_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)                                    dma_rd_psum_q <= 1'b0;
    else if (dma_oc_rd_valid_i && dma_oc_rd_ready_o) dma_rd_psum_q <= dma_oc_rd_psum_i;
  end
  assign dma_oc_rd_data_o = dma_rd_psum_q ? psum_rd_data : sbuf_rd_data;

  // ---------------------------------------------------------------------------------------
  // The ports: round-robin among the requesters.
  // ---------------------------------------------------------------------------------------
  logic            s_rd_fire, s_wr_fire, p_rd_fire, p_wr_fire, p_wr_ready;
  logic [RW-1:0]   s_rd_sel, p_rd_sel;
  logic [WW-1:0]   s_wr_sel, p_wr_sel;
  logic [R-1:0]    s_rd_c, s_wr_c, p_rd_c, p_wr_c;

  tern_rr_arb #(.N(R), .W(RW)) u_arb_sbuf_rd (
    .clk_i, .rst_ni, .valid_i (s_rd_v), .req_i (s_rd_a), .ready_i (1'b1),
    .gnt_o (s_rd_g), .valid_o (s_rd_fire), .req_o (s_rd_sel), .conflict_o (s_rd_c));
  tern_rr_arb #(.N(R), .W(WW)) u_arb_sbuf_wr (
    .clk_i, .rst_ni, .valid_i (s_wr_v), .req_i (s_wr_q), .ready_i (1'b1),
    .gnt_o (s_wr_g), .valid_o (s_wr_fire), .req_o (s_wr_sel), .conflict_o (s_wr_c));
  // A PSUM access to a bank the Tensor Engine still writes waits (the engine's instruction is
  // done once its vectors are in the array; its writes land up to Rows + Cols cycles later).
  logic [R-1:0] p_rd_ok, p_wr_ok;
  for (genvar r = 0; r < R; r++) begin : gen_bank_hold
    assign p_rd_ok[r] = p_rd_v[r] && !psum_bank_busy[p_rd_a[RW*r + BankLsb +: BankBits]];
    assign p_wr_ok[r] = p_wr_v[r] && !psum_bank_busy[p_wr_q[WW*r + (WW-RW) + BankLsb +: BankBits]];
  end

  tern_rr_arb #(.N(R), .W(RW)) u_arb_psum_rd (
    .clk_i, .rst_ni, .valid_i (p_rd_ok), .req_i (p_rd_a), .ready_i (1'b1),
    .gnt_o (p_rd_g), .valid_o (p_rd_fire), .req_o (p_rd_sel), .conflict_o (p_rd_c));
  tern_rr_arb #(.N(R), .W(WW)) u_arb_psum_wr (
    .clk_i, .rst_ni, .valid_i (p_wr_ok), .req_i (p_wr_q), .ready_i (p_wr_ready),
    .gnt_o (p_wr_g), .valid_o (p_wr_fire), .req_o (p_wr_sel), .conflict_o (p_wr_c));

  logic s_wr_ready_unused;
  // Only the DMA uses row mode; its fields come straight from its port, qualified by its grant.
  tern_lane_mem #(.P(P), .Bytes(SbufBytes), .RowBytes(SbufRow), .ChunkBytes(Chunk)) u_sbuf (
    .clk_i, .rst_ni,
    .rd_valid_i     (s_rd_fire),
    .rd_addr_i      (s_rd_sel[SAW-1:0]),
    .rd_row_i       (s_rd_g[RDma] && dma_oc_rd_row_i),
    .rd_part_i      (dma_oc_rd_part_i),
    .rd_data_o      (sbuf_rd_data),
    .rd_chunk_o     (sbuf_rd_chunk),
    .wr_valid_i     (s_wr_fire),
    .wr_addr_i      (s_wr_sel[WW-RW +: SAW]),
    .wr_bytes_i     (s_wr_sel[P*33 +: 3]),
    .wr_mask_i      (s_wr_sel[P*32 +: P]),
    .wr_data_i      (s_wr_sel[0 +: P*32]),
    .wr_row_i       (s_wr_g[RDma] && dma_oc_wr_row_i),
    .wr_strb_i      (dma_oc_wr_strb_i),
    .wr_ready_o     (s_wr_ready_unused),
    .te_we_i        ('0),
    .te_acc_i       ('0),
    .te_addr_i      ('0),
    .te_data_i      ('0),
    .bd_valid_i     (sbuf_bd_valid_i),
    .bd_write_i     (sbuf_bd_write_i),
    .bd_mask_i      (sbuf_bd_mask_i),
    .bd_addr_i      (sbuf_bd_addr_i[SAW-1:0]),
    .bd_wdata_i     (sbuf_bd_wdata_i),
    .bd_rdata_o     (sbuf_bd_rdata_o),
    .ecc_arm_i      (ecc_arm_i[0]),
    .ecc_inj_part_i,
    .ecc_inj_off_i,
    .ecc_inj_flip_i,
    .ecc_scrub_i,
    .ecc_clear_i,
    .ecc_armed_o    (ecc_armed_o[0]),
    .ecc_busy_o     (ecc_busy_o[0]),
    .ecc_ce_o       (ecc_ce_o[0 +: 32]),
    .ecc_ue_o       (ecc_ue_o[0 +: 32]),
    .ecc_ue_valid_o (ecc_ue_valid_o[0]),
    .ecc_ue_addr_o  (ecc_ue_addr_o[0 +: 32])
  );

  // The engine's accumulate port has priority: a write request whose partitions it writes
  // this cycle waits (ready low when the offered request conflicts).
  tern_lane_mem #(.P(P), .Bytes(PsumBytes), .HasTe(1'b1)) u_psum (
    .clk_i, .rst_ni,
    .rd_valid_i     (p_rd_fire),
    .rd_addr_i      (p_rd_sel[PAW-1:0]),
    .rd_row_i       (1'b0),
    .rd_part_i      (8'd0),
    .rd_data_o      (psum_rd_data),
    .rd_chunk_o     (psum_rd_chunk_unused),
    .wr_valid_i     (p_wr_fire),
    .wr_addr_i      (p_wr_sel[WW-RW +: PAW]),
    .wr_bytes_i     (p_wr_sel[P*33 +: 3]),
    .wr_mask_i      (p_wr_sel[P*32 +: P]),
    .wr_data_i      (p_wr_sel[0 +: P*32]),
    .wr_row_i       (1'b0),
    .wr_strb_i      (4'd0),
    .wr_ready_o     (p_wr_ready),
    .te_we_i        (te_we),
    .te_acc_i       (te_acc),
    .te_addr_i      (te_addr),
    .te_data_i      (te_data),
    .bd_valid_i     (psum_bd_valid_i),
    .bd_write_i     (psum_bd_write_i),
    .bd_mask_i      (psum_bd_mask_i),
    .bd_addr_i      (psum_bd_addr_i[PAW-1:0]),
    .bd_wdata_i     (psum_bd_wdata_i),
    .bd_rdata_o     (psum_bd_rdata_o),
    .ecc_arm_i      (ecc_arm_i[1]),
    .ecc_inj_part_i,
    .ecc_inj_off_i,
    .ecc_inj_flip_i,
    .ecc_scrub_i,
    .ecc_clear_i,
    .ecc_armed_o    (ecc_armed_o[1]),
    .ecc_busy_o     (ecc_busy_o[1]),
    .ecc_ce_o       (ecc_ce_o[32 +: 32]),
    .ecc_ue_o       (ecc_ue_o[32 +: 32]),
    .ecc_ue_valid_o (ecc_ue_valid_o[1]),
    .ecc_ue_addr_o  (ecc_ue_addr_o[32 +: 32])
  );

  // Conflict cycles per engine sequencer: a request of its adapter waited; cleared by start.
  logic [R-1:0] conflict;
  assign conflict = s_rd_c | s_wr_c | p_rd_c | p_wr_c;
  logic [4*32-1:0] conflict_q;
  for (genvar e = 0; e < 4; e++) begin : gen_conflict
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni)          conflict_q[32*e +: 32] <= '0;
      else if (start_i[e])  conflict_q[32*e +: 32] <= '0;
      else if (conflict[e]) conflict_q[32*e +: 32] <= conflict_q[32*e +: 32] + 32'd1;
    end
  end
  assign conflict_cycles_o = {32'd0, conflict_q};  // SP has no datapath

  logic unused;
  assign unused = (^sbuf_bd_addr_i[31:SAW]) ^ (^psum_rd_chunk_unused) ^ (^psum_bd_addr_i[31:PAW]) ^ (^e_busy) ^
                  s_wr_ready_unused ^ conflict[RDma] ^ (^dma_oc_rd_addr_i) ^ (^dma_oc_wr_addr_i) ^
                  c_eng_valid[4] ^ (^c_eng_instr[IB*4 +: IB]) ^ (^c_ap_base[4*128 +: 128]) ^
                  (^c_sc_base[0 +: 64]) ^ (^c_sc_base[4*64 +: 64]) ^ (^c_eng_acc[S-1:RPe+1]) ^ (^s_rd_sel) ^ (^p_rd_sel) ^ (^s_wr_sel) ^ (^p_wr_sel);

  // The PE, ACT, DVE and POOL adapters let their sequencers go ahead (tern_pe_adapter,
  // tern_act_adapter, tern_vec_adapter); SP has no engine.
  assign c_eng_ahead[4]          = 1'b0;
  assign c_eng_ready[4]          = 1'b0;
  assign c_eng_done[4]           = 1'b0;
  assign c_eng_err[4]            = 1'b0;
  assign c_eng_err_code[4*4 +: 4] = 4'd0;

endmodule
