// IEEE-754 binary32 adder, pipelined: the same result as tern_fp32_add (RNE, subnormals
// honoured, canonical NaN; golden tern::fp32_add) in ten steps of at most 8 LUT6 levels each,
// with Latency (0 .. 10) registers spread evenly over them (tern_pipe_reg). One addition a cycle
// while en_i is high; en_i low holds every stage. Steps (tern_fp_pkg): unpack, add_order,
// add_align, add_sum_low, add_sum_high, add_count, add_normalize + round_prep, round_shift,
// round_increment, round_encode.
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

  localparam int unsigned Steps    = 10;
  localparam int unsigned OrderW   = tern_fp_pkg::AddOrderW;
  localparam int unsigned AlignedW = tern_fp_pkg::AddAlignedW;
  localparam int unsigned HalfW    = tern_fp_pkg::AddHalfW;
  localparam int unsigned SummedW  = tern_fp_pkg::AddSummedW;
  localparam int unsigned CountedW = tern_fp_pkg::AddCountedW;
  localparam int unsigned PrepW    = tern_fp_pkg::RoundPrepW;

  logic [77:0]         ops_d, ops_q;
  logic [OrderW-1:0]   order_d, order_q;
  logic [AlignedW-1:0] aligned_d, aligned_q;
  logic [HalfW-1:0]    half_d, half_q;
  logic [SummedW-1:0]  summed_d, summed_q;
  logic [CountedW-1:0] counted_d, counted_q;
  logic [PrepW-1:0]    prep_d, prep_q;
  logic [6:1]          valid;
  logic                prep_valid;

  assign ops_d = {tern_fp_pkg::unpack(tern_pkg::DtFp32, a_i), tern_fp_pkg::unpack(tern_pkg::DtFp32, b_i)};
  tern_pipe_reg #(.Width (78), .Steps (Steps), .Latency (Latency), .Index (1)) u_ops (
    .clk_i, .rst_ni, .en_i, .valid_i, .data_i (ops_d), .valid_o (valid[1]), .data_o (ops_q));

  assign order_d = tern_fp_pkg::add_order(ops_q[77:39], ops_q[38:0]);
  tern_pipe_reg #(.Width (OrderW), .Steps (Steps), .Latency (Latency), .Index (2)) u_order (
    .clk_i, .rst_ni, .en_i, .valid_i (valid[1]), .data_i (order_d), .valid_o (valid[2]),
    .data_o (order_q));

  assign aligned_d = tern_fp_pkg::add_align(order_q);
  tern_pipe_reg #(.Width (AlignedW), .Steps (Steps), .Latency (Latency), .Index (3)) u_align (
    .clk_i, .rst_ni, .en_i, .valid_i (valid[2]), .data_i (aligned_d), .valid_o (valid[3]),
    .data_o (aligned_q));

  assign half_d = tern_fp_pkg::add_sum_low(aligned_q);
  tern_pipe_reg #(.Width (HalfW), .Steps (Steps), .Latency (Latency), .Index (4)) u_low (
    .clk_i, .rst_ni, .en_i, .valid_i (valid[3]), .data_i (half_d), .valid_o (valid[4]),
    .data_o (half_q));

  assign summed_d = tern_fp_pkg::add_sum_high(half_q);
  tern_pipe_reg #(.Width (SummedW), .Steps (Steps), .Latency (Latency), .Index (5)) u_high (
    .clk_i, .rst_ni, .en_i, .valid_i (valid[4]), .data_i (summed_d), .valid_o (valid[5]),
    .data_o (summed_q));

  assign counted_d = tern_fp_pkg::add_count(summed_q);
  tern_pipe_reg #(.Width (CountedW), .Steps (Steps), .Latency (Latency), .Index (6)) u_count (
    .clk_i, .rst_ni, .en_i, .valid_i (valid[5]), .data_i (counted_d), .valid_o (valid[6]),
    .data_o (counted_q));

  assign prep_d = tern_fp_pkg::round_prep(tern_pkg::DtFp32, tern_fp_pkg::add_normalize(counted_q),
                                          tern_pkg::RoundRne, 1'b0, 32'd0);
  tern_pipe_reg #(.Width (PrepW), .Steps (Steps), .Latency (Latency), .Index (7)) u_prep (
    .clk_i, .rst_ni, .en_i, .valid_i (valid[6]), .data_i (prep_d), .valid_o (prep_valid),
    .data_o (prep_q));

  logic [3:0] unused_dtype;  // always fp32
  tern_fp_round_tail #(.Steps (Steps), .Latency (Latency)) u_round (
    .clk_i, .rst_ni, .en_i, .valid_i (prep_valid), .prep_i (prep_q), .valid_o,
    .dtype_o (unused_dtype), .bits_o (sum_o));

endmodule
