// tern_gpsimd_muldiv: the M extension of a GPSIMD core, iterative over one 34-bit adder
// (docs/gpsimd.md "Pipeline"). start_i in the cycle the instruction enters EX; done_o and
// result_o exactly MulDivCycles cycles later, whatever the operation or operands, so the
// ISS's cycle estimate is exact:
//   cycle 1   divide: |a| (signed divide or remainder of a negative dividend)
//   cycle 2   divide: |b|, and whether b is zero
//   cycles 3-34  one bit per cycle: multiply by shift-and-add on two's complement (the last
//             step subtracts for a signed multiplier), divide by restoring subtraction
//   cycle 35  the result: the product's half, or the quotient/remainder with its sign (and the
//             manual's results for division by zero; overflow needs none)
//   cycle 36  done_o
module tern_gpsimd_muldiv (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        start_i,
  input  logic [2:0]  op_i,      // funct3: mul mulh mulhsu mulhu div divu rem remu
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic        busy_o,
  output logic        done_o,
  output logic [31:0] result_o
);

  typedef enum logic [2:0] { MdIdle, MdAbsA, MdAbsB, MdStep, MdFix, MdDone } md_state_e;

  md_state_e   state_q, state_d;
  logic [2:0]  op_q, op_d;
  logic [33:0] acc_q, acc_d;   // multiply: the running high part; divide: the remainder
  logic [31:0] lo_q, lo_d;     // multiply: multiplier, then the product's low half; divide: dividend, then quotient
  logic [32:0] m_q, m_d;       // multiply: the multiplicand, extended; divide: the divisor
  logic [4:0]  step_q, step_d;
  logic        neg_a_q, neg_a_d, neg_b_q, neg_b_d, zero_b_q, zero_b_d;
  logic [31:0] result_q, result_d;

  logic is_div, signed_a, signed_b;
  assign is_div   = op_q[2];
  assign signed_a = is_div ? !op_q[0] : (op_q[1:0] == 2'd1 || op_q[1:0] == 2'd2);
  assign signed_b = is_div ? !op_q[0] : (op_q[1:0] == 2'd1);

  // The one adder: x + y + cin, 34 bits.
  logic [33:0] add_x, add_y, sum;
  logic        add_cin;
  assign sum = add_x + add_y + {33'b0, add_cin};

  logic [32:0] rem_shift;
  assign rem_shift = {acc_q[31:0], lo_q[31]};
  logic last_step;
  assign last_step = 32'(step_q) == tern_gpsimd_pkg::MulDivSteps - 1;

  always_comb begin
    add_x   = acc_q;
    add_y   = {m_q[32], m_q};
    add_cin = 1'b0;
    unique case (state_q)
      MdAbsA: begin
        add_x = {2'b0, ~lo_q};
        add_y = '0;
        add_cin = 1'b1;
      end
      MdAbsB: begin
        add_x = {2'b0, ~m_q[31:0]};
        add_y = '0;
        add_cin = 1'b1;
      end
      MdStep: begin
        if (is_div) begin
          add_x = {1'b0, rem_shift};
          add_y = ~{2'b0, m_q[31:0]};
          add_cin = 1'b1;
        end else if (last_step && signed_b) begin
          add_y = ~{m_q[32], m_q};
          add_cin = 1'b1;
        end
      end
      MdFix: begin
        add_x = {2'b0, ~(op_q[1] ? acc_q[31:0] : lo_q)};
        add_y = '0;
        add_cin = 1'b1;
      end
      default: ;
    endcase
  end

  always_comb begin
    state_d  = state_q;
    op_d     = op_q;
    acc_d    = acc_q;
    lo_d     = lo_q;
    m_d      = m_q;
    step_d   = step_q;
    neg_a_d  = neg_a_q;
    neg_b_d  = neg_b_q;
    zero_b_d = zero_b_q;
    result_d = result_q;
    unique case (state_q)
      MdIdle: if (start_i) begin
        state_d = MdAbsA;
        op_d    = op_i;
        lo_d    = op_i[2] ? a_i : b_i;
        m_d     = op_i[2] ? {1'b0, b_i} : {(op_i[1:0] == 2'd1 || op_i[1:0] == 2'd2) && a_i[31], a_i};
        acc_d   = '0;
      end
      MdAbsA: begin
        state_d = MdAbsB;
        neg_a_d = is_div && signed_a && lo_q[31];
        if (neg_a_d) lo_d = sum[31:0];
      end
      MdAbsB: begin
        state_d  = MdStep;
        step_d   = '0;
        neg_b_d  = is_div && signed_b && m_q[31];
        zero_b_d = m_q[31:0] == '0;
        if (neg_b_d) m_d = {1'b0, sum[31:0]};
      end
      MdStep: begin
        step_d = step_q + 5'd1;
        if (last_step) state_d = MdFix;
        if (is_div) begin
          acc_d = sum[33] ? {1'b0, rem_shift} : sum;  // negative difference: restore
          lo_d  = {lo_q[30:0], !sum[33]};
        end else begin
          acc_d = lo_q[0] ? {sum[33], sum[33:1]} : {acc_q[33], acc_q[33:1]};
          lo_d  = {lo_q[0] ? sum[0] : acc_q[0], lo_q[31:1]};
        end
      end
      MdFix: begin
        state_d = MdDone;
        if (!is_div) begin
          result_d = op_q[1:0] == 2'd0 ? lo_q : acc_q[31:0];
        end else if (op_q[1]) begin  // rem, remu: the dividend's sign
          result_d = neg_a_q ? sum[31:0] : acc_q[31:0];
        end else begin               // div, divu
          result_d = zero_b_q ? 32'hFFFF_FFFF : (neg_a_q ^ neg_b_q) ? sum[31:0] : lo_q;
        end
      end
      MdDone: state_d = MdIdle;
      default: state_d = MdIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) state_q <= MdIdle;
    else         state_q <= state_d;
  end
  always_ff @(posedge clk_i) begin
    op_q     <= op_d;
    acc_q    <= acc_d;
    lo_q     <= lo_d;
    m_q      <= m_d;
    step_q   <= step_d;
    neg_a_q  <= neg_a_d;
    neg_b_q  <= neg_b_d;
    zero_b_q <= zero_b_d;
    result_q <= result_d;
  end

  assign busy_o   = state_q != MdIdle;
  assign done_o   = state_q == MdDone;
  assign result_o = result_q;

`ifndef SYNTHESIS
  start_when_idle: assert property (@(posedge clk_i) disable iff (!rst_ni) start_i |-> state_q == MdIdle)
    else $error("tern_gpsimd_muldiv: start while an operation is in flight");
  // The cycle count the ISS models (tern_gpsimd_pkg::MulDivCycles) is the sequence above.
  int unsigned since_start_q, since_start_d;
  assign since_start_d = start_i ? 1 : since_start_q + 1;
  always_ff @(posedge clk_i) since_start_q <= since_start_d;
  fixed_latency: assert property (@(posedge clk_i) disable iff (!rst_ni) done_o |-> since_start_q == tern_gpsimd_pkg::MulDivCycles)
    else $error("tern_gpsimd_muldiv: done %0d cycles after start, not %0d", since_start_q, tern_gpsimd_pkg::MulDivCycles);
`endif

endmodule
