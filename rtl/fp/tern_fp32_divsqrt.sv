// IEEE-754 binary32 divide and square root, iterative: the same results as tern_fp32_div and
// tern_fp32_sqrt (RNE, subnormals honoured, canonical NaN; golden tern::fp32_div, fp32_sqrt),
// one operation at a time in a fixed Latency cycles from the accepting handshake to out_valid_o.
//
// Steps, one a cycle: unpack; setup (sign, exponent, the special result, the first partial
// remainder); 28 digit steps of a restoring radix-2 recurrence, the quotient or root one bit a
// step (tern_fp_pkg::sub_select decides a step inside the budget); the sum form with the
// remainder as sticky bit; then round_prep and tern_fp_round_tail's three rounding steps. The
// recurrence is tern_fp_pkg's divsqrt_setup, divsqrt_digit and divsqrt_sum, which
// tern_fp32_divsqrt_pipe unrolls into one stage per digit. The
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
  logic [tern_fp_pkg::DivSqrtW-1:0] rec_q, rec_d;  // the recurrence (tern_fp_pkg::divsqrt_*)
  logic [41:0]        sum_q, sum_d;
  logic [tern_fp_pkg::RoundPrepW-1:0] prep_q, prep_d;
  logic [31:0]        result_q, result_d;

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
    rec_d     = rec_q;
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
        rec_d   = tern_fp_pkg::divsqrt_setup(sqrt_q, ops_q);
        count_d = 5'(Digits - 1);
        state_d = StDigits;
      end
      StDigits: begin
        rec_d   = tern_fp_pkg::divsqrt_digit(rec_q);
        count_d = count_q - 5'd1;
        if (count_q == 5'd0) state_d = StSum;
      end
      StSum: begin
        sum_d   = tern_fp_pkg::divsqrt_sum(rec_q);
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
      rec_q     <= '0;
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
      rec_q     <= rec_d;
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
