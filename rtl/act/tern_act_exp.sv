// exp and expm1 (docs/scalar-engine.md), pipelined: t_i at time 0, exp_o and expm1_o at
// tern_act_pkg::ExpLat (the Exp* times of tern_act_pkg). t = n ln2 + r with n = round(t / ln2)
// (the 1.5 * 2^23 trick) and ln2 split hi + lo; e^r - 1 = r + r^2 P(r), P the Taylor terms
// 1/2! .. 1/8!; exp = (1 + (e^r - 1)) * 2^n, expm1 = (e^r - 1) * 2^n + (2^n - 1), each power
// applied in two exact-then-rounded steps. expm1_o is meant for t in [0, 18]. The powers of two
// travel as their exponent fields. Golden: exp_fn() and expm1_fn() in model/act/act_functions.cc.
module tern_act_exp (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        en_i,
  input  logic [31:0] t_i,
  output logic [31:0] exp_o,
  output logic [31:0] expm1_o
);
  /* verilator no_inline_module */  // its own class in the C++ model (smaller, faster compile)
  localparam int unsigned Mul    = tern_act_pkg::MulLat;
  localparam int unsigned Add    = tern_act_pkg::AddLat;
  localparam int unsigned Biased = tern_act_pkg::ExpTBiased;
  localparam int unsigned Pow    = tern_act_pkg::ExpTPow;
  localparam int unsigned N      = tern_act_pkg::ExpTN;
  localparam int unsigned Hi     = tern_act_pkg::ExpTHi;
  localparam int unsigned R      = tern_act_pkg::ExpTR;
  localparam int unsigned Poly   = tern_act_pkg::ExpTPoly;
  localparam int unsigned Em     = tern_act_pkg::ExpTEm;
  localparam int unsigned Last   = tern_act_pkg::ExpLat - 1;  // the results before their register
  localparam logic [31:0] Sign   = tern_act_pkg::SignBit;

  // --- n = round(t / ln2), as an integer (in biased's low bits: 1.5 * 2^23 + n) and as fp32 ---
  logic [31:0] scaled, biased, n_fp;
  tern_act_op #(.Op (tern_act_pkg::OpMul), .TA (0), .TB (0)) u_scale (
    .clk_i, .rst_ni, .en_i, .a_i (t_i), .b_i (tern_act_coeff_pkg::InvLn2), .result_o (scaled));
  tern_act_op #(.Op (tern_act_pkg::OpAdd), .TA (Mul), .TB (Mul)) u_round (
    .clk_i, .rst_ni, .en_i, .a_i (scaled), .b_i (tern_act_coeff_pkg::RoundMagic), .result_o (biased));
  tern_act_op #(.Op (tern_act_pkg::OpAdd), .TA (Biased), .TB (Biased)) u_n (
    .clk_i, .rst_ni, .en_i, .a_i (biased), .b_i (tern_act_coeff_pkg::RoundMagic ^ Sign), .result_o (n_fp));

  // n's halves n1 = n >> 1 and n - n1 (registered), then the exponent fields of 2^n1, 2^(n-n1)
  // and 2^n with n == 0 (registered): {zero, e_n1, e_rest, e_n}. n = biased - 1.5 * 2^23 has
  // the low ten bits of biased (the constant's low 22 bits are zero).
  logic signed [9:0] n, n1;
  logic [29:0] split_d, split_q;
  logic [24:0] pow_d, pow_q;
  assign n       = $signed(biased[9:0]);
  assign n1      = n >>> 1;
  assign split_d = {n, n1, 10'(n - n1)};
  tern_pipe_delay #(.Width (30), .Delay (1)) u_split (.clk_i, .rst_ni, .en_i, .data_i (split_d), .data_o (split_q));
  assign pow_d = {split_q[29:20] == 10'd0, 8'(split_q[19:10] + 10'd127), 8'(split_q[9:0] + 10'd127),
                  8'(split_q[29:20] + 10'd127)};
  tern_pipe_delay #(.Width (25), .Delay (1)) u_pow (.clk_i, .rst_ni, .en_i, .data_i (pow_d), .data_o (pow_q));

  // --- r = (t - n ln2_hi) - n ln2_lo ---------------------------------------------------------
  logic [31:0] hi, lo, r_hi, r, t_at_hi;
  tern_act_op #(.Op (tern_act_pkg::OpMul), .TA (N), .TB (N)) u_hi (
    .clk_i, .rst_ni, .en_i, .a_i (n_fp), .b_i (tern_act_coeff_pkg::Ln2Hi), .result_o (hi));
  tern_act_op #(.Op (tern_act_pkg::OpMul), .TA (N), .TB (N)) u_lo (
    .clk_i, .rst_ni, .en_i, .a_i (n_fp), .b_i (tern_act_coeff_pkg::Ln2Lo), .result_o (lo));
  tern_pipe_delay #(.Width (32), .Delay (Hi)) u_t (.clk_i, .rst_ni, .en_i, .data_i (t_i), .data_o (t_at_hi));
  tern_act_op #(.Op (tern_act_pkg::OpAdd), .TA (Hi), .TB (Hi)) u_r_hi (
    .clk_i, .rst_ni, .en_i, .a_i (t_at_hi), .b_i (hi ^ Sign), .result_o (r_hi));
  tern_act_op #(.Op (tern_act_pkg::OpAdd), .TA (Hi + Add), .TB (Hi)) u_r (
    .clk_i, .rst_ni, .en_i, .a_i (r_hi), .b_i (lo ^ Sign), .result_o (r));

  // --- e^r - 1 = r + r^2 P(r) ----------------------------------------------------------------
  logic [31:0] poly, r_sq, tail, em;
  tern_act_horner #(.Terms (7)) u_poly (
    .clk_i, .rst_ni, .en_i, .x_i (r), .coeffs_i (tern_act_coeff_pkg::Expm1Poly), .result_o (poly));
  tern_act_op #(.Op (tern_act_pkg::OpMul), .TA (R), .TB (R)) u_r_sq (
    .clk_i, .rst_ni, .en_i, .a_i (r), .b_i (r), .result_o (r_sq));
  tern_act_op #(.Op (tern_act_pkg::OpMul), .TA (R + Mul), .TB (Poly)) u_tail (
    .clk_i, .rst_ni, .en_i, .a_i (r_sq), .b_i (poly), .result_o (tail));
  tern_act_op #(.Op (tern_act_pkg::OpAdd), .TA (R), .TB (Poly + Mul)) u_em (
    .clk_i, .rst_ni, .en_i, .a_i (r), .b_i (tail), .result_o (em));

  // --- the powers of two, carried to where they multiply ------------------------------------
  // pw_em: at Em (em * 2^n1); pw_em1: at Em + Mul (* 2^(n-n1)); pw_one: at Em + Add
  // ((1 + em) * 2^n1); pw_one1: at Em + Add + Mul; then n == 0 at Last.
  logic [24:0] pw_em, pw_em1, pw_one, pw_one1;
  logic        zero_last;
  tern_pipe_delay #(.Width (25), .Delay (Em - Pow)) u_pw_em (
    .clk_i, .rst_ni, .en_i, .data_i (pow_q), .data_o (pw_em));
  tern_pipe_delay #(.Width (25), .Delay (Mul)) u_pw_em1 (
    .clk_i, .rst_ni, .en_i, .data_i (pw_em), .data_o (pw_em1));
  tern_pipe_delay #(.Width (25), .Delay (Add - Mul)) u_pw_one (
    .clk_i, .rst_ni, .en_i, .data_i (pw_em1), .data_o (pw_one));
  tern_pipe_delay #(.Width (25), .Delay (Mul)) u_pw_one1 (
    .clk_i, .rst_ni, .en_i, .data_i (pw_one), .data_o (pw_one1));
  tern_pipe_delay #(.Width (1), .Delay (Last - (Em + Add + Mul))) u_zero (
    .clk_i, .rst_ni, .en_i, .data_i (pw_one1[24]), .data_o (zero_last));

  function automatic logic [31:0] pow2_of(logic [7:0] e);
    pow2_of = {1'b0, e, 23'd0};
  endfunction

  logic [31:0] one_em, exp_half, exp_full, em_half, em_full, pow_m1, em_sum;
  tern_act_op #(.Op (tern_act_pkg::OpAdd), .TA (Em), .TB (Em)) u_one_em (
    .clk_i, .rst_ni, .en_i, .a_i (tern_act_pkg::One), .b_i (em), .result_o (one_em));
  tern_act_op #(.Op (tern_act_pkg::OpMul), .TA (Em + Add), .TB (Em + Add)) u_exp1 (
    .clk_i, .rst_ni, .en_i, .a_i (one_em), .b_i (pow2_of(pw_one[23:16])), .result_o (exp_half));
  tern_act_op #(.Op (tern_act_pkg::OpMul), .TA (Em + Add + Mul), .TB (Em + Add + Mul)) u_exp2 (
    .clk_i, .rst_ni, .en_i, .a_i (exp_half), .b_i (pow2_of(pw_one1[15:8])), .result_o (exp_full));
  tern_act_op #(.Op (tern_act_pkg::OpMul), .TA (Em), .TB (Em)) u_em1 (
    .clk_i, .rst_ni, .en_i, .a_i (em), .b_i (pow2_of(pw_em[23:16])), .result_o (em_half));
  tern_act_op #(.Op (tern_act_pkg::OpMul), .TA (Em + Mul), .TB (Em + Mul)) u_em2 (
    .clk_i, .rst_ni, .en_i, .a_i (em_half), .b_i (pow2_of(pw_em1[15:8])), .result_o (em_full));
  tern_act_op #(.Op (tern_act_pkg::OpAdd), .TA (Em), .TB (Em)) u_pow_m1 (
    .clk_i, .rst_ni, .en_i, .a_i (pow2_of(pw_em[7:0])), .b_i (tern_act_pkg::One ^ Sign), .result_o (pow_m1));
  tern_act_op #(.Op (tern_act_pkg::OpAdd), .TA (Em + 2 * Mul), .TB (Em + Add)) u_em_sum (
    .clk_i, .rst_ni, .en_i, .a_i (em_full), .b_i (pow_m1), .result_o (em_sum));

  // --- the special inputs and the results (registered) ---------------------------------------
  logic [2:0]  cls_d, cls_last;  // {NaN, overflows to +Inf, underflows to +0}
  logic [31:0] em_last;
  assign cls_d = {(t_i & ~Sign) > tern_act_pkg::PosInf,
                  !t_i[31] && (t_i & ~Sign) > tern_act_pkg::ExpOverflow,
                  t_i[31] && (t_i & ~Sign) > tern_act_pkg::ExpUnderflow};
  tern_pipe_delay #(.Width (3), .Delay (Last)) u_cls (.clk_i, .rst_ni, .en_i, .data_i (cls_d), .data_o (cls_last));
  tern_pipe_delay #(.Width (32), .Delay (Last - Em)) u_em_last (
    .clk_i, .rst_ni, .en_i, .data_i (em), .data_o (em_last));

  logic [63:0] res_d, res_q;
  always_comb begin
    if (cls_last[2])      res_d[63:32] = tern_pkg::Fp32CanonicalNaN;
    else if (cls_last[1]) res_d[63:32] = tern_act_pkg::PosInf;
    else if (cls_last[0]) res_d[63:32] = tern_act_pkg::PosZero;
    else                  res_d[63:32] = exp_full;
    res_d[31:0] = zero_last ? em_last : em_sum;
  end
  tern_pipe_delay #(.Width (64), .Delay (1)) u_res (.clk_i, .rst_ni, .en_i, .data_i (res_d), .data_o (res_q));
  assign {exp_o, expm1_o} = res_q;

  logic unused_pw;
  assign unused_pw = ^{pw_em[24], pw_em1[24:16], pw_em1[7:0], pw_one[24], pw_one[15:0],
                       pw_one1[23:16], pw_one1[7:0]};
endmodule
