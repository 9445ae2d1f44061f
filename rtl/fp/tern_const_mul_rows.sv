// tern_const_mul_rows: x * K mod 2^32 for a constant K, left as two rows (sum_o + carry_o is
// the product mod 2^32) for the adder behind it. The partial products are the rows x << i for
// K's set bits, gathered at elaboration (no zero rows), then reduced by 6:3 counters (each
// output bit a function of six inputs: one LUT6) and a final 3:2 step: up to 18 rows in four
// levels (18 -> 9 -> 6 -> 3 -> 2). tern_sr_rng's seed hash multiplies by two such constants.
module tern_const_mul_rows #(
  parameter logic [31:0] K = 32'h1
) (
  input  logic [31:0] x_i,
  output logic [31:0] sum_o,
  output logic [31:0] carry_o
);

  localparam int unsigned MaxRows = 18;

  function automatic int unsigned ones_below(logic [31:0] k, int unsigned i);
    ones_below = 0;
    for (int unsigned j = 0; j < 32; j++) begin
      if (j < i && k[j]) ones_below = ones_below + 1;
    end
  endfunction

  // Six rows to three: the per-column count of six bits, its bits at weights 1, 2 and 4.
  function automatic logic [95:0] count63(logic [191:0] r);
    logic [31:0] b0, b1, b2;
    logic [2:0]  n;
    for (int unsigned j = 0; j < 32; j++) begin
      n = 3'(r[j]) + 3'(r[32 + j]) + 3'(r[64 + j]) + 3'(r[96 + j]) + 3'(r[128 + j])
        + 3'(r[160 + j]);
      b0[j] = n[0];
      b1[j] = n[1];
      b2[j] = n[2];
    end
    count63 = {b2 << 2, b1 << 1, b0};
  endfunction

  // Three rows to two: tern_fp_pkg's carry-save adder, mod 2^32.
  function automatic logic [63:0] count32(logic [95:0] r);
    /* verilator lint_off UNUSEDSIGNAL */  // the 48-bit rows' top words
    logic [95:0] sc;
    /* verilator lint_on UNUSEDSIGNAL */
    sc      = tern_fp_pkg::csa(48'(r[31:0]), 48'(r[63:32]), 48'(r[95:64]));
    count32 = {sc[79:48], sc[31:0]};
  endfunction

  // The rows, K's set bits in order, zero above the last.
  logic [32*MaxRows-1:0] rows;
  for (genvar i = 0; i < 32; i++) begin : gen_row
    if (K[i]) begin : gen_set
      localparam int unsigned Slot = ones_below(K, i);
      assign rows[32*Slot +: 32] = x_i << i;
    end
  end
  if (ones_below(K, 32) < MaxRows) begin : gen_pad
    assign rows[32*MaxRows-1:32*ones_below(K, 32)] = '0;
  end

  logic [32*9-1:0] l1;
  logic [32*6-1:0] l2;
  logic [32*3-1:0] l3;
  assign l1 = {count63(rows[32*12 +: 192]), count63(rows[32*6 +: 192]), count63(rows[0 +: 192])};
  assign l2 = {l1[32*6 +: 96], count63(l1[0 +: 192])};
  assign l3 = count63(l2);
  assign {sum_o, carry_o} = count32(l3);

`ifndef SYNTHESIS
  initial begin : params
    assert (ones_below(K, 32) <= MaxRows)
      else $fatal(1, "tern_const_mul_rows: K = %h has more than %0d set bits", K, MaxRows);
  end
`endif

endmodule
