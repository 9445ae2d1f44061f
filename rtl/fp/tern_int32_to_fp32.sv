// A 32-bit two's complement integer -> fp32, round to nearest even. Combinational; golden:
// tern::convert_to_fp32(kInt32, ...).
module tern_int32_to_fp32 (
  input  logic [31:0] int_i,
  output logic [31:0] fp32_o
);
  assign fp32_o = tern_fp_int_pkg::int32_to_fp32(int_i);
endmodule
