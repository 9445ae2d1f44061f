// Per-lane stochastic-rounding generator (docs/numerics.md): xorshift32 (13, 17, 5), seeded
// from the seed CSR and the lane index through the murmur3 finaliser. Golden: tern::SrRng.
//   seed_load_i (re)seeds: the seed's hash runs through a pipeline of seven steps (the seed
//     mixed with the lane's constant; each multiply of mix32 a reduction of its partial products
//     to two rows by 6:3 counters (tern_const_mul_rows), then its low and its high half
//     added), with
//     SeedLatency registers spread over them (tern_pipe_reg); the state holds it SeedLatency + 1
//     cycles after the load, and seeding_o is high while a seed is on its way. A draw in those
//     cycles is lost when the seed lands. After reset the engines load seed 0 in their first
//     cycle; their first conversion reaches its draw later than the seed lands.
//   draw_i advances one step and random_o shows the new state in the same cycle, so a
//     converter consumes exactly one draw per element.
module tern_sr_rng #(
  parameter int unsigned SeedLatency = 7
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [15:0] lane_i,     // the lane index: a constant where the engine instantiates it
  input  logic        seed_load_i,
  input  logic [31:0] seed_i,
  input  logic        draw_i,
  output logic [31:0] random_o,   // valid with draw_i: the value this draw consumes
  output logic        seeding_o   // a seed is in the hash pipeline
);

  localparam logic [31:0] ZeroStateReplacement = 32'h6A09E667;
  localparam logic [31:0] Mul1 = 32'h85EBCA6B;
  localparam logic [31:0] Mul2 = 32'hC2B2AE35;
  localparam int unsigned Steps = 7;

  // --- the finaliser's arithmetic -------------------------------------------------------------
  function automatic logic [31:0] mix32(logic [31:0] v);
    mix32 = v ^ (v >> 16);
    mix32 = mix32 * Mul1;
    mix32 = mix32 ^ (mix32 >> 13);
    mix32 = mix32 * Mul2;
    mix32 = mix32 ^ (mix32 >> 16);
  endfunction

  // The product's two rows (tern_const_mul_rows) added in two steps, low half then high.
  function automatic logic [48:0] add_low(logic [63:0] r);
    add_low = {r[63:48], r[31:16], {1'b0, r[47:32]} + {1'b0, r[15:0]}};
  endfunction

  function automatic logic [31:0] add_high(logic [48:0] h);
    add_high = {h[48:33] + h[32:17] + {15'd0, h[16]}, h[15:0]};
  endfunction

  function automatic logic [31:0] xorshift32(logic [31:0] v);
    xorshift32 = v ^ (v << 13);
    xorshift32 = xorshift32 ^ (xorshift32 >> 17);
    xorshift32 = xorshift32 ^ (xorshift32 << 5);
  endfunction

  // --- the seed's hash: mix32(seed ^ mix32(lane + 1)) in seven steps ------------------------------
  logic [63:0] rows1_d, rows1_q, rows2_d, rows2_q;
  logic [48:0] low1_d, low1_q, low2_d, low2_q;
  logic [31:0] prod1_d, prod1_q, prod2_d, prod2_q, seeded, x1_d, x1_q;
  logic [6:0]  valid;

  assign x1_d = seed_i ^ mix32(32'(lane_i) + 32'd1);
  tern_pipe_reg #(.Width (32), .Steps (Steps), .Latency (SeedLatency), .Index (1)) u_x1 (
    .clk_i, .rst_ni, .en_i (1'b1), .valid_i (seed_load_i), .data_i (x1_d), .valid_o (valid[0]),
    .data_o (x1_q));
  tern_const_mul_rows #(.K(Mul1)) u_mul1 (
    .x_i(x1_q ^ (x1_q >> 16)), .sum_o(rows1_d[63:32]), .carry_o(rows1_d[31:0]));
  tern_pipe_reg #(.Width (64), .Steps (Steps), .Latency (SeedLatency), .Index (2)) u_rows1 (
    .clk_i, .rst_ni, .en_i (1'b1), .valid_i (valid[0]), .data_i (rows1_d), .valid_o (valid[1]),
    .data_o (rows1_q));
  assign low1_d = add_low(rows1_q);
  tern_pipe_reg #(.Width (49), .Steps (Steps), .Latency (SeedLatency), .Index (3)) u_low1 (
    .clk_i, .rst_ni, .en_i (1'b1), .valid_i (valid[1]), .data_i (low1_d), .valid_o (valid[2]),
    .data_o (low1_q));
  assign prod1_d = add_high(low1_q);
  tern_pipe_reg #(.Width (32), .Steps (Steps), .Latency (SeedLatency), .Index (4)) u_prod1 (
    .clk_i, .rst_ni, .en_i (1'b1), .valid_i (valid[2]), .data_i (prod1_d), .valid_o (valid[3]),
    .data_o (prod1_q));
  tern_const_mul_rows #(.K(Mul2)) u_mul2 (
    .x_i(prod1_q ^ (prod1_q >> 13)), .sum_o(rows2_d[63:32]), .carry_o(rows2_d[31:0]));
  tern_pipe_reg #(.Width (64), .Steps (Steps), .Latency (SeedLatency), .Index (5)) u_rows2 (
    .clk_i, .rst_ni, .en_i (1'b1), .valid_i (valid[3]), .data_i (rows2_d), .valid_o (valid[4]),
    .data_o (rows2_q));
  assign low2_d = add_low(rows2_q);
  tern_pipe_reg #(.Width (49), .Steps (Steps), .Latency (SeedLatency), .Index (6)) u_low2 (
    .clk_i, .rst_ni, .en_i (1'b1), .valid_i (valid[4]), .data_i (low2_d), .valid_o (valid[5]),
    .data_o (low2_q));
  // The finaliser's last xor-shift follows the register: the high half's add fills its step.
  assign prod2_d = add_high(low2_q);
  tern_pipe_reg #(.Width (32), .Steps (Steps), .Latency (SeedLatency), .Index (7)) u_prod2 (
    .clk_i, .rst_ni, .en_i (1'b1), .valid_i (valid[5]), .data_i (prod2_d), .valid_o (valid[6]),
    .data_o (prod2_q));
  assign seeded = prod2_q ^ (prod2_q >> 16);
  assign seeding_o = |valid;

  // --- the generator ------------------------------------------------------------------------
  logic [31:0] state_q, state_d, next_state;

  always_comb begin
    next_state = xorshift32(state_q);
    state_d    = state_q;
    if (valid[6]) begin
      state_d = (seeded == 32'd0) ? ZeroStateReplacement : seeded;
    end else if (draw_i) begin
      state_d = next_state;
    end
  end

  assign random_o = next_state;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= ZeroStateReplacement;
    end else begin
      state_q <= state_d;
    end
  end

`ifndef SYNTHESIS
  // A draw while a seed is on its way would be lost when it lands: the engines' first draw
  // comes later, and the host writes SR_SEED while no conversion with SR runs.
  draw_settled: assert property (@(posedge clk_i) disable iff (!rst_ni) draw_i |-> !seeding_o)
    else $error("tern_sr_rng: lane %0d draws while a seed is on its way", lane_i);
`endif

endmodule
