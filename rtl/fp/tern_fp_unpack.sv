// Decodes a float of any tern dtype into the internal unpacked form of tern_pkg:
// sign, unbiased exponent of the leading one, normalised 24-bit significand and class flags.
// Subnormal inputs are normalised here, so every later stage sees a leading one.
// Combinational.
module tern_fp_unpack (
  input  logic [3:0]  dtype_i,   // a float dtype code (tern_pkg::Dt*)
  input  logic [31:0] bits_i,    // the encoding in the low fmt_width(dtype_i) bits
  output logic        sign_o,
  output logic [10:0] exp_o,     // signed; value = sig * 2^(exp - 23)
  output logic [23:0] sig_o,     // normalised: sig_o[23] = 1 unless zero
  output logic        zero_o,
  output logic        inf_o,
  output logic        nan_o
);

  logic [4:0]  man_bits, exp_bits, tail_bits;
  logic [31:0] fields;         // bits_i with the tail removed
  logic [7:0]  exp_field;
  logic [22:0] man_field;
  logic        exp_all_ones, man_all_ones, exp_zero;
  logic [23:0] sig_raw;        // fraction left-aligned under the hidden bit position
  logic [4:0]  lead_zeros;
  logic signed [11:0] exp_unbiased;

  // Leading zeros of a 24-bit value (24 when it is zero).
  function automatic logic [4:0] count_leading_zeros(logic [23:0] v);
    count_leading_zeros = 5'd24;
    for (int i = 0; i < 24; i++) begin
      if (v[i]) count_leading_zeros = 5'(23 - i);
    end
  endfunction

  always_comb begin
    man_bits  = 5'(tern_pkg::fmt_man_bits(dtype_i));
    exp_bits  = 5'(tern_pkg::fmt_exp_bits(dtype_i));
    tail_bits = 5'(tern_pkg::fmt_tail_bits(dtype_i));

    fields    = bits_i >> tail_bits;
    sign_o    = bits_i[5'(tern_pkg::fmt_width(dtype_i) - 1)];
    exp_field = 8'((fields >> man_bits) & ((32'd1 << exp_bits) - 32'd1));
    man_field = 23'(fields & ((32'd1 << man_bits) - 32'd1));

    exp_all_ones = (exp_field == 8'(((32'd1 << exp_bits) - 32'd1)));
    man_all_ones = (man_field == 23'(((32'd1 << man_bits) - 32'd1)));
    exp_zero     = (exp_field == 8'd0);

    nan_o  = exp_all_ones && (tern_pkg::fmt_has_inf(dtype_i) ? (man_field != 23'd0) : man_all_ones);
    inf_o  = exp_all_ones && tern_pkg::fmt_has_inf(dtype_i) && (man_field == 23'd0);
    zero_o = exp_zero && (man_field == 23'd0);

    // Place the fraction directly below bit 23 whatever its width, with the hidden bit on top.
    sig_raw = ((24'(!exp_zero) << man_bits) | 24'(man_field)) << (5'd23 - man_bits);
    lead_zeros = count_leading_zeros(sig_raw);

    // Normal: e - bias. Subnormal: emin = 1 - bias, less the normalisation shift.
    exp_unbiased = exp_zero ? 12'(32'sd1 - tern_pkg::fmt_bias(dtype_i))
                            : 12'($signed({24'd0, exp_field}) - tern_pkg::fmt_bias(dtype_i));
    if (zero_o) begin
      sig_o = 24'd0;
      exp_o = 11'd0;
    end else begin
      sig_o = sig_raw << lead_zeros;
      exp_o = 11'(exp_unbiased - $signed({7'd0, lead_zeros}));
    end
  end

endmodule
