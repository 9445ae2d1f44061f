// IEEE-754 binary32 adder: round to nearest even, subnormals honoured, canonical NaN.
// Combinational; golden: tern::fp32_add.
module tern_fp32_add (
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [31:0] sum_o
);
  assign sum_o = tern_fp_pkg::fp32_add(a_i, b_i);
endmodule
