// The Tensor Engine's multiply-accumulate step: acc + a * b with the product of two
// low-precision values exact and one round-to-nearest-even to fp32 (a fused step).
// Operand types are any mix of BF16, FP16, FP8-E4M3, FP8-E5M2 and TF32; mac_ok_o flags any
// other type. Combinational; golden: tern::mac_step.
module tern_fp_mac (
  input  logic [31:0] acc_i,      // fp32
  input  logic [3:0]  a_dtype_i,
  input  logic [31:0] a_i,
  input  logic [3:0]  b_dtype_i,
  input  logic [31:0] b_i,
  output logic [31:0] acc_o,      // fp32
  output logic        mac_ok_o    // both operand types are Tensor Engine input types
);
  assign mac_ok_o = tern_pkg::is_mac_dtype(a_dtype_i) && tern_pkg::is_mac_dtype(b_dtype_i);
  assign acc_o    = tern_fp_pkg::mac(acc_i, a_dtype_i, a_i, b_dtype_i, b_i);
endmodule
