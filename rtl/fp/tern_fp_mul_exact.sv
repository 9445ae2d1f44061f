// Exact product of two unpacked low-precision values (at most 11 significant bits each, as for
// BF16, FP16, FP8 and TF32): the 22-bit product fits the 24-bit significand, so nothing is
// rounded here. Special rules: NaN or 0 * Inf -> NaN; otherwise any Inf -> Inf. Combinational.
module tern_fp_mul_exact (
  input  logic        a_sign_i,
  input  logic [10:0] a_exp_i,
  input  logic [23:0] a_sig_i,
  input  logic        a_zero_i,
  input  logic        a_inf_i,
  input  logic        a_nan_i,
  input  logic        b_sign_i,
  input  logic [10:0] b_exp_i,
  input  logic [23:0] b_sig_i,
  input  logic        b_zero_i,
  input  logic        b_inf_i,
  input  logic        b_nan_i,
  output logic        sign_o,
  output logic [10:0] exp_o,   // signed; value = sig * 2^(exp - 23)
  output logic [23:0] sig_o,
  output logic        zero_o,
  output logic        inf_o,
  output logic        nan_o
);

  logic [21:0] product;  // 1.10 x 1.10 -> 2.20 fixed point
  logic        unused_low_bits;

  assign product = a_sig_i[23:13] * b_sig_i[23:13];
  // Low-precision inputs carry no significant bits below bit 13 of the significand.
  assign unused_low_bits = ^{a_sig_i[12:0], b_sig_i[12:0]};

  always_comb begin
    sign_o = a_sign_i ^ b_sign_i;
    nan_o  = a_nan_i || b_nan_i || (a_inf_i && b_zero_i) || (b_inf_i && a_zero_i);
    inf_o  = !nan_o && (a_inf_i || b_inf_i);
    zero_o = !nan_o && !inf_o && (a_zero_i || b_zero_i);
    if (zero_o || nan_o || inf_o) begin
      sig_o = 24'd0;
      exp_o = 11'd0;
    end else if (product[21]) begin
      sig_o = {product, 2'b00};
      exp_o = 11'($signed(a_exp_i) + $signed(b_exp_i) + 11'sd1);
    end else begin
      sig_o = {product[20:0], 3'b000};
      exp_o = 11'($signed(a_exp_i) + $signed(b_exp_i));
    end
  end

endmodule
