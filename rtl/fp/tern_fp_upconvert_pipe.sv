// Any float dtype -> fp32, pipelined: the same result as tern_fp_upconvert (exact; NaN becomes
// the canonical fp32 NaN; golden tern::convert_to_fp32) in six steps of at most 8 LUT6 levels
// each, with Latency (0 .. 6) registers spread evenly over them (tern_pipe_reg). One
// conversion a cycle while en_i is high; en_i low holds every stage. Steps (tern_fp_pkg):
// unpack_fields, unpack_shift, unpack_exp + round_prep, round_shift, round_increment,
// round_encode.
module tern_fp_upconvert_pipe #(
  parameter int unsigned Latency = 6
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        en_i,
  input  logic        valid_i,
  input  logic [3:0]  dtype_i,     // source float dtype
  input  logic [31:0] bits_i,
  output logic        valid_o,
  output logic [31:0] fp32_o,
  output logic        dtype_ok_o   // the source dtype is a float dtype
);

  localparam int unsigned Steps = 6;
  localparam int unsigned PrepW = tern_fp_pkg::RoundPrepW;

  // The source dtype's check travels beside the value.
  logic [39:0]      fields_d, fields_q;
  logic [44:0]      shifted_d, shifted_q;
  logic [PrepW:0]   prep_d, prep_q;
  logic             fields_valid, shifted_valid, prep_valid;
  logic [3:0]       unused_dtype;  // always fp32
  logic [2:0]       ok_q;          // dtype_ok at the round tail's three boundaries

  assign fields_d = {tern_pkg::is_float_dtype(dtype_i), tern_fp_pkg::unpack_fields(dtype_i, bits_i)};
  tern_pipe_reg #(.Width (40), .Steps (Steps), .Latency (Latency), .Index (1)) u_fields (
    .clk_i, .rst_ni, .en_i, .valid_i, .data_i (fields_d), .valid_o (fields_valid),
    .data_o (fields_q));

  assign shifted_d = {fields_q[39], tern_fp_pkg::unpack_shift(fields_q[38:0])};
  tern_pipe_reg #(.Width (45), .Steps (Steps), .Latency (Latency), .Index (2)) u_shift (
    .clk_i, .rst_ni, .en_i, .valid_i (fields_valid), .data_i (shifted_d), .valid_o (shifted_valid),
    .data_o (shifted_q));

  assign prep_d = {shifted_q[44],
                   tern_fp_pkg::round_prep(tern_pkg::DtFp32,
                                           tern_fp_pkg::widen(tern_fp_pkg::unpack_exp(shifted_q[43:0])),
                                           tern_pkg::RoundRne, 1'b0, 32'd0)};
  tern_pipe_reg #(.Width (PrepW + 1), .Steps (Steps), .Latency (Latency), .Index (3)) u_prep (
    .clk_i, .rst_ni, .en_i, .valid_i (shifted_valid), .data_i (prep_d), .valid_o (prep_valid),
    .data_o (prep_q));

  tern_fp_round_tail #(.Steps (Steps), .Latency (Latency)) u_round (
    .clk_i, .rst_ni, .en_i, .valid_i (prep_valid), .prep_i (prep_q[PrepW-1:0]), .valid_o,
    .dtype_o (unused_dtype), .bits_o (fp32_o));

  // The flag takes the round tail's three boundaries (registers where the tail has them).
  for (genvar i = 0; i < 3; i++) begin : gen_ok
    logic in_ok;
    logic unused_valid;
    assign in_ok = (i == 0) ? prep_q[PrepW] : ok_q[i - 1];
    tern_pipe_reg #(.Width (1), .Steps (Steps), .Latency (Latency), .Index (Steps - 2 + i)) u_ok (
      .clk_i, .rst_ni, .en_i, .valid_i (1'b0), .data_i (in_ok), .valid_o (unused_valid),
      .data_o (ok_q[i]));
  end
  assign dtype_ok_o = ok_q[2];

endmodule
