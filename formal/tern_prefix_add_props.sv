// tern_prefix_add_props: the Kogge-Stone adder equals a + b + cin, for every input, at the width
// given (`make formal` proves 32, the GPSIMD core's ALU, and 7, a width that is no power of two).
//   sum     the prefix adder's sum is the modular sum
//   cover   a carry rippling through every bit, and a sum with its top bit set
// Combinational: every input is free in every cycle, so a one-cycle check covers all of them.
module tern_prefix_add_props #(
  parameter int unsigned Width = 32
) (
  input logic             clk_i,
  input logic [Width-1:0] a_i,
  input logic [Width-1:0] b_i,
  input logic             cin_i
);

  logic [Width-1:0] sum;
  tern_prefix_add #(.Width(Width)) u_dut (
    .a_i,
    .b_i,
    .cin_i,
    .sum_o(sum)
  );

`ifndef SYNTHESIS
  logic [Width-1:0] want;
  assign want = a_i + b_i + Width'(cin_i);

  always_ff @(posedge clk_i) begin
    sum_ok: assert (sum == want);
    cover_ripple: cover (a_i == '1 && b_i == '0 && cin_i && sum == '0);
    cover_top: cover (sum[Width-1]);
  end
`endif

endmodule
