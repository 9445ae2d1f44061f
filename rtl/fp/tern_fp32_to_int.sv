// fp32 -> int8 / uint8 / int32: round (RNE or SR) to an integer, saturate to the type's range,
// NaN -> 0. Combinational; golden: tern::convert_from_fp32 with an integer dtype.
module tern_fp32_to_int (
  input  logic [3:0]  dtype_i,       // int8, uint8 or int32
  input  logic [31:0] fp32_i,
  input  logic        round_mode_i,  // tern_pkg::RoundRne / RoundSr
  input  logic [31:0] random_i,      // one SR draw (tern_sr_rng); unused for RNE
  output logic [31:0] int_o          // the encoding in the low bits, zero above
);
  assign int_o = tern_fp_int_pkg::fp32_to_int(dtype_i, fp32_i, round_mode_i, random_i);
endmodule
