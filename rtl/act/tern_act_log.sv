// log (docs/scalar-engine.md): x = 2^k * m with m in [sqrt(1/2), sqrt(2)] (subnormals scaled
// by 2^24 first); log(1 + f), f = m - 1, by fdlibm's form f - s(f - R), s = f / (2 + f),
// R = s^2 P(s^2) with P the series 2/3, 2/5, .. 2/11; then k ln2_hi + (log(1 + f) + k ln2_lo).
// With kernel_i set, result_o is the kernel log(1 + x) itself (x in [0, sqrt(2) - 1]).
// Golden: log_fn() and log1p_kernel() in model/act/act_functions.cc.
module tern_act_log (
  input  logic [31:0] x_i,
  input  logic        kernel_i,
  output logic [31:0] result_o
);
  logic [31:0] m, f, two_f, s, z, poly, rz, f_rz, s_f_rz, lp, kf, hi, lo, lp_lo, full;
  logic signed [9:0] k_base, k;
  logic [30:0] m_in;  // the input scaled into the normal range; its sign plays no part
  logic [31:0] x_scaled;
  logic        unused_sign;
  assign unused_sign = x_scaled[31];

  tern_fp32_mul u_subnormal (.a_i(x_i), .b_i(tern_act_pkg::pow2(10'sd24)), .product_o(x_scaled));
  always_comb begin
    m_in   = (x_i[30:23] == 8'd0) ? x_scaled[30:0] : x_i[30:0];
    k_base = ((x_i[30:23] == 8'd0) ? -10'sd24 : 10'sd0) + $signed({2'b00, m_in[30:23]}) - 10'sd127;
    m      = {9'h07F, m_in[22:0]};
    k      = k_base;
    if (m > tern_act_coeff_pkg::Sqrt2) begin
      m = {9'h07E, m_in[22:0]};
      k = k_base + 10'sd1;
    end
  end
  logic [31:0] m_minus_1;
  tern_fp32_add u_f    (.a_i(m), .b_i(tern_act_pkg::One ^ tern_act_pkg::SignBit), .sum_o(m_minus_1));
  assign f = kernel_i ? x_i : m_minus_1;
  tern_fp32_add u_two_f (.a_i(tern_act_pkg::Two), .b_i(f), .sum_o(two_f));
  tern_fp32_div u_s     (.a_i(f), .b_i(two_f), .quotient_o(s));
  tern_fp32_mul u_z     (.a_i(s), .b_i(s), .product_o(z));
  tern_act_horner #(.Terms(5)) u_poly (.x_i(z), .coeffs_i(tern_act_coeff_pkg::LogPoly), .result_o(poly));
  tern_fp32_mul u_rz    (.a_i(z), .b_i(poly), .product_o(rz));
  tern_fp32_add u_f_rz  (.a_i(f), .b_i(rz ^ tern_act_pkg::SignBit), .sum_o(f_rz));
  tern_fp32_mul u_s_f_rz (.a_i(s), .b_i(f_rz), .product_o(s_f_rz));
  tern_fp32_add u_lp    (.a_i(f), .b_i(s_f_rz ^ tern_act_pkg::SignBit), .sum_o(lp));
  // k as fp32: (1.5 * 2^23 + k) - 1.5 * 2^23, exact.
  tern_fp32_add u_kf    (.a_i(tern_act_coeff_pkg::RoundMagic + 32'($signed(k))),
                         .b_i(tern_act_coeff_pkg::RoundMagic ^ tern_act_pkg::SignBit), .sum_o(kf));
  tern_fp32_mul u_hi    (.a_i(kf), .b_i(tern_act_coeff_pkg::LogLn2Hi), .product_o(hi));
  tern_fp32_mul u_lo    (.a_i(kf), .b_i(tern_act_coeff_pkg::LogLn2Lo), .product_o(lo));
  tern_fp32_add u_lp_lo (.a_i(lp), .b_i(lo), .sum_o(lp_lo));
  tern_fp32_add u_full  (.a_i(hi), .b_i(lp_lo), .sum_o(full));

  always_comb begin
    if (kernel_i) begin
      result_o = lp;
    end else if ((x_i & ~tern_act_pkg::SignBit) > tern_act_pkg::PosInf) begin
      result_o = tern_pkg::Fp32CanonicalNaN;
    end else if ((x_i & ~tern_act_pkg::SignBit) == 32'd0) begin
      result_o = tern_act_pkg::NegInf;
    end else if (x_i[31]) begin
      result_o = tern_pkg::Fp32CanonicalNaN;
    end else if (x_i == tern_act_pkg::PosInf) begin
      result_o = tern_act_pkg::PosInf;
    end else if (k == 10'sd0) begin
      result_o = lp;
    end else begin
      result_o = full;
    end
  end
endmodule
