// One Horner step, a * b + c, as a binary32 multiply then a binary32 add (two RNE roundings,
// not a fused multiply-add): the step of the Scalar Engine's polynomials.
module tern_fp32_muladd (
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  input  logic [31:0] c_i,
  output logic [31:0] result_o
);
  logic [31:0] product;
  tern_fp32_mul u_mul (.a_i(a_i), .b_i(b_i), .product_o(product));
  tern_fp32_add u_add (.a_i(product), .b_i(c_i), .sum_o(result_o));
endmodule
