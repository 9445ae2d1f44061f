// tern_operand_walk: one on-chip operand of an engine instruction, in SBUF or PSUM. The
// pattern is checked and walked against the size of the memory it names (tern_ap_walk, one
// walker for either memory), so the engine adapters see one walker per operand.
module tern_operand_walk #(
  parameter int unsigned P = tern_cfg_pkg::Partitions,
  localparam int unsigned SbufBytes = tern_cfg_pkg::SbufPartitionBytes,
  localparam int unsigned PsumBytes = tern_cfg_pkg::PsumBanks * tern_cfg_pkg::PsumBankBytes
) (
  input  logic                            clk_i,
  input  logic                            rst_ni,
  input  logic                            start_i,
  input  logic [tern_isa_pkg::ApBits-1:0] ap_i,
  input  logic [31:0]                     base_i,
  input  logic [7:0]                      lanes_i,
  input  logic                            scalar_i,
  output logic                            psum_o,       // the operand is in PSUM
  output logic                            checked_o,
  output logic                            err_o,
  output logic [63:0]                     elements_o,
  output logic [31:0]                     span_lo_o,    // bytes [span_lo, span_hi) of each
  output logic [31:0]                     span_hi_o,    // partition (tern_ap_walk)
  output logic [7:0]                      start_partition_o,
  output logic [7:0]                      partitions_o,
  output logic [2:0]                      elem_bytes_o,
  output logic                            dense_o,
  output logic                            off_valid_o,
  input  logic                            off_ready_i,
  output logic [31:0]                     off_o,
  output logic                            off_last_o
);

  assign psum_o = ap_i[tern_isa_pkg::ApMemLsb];

  tern_ap_walk #(.P(P)) u_walk (
    .clk_i, .rst_ni, .start_i, .ap_i, .base_i,
    .partition_bytes_i (psum_o ? PsumBytes : SbufBytes),
    .lanes_i, .scalar_i, .checked_o, .err_o, .elements_o, .span_lo_o, .span_hi_o,
    .start_partition_o, .partitions_o, .elem_bytes_o, .dense_o, .off_valid_o, .off_ready_i, .off_o, .off_last_o);

endmodule
