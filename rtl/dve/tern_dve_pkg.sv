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
  localparam logic [31:0] Fp32NaN = 32'h7FC0_0000;

  /* verilator lint_on UNUSEDPARAM */

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
    canon = fp32_is_nan(x) ? Fp32NaN : x;
  endfunction

  // The sign flipped; NaN stays the canonical NaN.
  function automatic logic [31:0] negate(logic [31:0] x);
    negate = fp32_is_nan(x) ? Fp32NaN : {~x[31], x[30:0]};
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

endpackage
