// tern_fp_int_pkg: the integer conversions of docs/numerics.md ("Conversions") as functions,
// and conversions from and to any dtype built on them and on tern_fp_pkg. Golden:
// tern::convert_to_fp32 / tern::convert_from_fp32 for int8, uint8 and int32.
//   int_to_fp32:  int8 and uint8 exact, int32 rounded to nearest even;
//   fp32_to_int:  RNE or SR to an integer (SR: the first 32 discarded bits plus the draw carry
//                 out of 32 bits), then saturation to the type's range; NaN -> 0, +-Inf -> the
//                 range end. The saturate flag is not consulted.
// The whole conversions (int32_to_fp32, fp32_to_int, to_fp32, from_fp32) are `verilator
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

  // A 32-bit two's complement value to fp32, RNE (exact below 2^24 in magnitude).
  function automatic logic [31:0] int32_to_fp32(logic [31:0] v);
    /* verilator no_inline_task */
    logic        sign;
    logic [31:0] mag, norm;
    logic [5:0]  lz;
    logic [26:0] sig;
    sign = v[31];
    mag  = sign ? (32'd0 - v) : v;  // -2^31 gives the magnitude 2^31, still 32 bits
    lz   = clz32(mag);
    norm = mag << lz[4:0];
    sig  = norm[31:5] | {26'd0, norm[4:0] != 5'd0};
    if (mag == 32'd0) begin
      int32_to_fp32 = 32'd0;
    end else begin
      int32_to_fp32 = tern_fp_pkg::round_pack(tern_pkg::DtFp32,
                                              {3'b000, sign, 11'd31 - {5'd0, lz}, sig},
                                              tern_pkg::RoundRne, 1'b0, 32'd0);
    end
  endfunction

  // int8 / uint8 / int32 encoding to fp32.
  function automatic logic [31:0] int_to_fp32(logic [3:0] dt, logic [31:0] bits);
    int_to_fp32 = int32_to_fp32(32'(int_value(dt, bits)));
  endfunction

  // fp32 to int8 / uint8 / int32 (RNE or SR, saturating, NaN -> 0).
  function automatic logic [31:0] fp32_to_int(logic [3:0] dt, logic [31:0] x, logic mode,
                                              logic [31:0] random);
    /* verilator no_inline_task */
    logic               a_nan, a_inf, a_zero, a_sign;
    logic [10:0]        a_exp;
    logic [23:0]        a_sig;
    logic signed [11:0] e, r;
    logic [87:0]        ext;  // {sig, 64 fraction bits} >> r
    logic [31:0]        kept, frac32, mag;
    logic               round_bit, sticky, up;
    logic [32:0]        v;
    // SR needs only the carry of the sum.
    /* verilator lint_off UNUSEDSIGNAL */
    logic [32:0]        sr_sum;
    /* verilator lint_on UNUSEDSIGNAL */
    {a_nan, a_inf, a_zero, a_sign, a_exp, a_sig} = tern_fp_pkg::unpack(tern_pkg::DtFp32, x);
    e = 12'($signed(a_exp));
    r = 12'sd23 - e;
    ext = 88'd0;
    if (r > 12'sd87) begin
      ext = 88'd0;
    end else if (r > 12'sd0) begin
      ext = {a_sig, 64'd0} >> r[6:0];
    end
    kept      = {8'd0, ext[87:64]};
    frac32    = ext[63:32];
    round_bit = ext[63];
    sticky    = (ext[62:0] != 63'd0) || (r > 12'sd87);
    sr_sum    = {1'b0, frac32} + {1'b0, random};
    up        = (mode == tern_pkg::RoundSr) ? sr_sum[32] : (round_bit && (sticky || kept[0]));
    mag       = kept + 32'(up);
    if (e >= 12'sd23) mag = 32'(a_sig) << (e - 12'sd23);  // exact (e <= 30 below)
    v = a_sign ? (33'd0 - {1'b0, mag}) : {1'b0, mag};
    if (a_nan || a_zero) begin
      v = 33'd0;
    end else if (a_inf || e >= 12'sd31) begin
      v = a_sign ? {1'b1, 32'h8000_0000} : {1'b0, 32'h7FFF_FFFF};
    end
    fp32_to_int = saturate_int(dt, v);
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
