// tern_dve_pkg: the Vector Engine's command codes, error codes and per-element ALU, as in
// docs/vector-engine.md. Golden: model/dve/vector_engine.h (DveOp, DveAlu, DveError);
// tests/test_dve_model.cc checks that the codes agree.
package tern_dve_pkg;

  // Shared definitions: the engine uses all of them, the package alone does not.
  /* verilator lint_off UNUSEDPARAM */

  // Instructions (cmd_op_i). 14 and 15 are unknown and rejected.
  localparam logic [3:0] DveOpTensorTensor       = 4'd0;
  localparam logic [3:0] DveOpTensorScalar       = 4'd1;
  localparam logic [3:0] DveOpScalarTensorTensor = 4'd2;
  localparam logic [3:0] DveOpTensorReduce       = 4'd3;
  localparam logic [3:0] DveOpTensorScalarReduce = 4'd4;
  localparam logic [3:0] DveOpTensorTensorScan   = 4'd5;
  localparam logic [3:0] DveOpTensorCopy         = 4'd6;
  localparam logic [3:0] DveOpMemset             = 4'd7;
  localparam logic [3:0] DveOpSelect             = 4'd8;
  localparam logic [3:0] DveOpIota               = 4'd9;
  localparam logic [3:0] DveOpBnStats            = 4'd10;
  localparam logic [3:0] DveOpBnAggr             = 4'd11;
  localparam logic [3:0] DveOpMax8               = 4'd12;
  localparam logic [3:0] DveOpTranspose          = 4'd13;

  // Element operations (cmd_alu0_i, cmd_alu1_i). 17..31 are unknown and rejected.
  localparam logic [4:0] DveAluBypass       = 5'd0;
  localparam logic [4:0] DveAluAdd          = 5'd1;
  localparam logic [4:0] DveAluSubtract     = 5'd2;
  localparam logic [4:0] DveAluMultiply     = 5'd3;
  localparam logic [4:0] DveAluMax          = 5'd4;
  localparam logic [4:0] DveAluMin          = 5'd5;
  localparam logic [4:0] DveAluIsEqual      = 5'd6;
  localparam logic [4:0] DveAluNotEqual     = 5'd7;
  localparam logic [4:0] DveAluGreater      = 5'd8;
  localparam logic [4:0] DveAluGreaterEqual = 5'd9;
  localparam logic [4:0] DveAluLess         = 5'd10;
  localparam logic [4:0] DveAluLessEqual    = 5'd11;
  localparam logic [4:0] DveAluBitwiseAnd   = 5'd12;
  localparam logic [4:0] DveAluBitwiseOr    = 5'd13;
  localparam logic [4:0] DveAluBitwiseXor   = 5'd14;
  localparam logic [4:0] DveAluShiftLeft    = 5'd15;
  localparam logic [4:0] DveAluShiftRight   = 5'd16;
  localparam logic [4:0] DveAluLast         = 5'd16;

  // Error codes (err_code_o), checked in this order.
  localparam logic [2:0] DveErrNone         = 3'd0;
  localparam logic [2:0] DveErrOpcode       = 3'd1;  // unknown instruction
  localparam logic [2:0] DveErrAluOp        = 3'd2;  // unknown ALU op, or not allowed here
  localparam logic [2:0] DveErrDtype        = 3'd3;  // unknown dtype, or not allowed here
  localparam logic [2:0] DveErrBitwiseFloat = 3'd4;  // bitwise op with a float dtype
  localparam logic [2:0] DveErrAluMix       = 3'd5;  // bitwise and arithmetic ops chained
  localparam logic [2:0] DveErrSize         = 3'd6;  // free size 0, too large or misshapen

  // Largest free size per instruction.
  localparam int unsigned DveMaxN = 4096;

  // How an output element becomes the out dtype's encoding.
  localparam logic [1:0] KindFp   = 2'd0;  // fp32 value, converted (RNE/SR, saturate flag)
  localparam logic [1:0] KindInt  = 2'd1;  // int32 value: saturated, or converted if float out
  localparam logic [1:0] KindCopy = 2'd2;  // the input's bits, unchanged
  localparam logic [1:0] KindWord = 2'd3;  // an fp32 word as is (NaN canonical), no rounding

  localparam logic [31:0] Fp32One = 32'h3F80_0000;

  // The pipeline (docs/vector-engine.md "Pipeline"): positions count advances after a beat
  // entered (position 0: its raw elements on in0/in1). Every lane converts its inputs to fp32
  // (InLat), runs ALU A and then ALU B (AluLat each: the adder's latency, the multiplier and
  // the one-step operations padded to it) and converts the result (OutLat). The latencies are
  // tern_fp_pkg's UpLat, AddLat and DownLat, written out (a package cannot name another's
  // parameters in Yosys 0.23); tern_dve_lane checks that they agree.
  localparam int unsigned InLat  = 6;
  localparam int unsigned AluLat = 10;
  localparam int unsigned OutLat = 5;
  localparam int unsigned TA   = 1 + InLat;     // ALU A takes its operands; the scratch is read
  localparam int unsigned TB   = TA + AluLat;   // A's result; ALU B takes its operands
  localparam int unsigned TO   = TB + AluLat;   // B's result; the output conversion takes it
  localparam int unsigned TEnd = TO + OutLat;   // the converted beat, into the result register

  // bn_stats and bn_aggr run each element as a micro-program (one operation at a time through
  // ALU A or the lane's iterative divider) between their scratch words and four temporaries.
  // A micro-op: {last[12], unit[11:10], a[9:6], b[5:2], dst[1:0]}.
  localparam logic [1:0] UopAdd = 2'd0;
  localparam logic [1:0] UopSub = 2'd1;
  localparam logic [1:0] UopMul = 2'd2;
  localparam logic [1:0] UopDiv = 2'd3;
  localparam logic [3:0] SrcX    = 4'd0;   // the element (fp32)
  localparam logic [3:0] SrcAcc  = 4'd1;   // scratch word 0
  localparam logic [3:0] SrcScr1 = 4'd2;
  localparam logic [3:0] SrcScr2 = 4'd3;
  localparam logic [3:0] SrcScr3 = 4'd4;
  localparam logic [3:0] SrcScr4 = 4'd5;
  localparam logic [3:0] SrcK    = 4'd6;   // the element's count k as fp32
  localparam logic [3:0] SrcT0   = 4'd8;   // temporaries T0 .. T3: 8 .. 11
  localparam logic [3:0] SrcT1   = 4'd9;
  localparam logic [3:0] SrcT2   = 4'd10;
  localparam logic [3:0] SrcT3   = 4'd11;
  localparam logic [3:0] SrcVx   = 4'd12;  // bn_stats' second program: its element,
  localparam logic [3:0] SrcVd   = 4'd13;  // delta,
  localparam logic [3:0] SrcVm   = 4'd14;  // mean'
  localparam logic [3:0] SrcVv   = 4'd15;  // and its result so far

  /* verilator lint_on UNUSEDPARAM */

  function automatic logic [12:0] uop(logic last, logic [1:0] unit, logic [3:0] a, logic [3:0] b,
                                      logic [1:0] dst);
    uop = {last, unit, a, b, dst};
  endfunction

  // Micro-op upc of an element's program; commit (tern_dve_lane) writes the scratch after the
  // last. bn_stats (Welford): delta = x - mean; mean' = mean + delta / k; M2' = M2 + delta *
  // (x - mean'), as two programs: this one ends with mean' (its commit writes mean and hands x,
  // delta and mean' to the second, vop_at, which runs while the next element's first does).
  // bn_aggr (Chan), a triple (nb, mb, M2b) into (n, mean, M2): n' = n + nb;
  // f = nb / n'; delta = mb - mean; mean' = mean + delta * f; M2' = (M2 + M2b) + (delta *
  // delta) * (n * f); and the variance M2' / n' for the drain. The first triple only divides.
  function automatic logic [12:0] uop_at(logic [3:0] op, logic first, logic [3:0] upc);
    uop_at = 13'd0;
    if (op == DveOpBnStats) begin
      unique case (upc)
        4'd0:    uop_at = uop(1'b0, UopSub, SrcX,   SrcAcc, 2'd0);  // T0 = delta
        4'd1:    uop_at = uop(1'b0, UopDiv, SrcT0,  SrcK,   2'd1);  // T1 = delta / k
        default: uop_at = uop(1'b1, UopAdd, SrcAcc, SrcT1,  2'd2);  // T2 = mean'
      endcase
    end else if (first) begin
      uop_at = uop(1'b1, UopDiv, SrcX, SrcScr3, 2'd2);              // T2 = M2b / nb
    end else begin
      unique case (upc)
        4'd0:    uop_at = uop(1'b0, UopAdd, SrcAcc,  SrcScr3, 2'd0);  // T0 = n'
        4'd1:    uop_at = uop(1'b0, UopDiv, SrcScr3, SrcT0,   2'd1);  // T1 = f
        4'd2:    uop_at = uop(1'b0, UopSub, SrcScr4, SrcScr1, 2'd2);  // T2 = delta
        4'd3:    uop_at = uop(1'b0, UopMul, SrcT2,   SrcT1,   2'd3);  // T3 = delta f
        4'd4:    uop_at = uop(1'b0, UopAdd, SrcScr1, SrcT3,   2'd3);  // T3 = mean'
        4'd5:    uop_at = uop(1'b0, UopMul, SrcAcc,  SrcT1,   2'd1);  // T1 = n f
        4'd6:    uop_at = uop(1'b0, UopMul, SrcT2,   SrcT2,   2'd2);  // T2 = delta^2
        4'd7:    uop_at = uop(1'b0, UopMul, SrcT2,   SrcT1,   2'd2);  // T2 = delta^2 (n f)
        4'd8:    uop_at = uop(1'b0, UopAdd, SrcScr2, SrcX,    2'd1);  // T1 = M2 + M2b
        4'd9:    uop_at = uop(1'b0, UopAdd, SrcT1,   SrcT2,   2'd1);  // T1 = M2'
        default: uop_at = uop(1'b1, UopDiv, SrcT1,   SrcT0,   2'd2);  // T2 = M2' / n'
      endcase
    end
  endfunction

  // bn_stats' second program, micro-op vpc: M2' = M2 + delta (x - mean') into V (SrcVv); its
  // commit writes M2.
  function automatic logic [12:0] vop_at(logic [1:0] vpc);
    unique case (vpc)
      2'd0:    vop_at = uop(1'b0, UopSub, SrcVx,   SrcVm, 2'd0);  // V = x - mean'
      2'd1:    vop_at = uop(1'b0, UopMul, SrcVd,   SrcVv, 2'd0);  // V = delta (x - mean')
      default: vop_at = uop(1'b1, UopAdd, SrcScr1, SrcVv, 2'd0);  // V = M2'
    endcase
  endfunction

  // Storage width of a dtype in bits, as a mask.
  function automatic logic [31:0] dt_mask(logic [3:0] dt);
    unique case (dt)
      tern_pkg::DtInt8, tern_pkg::DtUint8, tern_pkg::DtFp8E4M3, tern_pkg::DtFp8E5M2: dt_mask = 32'h0000_00FF;
      tern_pkg::DtBf16, tern_pkg::DtFp16: dt_mask = 32'h0000_FFFF;
      default: dt_mask = 32'hFFFF_FFFF;
    endcase
  endfunction

  // A result beat's conversion to the out dtype by its kind (Kind*): an fp32 value rounded
  // (RNE/SR, the saturate flag) to a float or an integer dtype, an int32 value saturated to an
  // integer dtype, the input's bits masked, an fp32 word with NaN canonical. out_convert_bits
  // is the kinds that are no rounding (the lane's pipeline rounds through its units).
  function automatic logic [31:0] out_convert_bits(logic [1:0] kind, logic [3:0] dto, logic [31:0] v);
    unique case (kind)
      KindInt:  out_convert_bits = tern_fp_int_pkg::saturate_int(dto, {v[31], v});
      KindCopy: out_convert_bits = v & dt_mask(dto);
      default:  out_convert_bits = canon(v);
    endcase
  endfunction

  function automatic logic [31:0] out_convert(logic [1:0] kind, logic [3:0] dto, logic [31:0] v,
                                              logic round, logic sat, logic [31:0] random);
    out_convert = (kind == KindFp) ? tern_fp_int_pkg::from_fp32(dto, v, round, sat, random)
                                   : out_convert_bits(kind, dto, v);
  endfunction

  // Advances a beat of op holds the next one back: the loop through the scratch (written
  // AluLat or 2 AluLat after it is read), or a micro-program's element reaching ALU A before
  // the next enters. to_drain: the next beat is the first of the drain.
  function automatic logic [5:0] hold_after(logic [3:0] op, logic [4:0] alu0, logic to_drain);
    unique case (op)
      DveOpTensorReduce:       hold_after = (alu0 == DveAluAdd) ? 6'(AluLat) : 6'd0;
      DveOpTensorScalarReduce: hold_after = to_drain ? 6'(2 * AluLat) : 6'(AluLat);
      DveOpTensorTensorScan:   hold_after = 6'(2 * AluLat);
      DveOpBnStats, DveOpBnAggr: hold_after = 6'(TA - 1);
      default:                 hold_after = 6'd0;
    endcase
  endfunction

  /* verilator lint_on UNUSEDPARAM */

  // A command as its beats carry it down the pipeline (tern_dve keeps two, and each beat names
  // its own): the fields, packed once here; each position reads the ones it needs.
  localparam int unsigned CmdW = 36;
  function automatic logic [CmdW-1:0] cmd_word(logic [3:0] op, logic [4:0] alu0, logic [4:0] alu1,
                                               logic [3:0] dt0, logic [3:0] dtx, logic [3:0] dt1,
                                               logic [3:0] dto, logic dom_int, logic [1:0] rev,
                                               logic round, logic sat, logic neg);
    cmd_word = {op, alu0, alu1, dt0, dtx, dt1, dto, dom_int, rev, round, sat, neg};
  endfunction
  /* verilator lint_off UNUSEDSIGNAL */  // each reads one field
  function automatic logic [3:0] cw_op(logic [CmdW-1:0] c);   cw_op   = c[35:32]; endfunction
  function automatic logic [4:0] cw_alu0(logic [CmdW-1:0] c); cw_alu0 = c[31:27]; endfunction
  function automatic logic [4:0] cw_alu1(logic [CmdW-1:0] c); cw_alu1 = c[26:22]; endfunction
  function automatic logic [3:0] cw_dt0(logic [CmdW-1:0] c);  cw_dt0  = c[21:18]; endfunction
  function automatic logic [3:0] cw_dtx(logic [CmdW-1:0] c);  cw_dtx  = c[17:14]; endfunction
  function automatic logic [3:0] cw_dt1(logic [CmdW-1:0] c);  cw_dt1  = c[13:10]; endfunction
  function automatic logic [3:0] cw_dto(logic [CmdW-1:0] c);  cw_dto  = c[9:6];   endfunction
  function automatic logic cw_dom_int(logic [CmdW-1:0] c);    cw_dom_int = c[5];  endfunction
  function automatic logic [1:0] cw_rev(logic [CmdW-1:0] c);  cw_rev  = c[4:3];   endfunction
  function automatic logic cw_round(logic [CmdW-1:0] c);      cw_round = c[2];    endfunction
  function automatic logic cw_sat(logic [CmdW-1:0] c);        cw_sat  = c[1];     endfunction
  function automatic logic cw_neg(logic [CmdW-1:0] c);        cw_neg  = c[0];     endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  // An instruction that keeps nothing in the scratch: its beats may enter right behind another
  // command's (tern_dve accepts it while the pipeline drains). The rest start with an empty
  // pipeline, as their first step clears the scratch.
  function automatic logic streams(logic [3:0] op);
    streams = (op <= DveOpScalarTensorTensor) || (op >= DveOpTensorCopy && op <= DveOpIota);
  endfunction

  // The operand streams an instruction reads (the engine and the core's adapter both ask).
  function automatic logic uses_in0(logic [3:0] op);
    uses_in0 = (op != DveOpMemset) && (op != DveOpIota);
  endfunction

  function automatic logic uses_in1(logic [3:0] op);
    uses_in1 = (op == DveOpTensorTensor) || (op == DveOpScalarTensorTensor) ||
               (op == DveOpTensorTensorScan) || (op == DveOpSelect);
  endfunction

  function automatic logic alu_is_bitwise(logic [4:0] alu);
    alu_is_bitwise = (alu >= DveAluBitwiseAnd) && (alu <= DveAluShiftRight);
  endfunction

  function automatic logic alu_is_reduce(logic [4:0] alu);
    alu_is_reduce = (alu == DveAluAdd) || (alu == DveAluMax) || (alu == DveAluMin);
  endfunction

  // The sign does not matter to these two.
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic logic fp32_is_nan(logic [31:0] x);
    fp32_is_nan = (x[30:23] == 8'hFF) && (x[22:0] != 23'd0);
  endfunction

  function automatic logic fp32_is_zero(logic [31:0] x);
    fp32_is_zero = (x[30:0] == 31'd0);
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  function automatic logic [31:0] canon(logic [31:0] x);
    canon = fp32_is_nan(x) ? tern_pkg::Fp32CanonicalNaN : x;
  endfunction

  // The sign flipped; NaN stays the canonical NaN.
  function automatic logic [31:0] negate(logic [31:0] x);
    negate = fp32_is_nan(x) ? tern_pkg::Fp32CanonicalNaN : {~x[31], x[30:0]};
  endfunction

  // IEEE totalOrder as an unsigned key (-0 below +0; positive NaNs above +Inf), and back.
  function automatic logic [31:0] order_key(logic [31:0] x);
    order_key = x[31] ? ~x : (x | 32'h8000_0000);
  endfunction

  function automatic logic [31:0] order_unkey(logic [31:0] k);
    order_unkey = k[31] ? (k & 32'h7FFF_FFFF) : ~k;
  endfunction

  // a < b numerically, for non-NaN operands (-0 == +0).
  function automatic logic fp32_lt(logic [31:0] a, logic [31:0] b);
    fp32_lt = !(fp32_is_zero(a) && fp32_is_zero(b)) && (order_key(a) < order_key(b));
  endfunction

  function automatic logic fp32_eq(logic [31:0] a, logic [31:0] b);
    fp32_eq = (a == b) || (fp32_is_zero(a) && fp32_is_zero(b));
  endfunction

  // One element operation. Arithmetic domain: a, b and the result are fp32. Integer domain
  // (bitwise ops): a, b and the result are int32. sum and product are a + b (a - b for
  // subtract) and a * b from tern_dve_alu's adder and multiplier.
  function automatic logic [31:0] alu(logic [4:0] op, logic [31:0] a, logic [31:0] b,
                                      logic [31:0] sum, logic [31:0] product);
    logic any_nan, lt_ab, lt_ba, eq;
    any_nan   = fp32_is_nan(a) || fp32_is_nan(b);
    lt_ab     = fp32_lt(a, b);
    lt_ba     = fp32_lt(b, a);
    eq        = fp32_eq(a, b);
    unique case (op)
      DveAluAdd, DveAluSubtract: alu = sum;
      DveAluMultiply:            alu = product;
      DveAluMax:                 alu = tern_fp_pkg::fp32_max(a, b);
      DveAluMin:                 alu = tern_fp_pkg::fp32_min(a, b);
      DveAluIsEqual:      alu = (!any_nan && eq) ? Fp32One : 32'd0;
      DveAluNotEqual:     alu = (any_nan || !eq) ? Fp32One : 32'd0;
      DveAluGreater:      alu = (!any_nan && lt_ba) ? Fp32One : 32'd0;
      DveAluGreaterEqual: alu = (!any_nan && !lt_ab) ? Fp32One : 32'd0;
      DveAluLess:         alu = (!any_nan && lt_ab) ? Fp32One : 32'd0;
      DveAluLessEqual:    alu = (!any_nan && !lt_ba) ? Fp32One : 32'd0;
      DveAluBitwiseAnd:   alu = a & b;
      DveAluBitwiseOr:    alu = a | b;
      DveAluBitwiseXor:   alu = a ^ b;
      DveAluShiftLeft:    alu = a << b[4:0];
      DveAluShiftRight:   alu = 32'($signed(a) >>> b[4:0]);
      default:            alu = a;  // bypass
    endcase
  endfunction

  // Iota's value for a lane, s0 + p * imm1 + idx * imm2 (int32, wrapping), as tern_dve keeps
  // it: {carry into the high half, high half, low half} (33 bits; the value is the halves plus
  // the carry at bit 16), so no step adds more than 16 bits. iota_rows: s0 + p * imm1 in
  // carry-save form {sum, carry}, one carry-save adder per set bit of the lane index p;
  // iota_start adds the rows' halves; iota_step adds imm2; iota_value resolves the carry.
  function automatic logic [63:0] iota_rows(logic [31:0] s0, logic [31:0] imm1, int unsigned p);
    logic [31:0] s, c, t;
    s = s0;
    c = 32'd0;
    for (int k = 0; k < 16; k++) begin
      if (((p >> k) & 1) != 0) begin
        t = imm1 << k;
        {s, c} = {s ^ c ^ t, ((s & c) | (s & t) | (c & t)) << 1};
      end
    end
    iota_rows = {s, c};
  endfunction

  function automatic logic [32:0] iota_start(logic [63:0] rows);
    logic [16:0] lo;
    lo = {1'b0, rows[47:32]} + {1'b0, rows[15:0]};
    iota_start = {lo[16], rows[63:48] + rows[31:16], lo[15:0]};
  endfunction

  function automatic logic [32:0] iota_step(logic [32:0] v, logic [31:0] imm2);
    logic [16:0] lo;
    lo = {1'b0, v[15:0]} + {1'b0, imm2[15:0]};
    iota_step = {lo[16], v[31:16] + imm2[31:16] + {15'd0, v[32]}, lo[15:0]};
  endfunction

  function automatic logic [31:0] iota_value(logic [32:0] v);
    iota_value = {v[31:16] + {15'd0, v[32]}, v[15:0]};
  endfunction

endpackage
