// tern_link_router: the chip's NeuronLink router (docs/link.md "Routing"). Port 0 is local (the
// DMA/collective engine injects and receives there), ports 1 + 2d and 2 + 2d the + and - links of
// torus dimension d. Dimension-order routing, the shorter way round each ring (a tie, exactly
// half way round, goes - from an odd coordinate and + from an even one), with a dateline VC per
// ring: a packet enters each dimension on dateline VC 0 and moves to VC 1 when
// it crosses the ring's wrap link (+ from k-1 to 0, - from 0 to k-1), keeping its message class
// (vc[1]). Each input delivers per VC (the link port's receive buffers); each output is a flit
// stream into a link port's transmitter (or the local sink). An output is given to one input VC
// for a whole packet, round-robin among the VCs whose head packet wants it, and only when the
// next link has credits for a packet of any size on the packet's new VC: a packet never waits
// for credits inside a link, so VCs never block each other (the deadlock argument).
module tern_link_router #(
  parameter int unsigned FlitBits = tern_link_pkg::FlitBits,
  parameter int unsigned NumVcs   = tern_link_pkg::NumVcs,
  parameter int unsigned NumDims  = 2,   // 1 ring, 2 or 3 torus
  parameter int unsigned DimX     = 4,
  parameter int unsigned DimY     = 4,
  parameter int unsigned DimZ     = 1,
  localparam int unsigned NumPorts = 1 + 2 * NumDims,
  localparam int unsigned NumReq   = NumPorts * NumVcs,
  localparam int unsigned CW       = tern_link_pkg::CoordBits
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  input  logic [3*CW-1:0]              coord_i,      // this chip: {z, y, x}
  // Inputs, per port and VC (index port * NumVcs + vc).
  input  logic [NumReq-1:0]            in_valid_i,
  input  logic [NumReq-1:0]            in_head_i,
  input  logic [NumReq*FlitBits-1:0]   in_flit_i,
  output logic [NumReq-1:0]            in_ready_o,
  // Outputs, per port.
  output logic [NumPorts-1:0]          out_valid_o,
  output logic [NumPorts*FlitBits-1:0] out_flit_o,
  input  logic [NumPorts-1:0]          out_ready_i,
  input  logic [NumReq-1:0]            out_vc_space_i  // the next link takes a maximum-size packet on this VC
);

  localparam int unsigned PortW = $clog2(NumPorts);
  localparam int unsigned ReqW  = $clog2(NumReq);
  localparam int unsigned VcW   = $clog2(NumVcs);
  localparam int unsigned LenW  = tern_link_pkg::HdrLenWidth;

  // --- Route of each input VC's head packet ----------------------------------------------------
  logic [NumReq*PortW-1:0] rt_port;
  logic [NumReq*VcW-1:0]   rt_vc;

  logic [CW:0]    r_here, r_dst, r_k, r_fwd;  // one bit more: a ring of 2^CoordBits chips
  logic           r_minus, r_wrap, r_same_dim, r_line, r_found;
  logic [VcW-1:0] r_in_vc;

  always_comb begin
    r_here = '0;  r_dst = '0;  r_k = '0;  r_fwd = '0;
    r_minus = 1'b0;  r_wrap = 1'b0;  r_same_dim = 1'b0;  r_line = 1'b0;  r_found = 1'b0;
    r_in_vc = '0;
    for (int unsigned j = 0; j < NumReq; j++) begin
      r_in_vc = VcW'(j % NumVcs);
      rt_port[j*PortW +: PortW] = '0;
      rt_vc[j*VcW +: VcW] = r_in_vc;
      r_found = 1'b0;
      for (int unsigned d = 0; d < NumDims; d++) begin
        r_here = {1'b0, coord_i[d*CW +: CW]};
        r_dst = {1'b0, in_flit_i[j*FlitBits + tern_link_pkg::HdrDstXLsb + d*CW +: CW]};
        r_k = (d == 0) ? (CW + 1)'(DimX) : (d == 1) ? (CW + 1)'(DimY) : (CW + 1)'(DimZ);
        r_fwd = (r_dst >= r_here) ? r_dst - r_here : r_dst + r_k - r_here;
        r_minus = r_fwd > r_k - r_fwd || (r_fwd == r_k - r_fwd && r_here[0]);  // ties: odd -, even +
        r_wrap = r_minus ? r_here == '0 : r_here == r_k - 1'b1;
        r_same_dim = (j / NumVcs) != 0 && ((j / NumVcs) - 1) / 2 == d;
        r_line = (r_same_dim && r_in_vc[0]) || r_wrap;
        if (!r_found && r_here != r_dst) begin
          r_found = 1'b1;
          rt_port[j*PortW +: PortW] = PortW'(1 + 2 * d + (r_minus ? 1 : 0));
          rt_vc[j*VcW +: VcW] = {r_in_vc[VcW-1:1], r_line};
        end
      end
    end
  end

  // --- Per output: the input VC it carries a packet from -----------------------------------------
  logic [NumPorts-1:0]        lock_q, lock_d;
  logic [NumPorts*ReqW-1:0]   src_q, src_d, rr_q, rr_d;
  logic [NumPorts*LenW-1:0]   left_q, left_d;
  logic [NumReq-1:0]          busy;  // an input VC some output carries a packet from

  always_comb begin
    busy = '0;
    for (int unsigned o = 0; o < NumPorts; o++)
      if (lock_q[o]) busy[src_q[o*ReqW +: ReqW]] = 1'b1;
  end

  // Selection (no dependence on out_ready_i, so a transmitter's ready may depend on the flit).
  logic            a_found;
  logic [ReqW-1:0] a_pick, a_j;
  logic [VcW-1:0]  a_vc;
  logic [NumPorts*ReqW-1:0] sel;      // the input VC each output takes a flit from
  logic [NumPorts-1:0]      sel_new;  // ... and that flit is a header that opens a packet
  logic [NumPorts*LenW-1:0] sel_len;

  always_comb begin
    out_valid_o = '0;
    out_flit_o = '0;
    sel = '0;  sel_new = '0;  sel_len = '0;
    a_found = 1'b0;  a_pick = '0;  a_j = '0;  a_vc = '0;
    for (int unsigned o = 0; o < NumPorts; o++) begin
      a_found = 1'b0;
      a_pick = '0;
      if (lock_q[o]) begin
        // Payload flits of the packet in progress.
        a_pick = src_q[o*ReqW +: ReqW];
        sel[o*ReqW +: ReqW] = a_pick;
        out_valid_o[o] = in_valid_i[a_pick];
        out_flit_o[o*FlitBits +: FlitBits] = in_flit_i[a_pick*FlitBits +: FlitBits];
      end else begin
        // A new packet: round-robin from the one after the last winner.
        for (int unsigned n = 1; n <= NumReq; n++) begin
          a_j = ReqW'((32'(rr_q[o*ReqW +: ReqW]) + n) % NumReq);
          a_vc = rt_vc[a_j*VcW +: VcW];
          if (!a_found && in_valid_i[a_j] && in_head_i[a_j] && !busy[a_j]
              && rt_port[a_j*PortW +: PortW] == PortW'(o)
              && (o == 0 || out_vc_space_i[o*NumVcs + 32'(a_vc)])) begin
            a_found = 1'b1;
            a_pick = a_j;
          end
        end
        if (a_found) begin
          a_vc = rt_vc[a_pick*VcW +: VcW];
          sel[o*ReqW +: ReqW] = a_pick;
          sel_new[o] = 1'b1;
          sel_len[o*LenW +: LenW] = in_flit_i[a_pick*FlitBits + tern_link_pkg::HdrLenLsb +: LenW];
          out_valid_o[o] = 1'b1;
          out_flit_o[o*FlitBits +: FlitBits] = in_flit_i[a_pick*FlitBits +: FlitBits];
          if (o != 0) out_flit_o[o*FlitBits + tern_link_pkg::HdrVcLsb +: VcW] = a_vc;
        end
      end
    end
  end

  // Handshakes and the packet state of each output.
  always_comb begin
    lock_d = lock_q;  src_d = src_q;  rr_d = rr_q;  left_d = left_q;
    in_ready_o = '0;
    for (int unsigned o = 0; o < NumPorts; o++) begin
      if (out_valid_o[o] && out_ready_i[o]) begin
        in_ready_o[sel[o*ReqW +: ReqW]] = 1'b1;
        if (lock_q[o]) begin
          left_d[o*LenW +: LenW] = left_q[o*LenW +: LenW] - 1'b1;
          if (left_q[o*LenW +: LenW] == LenW'(1)) lock_d[o] = 1'b0;
        end else if (sel_new[o]) begin
          rr_d[o*ReqW +: ReqW] = sel[o*ReqW +: ReqW];
          if (sel_len[o*LenW +: LenW] != '0) begin
            lock_d[o] = 1'b1;
            src_d[o*ReqW +: ReqW] = sel[o*ReqW +: ReqW];
            left_d[o*LenW +: LenW] = sel_len[o*LenW +: LenW];
          end
        end
      end
    end
  end

`ifndef SYNTHESIS
  // An input VC feeds at most one output at a time.
  for (genvar o = 0; o < NumPorts; o++) begin : gen_src_check
    for (genvar p = o + 1; p < NumPorts; p++) begin : gen_pair
      one_output_per_source: assert property (@(posedge clk_i) disable iff (!rst_ni)
        !(lock_q[o] && lock_q[p] && src_q[o*ReqW +: ReqW] == src_q[p*ReqW +: ReqW]));
    end
  end
`endif

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      lock_q <= '0;  src_q <= '0;  rr_q <= '0;  left_q <= '0;
    end else begin
      lock_q <= lock_d;  src_q <= src_d;  rr_q <= rr_d;  left_q <= left_d;
    end
  end

endmodule
