// tern_core: the NeuronCore (docs/core-rtl.md). The compute side (tern_core_compute: five
// sequencers, semaphores, SBUF, PSUM, the PE/ACT/DVE/POOL engines), the DMA engines
// (rtl/dma), the sequencers' instruction fetch and ld/st (tern_seq_axi), all merged onto one
// AXI4 master towards HBM (tern_axi_mux), and the host's AXI4-Lite CSR block (tern_csr).
//
// DMA triggers: sequencer s names a global queue q; q < DmaEngines * DmaQueues goes to engine
// q / DmaQueues, local queue q % DmaQueues, and the descriptor index must be below DESC_COUNT;
// otherwise the trigger is refused and the sequencer faults with kDma, as in the golden model.
// Sequencers reach an engine round-robin; the engines share the compute side's DMA port to
// SBUF/PSUM round-robin.
module tern_core #(
  localparam int unsigned S        = tern_isa_pkg::NumSeqs,
  localparam int unsigned P        = tern_cfg_pkg::Partitions,
  localparam int unsigned NumDma   = tern_cfg_pkg::DmaEngines,
  localparam int unsigned NumQ     = tern_cfg_pkg::DmaQueues,
  localparam int unsigned DataBits = tern_cfg_pkg::AxiDataBits,
  localparam int unsigned Bytes    = DataBits / 8,
  localparam int unsigned SbufRow  = tern_pkg::sbuf_row_bytes(Bytes, P),   // SBUF row port
  localparam int unsigned IdBits   = 4,                              // per internal master
  localparam int unsigned NumMst   = 1 + NumDma,                     // tern_seq_axi, the DMAs
  localparam int unsigned OutIdBits = IdBits + ((NumMst > 1) ? $clog2(NumMst) : 1),
  localparam int unsigned QBits    = (NumQ > 1) ? $clog2(NumQ) : 1
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  output logic                  irq_o,
  // host CSRs
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
  // HBM
  // BEGIN GENERATED: tern axi axi4 master m_axi Id=OutIdBits Data=DataBits Strb=Bytes
  output logic [OutIdBits-1:0]  m_axi_awid_o,
  output logic [31:0]           m_axi_awaddr_o,
  output logic [7:0]            m_axi_awlen_o,
  output logic [2:0]            m_axi_awsize_o,
  output logic [1:0]            m_axi_awburst_o,
  output logic                  m_axi_awvalid_o,
  input  logic                  m_axi_awready_i,
  output logic [DataBits-1:0]   m_axi_wdata_o,
  output logic [Bytes-1:0]      m_axi_wstrb_o,
  output logic                  m_axi_wlast_o,
  output logic                  m_axi_wvalid_o,
  input  logic                  m_axi_wready_i,
  input  logic [OutIdBits-1:0]  m_axi_bid_i,
  input  logic [1:0]            m_axi_bresp_i,
  input  logic                  m_axi_bvalid_i,
  output logic                  m_axi_bready_o,
  output logic [OutIdBits-1:0]  m_axi_arid_o,
  output logic [31:0]           m_axi_araddr_o,
  output logic [7:0]            m_axi_arlen_o,
  output logic [2:0]            m_axi_arsize_o,
  output logic [1:0]            m_axi_arburst_o,
  output logic                  m_axi_arvalid_o,
  input  logic                  m_axi_arready_i,
  input  logic [OutIdBits-1:0]  m_axi_rid_i,
  input  logic [DataBits-1:0]   m_axi_rdata_i,
  input  logic [1:0]            m_axi_rresp_i,
  input  logic                  m_axi_rlast_i,
  input  logic                  m_axi_rvalid_i,
  output logic                  m_axi_rready_o,
  // END GENERATED: tern axi
  // testbench backdoor to SBUF and PSUM: one word of every partition
  input  logic                  sbuf_bd_valid_i,
  input  logic                  sbuf_bd_write_i,
  input  logic [P-1:0]          sbuf_bd_mask_i,
  input  logic [31:0]           sbuf_bd_addr_i,
  input  logic [P*32-1:0]       sbuf_bd_wdata_i,
  output logic [P*32-1:0]       sbuf_bd_rdata_o,
  input  logic                  psum_bd_valid_i,
  input  logic                  psum_bd_write_i,
  input  logic [P-1:0]          psum_bd_mask_i,
  input  logic [31:0]           psum_bd_addr_i,
  input  logic [P*32-1:0]       psum_bd_wdata_i,
  output logic [P*32-1:0]       psum_bd_rdata_o,
  // trace, for benches: each sequencer's retire and state (tern_seq), each DMA engine's
  // transfer (tern_dma); lock-step checks and the profiler's timeline read it
  output logic [S-1:0]          trace_retire_o,
  output logic [S*32-1:0]       trace_pc_o,
  output logic [S*4-1:0]        trace_state_o,
  output logic [S-1:0]          trace_rf_we_o,
  output logic [S*6-1:0]        trace_rf_wa_o,
  output logic [S*32-1:0]       trace_rf_wd_o,
  output logic [NumDma-1:0]     trace_dma_active_o,
  output logic [NumDma-1:0]     trace_dma_end_o,
  output logic [NumDma*8-1:0]   trace_dma_queue_o,
  output logic [NumDma*32-1:0]  trace_dma_desc_o,
  output logic [NumDma*32-1:0]  trace_dma_pc_o,
  output logic [NumDma*3-1:0]   trace_dma_seq_o
);

  // ---------------------------------------------------------------------------------------
  // CSRs
  // ---------------------------------------------------------------------------------------
  logic [S*32-1:0] prog_base, prog_len;
  logic [S-1:0]    start, halt_req;
  logic            sem_clear, cnt_clear_unused, sr_seed_valid;
  logic [31:0]     watchdog, budget, desc_base, hbm_size, desc_count, sr_seed;

  logic [S-1:0]    busy, halted, waiting, notify_valid;
  logic [S*4-1:0]  err_code;
  logic [S*32-1:0] err_pc, pc, retired, busy_cycles, sem_wait_cycles, fetch_wait_cycles,
                   conflict_cycles, notify_code;
  logic [tern_isa_pkg::NumSems*32-1:0] sem_values;

  // ECC of SBUF (index 0) and PSUM (1)
  logic [1:0]      ecc_arm, ecc_armed, ecc_busy, ecc_ue_valid;
  logic [7:0]      ecc_inj_part;
  logic [23:0]     ecc_inj_off;
  logic [tern_secded_pkg::CodeBits-1:0] ecc_inj_flip;
  logic            ecc_scrub, ecc_clear;
  logic [2*32-1:0] ecc_ce, ecc_ue, ecc_ue_addr;

  logic [NumDma*64-1:0]    dma_bytes_read, dma_bytes_written;
  logic [NumDma*32-1:0]    dma_hwm, dma_err_desc, dma_err_pc;
  logic [NumDma*4-1:0]     dma_err_code;
  logic [NumDma*8-1:0]     dma_err_detail;
  logic [NumDma*8-1:0]     dma_err_queue;
  logic [NumDma*3-1:0]     dma_err_seq;
  logic [NumDma-1:0]       dma_err_valid, dma_busy;

  // A DMA engine has faulted since the last start: the deadlock detector stands down (the run
  // has stopped at that fault).
  logic dma_faulted_q, dma_faulted_d;
  assign dma_faulted_d = (dma_faulted_q || (|dma_err_valid)) && !(|start);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) dma_faulted_q <= 1'b0;
    else         dma_faulted_q <= dma_faulted_d;
  end

  tern_csr u_csr (
    .clk_i, .rst_ni,
    .s_axil_awvalid_i, .s_axil_awready_o, .s_axil_awaddr_i, .s_axil_awprot_i,
    .s_axil_wvalid_i, .s_axil_wready_o, .s_axil_wdata_i, .s_axil_wstrb_i,
    .s_axil_bvalid_o, .s_axil_bready_i, .s_axil_bresp_o,
    .s_axil_arvalid_i, .s_axil_arready_o, .s_axil_araddr_i, .s_axil_arprot_i,
    .s_axil_rvalid_o, .s_axil_rready_i, .s_axil_rdata_o, .s_axil_rresp_o,
    .prog_base_o (prog_base), .prog_len_o (prog_len), .start_o (start),
    .halt_req_o (halt_req), .sem_clear_o (sem_clear), .cnt_clear_o (cnt_clear_unused),
    .watchdog_o (watchdog), .desc_base_o (desc_base), .hbm_size_o (hbm_size),
    .desc_count_o (desc_count), .budget_o (budget), .sr_seed_o (sr_seed), .sr_seed_valid_o (sr_seed_valid),
    .irq_o,
    .busy_i (busy), .halted_i (halted), .waiting_i (waiting), .err_code_i (err_code),
    .err_pc_i (err_pc), .pc_i (pc), .retired_i (retired), .busy_cycles_i (busy_cycles),
    .sem_wait_cycles_i (sem_wait_cycles), .fetch_wait_cycles_i (fetch_wait_cycles),
    .conflict_cycles_i (conflict_cycles), .notify_valid_i (notify_valid),
    .notify_code_i (notify_code),
    .dma_bytes_read_i (dma_bytes_read), .dma_bytes_written_i (dma_bytes_written),
    .dma_outstanding_hwm_i (dma_hwm), .dma_err_code_i (dma_err_code),
    .dma_err_detail_i (dma_err_detail), .dma_err_queue_i (dma_err_queue),
    .dma_err_seq_i (dma_err_seq), .dma_err_desc_i (dma_err_desc), .dma_err_pc_i (dma_err_pc),
    .dma_err_valid_i (dma_err_valid), .dma_busy_i (dma_busy), .sem_values_i (sem_values),
    .ecc_arm_o (ecc_arm), .ecc_inj_part_o (ecc_inj_part), .ecc_inj_off_o (ecc_inj_off),
    .ecc_inj_flip_o (ecc_inj_flip), .ecc_scrub_o (ecc_scrub), .ecc_clear_o (ecc_clear),
    .ecc_armed_i (ecc_armed), .ecc_busy_i (ecc_busy), .ecc_ce_i (ecc_ce), .ecc_ue_i (ecc_ue),
    .ecc_ue_valid_i (ecc_ue_valid), .ecc_ue_addr_i (ecc_ue_addr)
  );

  // ---------------------------------------------------------------------------------------
  // Compute side
  // ---------------------------------------------------------------------------------------
  logic [S-1:0]    fetch_req_valid, fetch_req_ready, fetch_rsp_valid, fetch_rsp_err;
  logic [S*32-1:0] fetch_req_addr;
  logic [S*tern_isa_pkg::InstrBits-1:0] fetch_rsp_data;
  logic [S-1:0]    mem_req_valid, mem_req_ready, mem_req_write, mem_rsp_valid, mem_rsp_err;
  logic [S*32-1:0] mem_req_addr, mem_req_wdata, mem_rsp_rdata;
  logic [S-1:0]    trig_valid, trig_ready, trig_err;
  logic [S*8-1:0]  trig_queue, trig_upd_value;
  logic [S*32-1:0] trig_desc, trig_src_add, trig_dst_add;
  logic [S*2-1:0]  trig_upd_mode;
  logic [S*6-1:0]  trig_upd_idx;
  logic [NumDma-1:0]   sem_valid;
  logic [NumDma*2-1:0] sem_mode;
  logic [NumDma*6-1:0] sem_idx;
  logic [NumDma*8-1:0] sem_value;
  logic            oc_rd_valid, oc_rd_ready, oc_rd_psum, oc_wr_valid, oc_wr_ready, oc_wr_psum;
  logic            oc_rd_row, oc_wr_row;
  logic [7:0]      oc_rd_part;
  logic [SbufRow-1:0] oc_wr_strb;
  logic [31:0]     oc_rd_addr, oc_wr_addr;
  logic [2:0]      oc_wr_bytes;
  logic [P-1:0]    oc_wr_mask;
  logic [P*32-1:0] oc_rd_data, oc_wr_data;

  tern_core_compute #(.NumDmaUpd (NumDma)) u_compute (
    .clk_i, .rst_ni,
    .start_i (start), .sem_clear_i (sem_clear), .prog_base_i (prog_base), .prog_len_i (prog_len),
    .watchdog_i (watchdog), .budget_i (budget), .dma_busy_i (|dma_busy),
    .dma_fault_i (dma_faulted_q), .halt_req_i (halt_req), .sr_seed_valid_i (sr_seed_valid),
    .sr_seed_i (sr_seed),
    .fetch_req_valid_o (fetch_req_valid), .fetch_req_ready_i (fetch_req_ready),
    .fetch_req_addr_o (fetch_req_addr), .fetch_rsp_valid_i (fetch_rsp_valid),
    .fetch_rsp_data_i (fetch_rsp_data), .fetch_rsp_err_i (fetch_rsp_err),
    .mem_req_valid_o (mem_req_valid), .mem_req_ready_i (mem_req_ready),
    .mem_req_write_o (mem_req_write), .mem_req_addr_o (mem_req_addr),
    .mem_req_wdata_o (mem_req_wdata), .mem_rsp_valid_i (mem_rsp_valid),
    .mem_rsp_rdata_i (mem_rsp_rdata), .mem_rsp_err_i (mem_rsp_err),
    .dma_valid_o (trig_valid), .dma_ready_i (trig_ready), .dma_err_i (trig_err),
    .dma_queue_o (trig_queue), .dma_desc_o (trig_desc), .dma_src_add_o (trig_src_add),
    .dma_dst_add_o (trig_dst_add), .dma_upd_mode_o (trig_upd_mode),
    .dma_upd_idx_o (trig_upd_idx), .dma_upd_value_o (trig_upd_value),
    .dma_sem_valid_i (sem_valid), .dma_sem_mode_i (sem_mode), .dma_sem_idx_i (sem_idx),
    .dma_sem_value_i (sem_value),
    .sem_values_o (sem_values), .busy_o (busy), .halted_o (halted), .waiting_o (waiting),
    .notify_valid_o (notify_valid), .notify_code_o (notify_code), .err_code_o (err_code),
    .err_pc_o (err_pc), .pc_o (pc), .retired_o (retired), .busy_cycles_o (busy_cycles),
    .sem_wait_cycles_o (sem_wait_cycles), .fetch_wait_cycles_o (fetch_wait_cycles),
    .conflict_cycles_o (conflict_cycles),
    .trace_retire_o, .trace_pc_o, .trace_state_o, .trace_rf_we_o, .trace_rf_wa_o, .trace_rf_wd_o,
    .dma_oc_rd_valid_i (oc_rd_valid), .dma_oc_rd_ready_o (oc_rd_ready),
    .dma_oc_rd_psum_i (oc_rd_psum), .dma_oc_rd_addr_i (oc_rd_addr),
    .dma_oc_rd_row_i (oc_rd_row), .dma_oc_rd_part_i (oc_rd_part),
    .dma_oc_rd_data_o (oc_rd_data),
    .dma_oc_wr_valid_i (oc_wr_valid), .dma_oc_wr_ready_o (oc_wr_ready),
    .dma_oc_wr_psum_i (oc_wr_psum), .dma_oc_wr_addr_i (oc_wr_addr),
    .dma_oc_wr_bytes_i (oc_wr_bytes), .dma_oc_wr_mask_i (oc_wr_mask),
    .dma_oc_wr_data_i (oc_wr_data), .dma_oc_wr_row_i (oc_wr_row), .dma_oc_wr_strb_i (oc_wr_strb),
    .sbuf_bd_valid_i, .sbuf_bd_write_i, .sbuf_bd_mask_i, .sbuf_bd_addr_i,
    .sbuf_bd_wdata_i, .sbuf_bd_rdata_o,
    .psum_bd_valid_i, .psum_bd_write_i, .psum_bd_mask_i, .psum_bd_addr_i,
    .psum_bd_wdata_i, .psum_bd_rdata_o,
    .ecc_arm_i (ecc_arm), .ecc_inj_part_i (ecc_inj_part), .ecc_inj_off_i (ecc_inj_off),
    .ecc_inj_flip_i (ecc_inj_flip), .ecc_scrub_i (ecc_scrub), .ecc_clear_i (ecc_clear),
    .ecc_armed_o (ecc_armed), .ecc_busy_o (ecc_busy), .ecc_ce_o (ecc_ce), .ecc_ue_o (ecc_ue),
    .ecc_ue_valid_o (ecc_ue_valid), .ecc_ue_addr_o (ecc_ue_addr)
  );


  // ---------------------------------------------------------------------------------------
  // AXI masters: [0] the sequencers, [1 + e] DMA engine e.
  // ---------------------------------------------------------------------------------------
  logic [NumMst*IdBits-1:0]   s_awid, s_arid;
  logic [NumMst*32-1:0]       s_awaddr, s_araddr;
  logic [NumMst*8-1:0]        s_awlen, s_arlen;
  logic [NumMst*3-1:0]        s_awsize, s_arsize;
  logic [NumMst*2-1:0]        s_awburst, s_arburst;
  logic [NumMst-1:0]          s_awvalid, s_awready, s_wlast, s_wvalid, s_wready, s_bvalid,
                              s_bready, s_arvalid, s_arready, s_rvalid, s_rready;
  logic [NumMst*DataBits-1:0] s_wdata;
  logic [NumMst*Bytes-1:0]    s_wstrb;
  logic [IdBits-1:0]          s_bid, s_rid;
  logic [1:0]                 s_bresp, s_rresp;
  logic [DataBits-1:0]        s_rdata;
  logic                       s_rlast;
  logic [S*32-1:0]            fetch_hits_unused;

  tern_seq_axi #(.DataBits (DataBits), .IdBits (IdBits)) u_seq_axi (
    .clk_i, .rst_ni,
    .flush_i (start),
    .fetch_req_valid_i (fetch_req_valid), .fetch_req_ready_o (fetch_req_ready),
    .fetch_req_addr_i (fetch_req_addr), .fetch_rsp_valid_o (fetch_rsp_valid),
    .fetch_rsp_data_o (fetch_rsp_data), .fetch_rsp_err_o (fetch_rsp_err),
    .mem_req_valid_i (mem_req_valid), .mem_req_ready_o (mem_req_ready),
    .mem_req_write_i (mem_req_write), .mem_req_addr_i (mem_req_addr),
    .mem_req_wdata_i (mem_req_wdata), .mem_rsp_valid_o (mem_rsp_valid),
    .mem_rsp_rdata_o (mem_rsp_rdata), .mem_rsp_err_o (mem_rsp_err),
    .fetch_hits_o (fetch_hits_unused),
    .m_axi_arvalid_o (s_arvalid[0]), .m_axi_arready_i (s_arready[0]),
    .m_axi_arid_o (s_arid[0 +: IdBits]), .m_axi_araddr_o (s_araddr[0 +: 32]),
    .m_axi_arlen_o (s_arlen[0 +: 8]), .m_axi_arsize_o (s_arsize[0 +: 3]),
    .m_axi_arburst_o (s_arburst[0 +: 2]),
    .m_axi_rvalid_i (s_rvalid[0]), .m_axi_rready_o (s_rready[0]), .m_axi_rid_i (s_rid),
    .m_axi_rdata_i (s_rdata), .m_axi_rresp_i (s_rresp), .m_axi_rlast_i (s_rlast),
    .m_axi_awvalid_o (s_awvalid[0]), .m_axi_awready_i (s_awready[0]),
    .m_axi_awid_o (s_awid[0 +: IdBits]), .m_axi_awaddr_o (s_awaddr[0 +: 32]),
    .m_axi_awlen_o (s_awlen[0 +: 8]), .m_axi_awsize_o (s_awsize[0 +: 3]),
    .m_axi_awburst_o (s_awburst[0 +: 2]),
    .m_axi_wvalid_o (s_wvalid[0]), .m_axi_wready_i (s_wready[0]),
    .m_axi_wdata_o (s_wdata[0 +: DataBits]), .m_axi_wstrb_o (s_wstrb[0 +: Bytes]),
    .m_axi_wlast_o (s_wlast[0]),
    .m_axi_bvalid_i (s_bvalid[0]), .m_axi_bready_o (s_bready[0]), .m_axi_bid_i (s_bid),
    .m_axi_bresp_i (s_bresp)
  );

  // ---------------------------------------------------------------------------------------
  // DMA triggers: refused (no such queue or descriptor) or routed to their engine.
  // ---------------------------------------------------------------------------------------
  localparam int unsigned TW = QBits + 3 * 32 + 2 + 6 + 8 + 3 + 32;  // a trigger bundle
  logic [S-1:0]      trig_bad;
  logic [S*TW-1:0]   trig_bundle;
  logic [NumDma*S-1:0] trig_gnt;
  always_comb begin
    for (int unsigned s = 0; s < S; s++) begin
      logic [7:0] q;
      q = trig_queue[8*s +: 8];
      trig_bad[s] = (32'(q) >= NumDma * NumQ) || (trig_desc[32*s +: 32] >= desc_count);
      trig_bundle[TW*s +: TW] = {QBits'(32'(q) % NumQ), trig_desc[32*s +: 32],
                                 trig_src_add[32*s +: 32], trig_dst_add[32*s +: 32],
                                 trig_upd_mode[2*s +: 2], trig_upd_idx[6*s +: 6],
                                 trig_upd_value[8*s +: 8], 3'(s), pc[32*s +: 32]};
    end
  end
  always_comb begin
    for (int unsigned s = 0; s < S; s++) begin
      trig_ready[s] = trig_valid[s] && trig_bad[s];
      trig_err[s]   = trig_bad[s];
      for (int unsigned e = 0; e < NumDma; e++) trig_ready[s] = trig_ready[s] || trig_gnt[S*e + s];
    end
  end

  // The engines' requests to SBUF/PSUM, merged round-robin onto the compute side's DMA port.
  localparam int unsigned RdW = 1 + 1 + 8 + 32, WrW = 1 + 1 + SbufRow + 32 + 3 + P + P * 32;
  logic [NumDma-1:0]       e_rd_valid, e_rd_sel, e_wr_valid, e_wr_sel;
  logic [NumDma*RdW-1:0]   e_rd_req;
  logic [NumDma*WrW-1:0]   e_wr_req;
  logic [NumDma-1:0]       e_rd_conflict_unused, e_wr_conflict_unused;
  logic [RdW-1:0]          rd_req;
  logic [WrW-1:0]          wr_req;

  for (genvar e = 0; e < NumDma; e++) begin : gen_dma
    logic [S-1:0]   want, gnt;
    logic           t_valid, t_ready;
    logic [TW-1:0]  t;
    logic [S-1:0]   conflict_unused;
    for (genvar s = 0; s < S; s++) begin : gen_want
      assign want[s] = trig_valid[s] && !trig_bad[s] && (32'(trig_queue[8*s +: 8]) / NumQ == e);
    end
    tern_rr_arb #(.N (S), .W (TW)) u_trig_arb (
      .clk_i, .rst_ni, .valid_i (want), .req_i (trig_bundle), .ready_i (t_ready),
      .gnt_o (gnt), .valid_o (t_valid), .req_o (t), .conflict_o (conflict_unused));
    assign trig_gnt[S*e +: S] = gnt;

    logic rd_v, wr_v, rd_p, wr_p, rd_r, wr_r;
    logic [7:0]  rd_pt;
    logic [SbufRow-1:0] wr_s;
    logic [31:0] rd_a, wr_a;
    logic [2:0]  wr_b;
    logic [P-1:0] wr_m;
    logic [P*32-1:0] wr_d;
    logic [3:0]  e_err_code, e_err_detail;
    logic [QBits-1:0] err_queue;
    logic [7:0]  hwm;
    logic [QBits-1:0] trace_queue;
    tern_dma #(.IdBits (IdBits)) u_dma (
      .clk_i, .rst_ni,
      .trig_valid_i (t_valid), .trig_ready_o (t_ready),
      .trig_queue_i (t[TW-1 -: QBits]), .trig_desc_i (t[TW-QBits-1 -: 32]),
      .trig_src_add_i (t[TW-QBits-33 -: 32]), .trig_dst_add_i (t[TW-QBits-65 -: 32]),
      .trig_upd_mode_i (t[49 +: 2]), .trig_upd_idx_i (t[43 +: 6]), .trig_upd_value_i (t[35 +: 8]),
      .trig_seq_i (t[32 +: 3]), .trig_pc_i (t[0 +: 32]),
      .sem_valid_o (sem_valid[e]), .sem_mode_o (sem_mode[2*e +: 2]), .sem_idx_o (sem_idx[6*e +: 6]),
      .sem_value_o (sem_value[8*e +: 8]),
      .desc_base_i (desc_base), .hbm_size_i (hbm_size), .watchdog_i (watchdog),
      .oc_rd_valid_o (rd_v), .oc_rd_ready_i (e_rd_sel[e] && oc_rd_ready), .oc_rd_psum_o (rd_p),
      .oc_rd_addr_o (rd_a), .oc_rd_row_o (rd_r), .oc_rd_part_o (rd_pt), .oc_rd_data_i (oc_rd_data),
      .oc_wr_valid_o (wr_v), .oc_wr_ready_i (e_wr_sel[e] && oc_wr_ready), .oc_wr_psum_o (wr_p),
      .oc_wr_addr_o (wr_a), .oc_wr_bytes_o (wr_b), .oc_wr_mask_o (wr_m), .oc_wr_data_o (wr_d),
      .oc_wr_row_o (wr_r), .oc_wr_strb_o (wr_s),
      .m_axi_awid_o (s_awid[IdBits*(1+e) +: IdBits]), .m_axi_awaddr_o (s_awaddr[32*(1+e) +: 32]),
      .m_axi_awlen_o (s_awlen[8*(1+e) +: 8]), .m_axi_awsize_o (s_awsize[3*(1+e) +: 3]),
      .m_axi_awburst_o (s_awburst[2*(1+e) +: 2]), .m_axi_awvalid_o (s_awvalid[1+e]),
      .m_axi_awready_i (s_awready[1+e]),
      .m_axi_wdata_o (s_wdata[DataBits*(1+e) +: DataBits]), .m_axi_wstrb_o (s_wstrb[Bytes*(1+e) +: Bytes]),
      .m_axi_wlast_o (s_wlast[1+e]), .m_axi_wvalid_o (s_wvalid[1+e]), .m_axi_wready_i (s_wready[1+e]),
      .m_axi_bid_i (s_bid), .m_axi_bresp_i (s_bresp), .m_axi_bvalid_i (s_bvalid[1+e]),
      .m_axi_bready_o (s_bready[1+e]),
      .m_axi_arid_o (s_arid[IdBits*(1+e) +: IdBits]), .m_axi_araddr_o (s_araddr[32*(1+e) +: 32]),
      .m_axi_arlen_o (s_arlen[8*(1+e) +: 8]), .m_axi_arsize_o (s_arsize[3*(1+e) +: 3]),
      .m_axi_arburst_o (s_arburst[2*(1+e) +: 2]), .m_axi_arvalid_o (s_arvalid[1+e]),
      .m_axi_arready_i (s_arready[1+e]),
      .m_axi_rid_i (s_rid), .m_axi_rdata_i (s_rdata), .m_axi_rresp_i (s_rresp),
      .m_axi_rlast_i (s_rlast), .m_axi_rvalid_i (s_rvalid[1+e]), .m_axi_rready_o (s_rready[1+e]),
      .busy_o (dma_busy[e]), .err_valid_o (dma_err_valid[e]), .err_code_o (e_err_code),
      .err_detail_o (e_err_detail), .err_queue_o (err_queue), .err_desc_o (dma_err_desc[32*e +: 32]),
      .err_seq_o (dma_err_seq[3*e +: 3]), .err_pc_o (dma_err_pc[32*e +: 32]),
      .bytes_read_o (dma_bytes_read[64*e +: 64]), .bytes_written_o (dma_bytes_written[64*e +: 64]),
      .outstanding_hwm_o (hwm),
      .trace_active_o (trace_dma_active_o[e]), .trace_end_o (trace_dma_end_o[e]),
      .trace_queue_o (trace_queue), .trace_desc_o (trace_dma_desc_o[32*e +: 32]),
      .trace_pc_o (trace_dma_pc_o[32*e +: 32]), .trace_seq_o (trace_dma_seq_o[3*e +: 3])
    );
    assign trace_dma_queue_o[8*e +: 8] = 8'(e * NumQ) + 8'(trace_queue);  // the global queue
    assign dma_err_code[4*e +: 4]   = e_err_code;
    assign dma_err_detail[8*e +: 8] = 8'(e_err_detail);
    assign dma_err_queue[8*e +: 8]  = 8'(err_queue);
    assign dma_hwm[32*e +: 32]      = 32'(hwm);
    assign e_rd_valid[e] = rd_v;
    assign e_wr_valid[e] = wr_v;
    assign e_rd_req[RdW*e +: RdW] = {rd_p, rd_r, rd_pt, rd_a};
    assign e_wr_req[WrW*e +: WrW] = {wr_p, wr_r, wr_s, wr_a, wr_b, wr_m, wr_d};
  end

  // The arbiters pick one engine a cycle (ready_i 1: the choice is offered to the compute
  // side, whose own arbitration decides whether it goes this cycle).
  logic rd_any, wr_any;
  tern_rr_arb #(.N (NumDma), .W (RdW)) u_oc_rd_arb (
    .clk_i, .rst_ni, .valid_i (e_rd_valid), .req_i (e_rd_req), .ready_i (1'b1),
    .gnt_o (e_rd_sel), .valid_o (rd_any), .req_o (rd_req), .conflict_o (e_rd_conflict_unused));
  tern_rr_arb #(.N (NumDma), .W (WrW)) u_oc_wr_arb (
    .clk_i, .rst_ni, .valid_i (e_wr_valid), .req_i (e_wr_req), .ready_i (1'b1),
    .gnt_o (e_wr_sel), .valid_o (wr_any), .req_o (wr_req), .conflict_o (e_wr_conflict_unused));
  assign oc_rd_valid = rd_any;
  assign {oc_rd_psum, oc_rd_row, oc_rd_part, oc_rd_addr} = rd_req;
  assign oc_wr_valid = wr_any;
  assign {oc_wr_psum, oc_wr_row, oc_wr_strb, oc_wr_addr, oc_wr_bytes, oc_wr_mask, oc_wr_data} = wr_req;

  // ---------------------------------------------------------------------------------------
  // One AXI4 master towards HBM.
  // ---------------------------------------------------------------------------------------
  tern_axi_mux #(.N (NumMst), .IdBits (IdBits), .DataBits (DataBits)) u_axi_mux (
    .clk_i, .rst_ni,
    .s_awid_i (s_awid), .s_awaddr_i (s_awaddr), .s_awlen_i (s_awlen), .s_awsize_i (s_awsize),
    .s_awburst_i (s_awburst), .s_awvalid_i (s_awvalid), .s_awready_o (s_awready),
    .s_wdata_i (s_wdata), .s_wstrb_i (s_wstrb), .s_wlast_i (s_wlast), .s_wvalid_i (s_wvalid),
    .s_wready_o (s_wready),
    .s_bid_o (s_bid), .s_bresp_o (s_bresp), .s_bvalid_o (s_bvalid), .s_bready_i (s_bready),
    .s_arid_i (s_arid), .s_araddr_i (s_araddr), .s_arlen_i (s_arlen), .s_arsize_i (s_arsize),
    .s_arburst_i (s_arburst), .s_arvalid_i (s_arvalid), .s_arready_o (s_arready),
    .s_rid_o (s_rid), .s_rdata_o (s_rdata), .s_rresp_o (s_rresp), .s_rlast_o (s_rlast),
    .s_rvalid_o (s_rvalid), .s_rready_i (s_rready),
    .m_axi_awid_o, .m_axi_awaddr_o, .m_axi_awlen_o, .m_axi_awsize_o, .m_axi_awburst_o,
    .m_axi_awvalid_o, .m_axi_awready_i, .m_axi_wdata_o, .m_axi_wstrb_o, .m_axi_wlast_o,
    .m_axi_wvalid_o, .m_axi_wready_i, .m_axi_bid_i, .m_axi_bresp_i, .m_axi_bvalid_i,
    .m_axi_bready_o, .m_axi_arid_o, .m_axi_araddr_o, .m_axi_arlen_o, .m_axi_arsize_o,
    .m_axi_arburst_o, .m_axi_arvalid_o, .m_axi_arready_i, .m_axi_rid_i, .m_axi_rdata_i,
    .m_axi_rresp_i, .m_axi_rlast_i, .m_axi_rvalid_i, .m_axi_rready_o
  );

  logic unused;
  assign unused = cnt_clear_unused ^ (^fetch_hits_unused) ^
                  (^e_rd_conflict_unused) ^ (^e_wr_conflict_unused);

endmodule
