// tern_act_fn_pkg: the Scalar Engine's functions (docs/scalar-engine.md) as sequences of
// binary32 operations (tern_fp_pkg: add, mul, div, sqrt, each rounded once with RNE) and exact
// bit operations; constants from the generated tern_act_coeff_pkg. Golden: act_function() in
// model/act/act_functions.cc, the same sequences step for step.
//
// Every function here carries `verilator no_inline_task`: inlined, the call tree of the
// 18 functions (hundreds of binary32 operations) took Verilator over ten minutes; as C++
// functions it verilates in seconds. Synthesis ignores the pragma.
package tern_act_fn_pkg;

  localparam logic [31:0] SignBit      = 32'h8000_0000;
  localparam logic [31:0] PosZero      = 32'h0000_0000;
  localparam logic [31:0] NegZero      = 32'h8000_0000;
  localparam logic [31:0] One          = 32'h3F80_0000;
  localparam logic [31:0] Two          = 32'h4000_0000;
  localparam logic [31:0] Half         = 32'h3F00_0000;
  localparam logic [31:0] PosInf       = 32'h7F80_0000;
  localparam logic [31:0] NegInf       = 32'hFF80_0000;
  localparam logic [31:0] CanonicalNaN = 32'h7FC0_0000;
  // Thresholds: bit patterns of positive values, compared as integers.
  localparam logic [31:0] ExpOverflow  = 32'h42C8_0000;  // 100
  localparam logic [31:0] ExpUnderflow = 32'h42DC_0000;  // 110
  localparam logic [31:0] TanhSaturate = 32'h4110_0000;  // 9
  localparam logic [31:0] ErfSmall     = 32'h3F40_0000;  // 0.75
  localparam logic [31:0] ErfSaturate  = 32'h4080_0000;  // 4
  localparam logic [31:0] ErfcZero     = 32'h4128_0000;  // 10.5
  localparam logic [31:0] SqrtHalfUp   = 32'h3ED4_13CD;  // 0.41421356
  localparam logic [31:0] MishLinear   = 32'h41A0_0000;  // 20

  function automatic logic [31:0] add(logic [31:0] a, logic [31:0] b);
    /* verilator no_inline_task */
    add = tern_fp_pkg::fp32_add(a, b);
  endfunction
  function automatic logic [31:0] sub(logic [31:0] a, logic [31:0] b);
    /* verilator no_inline_task */
    sub = tern_fp_pkg::fp32_add(a, b ^ SignBit);
  endfunction
  function automatic logic [31:0] mul(logic [31:0] a, logic [31:0] b);
    /* verilator no_inline_task */
    mul = tern_fp_pkg::fp32_mul(a, b);
  endfunction
  function automatic logic [31:0] div(logic [31:0] a, logic [31:0] b);
    /* verilator no_inline_task */
    div = tern_fp_pkg::fp32_div(a, b);
  endfunction
  function automatic logic [31:0] mag(logic [31:0] a);
    /* verilator no_inline_task */
    mag = a & ~SignBit;
  endfunction
  function automatic logic is_nan(logic [31:0] a);
    /* verilator no_inline_task */
    is_nan = mag(a) > PosInf;
  endfunction

  // 2^k for k in [-126, 127].
  function automatic logic [31:0] pow2(logic signed [9:0] k);
    /* verilator no_inline_task */
    pow2 = {1'b0, 8'(k + 10'sd127), 23'd0};
  endfunction
  // The integer k (|k| < 2^9) as fp32: (1.5 * 2^23 + k) - 1.5 * 2^23.
  function automatic logic [31:0] int_to_fp32(logic signed [9:0] k);
    /* verilator no_inline_task */
    int_to_fp32 = sub(tern_act_coeff_pkg::RoundMagic + 32'($signed(k)), tern_act_coeff_pkg::RoundMagic);
  endfunction
  // p * 2^n, two steps so a subnormal result rounds once.
  function automatic logic [31:0] scale2(logic [31:0] p, logic signed [9:0] n);
    /* verilator no_inline_task */
    logic signed [9:0] n1;
    n1 = n >>> 1;
    scale2 = mul(mul(p, pow2(n1)), pow2(n - n1));
  endfunction

  // exp reduction: t = n ln2 + r. Returns {n[9:0], r[31:0]}.
  function automatic logic [41:0] exp_reduce(logic [31:0] t);
    /* verilator no_inline_task */
    logic [31:0] biased, n_fp;
    logic signed [9:0] n;
    biased = add(mul(t, tern_act_coeff_pkg::InvLn2), tern_act_coeff_pkg::RoundMagic);
    n_fp   = sub(biased, tern_act_coeff_pkg::RoundMagic);
    n      = 10'($signed({1'b0, biased[22:0]}) - 24'sh40_0000);
    exp_reduce = {n, sub(sub(t, mul(n_fp, tern_act_coeff_pkg::Ln2Hi)), mul(n_fp, tern_act_coeff_pkg::Ln2Lo))};
  endfunction

  function automatic logic [31:0] expm1_kernel(logic [31:0] r);
    /* verilator no_inline_task */
    logic [31:0] h;
    h = tern_act_coeff_pkg::Expm1Poly[32*6 +: 32];
    for (int i = 5; i >= 0; i--) h = add(mul(h, r), tern_act_coeff_pkg::Expm1Poly[32*i +: 32]);
    expm1_kernel = add(r, mul(mul(r, r), h));
  endfunction

  function automatic logic [31:0] exp_fn(logic [31:0] t);
    /* verilator no_inline_task */
    logic [41:0] red;
    red = exp_reduce(t);
    if (is_nan(t)) begin
      exp_fn = CanonicalNaN;
    end else if (!t[31] && mag(t) > ExpOverflow) begin
      exp_fn = PosInf;
    end else if (t[31] && mag(t) > ExpUnderflow) begin
      exp_fn = PosZero;
    end else begin
      exp_fn = scale2(add(One, expm1_kernel(red[31:0])), red[41:32]);
    end
  endfunction

  // e^t - 1 for t in [0, 18].
  function automatic logic [31:0] expm1_fn(logic [31:0] t);
    /* verilator no_inline_task */
    logic [41:0] red;
    logic [31:0] em;
    red = exp_reduce(t);
    em  = expm1_kernel(red[31:0]);
    if (red[41:32] == 10'd0) begin
      expm1_fn = em;
    end else begin
      expm1_fn = add(scale2(em, red[41:32]), sub(pow2(red[41:32]), One));
    end
  endfunction

  function automatic logic [31:0] log1p_kernel(logic [31:0] f);
    /* verilator no_inline_task */
    logic [31:0] s, z, h;
    s = div(f, add(Two, f));
    z = mul(s, s);
    h = tern_act_coeff_pkg::LogPoly[32*4 +: 32];
    for (int i = 3; i >= 0; i--) h = add(mul(h, z), tern_act_coeff_pkg::LogPoly[32*i +: 32]);
    log1p_kernel = sub(f, mul(s, sub(f, mul(z, h))));
  endfunction

  function automatic logic [31:0] log_fn(logic [31:0] x);
    /* verilator no_inline_task */
    logic signed [9:0] k;
    logic [31:0]       m, lp, kf;
    k = 10'sd0;
    m = x;
    if (x[30:23] == 8'd0) begin  // subnormal: scale into the normal range (exact)
      m = mul(x, pow2(10'sd24));
      k = -10'sd24;
    end
    k = k + $signed({2'b00, m[30:23]}) - 10'sd127;
    m = {9'h07F, m[22:0]};
    if (m > tern_act_coeff_pkg::Sqrt2) begin
      m = {9'h07E, m[22:0]};
      k = k + 10'sd1;
    end
    lp = log1p_kernel(sub(m, One));
    kf = int_to_fp32(k);
    if (is_nan(x)) begin
      log_fn = CanonicalNaN;
    end else if (mag(x) == 32'd0) begin
      log_fn = NegInf;
    end else if (x[31]) begin
      log_fn = CanonicalNaN;
    end else if (x == PosInf) begin
      log_fn = PosInf;
    end else if (k == 10'sd0) begin
      log_fn = lp;
    end else begin
      log_fn = add(mul(kf, tern_act_coeff_pkg::LogLn2Hi), add(lp, mul(kf, tern_act_coeff_pkg::LogLn2Lo)));
    end
  endfunction

  // x * sigmoid(z) through t = exp(-|z|) in (0, 1]; sigmoid itself is x = 1.
  function automatic logic [31:0] x_sigmoid(logic [31:0] x, logic [31:0] z);
    /* verilator no_inline_task */
    logic [31:0] t, d;
    t = exp_fn(mag(z) | SignBit);
    d = add(One, t);
    x_sigmoid = z[31] ? div(mul(x, t), d) : div(x, d);
  endfunction

  function automatic logic [31:0] sigmoid_fn(logic [31:0] z);
    /* verilator no_inline_task */
    logic [31:0] t, d;
    t = exp_fn(mag(z) | SignBit);
    d = add(One, t);
    sigmoid_fn = z[31] ? div(t, d) : div(One, d);
  endfunction

  function automatic logic [31:0] tanh_fn(logic [31:0] x);
    /* verilator no_inline_task */
    logic [31:0] em;
    em = expm1_fn(add(mag(x), mag(x)));
    if (mag(x) >= TanhSaturate) begin
      tanh_fn = One | (x & SignBit);
    end else begin
      tanh_fn = div(em, add(em, Two)) | (x & SignBit);
    end
  endfunction

  function automatic logic [31:0] erf_series(logic [31:0] x);
    /* verilator no_inline_task */
    logic [31:0] s, h;
    s = mul(x, x);
    h = tern_act_coeff_pkg::ErfPoly[32*9 +: 32];
    for (int i = 8; i >= 0; i--) h = add(mul(h, s), tern_act_coeff_pkg::ErfPoly[32*i +: 32]);
    erf_series = mul(x, h);
  endfunction

  // erfc(z), z in [0.75, 10.5): exp(-zh^2) * exp(-(z - zh)(z + zh)) * g(z).
  function automatic logic [31:0] erfc_big(logic [31:0] z);
    /* verilator no_inline_task */
    int unsigned iv;
    logic [31:0] d, g, zh, e1, e2;
    iv = 0;
    for (int i = 1; i < tern_act_coeff_pkg::ErfcIntervals; i++) begin
      if (z >= tern_act_coeff_pkg::ErfcEdges[32*i +: 32]) iv = i;
    end
    d  = sub(z, tern_act_coeff_pkg::ErfcMids[32*iv +: 32]);
    g  = tern_act_coeff_pkg::ErfcPoly[32*(iv*tern_act_coeff_pkg::ErfcTerms + tern_act_coeff_pkg::ErfcTerms - 1) +: 32];
    for (int j = tern_act_coeff_pkg::ErfcTerms - 2; j >= 0; j--) g = add(mul(g, d), tern_act_coeff_pkg::ErfcPoly[32*(iv*tern_act_coeff_pkg::ErfcTerms + j) +: 32]);
    zh = z & 32'hFFFF_F000;
    e1 = exp_fn(mul(zh, zh) ^ SignBit);
    e2 = exp_fn(mul(sub(z, zh), add(z, zh)) ^ SignBit);
    erfc_big = mul(e1, mul(e2, g));
  endfunction

  function automatic logic [31:0] erf_fn(logic [31:0] x);
    /* verilator no_inline_task */
    if (mag(x) < ErfSmall) begin
      erf_fn = erf_series(x);
    end else if (mag(x) >= ErfSaturate) begin
      erf_fn = One | (x & SignBit);
    end else begin
      erf_fn = sub(One, erfc_big(mag(x))) | (x & SignBit);
    end
  endfunction

  function automatic logic [31:0] gelu_fn(logic [31:0] x);
    /* verilator no_inline_task */
    logic [31:0] w, phi, half_erfc;
    w = mul(x, tern_act_coeff_pkg::InvSqrt2);
    if (mag(w) < ErfSmall) begin
      phi = mul(Half, add(One, erf_series(w)));
    end else if (mag(w) >= ErfcZero) begin
      phi = w[31] ? PosZero : One;
    end else begin
      half_erfc = mul(Half, erfc_big(mag(w)));
      phi = w[31] ? half_erfc : sub(One, half_erfc);
    end
    gelu_fn = mul(x, phi);
  endfunction

  function automatic logic [31:0] gelu_tanh_fn(logic [31:0] x);
    /* verilator no_inline_task */
    gelu_tanh_fn = x_sigmoid(x, mul(x, add(tern_act_coeff_pkg::GeluTanhK1, mul(tern_act_coeff_pkg::GeluTanhK2, mul(x, x)))));
  endfunction

  function automatic logic [31:0] softplus_fn(logic [31:0] x);
    /* verilator no_inline_task */
    logic [31:0] u, l;
    u = exp_fn(mag(x) | SignBit);
    l = (u <= SqrtHalfUp) ? log1p_kernel(u) : log_fn(add(One, u));
    softplus_fn = add(x[31] ? PosZero : x, l);
  endfunction

  function automatic logic [31:0] mish_fn(logic [31:0] x);
    /* verilator no_inline_task */
    logic [31:0] u, v;
    u = exp_fn(x);
    v = mul(u, add(u, Two));
    mish_fn = (!x[31] && x >= MishLinear) ? x : mul(x, div(v, add(v, Two)));
  endfunction

  // func(x) on fp32; NaN in gives the canonical NaN; infinities take the function's limit.
  function automatic logic [31:0] act_function(logic [4:0] func, logic [31:0] x);
    /* verilator no_inline_task */
    logic pos_inf, neg_inf;
    pos_inf = (x == PosInf);
    neg_inf = (x == NegInf);
    unique case (func)
      tern_act_pkg::FnCopy:          act_function = x;
      tern_act_pkg::FnRelu:          act_function = x[31] ? PosZero : x;
      tern_act_pkg::FnGelu:          act_function = pos_inf ? PosInf : neg_inf ? NegZero : gelu_fn(x);
      tern_act_pkg::FnGeluApprxTanh: act_function = pos_inf ? PosInf : neg_inf ? NegZero : gelu_tanh_fn(x);
      tern_act_pkg::FnSilu:          act_function = pos_inf ? PosInf : neg_inf ? NegZero : x_sigmoid(x, x);
      tern_act_pkg::FnSigmoid:       act_function = sigmoid_fn(x);
      tern_act_pkg::FnTanh:          act_function = tanh_fn(x);
      tern_act_pkg::FnExp:           act_function = exp_fn(x);
      tern_act_pkg::FnLog:           act_function = log_fn(x);
      tern_act_pkg::FnSqrt:          act_function = tern_fp_pkg::fp32_sqrt(x);
      tern_act_pkg::FnRsqrt:         act_function = div(One, tern_fp_pkg::fp32_sqrt(x));
      tern_act_pkg::FnReciprocal:    act_function = div(One, x);
      tern_act_pkg::FnSquare:        act_function = mul(x, x);
      tern_act_pkg::FnAbs:           act_function = mag(x);
      tern_act_pkg::FnSign:          act_function = (mag(x) == 32'd0) ? x : (One | (x & SignBit));
      tern_act_pkg::FnSoftplus:      act_function = pos_inf ? PosInf : neg_inf ? PosZero : softplus_fn(x);
      tern_act_pkg::FnMish:          act_function = pos_inf ? PosInf : neg_inf ? NegZero : mish_fn(x);
      tern_act_pkg::FnErf:           act_function = erf_fn(x);
      default:                       act_function = CanonicalNaN;
    endcase
    if (is_nan(x)) act_function = CanonicalNaN;
  endfunction

endpackage
