// tern_mux: word sel_i of N words of W bits, as an AND-OR over the decoded index; an index of
// N or more gives 0. Use it where an index picks a word out of a flat vector: the part-select
// in_i[W*sel +: W] synthesises in Yosys as a shifter over all N*W bits (an 8 x 600-bit select
// measured 17,180 LUTs that way and 2,490 this way, docs/fpga.md).
module tern_mux #(
  parameter int unsigned N = 2,
  parameter int unsigned W = 32,
  localparam int unsigned IW = (N > 1) ? $clog2(N) : 1
) (
  input  logic [N*W-1:0] in_i,
  input  logic [IW-1:0]  sel_i,
  output logic [W-1:0]   out_o
);

  // A simulator reads the word directly: the AND-OR loop would cost it N words per read on the
  // sequencer's hot path. Same result for every index; synthesis, and `make formal` (the
  // arbiter's payload property), take the AND-OR.
`ifdef VERILATOR
  assign out_o = (32'(sel_i) < N) ? in_i[W*sel_i +: W] : '0;
`else
  always_comb begin
    out_o = '0;
    for (int unsigned k = 0; k < N; k++) out_o |= {W{32'(sel_i) == k}} & in_i[W*k +: W];
  end
`endif

`ifndef SYNTHESIS
  initial begin : params
    assert (N > 0 && W > 0) else $fatal(1, "tern_mux: N (%0d) and W (%0d) must be positive", N, W);
  end
`endif

endmodule
