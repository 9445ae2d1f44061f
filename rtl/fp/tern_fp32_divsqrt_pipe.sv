// IEEE-754 binary32 divide and square root, pipelined: the same results as tern_fp32_divsqrt,
// tern_fp32_div and tern_fp32_sqrt (RNE, subnormals honoured, canonical NaN; golden
// tern::fp32_div, fp32_sqrt), one operation a cycle, each choosing divide or square root with
// its own sqrt_i. The iterative unit's recurrence unrolled: 35 steps of at most 8 LUT6 levels,
// with Latency (0 .. 35) registers spread evenly over them (tern_pipe_reg). en_i low holds every
// stage. Steps: unpack, divsqrt_setup, 28 x divsqrt_digit, divsqrt_sum, round_prep, and
// tern_fp_round_tail's three. Where the iterative unit costs one operation per 37 cycles and
// about 1/28 of the digit logic, this one costs a digit stage per quotient bit for full rate.
module tern_fp32_divsqrt_pipe #(
  parameter int unsigned Latency = 35
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        en_i,
  input  logic        valid_i,
  input  logic        sqrt_i,   // 0: a_i / b_i, 1: sqrt(a_i)
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic        valid_o,
  output logic [31:0] result_o
);

  localparam int unsigned Digits = 28;
  localparam int unsigned Steps  = Digits + 7;
  localparam int unsigned W      = tern_fp_pkg::DivSqrtW;

  // Step 1: unpack both operands.
  logic [78:0] ops_d, ops_q;  // {sqrt, unpack(a), unpack(b)}
  logic        ops_valid;
  assign ops_d = {sqrt_i, tern_fp_pkg::unpack(tern_pkg::DtFp32, a_i), tern_fp_pkg::unpack(tern_pkg::DtFp32, b_i)};
  tern_pipe_reg #(.Width (79), .Steps (Steps), .Latency (Latency), .Index (1)) u_unpack (
    .clk_i, .rst_ni, .en_i, .valid_i, .data_i (ops_d), .valid_o (ops_valid), .data_o (ops_q));

  // Step 2: the recurrence's start; steps 3 .. 30: one digit each.
  logic [(Digits+1)*W-1:0] rec /* verilator split_var */;  // stage d at [W*d +: W]
  logic [Digits:0]         rec_valid;
  logic [W-1:0]            setup_d;
  assign setup_d = tern_fp_pkg::divsqrt_setup(ops_q[78], ops_q[77:0]);
  tern_pipe_reg #(.Width (W), .Steps (Steps), .Latency (Latency), .Index (2)) u_setup (
    .clk_i, .rst_ni, .en_i, .valid_i (ops_valid), .data_i (setup_d), .valid_o (rec_valid[0]),
    .data_o (rec[W-1:0]));
  for (genvar d = 0; d < Digits; d++) begin : gen_digit
    logic [W-1:0] digit_d;
    assign digit_d = tern_fp_pkg::divsqrt_digit(rec[W*d +: W]);
    tern_pipe_reg #(.Width (W), .Steps (Steps), .Latency (Latency), .Index (3 + d)) u_digit (
      .clk_i, .rst_ni, .en_i, .valid_i (rec_valid[d]), .data_i (digit_d), .valid_o (rec_valid[d+1]),
      .data_o (rec[W*(d+1) +: W]));
  end

  // Steps 31, 32: the sum form, round_prep; then the rounding tail.
  logic [41:0] sum_d, sum_q;
  logic        sum_valid, prep_valid;
  logic [tern_fp_pkg::RoundPrepW-1:0] prep_d, prep_q;
  assign sum_d = tern_fp_pkg::divsqrt_sum(rec[W*Digits +: W]);
  tern_pipe_reg #(.Width (42), .Steps (Steps), .Latency (Latency), .Index (Digits + 3)) u_sum (
    .clk_i, .rst_ni, .en_i, .valid_i (rec_valid[Digits]), .data_i (sum_d), .valid_o (sum_valid),
    .data_o (sum_q));
  assign prep_d = tern_fp_pkg::round_prep(tern_pkg::DtFp32, sum_q, tern_pkg::RoundRne, 1'b0, 32'd0);
  tern_pipe_reg #(.Width (tern_fp_pkg::RoundPrepW), .Steps (Steps), .Latency (Latency), .Index (Digits + 4)) u_prep (
    .clk_i, .rst_ni, .en_i, .valid_i (sum_valid), .data_i (prep_d), .valid_o (prep_valid),
    .data_o (prep_q));

  logic [3:0] unused_dtype;  // always fp32
  tern_fp_round_tail #(.Steps (Steps), .Latency (Latency)) u_round (
    .clk_i, .rst_ni, .en_i, .valid_i (prep_valid), .prep_i (prep_q), .valid_o,
    .dtype_o (unused_dtype), .bits_o (result_o));

endmodule
