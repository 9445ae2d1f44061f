// IEEE-754 binary32 multiplier, RNE, subnormals honoured, canonical NaN. Combinational;
// golden: tern::fp32_mul.
module tern_fp32_mul (
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [31:0] product_o
);
  assign product_o = tern_fp_pkg::fp32_mul(a_i, b_i);
endmodule
