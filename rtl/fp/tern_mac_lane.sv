// One multiply-accumulate lane: a streaming dot product sum_k a[k] * b[k], folded in input
// order from +0 with tern_fp_mac (exact product, fp32 RNE accumulate). The seed of the PE.
// Input and output are valid/ready; the result of a vector leaves with its `last` element.
module tern_mac_lane (
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

  logic        first_q, first_d;
  logic [31:0] acc_q, acc_d, out_q, out_d, mac_in, mac_out;
  logic        out_valid_q, out_valid_d, err_q, err_d;
  logic        mac_ok, accept;

  tern_fp_mac u_mac (
    .acc_i(mac_in), .a_dtype_i(a_dtype_i), .a_i(a_i), .b_dtype_i(b_dtype_i), .b_i(b_i),
    .acc_o(mac_out), .mac_ok_o(mac_ok)
  );

  assign in_ready_o  = !out_valid_q || out_ready_i;
  assign accept      = in_valid_i && in_ready_o;
  assign mac_in      = first_q ? 32'h0000_0000 : acc_q;
  assign out_valid_o = out_valid_q;
  assign out_o       = out_q;
  assign dtype_err_o = err_q;

  always_comb begin
    first_d     = first_q;
    acc_d       = acc_q;
    out_d       = out_q;
    err_d       = err_q;
    out_valid_d = out_valid_q && !out_ready_i;
    if (accept) begin
      // An illegal dtype poisons the running sum with NaN rather than a silent wrong value.
      acc_d   = mac_ok ? mac_out : tern_pkg::Fp32CanonicalNaN;
      err_d   = err_q || !mac_ok;
      first_d = in_last_i;
      if (in_last_i) begin
        out_d       = acc_d;
        out_valid_d = 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      first_q     <= 1'b1;
      acc_q       <= 32'd0;
      out_q       <= 32'd0;
      out_valid_q <= 1'b0;
      err_q       <= 1'b0;
    end else begin
      first_q     <= first_d;
      acc_q       <= acc_d;
      out_q       <= out_d;
      out_valid_q <= out_valid_d;
      err_q       <= err_d;
    end
  end

endmodule
