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
  assign dtype_ok_o = tern_pkg::is_float_dtype(dtype_i);
  assign bits_o = tern_fp_pkg::downconvert(dtype_i, fp32_i, round_mode_i, saturate_i, random_i);
endmodule
