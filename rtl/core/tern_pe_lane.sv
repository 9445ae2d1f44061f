// tern_pe_lane: one Tensor Engine instruction (ldstat, matmul, pe_transpose) inside the PE
// adapter (tern_pe_adapter), from its operand checks to its last vector. It checks the operands
// in the golden model's order (model/core: exec_pe), offers the engine command, and streams ap1
// from SBUF or PSUM, one K-vector (the element at one offset of ap1's partitions) per beat:
// the stationary tile's columns for ldstat, the moving tile for matmul (three times for an fp32
// pass pair). Reads run ahead into a tern_beat_fifo from the moment the checks pass, so a lane
// waiting for the engine to take its command already holds its first vectors.
// SBUF reads fetch a Chunk-byte chunk of every partition; the lane keeps the last one, so a
// dense bf16 stream reads SBUF once per Chunk / 2 beats and leaves the port to the others.
// The adapter runs two lanes; it reports their completions in program order (may_finish_i).
module tern_pe_lane #(
  parameter int unsigned P = tern_cfg_pkg::Partitions,
  localparam int unsigned Rows = tern_cfg_pkg::PeRows,
  localparam int unsigned SbufBytes = tern_cfg_pkg::SbufPartitionBytes,
  localparam int unsigned PsumBytes = tern_cfg_pkg::PsumBanks * tern_cfg_pkg::PsumBankBytes,
  localparam int unsigned Entries = tern_cfg_pkg::PsumBankBytes / 4,  // fp32 words per bank
  localparam int unsigned IB = tern_isa_pkg::InstrBits,
  localparam int unsigned SAW = $clog2(SbufBytes),
  localparam int unsigned PAW = $clog2(PsumBytes),
  localparam int unsigned Chunk = tern_pkg::sbuf_chunk_bytes(
      tern_pkg::sbuf_row_bytes(tern_cfg_pkg::AxiDataBits / 8, P))
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // an idle lane takes an instruction and ap0's and ap1's base registers
  input  logic                 start_i,
  input  logic [IB-1:0]        instr_i,
  input  logic [63:0]          ap_base_i,
  input  logic                 acc_i,          // matmul: r[acc_reg] != 0 at the hand-over
  // the stationary tile the engine holds (the golden TensorEngine's loaded K, M and dtype)
  input  logic [7:0]           loaded_k_i,
  input  logic [15:0]          loaded_m_i,
  input  logic [3:0]           loaded_dt_i,
  // the engine command, driven while owns_cmd_o (checking it, then offering it)
  output logic                 owns_cmd_o,
  output logic                 cmd_valid_o,
  input  logic                 cmd_ready_i,
  output logic [1:0]           cmd_op_o,
  output logic [3:0]           cmd_dtype_o,
  output logic [15:0]          cmd_k_o,
  output logic [15:0]          cmd_m_o,
  output logic [15:0]          cmd_n_o,
  output logic [3:0]           cmd_bank_o,
  output logic [15:0]          cmd_offset_o,
  output logic                 cmd_acc_o,
  input  logic [3:0]           check_code_i,   // the engine's check of the offered command
  // ap1's vectors, once the engine has taken the command
  output logic                 is_ldstat_o,
  output logic                 is_matmul_o,
  output logic                 streaming_o,    // vectors still to hand over
  output logic                 beat_valid_o,
  output logic [Rows*32-1:0]   beat_o,
  input  logic                 pop_i,
  // SBUF and PSUM reads: granted when rd_gnt is high with rd_valid; data the next cycle
  output logic                 sbuf_rd_valid_o,
  input  logic                 sbuf_rd_gnt_i,
  output logic [SAW-1:0]       sbuf_rd_addr_o,
  input  logic [P*8*Chunk-1:0] sbuf_rd_chunk_i,
  output logic                 psum_rd_valid_o,
  input  logic                 psum_rd_gnt_i,
  output logic [PAW-1:0]       psum_rd_addr_o,
  input  logic [P*32-1:0]      psum_rd_data_i,
  input  logic                 pe_issuing_i,   // the engine still takes stream data
  // status and completion
  input  logic                 may_finish_i,   // no older instruction is outstanding
  output logic                 busy_o,
  output logic                 committed_o,    // the engine took the command: no fault is left
  output logic                 stat_loaded_o,  // the engine took this lane's LoadStationary
  output logic [7:0]           load_k_o,
  output logic [15:0]          load_m_o,
  output logic [3:0]           load_dt_o,
  output logic                 done_o,
  output logic                 err_o,
  output logic [3:0]           err_code_o      // tern::core::FaultKind
);

  localparam logic [3:0] ErrOperand = tern_csr_pkg::FaultOperand;
  localparam logic [3:0] ErrEngine  = tern_csr_pkg::FaultEngine;

  localparam logic [2:0] StIdle  = 3'd0;
  localparam logic [2:0] StStart = 3'd1;
  localparam logic [2:0] StCheck = 3'd2;
  localparam logic [2:0] StCmd   = 3'd3;
  localparam logic [2:0] StRun   = 3'd4;

  logic [2:0]    state_q, state_d;
  logic [IB-1:0] instr_q;
  logic [63:0]   ap_base_q;  // the bases of ap0 and ap1
  logic          acc_q;      // r[acc_reg] != 0 when the matmul was handed over

  logic [7:0] opcode;
  logic       is_ldstat, is_matmul;
  assign opcode    = instr_q[tern_isa_pkg::HdrOpcodeLsb +: tern_isa_pkg::HdrOpcodeWidth];
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
    logic [31:0] span_lo_unused, span_hi_unused;
    tern_operand_walk #(.P(P)) u_walk (
      .clk_i, .rst_ni,
      .start_i (w_start[w]),
      .ap_i    (instr_q[tern_isa_pkg::ApSlot0Lsb + w * tern_isa_pkg::ApBits +: tern_isa_pkg::ApBits]),
      .base_i  (ap_base_q[32*w +: 32]),
      .lanes_i (8'd0), .scalar_i (1'b0),
      .psum_o (w_psum[w]), .checked_o (w_checked[w]), .err_o (w_err[w]), .elements_o (el),
      .span_lo_o (span_lo_unused), .span_hi_o (span_hi_unused), .start_partition_o (sp),
      .partitions_o (np), .elem_bytes_o (eb), .dense_o (w_dense[w]),
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
  assign out_dtype = instr_q[tern_isa_pkg::ApSlot0Lsb + tern_isa_pkg::ApDtypeLsb +: tern_isa_pkg::ApDtypeWidth];
  assign in_dtype  = instr_q[tern_isa_pkg::ApSlot1Lsb + tern_isa_pkg::ApDtypeLsb +: tern_isa_pkg::ApDtypeWidth];

  // The PSUM word ap0 starts at: bank and offset of the engine's command.
  logic [31:0] out_word;
  assign out_word = {2'b00, w_off[31:2]};

  function automatic logic [15:0] sat16(input logic [63:0] v);
    sat16 = (v > 64'hFFFF) ? 16'hFFFF : v[15:0];
  endfunction

  always_comb begin
    if (is_ldstat)      cmd_op_o = tern_pe_pkg::PeOpLoadStationary;
    else if (is_matmul) cmd_op_o = tern_pe_pkg::PeOpMultiplyMoving;
    else                cmd_op_o = tern_pe_pkg::PeOpTranspose;
  end
  assign cmd_dtype_o  = in_dtype;
  assign cmd_k_o      = 16'(in_parts);
  assign cmd_m_o      = sat16(in_elems);
  assign cmd_n_o      = sat16(out_elems);
  assign cmd_bank_o   = 4'(out_word / Entries);
  assign cmd_offset_o = 16'(out_word % Entries);
  // The accumulate bit, or the run-time one: acc_reg's register was nonzero (acc_reg = r0 reads 0).
  assign cmd_acc_o    = instr_q[tern_isa_pkg::PeAccumulateLsb] | acc_q;

  // The first failing check, in the golden model's order (exec_pe).
  logic       check_fail;
  logic [3:0] check_err;
  always_comb begin
    check_fail = 1'b1;
    check_err  = ErrOperand;
    if (is_ldstat) begin
      if (w_err[1])                                       check_err = ErrOperand;
      else if (check_code_i != tern_pe_pkg::PeErrNone)    check_err = ErrEngine;
      else                                                check_fail = 1'b0;
    end else if (w_err[0] || !w_psum[0] || out_dtype != tern_pkg::DtFp32 ||
                 w_pstart[7:0] != 8'd0 || !w_dense[0]) begin
      check_err = ErrOperand;
    end else if (loaded_m_i != 16'd0 && 16'(out_parts) != loaded_m_i) begin
      check_err = ErrOperand;
    end else if (is_matmul && (w_err[1] || in_elems != out_elems ||
                               (loaded_k_i != 8'd0 && in_parts != loaded_k_i))) begin
      check_err = ErrOperand;
    end else if (!is_matmul && loaded_k_i != 8'd0 && out_elems != 64'(loaded_k_i)) begin
      check_err = ErrOperand;
    end else if (check_code_i != tern_pe_pkg::PeErrNone) begin
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
  logic        beat_valid, fifo_room, stream_empty;
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
    .valid_o (beat_valid), .data_o (beat), .pop_i (pop_i), .room_o (fifo_room));

  logic want, hit, rd_gnt, take;
  assign want = (state_q == StCmd || state_q == StRun) && streams && w_valid[1] && fifo_room;
  assign hit  = !w_psum[1] && chunk_valid_q && (chunk_tag_q == w_off[32 + CB +: SAW - CB]);
  assign sbuf_rd_valid_o = want && !w_psum[1] && !hit;
  assign psum_rd_valid_o = want && w_psum[1];
  assign sbuf_rd_addr_o  = w_off[32 +: SAW];
  assign psum_rd_addr_o  = w_off[32 +: PAW];
  assign rd_gnt = (sbuf_rd_valid_o && sbuf_rd_gnt_i) || (psum_rd_valid_o && psum_rd_gnt_i);
  assign take   = rd_gnt || (want && hit);
  assign w_ready = {take, 1'b0};

  assign stream_empty = !w_valid[1] && !stage_q && !beat_valid;
  assign beat_valid_o = beat_valid && (state_q == StRun);
  assign beat_o       = beat[Rows*32-1:0];
  assign is_ldstat_o  = is_ldstat;
  assign is_matmul_o  = is_matmul;
  assign streaming_o  = (state_q == StRun) && streams && (!stream_empty || passes_q != 2'd0);

  // ---------------------------------------------------------------------------------------
  // The state machine.
  // ---------------------------------------------------------------------------------------
  always_comb begin
    state_d     = state_q;
    passes_d    = passes_q;
    w_start     = '0;
    cmd_valid_o = 1'b0;
    done_o      = 1'b0;
    err_o       = 1'b0;
    err_code_o  = 4'd0;

    unique case (state_q)
      StIdle: begin
        if (start_i) state_d = StStart;
      end
      StStart: begin
        w_start = 2'b11;
        state_d = StCheck;
      end
      StCheck: begin
        if (!check_fail) begin
          state_d = StCmd;
        end else if (may_finish_i) begin
          done_o     = 1'b1;
          err_o      = 1'b1;
          err_code_o = check_err;
          state_d    = StIdle;
        end
      end
      StCmd: begin
        cmd_valid_o = 1'b1;
        // An fp32 pass pair streams the moving tile three times.
        passes_d = (is_matmul && (loaded_dt_i == tern_pkg::DtFp32 || in_dtype == tern_pkg::DtFp32))
                   ? 2'd2 : 2'd0;
        if (cmd_ready_i) state_d = StRun;
      end
      StRun: begin
        // Done once the last vector has entered the array (the engine takes a beat as it
        // issues it); pe_transpose streams nothing, so it waits for the engine.
        if (streams && stream_empty && passes_q != 2'd0) begin
          w_start[1] = 1'b1;  // the next pass of the moving tile (its walker is valid next cycle)
          passes_d   = passes_q - 2'd1;
        end else if ((streams ? stream_empty : !pe_issuing_i) && may_finish_i) begin
          done_o  = 1'b1;
          state_d = StIdle;
        end
      end
      default: state_d = StIdle;
    endcase
  end

  assign owns_cmd_o    = (state_q == StCheck) || (state_q == StCmd);
  assign busy_o        = (state_q != StIdle);
  assign committed_o   = (state_q == StRun);
  assign stat_loaded_o = (state_q == StCmd) && cmd_ready_i && is_ldstat;
  assign load_k_o      = in_parts;
  assign load_m_o      = sat16(in_elems);
  assign load_dt_o     = in_dtype;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q       <= StIdle;
      instr_q       <= '0;
      ap_base_q     <= '0;
      acc_q         <= 1'b0;
      stage_q       <= 1'b0;
      stage_read_q  <= 1'b0;
      stage_psum_q  <= 1'b0;
      stage_byte_q  <= '0;
      chunk_valid_q <= 1'b0;
      chunk_tag_q   <= '0;
      passes_q      <= '0;
    end else begin
      state_q <= state_d;
      if (state_q == StIdle && start_i) begin
        instr_q   <= instr_i;
        ap_base_q <= ap_base_i;
        acc_q     <= acc_i;
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
      passes_q <= passes_d;
    end
  end

  // The kept chunk: data only (chunk_valid_q says whether it holds anything), so no reset.
  always_ff @(posedge clk_i) begin
    if (stage_read_q && !stage_psum_q) chunk_q <= sbuf_rd_chunk_i;
  end

  logic unused;
  assign unused = (^w_checked) ^ (^w_last) ^ w_valid[0] ^ (^w_off[1:0]) ^ (^w_off[63:32+SAW]) ^
                  (^w_dense[1]) ^ (^w_eb[2:0]) ^ (^w_pstart[7:0]);

endmodule
