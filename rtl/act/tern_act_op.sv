// One binary32 operation of the Scalar Engine's pipeline with its operands aligned: a_i is
// valid TA advances after the beat's entry and b_i TB (a constant operand is given the other
// one's time); the earlier one waits in a tern_pipe_delay, and result_o is valid
// tern_act_pkg::later(TA, TB) + the unit's latency advances after the entry. Op (tern_act_pkg
// Op*): a_i + b_i (tern_fp32_add_pipe, AddLat), a_i * b_i (tern_fp32_mul_pipe, MulLat), a_i / b_i
// or sqrt(a_i) (tern_fp32_divsqrt_pipe, one operation a cycle, DivLat; b_i unused for sqrt).
// In simulation (tern_fp_pkg::FastSim) the unit is its whole operation -- tern_fp_pkg's
// function, which the unit's steps compose and its own tests hold it to -- and the same
// latency: Verilator writes every instance's steps out in full, which for the lanes' hundreds
// of units would not compile (docs/decisions.md). Synthesis builds the steps.
module tern_act_op #(
  parameter logic [1:0]  Op = tern_act_pkg::OpAdd,
  parameter int unsigned TA = 0,
  parameter int unsigned TB = 0
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        en_i,
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [31:0] result_o
);
  localparam int unsigned T = tern_act_pkg::later(TA, TB);

  logic [31:0] a, b;
  logic        unused_valid;
  tern_pipe_delay #(.Width (32), .Delay (T - TA)) u_a (.clk_i, .rst_ni, .en_i, .data_i (a_i), .data_o (a));
  tern_pipe_delay #(.Width (32), .Delay (T - TB)) u_b (.clk_i, .rst_ni, .en_i, .data_i (b_i), .data_o (b));

  if (tern_fp_pkg::FastSim) begin : gen_fast
    // Simulation (tern_fp_pkg::FastSim): the whole operation at once, then its latency.
    logic [31:0] result;
    always_comb begin
      unique case (Op)
        tern_act_pkg::OpAdd: result = tern_fp_pkg::fp32_add(a, b);
        tern_act_pkg::OpMul: result = tern_fp_pkg::fp32_mul(a, b);
        tern_act_pkg::OpDiv: result = tern_fp_pkg::fp32_div(a, b);
        default:             result = tern_fp_pkg::fp32_sqrt(a);
      endcase
    end
    tern_pipe_delay #(.Width (32), .Delay (tern_act_pkg::op_lat(Op))) u_line (
      .clk_i, .rst_ni, .en_i, .data_i (result), .data_o (result_o));
    assign unused_valid = 1'b0;
  end else if (Op == tern_act_pkg::OpAdd) begin : gen_add
    tern_fp32_add_pipe u_add (
      .clk_i, .rst_ni, .en_i, .valid_i (1'b1), .a_i (a), .b_i (b), .valid_o (unused_valid),
      .sum_o (result_o));
  end else if (Op == tern_act_pkg::OpMul) begin : gen_mul
    tern_fp32_mul_pipe u_mul (
      .clk_i, .rst_ni, .en_i, .valid_i (1'b1), .a_i (a), .b_i (b), .valid_o (unused_valid),
      .product_o (result_o));
  end else begin : gen_div
    tern_fp32_divsqrt_pipe u_div (
      .clk_i, .rst_ni, .en_i, .valid_i (1'b1), .sqrt_i (Op == tern_act_pkg::OpSqrt), .a_i (a),
      .b_i (b), .valid_o (unused_valid), .result_o);
  end
endmodule
