// tern_dma_side_check: the golden model's checks of one descriptor side (model/core/memory.cc
// resolve_side), from the pattern's extreme offsets instead of by walking it: each dim
// contributes step * (num - 1) to the maximum when positive and to the minimum when negative.
// Combinational; the midend registers the result.
module tern_dma_side_check #(
  parameter int unsigned P = tern_cfg_pkg::Partitions,
  parameter int unsigned SbufBytes = tern_cfg_pkg::SbufPartitionBytes,
  parameter int unsigned PsumBytes = tern_cfg_pkg::PsumBanks * tern_cfg_pkg::PsumBankBytes
) (
  input  logic [255:0] side_i,      // tern_isa_pkg Desc layout
  input  logic [31:0]  add_i,       // trigger register added to the address
  input  logic [31:0]  hbm_size_i,
  output logic [2:0]   fault_o,     // 0 ok, else Chk* below (the side's detail less its first, plus 1)
  output logic [63:0]  count_o,     // elements
  output logic [2:0]   eb_o,
  output logic [31:0]  addr_o,      // the side's address plus add (valid when fault_o == 0)
  output logic [7:0]   part_o,
  output logic [127:0] steps_o,
  output logic [63:0]  nums_o,
  output logic         onchip_o,
  output logic         psum_o,
  output logic [3:0]   dtype_o
);

  logic [1:0]  space;
  logic [3:0]  dtype;
  logic [7:0]  start;
  logic [47:0] address;
  logic [2:0]  eb;
  logic [63:0] addr;        // address + add, unsigned, no wrap (as the golden model)
  logic        onchip;

  assign space   = side_i[tern_isa_pkg::DescSpaceLsb +: tern_isa_pkg::DescSpaceWidth];
  assign dtype   = side_i[tern_isa_pkg::DescDtypeLsb +: tern_isa_pkg::DescDtypeWidth];
  assign start   = side_i[tern_isa_pkg::DescStartLsb +: tern_isa_pkg::DescStartWidth];
  assign address = side_i[tern_isa_pkg::DescAddressLsb +: tern_isa_pkg::DescAddressWidth];
  assign eb      = tern_dma_pkg::elem_bytes(dtype);
  assign addr    = 64'(address) + 64'(add_i);
  assign onchip  = space != tern_dma_pkg::SpaceHbm;

  // The dims' steps and sizes, flat (dim d at 32*d / 16*d).
  localparam int unsigned DimStride = tern_isa_pkg::DescD1StepLsb - tern_isa_pkg::DescD0StepLsb;
  logic [127:0] steps;
  logic [63:0]  nums;
  for (genvar d = 0; d < 4; d++) begin : gen_dim
    assign steps[32*d +: 32] = side_i[tern_isa_pkg::DescD0StepLsb + DimStride*d +: 32];
    assign nums[16*d +: 16]  = side_i[tern_isa_pkg::DescD0NumLsb + DimStride*d +: 16];
  end

  // Extents: step * (num - 1), signed, summed into 64-bit signed bounds (dim d at 64*d).
  logic [255:0] ext;
  for (genvar d = 0; d < 4; d++) begin : gen_ext
    logic [63:0] step_x, num_m1;
    assign step_x = {{32{steps[32*d+31]}}, steps[32*d +: 32]};
    assign num_m1 = 64'(nums[16*d +: 16]) - 64'd1;  // -1 for size 0, which faults first
    assign ext[64*d +: 64] = step_x * num_m1;
  end

  // The checks, numbered from 1 in the order of the generated DMA details (tern_csr_pkg, from
  // model/core/fault.cc; the destination's follow the source's in the same order, which
  // fault.h asserts): the midend adds the side's first detail.
  localparam logic [3:0] DetFirst = tern_csr_pkg::DmaDetSrcZeroDim;
  localparam logic [2:0] ChkZeroDim = 3'(tern_csr_pkg::DmaDetSrcZeroDim - DetFirst + 4'd1);
  localparam logic [2:0] ChkAlign   = 3'(tern_csr_pkg::DmaDetSrcAlign - DetFirst + 4'd1);
  localparam logic [2:0] ChkHbm     = 3'(tern_csr_pkg::DmaDetSrcHbm - DetFirst + 4'd1);
  localparam logic [2:0] ChkPStep   = 3'(tern_csr_pkg::DmaDetSrcPStep - DetFirst + 4'd1);
  localparam logic [2:0] ChkPart    = 3'(tern_csr_pkg::DmaDetSrcPart - DetFirst + 4'd1);
  localparam logic [2:0] ChkOffset  = 3'(tern_csr_pkg::DmaDetSrcOffset - DetFirst + 4'd1);

  logic        zero, misaligned;
  logic [2:0]  emask;
  logic [63:0] lo, hi, flo, fhi, bound, last_part;  // two's complement; bit 63 = negative
  always_comb begin
    emask = eb - 3'd1;
    zero = 1'b0;
    misaligned = (addr[2:0] & emask) != 3'd0;
    lo  = addr;
    hi  = addr;
    flo = addr;
    fhi = addr;
    for (int unsigned d = 0; d < 4; d++) begin
      if (nums[16*d +: 16] == 16'd0) zero = 1'b1;
      if ((!onchip || d != 0) && (steps[32*d +: 3] & emask) != 3'd0) misaligned = 1'b1;
      if (ext[64*d+63]) lo = lo + ext[64*d +: 64];
      else              hi = hi + ext[64*d +: 64];
      if (d != 0) begin
        if (ext[64*d+63]) flo = flo + ext[64*d +: 64];
        else              fhi = fhi + ext[64*d +: 64];
      end
    end
    bound     = space == tern_dma_pkg::SpacePsum ? 64'(PsumBytes) : 64'(SbufBytes);
    last_part = 64'(start) + ext[63:0];
    if (zero)                                                       fault_o = ChkZeroDim;
    else if (misaligned)                                            fault_o = ChkAlign;
    else if (!onchip && (lo[63] || hi + 64'(eb) > 64'(hbm_size_i))) fault_o = ChkHbm;
    else if (onchip && steps[31])                                   fault_o = ChkPStep;
    else if (onchip && last_part >= 64'(P))                         fault_o = ChkPart;
    else if (onchip && (flo[63] || fhi + 64'(eb) > bound))          fault_o = ChkOffset;
    else                                                            fault_o = 3'd0;
  end

  assign count_o  = 64'(nums[15:0]) * 64'(nums[31:16]) * 64'(nums[47:32]) * 64'(nums[63:48]);
  assign eb_o     = eb;
  assign addr_o   = addr[31:0];
  assign part_o   = start;
  assign steps_o  = steps;
  assign nums_o   = nums;
  assign onchip_o = onchip;
  assign psum_o   = space == tern_dma_pkg::SpacePsum;
  assign dtype_o  = dtype;

  logic unused;
  assign unused = ^side_i[7:6];  // reserved bits between dtype and start

endmodule
