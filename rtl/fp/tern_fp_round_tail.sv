// tern_fp_round_tail: the last three steps of every rounding unit, tern_fp_pkg's round_shift,
// round_increment and round_encode, as boundaries Steps - 2 .. Steps of a unit of Steps steps
// and Latency registers (tern_pipe_reg). The unit's own steps end in round_prep's form.
module tern_fp_round_tail #(
  parameter int unsigned Steps   = 3,
  parameter int unsigned Latency = 3
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        en_i,
  input  logic        valid_i,
  input  logic [tern_fp_pkg::RoundPrepW-1:0] prep_i,
  output logic        valid_o,
  output logic [3:0]  dtype_o,  // the result's dtype (round_prep's dt), beside it
  output logic [31:0] bits_o
);

  localparam int unsigned ShiftW = tern_fp_pkg::RoundShiftW;
  localparam int unsigned IncW   = tern_fp_pkg::RoundIncW;

  logic [ShiftW-1:0] shift_d, shift_q;
  logic [IncW-1:0]   inc_d, inc_q;
  logic [31:0]       bits_d;
  logic              shift_valid, inc_valid;

  assign shift_d = tern_fp_pkg::round_shift(prep_i);
  tern_pipe_reg #(.Width (ShiftW), .Steps (Steps), .Latency (Latency), .Index (Steps - 2)) u_shift (
    .clk_i, .rst_ni, .en_i, .valid_i, .data_i (shift_d), .valid_o (shift_valid), .data_o (shift_q));

  assign inc_d = tern_fp_pkg::round_increment(shift_q);
  tern_pipe_reg #(.Width (IncW), .Steps (Steps), .Latency (Latency), .Index (Steps - 1)) u_inc (
    .clk_i, .rst_ni, .en_i, .valid_i (shift_valid), .data_i (inc_d), .valid_o (inc_valid),
    .data_o (inc_q));

  assign bits_d = tern_fp_pkg::round_encode(inc_q);
  tern_pipe_reg #(.Width (36), .Steps (Steps), .Latency (Latency), .Index (Steps)) u_encode (
    .clk_i, .rst_ni, .en_i, .valid_i (inc_valid), .data_i ({inc_q[IncW-1 -: 4], bits_d}), .valid_o,
    .data_o ({dtype_o, bits_o}));

endmodule
