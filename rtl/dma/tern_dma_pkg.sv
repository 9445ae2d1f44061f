// tern_dma_pkg: the DMA engine's error details and shared sizes (docs/dma.md). The fault code
// is the golden model's tern::core::FaultKind::kDma; the detail says which check or which AXI
// response stopped the queue.
package tern_dma_pkg;

  // Shared definitions: each DMA block uses only some of these constants.
  /* verilator lint_off UNUSEDPARAM */

  // The fault code (tern_csr_pkg::FaultDma) and err_detail_o's values (tern_csr_pkg::DmaDet*)
  // are generated from model/core/fault.cc with the CSR map.

  // Descriptor sides (tern::isa::Space).
  localparam logic [1:0] SpaceHbm  = 2'd0;
  localparam logic [1:0] SpaceSbuf = 2'd1;
  localparam logic [1:0] SpacePsum = 2'd2;

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
