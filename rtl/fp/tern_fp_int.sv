// tern_fp_int: the integer conversions of tern_fp_int_pkg as one combinational block, for the
// block tests (golden: tern::convert_to_fp32 / convert_from_fp32 with integer dtypes).
module tern_fp_int (
  input  logic [3:0]  dt_i,      // int8, uint8 or int32
  input  logic [31:0] int_i,     // the integer's encoding
  output logic [31:0] fp32_o,    // int_i as fp32 (RNE)
  input  logic [31:0] fp32_i,
  input  logic        mode_i,    // tern_pkg::RoundRne / RoundSr
  input  logic [31:0] random_i,  // the SR draw
  output logic [31:0] int_o      // fp32_i rounded and saturated to dt_i
);
  assign fp32_o = tern_fp_int_pkg::int_to_fp32(dt_i, int_i);
  assign int_o  = tern_fp_int_pkg::fp32_to_int(dt_i, fp32_i, mode_i, random_i);
endmodule
