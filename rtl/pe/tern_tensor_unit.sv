// tern_tensor_unit: the Tensor Engine with its PSUM, sized by the config (tern_cfg_pkg).
// This is the unit the block tests, the regression and the benchmark drive; the core will
// instantiate the engine and PSUM beside the other engines.
module tern_tensor_unit #(
  parameter int unsigned Rows        = tern_cfg_pkg::PeRows,
  parameter int unsigned Cols        = tern_cfg_pkg::PeCols,
  parameter int unsigned Partitions  = tern_cfg_pkg::Partitions,
  parameter int unsigned PsumBanks   = tern_cfg_pkg::PsumBanks,
  parameter int unsigned PsumEntries = tern_cfg_pkg::PsumBankBytes / 4,
  localparam int unsigned AddrWidth  = $clog2(PsumBanks * PsumEntries)
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  // Tensor Engine commands and operand streams
  input  logic                     cmd_valid_i,
  output logic                     cmd_ready_o,
  input  logic [1:0]               cmd_op_i,
  input  logic [3:0]               cmd_dtype_i,
  input  logic [15:0]              cmd_k_i,
  input  logic [15:0]              cmd_m_i,
  input  logic [15:0]              cmd_n_i,
  input  logic [3:0]               cmd_bank_i,
  input  logic [15:0]              cmd_offset_i,
  input  logic                     cmd_acc_i,
  input  logic                     stat_valid_i,
  output logic                     stat_ready_o,
  input  logic [Rows*32-1:0]       stat_data_i,
  input  logic                     mov_valid_i,
  output logic                     mov_ready_o,
  input  logic [Rows*32-1:0]       mov_data_i,
  // PSUM plain port
  input  logic                     rw_valid_i,
  output logic                     rw_ready_o,
  input  logic                     rw_write_i,
  input  logic [AddrWidth-1:0]     rw_addr_i,
  input  logic [Partitions-1:0]    rw_mask_i,
  input  logic [Partitions*32-1:0] rw_wdata_i,
  output logic                     rd_valid_o,
  output logic [Partitions*32-1:0] rd_data_o,
  // status
  output logic                     busy_o,
  output logic                     err_valid_o,
  output logic [3:0]               err_code_o,
  output logic [15:0]              err_count_o
);

  logic [Cols-1:0]           pe2psum_we, pe2psum_acc;
  logic [Cols*AddrWidth-1:0] pe2psum_addr;
  logic [Cols*32-1:0]        pe2psum_data;

  logic [3:0] cmd_check_unused;
  logic       issuing_unused;
  logic [PsumBanks-1:0] bank_busy_unused;  // this unit's PSUM has no other requester
  tern_pe_engine #(
    .Rows       (Rows),
    .Cols       (Cols),
    .PsumBanks  (PsumBanks),
    .PsumEntries(PsumEntries)
  ) u_engine (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .cmd_valid_i   (cmd_valid_i),
    .cmd_ready_o   (cmd_ready_o),
    .cmd_op_i      (cmd_op_i),
    .cmd_dtype_i   (cmd_dtype_i),
    .cmd_k_i       (cmd_k_i),
    .cmd_m_i       (cmd_m_i),
    .cmd_n_i       (cmd_n_i),
    .cmd_bank_i    (cmd_bank_i),
    .cmd_offset_i  (cmd_offset_i),
    .cmd_acc_i     (cmd_acc_i),
    .stat_valid_i  (stat_valid_i),
    .stat_ready_o  (stat_ready_o),
    .stat_data_i   (stat_data_i),
    .mov_valid_i   (mov_valid_i),
    .mov_ready_o   (mov_ready_o),
    .mov_data_i    (mov_data_i),
    .pe2psum_we_o  (pe2psum_we),
    .pe2psum_acc_o (pe2psum_acc),
    .pe2psum_addr_o(pe2psum_addr),
    .pe2psum_data_o(pe2psum_data),
    .busy_o        (busy_o),
    .issuing_o     (issuing_unused),
    .psum_bank_busy_o (bank_busy_unused),
    .err_valid_o   (err_valid_o),
    .err_code_o    (err_code_o),
    .err_count_o   (err_count_o),
    .cmd_check_o   (cmd_check_unused)
  );
  logic unused;
  assign unused = (^cmd_check_unused) ^ issuing_unused ^ (^bank_busy_unused);  // commands are
                                                      // checked by the engine itself here

  tern_psum #(
    .Partitions(Partitions),
    .Banks     (PsumBanks),
    .Entries   (PsumEntries),
    .TeCols    (Cols)
  ) u_psum (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .pe2psum_we_i  (pe2psum_we),
    .pe2psum_acc_i (pe2psum_acc),
    .pe2psum_addr_i(pe2psum_addr),
    .pe2psum_data_i(pe2psum_data),
    .rw_valid_i    (rw_valid_i),
    .rw_ready_o    (rw_ready_o),
    .rw_write_i    (rw_write_i),
    .rw_addr_i     (rw_addr_i),
    .rw_mask_i     (rw_mask_i),
    .rw_wdata_i    (rw_wdata_i),
    .rd_valid_o    (rd_valid_o),
    .rd_data_o     (rd_data_o)
  );

endmodule
