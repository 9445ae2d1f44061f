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
  /* verilator lint_on UNUSEDPARAM */

endpackage
