// tern_act_pkg: the Scalar Engine's command codes (docs/scalar-engine.md). Golden:
// model/act/act_functions.h (ActFunc) and model/act/scalar_engine.h; a test checks the codes.
package tern_act_pkg;

  // Functions (the ISA's ACT function field). Not every code is used inside one block.
  /* verilator lint_off UNUSEDPARAM */
  localparam logic [4:0] FnCopy          = 5'd0;
  localparam logic [4:0] FnRelu          = 5'd1;
  localparam logic [4:0] FnGelu          = 5'd2;
  localparam logic [4:0] FnGeluApprxTanh = 5'd3;
  localparam logic [4:0] FnSilu          = 5'd4;
  localparam logic [4:0] FnSigmoid       = 5'd5;
  localparam logic [4:0] FnTanh          = 5'd6;
  localparam logic [4:0] FnExp           = 5'd7;
  localparam logic [4:0] FnLog           = 5'd8;
  localparam logic [4:0] FnSqrt          = 5'd9;
  localparam logic [4:0] FnRsqrt         = 5'd10;
  localparam logic [4:0] FnReciprocal    = 5'd11;
  localparam logic [4:0] FnSquare        = 5'd12;
  localparam logic [4:0] FnAbs           = 5'd13;
  localparam logic [4:0] FnSign          = 5'd14;
  localparam logic [4:0] FnSoftplus      = 5'd15;
  localparam logic [4:0] FnMish          = 5'd16;
  localparam logic [4:0] FnErf           = 5'd17;
  localparam int unsigned NumFuncs       = 18;

  // Reduce commands and operators.
  localparam logic [2:0] RedIdle        = 3'd0;
  localparam logic [2:0] RedReset       = 3'd1;
  localparam logic [2:0] RedReduce      = 3'd2;
  localparam logic [2:0] RedResetReduce = 3'd3;
  localparam logic [2:0] RedLoadReduce  = 3'd4;
  localparam logic [0:0] RedOpAdd       = 1'd0;
  localparam logic [0:0] RedOpMax       = 1'd1;

  // Error codes.
  localparam logic [3:0] ActErrNone      = 4'd0;
  localparam logic [3:0] ActErrBadFunc   = 4'd1;
  localparam logic [3:0] ActErrBadDtype  = 4'd2;
  localparam logic [3:0] ActErrBadSize   = 4'd3;
  localparam logic [3:0] ActErrBadReduce = 4'd4;

  // fp32 constants and thresholds of the function algorithms (bit patterns of positive values
  // compare as integers). Golden: model/act/act_functions.cc.
  localparam logic [31:0] SignBit      = 32'h8000_0000;
  localparam logic [31:0] PosZero      = 32'h0000_0000;
  localparam logic [31:0] NegZero      = 32'h8000_0000;
  localparam logic [31:0] One          = 32'h3F80_0000;
  localparam logic [31:0] Two          = 32'h4000_0000;
  localparam logic [31:0] Half         = 32'h3F00_0000;
  localparam logic [31:0] PosInf       = 32'h7F80_0000;
  localparam logic [31:0] NegInf       = 32'hFF80_0000;
  localparam logic [31:0] ExpOverflow  = 32'h42C8_0000;  // 100: exp(t) is +Inf beyond
  localparam logic [31:0] ExpUnderflow = 32'h42DC_0000;  // 110: exp(-t) is +0 beyond
  localparam logic [31:0] TanhSaturate = 32'h4110_0000;  // 9: tanh rounds to +-1 from here
  localparam logic [31:0] ErfSmall     = 32'h3F40_0000;  // 0.75: series below, erfc above
  localparam logic [31:0] ErfSaturate  = 32'h4080_0000;  // 4: erf rounds to +-1 from here
  localparam logic [31:0] ErfcZero     = 32'h4128_0000;  // 10.5: erfc is +0 from here
  localparam logic [31:0] SqrtHalfUp   = 32'h3ED4_13CD;  // 0.41421356: log1p kernel up to here
  localparam logic [31:0] MishLinear   = 32'h41A0_0000;  // 20: mish(x) rounds to x from here
  /* verilator lint_on UNUSEDPARAM */

  // --- The lane's pipeline (docs/scalar-engine.md "Pipeline") --------------------------------
  /* verilator lint_off UNUSEDPARAM */
  // Every binary32 operation is a pipelined unit of rtl/fp at its full latency; every select
  // between them is registered. Times count advances from the beat's entry (t = 0: its raw
  // element, scale and bias); a unit's operands are aligned to the later one's time
  // (tern_act_op), so a time below is where a value is valid.
  // The units' latencies are tern_fp_pkg's, written out (a package cannot name another's
  // parameters in Yosys 0.23); tern_act_lane checks that they agree.
  localparam int unsigned UpLat   = 6;   // tern_fp_upconvert_pipe
  localparam int unsigned MulLat  = 7;   // tern_fp32_mul_pipe
  localparam int unsigned AddLat  = 10;  // tern_fp32_add_pipe
  localparam int unsigned DivLat  = 35;  // tern_fp32_divsqrt_pipe
  localparam int unsigned DownLat = 5;   // tern_fp_downconvert_pipe
  localparam int unsigned StepLat = MulLat + AddLat;  // a Horner step: multiply, then add
  // tern_act_op's operations.
  localparam logic [1:0] OpAdd  = 2'd0;
  localparam logic [1:0] OpMul  = 2'd1;
  localparam logic [1:0] OpDiv  = 2'd2;
  localparam logic [1:0] OpSqrt = 2'd3;

  // erfc's polynomial terms: tern_act_coeff_pkg::ErfcTerms (generated), which a package
  // cannot name in Yosys 0.23; tern_act_lane checks the two agree.
  localparam int unsigned ErfcTerms = 9;

  function automatic int unsigned op_lat(logic [1:0] op);
    op_lat = (op == OpAdd) ? AddLat : (op == OpMul) ? MulLat : DivLat;
  endfunction


  function automatic int unsigned later(int unsigned a, int unsigned b);
    later = (a > b) ? a : b;
  endfunction
  function automatic int unsigned horner_lat(int unsigned terms);
    horner_lat = (terms - 1) * StepLat;
  endfunction

  // exp and expm1 (tern_act_exp), from its input at 0.
  localparam int unsigned ExpTBiased = MulLat + AddLat;              // t / ln2 + 1.5 * 2^23
  localparam int unsigned ExpTSplit  = ExpTBiased + 1;               // n, n >> 1, n - (n >> 1)
  localparam int unsigned ExpTPow    = ExpTSplit + 1;                // their powers of two
  localparam int unsigned ExpTN      = ExpTBiased + AddLat;          // n as fp32
  localparam int unsigned ExpTHi     = ExpTN + MulLat;               // n ln2_hi, n ln2_lo
  localparam int unsigned ExpTR      = ExpTHi + 2 * AddLat;          // r = (t - hi) - lo
  localparam int unsigned ExpTPoly   = ExpTR + horner_lat(7);
  localparam int unsigned ExpTEm     = ExpTPoly + MulLat + AddLat;   // r + r^2 P(r)
  localparam int unsigned ExpTFull   = ExpTEm + AddLat + 2 * MulLat; // (1 + em) 2^n1 2^(n-n1)
  localparam int unsigned ExpTEmSum  = later(ExpTEm + 2 * MulLat, ExpTEm + AddLat) + AddLat;
  localparam int unsigned ExpLat     = later(ExpTFull, ExpTEmSum) + 1;  // results registered

  // log and the log1p kernel (tern_act_log), from its input at 0.
  localparam int unsigned LogTScaled = MulLat;                       // x 2^24
  localparam int unsigned LogTSplit  = LogTScaled + 1;               // m_in, k_base
  localparam int unsigned LogTMk     = LogTSplit + 1;                // m, k (m > sqrt 2 folded)
  localparam int unsigned LogTKin    = LogTMk + 1;                   // 1.5 * 2^23 + k
  localparam int unsigned LogTF      = LogTMk + AddLat + 1;          // f = m - 1 or x, selected
  localparam int unsigned LogTS      = LogTF + AddLat + DivLat;      // s = f / (2 + f)
  localparam int unsigned LogTZ      = LogTS + MulLat;               // z = s^2
  localparam int unsigned LogTLp     = LogTZ + horner_lat(5) + 2 * MulLat + 2 * AddLat;
  localparam int unsigned LogTFull   = LogTLp + 2 * AddLat;          // hi + (lp + lo)
  localparam int unsigned LogLat     = LogTFull + 1;                 // result registered

  // The lane (tern_act_lane), from the beat's entry.
  localparam int unsigned TX        = UpLat + MulLat + AddLat;      // x = in * scale + bias
  localparam int unsigned TFlags    = TX + 1;                       // x's classes, registered
  localparam int unsigned TW        = TX + MulLat;                  // w = x / sqrt 2; x^2
  localparam int unsigned TErfArg   = TW + 1;                       // erf's argument, selected
  localparam int unsigned TErfFlags = TErfArg + 1;                  // its classes, registered
  localparam int unsigned TMid      = TErfArg + 2;                  // erfc's interval
  localparam int unsigned TZ        = TW + MulLat + AddLat + MulLat;  // x (k1 + k2 x^2)
  localparam int unsigned TZhSq     = TErfArg + MulLat;
  localparam int unsigned TDelta    = TErfArg + AddLat + MulLat;
  localparam int unsigned TExpArg   = later(TZ, TZhSq) + 1;         // exp unit A's argument
  localparam int unsigned TExpA     = TExpArg + ExpLat;
  localparam int unsigned TExpB     = TDelta + ExpLat;
  localparam int unsigned TErfSmall = TZhSq + horner_lat(10) + MulLat;
  localparam int unsigned TD        = TMid + AddLat;
  localparam int unsigned TG        = TD + horner_lat(ErfcTerms);
  localparam int unsigned TErfc     = later(TExpA, later(TExpB, TG) + MulLat) + MulLat;
  localparam int unsigned TSmallT   = TExpA + 1;                    // exp_a <= sqrt(2) - 1
  localparam int unsigned TOneT     = TExpA + AddLat;               // 1 + t, expm1 + 2, t + 2
  localparam int unsigned TV2       = TOneT + MulLat + AddLat;      // t (t + 2) + 2
  localparam int unsigned TRoot     = TX + DivLat;
  localparam int unsigned TDivIn    = TV2 + 1;                      // num, den selected
  localparam int unsigned TQ        = TDivIn + DivLat;
  localparam int unsigned TLogIn    = TOneT + 1;                    // log's argument, selected
  localparam int unsigned TLog      = TLogIn + LogLat;
  localparam int unsigned TSoftplus = TLog + AddLat;
  localparam int unsigned TOneMErfc = TErfc + AddLat;
  localparam int unsigned TPhi      = later(TErfc + MulLat + AddLat, TErfSmall + AddLat + MulLat) + 1;
  localparam int unsigned TFinalArg = later(TQ, TPhi) + 1;          // phi or q, selected
  localparam int unsigned TXFinal   = TFinalArg + MulLat;

  // Exits: each function's result, registered, this many advances after its beat entered. A
  // beat leaves through its function's exit; the engine keeps the results in order.
  localparam int unsigned NumExits = 9;
  localparam int unsigned ExitBits  = TFlags + 1;     // copy, relu, abs, sign
  localparam int unsigned ExitSquare = TW + 1;
  localparam int unsigned ExitSqrt   = TRoot + 1;
  localparam int unsigned ExitExp    = TExpA + 1;
  localparam int unsigned ExitErf    = TOneMErfc + 1;
  localparam int unsigned ExitDiv    = TQ + 1;        // sigmoid, silu, gelu_apprx_tanh, tanh, rsqrt, reciprocal
  localparam int unsigned ExitXFinal = TXFinal + 1;   // gelu, mish
  localparam int unsigned ExitLog    = TLog + 1;
  localparam int unsigned ExitSoftplus = TSoftplus + 1;
  localparam int unsigned MaxExit    = ExitSoftplus;
  // The exits in index order (exit_index), 10 bits each.
  localparam logic [NumExits*10-1:0] Exits = {
    10'(ExitSoftplus), 10'(ExitLog), 10'(ExitXFinal), 10'(ExitDiv), 10'(ExitErf), 10'(ExitExp),
    10'(ExitSqrt), 10'(ExitSquare), 10'(ExitBits)
  };

  /* verilator lint_on UNUSEDPARAM */

  // Which exit a function leaves by (an index into Exits).
  function automatic logic [3:0] exit_index(logic [4:0] f);
    unique case (f)
      FnCopy, FnRelu, FnAbs, FnSign:                            exit_index = 4'd0;
      FnSquare:                                                 exit_index = 4'd1;
      FnSqrt:                                                   exit_index = 4'd2;
      FnExp:                                                    exit_index = 4'd3;
      FnErf:                                                    exit_index = 4'd4;
      FnGelu, FnMish:                                           exit_index = 4'd6;
      FnLog:                                                    exit_index = 4'd7;
      FnSoftplus:                                               exit_index = 4'd8;
      default:                                                  exit_index = 4'd5;  // the divider's
    endcase
  endfunction

  // 2^k for k in [-126, 127], a normal number.
  function automatic logic [31:0] pow2(logic signed [9:0] k);
    pow2 = {1'b0, 8'(k + 10'sd127), 23'd0};
  endfunction

endpackage
