// IEEE-754 binary32 adder, pipelined: the same result as tern_fp32_add (RNE, subnormals
// honoured, canonical NaN; golden tern::fp32_add) in ten steps of at most 8 LUT6 levels each,
// with Latency (0 .. 10) registers spread evenly over them (tern_pipe_reg). One addition a cycle
// while en_i is high; en_i low holds every stage. Steps (tern_fp_pkg): unpack, add_order,
// add_align, add_sum_low, add_sum_high, add_count, add_normalize_prep, round_shift,
// round_increment, round_encode (tern_fp_add_steps and tern_fp_round_tail hold all but the
// first).
module tern_fp32_add_pipe #(
  parameter int unsigned Latency = 10
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        en_i,
  input  logic        valid_i,
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic        valid_o,
  output logic [31:0] sum_o
);

  localparam int unsigned Steps = 10;

  logic [77:0]                       ops_d, ops_q;
  logic [tern_fp_pkg::RoundPrepW-1:0] prep;
  logic                              ops_valid, prep_valid;

  assign ops_d = {tern_fp_pkg::unpack(tern_pkg::DtFp32, a_i), tern_fp_pkg::unpack(tern_pkg::DtFp32, b_i)};
  tern_pipe_reg #(.Width (78), .Steps (Steps), .Latency (Latency), .Index (1)) u_ops (
    .clk_i, .rst_ni, .en_i, .valid_i, .data_i (ops_d), .valid_o (ops_valid), .data_o (ops_q));

  tern_fp_add_steps #(.Steps (Steps), .Latency (Latency), .Index (2)) u_add (
    .clk_i, .rst_ni, .en_i, .valid_i (ops_valid), .ops_i (ops_q), .valid_o (prep_valid),
    .prep_o (prep));

  logic [3:0] unused_dtype;  // always fp32
  tern_fp_round_tail #(.Steps (Steps), .Latency (Latency)) u_round (
    .clk_i, .rst_ni, .en_i, .valid_i (prep_valid), .prep_i (prep), .valid_o,
    .dtype_o (unused_dtype), .bits_o (sum_o));

endmodule
