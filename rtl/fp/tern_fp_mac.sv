// The Tensor Engine's multiply-accumulate step: acc + a * b with the product of two
// low-precision values exact and one round-to-nearest-even to fp32 (a fused step).
// Operand types are any mix of BF16, FP16, FP8-E4M3, FP8-E5M2 and TF32; the caller must not
// pass other types (mac_ok_o flags them). Combinational; golden: tern::mac_step.
module tern_fp_mac (
  input  logic [31:0] acc_i,      // fp32
  input  logic [3:0]  a_dtype_i,
  input  logic [31:0] a_i,
  input  logic [3:0]  b_dtype_i,
  input  logic [31:0] b_i,
  output logic [31:0] acc_o,      // fp32
  output logic        mac_ok_o    // both operand types are Tensor Engine input types
);

  logic        c_sign, c_zero, c_inf, c_nan;
  logic [10:0] c_exp;
  logic [23:0] c_sig;
  logic        a_sign, a_zero, a_inf, a_nan;
  logic [10:0] a_exp;
  logic [23:0] a_sig;
  logic        b_sign, b_zero, b_inf, b_nan;
  logic [10:0] b_exp;
  logic [23:0] b_sig;
  logic        p_sign, p_zero, p_inf, p_nan;
  logic [10:0] p_exp;
  logic [23:0] p_sig;
  logic        s_sign, s_zero, s_inf, s_nan;
  logic [10:0] s_exp;
  logic [26:0] s_sig;

  assign mac_ok_o = tern_pkg::is_mac_dtype(a_dtype_i) && tern_pkg::is_mac_dtype(b_dtype_i);

  tern_fp_unpack u_unpack_acc (
    .dtype_i(tern_pkg::DtFp32), .bits_i(acc_i),
    .sign_o(c_sign), .exp_o(c_exp), .sig_o(c_sig), .zero_o(c_zero), .inf_o(c_inf), .nan_o(c_nan)
  );

  tern_fp_unpack u_unpack_a (
    .dtype_i(a_dtype_i), .bits_i(a_i),
    .sign_o(a_sign), .exp_o(a_exp), .sig_o(a_sig), .zero_o(a_zero), .inf_o(a_inf), .nan_o(a_nan)
  );

  tern_fp_unpack u_unpack_b (
    .dtype_i(b_dtype_i), .bits_i(b_i),
    .sign_o(b_sign), .exp_o(b_exp), .sig_o(b_sig), .zero_o(b_zero), .inf_o(b_inf), .nan_o(b_nan)
  );

  tern_fp_mul_exact u_mul (
    .a_sign_i(a_sign), .a_exp_i(a_exp), .a_sig_i(a_sig),
    .a_zero_i(a_zero), .a_inf_i(a_inf), .a_nan_i(a_nan),
    .b_sign_i(b_sign), .b_exp_i(b_exp), .b_sig_i(b_sig),
    .b_zero_i(b_zero), .b_inf_i(b_inf), .b_nan_i(b_nan),
    .sign_o(p_sign), .exp_o(p_exp), .sig_o(p_sig), .zero_o(p_zero), .inf_o(p_inf), .nan_o(p_nan)
  );

  tern_fp_add_core u_add (
    .a_sign_i(c_sign), .a_exp_i(c_exp), .a_sig_i(c_sig),
    .a_zero_i(c_zero), .a_inf_i(c_inf), .a_nan_i(c_nan),
    .b_sign_i(p_sign), .b_exp_i(p_exp), .b_sig_i(p_sig),
    .b_zero_i(p_zero), .b_inf_i(p_inf), .b_nan_i(p_nan),
    .sign_o(s_sign), .exp_o(s_exp), .sig_o(s_sig), .zero_o(s_zero), .inf_o(s_inf), .nan_o(s_nan)
  );

  tern_fp_round_pack u_round (
    .dtype_i(tern_pkg::DtFp32), .sign_i(s_sign), .exp_i(s_exp), .sig_i(s_sig),
    .zero_i(s_zero), .inf_i(s_inf), .nan_i(s_nan),
    .round_mode_i(tern_pkg::RoundRne), .saturate_i(1'b0), .random_i(32'd0),
    .bits_o(acc_o)
  );

endmodule
