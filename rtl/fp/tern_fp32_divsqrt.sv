// IEEE-754 binary32 divide and square root, iterative: the same results as tern_fp32_div and
// tern_fp32_sqrt (RNE, subnormals honoured, canonical NaN; golden tern::fp32_div, fp32_sqrt),
// one operation at a time in a fixed Latency cycles from the accepting handshake to out_valid_o.
//
// Steps, one a cycle: unpack; setup (sign, exponent, the special result, the first partial
// remainder); 28 digit steps of a restoring radix-2 recurrence, the quotient or root one bit a
// step (tern_fp_pkg::sub_select decides a step inside the budget); the sum form with the
// remainder as sticky bit; then round_prep and tern_fp_round_tail's three rounding steps. The
// quotient and remainder are the combinational divider's integer ones, so rounding sees the
// same bits. Special operands (NaN, Inf, zero) take the same number of cycles.
module tern_fp32_divsqrt (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        in_valid_i,
  output logic        in_ready_o,
  input  logic        sqrt_i,       // 0: a_i / b_i, 1: sqrt(a_i)
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic        out_valid_o,
  input  logic        out_ready_i,
  output logic [31:0] result_o
);

  localparam int unsigned Digits  = 28;
  // Accept, unpack, setup, the digits, the sum form, round_prep, the round tail's input and
  // its three registers, the result register.
  localparam int unsigned Latency = Digits + 9;

  typedef enum logic [3:0] {
    StIdle, StUnpack, StSetup, StDigits, StSum, StPrep, StRoundIn, StRound, StDone
  } state_e;

  state_e             state_q, state_d;
  logic               sqrt_q, sqrt_d;
  logic [31:0]        a_q, a_d, b_q, b_d;
  logic [77:0]        ops_q, ops_d;         // {unpack(a), unpack(b)}
  logic [4:0]         count_q, count_d;     // digits left
  logic [31:0]        rem_q, rem_d;         // partial remainder
  logic [27:0]        root_q, root_d;       // quotient or root so far
  logic [55:0]        feed_q, feed_d;       // dividend or radicand bits still to bring down
  logic [23:0]        divisor_q, divisor_d;
  logic               sign_q, sign_d;
  logic signed [11:0] exp_q, exp_d;         // the exponent of the sum form's bit 26
  logic [3:0]         special_q, special_d; // {nan, inf, zero, sign} of a special result
  logic [41:0]        sum_q, sum_d;
  logic [tern_fp_pkg::RoundPrepW-1:0] prep_q, prep_d;
  logic [31:0]        result_q, result_d;

  logic        a_nan, a_inf, a_zero, a_sign, b_nan, b_inf, b_zero, b_sign;
  logic [10:0] a_exp, b_exp;
  logic [23:0] a_sig, b_sig;
  assign {a_nan, a_inf, a_zero, a_sign, a_exp, a_sig} = ops_q[77:39];
  assign {b_nan, b_inf, b_zero, b_sign, b_exp, b_sig} = ops_q[38:0];

  // Setup: the sign, the exponent, the special result and the recurrence's start (the
  // combinational divider's rules: tern_fp_pkg div_special, div_exp, sqrt_special,
  // sqrt_operand). A quotient (a_sig << 27) / b_sig has 28 bits; its first partial remainder
  // is a_sig >> 1 (less than b_sig, so the bits above 27 are zero). A root brings down the
  // radicand two bits a step.
  logic               setup_sign;
  logic signed [11:0] setup_exp;
  logic [3:0]         setup_special;
  logic [31:0]        setup_rem;
  logic [55:0]        setup_feed;
  always_comb begin
    if (sqrt_q) begin
      setup_sign              = 1'b0;
      {setup_exp, setup_feed} = tern_fp_pkg::sqrt_operand(a_exp, a_sig);
      setup_rem               = '0;
      setup_special           = tern_fp_pkg::sqrt_special({a_nan, a_inf, a_zero, a_sign});
    end else begin
      setup_sign    = a_sign ^ b_sign;
      setup_exp     = tern_fp_pkg::div_exp(a_exp, b_exp);
      setup_rem     = {9'd0, a_sig[23:1]};
      setup_feed    = {a_sig[0], 55'd0};
      setup_special = tern_fp_pkg::div_special({a_nan, a_inf, a_zero, a_sign}, {b_nan, b_inf, b_zero, b_sign});
    end
  end

  // One digit: bring down one dividend bit (two radicand bits), subtract the divisor (the
  // trial root*4 + 1) when it fits.
  logic [31:0] digit_rem;
  logic        digit_fits;
  always_comb begin
    logic [31:0] shifted, trial;
    logic [32:0] diff;
    shifted    = sqrt_q ? {rem_q[29:0], feed_q[55:54]} : {rem_q[30:0], feed_q[55]};
    trial      = sqrt_q ? {2'b00, root_q, 2'b01} : {8'd0, divisor_q};
    diff       = tern_fp_pkg::sub_select(shifted, trial);
    digit_fits = !diff[32];
    digit_rem  = digit_fits ? diff[31:0] : shifted;
  end

  logic        tail_valid, tail_done;
  logic [3:0]  unused_dtype;  // always fp32
  logic [31:0] tail_bits;
  tern_fp_round_tail #(.Steps (3), .Latency (3)) u_round (
    .clk_i, .rst_ni, .en_i (1'b1), .valid_i (tail_valid), .prep_i (prep_q), .valid_o (tail_done),
    .dtype_o (unused_dtype), .bits_o (tail_bits));

  always_comb begin
    state_d   = state_q;
    sqrt_d    = sqrt_q;
    a_d       = a_q;
    b_d       = b_q;
    ops_d     = ops_q;
    count_d   = count_q;
    rem_d     = rem_q;
    root_d    = root_q;
    feed_d    = feed_q;
    divisor_d = divisor_q;
    sign_d    = sign_q;
    exp_d     = exp_q;
    special_d = special_q;
    sum_d     = sum_q;
    prep_d    = prep_q;
    result_d  = result_q;
    tail_valid = 1'b0;
    unique case (state_q)
      StIdle: begin
        if (in_valid_i) begin
          sqrt_d  = sqrt_i;
          a_d     = a_i;
          b_d     = b_i;
          state_d = StUnpack;
        end
      end
      StUnpack: begin
        ops_d   = {tern_fp_pkg::unpack(tern_pkg::DtFp32, a_q), tern_fp_pkg::unpack(tern_pkg::DtFp32, b_q)};
        state_d = StSetup;
      end
      StSetup: begin
        sign_d    = setup_sign;
        exp_d     = setup_exp;
        special_d = setup_special;
        rem_d     = setup_rem;
        feed_d    = setup_feed;
        divisor_d = b_sig | 24'(b_zero);  // never 0: a zero divisor's result is special
        root_d    = '0;
        count_d   = 5'(Digits - 1);
        state_d   = StDigits;
      end
      StDigits: begin
        rem_d   = digit_rem;
        root_d  = {root_q[26:0], digit_fits};
        feed_d  = sqrt_q ? {feed_q[53:0], 2'b00} : {feed_q[54:0], 1'b0};
        count_d = count_q - 5'd1;
        if (count_q == 5'd0) state_d = StSum;
      end
      StSum: begin
        sum_d   = tern_fp_pkg::special_or_sum(special_q,
                                              tern_fp_pkg::sum_from_28(sign_q, exp_q, root_q, rem_q != 32'd0));
        state_d = StPrep;
      end
      StPrep: begin
        prep_d  = tern_fp_pkg::round_prep(tern_pkg::DtFp32, sum_q, tern_pkg::RoundRne, 1'b0, 32'd0);
        state_d = StRoundIn;
      end
      StRoundIn: begin
        tail_valid = 1'b1;
        state_d    = StRound;
      end
      StRound: begin
        if (tail_done) begin
          result_d = tail_bits;
          state_d  = StDone;
        end
      end
      StDone: begin
        if (out_ready_i) state_d = StIdle;
      end
      default: state_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q   <= StIdle;
      sqrt_q    <= 1'b0;
      a_q       <= '0;
      b_q       <= '0;
      ops_q     <= '0;
      count_q   <= '0;
      rem_q     <= '0;
      root_q    <= '0;
      feed_q    <= '0;
      divisor_q <= '0;
      sign_q    <= 1'b0;
      exp_q     <= '0;
      special_q <= '0;
      sum_q     <= '0;
      prep_q    <= '0;
      result_q  <= '0;
    end else begin
      state_q   <= state_d;
      sqrt_q    <= sqrt_d;
      a_q       <= a_d;
      b_q       <= b_d;
      ops_q     <= ops_d;
      count_q   <= count_d;
      rem_q     <= rem_d;
      root_q    <= root_d;
      feed_q    <= feed_d;
      divisor_q <= divisor_d;
      sign_q    <= sign_d;
      exp_q     <= exp_d;
      special_q <= special_d;
      sum_q     <= sum_d;
      prep_q    <= prep_d;
      result_q  <= result_d;
    end
  end

  assign in_ready_o  = state_q == StIdle;
  assign out_valid_o = state_q == StDone;
  assign result_o    = result_q;

`ifndef SYNTHESIS
  // The fixed latency: out_valid_o rises Latency cycles after the accepting handshake.
  int unsigned since_q, since_d;
  assign since_d = (in_valid_i && in_ready_o) ? 1 : (since_q != 0) ? since_q + 1 : 0;
  always_ff @(posedge clk_i) since_q <= since_d;
  fixed_latency: assert property (@(posedge clk_i) disable iff (!rst_ni)
      $rose(out_valid_o) |-> since_q == Latency);
  out_holds: assert property (@(posedge clk_i) disable iff (!rst_ni)
      out_valid_o && !out_ready_i |=> out_valid_o && $stable(result_o));
`endif

endmodule
