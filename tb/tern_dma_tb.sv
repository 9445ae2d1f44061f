// tern_dma_tb: the DMA engine with SBUF and PSUM (tern_lane_mem) for the C++ tests
// (tests/test_dma_rtl.cc). The AXI master leads out to the C++ memory model (tb/axi_mem.h);
// the on-chip ports can be stalled from C++ to exercise back-pressure; the memories have
// backdoor ports for loading and dumping.
module tern_dma_tb #(
  parameter int unsigned DataBits = tern_cfg_pkg::AxiDataBits,
  localparam int unsigned P = tern_cfg_pkg::Partitions,
  localparam int unsigned SbufBytes = tern_cfg_pkg::SbufPartitionBytes,
  localparam int unsigned PsumBytes = tern_cfg_pkg::PsumBanks * tern_cfg_pkg::PsumBankBytes,
  localparam int unsigned NumQueues = tern_cfg_pkg::DmaQueues,
  localparam int unsigned QBits = (NumQueues > 1) ? $clog2(NumQueues) : 1,
  localparam int unsigned IdBits = 4,
  localparam int unsigned RowBytes = tern_pkg::sbuf_row_bytes(DataBits / 8, P)
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                trig_valid_i,
  output logic                trig_ready_o,
  input  logic [QBits-1:0]    trig_queue_i,
  input  logic [31:0]         trig_desc_i,
  input  logic [31:0]         trig_src_add_i,
  input  logic [31:0]         trig_dst_add_i,
  input  logic [1:0]          trig_upd_mode_i,
  input  logic [5:0]          trig_upd_idx_i,
  input  logic [7:0]          trig_upd_value_i,
  input  logic [2:0]          trig_seq_i,
  input  logic [31:0]         trig_pc_i,
  output logic                sem_valid_o,
  output logic [1:0]          sem_mode_o,
  output logic [5:0]          sem_idx_o,
  output logic [7:0]          sem_value_o,
  input  logic [31:0]         desc_base_i,
  input  logic [31:0]         hbm_size_i,
  input  logic [31:0]         watchdog_i,
  input  logic                oc_rd_stall_i,
  input  logic                oc_wr_stall_i,
  // BEGIN GENERATED: tern axi axi4 master m_axi Id=IdBits Data=DataBits Strb=DataBits/8
  output logic [IdBits-1:0]      m_axi_awid_o,
  output logic [31:0]            m_axi_awaddr_o,
  output logic [7:0]             m_axi_awlen_o,
  output logic [2:0]             m_axi_awsize_o,
  output logic [1:0]             m_axi_awburst_o,
  output logic                   m_axi_awvalid_o,
  input  logic                   m_axi_awready_i,
  output logic [DataBits-1:0]    m_axi_wdata_o,
  output logic [DataBits/8-1:0]  m_axi_wstrb_o,
  output logic                   m_axi_wlast_o,
  output logic                   m_axi_wvalid_o,
  input  logic                   m_axi_wready_i,
  input  logic [IdBits-1:0]      m_axi_bid_i,
  input  logic [1:0]             m_axi_bresp_i,
  input  logic                   m_axi_bvalid_i,
  output logic                   m_axi_bready_o,
  output logic [IdBits-1:0]      m_axi_arid_o,
  output logic [31:0]            m_axi_araddr_o,
  output logic [7:0]             m_axi_arlen_o,
  output logic [2:0]             m_axi_arsize_o,
  output logic [1:0]             m_axi_arburst_o,
  output logic                   m_axi_arvalid_o,
  input  logic                   m_axi_arready_i,
  input  logic [IdBits-1:0]      m_axi_rid_i,
  input  logic [DataBits-1:0]    m_axi_rdata_i,
  input  logic [1:0]             m_axi_rresp_i,
  input  logic                   m_axi_rlast_i,
  input  logic                   m_axi_rvalid_i,
  output logic                   m_axi_rready_o,
  // END GENERATED: tern axi
  output logic                busy_o,
  output logic                err_valid_o,
  output logic [3:0]          err_code_o,
  output logic [3:0]          err_detail_o,
  output logic [QBits-1:0]    err_queue_o,
  output logic [31:0]         err_desc_o,
  output logic [2:0]          err_seq_o,
  output logic [31:0]         err_pc_o,
  output logic [63:0]         bytes_read_o,
  output logic [63:0]         bytes_written_o,
  output logic [7:0]          outstanding_hwm_o,
  output logic                trace_active_o,
  output logic                trace_end_o,     // it ends (done or fault) this cycle
  output logic [QBits-1:0]    trace_queue_o,
  output logic [31:0]         trace_desc_o,
  output logic [31:0]         trace_pc_o,
  output logic [2:0]          trace_seq_o,
  // backdoor: one aligned word of one partition of SBUF (psum 0) or PSUM (psum 1)
  input  logic                bd_valid_i,
  input  logic                bd_write_i,
  input  logic                bd_psum_i,
  input  logic [7:0]          bd_partition_i,
  input  logic [31:0]         bd_addr_i,
  input  logic [31:0]         bd_wdata_i,
  output logic [31:0]         bd_rdata_o
);

  localparam int unsigned SAw = $clog2(SbufBytes);
  localparam int unsigned PAw = $clog2(PsumBytes);

  logic           oc_rd_valid, oc_rd_psum, oc_wr_valid, oc_wr_psum, oc_rd_row, oc_wr_row;
  logic [7:0]     oc_rd_part;
  logic [RowBytes-1:0] oc_wr_strb;
  logic [31:0]    oc_rd_addr, oc_wr_addr;
  logic [2:0]     oc_wr_bytes;
  logic [P-1:0]   oc_wr_mask;
  logic [P*32-1:0] oc_wr_data, oc_rd_data, sbuf_rd_data, psum_rd_data;
  logic           rd_psum_q;
  // The memories' backdoor moves a word of every partition; this bench's port one of one.
  logic [P*32-1:0] sbuf_bd_rdata, psum_bd_rdata;
  logic [P-1:0]    bd_mask;
  assign bd_mask = P'(1) << bd_partition_i;

  tern_dma #(.DataBits(DataBits)) u_dma (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .trig_valid_i(trig_valid_i), .trig_ready_o(trig_ready_o), .trig_queue_i(trig_queue_i),
    .trig_desc_i(trig_desc_i), .trig_src_add_i(trig_src_add_i), .trig_dst_add_i(trig_dst_add_i),
    .trig_upd_mode_i(trig_upd_mode_i), .trig_upd_idx_i(trig_upd_idx_i),
    .trig_upd_value_i(trig_upd_value_i), .trig_seq_i(trig_seq_i), .trig_pc_i(trig_pc_i),
    .sem_valid_o(sem_valid_o), .sem_mode_o(sem_mode_o), .sem_idx_o(sem_idx_o),
    .sem_value_o(sem_value_o), .desc_base_i(desc_base_i), .hbm_size_i(hbm_size_i),
    .watchdog_i(watchdog_i),
    .oc_rd_valid_o(oc_rd_valid), .oc_rd_ready_i(!oc_rd_stall_i), .oc_rd_psum_o(oc_rd_psum),
    .oc_rd_addr_o(oc_rd_addr), .oc_rd_row_o(oc_rd_row), .oc_rd_part_o(oc_rd_part),
    .oc_rd_data_i(oc_rd_data),
    .oc_wr_valid_o(oc_wr_valid), .oc_wr_ready_i(!oc_wr_stall_i), .oc_wr_psum_o(oc_wr_psum),
    .oc_wr_addr_o(oc_wr_addr), .oc_wr_bytes_o(oc_wr_bytes), .oc_wr_mask_o(oc_wr_mask),
    .oc_wr_data_o(oc_wr_data), .oc_wr_row_o(oc_wr_row), .oc_wr_strb_o(oc_wr_strb),
    .m_axi_awid_o(m_axi_awid_o), .m_axi_awaddr_o(m_axi_awaddr_o), .m_axi_awlen_o(m_axi_awlen_o),
    .m_axi_awsize_o(m_axi_awsize_o), .m_axi_awburst_o(m_axi_awburst_o),
    .m_axi_awvalid_o(m_axi_awvalid_o), .m_axi_awready_i(m_axi_awready_i),
    .m_axi_wdata_o(m_axi_wdata_o), .m_axi_wstrb_o(m_axi_wstrb_o), .m_axi_wlast_o(m_axi_wlast_o),
    .m_axi_wvalid_o(m_axi_wvalid_o), .m_axi_wready_i(m_axi_wready_i),
    .m_axi_bid_i(m_axi_bid_i), .m_axi_bresp_i(m_axi_bresp_i), .m_axi_bvalid_i(m_axi_bvalid_i),
    .m_axi_bready_o(m_axi_bready_o),
    .m_axi_arid_o(m_axi_arid_o), .m_axi_araddr_o(m_axi_araddr_o), .m_axi_arlen_o(m_axi_arlen_o),
    .m_axi_arsize_o(m_axi_arsize_o), .m_axi_arburst_o(m_axi_arburst_o),
    .m_axi_arvalid_o(m_axi_arvalid_o), .m_axi_arready_i(m_axi_arready_i),
    .m_axi_rid_i(m_axi_rid_i), .m_axi_rdata_i(m_axi_rdata_i), .m_axi_rresp_i(m_axi_rresp_i),
    .m_axi_rlast_i(m_axi_rlast_i), .m_axi_rvalid_i(m_axi_rvalid_i),
    .m_axi_rready_o(m_axi_rready_o),
    .busy_o(busy_o), .err_valid_o(err_valid_o), .err_code_o(err_code_o),
    .err_detail_o(err_detail_o), .err_queue_o(err_queue_o), .err_desc_o(err_desc_o),
    .err_seq_o(err_seq_o), .err_pc_o(err_pc_o), .bytes_read_o(bytes_read_o),
    .bytes_written_o(bytes_written_o), .outstanding_hwm_o(outstanding_hwm_o),
    .trace_active_o, .trace_end_o, .trace_queue_o, .trace_desc_o, .trace_pc_o, .trace_seq_o
  );

  logic rd_hs;
  assign rd_hs = oc_rd_valid && !oc_rd_stall_i;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)    rd_psum_q <= 1'b0;
    else if (rd_hs) rd_psum_q <= oc_rd_psum;
  end
  assign oc_rd_data = rd_psum_q ? psum_rd_data : sbuf_rd_data;

  logic sbuf_wr_ready_unused, psum_wr_ready_unused;  // no Tensor Engine port here: always ready
  logic [P*32-1:0] sbuf_chunk_unused, psum_chunk_unused;  // the DMA engines read rows
  tern_lane_mem #(.P(P), .Bytes(SbufBytes), .RowBytes(RowBytes)) u_sbuf (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .rd_valid_i(rd_hs && !oc_rd_psum), .rd_addr_i(oc_rd_addr[SAw-1:0]), .rd_row_i(oc_rd_row),
    .rd_part_i(oc_rd_part), .rd_data_o(sbuf_rd_data), .rd_chunk_o(sbuf_chunk_unused),
    .wr_valid_i(oc_wr_valid && !oc_wr_stall_i && !oc_wr_psum), .wr_addr_i(oc_wr_addr[SAw-1:0]),
    .wr_bytes_i(oc_wr_bytes), .wr_mask_i(oc_wr_mask), .wr_data_i(oc_wr_data),
    .wr_row_i(oc_wr_row), .wr_strb_i(oc_wr_strb),
    .wr_ready_o(sbuf_wr_ready_unused),
    .te_we_i('0), .te_acc_i('0), .te_addr_i('0), .te_data_i('0),
    .bd_valid_i(bd_valid_i && !bd_psum_i), .bd_write_i(bd_write_i),
    .bd_mask_i(bd_mask), .bd_addr_i(bd_addr_i[SAw-1:0]), .bd_wdata_i({P{bd_wdata_i}}),
    .ecc_arm_i(1'b0), .ecc_inj_part_i('0), .ecc_inj_off_i('0), .ecc_inj_flip_i('0),
    .ecc_scrub_i(1'b0), .ecc_clear_i(1'b0), .ecc_armed_o(), .ecc_busy_o(), .ecc_ce_o(),
    .ecc_ue_o(), .ecc_ue_valid_o(), .ecc_ue_addr_o(),
    .bd_rdata_o(sbuf_bd_rdata)
  );
  tern_lane_mem #(.P(P), .Bytes(PsumBytes)) u_psum (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .rd_valid_i(rd_hs && oc_rd_psum), .rd_addr_i(oc_rd_addr[PAw-1:0]), .rd_row_i(1'b0),
    .rd_part_i(8'd0), .rd_data_o(psum_rd_data), .rd_chunk_o(psum_chunk_unused),
    .wr_valid_i(oc_wr_valid && !oc_wr_stall_i && oc_wr_psum), .wr_addr_i(oc_wr_addr[PAw-1:0]),
    .wr_bytes_i(oc_wr_bytes), .wr_mask_i(oc_wr_mask), .wr_data_i(oc_wr_data),
    .wr_row_i(1'b0), .wr_strb_i(4'd0),
    .wr_ready_o(psum_wr_ready_unused),
    .te_we_i('0), .te_acc_i('0), .te_addr_i('0), .te_data_i('0),
    .bd_valid_i(bd_valid_i && bd_psum_i), .bd_write_i(bd_write_i),
    .bd_mask_i(bd_mask), .bd_addr_i(bd_addr_i[PAw-1:0]), .bd_wdata_i({P{bd_wdata_i}}),
    .ecc_arm_i(1'b0), .ecc_inj_part_i('0), .ecc_inj_off_i('0), .ecc_inj_flip_i('0),
    .ecc_scrub_i(1'b0), .ecc_clear_i(1'b0), .ecc_armed_o(), .ecc_busy_o(), .ecc_ce_o(),
    .ecc_ue_o(), .ecc_ue_valid_o(), .ecc_ue_addr_o(),
    .bd_rdata_o(psum_bd_rdata)
  );
  assign bd_rdata_o = bd_psum_i ? psum_bd_rdata[32*bd_partition_i +: 32] : sbuf_bd_rdata[32*bd_partition_i +: 32];
  logic unused_ready;
  assign unused_ready = sbuf_wr_ready_unused ^ psum_wr_ready_unused ^ (^sbuf_chunk_unused) ^
                        (^psum_chunk_unused);

endmodule
