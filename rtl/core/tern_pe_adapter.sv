// tern_pe_adapter: runs the PE sequencer's Tensor Engine instructions (ldstat, matmul,
// pe_transpose) on a tern_pe_engine (docs/core-rtl.md). Each instruction runs in one of two
// lanes (tern_pe_lane: operand checks, the engine command, ap1's vectors); the engine writes
// its results straight into PSUM through the memory's accumulate port.
// Two lanes let the next instruction start while the last one streams: once a lane's command
// is taken (it can no longer fault) the adapter raises ahead_o, the sequencer hands over the
// next instruction, and the free lane checks it and reads its first vectors. The engine then
// takes a LoadStationary into its other buffer alongside a matmul, and a matmul's first vector
// in the cycle after the last one's. Completions (done_o) come in program order.
// An instruction is done once its last vector has entered the array, so the next one overlaps
// the drain; the writes still in flight hold other requesters' accesses to their PSUM banks
// (psum_bank_busy_o, tern_core_compute), and draining_o keeps the PE sequencer from reporting
// halted until they land.
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
  input  logic                                     acc_i,      // matmul: r[acc_reg] != 0
  output logic                                     done_o,
  output logic                                     ahead_o,     // the next may be handed over
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

  localparam int unsigned Lanes = 2;

  // ---------------------------------------------------------------------------------------
  // The lanes. older_q names the older one while both are busy.
  // ---------------------------------------------------------------------------------------
  logic [Lanes-1:0] l_start, l_owns, l_cmd_valid, l_cmd_ready, l_is_ldstat, l_is_matmul,
                    l_streaming, l_beat_valid, l_pop, l_sbuf_v, l_sbuf_g, l_psum_v, l_psum_g,
                    l_may_finish, l_busy, l_committed, l_loaded, l_done, l_err, l_acc;
  logic [Lanes*2-1:0]       l_op;
  logic [Lanes*4-1:0]       l_dtype, l_bank, l_err_code, l_load_dt;
  logic [Lanes*16-1:0]      l_k, l_m, l_n, l_offset, l_load_m;
  logic [Lanes*8-1:0]       l_load_k;
  logic [Lanes*Rows*32-1:0] l_beat;
  logic [Lanes*SAW-1:0]     l_sbuf_a;
  logic [Lanes*PAW-1:0]     l_psum_a;

  logic       older_q, first, second, free_lane, owner;
  logic [7:0] loaded_k_q;
  logic [15:0] loaded_m_q;
  logic [3:0] loaded_dt_q, check_code;
  logic       pe_issuing;

  for (genvar l = 0; l < Lanes; l++) begin : gen_lane
    tern_pe_lane #(.P(P)) u_lane (
      .clk_i, .rst_ni,
      .start_i        (l_start[l]),
      .instr_i        (instr_i),
      .ap_base_i      (ap_base_i[63:0]),
      .acc_i,
      .loaded_k_i     (loaded_k_q),
      .loaded_m_i     (loaded_m_q),
      .loaded_dt_i    (loaded_dt_q),
      .owns_cmd_o     (l_owns[l]),
      .cmd_valid_o    (l_cmd_valid[l]),
      .cmd_ready_i    (l_cmd_ready[l]),
      .cmd_op_o       (l_op[2*l +: 2]),
      .cmd_dtype_o    (l_dtype[4*l +: 4]),
      .cmd_k_o        (l_k[16*l +: 16]),
      .cmd_m_o        (l_m[16*l +: 16]),
      .cmd_n_o        (l_n[16*l +: 16]),
      .cmd_bank_o     (l_bank[4*l +: 4]),
      .cmd_offset_o   (l_offset[16*l +: 16]),
      .cmd_acc_o      (l_acc[l]),
      .check_code_i   (check_code),
      .is_ldstat_o    (l_is_ldstat[l]),
      .is_matmul_o    (l_is_matmul[l]),
      .streaming_o    (l_streaming[l]),
      .beat_valid_o   (l_beat_valid[l]),
      .beat_o         (l_beat[Rows*32*l +: Rows*32]),
      .pop_i          (l_pop[l]),
      .sbuf_rd_valid_o (l_sbuf_v[l]),
      .sbuf_rd_gnt_i  (l_sbuf_g[l]),
      .sbuf_rd_addr_o (l_sbuf_a[SAW*l +: SAW]),
      .sbuf_rd_chunk_i,
      .psum_rd_valid_o (l_psum_v[l]),
      .psum_rd_gnt_i  (l_psum_g[l]),
      .psum_rd_addr_o (l_psum_a[PAW*l +: PAW]),
      .psum_rd_data_i,
      .pe_issuing_i   (pe_issuing),
      .may_finish_i   (l_may_finish[l]),
      .busy_o         (l_busy[l]),
      .committed_o    (l_committed[l]),
      .stat_loaded_o  (l_loaded[l]),
      .load_k_o       (l_load_k[8*l +: 8]),
      .load_m_o       (l_load_m[16*l +: 16]),
      .load_dt_o      (l_load_dt[4*l +: 4]),
      .done_o         (l_done[l]),
      .err_o          (l_err[l]),
      .err_code_o     (l_err_code[4*l +: 4])
    );
  end

  // A lane takes an instruction while the other is idle or has its command taken: one lane at
  // a time checks and offers a command, so its checks see every older LoadStationary.
  always_comb begin
    first     = (&l_busy) ? older_q : l_busy[1];
    second    = !first;
    free_lane = l_busy[0];
    owner     = l_owns[1];
  end
  assign ready_o = !(&l_busy) && !(|(l_busy & ~l_committed));
  assign l_start = (valid_i && ready_o) ? (Lanes'(1) << free_lane) : '0;
  assign ahead_o = (^l_busy) && (|(l_busy & l_committed));
  assign l_may_finish = (&l_busy) ? (Lanes'(1) << older_q) : '1;

  // In order: one lane finishes at a time, the older first.
  always_comb begin
    done_o     = |l_done;
    err_o      = |l_err;
    err_code_o = l_done[1] ? l_err_code[7:4] : l_err_code[3:0];
  end

  // ---------------------------------------------------------------------------------------
  // The engine: its command from the owning lane, each stream from the oldest lane with
  // vectors of that kind.
  // ---------------------------------------------------------------------------------------
  logic            cmd_valid, cmd_ready, stat_valid, stat_ready, mov_valid, mov_ready, pe_busy;
  logic            stat_src, mov_src;
  logic [3:0]      err_code_unused;
  logic            err_valid_unused;
  logic [15:0]     err_count_unused;
  logic [Cols-1:0] pe_we, pe_acc;
  logic [Cols*WAW-1:0] pe_addr;
  logic [Cols*32-1:0]  pe_data;

  assign cmd_valid   = l_cmd_valid[owner];
  assign l_cmd_ready = cmd_ready ? (Lanes'(l_cmd_valid[owner]) << owner) : '0;
  assign stat_src    = (l_is_ldstat[first] && l_streaming[first]) ? first : second;
  assign mov_src     = (l_is_matmul[first] && l_streaming[first]) ? first : second;
  assign stat_valid  = l_beat_valid[stat_src] && l_is_ldstat[stat_src];
  assign mov_valid   = l_beat_valid[mov_src] && l_is_matmul[mov_src];
  assign l_pop = (Lanes'(stat_valid && stat_ready) << stat_src) |
                 (Lanes'(mov_valid && mov_ready) << mov_src);

  tern_pe_engine #(
    .Rows (Rows), .Cols (Cols), .PsumBanks (tern_cfg_pkg::PsumBanks), .PsumEntries (Entries)
  ) u_pe (
    .clk_i, .rst_ni,
    .cmd_valid_i    (cmd_valid),
    .cmd_ready_o    (cmd_ready),
    .cmd_op_i       (l_op[2*owner +: 2]),
    .cmd_dtype_i    (l_dtype[4*owner +: 4]),
    .cmd_k_i        (l_k[16*owner +: 16]),
    .cmd_m_i        (l_m[16*owner +: 16]),
    .cmd_n_i        (l_n[16*owner +: 16]),
    .cmd_bank_i     (l_bank[4*owner +: 4]),
    .cmd_offset_i   (l_offset[16*owner +: 16]),
    .cmd_acc_i      (l_acc[owner]),
    .stat_valid_i   (stat_valid),
    .stat_ready_o   (stat_ready),
    .stat_data_i    (l_beat[Rows*32*stat_src +: Rows*32]),
    .mov_valid_i    (mov_valid),
    .mov_ready_o    (mov_ready),
    .mov_data_i     (l_beat[Rows*32*mov_src +: Rows*32]),
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

  // ---------------------------------------------------------------------------------------
  // SBUF and PSUM reads: the older lane first.
  // ---------------------------------------------------------------------------------------
  logic sbuf_src, psum_src;
  assign sbuf_src = l_sbuf_v[first] ? first : second;
  assign psum_src = l_psum_v[first] ? first : second;
  assign sbuf_rd_valid_o = |l_sbuf_v;
  assign sbuf_rd_addr_o  = l_sbuf_a[SAW*sbuf_src +: SAW];
  assign l_sbuf_g        = sbuf_rd_gnt_i ? (Lanes'(l_sbuf_v[sbuf_src]) << sbuf_src) : '0;
  assign psum_rd_valid_o = |l_psum_v;
  assign psum_rd_addr_o  = l_psum_a[PAW*psum_src +: PAW];
  assign l_psum_g        = psum_rd_gnt_i ? (Lanes'(l_psum_v[psum_src]) << psum_src) : '0;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      older_q     <= 1'b0;
      loaded_k_q  <= '0;
      loaded_m_q  <= '0;
      loaded_dt_q <= '0;
    end else begin
      // The lane that starts while the other is busy is the younger.
      if (|l_start) older_q <= l_busy[0] ? 1'b0 : l_busy[1];
      for (int unsigned l = 0; l < Lanes; l++) begin
        if (l_loaded[l]) begin
          loaded_k_q  <= l_load_k[8*l +: 8];
          loaded_m_q  <= l_load_m[16*l +: 16];
          loaded_dt_q <= l_load_dt[4*l +: 4];
        end
      end
    end
  end

  assign busy_o     = |l_busy;
  assign draining_o = pe_busy;

  logic unused;
  assign unused = err_valid_unused ^ (^err_code_unused) ^ (^err_count_unused) ^ l_owns[0] ^
                  (^ap_base_i[tern_isa_pkg::ApSlots*32-1:64]);

endmodule
