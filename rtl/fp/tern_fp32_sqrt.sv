// IEEE-754 binary32 square root, RNE, subnormals honoured, canonical NaN. Combinational;
// golden: tern::fp32_sqrt.
module tern_fp32_sqrt (
  input  logic [31:0] a_i,
  output logic [31:0] root_o
);
  assign root_o = tern_fp_pkg::fp32_sqrt(a_i);
endmodule
