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

  // 2^k for k in [-126, 127], a normal number.
  function automatic logic [31:0] pow2(logic signed [9:0] k);
    pow2 = {1'b0, 8'(k + 10'sd127), 23'd0};
  endfunction

endpackage
