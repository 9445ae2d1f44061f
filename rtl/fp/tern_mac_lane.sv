// One multiply-accumulate lane: a streaming dot product sum_k a[k] * b[k], folded in input
// order from +0 with the pipelined MAC (tern_fp_mac_pipe: exact product, fp32 RNE accumulate).
// The numerics' test vehicle for the PE's step. Input and output are valid/ready; the result of
// a vector leaves with its `last` element.
//
// Each element's sum is the next element's accumulator, so an element waits for the one before
// to leave the MAC's Latency steps: the lane takes one element every Latency + 1 cycles (the
// PE array streams instead: its sums travel down the rows, docs/tensor-engine.md). A result
// that finds the result register still full stalls the MAC until it is taken.
module tern_mac_lane #(
  parameter int unsigned Latency = 13   // tern_fp_mac_pipe's registers: 1 .. 13
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  // operand stream
  input  logic        in_valid_i,
  output logic        in_ready_o,
  input  logic        in_last_i,   // last element of this dot product
  input  logic [3:0]  a_dtype_i,
  input  logic [31:0] a_i,
  input  logic [3:0]  b_dtype_i,
  input  logic [31:0] b_i,
  // result stream
  output logic        out_valid_o,
  input  logic        out_ready_i,
  output logic [31:0] out_o,       // fp32 dot product
  output logic        dtype_err_o  // an accepted element had a non-MAC dtype (result is NaN)
);

  logic        first_q, first_d, busy_q, busy_d, last_q, last_d, ok_q, ok_d;
  logic [31:0] acc_q, acc_d, out_q, out_d, mac_out;
  logic        out_valid_q, out_valid_d, err_q, err_d;
  logic        accept, mac_valid, en, back;

  // The element in flight comes back this cycle; it waits while its result has nowhere to go.
  assign back = mac_valid && en;
  assign en   = !(mac_valid && last_q && out_valid_q && !out_ready_i);

  tern_fp_mac_pipe #(.Latency (Latency)) u_mac (
    .clk_i, .rst_ni, .en_i (en), .valid_i (accept),
    .acc_i (first_q ? 32'h0000_0000 : acc_q),
    .a_dtype_i, .a_i, .a_part_i (tern_fp_pkg::PartWhole),
    .b_dtype_i, .b_i, .b_part_i (tern_fp_pkg::PartWhole),
    .valid_o (mac_valid), .acc_o (mac_out)
  );

  assign in_ready_o  = !busy_q;
  assign accept      = in_valid_i && in_ready_o;
  assign out_valid_o = out_valid_q;
  assign out_o       = out_q;
  assign dtype_err_o = err_q;

  always_comb begin
    first_d     = first_q;
    busy_d      = busy_q;
    last_d      = last_q;
    ok_d        = ok_q;
    acc_d       = acc_q;
    out_d       = out_q;
    err_d       = err_q;
    out_valid_d = out_valid_q && !out_ready_i;
    if (accept) begin
      busy_d  = 1'b1;
      last_d  = in_last_i;
      ok_d    = tern_pkg::is_mac_dtype(a_dtype_i) && tern_pkg::is_mac_dtype(b_dtype_i);
      first_d = in_last_i;
    end
    if (back) begin
      busy_d = 1'b0;
      // An illegal dtype poisons the running sum with NaN rather than a silent wrong value.
      acc_d  = ok_q ? mac_out : tern_pkg::Fp32CanonicalNaN;
      err_d  = err_q || !ok_q;
      if (last_q) begin
        out_d       = acc_d;
        out_valid_d = 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      first_q     <= 1'b1;
      busy_q      <= 1'b0;
      last_q      <= 1'b0;
      ok_q        <= 1'b1;
      acc_q       <= 32'd0;
      out_q       <= 32'd0;
      out_valid_q <= 1'b0;
      err_q       <= 1'b0;
    end else begin
      first_q     <= first_d;
      busy_q      <= busy_d;
      last_q      <= last_d;
      ok_q        <= ok_d;
      acc_q       <= acc_d;
      out_q       <= out_d;
      out_valid_q <= out_valid_d;
      err_q       <= err_d;
    end
  end

`ifndef SYNTHESIS
  initial begin : params
    assert (Latency >= 1 && Latency <= 13)
      else $fatal(1, "tern_mac_lane: Latency %0d is outside 1 .. 13", Latency);
  end
  // One element in flight: a MAC result always finds the lane waiting for it.
  one_in_flight: assert property (@(posedge clk_i) disable iff (!rst_ni) mac_valid |-> busy_q)
    else $error("tern_mac_lane: a MAC result with no element in flight");
`endif

endmodule
