// tern_pe_pkg: the Tensor Engine's command encoding and error codes. Mirrored by
// model/pe/pe_types.h; tests/test_rtl_pkg.cc checks that both agree.
package tern_pe_pkg;

  /* verilator lint_off UNUSEDPARAM */
  // Command opcodes (cmd_op_i).
  localparam logic [1:0] PeOpLoadStationary = 2'd0;  // K x M stationary tile into the next buffer
  localparam logic [1:0] PeOpMultiplyMoving = 2'd1;  // K x N moving tile against it, into PSUM
  localparam logic [1:0] PeOpTranspose      = 2'd2;  // the stationary tile, transposed, into PSUM
  localparam logic [1:0] PeOpReserved       = 2'd3;

  // Error codes (err_code_o), reported when a command is rejected.
  localparam logic [3:0] PeErrNone         = 4'd0;
  localparam logic [3:0] PeErrOpcode       = 4'd1;  // reserved opcode
  localparam logic [3:0] PeErrK            = 4'd2;  // K = 0 or K > rows
  localparam logic [3:0] PeErrM            = 4'd3;  // M = 0 or M > columns
  localparam logic [3:0] PeErrN            = 4'd4;  // N = 0, or offset + N past the bank's end
  localparam logic [3:0] PeErrBank         = 4'd5;  // bank >= PSUM banks
  localparam logic [3:0] PeErrDtype        = 4'd6;  // not a Tensor Engine input type
  localparam logic [3:0] PeErrNoStationary = 4'd7;  // MultiplyMoving/Transpose before any LoadStationary
  /* verilator lint_on UNUSEDPARAM */

  // The PE's pipeline (docs/tensor-engine.md "Pipeline"), each step one register:
  //   product steps, from the element and its weight, outside the row-to-row loop:
  //     unpack_part_fields; unpack_shift; unpack_exp + mul_exact_rows; mul_exact_resolve;
  //   accumulate steps, from the partial sum of the row above to this row's:
  //     unpack (fp32); add_order; add_align; add_sum_low; add_sum_high; add_count;
  //     add_normalize + round_prep; round_shift; round_increment; round_encode.
  // Row k sees a vector PeAccSteps cycles after row k - 1 (the skew), and a column's sum leaves
  // the mesh Rows * PeAccSteps + PeProductSteps cycles after its vector entered it.
  /* verilator lint_off UNUSEDPARAM */
  localparam int unsigned PeProductSteps = 4;
  localparam int unsigned PeAccSteps     = 10;

  // PSUM's accumulate (tern_psum_acc): a write the engine presents in cycle t lands in the
  // memory at the end of cycle t + PsumAccLatency (a register for the word read, then the fp32
  // add's ten steps). A vector that adds to an address may therefore issue no sooner than
  // PsumAccLatency + 1 cycles after the last vector that wrote it (tern_pe_engine's hazard
  // check).
  localparam int unsigned PsumAccLatency = 11;
  /* verilator lint_on UNUSEDPARAM */

endpackage
