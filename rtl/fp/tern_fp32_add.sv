// IEEE-754 binary32 adder: round to nearest even, subnormals honoured, canonical NaN.
// Combinational; golden: tern::fp32_add.
module tern_fp32_add (
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [31:0] sum_o
);

  logic        a_sign, a_zero, a_inf, a_nan;
  logic [10:0] a_exp;
  logic [23:0] a_sig;
  logic        b_sign, b_zero, b_inf, b_nan;
  logic [10:0] b_exp;
  logic [23:0] b_sig;
  logic        s_sign, s_zero, s_inf, s_nan;
  logic [10:0] s_exp;
  logic [26:0] s_sig;

  tern_fp_unpack u_unpack_a (
    .dtype_i(tern_pkg::DtFp32), .bits_i(a_i),
    .sign_o(a_sign), .exp_o(a_exp), .sig_o(a_sig), .zero_o(a_zero), .inf_o(a_inf), .nan_o(a_nan)
  );

  tern_fp_unpack u_unpack_b (
    .dtype_i(tern_pkg::DtFp32), .bits_i(b_i),
    .sign_o(b_sign), .exp_o(b_exp), .sig_o(b_sig), .zero_o(b_zero), .inf_o(b_inf), .nan_o(b_nan)
  );

  tern_fp_add_core u_add (
    .a_sign_i(a_sign), .a_exp_i(a_exp), .a_sig_i(a_sig),
    .a_zero_i(a_zero), .a_inf_i(a_inf), .a_nan_i(a_nan),
    .b_sign_i(b_sign), .b_exp_i(b_exp), .b_sig_i(b_sig),
    .b_zero_i(b_zero), .b_inf_i(b_inf), .b_nan_i(b_nan),
    .sign_o(s_sign), .exp_o(s_exp), .sig_o(s_sig), .zero_o(s_zero), .inf_o(s_inf), .nan_o(s_nan)
  );

  tern_fp_round_pack u_round (
    .dtype_i(tern_pkg::DtFp32), .sign_i(s_sign), .exp_i(s_exp), .sig_i(s_sig),
    .zero_i(s_zero), .inf_i(s_inf), .nan_i(s_nan),
    .round_mode_i(tern_pkg::RoundRne), .saturate_i(1'b0), .random_i(32'd0),
    .bits_o(sum_o)
  );

endmodule
