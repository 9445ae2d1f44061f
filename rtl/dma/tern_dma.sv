// tern_dma: one DMA engine of the NeuronCore (docs/dma.md): NumQueues in-order queues
// (tern_dma_frontend), the descriptor checks and N-D pattern walks with the cast through fp32
// (tern_dma_midend), and the AXI4 master (tern_dma_backend). Golden semantics:
// model/core/core_model.cc run_transfer and model/core/memory.cc resolve_side.
module tern_dma #(
  parameter int unsigned NumQueues = tern_cfg_pkg::DmaQueues,
  parameter int unsigned P = tern_cfg_pkg::Partitions,
  parameter int unsigned SbufBytes = tern_cfg_pkg::SbufPartitionBytes,
  parameter int unsigned PsumBytes = tern_cfg_pkg::PsumBanks * tern_cfg_pkg::PsumBankBytes,
  parameter int unsigned DataBits = tern_cfg_pkg::AxiDataBits,
  parameter int unsigned IdBits = 4,
  parameter int unsigned MaxOut = 8,      // AXI reads and writes in flight, each
  parameter int unsigned TrigDepth = 4,   // triggers per queue
  parameter int unsigned RowBytes = tern_pkg::sbuf_row_bytes(DataBits / 8, P),  // SBUF row port
  localparam int unsigned QBits = (NumQueues > 1) ? $clog2(NumQueues) : 1,
  localparam int unsigned Bytes = DataBits / 8,
  localparam int unsigned Wb = $clog2(Bytes)
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  // triggers from the sequencers
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
  // semaphore update when a transfer has completed
  output logic                sem_valid_o,
  output logic [1:0]          sem_mode_o,
  output logic [5:0]          sem_idx_o,
  output logic [7:0]          sem_value_o,
  // config
  input  logic [31:0]         desc_base_i,
  input  logic [31:0]         hbm_size_i,
  input  logic [31:0]         watchdog_i,      // cycles one transfer may take; 0: no limit
  // SBUF / PSUM (tern_lane_mem-like: read data one cycle after the handshake)
  output logic                oc_rd_valid_o,
  input  logic                oc_rd_ready_i,
  output logic                oc_rd_psum_o,
  output logic [31:0]         oc_rd_addr_o,
  output logic                oc_rd_row_o,     // row mode (docs/dma.md): one partition's row
  output logic [7:0]          oc_rd_part_o,
  input  logic [P*32-1:0]     oc_rd_data_i,
  output logic                oc_wr_valid_o,
  input  logic                oc_wr_ready_i,
  output logic                oc_wr_psum_o,
  output logic [31:0]         oc_wr_addr_o,
  output logic [2:0]          oc_wr_bytes_o,
  output logic [P-1:0]        oc_wr_mask_o,
  output logic [P*32-1:0]     oc_wr_data_o,
  output logic                oc_wr_row_o,
  output logic [RowBytes-1:0] oc_wr_strb_o,
  // AXI4 master
  // BEGIN GENERATED: tern axi axi4 master m_axi Id=IdBits Data=DataBits Strb=Bytes
  output logic [IdBits-1:0]    m_axi_awid_o,
  output logic [31:0]          m_axi_awaddr_o,
  output logic [7:0]           m_axi_awlen_o,
  output logic [2:0]           m_axi_awsize_o,
  output logic [1:0]           m_axi_awburst_o,
  output logic                 m_axi_awvalid_o,
  input  logic                 m_axi_awready_i,
  output logic [DataBits-1:0]  m_axi_wdata_o,
  output logic [Bytes-1:0]     m_axi_wstrb_o,
  output logic                 m_axi_wlast_o,
  output logic                 m_axi_wvalid_o,
  input  logic                 m_axi_wready_i,
  input  logic [IdBits-1:0]    m_axi_bid_i,
  input  logic [1:0]           m_axi_bresp_i,
  input  logic                 m_axi_bvalid_i,
  output logic                 m_axi_bready_o,
  output logic [IdBits-1:0]    m_axi_arid_o,
  output logic [31:0]          m_axi_araddr_o,
  output logic [7:0]           m_axi_arlen_o,
  output logic [2:0]           m_axi_arsize_o,
  output logic [1:0]           m_axi_arburst_o,
  output logic                 m_axi_arvalid_o,
  input  logic                 m_axi_arready_i,
  input  logic [IdBits-1:0]    m_axi_rid_i,
  input  logic [DataBits-1:0]  m_axi_rdata_i,
  input  logic [1:0]           m_axi_rresp_i,
  input  logic                 m_axi_rlast_i,
  input  logic                 m_axi_rvalid_i,
  output logic                 m_axi_rready_o,
  // END GENERATED: tern axi
  // status
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
  // trace, for benches (the profiler's DMA timeline): the transfer under way
  output logic                trace_active_o,
  output logic                trace_end_o,     // it ends (done or fault) this cycle
  output logic [QBits-1:0]    trace_queue_o,
  output logic [31:0]         trace_desc_o,
  output logic [31:0]         trace_pc_o,
  output logic [2:0]          trace_seq_o
);

  localparam int unsigned OutBits = $clog2(MaxOut) + 1;

  // frontend <-> midend
  logic         fe2me_start;
  logic [511:0] fe2me_desc;
  logic [31:0]  fe2me_src_add, fe2me_dst_add;
  logic         me2fe_done, me2fe_fault, me_busy, fe_busy, fe_hung;
  logic [3:0]   me2fe_detail;

  // the backend's read path: the frontend's descriptor fetch or the midend's data
  logic        fetching;
  logic        fe_rd_req_valid, me_rd_req_valid, be_rd_req_valid, be_rd_req_ready;
  logic [31:0] fe_rd_req_addr, me_rd_req_addr, be_rd_req_addr;
  logic [18:0] me_rd_req_bytes, be_rd_req_bytes;
  logic        be_rd_valid, fe_rd_elem_ready;
  logic [DataBits-1:0] be_rd_data, me_wr_data;
  logic [Wb:0] be_rd_avail, be_rd_take, me_rd_take, me_wr_avail, be_wr_take;
  logic        me_wr_req_valid, be_wr_req_ready;
  logic [31:0] me_wr_req_addr;
  logic [18:0] me_wr_req_bytes;
  logic        me_wr_suppress, be_wr_idle, be_rd_err, be_wr_err, be_err_dec;
  logic [OutBits:0] be_outstanding;
  logic [63:0] me_rd_bytes, me_wr_bytes;

  // The descriptor arrives as 16 words: the frontend takes 4 bytes at a time.
  assign be_rd_req_valid = fetching ? fe_rd_req_valid : me_rd_req_valid;
  assign be_rd_req_addr  = fetching ? fe_rd_req_addr : me_rd_req_addr;
  assign be_rd_req_bytes = fetching ? 19'd64 : me_rd_req_bytes;
  assign be_rd_take      = fetching ? ((be_rd_valid && fe_rd_elem_ready) ? (Wb + 1)'(4) : '0)
                                    : me_rd_take;

  tern_dma_frontend #(.NumQueues(NumQueues), .TrigDepth(TrigDepth)) u_frontend (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .trig_valid_i(trig_valid_i), .trig_ready_o(trig_ready_o), .trig_queue_i(trig_queue_i),
    .trig_desc_i(trig_desc_i), .trig_src_add_i(trig_src_add_i), .trig_dst_add_i(trig_dst_add_i),
    .trig_upd_mode_i(trig_upd_mode_i), .trig_upd_idx_i(trig_upd_idx_i),
    .trig_upd_value_i(trig_upd_value_i), .trig_seq_i(trig_seq_i), .trig_pc_i(trig_pc_i),
    .desc_base_i(desc_base_i), .watchdog_i(watchdog_i),
    .rd_req_valid_o(fe_rd_req_valid), .rd_req_ready_i(be_rd_req_ready && fetching),
    .rd_req_addr_o(fe_rd_req_addr),
    .rd_elem_valid_i(be_rd_valid && fetching), .rd_elem_ready_o(fe_rd_elem_ready),
    .rd_elem_data_i(be_rd_data[31:0]), .rd_err_i(be_rd_err), .fetching_o(fetching),
    .start_o(fe2me_start), .desc_o(fe2me_desc), .src_add_o(fe2me_src_add),
    .dst_add_o(fe2me_dst_add), .done_i(me2fe_done), .fault_i(me2fe_fault),
    .detail_i(me2fe_detail),
    .sem_valid_o(sem_valid_o), .sem_mode_o(sem_mode_o), .sem_idx_o(sem_idx_o),
    .sem_value_o(sem_value_o), .busy_o(fe_busy), .hung_o(fe_hung),
    .err_valid_o(err_valid_o), .err_code_o(err_code_o), .err_detail_o(err_detail_o),
    .err_queue_o(err_queue_o), .err_desc_o(err_desc_o), .err_seq_o(err_seq_o),
    .err_pc_o(err_pc_o), .trace_active_o, .trace_end_o, .trace_queue_o, .trace_desc_o,
    .trace_pc_o, .trace_seq_o
  );

  tern_dma_midend #(
    .P(P), .SbufBytes(SbufBytes), .PsumBytes(PsumBytes), .DataBits(DataBits), .RowBytes(RowBytes)
  ) u_midend (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .start_i(fe2me_start), .desc_i(fe2me_desc), .src_add_i(fe2me_src_add),
    .dst_add_i(fe2me_dst_add), .hbm_size_i(hbm_size_i),
    .busy_o(me_busy), .done_o(me2fe_done), .fault_o(me2fe_fault), .detail_o(me2fe_detail),
    .elem_rd_bytes_o(me_rd_bytes), .elem_wr_bytes_o(me_wr_bytes),
    .rd_req_valid_o(me_rd_req_valid), .rd_req_ready_i(be_rd_req_ready && !fetching),
    .rd_req_addr_o(me_rd_req_addr), .rd_req_bytes_o(me_rd_req_bytes),
    .rd_valid_i(be_rd_valid && !fetching), .rd_data_i(be_rd_data), .rd_avail_i(be_rd_avail),
    .rd_take_o(me_rd_take),
    .wr_req_valid_o(me_wr_req_valid), .wr_req_ready_i(be_wr_req_ready),
    .wr_req_addr_o(me_wr_req_addr), .wr_req_bytes_o(me_wr_req_bytes),
    .wr_data_o(me_wr_data), .wr_avail_o(me_wr_avail), .wr_take_i(be_wr_take),
    .wr_suppress_o(me_wr_suppress), .wr_idle_i(be_wr_idle),
    .axi_err_i((be_rd_err && !fetching) || be_wr_err), .axi_dec_i(be_err_dec),
    .oc_rd_valid_o(oc_rd_valid_o), .oc_rd_ready_i(oc_rd_ready_i), .oc_rd_psum_o(oc_rd_psum_o),
    .oc_rd_addr_o(oc_rd_addr_o), .oc_rd_row_o(oc_rd_row_o), .oc_rd_part_o(oc_rd_part_o),
    .oc_rd_data_i(oc_rd_data_i),
    .oc_wr_valid_o(oc_wr_valid_o), .oc_wr_ready_i(oc_wr_ready_i), .oc_wr_psum_o(oc_wr_psum_o),
    .oc_wr_addr_o(oc_wr_addr_o), .oc_wr_bytes_o(oc_wr_bytes_o), .oc_wr_mask_o(oc_wr_mask_o),
    .oc_wr_data_o(oc_wr_data_o), .oc_wr_row_o(oc_wr_row_o), .oc_wr_strb_o(oc_wr_strb_o)
  );

  tern_dma_backend #(.DataBits(DataBits), .IdBits(IdBits), .MaxOut(MaxOut)) u_backend (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .rd_req_valid_i(be_rd_req_valid), .rd_req_ready_o(be_rd_req_ready),
    .rd_req_addr_i(be_rd_req_addr), .rd_req_bytes_i(be_rd_req_bytes),
    .rd_valid_o(be_rd_valid), .rd_data_o(be_rd_data), .rd_avail_o(be_rd_avail),
    .rd_take_i(be_rd_take),
    .wr_req_valid_i(me_wr_req_valid), .wr_req_ready_o(be_wr_req_ready),
    .wr_req_addr_i(me_wr_req_addr), .wr_req_bytes_i(me_wr_req_bytes),
    .wr_data_i(me_wr_data), .wr_avail_i(me_wr_avail), .wr_take_o(be_wr_take),
    .wr_suppress_i(me_wr_suppress),
    .wr_idle_o(be_wr_idle), .rd_err_o(be_rd_err), .wr_err_o(be_wr_err), .err_dec_o(be_err_dec),
    .outstanding_o(be_outstanding),
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
    .m_axi_rready_o(m_axi_rready_o)
  );

  // --- Counters -----------------------------------------------------------------------------
  logic [63:0] rd_bytes_q, wr_bytes_q;
  logic [7:0]  hwm_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_bytes_q <= '0;
      wr_bytes_q <= '0;
      hwm_q      <= '0;
    end else begin
      rd_bytes_q <= rd_bytes_q + me_rd_bytes;
      wr_bytes_q <= wr_bytes_q + me_wr_bytes;
      if (8'(be_outstanding) > hwm_q) hwm_q <= 8'(be_outstanding);
    end
  end
  assign bytes_read_o      = rd_bytes_q;
  assign bytes_written_o   = wr_bytes_q;
  assign outstanding_hwm_o = hwm_q;
  // After the watchdog the engine is stopped, whatever it still waits for: it reports idle.
  assign busy_o            = fe_busy || (me_busy && !fe_hung);

endmodule
