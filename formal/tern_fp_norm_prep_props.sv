// tern_fp_norm_prep_props: tern_fp_pkg's add_normalize_prep, the adding units' fused step
// (rtl/fp/tern_fp_add_steps.sv, rtl/pe/tern_pe_array.sv), against the composition it replaces,
// round_prep(DtFp32, add_normalize(c), RNE, 0, 0), proven by `make formal` for every input
// whose larger exponent lies in [-997, 1022] (the range in which the composition's 11-bit sum
// exponent does not wrap; an adder's operands have exponents in [-298, 255]).
//   equal   the two vectors agree bit for bit: flags, q, shift, significand;
//   cover   a subnormal result from a carry and from a cancellation, a shift at its limit
//           (63) both ways, and a zero sum: the cases the side-by-side arithmetic splits.
// The step's input is add_count's output (its leading-zero count matches its sum), from a free
// add_sum_high result. Combinational: every input is free in every cycle, so a one-cycle check
// covers all of them.
module tern_fp_norm_prep_props (
  input logic                               clk_i,
  input logic [tern_fp_pkg::AddSummedW-1:0] summed_i
);

`ifndef SYNTHESIS
  localparam int unsigned PrepW = tern_fp_pkg::RoundPrepW;

  logic [tern_fp_pkg::AddCountedW-1:0] c_i;
  logic [PrepW-1:0]   fused, composed;
  logic signed [11:0] big_exp;
  logic [5:0]         shift;
  logic [11:0]        q;

  assign c_i      = tern_fp_pkg::add_count(summed_i);
  assign fused    = tern_fp_pkg::add_normalize_prep(c_i);
  assign composed = tern_fp_pkg::round_prep(tern_pkg::DtFp32, tern_fp_pkg::add_normalize(c_i),
                                            tern_pkg::RoundRne, 1'b0, 32'd0);
  assign big_exp  = c_i[44:33];  // {nan, inf, inf_sign, zero_sign, big_sign, big_exp, sum, lz}
  assign shift    = composed[64:59];
  assign q        = composed[76:65];

  always_ff @(posedge clk_i) begin
    in_range: assume (big_exp >= -12'sd997 && big_exp <= 12'sd1022);
    equal: assert (fused == composed);
    cover_carry_subnormal: cover (c_i[32] && shift > 6'd3 && shift < 6'd63);
    cover_cancel_subnormal: cover (!c_i[32] && c_i[31:5] != 27'd0 && shift > 6'd3 && shift < 6'd63);
    cover_carry_limit: cover (c_i[32] && shift == 6'd63);
    cover_cancel_limit: cover (!c_i[32] && shift == 6'd63);
    cover_zero_sum: cover (c_i[32:5] == 28'd0 && q != 12'd0);
  end
`endif

endmodule
