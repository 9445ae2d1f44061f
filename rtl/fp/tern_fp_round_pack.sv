// Rounds an unpacked value to a float dtype and encodes it: the one place where tern rounds.
// Round to nearest even, or stochastic rounding: with f the discarded fraction of an ulp
// truncated to 32 bits, the magnitude rounds up iff f + random_i >= 2^32.
// Overflow gives +-Inf (formats with Inf) or NaN (e4m3fn), or +-max finite when saturate_i.
// NaN inputs give the target's canonical NaN. Combinational.
module tern_fp_round_pack (
  input  logic [3:0]  dtype_i,      // target float dtype
  input  logic        sign_i,
  input  logic [10:0] exp_i,        // signed; value = sig * 2^(exp - 26)
  input  logic [26:0] sig_i,        // leading one at bit 26 unless zero; bit 0 may be a sticky
  input  logic        zero_i,
  input  logic        inf_i,
  input  logic        nan_i,
  input  logic        round_mode_i, // tern_pkg::RoundRne / RoundSr
  input  logic        saturate_i,
  input  logic [31:0] random_i,     // SR draw; unused for RNE
  output logic [31:0] bits_o
);

  logic [4:0]  man_bits, exp_bits;
  logic        has_inf;
  logic signed [11:0] bias, emin, exp_s, denorm, q, exp_field, max_exp_field;
  logic [5:0]  shift;
  logic [58:0] shifted;         // {sig, 32 fraction bits} >> shift
  logic [24:0] kept, rounded;
  logic [31:0] frac32;
  logic        round_bit, sticky, round_up;
  logic [32:0] sr_sum;
  logic [22:0] man_field;
  logic        normal, overflow;
  logic [31:0] max_finite, infinity, canonical_nan, overflow_bits;
  logic        unused_shifted_msbs, unused_sr_frac;

  function automatic logic [31:0] encode(logic [3:0] dt, logic s, logic [7:0] e, logic [22:0] m);
    encode = (32'(s) << (tern_pkg::fmt_width(dt) - 1)) |
             (32'(e) << (tern_pkg::fmt_man_bits(dt) + tern_pkg::fmt_tail_bits(dt))) |
             (32'(m) << tern_pkg::fmt_tail_bits(dt));
  endfunction

  always_comb begin
    man_bits  = 5'(tern_pkg::fmt_man_bits(dtype_i));
    exp_bits  = 5'(tern_pkg::fmt_exp_bits(dtype_i));
    has_inf   = tern_pkg::fmt_has_inf(dtype_i);
    bias      = 12'(tern_pkg::fmt_bias(dtype_i));
    emin      = 12'sd1 - bias;
    exp_s     = 12'($signed(exp_i));

    // Weight of the last kept bit: q = max(exp, emin) - man_bits. The significand's LSB
    // weighs exp - 26, so the right shift is q - (exp - 26).
    denorm = (exp_s < emin) ? (emin - exp_s) : 12'sd0;
    q      = ((exp_s < emin) ? emin : exp_s) - 12'($signed({7'd0, man_bits}));
    shift  = (denorm > 12'sd37) ? 6'd63 : 6'(12'sd26 - 12'($signed({7'd0, man_bits})) + denorm);

    shifted = {sig_i, 32'd0} >> shift;
    kept    = shifted[56:32];
    frac32  = shifted[31:0];

    round_bit = (shift <= 6'd27) ? sig_i[5'(shift - 6'd1)] : 1'b0;
    sticky    = (64'(sig_i) & ((64'd1 << (shift - 6'd1)) - 64'd1)) != 64'd0;
    sr_sum    = {1'b0, frac32} + {1'b0, random_i};
    round_up  = (round_mode_i == tern_pkg::RoundSr) ? sr_sum[32]
                                                   : (round_bit && (sticky || kept[0]));
    rounded   = kept + 25'(round_up);

    // A carry into a new binade renormalises (also takes a subnormal to the smallest normal).
    if (rounded[5'(man_bits + 5'd1)]) begin
      rounded = rounded >> 1;
      q       = q + 12'sd1;
    end
    normal    = rounded[man_bits];
    man_field = 23'(rounded) & 23'((32'd1 << man_bits) - 32'd1);
    exp_field = normal ? (q + 12'($signed({7'd0, man_bits})) + bias) : 12'sd0;

    max_exp_field = 12'((32'd1 << exp_bits) - 32'd1) - (has_inf ? 12'sd1 : 12'sd0);
    overflow = (exp_field > max_exp_field) ||
               (!has_inf && (exp_field == max_exp_field) &&
                (man_field == 23'((32'd1 << man_bits) - 32'd1)));

    max_finite    = has_inf ? encode(dtype_i, sign_i, 8'(max_exp_field), 23'((32'd1 << man_bits) - 32'd1))
                            : encode(dtype_i, sign_i, 8'(max_exp_field), 23'((32'd1 << man_bits) - 32'd2));
    infinity      = encode(dtype_i, sign_i, 8'(max_exp_field + 12'sd1), 23'd0);
    canonical_nan = has_inf ? encode(dtype_i, 1'b0, 8'(max_exp_field + 12'sd1), 23'(32'd1 << (man_bits - 5'd1)))
                            : encode(dtype_i, 1'b0, 8'(max_exp_field), 23'((32'd1 << man_bits) - 32'd1));
    overflow_bits = saturate_i ? max_finite : (has_inf ? infinity : canonical_nan);

    if (nan_i) begin
      bits_o = canonical_nan;
    end else if (inf_i) begin
      bits_o = overflow_bits;
    end else if (zero_i) begin
      bits_o = encode(dtype_i, sign_i, 8'd0, 23'd0);
    end else if (overflow) begin
      bits_o = overflow_bits;
    end else begin
      bits_o = encode(dtype_i, sign_i, 8'(exp_field), man_field);
    end
  end

  // kept takes shifted[56:32]: the shift is at least 3 for every dtype (man_bits <= 23), so the
  // top two bits are always zero. Stochastic rounding needs only the carry of sr_sum.
  assign unused_shifted_msbs = ^shifted[58:57];
  assign unused_sr_frac      = ^sr_sum[31:0];

endmodule
