// tern_prefix_add: a + b + cin as a Kogge-Stone parallel-prefix adder, log2(Width) levels of
// generate/propagate combining: written out because Yosys 0.23 maps `+` to a carry chain that
// ABC leaves about 13 LUT6 levels deep at 32 bits; this form measured 10 (docs/fpga.md).
module tern_prefix_add #(
  parameter int unsigned Width = 32,
  localparam int unsigned Levels = (Width > 1) ? $clog2(Width) : 1,
  localparam int unsigned W = Width
) (
  input  logic [Width-1:0] a_i,
  input  logic [Width-1:0] b_i,
  input  logic             cin_i,
  output logic [Width-1:0] sum_o
);
  // Generate and propagate over spans of 1, 2, 4, ... bits ending at each bit, one level of
  // combining per generate block; the carry into bit 0 is folded into bit 0's generate.
  logic [W-1:0] g0, p0;
  assign p0 = a_i ^ b_i;
  assign g0 = (a_i & b_i) | {{(W-1){1'b0}}, p0[0] & cin_i};
  for (genvar l = 0; l < Levels; l++) begin : gen_level
    logic [W-1:0] g_in, p_in, g, p;
    if (l == 0) begin : gen_first
      assign g_in = g0;
      assign p_in = p0;
    end else begin : gen_next
      assign g_in = gen_level[l-1].g;
      assign p_in = gen_level[l-1].p;
    end
    for (genvar i = 0; i < W; i++) begin : gen_bit
      if (i >= (1 << l)) begin : gen_combine
        assign g[i] = g_in[i] | (p_in[i] & g_in[i - (1 << l)]);
        assign p[i] = p_in[i] & p_in[i - (1 << l)];
      end else begin : gen_pass
        assign g[i] = g_in[i];
        assign p[i] = p_in[i];
      end
    end
  end
  // The carry into bit i is the combined generate of bits i-1 .. 0 (with cin).
  logic [W-1:0] carries;
  assign carries = gen_level[Levels-1].g;
  if (W > 1) begin : gen_sum
    assign sum_o = p0 ^ {carries[W-2:0], cin_i};
  end else begin : gen_sum1
    assign sum_o = p0 ^ cin_i;
  end

  // The last level's propagate and the top carry are not needed.
  logic unused;
  assign unused = ^gen_level[Levels-1].p ^ carries[W-1];
endmodule
