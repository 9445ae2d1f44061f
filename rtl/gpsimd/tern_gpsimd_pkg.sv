// tern_gpsimd_pkg: the GPSIMD cores' codes and decoded-instruction bundle (docs/gpsimd.md).
// The exception causes are the RISC-V privileged manual's mcause codes; they and MulDivCycles
// are checked against model/gpsimd/rv_core.h (kCauseNames, kMulDivCycles) by
// tests/test_gpsimd_core.cc's GpsimdRtlPackage.HasTheIssCodes.
package tern_gpsimd_pkg;

  typedef enum logic [3:0] {
    CauseMisalignedFetch  = 4'd0,
    CauseFetchAccess      = 4'd1,
    CauseIllegal          = 4'd2,
    CauseBreakpoint       = 4'd3,
    CauseMisalignedLoad   = 4'd4,
    CauseLoadAccess       = 4'd5,
    CauseMisalignedStore  = 4'd6,
    CauseStoreAccess      = 4'd7,
    CauseEcall            = 4'd11
  } cause_e;

  // What an instruction does in EX.
  typedef enum logic [3:0] {
    OpAlu, OpLui, OpAuipc, OpJal, OpJalr, OpBranch, OpLoad, OpStore, OpCsr, OpMulDiv, OpNop,
    OpEcall, OpEbreak, OpIllegal
  } op_e;

  // The decoded instruction ID hands to EX.
  typedef struct packed {
    op_e         op;
    logic [2:0]  funct3;   // ALU operation, branch condition, access size, CSR operation, M op
    logic        alt;      // sub / sra
    logic        use_imm;  // the ALU's second operand is the immediate
    logic [31:0] imm;
    logic [4:0]  rd;
    logic        rd_we;    // writes rd (rd != 0)
    logic [4:0]  rs1;
    logic [4:0]  rs2;
  } decoded_t;

  // The M unit's fixed occupancy of EX (docs/gpsimd.md "Cycle estimate"): the cycles after the
  // first until the result, the ISS's kMulDivCycles: two for the operands' magnitudes, one per
  // bit, one for the result's sign and one to hand it over.
  localparam int unsigned MulDivSteps = 32;
  /* verilator lint_off UNUSEDPARAM */  // read by tern_gpsimd_muldiv's assertion only
  localparam int unsigned MulDivCycles = MulDivSteps + 4;
  /* verilator lint_on UNUSEDPARAM */

endpackage
