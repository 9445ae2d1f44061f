// Exact-then-round addition of two unpacked values (tern_pkg form): aligns, adds, normalises
// and hands tern_fp_round_pack a 27-bit significand whose bit 0 is a sticky bit. Three bits
// below the 24-bit significand suffice for a single correct rounding to at most 24 bits.
// IEEE special rules: NaN in -> NaN; Inf - Inf -> NaN; an exact zero sum is +0 unless both
// operands are -0. Combinational.
module tern_fp_add_core (
  input  logic        a_sign_i,
  input  logic [10:0] a_exp_i,
  input  logic [23:0] a_sig_i,
  input  logic        a_zero_i,
  input  logic        a_inf_i,
  input  logic        a_nan_i,
  input  logic        b_sign_i,
  input  logic [10:0] b_exp_i,
  input  logic [23:0] b_sig_i,
  input  logic        b_zero_i,
  input  logic        b_inf_i,
  input  logic        b_nan_i,
  output logic        sign_o,
  output logic [10:0] exp_o,   // signed; value = sig * 2^(exp - 26)
  output logic [26:0] sig_o,
  output logic        zero_o,
  output logic        inf_o,
  output logic        nan_o
);

  logic               a_is_big;
  logic               big_sign, small_sign;
  logic signed [11:0] big_exp, small_exp, diff, sum_exp;
  logic [23:0]        big_sig, small_sig;
  logic [26:0]        big_ext, small_ext, small_shifted;
  logic               small_sticky;
  logic [27:0]        sum;
  logic [4:0]         lead_zeros;
  logic               unused_sum_exp_msb;

  function automatic logic [4:0] count_leading_zeros(logic [26:0] v);
    count_leading_zeros = 5'd27;
    for (int i = 0; i < 27; i++) begin
      if (v[i]) count_leading_zeros = 5'(26 - i);
    end
  endfunction

  always_comb begin
    // The larger magnitude goes first; a zero is smaller than everything.
    a_is_big = !a_zero_i && (b_zero_i || ($signed(a_exp_i) > $signed(b_exp_i)) ||
                             ((a_exp_i == b_exp_i) && (a_sig_i >= b_sig_i)));
    big_sign   = a_is_big ? a_sign_i : b_sign_i;
    small_sign = a_is_big ? b_sign_i : a_sign_i;
    big_exp    = 12'($signed(a_is_big ? a_exp_i : b_exp_i));
    small_exp  = 12'($signed(a_is_big ? b_exp_i : a_exp_i));
    big_sig    = a_is_big ? a_sig_i : b_sig_i;
    small_sig  = a_is_big ? b_sig_i : a_sig_i;

    // Align the smaller operand; everything shifted out collapses into the sticky bit 0.
    diff      = big_exp - small_exp;
    big_ext   = {big_sig, 3'b000};
    small_ext = {small_sig, 3'b000};
    if (diff > 12'sd26) begin
      small_shifted = 27'd0;
      small_sticky  = (small_sig != 24'd0);
    end else begin
      small_shifted = small_ext >> diff[4:0];
      small_sticky  = (small_ext & ((27'd1 << diff[4:0]) - 27'd1)) != 27'd0;
    end
    small_shifted[0] = small_shifted[0] | small_sticky;

    sum = (big_sign == small_sign) ? {1'b0, big_ext} + {1'b0, small_shifted}
                                   : {1'b0, big_ext} - {1'b0, small_shifted};

    // Normalise: a carry shifts right (keeping the sticky), a cancellation shifts left.
    lead_zeros = count_leading_zeros(sum[26:0]);
    if (sum[27]) begin
      sig_o   = sum[27:1] | {26'd0, sum[0]};
      sum_exp = big_exp + 12'sd1;
    end else begin
      sig_o   = sum[26:0] << lead_zeros;
      sum_exp = big_exp - 12'($signed({7'd0, lead_zeros}));
    end
    exp_o = 11'(sum_exp);

    nan_o  = a_nan_i || b_nan_i || (a_inf_i && b_inf_i && (a_sign_i != b_sign_i));
    inf_o  = !nan_o && (a_inf_i || b_inf_i);
    zero_o = !nan_o && !inf_o && (sum == 28'd0);
    if (inf_o) begin
      sign_o = a_inf_i ? a_sign_i : b_sign_i;
    end else if (zero_o) begin
      sign_o = a_zero_i && b_zero_i && a_sign_i && b_sign_i;
    end else begin
      sign_o = big_sign;
    end
  end

  // The exponent is computed in 12 bits; exp_o keeps the low 11 (its declared range).
  assign unused_sum_exp_msb = sum_exp[11];

endmodule
