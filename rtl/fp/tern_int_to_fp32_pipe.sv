// int8 / uint8 / int32 -> fp32, pipelined: the same result as tern_fp_int_pkg::int_to_fp32
// (int32 RNE; golden tern::convert_to_fp32 with an integer dtype) in six steps of at most 8
// LUT6 levels each, with Latency (0 .. 6) registers spread evenly over them (tern_pipe_reg).
// One conversion a cycle while en_i is high; en_i low holds every stage. Steps
// (tern_fp_int_pkg, tern_fp_pkg): itf_magnitude, itf_count, itf_normalize + round_prep,
// round_shift, round_increment, round_encode.
module tern_int_to_fp32_pipe #(
  parameter int unsigned Latency = 6
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        en_i,
  input  logic        valid_i,
  input  logic [3:0]  dtype_i,   // int8, uint8 or int32 (another reads as int32)
  input  logic [31:0] bits_i,    // the integer's encoding in the low bits
  output logic        valid_o,
  output logic [31:0] fp32_o
);

  localparam int unsigned Steps  = 6;
  localparam int unsigned MagW   = tern_fp_int_pkg::ItfMagW;
  localparam int unsigned CountW = tern_fp_int_pkg::ItfCountW;
  localparam int unsigned PrepW  = tern_fp_pkg::RoundPrepW;

  logic [MagW-1:0]   mag_d, mag_q;
  logic [CountW-1:0] count_d, count_q;
  logic [PrepW-1:0]  prep_d, prep_q;
  logic              mag_valid, count_valid, prep_valid;
  logic [3:0]        unused_dtype;  // always fp32

  assign mag_d = tern_fp_int_pkg::itf_magnitude(dtype_i, bits_i);
  tern_pipe_reg #(.Width (MagW), .Steps (Steps), .Latency (Latency), .Index (1)) u_mag (
    .clk_i, .rst_ni, .en_i, .valid_i, .data_i (mag_d), .valid_o (mag_valid), .data_o (mag_q));

  assign count_d = tern_fp_int_pkg::itf_count(mag_q);
  tern_pipe_reg #(.Width (CountW), .Steps (Steps), .Latency (Latency), .Index (2)) u_count (
    .clk_i, .rst_ni, .en_i, .valid_i (mag_valid), .data_i (count_d), .valid_o (count_valid),
    .data_o (count_q));

  assign prep_d = tern_fp_pkg::round_prep(tern_pkg::DtFp32, tern_fp_int_pkg::itf_normalize(count_q),
                                          tern_pkg::RoundRne, 1'b0, 32'd0);
  tern_pipe_reg #(.Width (PrepW), .Steps (Steps), .Latency (Latency), .Index (3)) u_prep (
    .clk_i, .rst_ni, .en_i, .valid_i (count_valid), .data_i (prep_d), .valid_o (prep_valid),
    .data_o (prep_q));

  tern_fp_round_tail #(.Steps (Steps), .Latency (Latency)) u_round (
    .clk_i, .rst_ni, .en_i, .valid_i (prep_valid), .prep_i (prep_q), .valid_o,
    .dtype_o (unused_dtype), .bits_o (fp32_o));

endmodule
