// tern_csr_decode: which block instance of the CSR map (tern_csr_pkg, docs/csr.md) a byte
// address falls in, and the offset in the instance. Whether a register sits at that offset is
// the register file's decision (tern_csr). DMA engines at or past NumDma are no block.
module tern_csr_decode #(
  parameter int unsigned NumDma = 2,
  localparam int unsigned IdxW = $clog2(tern_csr_pkg::SemCount)  // the widest instance index
) (
  input  logic [15:0]     addr_i,
  output logic            aligned_o,  // a 32-bit word address
  output logic            glb_o,
  output logic            seq_o,
  output logic            dma_o,
  output logic            sem_o,
  output logic [IdxW-1:0] idx_o,      // instance of the block hit
  output logic [15:0]     off_o       // byte offset in the instance
);
  logic [15:0] seq_rel, dma_rel, sem_rel, seq_idx, dma_idx, sem_idx;

  assign aligned_o = (addr_i[1:0] == 2'b00);

  assign seq_rel = addr_i - tern_csr_pkg::SeqBase;
  assign dma_rel = addr_i - tern_csr_pkg::DmaBase;
  assign sem_rel = addr_i - tern_csr_pkg::SemBase;
  assign seq_idx = seq_rel >> tern_csr_pkg::SeqStrideBits;
  assign dma_idx = dma_rel >> tern_csr_pkg::DmaStrideBits;
  assign sem_idx = sem_rel >> tern_csr_pkg::SemStrideBits;

  // An address below a block's base wraps to a large offset, past the block's count.
  assign glb_o = ((addr_i - tern_csr_pkg::GlbBase) >> tern_csr_pkg::GlbStrideBits) <
                 16'(tern_csr_pkg::GlbCount);
  assign seq_o = (seq_idx < 16'(tern_csr_pkg::SeqCount));
  assign dma_o = (dma_idx < 16'(NumDma));
  assign sem_o = (sem_idx < 16'(tern_csr_pkg::SemCount));

  always_comb begin
    idx_o = '0;
    off_o = addr_i - tern_csr_pkg::GlbBase;
    if (seq_o) begin
      idx_o = seq_idx[IdxW-1:0];
      off_o = seq_rel & (tern_csr_pkg::SeqStride - 16'd1);
    end else if (dma_o) begin
      idx_o = dma_idx[IdxW-1:0];
      off_o = dma_rel & (tern_csr_pkg::DmaStride - 16'd1);
    end else if (sem_o) begin
      idx_o = sem_idx[IdxW-1:0];
      off_o = sem_rel & (tern_csr_pkg::SemStride - 16'd1);
    end
  end

  logic unused_idx;
  assign unused_idx = ^{seq_idx[15:IdxW], dma_idx[15:IdxW], sem_idx[15:IdxW]};

endmodule
