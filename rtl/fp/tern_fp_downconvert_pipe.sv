// fp32 -> any float dtype, pipelined: the same result as tern_fp_downconvert (RNE or SR,
// saturation; golden tern::convert_from_fp32) in five steps of at most 8 LUT6 levels each, with
// Latency (0 .. 5) registers spread evenly over them (tern_pipe_reg). One conversion a cycle
// while en_i is high; en_i low holds every stage. Steps (tern_fp_pkg): unpack, round_prep,
// round_shift, round_increment, round_encode.
module tern_fp_downconvert_pipe #(
  parameter int unsigned Latency = 5
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        en_i,
  input  logic        valid_i,
  input  logic [3:0]  dtype_i,       // target float dtype
  input  logic [31:0] fp32_i,
  input  logic        round_mode_i,  // tern_pkg::RoundRne / RoundSr
  input  logic        saturate_i,
  input  logic [31:0] random_i,      // one SR draw (tern_sr_rng); unused for RNE
  output logic        valid_o,
  output logic [31:0] bits_o,        // result in the low fmt_width(dtype) bits
  output logic        dtype_ok_o     // its dtype is a float dtype
);

  localparam int unsigned Steps = 5;
  localparam int unsigned PrepW = tern_fp_pkg::RoundPrepW;
  localparam int unsigned OpW   = 4 + 1 + 1 + 32 + 42;

  logic [OpW-1:0]   op_d, op_q;
  logic [PrepW-1:0] prep_d, prep_q;
  logic             op_valid, prep_valid;
  logic [3:0]       dtype, out_dtype;
  logic             mode, sat;
  logic [31:0]      random;
  logic [41:0]      value;

  assign op_d = {dtype_i, round_mode_i, saturate_i, random_i,
                 tern_fp_pkg::widen(tern_fp_pkg::unpack(tern_pkg::DtFp32, fp32_i))};
  tern_pipe_reg #(.Width (OpW), .Steps (Steps), .Latency (Latency), .Index (1)) u_op (
    .clk_i, .rst_ni, .en_i, .valid_i, .data_i (op_d), .valid_o (op_valid), .data_o (op_q));

  assign {dtype, mode, sat, random, value} = op_q;
  assign prep_d = tern_fp_pkg::round_prep(dtype, value, mode, sat, random);
  tern_pipe_reg #(.Width (PrepW), .Steps (Steps), .Latency (Latency), .Index (2)) u_prep (
    .clk_i, .rst_ni, .en_i, .valid_i (op_valid), .data_i (prep_d), .valid_o (prep_valid),
    .data_o (prep_q));

  tern_fp_round_tail #(.Steps (Steps), .Latency (Latency)) u_round (
    .clk_i, .rst_ni, .en_i, .valid_i (prep_valid), .prep_i (prep_q), .valid_o,
    .dtype_o (out_dtype), .bits_o);
  assign dtype_ok_o = tern_pkg::is_float_dtype(out_dtype);

endmodule
