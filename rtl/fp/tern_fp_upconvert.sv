// Any float dtype -> fp32. Exact for every tern float format (subnormal FP16/FP8 become normal
// fp32); NaN becomes the canonical fp32 NaN. Combinational; golden: tern::convert_to_fp32.
module tern_fp_upconvert (
  input  logic [3:0]  dtype_i,     // source float dtype
  input  logic [31:0] bits_i,
  output logic [31:0] fp32_o,
  output logic        dtype_ok_o
);
  assign dtype_ok_o = tern_pkg::is_float_dtype(dtype_i);
  assign fp32_o     = tern_fp_pkg::upconvert(dtype_i, bits_i);
endmodule
