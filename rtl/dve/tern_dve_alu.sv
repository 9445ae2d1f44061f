// One Vector Engine ALU slot (docs/vector-engine.md "Pipeline"): op_i on a_i and b_i, fp32 in
// and out (int32 for the bitwise ops), result_o Latency (tern_dve_pkg::AluLat) advances after
// the operands were taken. The operands and the op are registered first (the operand select in
// front of the slot is a stage of its own), then an adder (add and subtract, tern_fp32_add_pipe),
// a multiplier (tern_fp32_mul_pipe, its result delayed to the adder's latency) and the one-step
// operations (compare, max, min, bitwise, shifts: tern_dve_pkg::alu, then delayed); the op
// travels beside them and picks the result. In simulation (tern_fp_pkg::FastSim) the whole
// operation, then its latency. Golden: tern::dve_alu.
module tern_dve_alu (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        en_i,
  input  logic [4:0]  op_i,   // tern_dve_pkg::DveAlu*
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [31:0] result_o
);
  localparam int unsigned Lat = tern_dve_pkg::AluLat;

  logic [31:0] b_signed;
  assign b_signed = (op_i == tern_dve_pkg::DveAluSubtract) ? {~b_i[31], b_i[30:0]} : b_i;

  if (tern_fp_pkg::FastSim) begin : gen_fast
    logic [31:0] result, sum, product;
    // Only the op's unit, in ifs: a simulator would evaluate both functions every cycle for
    // every lane otherwise (an inlined function in a conditional operator is evaluated anyway).
    always_comb begin
      sum     = 32'd0;
      product = 32'd0;
      if (op_i == tern_dve_pkg::DveAluAdd || op_i == tern_dve_pkg::DveAluSubtract) begin
        sum = tern_fp_pkg::fp32_add(a_i, b_signed);
      end
      if (op_i == tern_dve_pkg::DveAluMultiply) product = tern_fp_pkg::fp32_mul(a_i, b_i);
    end
    assign result = tern_dve_pkg::alu(op_i, a_i, b_i, sum, product);
    tern_pipe_delay #(.Width (32), .Delay (Lat)) u_line (
      .clk_i, .rst_ni, .en_i, .data_i (result), .data_o (result_o));
  end else begin : gen_units
    logic [31:0] a_q, b_q, bs_q, sum, product, product_late, simple_late;
    logic [4:0]  op_q, op_late;
    logic        unused_sum_valid, unused_product_valid;
    tern_pipe_delay #(.Width (101), .Delay (1)) u_operands (
      .clk_i, .rst_ni, .en_i, .data_i ({op_i, a_i, b_i, b_signed}),
      .data_o ({op_q, a_q, b_q, bs_q}));
    tern_fp32_add_pipe #(.Latency (tern_fp_pkg::AddLat)) u_add (
      .clk_i, .rst_ni, .en_i, .valid_i (1'b1), .a_i (a_q), .b_i (bs_q),
      .valid_o (unused_sum_valid), .sum_o (sum));
    tern_fp32_mul_pipe #(.Latency (tern_fp_pkg::MulLat)) u_mul (
      .clk_i, .rst_ni, .en_i, .valid_i (1'b1), .a_i (a_q), .b_i (b_q),
      .valid_o (unused_product_valid), .product_o (product));
    tern_pipe_delay #(.Width (32), .Delay (Lat - 1 - tern_fp_pkg::MulLat)) u_product (
      .clk_i, .rst_ni, .en_i, .data_i (product), .data_o (product_late));
    tern_pipe_delay #(.Width (32), .Delay (Lat - 1)) u_simple (
      .clk_i, .rst_ni, .en_i, .data_i (tern_dve_pkg::alu(op_q, a_q, b_q, 32'd0, 32'd0)),
      .data_o (simple_late));
    tern_pipe_delay #(.Width (5), .Delay (Lat - 1)) u_op (
      .clk_i, .rst_ni, .en_i, .data_i (op_q), .data_o (op_late));
    always_comb begin
      unique case (op_late)
        tern_dve_pkg::DveAluAdd, tern_dve_pkg::DveAluSubtract: result_o = sum;
        tern_dve_pkg::DveAluMultiply:                          result_o = product_late;
        default:                                               result_o = simple_late;
      endcase
    end
  end

`ifndef SYNTHESIS
  initial begin : params
    assert (tern_fp_pkg::AddLat + 1 == Lat && tern_fp_pkg::MulLat + 1 <= Lat)
      else $fatal(1, "tern_dve_alu: the slot's latency must be the operand register and the adder's, and cover the multiplier's");
  end
`endif
endmodule
