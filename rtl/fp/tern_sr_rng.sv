// Per-lane stochastic-rounding generator (docs/numerics.md): xorshift32 (13, 17, 5), seeded
// from the seed CSR and the lane index through the murmur3 finaliser. seed_load_i (re)seeds;
// each draw_i advances one step and random_o shows the new state in the same cycle, so a
// converter consumes exactly one draw per element. Golden: tern::SrRng.
module tern_sr_rng (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [15:0] lane_i,     // the lane index: a constant where the engine instantiates it
  input  logic        seed_load_i,
  input  logic [31:0] seed_i,
  input  logic        draw_i,
  output logic [31:0] random_o    // valid with draw_i: the value this draw consumes
);

  localparam logic [31:0] ZeroStateReplacement = 32'h6A09E667;

  logic [31:0] state_q, state_d, next_state, seeded;

  function automatic logic [31:0] mix32(logic [31:0] v);
    mix32 = v ^ (v >> 16);
    mix32 = mix32 * 32'h85EBCA6B;
    mix32 = mix32 ^ (mix32 >> 13);
    mix32 = mix32 * 32'hC2B2AE35;
    mix32 = mix32 ^ (mix32 >> 16);
  endfunction

  function automatic logic [31:0] xorshift32(logic [31:0] v);
    xorshift32 = v ^ (v << 13);
    xorshift32 = xorshift32 ^ (xorshift32 >> 17);
    xorshift32 = xorshift32 ^ (xorshift32 << 5);
  endfunction

  always_comb begin
    seeded     = mix32(seed_i ^ mix32(32'(lane_i) + 32'd1));
    next_state = xorshift32(state_q);
    state_d    = state_q;
    if (seed_load_i) begin
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

endmodule
