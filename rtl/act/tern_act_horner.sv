// A polynomial by Horner's rule, c[T-1] x^(T-1) + ... + c[0], as a chain of T-1 binary32
// multiply-then-add steps (coefficient i at coeffs_i[32*i +: 32]). Golden: horner() in
// model/act/act_functions.cc.
module tern_act_horner #(
  parameter int unsigned Terms = 2
) (
  input  logic [31:0]         x_i,
  input  logic [Terms*32-1:0] coeffs_i,
  output logic [31:0]         result_o
);
  logic [Terms*32-1:0] h;  // h[i] = value after folding in coefficient i
  assign h[32*(Terms-1) +: 32] = coeffs_i[32*(Terms-1) +: 32];
  for (genvar i = 0; i < Terms - 1; i++) begin : gen_step
    tern_fp32_muladd u_step (
      .a_i     (h[32*(i+1) +: 32]),
      .b_i     (x_i),
      .c_i     (coeffs_i[32*i +: 32]),
      .result_o(h[32*i +: 32])
    );
  end
  assign result_o = h[31:0];
endmodule
