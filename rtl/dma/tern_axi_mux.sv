// tern_axi_mux: N AXI4 masters onto one master port. The master index is prepended to the ID,
// AR and AW are arbitrated round-robin (a grant holds while its valid waits for ready, so the
// payload stays stable), W beats follow the order in which the AWs were accepted (a master's W
// beats pass only after its AW has: masters must not lead with W), and R and B are routed back
// by the ID's top bits. Master i's ports are the slices [i*W +: W] of the flat s_* vectors.
module tern_axi_mux #(
  parameter int unsigned N = 2,
  parameter int unsigned IdBits = 4,          // of each master
  parameter int unsigned DataBits = 64,
  parameter int unsigned WOrderDepth = 8,     // AWs whose W beats have not all passed
  localparam int unsigned MBits = (N > 1) ? $clog2(N) : 1,
  localparam int unsigned OutIdBits = IdBits + MBits,
  localparam int unsigned Bytes = DataBits / 8
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // from the masters
  input  logic [N*IdBits-1:0]    s_awid_i,
  input  logic [N*32-1:0]        s_awaddr_i,
  input  logic [N*8-1:0]         s_awlen_i,
  input  logic [N*3-1:0]         s_awsize_i,
  input  logic [N*2-1:0]         s_awburst_i,
  input  logic [N-1:0]           s_awvalid_i,
  output logic [N-1:0]           s_awready_o,
  input  logic [N*DataBits-1:0]  s_wdata_i,
  input  logic [N*Bytes-1:0]     s_wstrb_i,
  input  logic [N-1:0]           s_wlast_i,
  input  logic [N-1:0]           s_wvalid_i,
  output logic [N-1:0]           s_wready_o,
  output logic [IdBits-1:0]      s_bid_o,        // shared; s_bvalid_o says whose
  output logic [1:0]             s_bresp_o,
  output logic [N-1:0]           s_bvalid_o,
  input  logic [N-1:0]           s_bready_i,
  input  logic [N*IdBits-1:0]    s_arid_i,
  input  logic [N*32-1:0]        s_araddr_i,
  input  logic [N*8-1:0]         s_arlen_i,
  input  logic [N*3-1:0]         s_arsize_i,
  input  logic [N*2-1:0]         s_arburst_i,
  input  logic [N-1:0]           s_arvalid_i,
  output logic [N-1:0]           s_arready_o,
  output logic [IdBits-1:0]      s_rid_o,
  output logic [DataBits-1:0]    s_rdata_o,
  output logic [1:0]             s_rresp_o,
  output logic                   s_rlast_o,
  output logic [N-1:0]           s_rvalid_o,
  input  logic [N-1:0]           s_rready_i,
  // to the memory
  // BEGIN GENERATED: tern axi axi4 master m_axi Id=OutIdBits Data=DataBits Strb=Bytes last
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
  output logic                  m_axi_rready_o
  // END GENERATED: tern axi
);

  // --- AR: round-robin, the grant held while the slave stalls ------------------------------
  logic [MBits-1:0] ar_rr_q, ar_rr_d, ar_sel_q, ar_sel_d, ar_sel;
  logic             ar_lock_q, ar_lock_d, ar_any;
  always_comb begin
    logic [31:0] idx;
    idx    = '0;
    ar_any = 1'b0;
    ar_sel = ar_sel_q;
    if (!ar_lock_q) begin
      for (int unsigned i = 1; i <= N; i++) begin
        idx = 32'(ar_rr_q) + i;
        if (idx >= N) idx = idx - N;
        if (!ar_any && s_arvalid_i[idx[MBits-1:0]]) begin
          ar_any = 1'b1;
          ar_sel = idx[MBits-1:0];
        end
      end
    end else begin
      ar_any = 1'b1;
    end
  end
  assign m_axi_arvalid_o = ar_any && s_arvalid_i[ar_sel];
  assign m_axi_arid_o    = {ar_sel, s_arid_i[IdBits*ar_sel +: IdBits]};
  assign m_axi_araddr_o  = s_araddr_i[32*ar_sel +: 32];
  assign m_axi_arlen_o   = s_arlen_i[8*ar_sel +: 8];
  assign m_axi_arsize_o  = s_arsize_i[3*ar_sel +: 3];
  assign m_axi_arburst_o = s_arburst_i[2*ar_sel +: 2];
  always_comb begin
    s_arready_o = '0;
    s_arready_o[ar_sel] = ar_any && m_axi_arready_i;
  end
  always_comb begin
    ar_rr_d   = ar_rr_q;
    ar_lock_d = ar_lock_q;
    ar_sel_d  = ar_sel_q;
    if (m_axi_arvalid_o && m_axi_arready_i) begin
      ar_rr_d   = ar_sel;
      ar_lock_d = 1'b0;
    end else if (m_axi_arvalid_o) begin
      ar_lock_d = 1'b1;
      ar_sel_d  = ar_sel;
    end
  end

  // --- AW: the same, and the W order FIFO ---------------------------------------------------
  logic [MBits-1:0] aw_rr_q, aw_rr_d, aw_sel_q, aw_sel_d, aw_sel;
  logic             aw_lock_q, aw_lock_d, aw_any;
  logic             wo_full, wo_empty, wo_push, wo_pop;
  logic [MBits-1:0] wo_head;
  logic [$clog2(WOrderDepth):0] wo_count;
  always_comb begin
    logic [31:0] idx;
    idx    = '0;
    aw_any = 1'b0;
    aw_sel = aw_sel_q;
    if (!aw_lock_q) begin
      for (int unsigned i = 1; i <= N; i++) begin
        idx = 32'(aw_rr_q) + i;
        if (idx >= N) idx = idx - N;
        if (!aw_any && s_awvalid_i[idx[MBits-1:0]]) begin
          aw_any = 1'b1;
          aw_sel = idx[MBits-1:0];
        end
      end
    end else begin
      aw_any = 1'b1;
    end
  end
  // While the W order FIFO is full no AW is offered (valid only rises with room).
  assign m_axi_awvalid_o = aw_any && s_awvalid_i[aw_sel] && (!wo_full || aw_lock_q);
  assign m_axi_awid_o    = {aw_sel, s_awid_i[IdBits*aw_sel +: IdBits]};
  assign m_axi_awaddr_o  = s_awaddr_i[32*aw_sel +: 32];
  assign m_axi_awlen_o   = s_awlen_i[8*aw_sel +: 8];
  assign m_axi_awsize_o  = s_awsize_i[3*aw_sel +: 3];
  assign m_axi_awburst_o = s_awburst_i[2*aw_sel +: 2];
  assign wo_push         = m_axi_awvalid_o && m_axi_awready_i;
  always_comb begin
    s_awready_o = '0;
    s_awready_o[aw_sel] = m_axi_awvalid_o && m_axi_awready_i;
  end
  always_comb begin
    aw_rr_d   = aw_rr_q;
    aw_lock_d = aw_lock_q;
    aw_sel_d  = aw_sel_q;
    if (wo_push) begin
      aw_rr_d   = aw_sel;
      aw_lock_d = 1'b0;
    end else if (m_axi_awvalid_o) begin
      aw_lock_d = 1'b1;
      aw_sel_d  = aw_sel;
    end
  end

  // A locked AW found room when it rose, and nothing else pushes meanwhile.
  tern_fifo #(.Width(MBits), .Depth(WOrderDepth)) u_worder (
    .clk_i(clk_i), .rst_ni(rst_ni), .flush_i(1'b0), .push_i(wo_push), .data_i(aw_sel),
    .full_o(wo_full), .pop_i(wo_pop), .data_o(wo_head), .empty_o(wo_empty), .count_o(wo_count)
  );

  // --- W: the beats of the oldest AW whose data has not all passed ---------------------------
  assign m_axi_wvalid_o = !wo_empty && s_wvalid_i[wo_head];
  assign m_axi_wdata_o  = s_wdata_i[DataBits*wo_head +: DataBits];
  assign m_axi_wstrb_o  = s_wstrb_i[Bytes*wo_head +: Bytes];
  assign m_axi_wlast_o  = s_wlast_i[wo_head];
  assign wo_pop         = m_axi_wvalid_o && m_axi_wready_i && m_axi_wlast_o;
  always_comb begin
    s_wready_o = '0;
    s_wready_o[wo_head] = !wo_empty && m_axi_wready_i;
  end

  // --- R and B: routed by the ID's top bits ----------------------------------------------------
  logic [MBits-1:0] r_dst, b_dst;
  assign r_dst          = m_axi_rid_i[IdBits +: MBits];
  assign b_dst          = m_axi_bid_i[IdBits +: MBits];
  assign s_rid_o        = m_axi_rid_i[IdBits-1:0];
  assign s_rdata_o      = m_axi_rdata_i;
  assign s_rresp_o      = m_axi_rresp_i;
  assign s_rlast_o      = m_axi_rlast_i;
  assign s_bid_o        = m_axi_bid_i[IdBits-1:0];
  assign s_bresp_o      = m_axi_bresp_i;
  assign m_axi_rready_o = s_rready_i[r_dst];
  assign m_axi_bready_o = s_bready_i[b_dst];
  always_comb begin
    s_rvalid_o = '0;
    s_bvalid_o = '0;
    s_rvalid_o[r_dst] = m_axi_rvalid_i;
    s_bvalid_o[b_dst] = m_axi_bvalid_i;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ar_rr_q   <= MBits'(N - 1);
      ar_sel_q  <= '0;
      ar_lock_q <= 1'b0;
      aw_rr_q   <= MBits'(N - 1);
      aw_sel_q  <= '0;
      aw_lock_q <= 1'b0;
    end else begin
      ar_rr_q   <= ar_rr_d;
      ar_sel_q  <= ar_sel_d;
      ar_lock_q <= ar_lock_d;
      aw_rr_q   <= aw_rr_d;
      aw_sel_q  <= aw_sel_d;
      aw_lock_q <= aw_lock_d;
    end
  end

  logic unused;
  assign unused = ^wo_count;

endmodule
