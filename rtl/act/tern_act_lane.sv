// One lane of the Scalar Engine (docs/scalar-engine.md): x = upconvert(in) * scale + bias,
// y = func(x), the reduction step acc' = acc (+ or max) y, and out = downconvert(y).
// Every function is a fixed dataflow of binary32 operations over shared units: two exp units
// (the second only for erfc), one log unit, one divider, one square root, the erf series and
// the erfc polynomial; the function code selects their operands and the result. The same
// operations in the same order as model/act/act_functions.cc, so the results are bit-exact.
module tern_act_lane (
  input  logic [31:0] in_i,        // raw element bits of in_dtype_i
  input  logic [3:0]  in_dtype_i,
  input  logic [31:0] scale_i,
  input  logic [31:0] bias_i,
  input  logic [4:0]  func_i,
  input  logic [3:0]  out_dtype_i,
  input  logic        round_i,
  input  logic [31:0] random_i,    // the SR draw of this element
  input  logic        red_op_i,
  input  logic [31:0] acc_i,
  output logic [31:0] out_o,
  output logic [31:0] acc_o
);
  /* verilator no_inline_module */  // lanes share one C++ class: P copies would not verilate
  // --- x = in * scale + bias ---------------------------------------------------------------
  logic [31:0] in_fp32, in_scaled, x, ax, sign_x;
  assign in_fp32 = tern_fp_pkg::upconvert(in_dtype_i, in_i);
  tern_fp32_mul u_scale (.a_i(in_fp32), .b_i(scale_i), .product_o(in_scaled));
  tern_fp32_add u_bias  (.a_i(in_scaled), .b_i(bias_i), .sum_o(x));
  assign ax     = x & ~tern_act_pkg::SignBit;
  assign sign_x = x & tern_act_pkg::SignBit;

  // --- operands shared by several functions ------------------------------------------------
  logic [31:0] w, erf_arg, erf_mag, x_sq, k2_x_sq, z_factor, z, two_ax;
  tern_fp32_mul u_w        (.a_i(x), .b_i(tern_act_coeff_pkg::InvSqrt2), .product_o(w));
  assign erf_arg = (func_i == tern_act_pkg::FnGelu) ? w : x;
  assign erf_mag = erf_arg & ~tern_act_pkg::SignBit;
  tern_fp32_mul u_x_sq     (.a_i(x), .b_i(x), .product_o(x_sq));
  tern_fp32_mul u_k2_x_sq  (.a_i(tern_act_coeff_pkg::GeluTanhK2), .b_i(x_sq), .product_o(k2_x_sq));
  tern_fp32_add u_z_factor (.a_i(tern_act_coeff_pkg::GeluTanhK1), .b_i(k2_x_sq), .sum_o(z_factor));
  tern_fp32_mul u_z        (.a_i(x), .b_i(z_factor), .product_o(z));
  tern_fp32_add u_two_ax   (.a_i(ax), .b_i(ax), .sum_o(two_ax));

  // erfc(|a|) = exp(-zh^2) * exp(-(|a| - zh)(|a| + zh)) * g(|a|), zh = |a| to 12 bits.
  logic [31:0] zh, zh_sq, dz_lo, dz_hi, delta;
  assign zh = erf_mag & 32'hFFFF_F000;
  tern_fp32_mul u_zh_sq (.a_i(zh), .b_i(zh), .product_o(zh_sq));
  tern_fp32_add u_dz_lo (.a_i(erf_mag), .b_i(zh ^ tern_act_pkg::SignBit), .sum_o(dz_lo));
  tern_fp32_add u_dz_hi (.a_i(erf_mag), .b_i(zh), .sum_o(dz_hi));
  tern_fp32_mul u_delta (.a_i(dz_lo), .b_i(dz_hi), .product_o(delta));

  // --- exp unit A: the one exponential of every function but erfc, which uses A and B --------
  logic [31:0] exp_a_arg, exp_a, expm1_a, exp_b, unused_expm1_b;
  always_comb begin
    unique case (func_i)
      tern_act_pkg::FnExp, tern_act_pkg::FnMish:                     exp_a_arg = x;
      tern_act_pkg::FnSigmoid, tern_act_pkg::FnSilu, tern_act_pkg::FnSoftplus:     exp_a_arg = ax | tern_act_pkg::SignBit;
      tern_act_pkg::FnGeluApprxTanh:                   exp_a_arg = z | tern_act_pkg::SignBit;
      tern_act_pkg::FnTanh:                            exp_a_arg = two_ax;
      default:                           exp_a_arg = zh_sq ^ tern_act_pkg::SignBit;  // erf, gelu
    endcase
  end
  tern_act_exp u_exp_a (.t_i(exp_a_arg), .exp_o(exp_a), .expm1_o(expm1_a));
  tern_act_exp u_exp_b (.t_i(delta ^ tern_act_pkg::SignBit), .exp_o(exp_b), .expm1_o(unused_expm1_b));

  // --- erf series and the erfc polynomial --------------------------------------------------
  logic [31:0] erf_small, g, mid, d, eg, erfc;
  logic [3:0]  iv;
  logic [tern_act_coeff_pkg::ErfcTerms*32-1:0] g_coeffs;
  logic [31:0] x_sq_erf, erf_poly;
  tern_fp32_mul u_erf_sq (.a_i(erf_arg), .b_i(erf_arg), .product_o(x_sq_erf));
  tern_act_horner #(.Terms(10)) u_erf_poly (.x_i(x_sq_erf), .coeffs_i(tern_act_coeff_pkg::ErfPoly), .result_o(erf_poly));
  tern_fp32_mul u_erf_small (.a_i(erf_arg), .b_i(erf_poly), .product_o(erf_small));
  always_comb begin
    iv = 4'd0;
    for (int i = 1; i < tern_act_coeff_pkg::ErfcIntervals; i++) begin
      if (erf_mag >= tern_act_coeff_pkg::ErfcEdges[32*i +: 32]) iv = 4'(i);
    end
    mid      = tern_act_coeff_pkg::ErfcMids[32*iv +: 32];
    g_coeffs = tern_act_coeff_pkg::ErfcPoly[32*tern_act_coeff_pkg::ErfcTerms*iv +: 32*tern_act_coeff_pkg::ErfcTerms];
  end
  tern_fp32_add u_d    (.a_i(erf_mag), .b_i(mid ^ tern_act_pkg::SignBit), .sum_o(d));
  tern_act_horner #(.Terms(tern_act_coeff_pkg::ErfcTerms)) u_erfc_poly (.x_i(d), .coeffs_i(g_coeffs), .result_o(g));
  tern_fp32_mul u_eg   (.a_i(exp_b), .b_i(g), .product_o(eg));
  tern_fp32_mul u_erfc (.a_i(exp_a), .b_i(eg), .product_o(erfc));

  // --- sigmoid family, tanh, mish: one divider ----------------------------------------------
  logic [31:0] one_t, x_t, em_2, u_2, v, v_2, root, num, den, q;
  tern_fp32_add u_one_t (.a_i(tern_act_pkg::One), .b_i(exp_a), .sum_o(one_t));
  tern_fp32_mul u_x_t   (.a_i(x), .b_i(exp_a), .product_o(x_t));
  tern_fp32_add u_em_2  (.a_i(expm1_a), .b_i(tern_act_pkg::Two), .sum_o(em_2));
  tern_fp32_add u_u_2   (.a_i(exp_a), .b_i(tern_act_pkg::Two), .sum_o(u_2));
  tern_fp32_mul u_v     (.a_i(exp_a), .b_i(u_2), .product_o(v));
  tern_fp32_add u_v_2   (.a_i(v), .b_i(tern_act_pkg::Two), .sum_o(v_2));
  tern_fp32_sqrt u_root (.a_i(x), .root_o(root));
  always_comb begin
    unique case (func_i)
      tern_act_pkg::FnSigmoid:       begin num = x[31] ? exp_a : tern_act_pkg::One; den = one_t; end
      tern_act_pkg::FnSilu:          begin num = x[31] ? x_t : x;     den = one_t; end
      tern_act_pkg::FnGeluApprxTanh: begin num = z[31] ? x_t : x;     den = one_t; end
      tern_act_pkg::FnTanh:          begin num = expm1_a;             den = em_2;  end
      tern_act_pkg::FnMish:          begin num = v;                   den = v_2;   end
      tern_act_pkg::FnRsqrt:         begin num = tern_act_pkg::One;                 den = root;  end
      default:         begin num = tern_act_pkg::One;                 den = x;     end  // reciprocal
    endcase
  end
  tern_fp32_div u_div (.a_i(num), .b_i(den), .quotient_o(q));

  // --- softplus: max(x, 0) + log1p(t), t = exp(-|x|); log itself ---------------------------
  logic        t_small;
  logic [31:0] log_arg, log_out, softplus;
  assign t_small = (exp_a <= tern_act_pkg::SqrtHalfUp);
  assign log_arg = (func_i != tern_act_pkg::FnSoftplus) ? x : t_small ? exp_a : one_t;
  tern_act_log u_log (.x_i(log_arg), .kernel_i((func_i == tern_act_pkg::FnSoftplus) && t_small), .result_o(log_out));
  tern_fp32_add u_softplus (.a_i(x[31] ? tern_act_pkg::PosZero : x), .b_i(log_out), .sum_o(softplus));

  // --- erf and gelu from the series or erfc; the last multiply by x ---------------------------
  logic [31:0] one_m_erfc, one_erf, phi_small, half_erfc, one_m_half, phi, final_arg, x_final;
  tern_fp32_add u_one_m_erfc (.a_i(tern_act_pkg::One), .b_i(erfc ^ tern_act_pkg::SignBit), .sum_o(one_m_erfc));
  tern_fp32_add u_one_erf    (.a_i(tern_act_pkg::One), .b_i(erf_small), .sum_o(one_erf));
  tern_fp32_mul u_phi_small  (.a_i(tern_act_pkg::Half), .b_i(one_erf), .product_o(phi_small));
  tern_fp32_mul u_half_erfc  (.a_i(tern_act_pkg::Half), .b_i(erfc), .product_o(half_erfc));
  tern_fp32_add u_one_m_half (.a_i(tern_act_pkg::One), .b_i(half_erfc ^ tern_act_pkg::SignBit), .sum_o(one_m_half));
  always_comb begin
    if (erf_mag < tern_act_pkg::ErfSmall) begin
      phi = phi_small;
    end else if (erf_mag >= tern_act_pkg::ErfcZero) begin
      phi = w[31] ? tern_act_pkg::PosZero : tern_act_pkg::One;
    end else begin
      phi = w[31] ? half_erfc : one_m_half;
    end
    final_arg = (func_i == tern_act_pkg::FnGelu) ? phi : q;
  end
  tern_fp32_mul u_x_final (.a_i(x), .b_i(final_arg), .product_o(x_final));

  // --- the result ---------------------------------------------------------------------------
  logic [31:0] y;
  logic        pos_inf, neg_inf;
  assign pos_inf = (x == tern_act_pkg::PosInf);
  assign neg_inf = (x == tern_act_pkg::NegInf);
  always_comb begin
    unique case (func_i)
      tern_act_pkg::FnCopy:          y = x;
      tern_act_pkg::FnRelu:          y = x[31] ? tern_act_pkg::PosZero : x;
      tern_act_pkg::FnGelu:          y = pos_inf ? tern_act_pkg::PosInf : neg_inf ? tern_act_pkg::NegZero : x_final;
      tern_act_pkg::FnGeluApprxTanh: y = pos_inf ? tern_act_pkg::PosInf : neg_inf ? tern_act_pkg::NegZero : q;
      tern_act_pkg::FnSilu:          y = pos_inf ? tern_act_pkg::PosInf : neg_inf ? tern_act_pkg::NegZero : q;
      tern_act_pkg::FnSigmoid:       y = q;
      tern_act_pkg::FnTanh:          y = (ax >= tern_act_pkg::TanhSaturate) ? (tern_act_pkg::One | sign_x) : (q | sign_x);
      tern_act_pkg::FnExp:           y = exp_a;
      tern_act_pkg::FnLog:           y = log_out;
      tern_act_pkg::FnSqrt:          y = root;
      tern_act_pkg::FnRsqrt:         y = q;
      tern_act_pkg::FnReciprocal:    y = q;
      tern_act_pkg::FnSquare:        y = x_sq;
      tern_act_pkg::FnAbs:           y = ax;
      tern_act_pkg::FnSign:          y = (ax == 32'd0) ? x : (tern_act_pkg::One | sign_x);
      tern_act_pkg::FnSoftplus:      y = pos_inf ? tern_act_pkg::PosInf : neg_inf ? tern_act_pkg::PosZero : softplus;
      tern_act_pkg::FnMish:          y = pos_inf ? tern_act_pkg::PosInf : neg_inf ? tern_act_pkg::NegZero : (!x[31] && x >= tern_act_pkg::MishLinear) ? x : x_final;
      tern_act_pkg::FnErf:           y = (ax < tern_act_pkg::ErfSmall) ? erf_small : (ax >= tern_act_pkg::ErfSaturate) ? (tern_act_pkg::One | sign_x) : (one_m_erfc | sign_x);
      default:         y = tern_pkg::Fp32CanonicalNaN;
    endcase
    if (ax > tern_act_pkg::PosInf) y = tern_pkg::Fp32CanonicalNaN;
  end

  // --- reduction step and output conversion ---------------------------------------------------
  logic [31:0] acc_sum;
  tern_fp32_add u_acc (.a_i(acc_i), .b_i(y), .sum_o(acc_sum));
  assign acc_o = (red_op_i == tern_act_pkg::RedOpAdd) ? acc_sum : tern_fp_pkg::fp32_max(acc_i, y);
  assign out_o = tern_fp_pkg::downconvert(out_dtype_i, y, round_i, 1'b0, random_i);
endmodule
