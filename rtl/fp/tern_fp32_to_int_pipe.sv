// fp32 -> int8 / uint8 / int32, pipelined: the same result as tern_fp_int_pkg::fp32_to_int (RNE
// or SR, saturating, NaN -> 0; golden tern::convert_from_fp32 with an integer dtype) in four
// steps of at most 8 LUT6 levels each, with Latency (0 .. 4) registers spread evenly over them
// (tern_pipe_reg). One conversion a cycle while en_i is high; en_i low holds every stage. Steps
// (tern_fp_int_pkg): fti_align, fti_decide, fti_round, saturate_int.
module tern_fp32_to_int_pipe #(
  parameter int unsigned Latency = 4
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        en_i,
  input  logic        valid_i,
  input  logic [3:0]  dtype_i,       // int8, uint8 or int32 (another saturates as int32)
  input  logic [31:0] fp32_i,
  input  logic        round_mode_i,  // tern_pkg::RoundRne / RoundSr
  input  logic [31:0] random_i,      // one SR draw (tern_sr_rng); unused for RNE
  output logic        valid_o,
  output logic [31:0] int_o          // the encoding in the low bits, zero above
);

  localparam int unsigned Steps   = 4;
  localparam int unsigned AlignW  = tern_fp_int_pkg::FtiAlignW;
  localparam int unsigned DecideW = tern_fp_int_pkg::FtiDecideW;
  localparam int unsigned RoundW  = tern_fp_int_pkg::FtiRoundW;

  logic [AlignW-1:0]  align_d, align_q;
  logic [DecideW-1:0] decide_d, decide_q;
  logic [RoundW-1:0]  round_d, round_q;
  logic [31:0]        int_d;
  logic               align_valid, decide_valid, round_valid;

  assign align_d = tern_fp_int_pkg::fti_align(dtype_i, fp32_i, round_mode_i, random_i);
  tern_pipe_reg #(.Width (AlignW), .Steps (Steps), .Latency (Latency), .Index (1)) u_align (
    .clk_i, .rst_ni, .en_i, .valid_i, .data_i (align_d), .valid_o (align_valid),
    .data_o (align_q));

  assign decide_d = tern_fp_int_pkg::fti_decide(align_q);
  tern_pipe_reg #(.Width (DecideW), .Steps (Steps), .Latency (Latency), .Index (2)) u_decide (
    .clk_i, .rst_ni, .en_i, .valid_i (align_valid), .data_i (decide_d), .valid_o (decide_valid),
    .data_o (decide_q));

  assign round_d = tern_fp_int_pkg::fti_round(decide_q);
  tern_pipe_reg #(.Width (RoundW), .Steps (Steps), .Latency (Latency), .Index (3)) u_round (
    .clk_i, .rst_ni, .en_i, .valid_i (decide_valid), .data_i (round_d), .valid_o (round_valid),
    .data_o (round_q));

  assign int_d = tern_fp_int_pkg::saturate_int(round_q[RoundW-1 -: 4], round_q[32:0]);
  tern_pipe_reg #(.Width (32), .Steps (Steps), .Latency (Latency), .Index (4)) u_sat (
    .clk_i, .rst_ni, .en_i, .valid_i (round_valid), .data_i (int_d), .valid_o, .data_o (int_o));

endmodule
