// A polynomial by Horner's rule, c[T-1] x^(T-1) + ... + c[0], as T-1 steps of a binary32
// multiply then a binary32 add (two roundings; coefficient i at coeffs_i[32*i +: 32]),
// pipelined: x_i and coeffs_i at time 0, result_o at tern_act_pkg::horner_lat(Terms). Each step
// takes x through a delay of its own (StepLat a step) and, unless ConstCoeffs, its coefficient
// through one as long as the step's start. Golden: horner() in model/act/act_functions.cc.
module tern_act_horner #(
  parameter int unsigned Terms       = 2,
  parameter bit          ConstCoeffs = 1'b1  // the coefficients are constants: nothing to align
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                en_i,
  input  logic [31:0]         x_i,
  input  logic [Terms*32-1:0] coeffs_i,
  output logic [31:0]         result_o
);
  /* verilator no_inline_module */  // its own class in the C++ model (smaller, faster compile)
  localparam int unsigned Step = tern_act_pkg::StepLat;
  localparam int unsigned Mul  = tern_act_pkg::MulLat;

  // h[k]: the value after k steps (valid at k * Step); xs[k]: x at k * Step.
  logic [Terms*32-1:0]     h;
  logic [(Terms-1)*32-1:0] xs;
  assign h[31:0]  = coeffs_i[32*(Terms-1) +: 32];
  assign xs[31:0] = x_i;
  for (genvar k = 0; k < Terms - 1; k++) begin : gen_step
    localparam int unsigned Coeff = Terms - 2 - k;  // the coefficient this step adds
    logic [31:0] product, coeff;
    if (ConstCoeffs) begin : gen_const
      assign coeff = coeffs_i[32*Coeff +: 32];
    end else begin : gen_data
      tern_pipe_delay #(.Width (32), .Delay (k * Step + Mul)) u_coeff (
        .clk_i, .rst_ni, .en_i, .data_i (coeffs_i[32*Coeff +: 32]), .data_o (coeff));
    end
    tern_act_op #(.Op (tern_act_pkg::OpMul), .TA (k * Step), .TB (k * Step)) u_mul (
      .clk_i, .rst_ni, .en_i, .a_i (h[32*k +: 32]), .b_i (xs[32*k +: 32]), .result_o (product));
    tern_act_op #(.Op (tern_act_pkg::OpAdd), .TA (k * Step + Mul), .TB (k * Step + Mul)) u_add (
      .clk_i, .rst_ni, .en_i, .a_i (product), .b_i (coeff), .result_o (h[32*(k+1) +: 32]));
    if (k < Terms - 2) begin : gen_x
      tern_pipe_delay #(.Width (32), .Delay (Step)) u_x (
        .clk_i, .rst_ni, .en_i, .data_i (xs[32*k +: 32]), .data_o (xs[32*(k+1) +: 32]));
    end
  end
  assign result_o = h[32*(Terms-1) +: 32];
endmodule
