// The Tensor Engine's multiply-accumulate step, pipelined: the same result as
// tern_fp_pkg::mac_add(acc, mul_exact(unpack_part(a), unpack_part(b))) (the product of two
// operand parts exact, one RNE rounding of acc + product to fp32; golden tern::mac_step,
// tern::mac_step_exact) in thirteen steps of at
// most 8 LUT6 levels each, with Latency (0 .. 13) registers spread evenly over them
// (tern_pipe_reg). One step a cycle while en_i is high; en_i low holds every stage.
// Steps (tern_fp_pkg): unpack_part_fields, unpack_shift (both operands and acc), unpack_exp +
// mul_exact_rows, mul_exact_resolve (acc travels beside the product), add_order, add_align,
// add_sum_low, add_sum_high, add_count, add_normalize_prep, round_shift,
// round_increment, round_encode. The operand types are the Tensor Engine's (tern_fp_mac);
// a part other than tern_fp_pkg::PartWhole selects the fp32 decomposition's hi or lo.
module tern_fp_mac_pipe #(
  parameter int unsigned Latency = 13
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        en_i,
  input  logic        valid_i,
  input  logic [31:0] acc_i,      // fp32
  input  logic [3:0]  a_dtype_i,
  input  logic [31:0] a_i,
  input  logic [1:0]  a_part_i,
  input  logic [3:0]  b_dtype_i,
  input  logic [31:0] b_i,
  input  logic [1:0]  b_part_i,
  output logic        valid_o,
  output logic [31:0] acc_o       // fp32
);

  localparam int unsigned Steps = 13;
  localparam int unsigned RowsW = tern_fp_pkg::MulExactRowsW;
  localparam int unsigned PrepW = tern_fp_pkg::RoundPrepW;

  // {acc, a, b} in the fields form, then shifted; then {acc, rows}; then {acc, product}.
  logic [116:0]      fields_d, fields_q;
  logic [131:0]      ops_d, ops_q;
  logic [38+RowsW:0] rows_d, rows_q;
  logic [77:0]       prod_d, prod_q;
  logic [PrepW-1:0]  prep;
  logic [4:1]        valid;
  logic              prep_valid;

  assign fields_d = {tern_fp_pkg::unpack_fields(tern_pkg::DtFp32, acc_i),
                     tern_fp_pkg::unpack_part_fields(a_dtype_i, a_i, a_part_i),
                     tern_fp_pkg::unpack_part_fields(b_dtype_i, b_i, b_part_i)};
  tern_pipe_reg #(.Width (117), .Steps (Steps), .Latency (Latency), .Index (1)) u_fields (
    .clk_i, .rst_ni, .en_i, .valid_i, .data_i (fields_d), .valid_o (valid[1]), .data_o (fields_q));

  assign ops_d = {tern_fp_pkg::unpack_shift(fields_q[116:78]),
                  tern_fp_pkg::unpack_shift(fields_q[77:39]),
                  tern_fp_pkg::unpack_shift(fields_q[38:0])};
  tern_pipe_reg #(.Width (132), .Steps (Steps), .Latency (Latency), .Index (2)) u_ops (
    .clk_i, .rst_ni, .en_i, .valid_i (valid[1]), .data_i (ops_d), .valid_o (valid[2]),
    .data_o (ops_q));

  assign rows_d = {tern_fp_pkg::unpack_exp(ops_q[131:88]),
                   tern_fp_pkg::mul_exact_rows(tern_fp_pkg::unpack_exp(ops_q[87:44]),
                                               tern_fp_pkg::unpack_exp(ops_q[43:0]))};
  tern_pipe_reg #(.Width (39 + RowsW), .Steps (Steps), .Latency (Latency), .Index (3)) u_rows (
    .clk_i, .rst_ni, .en_i, .valid_i (valid[2]), .data_i (rows_d), .valid_o (valid[3]),
    .data_o (rows_q));

  assign prod_d = {rows_q[38+RowsW:RowsW], tern_fp_pkg::mul_exact_resolve(rows_q[RowsW-1:0])};
  tern_pipe_reg #(.Width (78), .Steps (Steps), .Latency (Latency), .Index (4)) u_prod (
    .clk_i, .rst_ni, .en_i, .valid_i (valid[3]), .data_i (prod_d), .valid_o (valid[4]),
    .data_o (prod_q));

  tern_fp_add_steps #(.Steps (Steps), .Latency (Latency), .Index (5)) u_add (
    .clk_i, .rst_ni, .en_i, .valid_i (valid[4]), .ops_i (prod_q), .valid_o (prep_valid),
    .prep_o (prep));

  logic [3:0] unused_dtype;  // always fp32
  tern_fp_round_tail #(.Steps (Steps), .Latency (Latency)) u_round (
    .clk_i, .rst_ni, .en_i, .valid_i (prep_valid), .prep_i (prep), .valid_o,
    .dtype_o (unused_dtype), .bits_o (acc_o));

endmodule
