// One Vector Engine element operation (docs/vector-engine.md): fp32 in and out, or int32 for
// the bitwise ops. One adder (add and subtract) and one multiplier, computed every cycle;
// tern_dve_pkg::alu picks the result. Combinational; golden: tern::dve_alu.
module tern_dve_alu (
  input  logic [4:0]  op_i,   // tern_dve_pkg::DveAlu*
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [31:0] result_o
);
  logic [31:0] sum, product;
  tern_fp32_add u_add (
    .a_i  (a_i),
    .b_i  ((op_i == tern_dve_pkg::DveAluSubtract) ? {~b_i[31], b_i[30:0]} : b_i),
    .sum_o(sum)
  );
  tern_fp32_mul u_mul (.a_i(a_i), .b_i(b_i), .product_o(product));
  assign result_o = tern_dve_pkg::alu(op_i, a_i, b_i, sum, product);
endmodule
