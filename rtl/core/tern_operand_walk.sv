// tern_operand_walk: one on-chip operand of an engine instruction, in SBUF or PSUM. The
// pattern is checked and walked against the size of the memory it names (tern_ap_walk), so
// the engine adapters see one walker per operand whichever memory it lives in.
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

  logic chk_s, chk_p, err_s, err_p, v_s, v_p, last_s, last_p, dense_s, dense_p;
  logic [31:0] off_s, off_p;
  logic [63:0] el_s, el_p;
  logic [7:0]  sp_s, sp_p, np_s, np_p;
  logic [2:0]  eb_s, eb_p;

  tern_ap_walk #(.P(P), .PartitionBytes(SbufBytes)) u_walk_sbuf (
    .clk_i, .rst_ni,
    .start_i (start_i && !psum_o),
    .ap_i, .base_i, .lanes_i, .scalar_i,
    .checked_o (chk_s), .err_o (err_s), .elements_o (el_s), .start_partition_o (sp_s),
    .partitions_o (np_s), .elem_bytes_o (eb_s), .dense_o (dense_s), .off_valid_o (v_s),
    .off_ready_i, .off_o (off_s), .off_last_o (last_s));
  tern_ap_walk #(.P(P), .PartitionBytes(PsumBytes)) u_walk_psum (
    .clk_i, .rst_ni,
    .start_i (start_i && psum_o),
    .ap_i, .base_i, .lanes_i, .scalar_i,
    .checked_o (chk_p), .err_o (err_p), .elements_o (el_p), .start_partition_o (sp_p),
    .partitions_o (np_p), .elem_bytes_o (eb_p), .dense_o (dense_p), .off_valid_o (v_p),
    .off_ready_i, .off_o (off_p), .off_last_o (last_p));

  assign checked_o         = chk_s || chk_p;
  assign err_o             = psum_o ? err_p : err_s;
  assign off_valid_o       = psum_o ? v_p : v_s;
  assign off_last_o        = psum_o ? last_p : last_s;
  assign off_o             = psum_o ? off_p : off_s;
  assign elements_o        = psum_o ? el_p : el_s;
  assign start_partition_o = psum_o ? sp_p : sp_s;
  assign partitions_o      = psum_o ? np_p : np_s;
  assign elem_bytes_o      = psum_o ? eb_p : eb_s;
  assign dense_o           = psum_o ? dense_p : dense_s;

endmodule
