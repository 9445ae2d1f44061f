// exp and expm1 (docs/scalar-engine.md): t = n ln2 + r with n = round(t / ln2) (the
// 1.5 * 2^23 trick) and ln2 split hi + lo; e^r - 1 = r + r^2 * P(r), P the Taylor terms
// 1/2! .. 1/8!; exp = (1 + (e^r - 1)) * 2^n, expm1 = (e^r - 1) * 2^n + (2^n - 1), each power
// applied in two exact-then-rounded steps. expm1_o is meant for t in [0, 18]. Golden:
// exp_fn() and expm1_fn() in model/act/act_functions.cc.
module tern_act_exp (
  input  logic [31:0] t_i,
  output logic [31:0] exp_o,
  output logic [31:0] expm1_o
);
  logic [31:0] scaled, biased, n_fp, hi, lo, r_hi, r, poly, r_sq, tail, em, one_em;
  logic [31:0] exp_half, exp_full, em_half, em_full, pow_m1, em_sum;
  logic signed [9:0] n, n1;

  tern_fp32_mul u_scale  (.a_i(t_i), .b_i(tern_act_coeff_pkg::InvLn2), .product_o(scaled));
  tern_fp32_add u_round  (.a_i(scaled), .b_i(tern_act_coeff_pkg::RoundMagic), .sum_o(biased));
  tern_fp32_add u_n      (.a_i(biased), .b_i(tern_act_coeff_pkg::RoundMagic ^ tern_act_pkg::SignBit), .sum_o(n_fp));
  // biased = 1.5 * 2^23 + n: n sits in the low fraction bits.
  /* verilator lint_off UNUSEDSIGNAL */
  logic signed [23:0] n_wide;
  /* verilator lint_on UNUSEDSIGNAL */
  assign n_wide = $signed({1'b0, biased[22:0]}) - 24'sh40_0000;
  assign n      = n_wide[9:0];
  assign n1     = n >>> 1;
  tern_fp32_mul u_hi     (.a_i(n_fp), .b_i(tern_act_coeff_pkg::Ln2Hi), .product_o(hi));
  tern_fp32_add u_r_hi   (.a_i(t_i), .b_i(hi ^ tern_act_pkg::SignBit), .sum_o(r_hi));
  tern_fp32_mul u_lo     (.a_i(n_fp), .b_i(tern_act_coeff_pkg::Ln2Lo), .product_o(lo));
  tern_fp32_add u_r      (.a_i(r_hi), .b_i(lo ^ tern_act_pkg::SignBit), .sum_o(r));
  tern_act_horner #(.Terms(7)) u_poly (.x_i(r), .coeffs_i(tern_act_coeff_pkg::Expm1Poly), .result_o(poly));
  tern_fp32_mul u_r_sq   (.a_i(r), .b_i(r), .product_o(r_sq));
  tern_fp32_mul u_tail   (.a_i(r_sq), .b_i(poly), .product_o(tail));
  tern_fp32_add u_em     (.a_i(r), .b_i(tail), .sum_o(em));
  tern_fp32_add u_one_em (.a_i(tern_act_pkg::One), .b_i(em), .sum_o(one_em));
  tern_fp32_mul u_exp1   (.a_i(one_em), .b_i(tern_act_pkg::pow2(n1)), .product_o(exp_half));
  tern_fp32_mul u_exp2   (.a_i(exp_half), .b_i(tern_act_pkg::pow2(n - n1)), .product_o(exp_full));
  tern_fp32_mul u_em1    (.a_i(em), .b_i(tern_act_pkg::pow2(n1)), .product_o(em_half));
  tern_fp32_mul u_em2    (.a_i(em_half), .b_i(tern_act_pkg::pow2(n - n1)), .product_o(em_full));
  tern_fp32_add u_pow_m1 (.a_i(tern_act_pkg::pow2(n)), .b_i(tern_act_pkg::One ^ tern_act_pkg::SignBit), .sum_o(pow_m1));
  tern_fp32_add u_em_sum (.a_i(em_full), .b_i(pow_m1), .sum_o(em_sum));

  always_comb begin
    if ((t_i & ~tern_act_pkg::SignBit) > tern_act_pkg::PosInf) begin
      exp_o = tern_pkg::Fp32CanonicalNaN;
    end else if (!t_i[31] && (t_i & ~tern_act_pkg::SignBit) > tern_act_pkg::ExpOverflow) begin
      exp_o = tern_act_pkg::PosInf;
    end else if (t_i[31] && (t_i & ~tern_act_pkg::SignBit) > tern_act_pkg::ExpUnderflow) begin
      exp_o = tern_act_pkg::PosZero;
    end else begin
      exp_o = exp_full;
    end
    expm1_o = (n == 10'sd0) ? em : em_sum;
  end
endmodule
