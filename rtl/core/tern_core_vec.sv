// tern_core_vec: the sequencer cluster with SBUF, PSUM and the Vector Engine datapaths of the
// DVE and POOL sequencers (docs/core-rtl.md): a step towards tern_core. Its ports are the
// cluster's (the PE and ACT engine ports still lead out; DVE's and POOL's are inside) plus a
// backdoor to SBUF and PSUM, so the cluster's harness drives it unchanged. SBUF and PSUM each
// have one read and one write port; DVE has priority over POOL on both.
module tern_core_vec #(
  parameter int unsigned NumDmaUpd = 2,
  localparam int unsigned S  = tern_isa_pkg::NumSeqs,
  localparam int unsigned IB = tern_isa_pkg::InstrBits,
  localparam int unsigned P  = tern_cfg_pkg::Partitions,
  localparam int unsigned SbufBytes = tern_cfg_pkg::SbufPartitionBytes,
  localparam int unsigned PsumBytes = tern_cfg_pkg::PsumBanks * tern_cfg_pkg::PsumBankBytes,
  localparam int unsigned SAW = $clog2(SbufBytes),
  localparam int unsigned PAW = $clog2(PsumBytes)
) (
  input  logic                                   clk_i,
  input  logic                                   rst_ni,
  input  logic [S-1:0]                           start_i,
  input  logic                                   sem_clear_i,
  input  logic [S*32-1:0]                        prog_base_i,
  input  logic [S*32-1:0]                        prog_len_i,
  input  logic [31:0]                            watchdog_i,   // semaphore-wait cycle limit, 0: none
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
  // engine instructions
  output logic [S-1:0]                           eng_valid_o,
  input  logic [S-1:0]                           eng_ready_i,
  output logic [S*IB-1:0]                        eng_instr_o,
  output logic [S*tern_isa_pkg::ApSlots*32-1:0]  eng_ap_base_o,
  output logic [S*tern_isa_pkg::ScalarSlots*32-1:0] eng_sc_base_o,
  input  logic [S-1:0]                           eng_done_i,
  input  logic [S-1:0]                           eng_err_i,
  input  logic [S*4-1:0]                         eng_err_code_i,
  // DMA triggers
  output logic [S-1:0]                           dma_valid_o,
  input  logic [S-1:0]                           dma_ready_i,
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
  // backdoor to SBUF and PSUM (tern_lane_mem): one word of one partition
  input  logic                                   sbuf_bd_valid_i,
  input  logic                                   sbuf_bd_write_i,
  input  logic [7:0]                             sbuf_bd_partition_i,
  input  logic [31:0]                            sbuf_bd_addr_i,
  input  logic [31:0]                            sbuf_bd_wdata_i,
  output logic [31:0]                            sbuf_bd_rdata_o,
  input  logic                                   psum_bd_valid_i,
  input  logic                                   psum_bd_write_i,
  input  logic [7:0]                             psum_bd_partition_i,
  input  logic [31:0]                            psum_bd_addr_i,
  input  logic [31:0]                            psum_bd_wdata_i,
  output logic [31:0]                            psum_bd_rdata_o
);

  localparam int unsigned NumVec = 2;  // the DVE and POOL datapaths
  localparam int unsigned SeqDve = 2, SeqPool = 3;

  // The cluster's engine ports; DVE's and POOL's go to the adapters.
  logic [S-1:0]   c_eng_valid, c_eng_ready, c_eng_done, c_eng_err;
  logic [S*4-1:0] c_eng_err_code;
  logic [S*IB-1:0] c_eng_instr;
  logic [S*tern_isa_pkg::ApSlots*32-1:0]     c_ap_base;
  logic [S*tern_isa_pkg::ScalarSlots*32-1:0] c_sc_base;

  tern_seq_cluster #(
    .NumDmaUpd(NumDmaUpd)
  ) u_cluster (
    .clk_i, .rst_ni, .start_i, .sem_clear_i, .prog_base_i, .prog_len_i, .watchdog_i,
    .fetch_req_valid_o, .fetch_req_ready_i, .fetch_req_addr_o, .fetch_rsp_valid_i,
    .fetch_rsp_data_i, .fetch_rsp_err_i,
    .mem_req_valid_o, .mem_req_ready_i, .mem_req_write_o, .mem_req_addr_o, .mem_req_wdata_o,
    .mem_rsp_valid_i, .mem_rsp_rdata_i, .mem_rsp_err_i,
    .eng_valid_o    (c_eng_valid),
    .eng_ready_i    (c_eng_ready),
    .eng_instr_o    (c_eng_instr),
    .eng_ap_base_o  (c_ap_base),
    .eng_sc_base_o  (c_sc_base),
    .eng_done_i     (c_eng_done),
    .eng_err_i      (c_eng_err),
    .eng_err_code_i (c_eng_err_code),
    .dma_valid_o, .dma_ready_i, .dma_queue_o, .dma_desc_o, .dma_src_add_o, .dma_dst_add_o,
    .dma_upd_mode_o, .dma_upd_idx_o, .dma_upd_value_o,
    .dma_sem_valid_i, .dma_sem_mode_i, .dma_sem_idx_i, .dma_sem_value_i,
    .sem_values_o, .busy_o, .halted_o, .waiting_o, .notify_valid_o, .notify_code_o,
    .err_code_o, .err_pc_o, .pc_o, .retired_o, .busy_cycles_o, .sem_wait_cycles_o,
    .fetch_wait_cycles_o
  );

  // ---------------------------------------------------------------------------------------
  // The Vector Engine datapaths and their SBUF/PSUM requests.
  // ---------------------------------------------------------------------------------------
  logic [NumVec-1:0]       v_ready, v_done, v_err;
  logic [NumVec*4-1:0]     v_err_code;
  logic [NumVec-1:0]       s_rd_v, s_rd_g, s_wr_v, s_wr_g, p_rd_v, p_rd_g, p_wr_v, p_wr_g;
  logic [NumVec*SAW-1:0]   s_rd_a, s_wr_a;
  logic [NumVec*PAW-1:0]   p_rd_a, p_wr_a;
  logic [NumVec*3-1:0]     s_wr_b, p_wr_b;
  logic [NumVec*P-1:0]     s_wr_m, p_wr_m;
  logic [NumVec*P*32-1:0]  s_wr_d, p_wr_d;
  logic [P*32-1:0]         sbuf_rd_data, psum_rd_data;
  logic [NumVec-1:0]       v_busy;

  for (genvar v = 0; v < NumVec; v++) begin : gen_vec
    localparam int unsigned Seq = (v == 0) ? SeqDve : SeqPool;
    tern_vec_adapter #(.P(P)) u_vec (
      .clk_i, .rst_ni,
      .valid_i         (c_eng_valid[Seq]),
      .ready_o         (v_ready[v]),
      .instr_i         (c_eng_instr[IB*Seq +: IB]),
      .ap_base_i       (c_ap_base[tern_isa_pkg::ApSlots*32*Seq +: tern_isa_pkg::ApSlots*32]),
      .sc_base_i       (c_sc_base[tern_isa_pkg::ScalarSlots*32*Seq +: tern_isa_pkg::ScalarSlots*32]),
      .done_o          (v_done[v]),
      .err_o           (v_err[v]),
      .err_code_o      (v_err_code[4*v +: 4]),
      .sbuf_rd_valid_o (s_rd_v[v]),
      .sbuf_rd_gnt_i   (s_rd_g[v]),
      .sbuf_rd_addr_o  (s_rd_a[SAW*v +: SAW]),
      .sbuf_rd_data_i  (sbuf_rd_data),
      .sbuf_wr_valid_o (s_wr_v[v]),
      .sbuf_wr_gnt_i   (s_wr_g[v]),
      .sbuf_wr_addr_o  (s_wr_a[SAW*v +: SAW]),
      .sbuf_wr_bytes_o (s_wr_b[3*v +: 3]),
      .sbuf_wr_mask_o  (s_wr_m[P*v +: P]),
      .sbuf_wr_data_o  (s_wr_d[P*32*v +: P*32]),
      .psum_rd_valid_o (p_rd_v[v]),
      .psum_rd_gnt_i   (p_rd_g[v]),
      .psum_rd_addr_o  (p_rd_a[PAW*v +: PAW]),
      .psum_rd_data_i  (psum_rd_data),
      .psum_wr_valid_o (p_wr_v[v]),
      .psum_wr_gnt_i   (p_wr_g[v]),
      .psum_wr_addr_o  (p_wr_a[PAW*v +: PAW]),
      .psum_wr_bytes_o (p_wr_b[3*v +: 3]),
      .psum_wr_mask_o  (p_wr_m[P*v +: P]),
      .psum_wr_data_o  (p_wr_d[P*32*v +: P*32]),
      .busy_o          (v_busy[v])
    );
  end

  // Fixed priority, DVE first: a grant goes to the lowest requester.
  assign s_rd_g = s_rd_v & ~(s_rd_v << 1);
  assign s_wr_g = s_wr_v & ~(s_wr_v << 1);
  assign p_rd_g = p_rd_v & ~(p_rd_v << 1);
  assign p_wr_g = p_wr_v & ~(p_wr_v << 1);

  logic s_wr_sel, p_wr_sel, s_rd_sel, p_rd_sel;  // the granted requester
  assign s_rd_sel = !s_rd_v[0];
  assign s_wr_sel = !s_wr_v[0];
  assign p_rd_sel = !p_rd_v[0];
  assign p_wr_sel = !p_wr_v[0];

  tern_lane_mem #(.P(P), .Bytes(SbufBytes)) u_sbuf (
    .clk_i, .rst_ni,
    .rd_valid_i     (|s_rd_v),
    .rd_addr_i      (s_rd_a[SAW*s_rd_sel +: SAW]),
    .rd_data_o      (sbuf_rd_data),
    .wr_valid_i     (|s_wr_v),
    .wr_addr_i      (s_wr_a[SAW*s_wr_sel +: SAW]),
    .wr_bytes_i     (s_wr_b[3*s_wr_sel +: 3]),
    .wr_mask_i      (s_wr_m[P*s_wr_sel +: P]),
    .wr_data_i      (s_wr_d[P*32*s_wr_sel +: P*32]),
    .bd_valid_i     (sbuf_bd_valid_i),
    .bd_write_i     (sbuf_bd_write_i),
    .bd_partition_i (sbuf_bd_partition_i),
    .bd_addr_i      (sbuf_bd_addr_i[SAW-1:0]),
    .bd_wdata_i     (sbuf_bd_wdata_i),
    .bd_rdata_o     (sbuf_bd_rdata_o)
  );

  tern_lane_mem #(.P(P), .Bytes(PsumBytes)) u_psum (
    .clk_i, .rst_ni,
    .rd_valid_i     (|p_rd_v),
    .rd_addr_i      (p_rd_a[PAW*p_rd_sel +: PAW]),
    .rd_data_o      (psum_rd_data),
    .wr_valid_i     (|p_wr_v),
    .wr_addr_i      (p_wr_a[PAW*p_wr_sel +: PAW]),
    .wr_bytes_i     (p_wr_b[3*p_wr_sel +: 3]),
    .wr_mask_i      (p_wr_m[P*p_wr_sel +: P]),
    .wr_data_i      (p_wr_d[P*32*p_wr_sel +: P*32]),
    .bd_valid_i     (psum_bd_valid_i),
    .bd_write_i     (psum_bd_write_i),
    .bd_partition_i (psum_bd_partition_i),
    .bd_addr_i      (psum_bd_addr_i[PAW-1:0]),
    .bd_wdata_i     (psum_bd_wdata_i),
    .bd_rdata_o     (psum_bd_rdata_o)
  );

  // ---------------------------------------------------------------------------------------
  // Engine ports: DVE and POOL from the adapters; PE and ACT lead out.
  // ---------------------------------------------------------------------------------------
  always_comb begin
    c_eng_ready    = eng_ready_i;
    c_eng_done     = eng_done_i;
    c_eng_err      = eng_err_i;
    c_eng_err_code = eng_err_code_i;
    eng_valid_o    = c_eng_valid;
    eng_instr_o    = c_eng_instr;
    eng_ap_base_o  = c_ap_base;
    eng_sc_base_o  = c_sc_base;
    for (int unsigned v = 0; v < NumVec; v++) begin
      int unsigned q;
      q = (v == 0) ? SeqDve : SeqPool;
      c_eng_ready[q]          = v_ready[v];
      c_eng_done[q]           = v_done[v];
      c_eng_err[q]            = v_err[v];
      c_eng_err_code[4*q +: 4] = v_err_code[4*v +: 4];
      eng_valid_o[q]          = 1'b0;
    end
  end

  logic unused;
  assign unused = (^sbuf_bd_addr_i[31:SAW]) ^ (^psum_bd_addr_i[31:PAW]) ^ (^v_busy) ^
                  (^s_rd_g) ^ (^p_rd_g) ^ (^s_wr_g) ^ (^p_wr_g);

endmodule
