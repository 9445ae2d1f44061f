// Any float dtype -> fp32. Exact for every tern float format (subnormal FP16/FP8 become normal
// fp32); NaN becomes the canonical fp32 NaN. Combinational; golden: tern::convert_to_fp32.
module tern_fp_upconvert (
  input  logic [3:0]  dtype_i,     // source float dtype
  input  logic [31:0] bits_i,
  output logic [31:0] fp32_o,
  output logic        dtype_ok_o
);

  logic        sign, zero, inf, nan;
  logic [10:0] exp;
  logic [23:0] sig;

  assign dtype_ok_o = tern_pkg::is_float_dtype(dtype_i);

  tern_fp_unpack u_unpack (
    .dtype_i(dtype_i), .bits_i(bits_i),
    .sign_o(sign), .exp_o(exp), .sig_o(sig), .zero_o(zero), .inf_o(inf), .nan_o(nan)
  );

  tern_fp_round_pack u_round (
    .dtype_i(tern_pkg::DtFp32), .sign_i(sign), .exp_i(exp), .sig_i({sig, 3'b000}),
    .zero_i(zero), .inf_i(inf), .nan_i(nan),
    .round_mode_i(tern_pkg::RoundRne), .saturate_i(1'b0), .random_i(32'd0),
    .bits_o(fp32_o)
  );

endmodule
