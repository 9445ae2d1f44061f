// tern_dma_backend: the DMA engine's AXI4 master. It only moves bytes: it takes 1-D runs
// (byte address, length) for reading and for writing, legalises each into INCR bursts of
// full-width beats (at most 256 beats, never crossing a 4 KiB boundary, the first beat starting
// at the run's unaligned address), and keeps up to MaxOut reads and MaxOut writes in flight on
// one ID each (so responses return in order). Data moves as a byte stream in both directions:
// the read side offers the bytes of the current beat (rd_avail_o, byte 0 of rd_data_o first)
// and the consumer says how many it takes this cycle; the write side takes as many of the
// offered bytes as fit the current beat and tells how many (wr_take_o), filling WSTRB. A beat
// a cycle each way: a beat is replaced (R) or sent (W) in the cycle its last byte moves.
module tern_dma_backend #(
  parameter int unsigned DataBits = tern_cfg_pkg::AxiDataBits,
  parameter int unsigned IdBits = 4,
  parameter int unsigned MaxOut = 8,       // per direction, a power of two
  localparam int unsigned Bytes = DataBits / 8,
  localparam int unsigned Wb = $clog2(Bytes),
  localparam int unsigned OutBits = $clog2(MaxOut) + 1
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  // read runs in, bytes out (in run order)
  input  logic                rd_req_valid_i,
  output logic                rd_req_ready_o,
  input  logic [31:0]         rd_req_addr_i,
  input  logic [18:0]         rd_req_bytes_i,
  output logic                rd_valid_o,      // a beat holds bytes not yet taken
  output logic [DataBits-1:0] rd_data_o,       // those bytes, the next one in byte 0
  output logic [Wb:0]         rd_avail_o,      // how many (to the beat's or the burst's end)
  input  logic [Wb:0]         rd_take_i,       // taken this cycle (<= rd_avail_o; 0: none)
  // write runs and bytes in
  input  logic                wr_req_valid_i,
  output logic                wr_req_ready_o,
  input  logic [31:0]         wr_req_addr_i,
  input  logic [18:0]         wr_req_bytes_i,
  input  logic [DataBits-1:0] wr_data_i,       // offered bytes, the next one in byte 0
  input  logic [Wb:0]         wr_avail_i,      // how many are offered (0: none)
  output logic [Wb:0]         wr_take_o,       // taken this cycle
  input  logic                wr_suppress_i,   // after an error: beats go out with no strobes
  // status
  output logic                wr_idle_o,       // no write run pending, every B received
  output logic                rd_err_o,        // an R beat with SLVERR/DECERR (pulse)
  output logic                wr_err_o,        // a B with SLVERR/DECERR (pulse)
  output logic                err_dec_o,       // with rd_err_o / wr_err_o: DECERR (R first)
  output logic [OutBits:0]    outstanding_o,   // reads + writes in flight
  // AXI4 master
  // BEGIN GENERATED: tern axi axi4 master m_axi Id=IdBits Data=DataBits Strb=Bytes last
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
  output logic                 m_axi_rready_o
  // END GENERATED: tern axi
);

  // A burst as the unpacker/packer sees it: first-beat offset, bytes.
  localparam int unsigned BurstBits = Wb + 13;

  logic [$clog2(MaxOut):0] rb_count, wb_count;
  logic unused;
  assign unused = ^{m_axi_bid_i, m_axi_rid_i, rb_count, wb_count};

  // --- Burst splitting (the same rule both ways) ------------------------------------------
  // Bytes of the next burst of a run at addr with left bytes: up to the 4 KiB page end and up
  // to 256 beats.
  function automatic logic [12:0] burst_bytes(logic [11:0] addr, logic [18:0] left);
    logic [12:0] page_left;
    logic [19:0] beat_left;
    logic [19:0] b;
    page_left = 13'd4096 - {1'b0, addr};
    beat_left = 20'(256 * Bytes) - 20'(addr[Wb-1:0]);
    b = 20'(left);
    if (b > 20'(page_left)) b = 20'(page_left);
    if (b > beat_left) b = beat_left;
    burst_bytes = b[12:0];
  endfunction

  // --- Read side ----------------------------------------------------------------------------
  logic        rrun_q, rrun_d;
  logic [31:0] raddr_q, raddr_d;
  logic [18:0] rleft_q, rleft_d;
  logic [12:0] rburst;
  logic [OutBits-1:0] rout_q, rout_d;
  logic        rb_full, rb_empty, rb_pop;
  logic [BurstBits-1:0] rb_head;
  logic        ar_hs, r_hs;

  assign rburst          = burst_bytes(raddr_q[11:0], rleft_q);
  assign rd_req_ready_o  = !rrun_q;
  assign m_axi_arvalid_o = rrun_q && !rb_full && rout_q != OutBits'(MaxOut);
  assign m_axi_arid_o    = '0;
  assign m_axi_araddr_o  = raddr_q;
  assign m_axi_arlen_o   = 8'((32'(raddr_q[Wb-1:0]) + 32'(rburst) - 32'd1) >> Wb);
  assign m_axi_arsize_o  = 3'(Wb);
  assign m_axi_arburst_o = 2'b01;
  assign ar_hs           = m_axi_arvalid_o && m_axi_arready_i;

  always_comb begin
    rrun_d  = rrun_q;
    raddr_d = raddr_q;
    rleft_d = rleft_q;
    if (!rrun_q && rd_req_valid_i) begin
      rrun_d  = 1'b1;
      raddr_d = rd_req_addr_i;
      rleft_d = rd_req_bytes_i;
    end else if (ar_hs) begin
      raddr_d = raddr_q + 32'(rburst);
      rleft_d = rleft_q - 19'(rburst);
      if (rleft_q == 19'(rburst)) rrun_d = 1'b0;
    end
  end

  tern_fifo #(.Width(BurstBits), .Depth(MaxOut)) u_rbursts (
    .clk_i(clk_i), .rst_ni(rst_ni), .flush_i(1'b0),
    .push_i(ar_hs), .data_i({raddr_q[Wb-1:0], rburst}), .full_o(rb_full),
    .pop_i(rb_pop), .data_o(rb_head), .empty_o(rb_empty), .count_o(rb_count)
  );

  // Unpacker: one beat held; bytes leave from ptr. A burst's first beat takes its offset and
  // length from the burst FIFO's head when its first byte leaves, so the next burst's first
  // beat can arrive in the cycle the previous burst's last byte leaves.
  logic [DataBits-1:0] rbeat_q, rbeat_d;
  logic                rbeat_v_q, rbeat_v_d;
  logic                rin_q, rin_d;       // inside a burst (ptr/left loaded)
  logic [Wb-1:0]       rptr_q, rptr_d;
  logic [12:0]         rbl_q, rbl_d;       // bytes of the burst not yet handed out
  logic [Wb:0]         rp, rpn, rtake;
  logic [12:0]         rl;
  logic                rbeat_done;

  assign rp    = {1'b0, rin_q ? rptr_q : rb_head[13 +: Wb]};
  assign rl    = rin_q ? rbl_q : rb_head[0 +: 13];
  assign rtake = rbeat_v_q ? rd_take_i : '0;
  assign rpn   = rp + rtake;
  assign rbeat_done = rtake != '0 && (rl == 13'(rtake) || rpn == (Wb + 1)'(Bytes));
  always_comb begin
    rd_avail_o = (Wb + 1)'(Bytes) - rp;
    if (13'(rd_avail_o) > rl) rd_avail_o = (Wb + 1)'(rl);
  end
  assign rd_valid_o     = rbeat_v_q;
  assign rd_data_o      = rbeat_q >> {rp, 3'b000};
  assign m_axi_rready_o = !rb_empty && (!rbeat_v_q || rbeat_done);
  assign r_hs           = m_axi_rvalid_i && m_axi_rready_o;
  assign rd_err_o       = r_hs && tern_pkg::axi_resp_error(m_axi_rresp_i);

  always_comb begin
    rbeat_d   = rbeat_q;
    rbeat_v_d = rbeat_v_q && !rbeat_done;
    rin_d     = rin_q;
    rptr_d    = rptr_q;
    rbl_d     = rbl_q;
    rb_pop    = 1'b0;
    if (rtake != '0) begin
      rin_d  = rl != 13'(rtake);
      rb_pop = rl == 13'(rtake);
      rptr_d = rpn[Wb-1:0];
      rbl_d  = rl - 13'(rtake);
    end
    if (r_hs) begin
      rbeat_d   = m_axi_rdata_i;
      rbeat_v_d = 1'b1;
    end
  end

  always_comb begin
    rout_d = rout_q;
    if (ar_hs) rout_d = rout_d + 1'b1;
    if (r_hs && m_axi_rlast_i) rout_d = rout_d - 1'b1;
  end

  // --- Write side ---------------------------------------------------------------------------
  logic        wrun_q, wrun_d;
  logic [31:0] waddr_q, waddr_d;
  logic [18:0] wleft_q, wleft_d;
  logic [12:0] wburst;
  logic [OutBits-1:0] wout_q, wout_d;
  logic        wb_full, wb_empty, wb_pop;
  logic [BurstBits-1:0] wb_head;
  logic        aw_hs, w_hs, b_hs;

  assign wburst          = burst_bytes(waddr_q[11:0], wleft_q);
  assign wr_req_ready_o  = !wrun_q;
  assign m_axi_awvalid_o = wrun_q && !wb_full && wout_q != OutBits'(MaxOut);
  assign m_axi_awid_o    = '0;
  assign m_axi_awaddr_o  = waddr_q;
  assign m_axi_awlen_o   = 8'((32'(waddr_q[Wb-1:0]) + 32'(wburst) - 32'd1) >> Wb);
  assign m_axi_awsize_o  = 3'(Wb);
  assign m_axi_awburst_o = 2'b01;
  assign aw_hs           = m_axi_awvalid_o && m_axi_awready_i;
  assign m_axi_bready_o  = 1'b1;
  assign b_hs            = m_axi_bvalid_i;
  assign wr_err_o        = b_hs && tern_pkg::axi_resp_error(m_axi_bresp_i);
  assign err_dec_o       = (rd_err_o ? m_axi_rresp_i : m_axi_bresp_i) == tern_pkg::AxiRespDecerr;

  always_comb begin
    wrun_d  = wrun_q;
    waddr_d = waddr_q;
    wleft_d = wleft_q;
    if (!wrun_q && wr_req_valid_i) begin
      wrun_d  = 1'b1;
      waddr_d = wr_req_addr_i;
      wleft_d = wr_req_bytes_i;
    end else if (aw_hs) begin
      waddr_d = waddr_q + 32'(wburst);
      wleft_d = wleft_q - 19'(wburst);
      if (wleft_q == 19'(wburst)) wrun_d = 1'b0;
    end
  end

  // A burst's W beats may start once its AW is accepted.
  tern_fifo #(.Width(BurstBits), .Depth(MaxOut)) u_wbursts (
    .clk_i(clk_i), .rst_ni(rst_ni), .flush_i(1'b0),
    .push_i(aw_hs), .data_i({waddr_q[Wb-1:0], wburst}), .full_o(wb_full),
    .pop_i(wb_pop), .data_o(wb_head), .empty_o(wb_empty), .count_o(wb_count)
  );

  // Packer: offered bytes fill the beat from ptr; a full beat (or the burst's end) goes out,
  // and the next beat fills in the cycle it leaves.
  logic [DataBits-1:0] wbeat_q, wbeat_d;
  logic [Bytes-1:0]    wstrb_q, wstrb_d;
  logic                wfull_q, wfull_d;
  logic                wlast_q, wlast_d;
  logic                win_q, win_d;
  logic [Wb-1:0]       wptr_q, wptr_d;
  logic [12:0]         wbl_q, wbl_d;
  logic [Wb:0]         wp, wpn, wtake;
  logic [12:0]         wl;
  logic [DataBits-1:0] wshift;
  logic [Bytes-1:0]    wmask;

  assign wp = {1'b0, win_q ? wptr_q : wb_head[13 +: Wb]};
  assign wl = win_q ? wbl_q : wb_head[0 +: 13];
  always_comb begin
    wtake = '0;
    if (!wb_empty && (!wfull_q || m_axi_wready_i)) begin
      wtake = (Wb + 1)'(Bytes) - wp;
      if (13'(wtake) > wl) wtake = (Wb + 1)'(wl);
      if (wtake > wr_avail_i) wtake = wr_avail_i;
    end
  end
  assign wr_take_o = wtake;
  assign wpn       = wp + wtake;
  assign wshift    = wr_data_i << {wp, 3'b000};
  always_comb begin
    for (int unsigned i = 0; i < Bytes; i++) wmask[i] = i >= 32'(wp) && i < 32'(wpn);
  end

  assign m_axi_wvalid_o  = wfull_q;
  assign m_axi_wdata_o   = wbeat_q;
  assign m_axi_wstrb_o   = wstrb_q;
  assign m_axi_wlast_o   = wlast_q;
  assign w_hs            = wfull_q && m_axi_wready_i;

  always_comb begin
    wbeat_d = wbeat_q;
    wstrb_d = wstrb_q;
    wfull_d = wfull_q;
    wlast_d = wlast_q;
    win_d   = win_q;
    wptr_d  = wptr_q;
    wbl_d   = wbl_q;
    wb_pop  = 1'b0;
    if (w_hs) begin
      wfull_d = 1'b0;
      wstrb_d = '0;
    end
    if (wtake != '0) begin
      for (int unsigned i = 0; i < Bytes; i++) begin
        if (wmask[i]) begin
          wbeat_d[8*i +: 8] = wshift[8*i +: 8];
          wstrb_d[i]        = !wr_suppress_i;
        end
      end
      win_d  = wl != 13'(wtake);
      wptr_d = wpn[Wb-1:0];
      wbl_d  = wl - 13'(wtake);
      if (wl == 13'(wtake)) begin
        wfull_d = 1'b1;
        wlast_d = 1'b1;
        wb_pop  = 1'b1;
      end else if (wpn == (Wb + 1)'(Bytes)) begin
        wfull_d = 1'b1;
        wlast_d = 1'b0;
      end
    end
  end

  always_comb begin
    wout_d = wout_q;
    if (aw_hs) wout_d = wout_d + 1'b1;
    if (b_hs)  wout_d = wout_d - 1'b1;
  end

  // Protocol and invariants, in simulation only (the memory model checks the same from outside).
`ifndef SYNTHESIS
  ar_stable: assert property (@(posedge clk_i) disable iff (!rst_ni)
    m_axi_arvalid_o && !m_axi_arready_i |=> m_axi_arvalid_o && $stable(m_axi_araddr_o) &&
                                           $stable(m_axi_arlen_o));
  aw_stable: assert property (@(posedge clk_i) disable iff (!rst_ni)
    m_axi_awvalid_o && !m_axi_awready_i |=> m_axi_awvalid_o && $stable(m_axi_awaddr_o) &&
                                           $stable(m_axi_awlen_o));
  w_stable: assert property (@(posedge clk_i) disable iff (!rst_ni)
    m_axi_wvalid_o && !m_axi_wready_i |=> m_axi_wvalid_o && $stable(m_axi_wdata_o) &&
                                         $stable(m_axi_wstrb_o) && $stable(m_axi_wlast_o));
  // The consumer never takes more than the beat offers.
  r_take_avail: assert property (@(posedge clk_i) disable iff (!rst_ni)
    rd_take_i <= rd_avail_o || !rbeat_v_q);
`endif

  assign wr_idle_o     = !wrun_q && wout_q == '0 && !wr_req_valid_i;
  assign outstanding_o = (OutBits + 1)'(rout_q) + (OutBits + 1)'(wout_q);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rrun_q    <= 1'b0;
      raddr_q   <= '0;
      rleft_q   <= '0;
      rout_q    <= '0;
      rbeat_q   <= '0;
      rbeat_v_q <= 1'b0;
      rin_q     <= 1'b0;
      rptr_q    <= '0;
      rbl_q     <= '0;
      wrun_q    <= 1'b0;
      waddr_q   <= '0;
      wleft_q   <= '0;
      wout_q    <= '0;
      wbeat_q   <= '0;
      wstrb_q   <= '0;
      wfull_q   <= 1'b0;
      wlast_q   <= 1'b0;
      win_q     <= 1'b0;
      wptr_q    <= '0;
      wbl_q     <= '0;
    end else begin
      rrun_q    <= rrun_d;
      raddr_q   <= raddr_d;
      rleft_q   <= rleft_d;
      rout_q    <= rout_d;
      rbeat_q   <= rbeat_d;
      rbeat_v_q <= rbeat_v_d;
      rin_q     <= rin_d;
      rptr_q    <= rptr_d;
      rbl_q     <= rbl_d;
      wrun_q    <= wrun_d;
      waddr_q   <= waddr_d;
      wleft_q   <= wleft_d;
      wout_q    <= wout_d;
      wbeat_q   <= wbeat_d;
      wstrb_q   <= wstrb_d;
      wfull_q   <= wfull_d;
      wlast_q   <= wlast_d;
      win_q     <= win_d;
      wptr_q    <= wptr_d;
      wbl_q     <= wbl_d;
    end
  end

endmodule
