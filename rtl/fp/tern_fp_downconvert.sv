// fp32 -> any float dtype (TF32, BF16, FP16, FP8-E4M3, FP8-E5M2; FP32 itself canonicalises
// NaN only), round to nearest even or stochastic, saturating or not. Combinational;
// golden: tern::convert_from_fp32.
module tern_fp_downconvert (
  input  logic [3:0]  dtype_i,       // target float dtype
  input  logic [31:0] fp32_i,
  input  logic        round_mode_i,  // tern_pkg::RoundRne / RoundSr
  input  logic        saturate_i,
  input  logic [31:0] random_i,      // one SR draw (tern_sr_rng); unused for RNE
  output logic [31:0] bits_o,        // result in the low fmt_width(dtype_i) bits
  output logic        dtype_ok_o     // dtype_i is a float dtype
);

  logic        sign, zero, inf, nan;
  logic [10:0] exp;
  logic [23:0] sig;

  assign dtype_ok_o = tern_pkg::is_float_dtype(dtype_i);

  tern_fp_unpack u_unpack (
    .dtype_i(tern_pkg::DtFp32), .bits_i(fp32_i),
    .sign_o(sign), .exp_o(exp), .sig_o(sig), .zero_o(zero), .inf_o(inf), .nan_o(nan)
  );

  tern_fp_round_pack u_round (
    .dtype_i(dtype_i), .sign_i(sign), .exp_i(exp), .sig_i({sig, 3'b000}),
    .zero_i(zero), .inf_i(inf), .nan_i(nan),
    .round_mode_i(round_mode_i), .saturate_i(saturate_i), .random_i(random_i),
    .bits_o(bits_o)
  );

endmodule
