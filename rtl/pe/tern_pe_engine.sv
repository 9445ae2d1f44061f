// tern_pe_engine: the Tensor Engine. Commands arrive in order on a valid/ready port:
//   LoadStationary(K, M, dtype)   K x M stationary tile, one K-vector column per cycle from the
//                                 stationary stream, into the buffer the last MultiplyMoving
//                                 is not using (double buffering: it overlaps that matmul);
//   MultiplyMoving(N, dtype, bank, offset, acc)
//                                 K x N moving tile, one K-vector per cycle from the moving
//                                 stream: PSUM[m][bank][offset + n] (=|+=) sum_k stat[k][m] * mov[k][n];
//                                 with an fp32 operand, three passes (lo x hi, hi x lo, hi x hi)
//                                 over the tile, which the stream delivers three times;
//   Transpose(bank, offset)       PSUM[m][bank][offset + k] = stat[k][m] bits, zero-extended.
// A command that breaks a rule is consumed without touching state or streams and reported on
// err_valid_o / err_code_o (tern_pe_pkg::PeErr*); the next command runs normally.
//
// Timing (D = tern_pe_pkg::PeAccSteps, P = tern_pe_pkg::PeProductSteps, tern_pe_array):
// vector n of a MultiplyMoving issued at cycle t writes PSUM partition m during cycle
// t + 1 + Rows*D + P + m (the column's result, de-skewed by carrying its PSUM address along the
// bottom edge), and PSUM's pipeline (tern_psum_acc) lands the write L = PsumAccLatency cycles
// later. A vector that adds to a PSUM address waits until L + 1 cycles have passed since the
// last vector to that address issued (the hazard check), so its read sees that write; stalls
// happen only for short matmuls (N <= L) accumulating in a row, and between the fp32 passes of
// one. busy_o stays high until the last write has landed; issuing_o drops as soon as
// the last vector has entered the array, and psum_bank_busy_o names the banks that writes still
// in flight will touch (the memory holds other requesters' accesses to them: docs/core-rtl.md).
// Loads travel down the rows with the vectors' skew, so a LoadStationary may be accepted in
// the cycle the last vector using its buffer issues; a MultiplyMoving starts once its
// LoadStationary has completed. Back-to-back MultiplyMovings issue one vector per cycle.
module tern_pe_engine #(
  parameter int unsigned Rows        = 8,
  parameter int unsigned Cols        = 8,
  parameter int unsigned PsumBanks   = 8,
  parameter int unsigned PsumEntries = 512,   // fp32 words per bank and partition
  localparam int unsigned AddrWidth  = $clog2(PsumBanks * PsumEntries),
  localparam int unsigned Drain      = Rows * tern_pe_pkg::PeAccSteps + tern_pe_pkg::PeProductSteps,
  localparam int unsigned TokW       = 8 * ((AddrWidth + 11 + 7) / 8),  // token, in bytes
  localparam int unsigned Land       = tern_pe_pkg::PsumAccLatency,  // PSUM's accumulate pipeline
  localparam int unsigned CountW     = $clog2(Drain + Cols + Land + 1),
  localparam int unsigned EntryBits  = $clog2(PsumEntries),
  localparam int unsigned BankBits   = AddrWidth - EntryBits   // PsumBanks >= 2
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  // command port
  input  logic                      cmd_valid_i,
  output logic                      cmd_ready_o,
  input  logic [1:0]                cmd_op_i,
  input  logic [3:0]                cmd_dtype_i,
  input  logic [15:0]               cmd_k_i,
  input  logic [15:0]               cmd_m_i,
  input  logic [15:0]               cmd_n_i,
  input  logic [3:0]                cmd_bank_i,
  input  logic [15:0]               cmd_offset_i,
  input  logic                      cmd_acc_i,
  // stationary stream: one column (K-vector) per cycle
  input  logic                      stat_valid_i,
  output logic                      stat_ready_o,
  input  logic [Rows*32-1:0]        stat_data_i,
  // moving stream: one K-vector per cycle
  input  logic                      mov_valid_i,
  output logic                      mov_ready_o,
  input  logic [Rows*32-1:0]        mov_data_i,
  // PSUM accumulate port: partition m < Cols writes when pe2psum_we_o[m]
  output logic [Cols-1:0]           pe2psum_we_o,
  output logic [Cols-1:0]           pe2psum_acc_o,
  output logic [Cols*AddrWidth-1:0] pe2psum_addr_o,
  output logic [Cols*32-1:0]        pe2psum_data_o,
  // status
  output logic                      busy_o,
  output logic                      issuing_o,          // a command still takes stream data
  output logic [PsumBanks-1:0]      psum_bank_busy_o,   // banks with writes in flight
  output logic                      err_valid_o,
  output logic [3:0]                err_code_o,
  output logic [15:0]               err_count_o,
  output logic [3:0]                cmd_check_o   // the error the offered command would raise
);

  // ------------------------------------------------------------------------------------------
  // Command decode and checks
  // ------------------------------------------------------------------------------------------
  logic        have_stat_q, have_stat_d;   // some LoadStationary has been accepted
  logic        cur_buf_q, cur_buf_d;       // buffer of the latest LoadStationary
  logic [17:0] buf_k_q, buf_k_d;          // {buffer 1, buffer 0} K
  logic [17:0] buf_cols_q, buf_cols_d;     // {buffer 1, buffer 0} M
  logic [7:0]  buf_dtype_q, buf_dtype_d;   // {buffer 1, buffer 0} dtype

  logic        ls_active_q, ls_active_d, ls_buf_q, ls_buf_d;
  logic [7:0]  ls_col_q, ls_col_d, ls_cols_q, ls_cols_d;

  logic        mm_active_q, mm_active_d, mm_buf_q, mm_buf_d, mm_tr_q, mm_tr_d, mm_acc_q, mm_acc_d;
  logic [3:0]  mm_dtype_q, mm_dtype_d;
  logic [9:0]  mm_idx_q, mm_idx_d, mm_n_q, mm_n_d;   // vector within the pass, vectors per pass
  logic [1:0]  mm_pass_q, mm_pass_d;                 // 0..2: fp32 passes; 3: a single pass
  logic [AddrWidth-1:0] mm_base_q, mm_base_d, mm_addr_q, mm_addr_d;  // first, this vector's address

  logic [3:0]  err_code_q, err_code_d, cmd_err;
  logic [15:0] err_count_q, err_count_d;
  logic        err_valid_q, err_valid_d;

  logic        next_buf, can_start, accept, issue, ls_write, ls_last, mm_last, hazard;
  logic [16:0] end_offset;

  // Bottom-edge tokens {cols[8:0], addr, acc, valid}: the PSUM write of the vector issued at
  // cycle t, at column m in cycle t + 1 + Drain + m. A delay line holds a token for its first
  // Drain cycles, tok_q[m] holds it for column m; each bank counts the tokens in flight to it.
  logic [TokW-1:0]                tok_new, tok_line;
  logic [Cols*TokW-1:0]           tok_q, tok_d;
  logic                           tok_primed;
  logic [PsumBanks*CountW-1:0]    bank_count_q, bank_count_d;

  assign next_buf = have_stat_q ? !cur_buf_q : 1'b0;

  always_comb begin
    end_offset = 17'(cmd_offset_i) + ((cmd_op_i == tern_pe_pkg::PeOpTranspose)
                                      ? 17'(buf_k_q[9*cur_buf_q +: 9]) : 17'(cmd_n_i));
    cmd_err = tern_pe_pkg::PeErrNone;
    unique case (cmd_op_i)
      tern_pe_pkg::PeOpLoadStationary: begin
        if (cmd_k_i == 16'd0 || 32'(cmd_k_i) > Rows)            cmd_err = tern_pe_pkg::PeErrK;
        else if (cmd_m_i == 16'd0 || 32'(cmd_m_i) > Cols)       cmd_err = tern_pe_pkg::PeErrM;
        else if (!tern_pkg::is_mac_dtype(cmd_dtype_i) && cmd_dtype_i != tern_pkg::DtFp32)
                                                                 cmd_err = tern_pe_pkg::PeErrDtype;
      end
      tern_pe_pkg::PeOpMultiplyMoving: begin
        if (!have_stat_q)                                        cmd_err = tern_pe_pkg::PeErrNoStationary;
        else if (cmd_n_i == 16'd0 || 32'(end_offset) > PsumEntries) cmd_err = tern_pe_pkg::PeErrN;
        else if (32'(cmd_bank_i) >= PsumBanks)                   cmd_err = tern_pe_pkg::PeErrBank;
        else if (!tern_pkg::is_pe_pair(buf_dtype_q[4*cur_buf_q +: 4], cmd_dtype_i))
                                                                 cmd_err = tern_pe_pkg::PeErrDtype;
      end
      tern_pe_pkg::PeOpTranspose: begin
        if (!have_stat_q)                                        cmd_err = tern_pe_pkg::PeErrNoStationary;
        else if (32'(end_offset) > PsumEntries)                  cmd_err = tern_pe_pkg::PeErrN;
        else if (32'(cmd_bank_i) >= PsumBanks)                   cmd_err = tern_pe_pkg::PeErrBank;
      end
      default:                                                   cmd_err = tern_pe_pkg::PeErrOpcode;
    endcase

    // Each unit takes its next command in the cycle it finishes the current one, so
    // back-to-back commands leave no bubble.
    ls_last  = ls_write && (ls_col_q + 8'd1 == ls_cols_q);
    mm_last  = issue && (mm_idx_q + 10'd1 == mm_n_q) && (mm_pass_q == 2'd2 || mm_pass_q == 2'd3);
    unique case (cmd_op_i)
      tern_pe_pkg::PeOpLoadStationary:
        can_start = (!ls_active_q || ls_last) && !(mm_active_q && mm_buf_q == next_buf && !mm_last);
      default:
        can_start = (!mm_active_q || mm_last) &&
                    (!(ls_active_q && ls_buf_q == cur_buf_q) || ls_last);
    endcase
    cmd_ready_o = (cmd_err != tern_pe_pkg::PeErrNone) || can_start;
    accept      = cmd_valid_i && cmd_ready_o;
  end

  // ------------------------------------------------------------------------------------------
  // Sequencing: the stationary loader and the moving issuer run concurrently
  // ------------------------------------------------------------------------------------------
  assign stat_ready_o = ls_active_q;
  assign ls_write     = ls_active_q && stat_valid_i;
  assign mov_ready_o  = mm_active_q && !mm_tr_q && !hazard;
  assign issue        = mm_active_q && (mm_tr_q || mov_valid_i) && !hazard;

  // The hazard check: the addresses issued in the last Land cycles (entry j: j + 1 cycles ago).
  logic [Land*(AddrWidth+1)-1:0] hist_q, hist_d;
  logic                          mm_adds;   // this vector adds to PSUM (first pass: cmd acc)
  assign mm_adds = mm_acc_q || (mm_pass_q == 2'd1) || (mm_pass_q == 2'd2);
  always_comb begin
    hazard = 1'b0;
    for (int unsigned j = 0; j < Land; j++) begin
      if (hist_q[(AddrWidth+1)*j] && hist_q[(AddrWidth+1)*j + 1 +: AddrWidth] == mm_addr_q) hazard = 1'b1;
    end
    hazard = hazard && mm_adds && mm_active_q;
    hist_d = {hist_q[0 +: (Land-1)*(AddrWidth+1)], mm_addr_q, issue};
  end

  always_comb begin
    have_stat_d = have_stat_q;
    cur_buf_d   = cur_buf_q;
    buf_k_d     = buf_k_q;
    buf_cols_d  = buf_cols_q;
    buf_dtype_d = buf_dtype_q;
    ls_active_d = ls_active_q;
    ls_buf_d    = ls_buf_q;
    ls_col_d    = ls_col_q;
    ls_cols_d   = ls_cols_q;
    mm_active_d = mm_active_q;
    mm_buf_d    = mm_buf_q;
    mm_tr_d     = mm_tr_q;
    mm_acc_d    = mm_acc_q;
    mm_dtype_d  = mm_dtype_q;
    mm_idx_d    = mm_idx_q;
    mm_pass_d   = mm_pass_q;
    mm_n_d      = mm_n_q;
    mm_base_d   = mm_base_q;
    mm_addr_d   = mm_addr_q;
    err_code_d  = err_code_q;
    err_count_d = err_count_q;
    err_valid_d = 1'b0;

    if (ls_write) begin
      ls_col_d = ls_col_q + 8'd1;
      if (ls_last) ls_active_d = 1'b0;
    end
    if (issue) begin
      mm_idx_d  = mm_idx_q + 10'd1;
      mm_addr_d = mm_addr_q + AddrWidth'(1);
      if (mm_idx_q + 10'd1 == mm_n_q) begin  // next fp32 pass over the same vectors
        mm_idx_d  = 10'd0;
        mm_addr_d = mm_base_q;
        mm_pass_d = mm_pass_q + 2'd1;
      end
      if (mm_last) mm_active_d = 1'b0;
    end

    if (accept && cmd_err != tern_pe_pkg::PeErrNone) begin
      err_valid_d = 1'b1;
      err_code_d  = cmd_err;
      err_count_d = err_count_q + 16'd1;
    end else if (accept && cmd_op_i == tern_pe_pkg::PeOpLoadStationary) begin
      have_stat_d           = 1'b1;
      cur_buf_d             = next_buf;
      buf_k_d[9*next_buf +: 9] = 9'(cmd_k_i);
      buf_cols_d[9*next_buf +: 9] = 9'(cmd_m_i);
      buf_dtype_d[4*next_buf +: 4] = cmd_dtype_i;
      ls_active_d           = 1'b1;
      ls_buf_d              = next_buf;
      ls_col_d              = 8'd0;
      ls_cols_d             = 8'(cmd_m_i);
    end else if (accept) begin
      mm_active_d = 1'b1;
      mm_buf_d    = cur_buf_q;
      mm_tr_d     = (cmd_op_i == tern_pe_pkg::PeOpTranspose);
      mm_acc_d    = cmd_acc_i && (cmd_op_i == tern_pe_pkg::PeOpMultiplyMoving);
      mm_dtype_d  = cmd_dtype_i;
      mm_idx_d    = 10'd0;
      mm_pass_d   = (cmd_op_i == tern_pe_pkg::PeOpMultiplyMoving &&
                     (cmd_dtype_i == tern_pkg::DtFp32 ||
                      buf_dtype_q[4*cur_buf_q +: 4] == tern_pkg::DtFp32)) ? 2'd0 : 2'd3;
      mm_n_d      = (cmd_op_i == tern_pe_pkg::PeOpTranspose) ? 10'(buf_k_q[9*cur_buf_q +: 9]) : 10'(cmd_n_i);
      mm_base_d   = AddrWidth'(32'(cmd_bank_i) * PsumEntries + 32'(cmd_offset_i));
      mm_addr_d   = mm_base_d;
    end

  end

  // Tokens: a new one with each issued vector (only the first fp32 pass may overwrite; the
  // others add); along the bottom edge one column a cycle.
  assign tok_new = TokW'({buf_cols_q[9*mm_buf_q +: 9], mm_addr_q, mm_adds, issue});
  tern_delay_line #(
    .Width(TokW),
    .Delay(Drain)
  ) u_tok_line (
    .clk_i,
    .rst_ni,
    .data_i  (tok_new),
    .data_o  (tok_line),
    .primed_o(tok_primed)
  );

  // The token leaving the last column, {bank, valid}, until PSUM's pipeline has landed its
  // write: then its bank counts down.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [TokW-1:0] last;    // only its bank and valid bit
  logic [7:0]      landed;  // padded to a byte
  /* verilator lint_on UNUSEDSIGNAL */
  logic [7:0]      land;
  logic            land_primed;
  assign last = tok_q[TokW*(Cols-1) +: TokW];
  assign land = 8'({last[2 + EntryBits +: BankBits], last[0]});
  tern_delay_line #(
    .Width(8),
    .Delay(Land)
  ) u_land_line (
    .clk_i,
    .rst_ni,
    .data_i  (land),
    .data_o  (landed),
    .primed_o(land_primed)
  );

  always_comb begin
    for (int m = 0; m < Cols; m++) begin
      tok_d[TokW*m +: TokW] = (m == 0) ? {tok_line[TokW-1:1], tok_line[0] && tok_primed}
                                       : tok_q[TokW*(m-1) +: TokW];
    end
    bank_count_d = bank_count_q;
    for (int unsigned b = 0; b < PsumBanks; b++) begin
      if (tok_new[0] && tok_new[2 + EntryBits +: BankBits] == BankBits'(b)) begin
        bank_count_d[CountW*b +: CountW] = bank_count_d[CountW*b +: CountW] + CountW'(1);
      end
      if (landed[0] && land_primed && landed[1 +: BankBits] == BankBits'(b)) begin
        bank_count_d[CountW*b +: CountW] = bank_count_d[CountW*b +: CountW] - CountW'(1);
      end
    end
  end

  // ------------------------------------------------------------------------------------------
  // The mesh and the write-back
  // ------------------------------------------------------------------------------------------
  logic [Rows-1:0]    row_mask;
  logic [Cols*32-1:0] col_data;

  always_comb begin
    for (int k = 0; k < Rows; k++) begin
      // Transpose: vector n carries only row n (the identity's one-hot column).
      row_mask[k] = mm_tr_q ? (10'(k) == mm_idx_q) : (k < 32'(buf_k_q[9*mm_buf_q +: 9]));
    end
  end

  tern_pe_array #(
    .Rows(Rows),
    .Cols(Cols)
  ) u_array (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .in_valid_i    (issue),
    .in_row_mask_i (row_mask),
    .in_data_i     (mov_data_i),
    .in_buf_i      (mm_buf_q),
    .in_dtype_i    (mm_dtype_q),
    .in_stat_dtype_i(buf_dtype_q[4*mm_buf_q +: 4]),
    .in_cols_i     (buf_cols_q[9*mm_buf_q +: 9]),
    .in_pass_i     (mm_pass_q),
    .in_transpose_i(mm_tr_q),
    .ls_we_i       (ls_write),
    .ls_buf_i      (ls_buf_q),
    .ls_col_i      (ls_col_q),
    .ls_data_i     (stat_data_i),
    .out_data_o    (col_data)
  );

  always_comb begin
    for (int m = 0; m < Cols; m++) begin
      /* verilator lint_off UNUSEDSIGNAL */
      logic [TokW-1:0] tok;  // padded to whole bytes
      /* verilator lint_on UNUSEDSIGNAL */
      tok = tok_q[TokW*m +: TokW];
      pe2psum_we_o[m]  = tok[0] && (m < 32'(tok[2 + AddrWidth +: 9]));
      pe2psum_acc_o[m] = tok[1];
      pe2psum_addr_o[AddrWidth*m +: AddrWidth] = tok[2 +: AddrWidth];
    end
  end
  assign pe2psum_data_o = col_data;

  assign busy_o      = ls_active_q || mm_active_q || (|bank_count_q);
  assign issuing_o   = ls_active_q || mm_active_q;
  always_comb begin
    for (int unsigned b = 0; b < PsumBanks; b++) psum_bank_busy_o[b] = |bank_count_q[CountW*b +: CountW];
  end
  assign err_valid_o = err_valid_q;
  assign err_code_o  = err_code_q;
  assign err_count_o = err_count_q;
  assign cmd_check_o = cmd_err;

`ifndef SYNTHESIS
  // A write lands only in a bank that counts it in flight (the count never wraps below 0).
  for (genvar b = 0; b < PsumBanks; b++) begin : gen_bank_check
    no_count_underflow: assert property (@(posedge clk_i) disable iff (!rst_ni)
        landed[0] && land_primed && landed[1 +: BankBits] == BankBits'(b)
        |-> bank_count_q[CountW*b +: CountW] != '0)
      else $error("tern_pe_engine: a PSUM write landed in bank %0d, which counted none in flight", b);
  end
`endif

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      have_stat_q <= 1'b0;
      cur_buf_q   <= 1'b0;
      buf_k_q     <= '0;
      buf_cols_q  <= '0;
      buf_dtype_q <= '0;
      ls_active_q <= 1'b0;
      ls_buf_q    <= 1'b0;
      ls_col_q    <= '0;
      ls_cols_q   <= '0;
      mm_active_q <= 1'b0;
      mm_buf_q    <= 1'b0;
      mm_tr_q     <= 1'b0;
      mm_acc_q    <= 1'b0;
      mm_dtype_q  <= '0;
      mm_idx_q    <= '0;
      mm_pass_q   <= 2'd3;
      mm_n_q      <= '0;
      mm_base_q   <= '0;
      mm_addr_q   <= '0;
      hist_q      <= '0;
      err_code_q  <= tern_pe_pkg::PeErrNone;
      err_count_q <= '0;
      err_valid_q <= 1'b0;
      tok_q        <= '0;
      bank_count_q <= '0;
    end else begin
      have_stat_q <= have_stat_d;
      cur_buf_q   <= cur_buf_d;
      buf_k_q     <= buf_k_d;
      buf_cols_q  <= buf_cols_d;
      buf_dtype_q <= buf_dtype_d;
      ls_active_q <= ls_active_d;
      ls_buf_q    <= ls_buf_d;
      ls_col_q    <= ls_col_d;
      ls_cols_q   <= ls_cols_d;
      mm_active_q <= mm_active_d;
      mm_buf_q    <= mm_buf_d;
      mm_tr_q     <= mm_tr_d;
      mm_acc_q    <= mm_acc_d;
      mm_dtype_q  <= mm_dtype_d;
      mm_idx_q    <= mm_idx_d;
      mm_pass_q   <= mm_pass_d;
      mm_n_q      <= mm_n_d;
      mm_base_q   <= mm_base_d;
      mm_addr_q   <= mm_addr_d;
      hist_q      <= hist_d;
      err_code_q  <= err_code_d;
      err_count_q <= err_count_d;
      err_valid_q <= err_valid_d;
      tok_q        <= tok_d;
      bank_count_q <= bank_count_d;
    end
  end

endmodule
