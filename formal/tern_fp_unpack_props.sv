// tern_fp_unpack_props: tern_fp_pkg's unpack_fields and unpack_part_fields, which pick each
// dtype's fields as fixed bit ranges, against the layout formulas they replace (below: the
// fields found by shifting by tern_pkg's fmt_tail_bits and fmt_man_bits and masking by
// fmt_exp_bits, the exponent less fmt_bias), proven by `make formal` for every dtype code and
// every 32-bit encoding.
//   fields  unpack_fields agrees with the formulas bit for bit;
//   part    unpack_part_fields' fp32 low part agrees with its exponent written as e - 150 + 23;
//   cover   a NaN, an infinity, a subnormal of each narrow dtype and e4m3's one NaN encoding.
// Combinational: every input is free in every cycle, so a one-cycle check covers all of them.
module tern_fp_unpack_props (
  input logic        clk_i,
  input logic [3:0]  dt_i,
  input logic [31:0] bits_i
);

`ifndef SYNTHESIS
  // The layout formulas: docs/numerics.md's field widths, applied by shifts and masks.
  function automatic logic [38:0] fields_by_formula(logic [3:0] dt, logic [31:0] bits);
    logic        r_nan, r_inf, r_zero, r_sign, exp_all_ones, man_all_ones, exp_zero;
    logic [4:0]  man_bits, exp_bits, sign_pos;
    logic [31:0] fields;
    logic [7:0]  exp_field;
    logic [22:0] man_field;
    logic [23:0] sig_raw;
    logic [10:0] exp_top;
    man_bits  = 5'(tern_pkg::fmt_man_bits(dt));
    exp_bits  = 5'(tern_pkg::fmt_exp_bits(dt));
    fields    = bits >> tern_pkg::fmt_tail_bits(dt);
    exp_field = 8'((fields >> man_bits) & ((32'd1 << exp_bits) - 32'd1));
    man_field = 23'(fields & ((32'd1 << man_bits) - 32'd1));
    exp_all_ones = (exp_field == 8'((32'd1 << exp_bits) - 32'd1));
    man_all_ones = (man_field == 23'((32'd1 << man_bits) - 32'd1));
    exp_zero     = (exp_field == 8'd0);
    sign_pos = 5'(tern_pkg::fmt_width(dt) - 1);
    r_sign = bits[sign_pos];
    r_nan  = exp_all_ones && (tern_pkg::fmt_has_inf(dt) ? (man_field != 23'd0) : man_all_ones);
    r_inf  = exp_all_ones && tern_pkg::fmt_has_inf(dt) && (man_field == 23'd0);
    r_zero = exp_zero && (man_field == 23'd0);
    sig_raw = ((24'(!exp_zero) << man_bits) | 24'(man_field)) << (5'd23 - man_bits);
    exp_top = exp_zero ? 11'(32'sd1 - tern_pkg::fmt_bias(dt))
                       : 11'($signed({24'd0, exp_field}) - tern_pkg::fmt_bias(dt));
    fields_by_formula = {r_nan, r_inf, r_zero, r_sign, exp_top, sig_raw};
  endfunction

  logic [38:0]        fields, reference, part_lo;
  logic signed [11:0] lo_base;

  assign fields    = tern_fp_pkg::unpack_fields(dt_i, bits_i);
  assign reference = fields_by_formula(dt_i, bits_i);
  assign part_lo   = tern_fp_pkg::unpack_part_fields(tern_pkg::DtFp32, bits_i, tern_fp_pkg::PartLo);
  assign lo_base   = (bits_i[30:23] == 8'd0) ? -12'sd149
                                             : 12'($signed({4'd0, bits_i[30:23]}) - 12'sd150);

  always_ff @(posedge clk_i) begin
    fields_equal: assert (fields == reference);
    part_lo_exp: assert (part_lo[36] ||
                         part_lo == {3'b000, bits_i[31], 11'(lo_base + 12'sd23), 11'd0, bits_i[12:0]});
    cover_nan: cover (dt_i == tern_pkg::DtBf16 && fields[38]);
    cover_inf: cover (dt_i == tern_pkg::DtFp16 && fields[37]);
    cover_e4m3_nan: cover (dt_i == tern_pkg::DtFp8E4M3 && fields[38]);
    cover_e5m2_subnormal: cover (dt_i == tern_pkg::DtFp8E5M2 && !fields[36] && !fields[23]);
    cover_tf32_subnormal: cover (dt_i == tern_pkg::DtTf32 && !fields[36] && !fields[23]);
    cover_part_lo: cover (!part_lo[36] && bits_i[30:23] == 8'd0);
  end
`endif

endmodule
