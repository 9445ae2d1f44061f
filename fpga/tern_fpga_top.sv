// tern_fpga_top: the iCE40 UP5K design (iCEBreaker pinout, fpga/tern_fpga.pcf): a Tensor
// Engine slice with its PSUM (tern_tensor_unit at Rows x Cols) runs a bf16 GEMM from ROM after
// reset and checks the PSUM words it leaves against the golden model's, computed when the
// bitstream is built (`tern fpga rom` writes them and the slice's size as the package
// tern_fpga_rom_pkg; docs/fpga.md "The Tensor Engine on the iCE40").
//
//   Run   --last command taken-->  Drain --engine idle-->  Check --all words equal--> Pass
//                                                               \--a word differs,
//                                                                  or a command was rejected--> Fail
//
// In Run the command ROM plays into the engine's command port and the stationary and moving
// ROMs into its operand streams (each stream advances when the engine takes a beat). Check
// reads each listed PSUM word through the plain port and compares it with the ROM's value.
// LEDs: green when every word matched, red on a mismatch or a rejected command (led_o then
// shows the index of the word that differed); the button runs it again. ROM word layouts are
// tools/tern/fpga_command.cc's, generated into tern_fpga_rom_pkg (Cmd*/Chk* fields, EndBit).
module tern_fpga_top #(
  parameter int unsigned Rows        = tern_fpga_rom_pkg::Rows,
  parameter int unsigned Cols        = tern_fpga_rom_pkg::Cols,
  parameter int unsigned PsumBanks   = tern_cfg_pkg::PsumBanks,
  parameter int unsigned PsumEntries = tern_cfg_pkg::PsumBankBytes / 4
) (
  input  logic       clk_i,        // 12 MHz board oscillator
  input  logic       rst_ni,       // user button, active low
  output logic [4:0] led_o,        // Pass: all on; Fail: the index of the word that differed
  output logic       led_red_no,   // failed
  output logic       led_green_no  // passed
);

  localparam int unsigned AddrWidth = $clog2(PsumBanks * PsumEntries);
  localparam int unsigned IdxW      = 8;  // the ROM functions' index

  typedef enum logic [2:0] {
    StRun,
    StDrain,
    StCheck,
    StCompare,
    StPass,
    StFail
  } state_e;

  // ---------------------------------------------------------------------------------------
  // Reset: the button resets asynchronously; release is synchronised to the clock. iCE40
  // flip-flops configure to 0, so the design also starts in reset after configuration.
  // ---------------------------------------------------------------------------------------
  logic [1:0] rst_sync_q;
  logic       rst_n;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rst_sync_q <= 2'b00;
    end else begin
      rst_sync_q <= {rst_sync_q[0], 1'b1};
    end
  end

  assign rst_n = rst_sync_q[1];

  // ---------------------------------------------------------------------------------------
  // Control
  // ---------------------------------------------------------------------------------------
  state_e          state_q, state_d;
  logic [IdxW-1:0] cmd_idx_q, cmd_idx_d, stat_idx_q, stat_idx_d, mov_idx_q, mov_idx_d;
  logic [IdxW-1:0] chk_idx_q, chk_idx_d;
  logic [63:0]     cmd, chk;  // bit EndBit of a command or check word ends its list
  logic [Rows*32-1:0] stat_data, mov_data;

  logic            cmd_valid, cmd_ready, stat_ready, mov_ready, rw_valid, rw_ready, rd_valid;
  logic            busy, err_valid;
  logic [Cols*32-1:0] rd_data;
  logic [31:0]     rd_word;

  assign cmd       = tern_fpga_rom_pkg::cmd_word(cmd_idx_q);
  assign chk       = tern_fpga_rom_pkg::check_word(chk_idx_q);
  assign stat_data = tern_fpga_rom_pkg::stat_word(stat_idx_q);
  assign mov_data  = tern_fpga_rom_pkg::mov_word(mov_idx_q);
  assign cmd_valid = (state_q == StRun) && !cmd[tern_fpga_rom_pkg::EndBit];
  assign rw_valid  = (state_q == StCheck) && !chk[tern_fpga_rom_pkg::EndBit];
  assign rd_word   = rd_data[32*chk[tern_fpga_rom_pkg::ChkPartLsb +: tern_fpga_rom_pkg::ChkPartW] +: 32];

  always_comb begin
    state_d    = state_q;
    cmd_idx_d  = cmd_idx_q;
    stat_idx_d = stat_ready ? stat_idx_q + IdxW'(1) : stat_idx_q;
    mov_idx_d  = mov_ready ? mov_idx_q + IdxW'(1) : mov_idx_q;
    chk_idx_d  = chk_idx_q;
    unique case (state_q)
      StRun: begin
        if (cmd_valid && cmd_ready) cmd_idx_d = cmd_idx_q + IdxW'(1);
        if (cmd[tern_fpga_rom_pkg::EndBit]) state_d = StDrain;
      end
      StDrain:   if (!busy) state_d = StCheck;
      StCheck: begin
        if (chk[tern_fpga_rom_pkg::EndBit]) state_d = StPass;
        else if (rw_ready) state_d = StCompare;
      end
      StCompare: begin
        if (rd_valid) begin
          if (rd_word != chk[tern_fpga_rom_pkg::ChkValueLsb +: tern_fpga_rom_pkg::ChkValueW]) begin
            state_d = StFail;
          end else begin
            state_d   = StCheck;
            chk_idx_d = chk_idx_q + IdxW'(1);
          end
        end
      end
      default: ;
    endcase
    if (err_valid) state_d = StFail;
  end

  always_ff @(posedge clk_i or negedge rst_n) begin
    if (!rst_n) begin
      state_q    <= StRun;
      cmd_idx_q  <= '0;
      stat_idx_q <= '0;
      mov_idx_q  <= '0;
      chk_idx_q  <= '0;
    end else begin
      state_q    <= state_d;
      cmd_idx_q  <= cmd_idx_d;
      stat_idx_q <= stat_idx_d;
      mov_idx_q  <= mov_idx_d;
      chk_idx_q  <= chk_idx_d;
    end
  end

  // ---------------------------------------------------------------------------------------
  // The engine slice and its PSUM
  // ---------------------------------------------------------------------------------------
  logic [3:0]  err_code_unused;
  logic [15:0] err_count_unused;
  logic [Cols-1:0] rw_mask;
  assign rw_mask = '1;

  tern_tensor_unit #(
    .Rows       (Rows),
    .Cols       (Cols),
    .Partitions (Cols),
    .PsumBanks  (PsumBanks),
    .PsumEntries(PsumEntries)
  ) u_te (
    .clk_i        (clk_i),
    .rst_ni       (rst_n),
    .cmd_valid_i  (cmd_valid),
    .cmd_ready_o  (cmd_ready),
    .cmd_op_i     (cmd[tern_fpga_rom_pkg::CmdOpLsb +: tern_fpga_rom_pkg::CmdOpW]),
    .cmd_dtype_i  (cmd[tern_fpga_rom_pkg::CmdDtypeLsb +: tern_fpga_rom_pkg::CmdDtypeW]),
    .cmd_k_i      (16'(cmd[tern_fpga_rom_pkg::CmdKLsb +: tern_fpga_rom_pkg::CmdKW])),
    .cmd_m_i      (16'(cmd[tern_fpga_rom_pkg::CmdMLsb +: tern_fpga_rom_pkg::CmdMW])),
    .cmd_n_i      (cmd[tern_fpga_rom_pkg::CmdNLsb +: tern_fpga_rom_pkg::CmdNW]),
    .cmd_bank_i   (cmd[tern_fpga_rom_pkg::CmdBankLsb +: tern_fpga_rom_pkg::CmdBankW]),
    .cmd_offset_i (cmd[tern_fpga_rom_pkg::CmdOffsetLsb +: tern_fpga_rom_pkg::CmdOffsetW]),
    .cmd_acc_i    (cmd[tern_fpga_rom_pkg::CmdAccLsb]),
    .stat_valid_i (1'b1),
    .stat_ready_o (stat_ready),
    .stat_data_i  (stat_data),
    .mov_valid_i  (1'b1),
    .mov_ready_o  (mov_ready),
    .mov_data_i   (mov_data),
    .rw_valid_i   (rw_valid),
    .rw_ready_o   (rw_ready),
    .rw_write_i   (1'b0),
    .rw_addr_i    (AddrWidth'(chk[tern_fpga_rom_pkg::ChkAddrLsb +: tern_fpga_rom_pkg::ChkAddrW])),
    .rw_mask_i    (rw_mask),
    .rw_wdata_i   ('0),
    .rd_valid_o   (rd_valid),
    .rd_data_o    (rd_data),
    .busy_o       (busy),
    .err_valid_o  (err_valid),
    .err_code_o   (err_code_unused),
    .err_count_o  (err_count_unused)
  );

  logic unused;
  assign unused = (^err_code_unused) ^ (^err_count_unused) ^ (^cmd) ^ (^chk);

  assign led_o        = (state_q == StPass) ? 5'h1F : (state_q == StFail) ? chk_idx_q[4:0] : 5'd0;
  assign led_red_no   = !(state_q == StFail);
  assign led_green_no = !(state_q == StPass);

endmodule
