// tern_core_pkg: helpers the core's engine adapters share (docs/core-rtl.md).
package tern_core_pkg;

  // A per-partition scalar operand as a one-element access pattern: memory, dtype, start
  // partition, and its immediate as the byte offset. An offset past 24 bits lies outside every
  // partition, so it becomes one the walker's check rejects.
  function automatic logic [tern_isa_pkg::ApBits-1:0] scalar_as_ap(
      logic [tern_isa_pkg::ScalarBits-1:0] sc);
    scalar_as_ap = '0;
    scalar_as_ap[tern_isa_pkg::ApMemLsb]        = sc[tern_isa_pkg::ScMemLsb];
    scalar_as_ap[tern_isa_pkg::ApDtypeLsb +: tern_isa_pkg::ApDtypeWidth] = sc[tern_isa_pkg::ScDtypeLsb +: tern_isa_pkg::ScDtypeWidth];
    scalar_as_ap[tern_isa_pkg::ApStartLsb +: tern_isa_pkg::ApStartWidth] = sc[tern_isa_pkg::ScStartLsb +: tern_isa_pkg::ScStartWidth];
    scalar_as_ap[tern_isa_pkg::ApOffsetLsb +: tern_isa_pkg::ApOffsetWidth] =
        (sc[tern_isa_pkg::ScImmLsb + 24 +: 8] != 8'd0) ? 24'hFFFFFF : sc[tern_isa_pkg::ScImmLsb +: 24];
  endfunction

  // A per-partition scalar's value: float dtypes as fp32, int8 sign-extended, other integers
  // as they are (the golden model's read_scalar).
  function automatic logic [31:0] scalar_value(logic [3:0] dt, logic [31:0] bits);
    if (tern_pkg::is_float_dtype(dt))  scalar_value = tern_fp_pkg::upconvert(dt, bits);
    else if (dt == tern_pkg::DtInt8)   scalar_value = {{24{bits[7]}}, bits[7:0]};
    else                               scalar_value = bits;
  endfunction

  // Any dtype to fp32 and back with round-to-nearest-even (tern::convert_to_fp32 and
  // convert_from_fp32 without stochastic rounding): integers by value, floats by format.
  function automatic logic [31:0] to_fp32(logic [3:0] dt, logic [31:0] bits);
    to_fp32 = tern_pkg::is_float_dtype(dt) ? tern_fp_pkg::upconvert(dt, bits)
                                           : tern_fp_int_pkg::int_to_fp32(dt, bits);
  endfunction

  function automatic logic [31:0] from_fp32(logic [3:0] dt, logic [31:0] x);
    from_fp32 = tern_pkg::is_float_dtype(dt)
                ? tern_fp_pkg::downconvert(dt, x, tern_pkg::RoundRne, 1'b0, 32'd0)
                : tern_fp_int_pkg::fp32_to_int(dt, x, tern_pkg::RoundRne, 32'd0);
  endfunction

  // Two operands overlap (an adapter's read-after-write check: docs/core-rtl.md "ACT: two
  // instructions in flight"): the same memory, shared partitions and shared bytes, the bytes a
  // pattern covers in each partition being its walker's span [lo, hi).
  function automatic logic overlaps(logic psum, logic [7:0] ps, logic [7:0] np, logic [31:0] lo,
                                    logic [31:0] hi, logic b_psum, logic [7:0] b_ps,
                                    logic [7:0] b_np, logic [31:0] b_lo, logic [31:0] b_hi);
    overlaps = (psum == b_psum) && ({1'b0, ps} < {1'b0, b_ps} + {1'b0, b_np}) &&
               ({1'b0, b_ps} < {1'b0, ps} + {1'b0, np}) && (lo < b_hi) && (b_lo < hi);
  endfunction

endpackage
