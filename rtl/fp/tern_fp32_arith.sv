// IEEE-754 binary32 multiply, divide and square root (RNE, subnormals honoured, canonical NaN):
// the arithmetic the Scalar and Vector Engines build on. Combinational; golden: tern::fp32_mul,
// tern::fp32_div, tern::fp32_sqrt.
module tern_fp32_arith (
  input  logic [1:0]  op_i,      // 0: a * b, 1: a / b, 2: sqrt(a)
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [31:0] result_o
);
  always_comb begin
    unique case (op_i)
      2'd0:    result_o = tern_fp_pkg::fp32_mul(a_i, b_i);
      2'd1:    result_o = tern_fp_pkg::fp32_div(a_i, b_i);
      default: result_o = tern_fp_pkg::fp32_sqrt(a_i);
    endcase
  end
endmodule
