// IEEE-754 binary32 divider, RNE, subnormals honoured, canonical NaN. Combinational;
// golden: tern::fp32_div.
module tern_fp32_div (
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [31:0] quotient_o
);
  assign quotient_o = tern_fp_pkg::fp32_div(a_i, b_i);
endmodule
