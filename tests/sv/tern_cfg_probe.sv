// Reads every value of the generated tern_cfg_pkg, so lint and Yosys prove that a config's
// package is valid SystemVerilog and the values reach the RTL (tests/config_sv_test.sh), and
// that the RTL derives the SBUF row port as the C++ model does.
module tern_cfg_probe (
  output logic [31:0] partitions_o,
  output logic [31:0] pe_rows_o,
  output logic [31:0] pe_cols_o,
  output logic [31:0] sbuf_partition_bytes_o,
  output logic [31:0] psum_banks_o,
  output logic [31:0] psum_bank_bytes_o,
  output logic [31:0] dma_engines_o,
  output logic [31:0] dma_queues_o,
  output logic [31:0] axi_data_bits_o,
  // the RTL's derived SBUF row port against the C++ model's (CoreConfig::sbuf_row_bytes)
  output logic [31:0] sbuf_row_bytes_rtl_o,
  output logic [31:0] sbuf_row_bytes_model_o,
  // the instruction cache's sizes, read only here and in tern_seq_axi
  output logic [31:0] fetch_lines_o,
  output logic [31:0] fetch_group_o,
  output logic [31:0] fetch_ahead_o
);
  assign partitions_o           = tern_cfg_pkg::Partitions;
  assign pe_rows_o              = tern_cfg_pkg::PeRows;
  assign pe_cols_o              = tern_cfg_pkg::PeCols;
  assign sbuf_partition_bytes_o = tern_cfg_pkg::SbufPartitionBytes;
  assign psum_banks_o           = tern_cfg_pkg::PsumBanks;
  assign psum_bank_bytes_o      = tern_cfg_pkg::PsumBankBytes;
  assign dma_engines_o          = tern_cfg_pkg::DmaEngines;
  assign dma_queues_o           = tern_cfg_pkg::DmaQueues;
  assign axi_data_bits_o        = tern_cfg_pkg::AxiDataBits;
  assign sbuf_row_bytes_rtl_o   =
      tern_pkg::sbuf_row_bytes(tern_cfg_pkg::AxiDataBits / 8, tern_cfg_pkg::Partitions);
  assign sbuf_row_bytes_model_o = tern_cfg_pkg::SbufRowBytes;
  assign fetch_lines_o          = tern_cfg_pkg::FetchLines;
  assign fetch_group_o          = tern_cfg_pkg::FetchGroup;
  assign fetch_ahead_o          = tern_cfg_pkg::FetchAhead;
endmodule
