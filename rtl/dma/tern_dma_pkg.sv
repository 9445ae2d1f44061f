// tern_dma_pkg: the DMA engine's error details and shared sizes (docs/dma.md). The fault code
// is the golden model's tern::core::FaultKind::kDma; the detail says which check or which AXI
// response stopped the queue.
package tern_dma_pkg;

  // Shared definitions: each DMA block uses only some of these constants.
  /* verilator lint_off UNUSEDPARAM */

  localparam logic [3:0] FaultDma = 4'd4;  // tern::core::FaultKind::kDma

  // err_detail_o (meaningful while err_code_o != 0): the checks in the golden model's order
  // (model/core/memory.cc resolve_side, then run_transfer's count check), then the AXI errors.
  localparam logic [3:0] DetDescFetch  = 4'd0;   // SLVERR or DECERR fetching the descriptor
  localparam logic [3:0] DetSrcZeroDim = 4'd1;   // a source dim of size 0
  localparam logic [3:0] DetSrcAlign   = 4'd2;   // source address or byte step not element-aligned
  localparam logic [3:0] DetSrcHbm     = 4'd3;   // a source element outside [0, hbm_size)
  localparam logic [3:0] DetSrcPStep   = 4'd4;   // negative source partition step
  localparam logic [3:0] DetSrcPart    = 4'd5;   // last source partition >= P
  localparam logic [3:0] DetSrcOffset  = 4'd6;   // a source byte outside the partition
  localparam logic [3:0] DetDstZeroDim = 4'd7;   // the same checks on the destination side
  localparam logic [3:0] DetDstAlign   = 4'd8;
  localparam logic [3:0] DetDstHbm     = 4'd9;
  localparam logic [3:0] DetDstPStep   = 4'd10;
  localparam logic [3:0] DetDstPart    = 4'd11;
  localparam logic [3:0] DetDstOffset  = 4'd12;
  localparam logic [3:0] DetCount      = 4'd13;  // element counts differ
  localparam logic [3:0] DetSlvErr     = 4'd14;  // SLVERR on a data read or write
  localparam logic [3:0] DetDecErr     = 4'd15;  // DECERR on a data read or write

  // Descriptor sides (tern::isa::Space).
  localparam logic [1:0] SpaceHbm  = 2'd0;
  localparam logic [1:0] SpaceSbuf = 2'd1;
  localparam logic [1:0] SpacePsum = 2'd2;

  // AXI responses.
  localparam logic [1:0] RespOkay   = 2'b00;
  localparam logic [1:0] RespSlvErr = 2'b10;
  localparam logic [1:0] RespDecErr = 2'b11;

  // A trigger as the frontend queues it: descriptor index, address adds, semaphore update,
  // and the triggering sequencer and pc for error reports.
  localparam int unsigned TrigBits = 32 + 32 + 32 + 2 + 6 + 8 + 3 + 32;

  /* verilator lint_on UNUSEDPARAM */

  // Element bytes of a dtype code (tern::core::dtype_bytes).
  function automatic logic [2:0] elem_bytes(logic [3:0] dt);
    unique case (dt)
      tern_pkg::DtFp32, tern_pkg::DtTf32, tern_pkg::DtInt32: elem_bytes = 3'd4;
      tern_pkg::DtBf16, tern_pkg::DtFp16:                    elem_bytes = 3'd2;
      default:                                               elem_bytes = 3'd1;
    endcase
  endfunction

endpackage
