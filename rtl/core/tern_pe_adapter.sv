// tern_pe_adapter: runs the PE sequencer's Tensor Engine instructions (ldstat, matmul,
// pe_transpose) on a tern_pe_engine (docs/core-rtl.md). It checks the operands in the golden
// model's order (model/core: exec_pe), then streams ap1 from SBUF or PSUM into the engine, one
// K-vector (the element at one offset of ap1's partitions) per beat and per cycle (reads run
// ahead into a tern_beat_fifo): the stationary tile's
// columns for ldstat, the moving tile for matmul (three times for an fp32 pass pair). The
// engine writes its results straight into PSUM through the memory's accumulate port. An
// instruction is done once its last vector has entered the array, so the next one (a
// LoadStationary into the other buffer) overlaps the drain; the writes still in flight hold
// other requesters' accesses to their PSUM banks (psum_bank_busy_o, tern_core_compute), and
// draining_o keeps the PE sequencer from reporting halted until they land.
// SBUF reads fetch a Chunk-byte chunk of every partition; the adapter keeps the last one, so a
// dense bf16 stream reads SBUF once per Chunk / 2 beats and leaves the port to the others.
module tern_pe_adapter #(
  parameter int unsigned P = tern_cfg_pkg::Partitions,
  localparam int unsigned Rows = tern_cfg_pkg::PeRows,
  localparam int unsigned Cols = tern_cfg_pkg::PeCols,
  localparam int unsigned SbufBytes = tern_cfg_pkg::SbufPartitionBytes,
  localparam int unsigned PsumBytes = tern_cfg_pkg::PsumBanks * tern_cfg_pkg::PsumBankBytes,
  localparam int unsigned Entries = tern_cfg_pkg::PsumBankBytes / 4,  // fp32 words per bank
  localparam int unsigned Banks = tern_cfg_pkg::PsumBanks,
  localparam int unsigned IB = tern_isa_pkg::InstrBits,
  localparam int unsigned SAW = $clog2(SbufBytes),
  localparam int unsigned PAW = $clog2(PsumBytes),
  localparam int unsigned WAW = PAW - 2,
  localparam int unsigned Chunk = tern_pkg::sbuf_chunk_bytes(
      tern_pkg::sbuf_row_bytes(tern_cfg_pkg::AxiDataBits / 8, P))
) (
  input  logic                                     clk_i,
  input  logic                                     rst_ni,
  // from the sequencer
  input  logic                                     valid_i,
  output logic                                     ready_o,
  input  logic [IB-1:0]                            instr_i,
  input  logic [tern_isa_pkg::ApSlots*32-1:0]      ap_base_i,
  output logic                                     done_o,
  output logic                                     err_o,
  output logic [3:0]                               err_code_o,  // tern::core::FaultKind
  // SBUF and PSUM reads: granted when rd_gnt is high with rd_valid; data the next cycle
  output logic                                     sbuf_rd_valid_o,
  input  logic                                     sbuf_rd_gnt_i,
  output logic [SAW-1:0]                           sbuf_rd_addr_o,
  input  logic [P*8*Chunk-1:0]                     sbuf_rd_chunk_i,  // the read's chunk
  output logic                                     psum_rd_valid_o,
  input  logic                                     psum_rd_gnt_i,
  output logic [PAW-1:0]                           psum_rd_addr_o,
  input  logic [P*32-1:0]                          psum_rd_data_i,
  // PSUM accumulate port (tern_lane_mem te_*): partition m < Cols
  output logic [P-1:0]                             te_we_o,
  output logic [P-1:0]                             te_acc_o,
  output logic [P*WAW-1:0]                         te_addr_o,
  output logic [P*32-1:0]                          te_data_o,
  output logic [Banks-1:0]                          psum_bank_busy_o,
  output logic                                     busy_o,
  output logic                                     draining_o   // PSUM writes still in flight
);

  localparam logic [3:0] ErrOperand = 4'd2;
  localparam logic [3:0] ErrEngine  = 4'd3;

  localparam logic [2:0] StIdle  = 3'd0;
  localparam logic [2:0] StStart = 3'd1;
  localparam logic [2:0] StCheck = 3'd2;
  localparam logic [2:0] StCmd   = 3'd3;
  localparam logic [2:0] StRun   = 3'd4;

  logic [2:0]    state_q, state_d;
  logic [IB-1:0] instr_q;
  logic [63:0]   ap_base_q;  // the bases of ap0 and ap1

  logic [7:0] opcode;
  logic       is_ldstat, is_matmul;
  assign opcode    = instr_q[tern_isa_pkg::HdrOpcodeLsb +: 8];
  assign is_ldstat = (opcode == tern_isa_pkg::OpLdstat);
  assign is_matmul = (opcode == tern_isa_pkg::OpMatmul);

  // ---------------------------------------------------------------------------------------
  // Operands: ap0 (the PSUM result) and ap1 (the stationary or moving tile).
  // ---------------------------------------------------------------------------------------
  logic [1:0]   w_start, w_checked, w_err, w_valid, w_ready, w_last, w_psum, w_dense;
  logic [127:0] w_elements;
  logic [15:0]  w_pstart, w_parts;
  logic [5:0]   w_eb;
  logic [63:0]  w_off;

  for (genvar w = 0; w < 2; w++) begin : gen_walk
    logic [31:0] off;
    logic [63:0] el;
    logic [7:0]  sp, np;
    logic [2:0]  eb;
    tern_operand_walk #(.P(P)) u_walk (
      .clk_i, .rst_ni,
      .start_i (w_start[w]),
      .ap_i    (instr_q[tern_isa_pkg::ApSlot0Lsb + w * tern_isa_pkg::ApBits +: tern_isa_pkg::ApBits]),
      .base_i  (ap_base_q[32*w +: 32]),
      .lanes_i (8'd0), .scalar_i (1'b0),
      .psum_o (w_psum[w]), .checked_o (w_checked[w]), .err_o (w_err[w]), .elements_o (el),
      .start_partition_o (sp), .partitions_o (np), .elem_bytes_o (eb), .dense_o (w_dense[w]),
      .off_valid_o (w_valid[w]), .off_ready_i (w_ready[w]), .off_o (off), .off_last_o (w_last[w]));
    assign w_off[32*w +: 32]      = off;
    assign w_elements[64*w +: 64] = el;
    assign w_pstart[8*w +: 8]     = sp;
    assign w_parts[8*w +: 8]      = np;
    assign w_eb[3*w +: 3]         = eb;
  end

  logic [63:0] out_elems, in_elems;
  logic [7:0]  out_parts, in_parts;
  logic [3:0]  out_dtype, in_dtype;
  assign out_elems = w_elements[63:0];
  assign in_elems  = w_elements[127:64];
  assign out_parts = w_parts[7:0];
  assign in_parts  = w_parts[15:8];
  assign out_dtype = instr_q[tern_isa_pkg::ApSlot0Lsb + tern_isa_pkg::ApDtypeLsb +: 4];
  assign in_dtype  = instr_q[tern_isa_pkg::ApSlot1Lsb + tern_isa_pkg::ApDtypeLsb +: 4];

  // The PSUM word ap0 starts at: bank and offset of the engine's command.
  logic [31:0] out_word;
  assign out_word = {2'b00, w_off[31:2]};

  // The stationary tile the engine holds (the golden TensorEngine's loaded K, M and dtype).
  logic [7:0]  loaded_k_q;
  logic [15:0] loaded_m_q;
  logic [3:0]  loaded_dt_q;

  function automatic logic [15:0] sat16(input logic [63:0] v);
    sat16 = (v > 64'hFFFF) ? 16'hFFFF : v[15:0];
  endfunction

  // ---------------------------------------------------------------------------------------
  // The engine.
  // ---------------------------------------------------------------------------------------
  logic            cmd_valid, cmd_ready, stat_valid, stat_ready, mov_valid, mov_ready, pe_busy,
                   pe_issuing;
  logic [1:0]      pe_op;
  logic [3:0]      check_code, err_code_unused;
  logic            err_valid_unused;
  logic [15:0]     err_count_unused;
  logic [Rows*32-1:0] vec_data;
  logic [Cols-1:0] pe_we, pe_acc;
  logic [Cols*WAW-1:0] pe_addr;
  logic [Cols*32-1:0]  pe_data;

  always_comb begin
    if (is_ldstat)      pe_op = tern_pe_pkg::PeOpLoadStationary;
    else if (is_matmul) pe_op = tern_pe_pkg::PeOpMultiplyMoving;
    else                pe_op = tern_pe_pkg::PeOpTranspose;
  end

  tern_pe_engine #(
    .Rows (Rows), .Cols (Cols), .PsumBanks (tern_cfg_pkg::PsumBanks), .PsumEntries (Entries)
  ) u_pe (
    .clk_i, .rst_ni,
    .cmd_valid_i    (cmd_valid),
    .cmd_ready_o    (cmd_ready),
    .cmd_op_i       (pe_op),
    .cmd_dtype_i    (in_dtype),
    .cmd_k_i        (16'(in_parts)),
    .cmd_m_i        (sat16(in_elems)),
    .cmd_n_i        (sat16(out_elems)),
    .cmd_bank_i     (4'(out_word / Entries)),
    .cmd_offset_i   (16'(out_word % Entries)),
    .cmd_acc_i      (instr_q[tern_isa_pkg::PeAccumulateLsb]),
    .stat_valid_i   (stat_valid),
    .stat_ready_o   (stat_ready),
    .stat_data_i    (vec_data),
    .mov_valid_i    (mov_valid),
    .mov_ready_o    (mov_ready),
    .mov_data_i     (vec_data),
    .pe2psum_we_o   (pe_we),
    .pe2psum_acc_o  (pe_acc),
    .pe2psum_addr_o (pe_addr),
    .pe2psum_data_o (pe_data),
    .busy_o         (pe_busy),
    .issuing_o      (pe_issuing),
    .psum_bank_busy_o (psum_bank_busy_o),
    .err_valid_o    (err_valid_unused),
    .err_code_o     (err_code_unused),
    .err_count_o    (err_count_unused),
    .cmd_check_o    (check_code)
  );

  // The engine's columns are PSUM partitions 0 .. Cols - 1.
  assign te_we_o   = P'(pe_we);
  assign te_acc_o  = P'(pe_acc);
  assign te_addr_o = (P*WAW)'(pe_addr);
  assign te_data_o = (P*32)'(pe_data);

  logic unused;
  assign unused = err_valid_unused ^ (^err_code_unused) ^ (^err_count_unused) ^ (^w_checked) ^
                  (^w_last) ^ w_valid[0] ^ (^w_off[1:0]) ^ (^w_off[63:32+SAW]) ^ (^w_dense[1]) ^ (^w_eb[2:0]) ^ (^w_pstart[7:0]);

  // The first failing check, in the golden model's order (exec_pe).
  logic       check_fail;
  logic [3:0] check_err;
  always_comb begin
    check_fail = 1'b1;
    check_err  = ErrOperand;
    if (is_ldstat) begin
      if (w_err[1])                                       check_err = ErrOperand;
      else if (check_code != tern_pe_pkg::PeErrNone)      check_err = ErrEngine;
      else                                                check_fail = 1'b0;
    end else if (w_err[0] || !w_psum[0] || out_dtype != tern_pkg::DtFp32 ||
                 w_pstart[7:0] != 8'd0 || !w_dense[0]) begin
      check_err = ErrOperand;
    end else if (loaded_m_q != 16'd0 && 16'(out_parts) != loaded_m_q) begin
      check_err = ErrOperand;
    end else if (is_matmul && (w_err[1] || in_elems != out_elems ||
                               (loaded_k_q != 8'd0 && in_parts != loaded_k_q))) begin
      check_err = ErrOperand;
    end else if (!is_matmul && loaded_k_q != 8'd0 && out_elems != 64'(loaded_k_q)) begin
      check_err = ErrOperand;
    end else if (check_code != tern_pe_pkg::PeErrNone) begin
      check_err = ErrEngine;
    end else begin
      check_fail = 1'b0;
    end
  end

  // ---------------------------------------------------------------------------------------
  // ap1's K-vectors: read ahead into a tern_beat_fifo, one offset a cycle while it has room.
  // An offset in the chunk last read from SBUF needs no read; the others read (SBUF: the chunk,
  // kept; PSUM: the element). Either way the beat forms the next cycle, in the stage.
  // ---------------------------------------------------------------------------------------
  localparam int unsigned CB = $clog2(Chunk);
  logic        streams;      // the instruction streams ap1 (ldstat, matmul)
  logic [1:0]  passes_q, passes_d;  // moving-stream passes still to start after this one
  logic        stage_q, stage_read_q, stage_psum_q;  // an offset accepted last cycle: how
  logic [CB-1:0] stage_byte_q;                       // its byte in the chunk
  logic [P*8*Chunk-1:0] chunk_q, chunk;
  logic        chunk_valid_q;
  logic [SAW-CB-1:0] chunk_tag_q;
  logic [P*32-1:0] words, rd_lanes, beat;
  logic        beat_valid, beat_taken, fifo_room;
  assign streams = is_ldstat || is_matmul;

  // The stage's chunk: the one landing now, or the one kept.
  assign chunk = (stage_read_q && !stage_psum_q) ? sbuf_rd_chunk_i : chunk_q;
  always_comb begin
    for (int unsigned p = 0; p < P; p++) begin
      words[32*p +: 32] = stage_psum_q ? psum_rd_data_i[32*p +: 32]
                        : 32'(chunk[8*Chunk*p + 8*32'(stage_byte_q) +: 32] );
    end
  end
  tern_lane_gather #(.P(P)) u_gather (
    .row_i (words), .start_i (w_pstart[15:8]), .count_i (in_parts), .elem_bytes_i (w_eb[5:3]),
    .lanes_o (rd_lanes));

  tern_beat_fifo #(.Width (P*32)) u_beats (
    .clk_i, .rst_ni, .clear_i (state_q == StStart),
    .push_i (stage_q), .push_data_i (rd_lanes),
    .valid_o (beat_valid), .data_o (beat), .pop_i (beat_taken), .room_o (fifo_room));

  logic want, hit, rd_gnt, take;
  assign want = (state_q == StRun) && streams && w_valid[1] && fifo_room;
  assign hit  = !w_psum[1] && chunk_valid_q && (chunk_tag_q == w_off[32 + CB +: SAW - CB]);
  assign sbuf_rd_valid_o = want && !w_psum[1] && !hit;
  assign psum_rd_valid_o = want && w_psum[1];
  assign sbuf_rd_addr_o  = w_off[32 +: SAW];
  assign psum_rd_addr_o  = w_off[32 +: PAW];
  assign rd_gnt = (sbuf_rd_valid_o && sbuf_rd_gnt_i) || (psum_rd_valid_o && psum_rd_gnt_i);
  assign take   = rd_gnt || (want && hit);
  assign w_ready = {take, 1'b0};

  assign vec_data   = beat[Rows*32-1:0];
  assign stat_valid = beat_valid && is_ldstat;
  assign mov_valid  = beat_valid && is_matmul;
  assign beat_taken = (stat_valid && stat_ready) || (mov_valid && mov_ready);

  // ---------------------------------------------------------------------------------------
  // The state machine.
  // ---------------------------------------------------------------------------------------
  always_comb begin
    state_d      = state_q;
    passes_d     = passes_q;
    w_start      = '0;
    cmd_valid    = 1'b0;
    ready_o      = 1'b0;
    done_o       = 1'b0;
    err_o        = 1'b0;
    err_code_o   = 4'd0;

    unique case (state_q)
      StIdle: begin
        ready_o = 1'b1;
        if (valid_i) state_d = StStart;
      end
      StStart: begin
        w_start = 2'b11;
        state_d = StCheck;
      end
      StCheck: begin
        if (check_fail) begin
          done_o     = 1'b1;
          err_o      = 1'b1;
          err_code_o = check_err;
          state_d    = StIdle;
        end else begin
          state_d = StCmd;
        end
      end
      StCmd: begin
        cmd_valid = 1'b1;
        // An fp32 pass pair streams the moving tile three times.
        passes_d = (is_matmul && (loaded_dt_q == tern_pkg::DtFp32 || in_dtype == tern_pkg::DtFp32))
                   ? 2'd2 : 2'd0;
        if (cmd_ready) state_d = StRun;
      end
      StRun: begin
        if (streams && !w_valid[1] && !stage_q && !beat_valid && passes_q != 2'd0) begin
          w_start[1] = 1'b1;  // the next pass of the moving tile (its walker is valid next cycle)
          passes_d   = passes_q - 2'd1;
        end else if ((!streams || (!w_valid[1] && !stage_q && !beat_valid &&
                                    passes_q == 2'd0)) && !w_start[1] && !pe_issuing) begin
          done_o  = 1'b1;
          state_d = StIdle;
        end
      end
      default: state_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q      <= StIdle;
      instr_q      <= '0;
      ap_base_q    <= '0;
      stage_q      <= 1'b0;
      stage_read_q <= 1'b0;
      stage_psum_q <= 1'b0;
      stage_byte_q <= '0;
      chunk_valid_q <= 1'b0;
      chunk_tag_q  <= '0;
      passes_q     <= '0;
      loaded_k_q   <= '0;
      loaded_m_q   <= '0;
      loaded_dt_q  <= '0;
    end else begin
      state_q      <= state_d;
      if (state_q == StIdle && valid_i) begin
        instr_q   <= instr_i;
        ap_base_q <= ap_base_i[63:0];
      end
      stage_q      <= take;
      stage_read_q <= rd_gnt;
      if (take) begin
        stage_psum_q <= w_psum[1];
        stage_byte_q <= w_off[32 +: CB];
      end
      // SBUF is only stable for the length of an instruction (its semaphores): a new one
      // starts with nothing kept.
      if (state_q == StStart) begin
        chunk_valid_q <= 1'b0;
      end else if (sbuf_rd_valid_o && sbuf_rd_gnt_i) begin
        chunk_valid_q <= 1'b1;
        chunk_tag_q   <= w_off[32 + CB +: SAW - CB];
      end
      passes_q     <= passes_d;
      if (state_q == StCmd && cmd_ready && is_ldstat) begin
        loaded_k_q  <= in_parts;
        loaded_m_q  <= sat16(in_elems);
        loaded_dt_q <= in_dtype;
      end
    end
  end

  // The kept chunk: data only (chunk_valid_q says whether it holds anything), so no reset.
  always_ff @(posedge clk_i) begin
    if (stage_read_q && !stage_psum_q) chunk_q <= sbuf_rd_chunk_i;
  end

  assign busy_o     = (state_q != StIdle);
  assign draining_o = pe_busy;

  logic unused_base;
  assign unused_base = ^ap_base_i[tern_isa_pkg::ApSlots*32-1:64];

endmodule
