// tern_fp_int_pkg: the integer conversions of docs/numerics.md ("Conversions") as functions,
// and conversions from and to any dtype built on them and on tern_fp_pkg. Golden:
// tern::convert_to_fp32 / tern::convert_from_fp32 for int8, uint8 and int32.
//   int_to_fp32:  int8 and uint8 exact, int32 rounded to nearest even;
//   fp32_to_int:  RNE or SR to an integer (SR: the first 32 discarded bits plus the draw carry
//                 out of 32 bits), then saturation to the type's range; NaN -> 0, +-Inf -> the
//                 range end. The saturate flag is not consulted.
// The whole conversions (int_to_fp32, fp32_to_int, to_fp32, from_fp32) are `verilator
// no_inline_task`, as in tern_fp_pkg: each verilates as one shared C++ function however many
// instances call it; synthesis ignores the pragma.
package tern_fp_int_pkg;

  // Leading zeros of a 32-bit value (32 when it is zero), as a binary search.
  function automatic logic [5:0] clz32(logic [31:0] v);
    logic [31:0] x;
    logic [5:0]  n;
    x = v;
    n = 6'd0;
    if (x == 32'd0) begin
      n = 6'd32;
    end else begin
      if (x[31:16] == 16'd0) begin n = n + 6'd16; x = x << 16; end
      if (x[31:24] == 8'd0)  begin n = n + 6'd8;  x = x << 8;  end
      if (x[31:28] == 4'd0)  begin n = n + 6'd4;  x = x << 4;  end
      if (x[31:30] == 2'd0)  begin n = n + 6'd2;  x = x << 2;  end
      if (!x[31])            n = n + 6'd1;
    end
    clz32 = n;
  endfunction

  // The value of an integer dtype's encoding (low bits of `bits`), as a 33-bit signed number.
  // Float dtypes read as int32 (callers use this for integer dtypes only).
  function automatic logic [32:0] int_value(logic [3:0] dt, logic [31:0] bits);
    unique case (dt)
      tern_pkg::DtInt8:  int_value = {{25{bits[7]}}, bits[7:0]};
      tern_pkg::DtUint8: int_value = {25'd0, bits[7:0]};
      default:           int_value = {bits[31], bits};
    endcase
  endfunction

  // A 33-bit signed value saturated to an integer dtype's range, as that dtype's encoding
  // (zero-extended to 32 bits).
  function automatic logic [31:0] saturate_int(logic [3:0] dt, logic [32:0] v);
    logic signed [32:0] sv, lo, hi;
    sv = $signed(v);
    unique case (dt)
      tern_pkg::DtInt8:  begin lo = -33'sd128; hi = 33'sd127; end
      tern_pkg::DtUint8: begin lo = 33'sd0;    hi = 33'sd255; end
      default:           begin lo = -33'sd2147483648; hi = 33'sd2147483647; end
    endcase
    if (sv < lo) sv = lo;
    if (sv > hi) sv = hi;
    unique case (dt)
      tern_pkg::DtInt8, tern_pkg::DtUint8: saturate_int = {24'd0, sv[7:0]};
      default:                             saturate_int = sv[31:0];
    endcase
  endfunction

  // int_to_fp32 in three steps before tern_fp_pkg's rounding steps (a pipelined unit puts
  // registers between them; tern_int_to_fp32_pipe). Each step's output is a flat vector:
  //   magnitude (33): {sign, mag[31:0]}  -2^31 gives the magnitude 2^31, still 32 bits;
  //   count     (39): {sign, mag, lz[5:0]};
  //   then round_prep's operand (42): {nan, inf, zero, sign, exp[10:0], sig[26:0]}.
  localparam int unsigned ItfMagW   = 33;
  localparam int unsigned ItfCountW = 39;

  function automatic logic [ItfMagW-1:0] itf_magnitude(logic [3:0] dt, logic [31:0] bits);
    logic [32:0] v;
    v = int_value(dt, bits);
    itf_magnitude = {v[32], v[32] ? (32'd0 - v[31:0]) : v[31:0]};
  endfunction

  function automatic logic [ItfCountW-1:0] itf_count(logic [ItfMagW-1:0] m);
    itf_count = {m, clz32(m[31:0])};
  endfunction

  function automatic logic [41:0] itf_normalize(logic [ItfCountW-1:0] c);
    logic        sign;
    logic [31:0] mag, norm;
    logic [5:0]  lz;
    {sign, mag, lz} = c;
    norm = mag << lz[4:0];
    itf_normalize = {2'b00, mag == 32'd0, sign, 11'd31 - {5'd0, lz},
                     norm[31:5] | {26'd0, norm[4:0] != 5'd0}};
  endfunction

  // A 16-bit unsigned count to fp32, exact (no rounding: 16 bits fit the significand): clz32
  // (ones below, so at most 16) and a shift, 6 LUT6 levels, one pipeline step.
  function automatic logic [31:0] u16_to_fp32(logic [15:0] v);
    logic [5:0]  lz;
    logic [14:0] frac;  // below the leading one
    lz   = clz32({v, 16'hFFFF});
    frac = 15'(v << lz[3:0]);
    u16_to_fp32 = (v == 16'd0) ? 32'd0 : {1'b0, 8'(8'd142 - {2'd0, lz}), frac, 8'd0};
  endfunction

  // int8 / uint8 / int32 encoding to fp32 (int32 RNE; exact below 2^24 in magnitude).
  function automatic logic [31:0] int_to_fp32(logic [3:0] dt, logic [31:0] bits);
    /* verilator no_inline_task */
    int_to_fp32 = tern_fp_pkg::round_pack(tern_pkg::DtFp32,
                                          itf_normalize(itf_count(itf_magnitude(dt, bits))),
                                          tern_pkg::RoundRne, 1'b0, 32'd0);
  endfunction

  // fp32_to_int in four steps (tern_fp32_to_int_pipe puts registers between them), each's
  // output a flat vector:
  //   align  (73): {dt, mode, random[31:0], nan, zero, inf, sign, big, shift[6:0], sig[23:0]}
  //                big: 23 <= e <= 30, the value sig << (e - 23) exact (shift holds e - 23);
  //                otherwise shift = 23 - e, the right shift of sig (past 87: 127, all sticky);
  //                inf: also |x| >= 2^31;
  //   decide (41): {dt, nan, zero, inf, sign, base[31:0], up}  base: the kept magnitude;
  //   round  (37): {dt, v[32:0]}  the signed value, before saturation;
  //   then saturate_int.
  localparam int unsigned FtiAlignW  = 73;
  localparam int unsigned FtiDecideW = 41;
  localparam int unsigned FtiRoundW  = 37;

  function automatic logic [FtiAlignW-1:0] fti_align(logic [3:0] dt, logic [31:0] x, logic mode,
                                                     logic [31:0] random);
    logic               a_nan, a_inf, a_zero, a_sign;
    logic [10:0]        a_exp;
    logic [23:0]        a_sig;
    logic signed [11:0] e, r;
    logic [6:0]         shift;
    // A subnormal unnormalised (e = -126): it lies past every kept and round bit either way.
    {a_nan, a_inf, a_zero, a_sign, a_exp, a_sig} = tern_fp_pkg::unpack_fields(tern_pkg::DtFp32, x);
    e     = 12'($signed(a_exp));
    r     = 12'sd23 - e;
    shift = (r > 12'sd87) ? 7'd127 : 7'(r);
    if (e >= 12'sd23) shift = 7'(e - 12'sd23);
    fti_align = {dt, mode, random, a_nan, a_zero, a_inf || e >= 12'sd31, a_sign, e >= 12'sd23,
                 shift, a_sig};
  endfunction

  // Round (RNE, or SR: round up iff the first 32 discarded bits plus the draw carry out of
  // 32 bits) or take the exact large value.
  function automatic logic [FtiDecideW-1:0] fti_decide(logic [FtiAlignW-1:0] al);
    logic [3:0]  dt;
    logic        mode, nan, zero, inf, sign, big, sticky, up;
    logic [31:0] random;
    logic [6:0]  shift;
    logic [23:0] sig;
    logic [87:0] ext;  // {sig, 64 fraction bits} >> shift
    {dt, mode, random, nan, zero, inf, sign, big, shift, sig} = al;
    ext    = (shift > 7'd87) ? 88'd0 : ({sig, 64'd0} >> shift);
    sticky = (ext[62:0] != 63'd0) || (shift > 7'd87);
    // SR's carry of frac + random: frac > ~random.
    up = tern_fp_pkg::round_up_bit(mode, ext[63], sticky, ext[64], ext[63:32] > ~random);
    fti_decide = {dt, nan, zero, inf, sign,
                  big ? (32'(sig) << shift[2:0]) : {8'd0, ext[87:64]}, up && !big};
  endfunction

  // The signed value, rounded: sign ? -(base + up) = ~base + !up : base + up, one increment.
  // NaN and zero give 0; Inf and |x| >= 2^31 the int32 range's end.
  function automatic logic [FtiRoundW-1:0] fti_round(logic [FtiDecideW-1:0] d);
    logic [3:0]  dt;
    logic        nan, zero, inf, sign, up;
    logic [31:0] base;
    logic [32:0] v;
    {dt, nan, zero, inf, sign, base, up} = d;
    v = (sign ? ~{1'b0, base} : {1'b0, base}) + {32'd0, sign ^ up};
    if (nan || zero) begin
      v = 33'd0;
    end else if (inf) begin
      v = sign ? {1'b1, 32'h8000_0000} : {1'b0, 32'h7FFF_FFFF};
    end
    fti_round = {dt, v};
  endfunction

  // fp32 to int8 / uint8 / int32 (RNE or SR, saturating, NaN -> 0).
  function automatic logic [31:0] fp32_to_int(logic [3:0] dt, logic [31:0] x, logic mode,
                                              logic [31:0] random);
    /* verilator no_inline_task */
    logic [FtiRoundW-1:0] r;
    r = fti_round(fti_decide(fti_align(dt, x, mode, random)));
    fp32_to_int = saturate_int(r[36:33], r[32:0]);
  endfunction

  // Any dtype's encoding to fp32: floats exact (tern_fp_pkg::upconvert), integers as above.
  function automatic logic [31:0] to_fp32(logic [3:0] dt, logic [31:0] bits);
    /* verilator no_inline_task */
    if (tern_pkg::is_float_dtype(dt)) begin
      to_fp32 = tern_fp_pkg::upconvert(dt, bits);
    end else begin
      to_fp32 = int_to_fp32(dt, bits);
    end
  endfunction

  // fp32 to any dtype: floats through tern_fp_pkg::downconvert (saturate flag honoured),
  // integers through fp32_to_int.
  function automatic logic [31:0] from_fp32(logic [3:0] dt, logic [31:0] x, logic mode, logic sat,
                                            logic [31:0] random);
    /* verilator no_inline_task */
    if (tern_pkg::is_float_dtype(dt)) begin
      from_fp32 = tern_fp_pkg::downconvert(dt, x, mode, sat, random);
    end else begin
      from_fp32 = fp32_to_int(dt, x, mode, random);
    end
  endfunction

endpackage
