// IEEE-754 binary32 multiply, divide and square root (RNE, subnormals honoured, canonical NaN)
// behind one port, for the block tests and `tern fp`. Combinational; golden: tern::fp32_mul,
// tern::fp32_div, tern::fp32_sqrt.
module tern_fp32_arith (
  input  logic [1:0]  op_i,      // 0: a * b, 1: a / b, 2: sqrt(a)
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [31:0] result_o
);
  logic [31:0] product, quotient, root;
  tern_fp32_mul  u_mul  (.a_i(a_i), .b_i(b_i), .product_o(product));
  tern_fp32_div  u_div  (.a_i(a_i), .b_i(b_i), .quotient_o(quotient));
  tern_fp32_sqrt u_sqrt (.a_i(a_i), .root_o(root));
  always_comb begin
    unique case (op_i)
      2'd0:    result_o = product;
      2'd1:    result_o = quotient;
      default: result_o = root;
    endcase
  end
endmodule
