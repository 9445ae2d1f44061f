// tern_fp_pkg: the numerics datapath of docs/numerics.md as functions, so the same logic serves
// a single block (rtl/fp/*.sv wrap these functions) and the loops of an array (rtl/pe), where
// thousands of module instances would not verilate. Golden: model/numerics.
//
// Internal forms, as flat vectors {nan, inf, zero, sign, exp[10:0], sig} (Yosys 0.23 reads no
// struct fields inside functions):
//   operand (39 bits): value = (-1)^sign * sig[23:0] * 2^(exp - 23), sig normalised (sig[23] = 1)
//                      unless zero;
//   sum     (42 bits): value = (-1)^sign * sig[26:0] * 2^(exp - 26), bit 0 possibly a sticky.
// exp is signed and wide enough for every product of two inputs.
//
// The whole-operation functions (fp32_add/mul/div/sqrt, downconvert, upconvert) are
// `verilator no_inline_task`: the Scalar Engine instantiates hundreds of them per lane, and
// as one shared C++ function each they verilate small; synthesis ignores the pragma.
package tern_fp_pkg;

  // --- The pipelined units' full latencies (rtl/fp/*_pipe.sv, docs/fpga.md) -------------------
  /* verilator lint_off UNUSEDPARAM */
  localparam int unsigned UpLat   = 6;   // tern_fp_upconvert_pipe
  localparam int unsigned MulLat  = 7;   // tern_fp32_mul_pipe
  localparam int unsigned AddLat  = 10;  // tern_fp32_add_pipe
  localparam int unsigned DivLat  = 35;  // tern_fp32_divsqrt_pipe
  localparam int unsigned DownLat = 5;   // tern_fp_downconvert_pipe

  // Simulation builds evaluate an engine's pipelined units as their whole operations followed by
  // the unit's latency (docs/decisions.md, "In simulation the lane's units are their whole
  // operations"); synthesis builds the steps. With TERN_SIM_STEPS a simulation build evaluates
  // the steps too (the Tensor Engine model that simulates the PE mesh's steps: rtl/CMakeLists.txt).
`ifdef VERILATOR
`ifndef TERN_SIM_STEPS
  localparam bit FastSim = 1'b1;
`else
  localparam bit FastSim = 1'b0;
`endif
`else
  localparam bit FastSim = 1'b0;
`endif
  /* verilator lint_on UNUSEDPARAM */

  // Leading zeros of a 27-bit value (27 when it is zero) and the value shifted left by them: a
  // five-step binary search that shifts as it counts, cheaper than a 27-step loop in gates and
  // in simulation, and no second shifter after the count. {count[4:0], shifted[26:0]}.
  function automatic logic [31:0] normalize_left(logic [26:0] v);
    logic [31:0] x, y;
    logic [4:0]  n;
    x = {v, 5'b11111};  // the ones below stop the count at 27
    y = {v, 5'b00000};  // the same shifts with zeros below: v << n for a nonzero v
    n = 5'd0;
    if (x[31:16] == 16'd0) begin n = n + 5'd16; x = x << 16; y = y << 16; end
    if (x[31:24] == 8'd0)  begin n = n + 5'd8;  x = x << 8;  y = y << 8;  end
    if (x[31:28] == 4'd0)  begin n = n + 5'd4;  x = x << 4;  y = y << 4;  end
    if (x[31:30] == 2'd0)  begin n = n + 5'd2;  x = x << 2;  y = y << 2;  end
    if (!x[31])            begin n = n + 5'd1;  y = y << 1; end
    normalize_left = {n, y[31:5]};
  endfunction

  function automatic logic [4:0] count_leading_zeros(logic [26:0] v);
    /* verilator lint_off UNUSEDSIGNAL */
    logic [31:0] both;  // the count alone
    /* verilator lint_on UNUSEDSIGNAL */
    both = normalize_left(v);
    count_leading_zeros = both[31:27];
  endfunction

  // Decodes any float dtype's encoding (low fmt_width(dt) bits); subnormals are normalised.
  // Two steps: unpack_fields decodes, unpack_normalize moves a subnormal's leading one to the
  // top. The fields form (39) is the unpacked layout before normalising:
  //   {nan, inf, zero, sign, exp[10:0] of significand bit 23, sig[23:0] with the hidden bit}.
  // Each dtype's fields are fixed bit ranges, picked by a case on dt (a select, where shifts by
  // the layout's widths would be barrel shifters in front of the exponent's subtraction: the
  // PE's longest path on the iCE40). `make formal` proves it equal to the layout formulas of
  // tern_pkg (fmt_exp_bits, fmt_man_bits, fmt_tail_bits) for every dtype code and encoding
  // (formal/tern_fp_unpack_props.sv), which keeps the two in step.
  function automatic logic [38:0] unpack_fields(logic [3:0] dt, logic [31:0] bits);
    logic        r_nan, r_inf, r_zero, r_sign, exp_ones, exp_zero, man_zero, man_ones;
    logic [7:0]  exp_field;
    logic [22:0] frac;  // the fraction directly below bit 23, whatever its width
    logic [10:0] exp_top;
    unique case (dt)
      tern_pkg::DtTf32: begin
        {r_sign, exp_field, frac} = {bits[31:13], 13'd0};
        man_ones = &bits[22:13];
      end
      tern_pkg::DtBf16: begin
        {r_sign, exp_field, frac} = {bits[15:0], 16'd0};
        man_ones = &bits[6:0];
      end
      tern_pkg::DtFp16: begin
        {r_sign, exp_field, frac} = {bits[15], 3'd0, bits[14:0], 13'd0};
        man_ones = &bits[9:0];
      end
      tern_pkg::DtFp8E4M3: begin
        {r_sign, exp_field, frac} = {bits[7], 4'd0, bits[6:0], 20'd0};
        man_ones = &bits[2:0];
      end
      tern_pkg::DtFp8E5M2: begin
        {r_sign, exp_field, frac} = {bits[7], 3'd0, bits[6:0], 21'd0};
        man_ones = &bits[1:0];
      end
      default: begin
        {r_sign, exp_field, frac} = bits;
        man_ones = &bits[22:0];
      end
    endcase
    exp_ones = (exp_field == 8'((32'd1 << tern_pkg::fmt_exp_bits(dt)) - 32'd1));
    exp_zero = (exp_field == 8'd0);
    man_zero = (frac == 23'd0);
    r_nan  = exp_ones && (tern_pkg::fmt_has_inf(dt) ? !man_zero : man_ones);
    r_inf  = exp_ones && tern_pkg::fmt_has_inf(dt) && man_zero;
    r_zero = exp_zero && man_zero;
    // Normal: e - bias; subnormal: emin = 1 - bias, before the normalising shift.
    exp_top = 11'($signed({24'd0, exp_field | {7'd0, exp_zero}}) - tern_pkg::fmt_bias(dt));
    unpack_fields = {r_nan, r_inf, r_zero, r_sign, exp_top, !exp_zero, frac};
  endfunction

  // unpack_normalize in two steps for a pipeline: unpack_shift moves a subnormal's leading one
  // to the top (a normal significand has its hidden bit there: no shift), unpack_exp lowers the
  // exponent by the shift. Shifted form (44): {nan, inf, zero, sign, exp[10:0] of bit 23 before
  // the shift, shift[4:0], sig[23:0]}.
  function automatic logic [43:0] unpack_shift(logic [38:0] f);
    logic [14:0] head;  // flags, sign, exponent
    logic [23:0] sig_raw;
    logic [4:0]  lead_zeros;
    // The three zero bits appended for the count come back out at the bottom.
    /* verilator lint_off UNUSEDSIGNAL */
    logic [26:0] sig_norm;
    /* verilator lint_on UNUSEDSIGNAL */
    {head, sig_raw} = f;
    {lead_zeros, sig_norm} = normalize_left({sig_raw, 3'b000});
    unpack_shift = {head, lead_zeros, sig_norm[26:3]};
  endfunction

  function automatic logic [38:0] unpack_exp(logic [43:0] sh);
    logic [2:0]  flags;  // nan, inf, sign
    logic        r_zero;
    logic [10:0] exp_top;
    logic [4:0]  lead_zeros;
    logic [23:0] sig;
    {flags[2:1], r_zero, flags[0], exp_top, lead_zeros, sig} = sh;
    unpack_exp = {flags[2:1], r_zero, flags[0], r_zero ? 11'd0 : exp_top - 11'(lead_zeros),
                  r_zero ? 24'd0 : sig};
  endfunction

  function automatic logic [38:0] unpack_normalize(logic [38:0] f);
    unpack_normalize = unpack_exp(unpack_shift(f));
  endfunction

  function automatic logic [38:0] unpack(logic [3:0] dt, logic [31:0] bits);
    unpack = unpack_normalize(unpack_fields(dt, bits));
  endfunction

  // Operand parts of the Tensor Engine's fp32 decomposition (docs/numerics.md). PartWhole is
  // the default that unpack_part falls through to, named for its callers (the PE mesh); blocks
  // that do not use the mesh see it unused.
  /* verilator lint_off UNUSEDPARAM */
  localparam logic [1:0] PartWhole = 2'd0;  // the value itself (full-rate dtypes)
  /* verilator lint_on UNUSEDPARAM */
  localparam logic [1:0] PartHi    = 2'd1;  // fp32 with its 13 low fraction bits cleared
  localparam logic [1:0] PartLo    = 2'd2;  // the rest, truncated to 11 significant bits

  // A part of an operand, unpacked. hi of fp32 is its TF32 reading (NaN, Inf and zeros are
  // their own hi); lo is x - hi, whose top 11 bits are all mul_exact uses (the truncation);
  // lo is +0 for tf32 operands and for NaN, Inf and zeros. In two steps like unpack.
  function automatic logic [38:0] unpack_part_fields(logic [3:0] dt, logic [31:0] bits, logic [1:0] part);
    logic [38:0] whole;
    logic [10:0] base_exp;
    whole = unpack_fields(dt, bits);
    if (part == PartHi && dt == tern_pkg::DtFp32 && !whole[38] && !whole[37] && !whole[36]) begin
      unpack_part_fields = unpack_fields(tern_pkg::DtTf32, bits);
    end else if (part == PartLo) begin
      if (dt != tern_pkg::DtFp32 || whole[38] || whole[37] || whole[36] || bits[12:0] == 13'd0) begin
        unpack_part_fields = {3'b001, 1'b0, 11'd0, 24'd0};  // +0
      end else begin
        // value = low13 * 2^(e - 150) for a normal x, low13 * 2^-149 for a subnormal one:
        // bit 23 of the 24-bit significand weighs 2^(e - 127), or 2^-126.
        // bits[30:23] | (bits[30:23] == 0) is the exponent field with a subnormal's 1 - bias:
        // one subtraction.
        base_exp = 11'($signed({4'd0, bits[30:23] | {7'd0, bits[30:23] == 8'd0}}) - 12'sd127);
        unpack_part_fields = {3'b000, bits[31], base_exp, 11'd0, bits[12:0]};
      end
    end else begin
      unpack_part_fields = whole;
    end
  endfunction

  function automatic logic [38:0] unpack_part(logic [3:0] dt, logic [31:0] bits, logic [1:0] part);
    unpack_part = unpack_normalize(unpack_part_fields(dt, bits, part));
  endfunction

  // Carries by a prefix (Kogge-Stone) tree: bit i of the result is the carry out of bits
  // [0, i] given each bit's generate g and propagate p, in log2 48 levels. The adders below
  // take their chunks' carries from it and select between two short ripple sums per chunk:
  // ABC keeps that structure (6 LUT6 levels for 48 bits), where it turns a plain prefix adder
  // back into a deep one.
  // Each level combines every bit with the one s below it, as whole-word operations (the same
  // network; a loop over bits simulates slowly).
  function automatic logic [47:0] carry_prefix(logic [47:0] g, logic [47:0] p);
    for (int s = 1; s < 48; s = s * 2) begin
      g = g | (p & (g << s));
      p = p & (p << s);
    end
    carry_prefix = g;
  endfunction

  // One 3:2 carry-save level: three rows to a sum row and a carry row (modulo 2^48: the
  // product fits).
  function automatic logic [95:0] csa(logic [47:0] x, logic [47:0] y, logic [47:0] z);
    csa = {x ^ y ^ z, ((x & y) | (x & z) | (y & z)) << 1};
  endfunction

  // Exact product of two values of at most 11 significant bits (bf16, fp16, fp8, tf32):
  // 22 bits, so nothing rounds. NaN or 0 * Inf -> NaN; otherwise any Inf -> Inf.
  // In steps: mul_exact_rows (11 partial products to two rows, five 3:2 levels) and
  // mul_exact_resolve (their sum, then mul_exact_form). Rows form (74): {a[38:24], b[38:24]
  // (flags, signs, exponents), sum[21:0], carry[21:0]}. The combinational form multiplies at
  // once; both end in mul_exact_form.
  localparam int unsigned MulExactRowsW = 74;

  function automatic logic [38:0] mul_exact_form(logic [29:0] heads, logic [21:0] product);
    logic        a_nan, a_inf, a_zero, a_sign, b_nan, b_inf, b_zero, b_sign;
    logic        r_nan, r_inf, r_zero;
    logic [10:0] a_exp, b_exp, r_exp;
    logic [23:0] r_sig;
    {a_nan, a_inf, a_zero, a_sign, a_exp, b_nan, b_inf, b_zero, b_sign, b_exp} = heads;
    r_nan  = a_nan || b_nan || (a_inf && b_zero) || (b_inf && a_zero);
    r_inf  = !r_nan && (a_inf || b_inf);
    r_zero = !r_nan && !r_inf && (a_zero || b_zero);
    if (r_zero || r_nan || r_inf) begin
      r_sig = 24'd0;
      r_exp = 11'd0;
    end else if (product[21]) begin
      r_sig = {product, 2'b00};
      r_exp = 11'($signed(a_exp) + $signed(b_exp) + 11'sd1);
    end else begin
      r_sig = {product[20:0], 3'b000};
      r_exp = 11'($signed(a_exp) + $signed(b_exp));
    end
    mul_exact_form = {r_nan, r_inf, r_zero, a_sign ^ b_sign, r_exp, r_sig};
  endfunction

  // Low-precision inputs have no significant bits below bit 13 of the significand.
  function automatic logic [38:0] mul_exact(logic [38:0] a, logic [38:0] b);
    logic [21:0] product;  // 1.10 x 1.10 -> 2.20 fixed point
    /* verilator lint_off UNUSEDSIGNAL */
    logic [12:0] a_low, b_low;
    /* verilator lint_on UNUSEDSIGNAL */
    {a_low, b_low} = {a[12:0], b[12:0]};
    product   = 22'(a[23:13] * b[23:13]);
    mul_exact = mul_exact_form({a[38:24], b[38:24]}, product);
  endfunction

  // One 3:2 level on 22-bit rows (the exact product's width: carries past bit 21 drop).
  function automatic logic [43:0] csa22(logic [21:0] x, logic [21:0] y, logic [21:0] z);
    csa22 = {x ^ y ^ z, 22'(((x & y) | (x & z) | (y & z)) << 1)};
  endfunction

  // Partial product i of the exact multiply: a's 11 bits where b's bit i is set.
  function automatic logic [21:0] exact_pp(logic [10:0] a, logic [10:0] b, int i);
    exact_pp = b[i] ? (22'(a) << i) : 22'd0;
  endfunction

  // The 11 partial products reduced to two rows: five 3:2 levels (11 -> 8 -> 6 -> 4 -> 3 -> 2
  // rows), written out row by row so every value is one machine word in simulation.
  function automatic logic [MulExactRowsW-1:0] mul_exact_rows(logic [38:0] a, logic [38:0] b);
    logic [10:0] x, y;
    logic [43:0] l1a, l1b, l1c, l2a, l2b, l3a, l3b, l4, l5;
    /* verilator lint_off UNUSEDSIGNAL */
    logic [12:0] a_low, b_low;
    /* verilator lint_on UNUSEDSIGNAL */
    {a_low, b_low} = {a[12:0], b[12:0]};
    x   = a[23:13];
    y   = b[23:13];
    l1a = csa22(exact_pp(x, y, 0), exact_pp(x, y, 1), exact_pp(x, y, 2));
    l1b = csa22(exact_pp(x, y, 3), exact_pp(x, y, 4), exact_pp(x, y, 5));
    l1c = csa22(exact_pp(x, y, 6), exact_pp(x, y, 7), exact_pp(x, y, 8));
    // Grouped as the rows come: level 1 leaves pp9 and pp10 aside, level 3 takes them in.
    l2a = csa22(l1a[21:0], l1a[43:22], l1b[21:0]);
    l2b = csa22(l1b[43:22], l1c[21:0], l1c[43:22]);
    l3a = csa22(l2a[21:0], l2a[43:22], l2b[21:0]);
    l3b = csa22(l2b[43:22], exact_pp(x, y, 9), exact_pp(x, y, 10));
    l4  = csa22(l3a[21:0], l3a[43:22], l3b[21:0]);
    l5  = csa22(l4[21:0], l4[43:22], l3b[43:22]);
    mul_exact_rows = {a[38:24], b[38:24], l5};
  endfunction

  // The rows added: two 11-bit chunks, the upper one's carry in from carry_prefix.
  function automatic logic [38:0] mul_exact_resolve(logic [MulExactRowsW-1:0] rows);
    logic [21:0] x, y, product;
    /* verilator lint_off UNUSEDSIGNAL */
    logic [47:0] carry;  // out of bits [0, i]: one is used
    /* verilator lint_on UNUSEDSIGNAL */
    logic [10:0] c0, c1;
    {x, y} = rows[43:0];
    carry = carry_prefix({26'd0, x & y}, {26'd0, x | y});
    product[10:0] = x[10:0] + y[10:0];
    c0 = x[21:11] + y[21:11];
    c1 = x[21:11] + y[21:11] + 11'd1;
    product[21:11] = carry[10] ? c1 : c0;
    mul_exact_resolve = mul_exact_form(rows[73:44], product);
  endfunction

  // Addition in six steps, so a pipelined unit can put a register between any two (rtl/fp
  // *_pipe.sv); add_exact is their composition. Each step's output is a flat vector:
  //   order   (78): {nan, inf, inf_sign, zero_sign, big_sign, sub, big_exp[11:0], big_sig[23:0],
  //                  small_sig[23:0], diff[11:0]}  the larger magnitude first, the exponent gap;
  //   aligned (72): {nan, inf, inf_sign, zero_sign, big_sign, sub, big_exp[11:0], big[26:0],
  //                  small[26:0]}  the smaller shifted to the larger's weight, sticky in bit 0;
  //   half    (60): {nan, inf, inf_sign, zero_sign, big_sign, big_exp[11:0], big[27:14],
  //                  addend[27:14], carry, sum[13:0]}  the low half of the sum done;
  //   summed  (45): {nan, inf, inf_sign, zero_sign, big_sign, big_exp[11:0], sum[27:0]};
  //   counted (50): {summed, lead_zeros[4:0]}.
  // nan, inf and the signs of an infinite or zero result depend on the operands alone, so they
  // are decided first and travel beside the magnitudes.
  localparam int unsigned AddOrderW   = 78;
  localparam int unsigned AddAlignedW = 72;
  localparam int unsigned AddHalfW    = 60;
  localparam int unsigned AddSummedW  = 45;
  localparam int unsigned AddCountedW = 50;

  // The larger magnitude goes first (a zero is smaller than everything); the gap is computed
  // both ways beside the comparison, so the subtraction does not wait for it.
  function automatic logic [AddOrderW-1:0] add_order(logic [38:0] a, logic [38:0] b);
    logic               a_nan, a_inf, a_zero, a_sign, b_nan, b_inf, b_zero, b_sign;
    logic [10:0]        a_exp, b_exp;
    logic [23:0]        a_sig, b_sig;
    logic               a_is_big, r_nan, r_inf;
    logic signed [11:0] a_minus_b, b_minus_a;
    {a_nan, a_inf, a_zero, a_sign, a_exp, a_sig} = a;
    {b_nan, b_inf, b_zero, b_sign, b_exp, b_sig} = b;
    a_is_big  = !a_zero && (b_zero || ($signed(a_exp) > $signed(b_exp)) ||
                            ((a_exp == b_exp) && (a_sig >= b_sig)));
    a_minus_b = 12'($signed(a_exp)) - 12'($signed(b_exp));
    b_minus_a = 12'($signed(b_exp)) - 12'($signed(a_exp));
    r_nan = a_nan || b_nan || (a_inf && b_inf && (a_sign != b_sign));
    r_inf = !r_nan && (a_inf || b_inf);
    add_order = {r_nan, r_inf, a_inf ? a_sign : b_sign, a_zero && b_zero && a_sign && b_sign,
                 a_is_big ? a_sign : b_sign, a_sign != b_sign,
                 12'($signed(a_is_big ? a_exp : b_exp)),
                 a_is_big ? a_sig : b_sig, a_is_big ? b_sig : a_sig,
                 a_is_big ? a_minus_b : b_minus_a};
  endfunction

  // Aligns the smaller operand; everything shifted out collapses into the sticky bit 0.
  function automatic logic [AddAlignedW-1:0] add_align(logic [AddOrderW-1:0] o);
    logic [5:0]         flags;
    logic [11:0]        big_exp;
    logic [23:0]        big_sig, small_sig;
    logic signed [11:0] diff;
    logic [26:0]        small_ext, small_shifted;
    logic               small_sticky;
    {flags, big_exp, big_sig, small_sig, diff} = o;
    small_ext = {small_sig, 3'b000};
    if (diff > 12'sd26) begin
      small_shifted = 27'd0;
      small_sticky  = (small_sig != 24'd0);
    end else begin
      small_shifted = small_ext >> diff[4:0];
      small_sticky  = (small_ext & ((27'd1 << diff[4:0]) - 27'd1)) != 27'd0;
    end
    small_shifted[0] = small_shifted[0] | small_sticky;
    add_align = {flags, big_exp, big_sig, 3'b000, small_shifted};
  endfunction

  // The 28-bit sum in two halves of 14 bits, the second taking the first's carry: a single
  // 28-bit carry chain is 12 LUT6 levels, each half fits a stage. A subtraction adds the
  // complement plus one.
  function automatic logic [AddHalfW-1:0] add_sum_low(logic [AddAlignedW-1:0] al);
    logic [4:0]  flags;
    logic        sub;
    logic [11:0] big_exp;
    logic [26:0] big_ext, small_shifted;
    logic [27:0] addend;
    {flags, sub, big_exp, big_ext, small_shifted} = al;
    addend = {1'b0, small_shifted} ^ {28{sub}};
    add_sum_low = {flags, big_exp, 1'b0, big_ext[26:14], addend[27:14],
                   15'({1'b0, big_ext[13:0]} + {1'b0, addend[13:0]} + {14'd0, sub})};
  endfunction

  function automatic logic [AddSummedW-1:0] add_sum_high(logic [AddHalfW-1:0] h);
    logic [16:0] head;  // flags, big_exp
    logic [13:0] big_hi, addend_hi, low;
    logic        carry;
    {head, big_hi, addend_hi, carry, low} = h;
    add_sum_high = {head, 14'(big_hi + addend_hi + {13'd0, carry}), low};
  endfunction

  function automatic logic [AddCountedW-1:0] add_count(logic [AddSummedW-1:0] su);
    add_count = {su, count_leading_zeros(su[26:0])};
  endfunction

  // Normalises: a carry shifts right (keeping the sticky), a cancellation shifts left. NaN in
  // -> NaN; Inf - Inf -> NaN; an exact zero sum is +0 unless both operands are -0.
  function automatic logic [41:0] add_normalize(logic [AddCountedW-1:0] c);
    logic               r_nan, r_inf, inf_sign, zero_sign, big_sign, r_zero, r_sign;
    logic signed [11:0] big_exp;
    logic [27:0]        sum;
    logic [4:0]         lead_zeros;
    logic [26:0]        r_sig;
    logic [10:0]        sum_exp;
    {r_nan, r_inf, inf_sign, zero_sign, big_sign, big_exp, sum, lead_zeros} = c;
    if (sum[27]) begin
      r_sig   = sum[27:1] | {26'd0, sum[0]};
      sum_exp = 11'(big_exp + 12'sd1);
    end else begin
      r_sig   = sum[26:0] << lead_zeros;
      sum_exp = 11'(big_exp - 12'($signed({7'd0, lead_zeros})));
    end
    r_zero = !r_nan && !r_inf && (sum == 28'd0);
    r_sign = r_inf ? inf_sign : (r_zero ? zero_sign : big_sign);
    add_normalize = {r_nan, r_inf, r_zero, r_sign, sum_exp, r_sig};
  endfunction

  // Aligns, adds and normalises two operands, keeping guard, round and sticky bits: enough for
  // one correct rounding to at most 24 bits.
  function automatic logic [41:0] add_exact(logic [38:0] a, logic [38:0] b);
    add_exact = add_normalize(add_count(add_sum_high(add_sum_low(add_align(add_order(a, b))))));
  endfunction

  // An operand as a sum ready for rounding (exact: three zero bits appended).
  function automatic logic [41:0] widen(logic [38:0] a);
    widen = {a, 3'b000};
  endfunction

  function automatic logic [31:0] encode(logic [3:0] dt, logic s, logic [7:0] e, logic [22:0] m);
    encode = (32'(s) << (tern_pkg::fmt_width(dt) - 1)) |
             (32'(e) << (tern_pkg::fmt_man_bits(dt) + tern_pkg::fmt_tail_bits(dt))) |
             (32'(m) << tern_pkg::fmt_tail_bits(dt));
  endfunction

  // The one rounding point, in four steps a pipelined unit can put registers between;
  // round_pack is their composition. Each step's output is a flat vector:
  //   prep  (87): {dt[3:0], mode, sat, nan, inf, zero, sign, q[11:0], shift[5:0], sig[26:0],
  //                random[31:0]}  q: the weight of the last kept bit; shift: sig's right shift;
  //   shift (50): {dt, mode, sat, nan, inf, zero, sign, q, kept[24:0], round_bit, sticky,
  //                sr_carry};
  //   inc   (46): {dt, sat, nan, inf, zero, sign, q, rounded[24:0]}  renormalised.
  localparam int unsigned RoundPrepW  = 87;
  localparam int unsigned RoundShiftW = 50;
  localparam int unsigned RoundIncW   = 46;

  // Weight of the last kept bit: q = max(exp, emin) - man_bits; the significand's LSB weighs
  // exp - 26, so the right shift is q - (exp - 26).
  function automatic logic [RoundPrepW-1:0] round_prep(logic [3:0] dt, logic [41:0] v, logic mode,
                                                       logic sat, logic [31:0] random);
    logic [3:0]         flags;
    logic [10:0]        v_exp;
    logic [26:0]        v_sig;
    logic [4:0]         man_bits;
    logic signed [11:0] bias, emin, exp_s, denorm, q;
    logic [5:0]         shift;
    {flags, v_exp, v_sig} = v;
    man_bits = 5'(tern_pkg::fmt_man_bits(dt));
    bias     = 12'(tern_pkg::fmt_bias(dt));
    emin     = 12'sd1 - bias;
    exp_s    = 12'($signed(v_exp));
    denorm   = (exp_s < emin) ? (emin - exp_s) : 12'sd0;
    q        = ((exp_s < emin) ? emin : exp_s) - 12'($signed({7'd0, man_bits}));
    shift    = (denorm > 12'sd37) ? 6'd63 : 6'(12'sd26 - 12'($signed({7'd0, man_bits})) + denorm);
    round_prep = {dt, mode, sat, flags, q, shift, v_sig, random};
  endfunction

  // The kept bits, the round and sticky bits, and SR's decision (round up iff the first 32
  // discarded bits plus the draw carry out of 32 bits).
  function automatic logic [RoundShiftW-1:0] round_shift(logic [RoundPrepW-1:0] p);
    logic [5:0]  head;   // dt, mode, sat
    logic [3:0]  flags;
    logic [11:0] q;
    logic [5:0]  shift;
    logic [26:0] v_sig;
    logic [31:0] random;
    // The shift is at least 3, so shifted[58:57] are zero; SR needs only the carry of sr_sum.
    /* verilator lint_off UNUSEDSIGNAL */
    logic [58:0] shifted;  // {sig, 32 fraction bits} >> shift
    logic [32:0] sr_sum;
    /* verilator lint_on UNUSEDSIGNAL */
    logic        round_bit, sticky;
    {head, flags, q, shift, v_sig, random} = p;
    shifted   = {v_sig, 32'd0} >> shift;
    round_bit = (shift <= 6'd27) ? v_sig[5'(shift - 6'd1)] : 1'b0;
    sticky    = (64'(v_sig) & ((64'd1 << (shift - 6'd1)) - 64'd1)) != 64'd0;
    sr_sum    = {1'b0, shifted[31:0]} + {1'b0, random};
    round_shift = {head, flags, q, shifted[56:32], round_bit, sticky, sr_sum[32]};
  endfunction

  // The rounding decision, for every rounding of the project (docs/numerics.md): RNE rounds up
  // on a round bit with a sticky bit or an odd last kept bit; SR rounds up when the first 32
  // discarded bits plus the draw carry out of 32 bits (sr_carry).
  function automatic logic round_up_bit(logic mode, logic round_bit, logic sticky, logic lsb,
                                        logic sr_carry);
    round_up_bit = (mode == tern_pkg::RoundSr) ? sr_carry : (round_bit && (sticky || lsb));
  endfunction

  // Rounds the kept bits; a carry into a new binade renormalises (also takes a subnormal to
  // the smallest normal).
  function automatic logic [RoundIncW-1:0] round_increment(logic [RoundShiftW-1:0] sh);
    logic [3:0]         dt;
    logic               mode, sat, round_bit, sticky, sr_carry, round_up;
    logic [3:0]         flags;
    logic signed [11:0] q;
    logic [24:0]        kept, rounded;
    logic [4:0]         man_bits;
    {dt, mode, sat, flags, q, kept, round_bit, sticky, sr_carry} = sh;
    man_bits = 5'(tern_pkg::fmt_man_bits(dt));
    round_up = round_up_bit(mode, round_bit, sticky, kept[0], sr_carry);
    rounded  = kept + 25'(round_up);
    if (rounded[5'(man_bits + 5'd1)]) begin
      rounded = rounded >> 1;
      q       = q + 12'sd1;
    end
    round_increment = {dt, sat, flags, q, rounded};
  endfunction

  // The encoding, or the overflow result: +-Inf, NaN for e4m3fn, or +-max finite when
  // saturating.
  function automatic logic [31:0] round_encode(logic [RoundIncW-1:0] in);
    logic [3:0]         dt;
    logic               sat, v_nan, v_inf, v_zero, v_sign, has_inf, normal, overflow;
    logic signed [11:0] q, bias, exp_field, max_exp_field;
    logic [24:0]        rounded;
    logic [4:0]         man_bits, exp_bits;
    logic [22:0]        man_field;
    logic [31:0]        max_finite, infinity, canonical_nan, overflow_bits;
    {dt, sat, v_nan, v_inf, v_zero, v_sign, q, rounded} = in;
    man_bits = 5'(tern_pkg::fmt_man_bits(dt));
    exp_bits = 5'(tern_pkg::fmt_exp_bits(dt));
    has_inf  = tern_pkg::fmt_has_inf(dt);
    bias     = 12'(tern_pkg::fmt_bias(dt));
    normal    = rounded[man_bits];
    man_field = 23'(rounded) & 23'((32'd1 << man_bits) - 32'd1);
    exp_field = normal ? (q + 12'($signed({7'd0, man_bits})) + bias) : 12'sd0;
    max_exp_field = 12'((32'd1 << exp_bits) - 32'd1) - (has_inf ? 12'sd1 : 12'sd0);
    overflow = (exp_field > max_exp_field) ||
               (!has_inf && (exp_field == max_exp_field) &&
                (man_field == 23'((32'd1 << man_bits) - 32'd1)));
    max_finite = encode(dt, v_sign, 8'(max_exp_field),
                        23'((32'd1 << man_bits) - (has_inf ? 32'd1 : 32'd2)));
    infinity   = encode(dt, v_sign, 8'(max_exp_field + 12'sd1), 23'd0);
    canonical_nan = has_inf ? encode(dt, 1'b0, 8'(max_exp_field + 12'sd1), 23'(32'd1 << (man_bits - 5'd1)))
                            : encode(dt, 1'b0, 8'(max_exp_field), 23'((32'd1 << man_bits) - 32'd1));
    overflow_bits = sat ? max_finite : (has_inf ? infinity : canonical_nan);
    if (v_nan) begin
      round_encode = canonical_nan;
    end else if (v_inf) begin
      round_encode = overflow_bits;
    end else if (v_zero) begin
      round_encode = encode(dt, v_sign, 8'd0, 23'd0);
    end else if (overflow) begin
      round_encode = overflow_bits;
    end else begin
      round_encode = encode(dt, v_sign, 8'(exp_field), man_field);
    end
  endfunction

  // RNE, or SR; overflow per round_encode.
  function automatic logic [31:0] round_pack(logic [3:0] dt, logic [41:0] v, logic mode, logic sat,
                                             logic [31:0] random);
    round_pack = round_encode(round_increment(round_shift(round_prep(dt, v, mode, sat, random))));
  endfunction

  // The adding units' step after add_count: round_prep(DtFp32, add_normalize(c), RNE, 0, 0),
  // the same vector, with the exponent worked out for both cases side by side instead of in a
  // row. In the composition the sum's exponent (a subtraction) feeds the subnormal test, the
  // subnormal distance, the shift and its limit (four carry chains one after another: on the
  // iCE40 the longest path of the PE and of PSUM's adder). Here, with E the larger operand's
  // exponent and z the leading zeros (both from the step's register):
  //   carry out (exponent E + 1): every field from E alone;
  //   otherwise (E - z): u = z - E - 123 is the shift a subnormal result needs (3 + emin -
  //   (E - z)), so the result is subnormal iff u >= 4, past the shift's limit iff u > 40, and
  //   q = E - z - 23 when normal; two chains side by side, then comparisons with constants.
  // Equal to the composition whenever E + 1 and E - z fit its 11-bit exponent, E in [-997,
  // 1022]; an adder's operands are unpacked numbers or exact products, whose exponents lie in
  // [-298, 255]. `make formal` proves the two equal over that range
  // (formal/tern_fp_norm_prep_props.sv).
  function automatic logic [RoundPrepW-1:0] add_normalize_prep(
      logic [AddCountedW-1:0] c);
    logic               r_nan, r_inf, inf_sign, zero_sign, big_sign, r_zero, r_sign;
    logic signed [11:0] e, u, q_norm, q_carry, q;
    logic [27:0]        sum;
    logic [4:0]         lead_zeros;
    logic [26:0]        r_sig;
    logic [5:0]         shift_norm, shift_carry;
    {r_nan, r_inf, inf_sign, zero_sign, big_sign, e, sum, lead_zeros} = c;
    // Carry out: subnormal iff E + 1 < -126; the subnormal shift 3 + (-127 - E), past its limit
    // when that distance passes 37.
    shift_carry = (e >= -12'sd127) ? 6'd3 : ((e < -12'sd164) ? 6'd63 : 6'(-12'sd124 - e));
    q_carry     = (e >= -12'sd127) ? (e - 12'sd22) : -12'sd149;
    // Cancellation: shift u when subnormal (u >= 4), 63 past the limit (u > 40).
    u          = 12'($signed({7'd0, lead_zeros})) - e - 12'sd123;
    q_norm     = (u < 12'sd4) ? (e - 12'($signed({7'd0, lead_zeros})) - 12'sd23) : -12'sd149;
    shift_norm = (u < 12'sd4) ? 6'd3 : ((u > 12'sd40) ? 6'd63 : 6'(u));
    if (sum[27]) begin
      r_sig = sum[27:1] | {26'd0, sum[0]};
      q     = q_carry;
    end else begin
      r_sig = sum[26:0] << lead_zeros;
      q     = q_norm;
    end
    r_zero = !r_nan && !r_inf && (sum == 28'd0);
    r_sign = r_inf ? inf_sign : (r_zero ? zero_sign : big_sign);
    add_normalize_prep = {tern_pkg::DtFp32, tern_pkg::RoundRne, 1'b0, r_nan, r_inf, r_zero,
                          r_sign, q, sum[27] ? shift_carry : shift_norm, r_sig, 32'd0};
  endfunction

  // IEEE binary32 addition, RNE.
  function automatic logic [31:0] fp32_add(logic [31:0] a, logic [31:0] b);
    /* verilator no_inline_task */
    fp32_add = round_pack(tern_pkg::DtFp32,
                          add_exact(unpack(tern_pkg::DtFp32, a), unpack(tern_pkg::DtFp32, b)),
                          tern_pkg::RoundRne, 1'b0, 32'd0);
  endfunction

  // The MAC step's accumulation: acc + an exact product (mul_exact's form), one RNE rounding to
  // fp32.
  function automatic logic [31:0] mac_add(logic [31:0] acc, logic [38:0] product);
    mac_add = round_pack(tern_pkg::DtFp32, add_exact(unpack(tern_pkg::DtFp32, acc), product),
                         tern_pkg::RoundRne, 1'b0, 32'd0);
  endfunction

  // The Tensor Engine's MAC step: acc + a*b, exact product, one RNE rounding to fp32.
  function automatic logic [31:0] mac(logic [31:0] acc, logic [3:0] ta, logic [31:0] a,
                                      logic [3:0] tb, logic [31:0] b);
    mac = mac_add(acc, mul_exact(unpack(ta, a), unpack(tb, b)));
  endfunction

  // Normalises a nonzero magnitude whose top bit is at bit 27 or 26 into the sum form's 27-bit
  // significand; a bit shifted out joins the sticky bit 0. `exp` is the exponent of bit 26.
  function automatic logic [41:0] sum_from_28(logic sign, logic signed [11:0] exp, logic [27:0] mag,
                                              logic sticky);
    if (mag[27]) begin
      sum_from_28 = {3'b000, sign, 11'(exp + 12'sd1), mag[27:2], mag[1] | mag[0] | sticky};
    end else begin
      sum_from_28 = {3'b000, sign, 11'(exp), mag[26:1], mag[0] | sticky};
    end
  endfunction

  // a - b as {borrow, difference} for one digit step of a restoring recurrence: the borrows
  // out of bits 10, 21 and 31 from carry_prefix, the difference from three carry-selected
  // chunks of 11, 11 and 10 bits. A 32-bit ripple subtract with its select is 12 LUT6 levels;
  // this is 6.
  function automatic logic [32:0] sub_select(logic [31:0] a, logic [31:0] b);
    /* verilator lint_off UNUSEDSIGNAL */
    logic [47:0] borrow;  // out of bits [0, i]: three are used
    /* verilator lint_on UNUSEDSIGNAL */
    logic [10:0] lo, mid0, mid1;
    logic [9:0]  hi0, hi1;
    borrow = carry_prefix({16'd0, ~a & b}, {16'd0, ~(a ^ b)});
    lo   = a[10:0] - b[10:0];
    mid0 = a[21:11] - b[21:11];
    mid1 = a[21:11] - b[21:11] - 11'd1;
    hi0  = a[31:22] - b[31:22];
    hi1  = a[31:22] - b[31:22] - 10'd1;
    sub_select = {borrow[31], borrow[21] ? hi1 : hi0, borrow[10] ? mid1 : mid0, lo};
  endfunction

  // The sum form of a product, quotient or root, or its special result: special is
  // {nan, inf, zero, sign} (all clear for none; the sign of an infinite or zero result).
  function automatic logic [41:0] special_or_sum(logic [3:0] special, logic [41:0] sum);
    if (special[3])      special_or_sum = {3'b100, 1'b0, 11'd0, 27'd0};
    else if (special[2]) special_or_sum = {3'b010, special[0], 11'd0, 27'd0};
    else if (special[1]) special_or_sum = {3'b001, special[0], 11'd0, 27'd0};
    else                 special_or_sum = sum;
  endfunction

  // a / b's special result from the operands' unpacked {nan, inf, zero, sign}: NaN, 0/0 and
  // Inf/Inf are NaN; x/0 and Inf/x are Inf; 0/x and x/Inf are 0.
  function automatic logic [3:0] div_special(logic [3:0] a, logic [3:0] b);
    logic a_nan, a_inf, a_zero, a_sign, b_nan, b_inf, b_zero, b_sign, nan, inf;
    {a_nan, a_inf, a_zero, a_sign} = a;
    {b_nan, b_inf, b_zero, b_sign} = b;
    nan = a_nan || b_nan || (a_inf && b_inf) || (a_zero && b_zero);
    inf = !nan && (a_inf || b_zero);
    div_special = {nan, inf, !nan && !inf && (a_zero || b_inf), a_sign ^ b_sign};
  endfunction

  // The weight of the quotient's sum form bit 26: its bit 27 weighs 2^(a_exp - b_exp).
  function automatic logic signed [11:0] div_exp(logic [10:0] a_exp, logic [10:0] b_exp);
    div_exp = 12'($signed(a_exp) - $signed(b_exp) - 11'sd1);
  endfunction

  // sqrt(a)'s special result: sqrt of NaN or of a negative number is NaN, sqrt(+Inf) = +Inf,
  // sqrt(-0) = -0.
  function automatic logic [3:0] sqrt_special(logic [3:0] a);
    logic a_nan, a_inf, a_zero, a_sign, nan;
    {a_nan, a_inf, a_zero, a_sign} = a;
    nan = a_nan || (a_sign && !a_zero);
    sqrt_special = {nan, !nan && a_inf, !nan && !a_inf && a_zero, a_sign};
  endfunction

  // value = sig * 2^(exp - 23) = radicand * 2^(exp - 23 - k), k = 30 or 31 makes the power
  // even; the root then has 27 or 28 bits, its bit 27 weighing 2^floor((exp + 1) / 2).
  // {weight of the sum form's bit 26, radicand}.
  function automatic logic [67:0] sqrt_operand(logic [10:0] a_exp, logic [23:0] a_sig);
    logic signed [11:0] half_exp;
    half_exp = 12'(($signed({a_exp[10], a_exp}) + 12'sd1) >>> 1);
    sqrt_operand = {half_exp - 12'sd1, !a_exp[0] ? {1'b0, a_sig, 31'd0} : {2'b00, a_sig, 30'd0}};
  endfunction

  // The divide/square-root recurrence of tern_fp32_divsqrt (one digit a cycle) and
  // tern_fp32_divsqrt_pipe (one digit a stage), defined once. Its state (DivSqrtW bits):
  // {sqrt, sign, exp[11:0] (the sum form's bit 26 weight), special[3:0], divisor[23:0],
  // rem[31:0] (partial remainder), root[27:0] (quotient or root so far), feed[55:0] (dividend or
  // radicand bits still to bring down)}.
  localparam int unsigned DivSqrtW = 158;

  // The state before the first digit, from {unpack(a), unpack(b)}. A quotient (a_sig << 27) /
  // b_sig has 28 bits; its first partial remainder is a_sig >> 1 (less than b_sig, so the bits
  // above 27 are zero). A root brings down the radicand two bits a step. The divisor is never
  // 0: a zero divisor's result is special.
  function automatic logic [DivSqrtW-1:0] divsqrt_setup(logic sqrt, logic [77:0] ops);
    logic        a_nan, a_inf, a_zero, a_sign, b_nan, b_inf, b_zero, b_sign, sign;
    logic [10:0] a_exp, b_exp;
    logic [23:0] a_sig, b_sig;
    logic signed [11:0] exp;
    logic [3:0]  special;
    logic [31:0] rem;
    logic [55:0] feed;
    {a_nan, a_inf, a_zero, a_sign, a_exp, a_sig} = ops[77:39];
    {b_nan, b_inf, b_zero, b_sign, b_exp, b_sig} = ops[38:0];
    if (sqrt) begin
      sign        = 1'b0;
      {exp, feed} = sqrt_operand(a_exp, a_sig);
      rem         = '0;
      special     = sqrt_special({a_nan, a_inf, a_zero, a_sign});
    end else begin
      sign    = a_sign ^ b_sign;
      exp     = div_exp(a_exp, b_exp);
      rem     = {9'd0, a_sig[23:1]};
      feed    = {a_sig[0], 55'd0};
      special = div_special({a_nan, a_inf, a_zero, a_sign}, {b_nan, b_inf, b_zero, b_sign});
    end
    divsqrt_setup = {sqrt, sign, exp, special, b_sig | 24'(b_zero), rem, 28'd0, feed};
  endfunction

  // One digit: bring down one dividend bit (two radicand bits), subtract the divisor (the
  // trial root*4 + 1) when it fits; the digit joins the root.
  function automatic logic [DivSqrtW-1:0] divsqrt_digit(logic [DivSqrtW-1:0] st);
    logic        sqrt, fits;
    logic [40:0] head;  // {sign, exp, special, divisor}
    /* verilator lint_off UNUSEDSIGNAL */
    logic [31:0] rem;   // the remainder stays below 2^31: its top bit is never shifted up
    /* verilator lint_on UNUSEDSIGNAL */
    logic [31:0] shifted, trial;
    logic [27:0] root;
    logic [55:0] feed;
    logic [32:0] diff;
    {sqrt, head, rem, root, feed} = st;
    shifted = sqrt ? {rem[29:0], feed[55:54]} : {rem[30:0], feed[55]};
    trial   = sqrt ? {2'b00, root, 2'b01} : {8'd0, head[23:0]};
    diff    = sub_select(shifted, trial);
    fits    = !diff[32];
    divsqrt_digit = {sqrt, head, fits ? diff[31:0] : shifted, root[26:0], fits,
                     sqrt ? {feed[53:0], 2'b00} : {feed[54:0], 1'b0}};
  endfunction

  // After the last digit: the sum form of the root or quotient (the remainder is the sticky
  // bit), or the special result.
  function automatic logic [41:0] divsqrt_sum(logic [DivSqrtW-1:0] st);
    logic               unused_sqrt;
    logic               sign;
    logic signed [11:0] exp;
    logic [3:0]         special;
    logic [23:0]        unused_divisor;
    logic [31:0]        rem;
    logic [27:0]        root;
    logic [55:0]        unused_feed;
    {unused_sqrt, sign, exp, special, unused_divisor, rem, root, unused_feed} = st;
    divsqrt_sum = special_or_sum(special, sum_from_28(sign, exp, root, rem != 32'd0));
  endfunction

  // IEEE 754-2019 maximum / minimum: NaN gives the canonical NaN; -0 orders below +0.
  function automatic logic [31:0] fp32_order_key(logic [31:0] v);
    fp32_order_key = v[31] ? ~v : (v | 32'h8000_0000);
  endfunction
  function automatic logic [31:0] fp32_max(logic [31:0] a, logic [31:0] b);
    if ((a[30:0] > 31'h7F80_0000) || (b[30:0] > 31'h7F80_0000)) fp32_max = tern_pkg::Fp32CanonicalNaN;
    else fp32_max = (fp32_order_key(b) > fp32_order_key(a)) ? b : a;
  endfunction
  function automatic logic [31:0] fp32_min(logic [31:0] a, logic [31:0] b);
    if ((a[30:0] > 31'h7F80_0000) || (b[30:0] > 31'h7F80_0000)) fp32_min = tern_pkg::Fp32CanonicalNaN;
    else fp32_min = (fp32_order_key(b) < fp32_order_key(a)) ? b : a;
  endfunction

  // IEEE binary32 multiplication, RNE: the 48-bit product of the significands, its low bits
  // folded into the sticky bit. NaN, Inf * 0 -> NaN; Inf * x -> Inf; 0 * x -> 0.
  // In steps: unpack both, mul_rows (the product in carry-save form), mul_resolve (the
  // product), mul_sum_form then the rounding steps. The combinational form multiplies at once
  // (what a simulator evaluates fastest); both end in mul_sum_form.
  // Carry-save form (mul_rows, 112): {nan, inf, zero, sign, exp[11:0], sum[47:0], carry[47:0]};
  // resolved (mul_resolve, 64): {nan, inf, zero, sign, exp[11:0], product[47:0]}, exp the
  // weight of product bit 46.
  localparam int unsigned MulRowsW     = 112;
  localparam int unsigned MulResolvedW = 64;

  // The product's {nan, inf, zero, sign} from the operands' unpacked {nan, inf, zero, sign}.
  function automatic logic [3:0] mul_special(logic [3:0] a, logic [3:0] b);
    logic a_nan, a_inf, a_zero, a_sign, b_nan, b_inf, b_zero, b_sign, nan;
    {a_nan, a_inf, a_zero, a_sign} = a;
    {b_nan, b_inf, b_zero, b_sign} = b;
    nan = a_nan || b_nan || (a_inf && b_zero) || (b_inf && a_zero);
    mul_special = {nan, !nan && (a_inf || b_inf), !nan && !a_inf && !b_inf && (a_zero || b_zero),
                   a_sign ^ b_sign};
  endfunction

  // The product's head, {nan, inf, zero, sign, exp[11:0]}, from the operands' unpacked heads
  // {nan, inf, zero, sign, exp[10:0]} (bits 38:24): mul_special and the exponent sum, the weight
  // of product bit 46.
  function automatic logic [15:0] mul_head(logic [14:0] a, logic [14:0] b);
    mul_head = {mul_special(a[14:11], b[14:11]), 12'($signed(a[10:0]) + $signed(b[10:0]))};
  endfunction

  // The 24 partial products of two significands reduced to two rows by seven 3:2 levels
  // (24, 16, 11, 8, 6, 4, 3, 2 rows); a row is 48 bits at 48*i of a flat vector.
  function automatic logic [MulRowsW-1:0] mul_rows(logic [38:0] a, logic [38:0] b);
    logic [48*24-1:0] r0;
    logic [48*16-1:0] r1;
    logic [48*11-1:0] r2;
    logic [48*8-1:0]  r3;
    logic [48*6-1:0]  r4;
    logic [48*4-1:0]  r5;
    logic [48*3-1:0]  r6;
    logic [95:0]      r7;
    for (int i = 0; i < 24; i++) r0[48*i +: 48] = b[i] ? (48'(a[23:0]) << i) : 48'd0;
    for (int i = 0; i < 8; i++) r1[96*i +: 96] = csa(r0[144*i +: 48], r0[144*i+48 +: 48], r0[144*i+96 +: 48]);
    for (int i = 0; i < 5; i++) r2[96*i +: 96] = csa(r1[144*i +: 48], r1[144*i+48 +: 48], r1[144*i+96 +: 48]);
    r2[480 +: 48] = r1[720 +: 48];
    for (int i = 0; i < 3; i++) r3[96*i +: 96] = csa(r2[144*i +: 48], r2[144*i+48 +: 48], r2[144*i+96 +: 48]);
    r3[288 +: 96] = r2[432 +: 96];
    for (int i = 0; i < 2; i++) r4[96*i +: 96] = csa(r3[144*i +: 48], r3[144*i+48 +: 48], r3[144*i+96 +: 48]);
    r4[192 +: 96] = r3[288 +: 96];
    for (int i = 0; i < 2; i++) r5[96*i +: 96] = csa(r4[144*i +: 48], r4[144*i+48 +: 48], r4[144*i+96 +: 48]);
    r6[0 +: 96] = csa(r5[0 +: 48], r5[48 +: 48], r5[96 +: 48]);
    r6[96 +: 48] = r5[144 +: 48];
    r7 = csa(r6[0 +: 48], r6[48 +: 48], r6[96 +: 48]);
    mul_rows = {mul_head(a[38:24], b[38:24]), r7};
  endfunction

  // mul_rows' format with the product formed at once: the sum row a * b, the carry row 0.
  // An FPGA build selects it (TERN_DSP_PRODUCT, scripts/timing.sh's area flow) so that the
  // significand product maps to DSP48E2 blocks, the step's registers becoming theirs;
  // mul_resolve then adds nothing. The ASIC form (mul_rows) is the one the levels measure.
  function automatic logic [MulRowsW-1:0] mul_product_rows(logic [38:0] a, logic [38:0] b);
    mul_product_rows = {mul_head(a[38:24], b[38:24]), 48'(a[23:0]) * 48'(b[23:0]), 48'd0};
  endfunction

  // The carry-save rows added: four 12-bit chunks, each chunk's carry in from carry_prefix.
  function automatic logic [MulResolvedW-1:0] mul_resolve(logic [MulRowsW-1:0] rows);
    logic [47:0] x, y, sum;
    /* verilator lint_off UNUSEDSIGNAL */
    logic [47:0] carry;  // out of bits [0, i]: three are used
    /* verilator lint_on UNUSEDSIGNAL */
    logic [11:0] c0, c1;
    {x, y} = rows[95:0];
    carry = carry_prefix(x & y, x | y);
    sum[11:0] = x[11:0] + y[11:0];
    for (int k = 1; k < 4; k++) begin
      c0 = x[12*k +: 12] + y[12*k +: 12];
      c1 = x[12*k +: 12] + y[12*k +: 12] + 12'd1;
      sum[12*k +: 12] = carry[12*k-1] ? c1 : c0;
    end
    mul_resolve = {rows[111:96], sum};
  endfunction

  // The product in the sum form (product[47:20] its top 28 bits, bit 46 weighing 2^exp), or the
  // special result.
  function automatic logic [41:0] mul_sum_form(logic [MulResolvedW-1:0] res);
    logic        nan, inf, zero, sign;
    logic [11:0] exp;
    logic [47:0] product;
    {nan, inf, zero, sign, exp, product} = res;
    mul_sum_form = special_or_sum({nan, inf, zero, sign},
                                  sum_from_28(sign, exp, product[47:20], product[19:0] != 20'd0));
  endfunction

  function automatic logic [31:0] fp32_mul(logic [31:0] a, logic [31:0] b);
    /* verilator no_inline_task */
    logic [38:0] ua, ub;
    logic [47:0] product;  // 1.23 x 1.23 -> 2.46 fixed point
    ua      = unpack(tern_pkg::DtFp32, a);
    ub      = unpack(tern_pkg::DtFp32, b);
    product = ua[23:0] * ub[23:0];
    fp32_mul = round_pack(tern_pkg::DtFp32, mul_sum_form({mul_head(ua[38:24], ub[38:24]), product}),
                          tern_pkg::RoundRne, 1'b0, 32'd0);
  endfunction

  // IEEE binary32 division, RNE: a 27- or 28-bit integer quotient of the significands, the
  // remainder folded into the sticky bit. NaN, 0/0, Inf/Inf -> NaN; x/0 and Inf/x -> Inf.
  function automatic logic [31:0] fp32_div(logic [31:0] a, logic [31:0] b);
    /* verilator no_inline_task */
    logic [38:0] ua, ub;
    logic [50:0] dividend, divisor;
    logic [27:0] quotient;  // (a_sig << 27) / b_sig lies in (2^26, 2^28)
    logic [23:0] remainder;
    logic [3:0]  special;
    ua        = unpack(tern_pkg::DtFp32, a);
    ub        = unpack(tern_pkg::DtFp32, b);
    special   = div_special(ua[38:35], ub[38:35]);
    dividend  = {ua[23:0], 27'd0};
    divisor   = {27'd0, ub[23:0] | 24'(ub[36])};  // never 0: a zero divisor's result is special
    quotient  = 28'(dividend / divisor);
    remainder = 24'(dividend % divisor);
    fp32_div = round_pack(tern_pkg::DtFp32,
                          special_or_sum(special, sum_from_28(special[0], div_exp(ua[34:24], ub[34:24]),
                                                              quotient, remainder != 24'd0)),
                          tern_pkg::RoundRne, 1'b0, 32'd0);
  endfunction

  // IEEE binary32 square root, RNE: a digit-by-digit integer root of the significand scaled
  // to an even exponent, the remainder folded into the sticky bit. sqrt(-0) = -0; sqrt of a
  // negative number or NaN -> NaN; sqrt(+Inf) = +Inf.
  function automatic logic [31:0] fp32_sqrt(logic [31:0] a);
    /* verilator no_inline_task */
    logic [38:0]        ua;
    logic signed [11:0] exp;
    logic [55:0]        radicand, rem;
    logic [27:0]        root;
    logic [55:0]        trial;
    ua = unpack(tern_pkg::DtFp32, a);
    {exp, radicand} = sqrt_operand(ua[34:24], ua[23:0]);
    root = 28'd0;
    rem  = 56'd0;
    for (int i = 27; i >= 0; i--) begin
      rem   = (rem << 2) | 56'((radicand >> (2 * i)) & 56'd3);
      trial = {26'd0, root, 2'b01};
      root  = root << 1;
      if (rem >= trial) begin
        rem  = rem - trial;
        root = root | 28'd1;
      end
    end
    fp32_sqrt = round_pack(tern_pkg::DtFp32,
                           special_or_sum(sqrt_special(ua[38:35]), sum_from_28(1'b0, exp, root, rem != 56'd0)),
                           tern_pkg::RoundRne, 1'b0, 32'd0);
  endfunction

  // fp32 -> any float dtype (RNE or SR, saturate flag).
  function automatic logic [31:0] downconvert(logic [3:0] dt, logic [31:0] x, logic mode,
                                              logic sat, logic [31:0] random);
    /* verilator no_inline_task */
    downconvert = round_pack(dt, widen(unpack(tern_pkg::DtFp32, x)), mode, sat, random);
  endfunction

  // Any float dtype -> fp32, exact.
  function automatic logic [31:0] upconvert(logic [3:0] dt, logic [31:0] bits);
    /* verilator no_inline_task */
    upconvert = round_pack(tern_pkg::DtFp32, widen(unpack(dt, bits)), tern_pkg::RoundRne, 1'b0, 32'd0);
  endfunction

endpackage
