// tern_fp_add_steps: the addition steps of every adding unit, tern_fp_pkg's add_order,
// add_align, add_sum_low, add_sum_high, add_count and add_normalize_prep (add_normalize +
// round_prep to fp32, RNE), as boundaries Index .. Index + 5 of a unit of Steps steps and Latency registers
// (tern_pipe_reg). The unit's own steps end in two unpacked operands; tern_fp_round_tail
// takes the result on.
module tern_fp_add_steps #(
  parameter int unsigned Steps   = 6,
  parameter int unsigned Latency = 6,
  parameter int unsigned Index   = 1
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        en_i,
  input  logic        valid_i,
  input  logic [77:0] ops_i,   // {a, b} unpacked
  output logic        valid_o,
  output logic [tern_fp_pkg::RoundPrepW-1:0] prep_o
);

  localparam int unsigned OrderW   = tern_fp_pkg::AddOrderW;
  localparam int unsigned AlignedW = tern_fp_pkg::AddAlignedW;
  localparam int unsigned HalfW    = tern_fp_pkg::AddHalfW;
  localparam int unsigned SummedW  = tern_fp_pkg::AddSummedW;
  localparam int unsigned CountedW = tern_fp_pkg::AddCountedW;
  localparam int unsigned PrepW    = tern_fp_pkg::RoundPrepW;

  logic [OrderW-1:0]   order_d, order_q;
  logic [AlignedW-1:0] aligned_d, aligned_q;
  logic [HalfW-1:0]    half_d, half_q;
  logic [SummedW-1:0]  summed_d, summed_q;
  logic [CountedW-1:0] counted_d, counted_q;
  logic [PrepW-1:0]    prep_d;
  logic [4:0]          valid;

  assign order_d = tern_fp_pkg::add_order(ops_i[77:39], ops_i[38:0]);
  tern_pipe_reg #(.Width (OrderW), .Steps (Steps), .Latency (Latency), .Index (Index)) u_order (
    .clk_i, .rst_ni, .en_i, .valid_i, .data_i (order_d), .valid_o (valid[0]), .data_o (order_q));

  assign aligned_d = tern_fp_pkg::add_align(order_q);
  tern_pipe_reg #(.Width (AlignedW), .Steps (Steps), .Latency (Latency), .Index (Index + 1)) u_align (
    .clk_i, .rst_ni, .en_i, .valid_i (valid[0]), .data_i (aligned_d), .valid_o (valid[1]),
    .data_o (aligned_q));

  assign half_d = tern_fp_pkg::add_sum_low(aligned_q);
  tern_pipe_reg #(.Width (HalfW), .Steps (Steps), .Latency (Latency), .Index (Index + 2)) u_low (
    .clk_i, .rst_ni, .en_i, .valid_i (valid[1]), .data_i (half_d), .valid_o (valid[2]),
    .data_o (half_q));

  assign summed_d = tern_fp_pkg::add_sum_high(half_q);
  tern_pipe_reg #(.Width (SummedW), .Steps (Steps), .Latency (Latency), .Index (Index + 3)) u_high (
    .clk_i, .rst_ni, .en_i, .valid_i (valid[2]), .data_i (summed_d), .valid_o (valid[3]),
    .data_o (summed_q));

  assign counted_d = tern_fp_pkg::add_count(summed_q);
  tern_pipe_reg #(.Width (CountedW), .Steps (Steps), .Latency (Latency), .Index (Index + 4)) u_count (
    .clk_i, .rst_ni, .en_i, .valid_i (valid[3]), .data_i (counted_d), .valid_o (valid[4]),
    .data_o (counted_q));

  assign prep_d = tern_fp_pkg::add_normalize_prep(counted_q);
  tern_pipe_reg #(.Width (PrepW), .Steps (Steps), .Latency (Latency), .Index (Index + 5)) u_prep (
    .clk_i, .rst_ni, .en_i, .valid_i (valid[4]), .data_i (prep_d), .valid_o, .data_o (prep_o));

endmodule
