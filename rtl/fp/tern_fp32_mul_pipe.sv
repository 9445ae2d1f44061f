// IEEE-754 binary32 multiplier, pipelined: the same result as tern_fp32_mul (RNE, subnormals
// honoured, canonical NaN; golden tern::fp32_mul) in seven steps of at most 8 LUT6 levels each,
// with Latency (0 .. 7) registers spread evenly over them (tern_pipe_reg). One product a cycle
// while en_i is high; en_i low holds every stage. Steps (tern_fp_pkg): unpack, mul_rows (24
// partial products to two rows in seven carry-save levels), mul_resolve (the prefix adder),
// mul_sum_form + round_prep, round_shift, round_increment, round_encode. With TERN_DSP_PRODUCT
// defined (an FPGA's area) mul_rows forms the product at once, for the DSP blocks.
module tern_fp32_mul_pipe #(
  parameter int unsigned Latency = 7
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        en_i,
  input  logic        valid_i,
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic        valid_o,
  output logic [31:0] product_o
);

  localparam int unsigned Steps     = 7;
  localparam int unsigned RowsW     = tern_fp_pkg::MulRowsW;
  localparam int unsigned ResolvedW = tern_fp_pkg::MulResolvedW;
  localparam int unsigned PrepW     = tern_fp_pkg::RoundPrepW;

  logic [77:0]          ops_d, ops_q;
  logic [RowsW-1:0]     rows_d, rows_q;
  logic [ResolvedW-1:0] res_d, res_q;
  logic [PrepW-1:0]     prep_d, prep_q;
  logic [3:1]           valid;
  logic                 prep_valid;

  assign ops_d = {tern_fp_pkg::unpack(tern_pkg::DtFp32, a_i), tern_fp_pkg::unpack(tern_pkg::DtFp32, b_i)};
  tern_pipe_reg #(.Width (78), .Steps (Steps), .Latency (Latency), .Index (1)) u_ops (
    .clk_i, .rst_ni, .en_i, .valid_i, .data_i (ops_d), .valid_o (valid[1]), .data_o (ops_q));

`ifdef TERN_DSP_PRODUCT
  assign rows_d = tern_fp_pkg::mul_product_rows(ops_q[77:39], ops_q[38:0]);  // DSP blocks
`else
  assign rows_d = tern_fp_pkg::mul_rows(ops_q[77:39], ops_q[38:0]);
`endif
  tern_pipe_reg #(.Width (RowsW), .Steps (Steps), .Latency (Latency), .Index (2)) u_rows (
    .clk_i, .rst_ni, .en_i, .valid_i (valid[1]), .data_i (rows_d), .valid_o (valid[2]),
    .data_o (rows_q));

  assign res_d = tern_fp_pkg::mul_resolve(rows_q);
  tern_pipe_reg #(.Width (ResolvedW), .Steps (Steps), .Latency (Latency), .Index (3)) u_res (
    .clk_i, .rst_ni, .en_i, .valid_i (valid[2]), .data_i (res_d), .valid_o (valid[3]),
    .data_o (res_q));

  assign prep_d = tern_fp_pkg::round_prep(tern_pkg::DtFp32, tern_fp_pkg::mul_sum_form(res_q),
                                          tern_pkg::RoundRne, 1'b0, 32'd0);
  tern_pipe_reg #(.Width (PrepW), .Steps (Steps), .Latency (Latency), .Index (4)) u_prep (
    .clk_i, .rst_ni, .en_i, .valid_i (valid[3]), .data_i (prep_d), .valid_o (prep_valid),
    .data_o (prep_q));

  logic [3:0] unused_dtype;  // always fp32
  tern_fp_round_tail #(.Steps (Steps), .Latency (Latency)) u_round (
    .clk_i, .rst_ni, .en_i, .valid_i (prep_valid), .prep_i (prep_q), .valid_o,
    .dtype_o (unused_dtype), .bits_o (product_o));

endmodule
