// tern_vec_adapter: runs Vector Engine instructions (tensor_tensor ... transpose) from a
// sequencer on a tern_dve (docs/core-rtl.md). It checks the operands in the golden model's order
// (model/core: exec_dve), reads per-partition scalars, then streams in0 (ap1) and in1 (ap2) from
// SBUF or PSUM into the engine and its results out to ap0 (tensor_scalar_reduce: the reduction to
// ap2). Lane i of the engine is partition start + i of each operand; lanes past the operand's
// partitions see zeros.
// Two instructions overlap, as in tern_act_adapter (docs/core-rtl.md "DVE and POOL: two
// instructions in flight"). The front checks an instruction, reads its scalars, gives the
// engine its command and streams in0 and in1 in; the back writes the engine's results to ap0
// (tensor_scalar_reduce: then the reduction to ap2) for the oldest instruction in its context
// queue and signals done. Once the engine has taken a command (the instruction can no longer
// fault), ahead_o lets the sequencer hand over the next one, whose front runs while the back
// drains the engine's pipeline; its reads wait while they overlap the bytes the back still has
// to write. A tensor_scalar_reduce runs alone (its second destination is not in the back's
// span).
module tern_vec_adapter #(
  parameter int unsigned P = tern_cfg_pkg::Partitions,
  localparam int unsigned SbufBytes = tern_cfg_pkg::SbufPartitionBytes,
  localparam int unsigned PsumBytes = tern_cfg_pkg::PsumBanks * tern_cfg_pkg::PsumBankBytes,
  localparam int unsigned IB = tern_isa_pkg::InstrBits,
  localparam int unsigned SAW = $clog2(SbufBytes),
  localparam int unsigned PAW = $clog2(PsumBytes)
) (
  input  logic                                     clk_i,
  input  logic                                     rst_ni,
  // from the sequencer
  input  logic                                     valid_i,
  output logic                                     ready_o,
  input  logic [IB-1:0]                            instr_i,
  input  logic [tern_isa_pkg::ApSlots*32-1:0]      ap_base_i,
  input  logic [tern_isa_pkg::ScalarSlots*32-1:0]  sc_base_i,
  output logic                                     done_o,
  output logic                                     ahead_o,     // the next may be handed over
  output logic                                     err_o,
  output logic [3:0]                               err_code_o,  // tern::core::FaultKind
  // SBUF and PSUM: a read is granted when rd_gnt is high with rd_valid; data the next cycle
  output logic                                     sbuf_rd_valid_o,
  input  logic                                     sbuf_rd_gnt_i,
  output logic [SAW-1:0]                           sbuf_rd_addr_o,
  input  logic [P*32-1:0]                          sbuf_rd_data_i,
  output logic                                     sbuf_wr_valid_o,
  input  logic                                     sbuf_wr_gnt_i,
  output logic [SAW-1:0]                           sbuf_wr_addr_o,
  output logic [2:0]                               sbuf_wr_bytes_o,
  output logic [P-1:0]                             sbuf_wr_mask_o,
  output logic [P*32-1:0]                          sbuf_wr_data_o,
  output logic                                     psum_rd_valid_o,
  input  logic                                     psum_rd_gnt_i,
  output logic [PAW-1:0]                           psum_rd_addr_o,
  input  logic [P*32-1:0]                          psum_rd_data_i,
  output logic                                     psum_wr_valid_o,
  input  logic                                     psum_wr_gnt_i,
  output logic [PAW-1:0]                           psum_wr_addr_o,
  output logic [2:0]                               psum_wr_bytes_o,
  output logic [P-1:0]                             psum_wr_mask_o,
  output logic [P*32-1:0]                          psum_wr_data_o,
  input  logic                                     sr_seed_valid_i,
  input  logic [31:0]                              sr_seed_i,
  output logic                                     busy_o
);

  localparam logic [3:0] ErrOperand = tern_csr_pkg::FaultOperand;
  localparam logic [3:0] ErrEngine  = tern_csr_pkg::FaultEngine;

  typedef enum logic [2:0] {FrIdle, FrStart, FrCheck, FrHazard, FrScal, FrCmd, FrRun} front_e;

  front_e        fr_q, fr_d;
  logic [IB-1:0] instr_q;
  logic [tern_isa_pkg::ApSlots*32-1:0]     ap_base_q;
  logic [tern_isa_pkg::ScalarSlots*32-1:0] sc_base_q;

  // ---------------------------------------------------------------------------------------
  // Operands: ap0 (out), ap1 (in0), ap2 (in1, or the reduction of tensor_scalar_reduce), and
  // the two per-partition scalars, each through an access-pattern walker.
  // ---------------------------------------------------------------------------------------
  localparam int unsigned NW = 5;  // walkers: 0..2 the APs, 3..4 the scalars
  logic [NW-1:0]     w_checked, w_err, w_valid, w_ready, w_last, w_start;
  logic [NW*64-1:0]  w_elements;
  logic [NW*8-1:0]   w_pstart, w_parts;
  logic [NW*3-1:0]   w_eb;
  logic [NW*32-1:0]  w_off, w_lo, w_hi;
  logic [NW-1:0]     w_psum;     // the operand is in PSUM
  logic [NW-1:0]     w_present;

  logic [7:0] lanes;  // ap0's partitions: the lanes of the instruction
  assign lanes = instr_q[tern_isa_pkg::ApSlot0Lsb + tern_isa_pkg::ApPartitionsLsb +: tern_isa_pkg::ApPartitionsWidth];

  for (genvar w = 0; w < NW; w++) begin : gen_walk
    localparam bit IsScalar = (w >= 3);
    localparam int unsigned Lsb = IsScalar ? tern_isa_pkg::ScalarSlot0Lsb + (w - 3) * tern_isa_pkg::ScalarBits
                                           : tern_isa_pkg::ApSlot0Lsb + w * tern_isa_pkg::ApBits;
    logic [tern_isa_pkg::ApBits-1:0] ap;
    logic [31:0] base;
    if (IsScalar) begin : gen_scalar
      assign ap = tern_core_pkg::scalar_as_ap(instr_q[Lsb +: tern_isa_pkg::ScalarBits]);
      assign base = sc_base_q[32*(w-3) +: 32];
      assign w_present[w] = instr_q[Lsb + tern_isa_pkg::ScPerPartitionLsb];
    end else begin : gen_ap
      assign ap   = instr_q[Lsb +: tern_isa_pkg::ApBits];
      assign base = ap_base_q[32*w +: 32];
      assign w_present[w] = (ap[tern_isa_pkg::ApPartitionsLsb +: tern_isa_pkg::ApPartitionsWidth] != 8'd0) || (w == 0);
    end
    logic [31:0] off, lo, hi;
    logic [63:0] el;
    logic [7:0]  sp, np;
    logic [2:0]  eb;
    logic        dense_unused;
    tern_operand_walk #(.P(P)) u_walk (
      .clk_i, .rst_ni,
      .start_i (w_start[w]), .ap_i (ap), .base_i (base), .lanes_i (lanes), .scalar_i (IsScalar),
      .psum_o (w_psum[w]), .checked_o (w_checked[w]), .err_o (w_err[w]), .elements_o (el),
      .span_lo_o (lo), .span_hi_o (hi), .start_partition_o (sp),
      .partitions_o (np), .elem_bytes_o (eb), .dense_o (dense_unused),
      .off_valid_o (w_valid[w]), .off_ready_i (w_ready[w]), .off_o (off), .off_last_o (w_last[w]));
    assign w_off[32*w +: 32]      = off;
    assign w_lo[32*w +: 32]       = lo;
    assign w_hi[32*w +: 32]       = hi;
    assign w_elements[64*w +: 64] = el;
    assign w_pstart[8*w +: 8]     = sp;
    assign w_parts[8*w +: 8]      = np;
    assign w_eb[3*w +: 3]         = eb;
  end

  // ---------------------------------------------------------------------------------------
  // The engine and its command.
  // ---------------------------------------------------------------------------------------
  logic [3:0]  dve_op;
  logic        tsr;  // tensor_scalar_reduce: ap2 receives the reduction
  assign dve_op  = instr_q[tern_isa_pkg::HdrOpcodeLsb +: 4];  // 0x50 + DveOp: the low nibble
  assign tsr = (dve_op == tern_dve_pkg::DveOpTensorScalarReduce);

  function automatic logic [63:0] elems(input logic [NW*64-1:0] e, input int unsigned w);
    elems = e[64*w +: 64];
  endfunction

  logic [15:0] dve_n;
  logic [63:0] n_full;
  assign n_full = w_present[1] ? elems(w_elements, 1) : elems(w_elements, 0);
  assign dve_n      = (n_full > 64'hFFFF) ? 16'hFFFF : n_full[15:0];

  logic [3:0] dt_in0, dt_in1, dt_out;
  assign dt_out = instr_q[tern_isa_pkg::ApSlot0Lsb + tern_isa_pkg::ApDtypeLsb +: tern_isa_pkg::ApDtypeWidth];
  assign dt_in0 = w_present[1] ? instr_q[tern_isa_pkg::ApSlot1Lsb + tern_isa_pkg::ApDtypeLsb +: tern_isa_pkg::ApDtypeWidth]
                               : tern_pkg::DtFp32;
  assign dt_in1 = (w_present[2] && !tsr) ? instr_q[tern_isa_pkg::ApSlot2Lsb + tern_isa_pkg::ApDtypeLsb +: tern_isa_pkg::ApDtypeWidth]
                                         : tern_pkg::DtFp32;

  logic            cmd_valid, cmd_ready, in0_valid, in0_ready, in1_valid, in1_ready;
  logic            out_valid, out_ready, dve_busy;
  logic [P*32-1:0] in0_data, in1_data, out_data;
  logic [2*P*32-1:0] scal_q;  // the per-partition scalars s0 (low half) and s1
  logic [2:0]      check_code, err_code_unused;
  logic            err_valid_unused;

  tern_dve #(.P(P)) u_dve (
    .clk_i, .rst_ni,
    .cmd_valid_i      (cmd_valid),
    .cmd_ready_o      (cmd_ready),
    .cmd_op_i         (dve_op),
    .cmd_alu0_i       (instr_q[tern_isa_pkg::DveAlu0Lsb +: tern_isa_pkg::DveAlu0Width]),
    .cmd_alu1_i       (instr_q[tern_isa_pkg::DveAlu1Lsb +: tern_isa_pkg::DveAlu1Width]),
    .cmd_dt_in0_i     (dt_in0),
    .cmd_dt_in1_i     (dt_in1),
    .cmd_dt_out_i     (dt_out),
    .cmd_round_i      (instr_q[tern_isa_pkg::DveStochasticLsb]),
    .cmd_saturate_i   (instr_q[tern_isa_pkg::DveSaturateLsb]),
    .cmd_n_i          (dve_n),
    // A per-partition scalar's imm field is its offset, not a value: the immediate is then 0.
    .cmd_imm0_i       (w_present[3] ? 32'd0 : instr_q[tern_isa_pkg::ScalarSlot0Lsb + tern_isa_pkg::ScImmLsb +: tern_isa_pkg::ScImmWidth]),
    .cmd_imm1_i       (w_present[4] ? 32'd0 : instr_q[tern_isa_pkg::ScalarSlot1Lsb + tern_isa_pkg::ScImmLsb +: tern_isa_pkg::ScImmWidth]),
    .cmd_imm2_i       (instr_q[tern_isa_pkg::DveImm2Lsb +: tern_isa_pkg::DveImm2Width]),
    .cmd_scalar_sel_i (w_present[4:3]),
    .cmd_reverse_i    ({instr_q[tern_isa_pkg::DveReverse1Lsb], instr_q[tern_isa_pkg::DveReverse0Lsb]}),
    .cmd_negate_i     (instr_q[tern_isa_pkg::DveNegateLsb]),
    .cmd_scalar0_i    (scal_q[0 +: P*32]),
    .cmd_scalar1_i    (scal_q[P*32 +: P*32]),
    .in0_valid_i      (in0_valid),
    .in0_ready_o      (in0_ready),
    .in0_data_i       (in0_data),
    .in1_valid_i      (in1_valid),
    .in1_ready_o      (in1_ready),
    .in1_data_i       (in1_data),
    .out_valid_o      (out_valid),
    .out_ready_i      (out_ready),
    .out_data_o       (out_data),
    .busy_o           (dve_busy),
    .err_valid_o      (err_valid_unused),
    .err_code_o       (err_code_unused),
    .cmd_check_o      (check_code),
    .sr_seed_valid_i,
    .sr_seed_i
  );
  logic unused;
  assign unused = err_valid_unused ^ (^err_code_unused) ^ (^ap_base_q[127:96]) ^ (^w_checked) ^
                  (^w_last) ^ w_present[0] ^ dve_busy ^ (^w_off[0 +: 32]) ^ w_valid[0] ^
                  (^w_lo[0 +: 32]) ^ (^w_hi[0 +: 32]);  // the back walks ap0 itself

  // Beats the instruction moves on each operand (vector-engine.md): what the shapes must be.
  logic reads_in0, reads_in1;
  logic [63:0] out_beats;
  assign reads_in0 = tern_dve_pkg::uses_in0(dve_op);
  assign reads_in1 = tern_dve_pkg::uses_in1(dve_op);
  always_comb begin
    unique case (dve_op)
      tern_dve_pkg::DveOpTensorReduce: out_beats = 64'd1;
      tern_dve_pkg::DveOpBnStats:      out_beats = 64'd3;
      tern_dve_pkg::DveOpBnAggr:       out_beats = 64'd2;
      tern_dve_pkg::DveOpMax8:         out_beats = 64'd8;
      default:                         out_beats = n_full;  // tensor_scalar_reduce: dve_n + 1 - 1
    endcase
  end

  // The first failing check, in the golden model's order.
  logic       check_fail;
  logic [3:0] check_err;
  always_comb begin
    logic [63:0] have0, have1, have2;
    have0 = elems(w_elements, 0);
    have1 = w_present[1] ? elems(w_elements, 1) : 64'd0;
    have2 = w_present[2] ? elems(w_elements, 2) : 64'd0;
    check_fail = 1'b1;
    check_err  = ErrOperand;
    if (w_err[0] || (w_present[1] && w_err[1]) || (w_present[2] && w_err[2])) begin
      check_err = ErrOperand;
    end else if ((w_present[1] && w_parts[15:8] != w_parts[7:0]) ||
                 (w_present[2] && w_parts[23:16] != w_parts[7:0])) begin
      check_err = ErrOperand;
    end else if ((w_present[3] && w_err[3]) || (w_present[4] && w_err[4])) begin
      check_err = ErrOperand;
    end else if (check_code != tern_dve_pkg::DveErrNone) begin
      check_err = ErrEngine;
    end else if (have0 != out_beats || have1 != (reads_in0 ? n_full : 64'd0)) begin
      check_err = ErrOperand;
    end else if (tsr ? (have2 != 64'd1 ||
                        instr_q[tern_isa_pkg::ApSlot2Lsb + tern_isa_pkg::ApDtypeLsb +: tern_isa_pkg::ApDtypeWidth] != tern_pkg::DtFp32)
                     : (have2 != (reads_in1 ? n_full : 64'd0))) begin
      check_err = ErrOperand;
    end else begin
      check_fail = 1'b0;
    end
  end

  // ---------------------------------------------------------------------------------------
  // The back (tern_adapter_back): the head's results to its ap0, then (tensor_scalar_reduce)
  // the reduction beat to its ap2. What it is writing is the front's read-after-write check.
  // ---------------------------------------------------------------------------------------
  logic        ctx_push, ctx_full_unused, ctx_empty, head_tsr, bk_done, sp_valid, sp_psum;
  logic [1:0]  ctx_count;
  logic [3:0]  red_dtype_unused;
  logic [7:0]  sp_pstart, sp_parts;
  logic [31:0] sp_lo, sp_hi;
  tern_adapter_back #(.P(P), .SecondFromOut (1'b1), .SAW (SAW), .PAW (PAW)) u_back (
    .clk_i, .rst_ni,
    .push_i (ctx_push),
    .first_ap_i (instr_q[tern_isa_pkg::ApSlot0Lsb +: tern_isa_pkg::ApBits]), .first_base_i (ap_base_q[31:0]),
    .second_ap_i (instr_q[tern_isa_pkg::ApSlot2Lsb +: tern_isa_pkg::ApBits]),
    .second_base_i (ap_base_q[32*2 +: 32]), .second_i (tsr),
    .lanes_i (lanes), .n_i (out_beats),
    .full_o (ctx_full_unused), .empty_o (ctx_empty), .count_o (ctx_count),
    .head_second_o (head_tsr), .head_second_dtype_o (red_dtype_unused),
    .span_valid_o (sp_valid), .span_psum_o (sp_psum), .span_pstart_o (sp_pstart),
    .span_parts_o (sp_parts), .span_lo_o (sp_lo), .span_hi_o (sp_hi),
    .out_valid_i (out_valid), .out_ready_o (out_ready), .out_data_i (out_data),
    .engine_busy_i (dve_busy), .second_data_i ('0),
    .sbuf_wr_valid_o, .sbuf_wr_gnt_i, .sbuf_wr_addr_o, .sbuf_wr_bytes_o, .sbuf_wr_mask_o,
    .sbuf_wr_data_o, .psum_wr_valid_o, .psum_wr_gnt_i, .psum_wr_addr_o, .psum_wr_bytes_o,
    .psum_wr_mask_o, .psum_wr_data_o,
    .done_o (bk_done));
  logic unused_back;  // the front pushes at most one behind the head (ready_o)
  assign unused_back = ctx_full_unused ^ (^red_dtype_unused);

  // The front's reads (in0, in1 and the per-partition scalars) against what the back has
  // still to write; until the back has started on the head, its span is not known: wait.
  logic [NW-1:0] reads;
  assign reads = {w_present[4:3], w_present[2] && !tsr, w_present[1], 1'b0};
  logic hazard;
  always_comb begin
    hazard = !ctx_empty && !sp_valid;
    for (int unsigned w = 0; w < NW; w++) begin
      if (reads[w] && !ctx_empty &&
          tern_core_pkg::overlaps(w_psum[w], w_pstart[8*w +: 8], w_parts[8*w +: 8], w_lo[32*w +: 32],
                                  w_hi[32*w +: 32], sp_psum, sp_pstart, sp_parts, sp_lo, sp_hi))
        hazard = 1'b1;
    end
  end

  // ---------------------------------------------------------------------------------------
  // Memory reads (the front): one a cycle for in0 or in1 (each read ahead into its
  // tern_beat_fifo), one at a time for the scalars.
  // ---------------------------------------------------------------------------------------
  logic [2:0]      rd_who_q, rd_who_d;       // walker whose read was granted last cycle (7: none)
  logic            rd_pending_q, rd_pending_d;
  logic            rd_psum_q, rd_psum_d;
  logic [2*P*32-1:0] scal_d;
  logic [1:0]      scal_done_q, scal_done_d;
  logic [63:0]     in0_count_q, in0_count_d, in1_count_q, in1_count_d;

  logic [P*32-1:0] rd_row;
  assign rd_row = rd_psum_q ? psum_rd_data_i : sbuf_rd_data_i;

  // The returned row as engine lanes of the operand's dtype, and as a per-partition scalar.
  logic [P*32-1:0] rd_lanes, rd_scalar;
  tern_lane_gather #(.P(P)) u_gather (
    .row_i (rd_row), .start_i (w_pstart[8*rd_who_q +: 8]), .count_i (w_parts[8*rd_who_q +: 8]),
    .elem_bytes_i (w_eb[3*rd_who_q +: 3]), .lanes_o (rd_lanes));
  always_comb begin
    logic [3:0] dt;
    dt = instr_q[(rd_who_q == 3'd3 ? tern_isa_pkg::ScalarSlot0Lsb : tern_isa_pkg::ScalarSlot1Lsb) +
                 tern_isa_pkg::ScDtypeLsb +: tern_isa_pkg::ScDtypeWidth];
    for (int unsigned i = 0; i < P; i++)
      rd_scalar[32*i +: 32] = tern_core_pkg::scalar_value(dt, rd_lanes[32*i +: 32]);
  end

  // The input beats for the engine.
  logic [1:0] in_push, in_room;
  assign in_push = {rd_pending_q && rd_who_q == 3'd2, rd_pending_q && rd_who_q == 3'd1};
  tern_beat_fifo #(.Width (P*32)) u_in0_beats (
    .clk_i, .rst_ni, .clear_i (fr_q == FrStart), .push_i (in_push[0]), .push_data_i (rd_lanes),
    .valid_o (in0_valid), .data_o (in0_data), .pop_i (in0_valid && in0_ready),
    .room_o (in_room[0]));
  tern_beat_fifo #(.Width (P*32)) u_in1_beats (
    .clk_i, .rst_ni, .clear_i (fr_q == FrStart), .push_i (in_push[1]), .push_data_i (rd_lanes),
    .valid_o (in1_valid), .data_o (in1_data), .pop_i (in1_valid && in1_ready),
    .room_o (in_room[1]));

  // Which walker reads next: a scalar in FrScal (after the previous read has landed), in0 or
  // in1 in FrRun when its FIFO has room.
  logic [2:0] want;
  always_comb begin
    want = 3'd7;
    if (fr_q == FrScal) begin
      if (rd_pending_q)                                        want = 3'd7;
      else if (w_present[3] && !scal_done_q[0] && w_valid[3]) want = 3'd3;
      else if (w_present[4] && !scal_done_q[1] && w_valid[4]) want = 3'd4;
    end else if (fr_q == FrRun) begin
      if (w_valid[1] && in_room[0]) want = 3'd1;
      else if (w_valid[2] && !tsr && in_room[1]) want = 3'd2;
    end
  end

  logic rd_gnt;
  always_comb begin
    sbuf_rd_valid_o = 1'b0;
    psum_rd_valid_o = 1'b0;
    sbuf_rd_addr_o  = '0;
    psum_rd_addr_o  = '0;
    if (want != 3'd7) begin
      sbuf_rd_valid_o = !w_psum[want];
      psum_rd_valid_o = w_psum[want];
      sbuf_rd_addr_o  = w_off[32*want +: SAW];
      psum_rd_addr_o  = w_off[32*want +: PAW];
    end
  end
  assign rd_gnt = (sbuf_rd_valid_o && sbuf_rd_gnt_i) || (psum_rd_valid_o && psum_rd_gnt_i);

  always_comb begin
    w_ready = '0;
    if (rd_gnt) w_ready[want] = 1'b1;
  end

  // ---------------------------------------------------------------------------------------
  // The front.
  // ---------------------------------------------------------------------------------------
  logic fr_done, fr_err;  // the front reports a faulting instruction (the back is empty)
  logic ahead_q, ahead_d;
  logic [63:0] in0_total, in1_total;
  assign in0_total = reads_in0 ? n_full : 64'd0;
  assign in1_total = reads_in1 ? n_full : 64'd0;

  always_comb begin
    fr_d         = fr_q;
    rd_who_d     = rd_who_q;
    rd_pending_d = 1'b0;
    rd_psum_d    = rd_psum_q;
    scal_d       = scal_q;
    scal_done_d  = scal_done_q;
    in0_count_d  = in0_count_q;
    in1_count_d  = in1_count_q;
    ahead_d      = ahead_q;
    w_start      = '0;
    cmd_valid    = 1'b0;
    ctx_push     = 1'b0;
    ready_o      = 1'b0;
    fr_done      = 1'b0;
    fr_err       = 1'b0;

    // A read granted last cycle returns its row now (in0 and in1 rows go to their FIFOs).
    if (rd_pending_q && (rd_who_q == 3'd3 || rd_who_q == 3'd4)) begin
      if (rd_who_q == 3'd3) scal_d[0 +: P*32] = rd_scalar;
      else                  scal_d[P*32 +: P*32] = rd_scalar;
      scal_done_d[rd_who_q == 3'd3 ? 0 : 1] = 1'b1;
    end
    if (rd_gnt) begin
      rd_pending_d = 1'b1;
      rd_who_d     = want;
      rd_psum_d    = w_psum[want];
    end
    if (in0_valid && in0_ready) in0_count_d = in0_count_q + 64'd1;
    if (in1_valid && in1_ready) in1_count_d = in1_count_q + 64'd1;

    unique case (fr_q)
      FrIdle: begin
        // One instruction at a time behind a tensor_scalar_reduce.
        ready_o = ctx_empty || (ctx_count == 2'd1 && !head_tsr);
        if (valid_i && ready_o) begin
          ahead_d = 1'b0;
          fr_d    = FrStart;
        end
      end
      FrStart: begin
        w_start     = {w_present[4:3], 3'b111};
        scal_done_d = '0;
        in0_count_d = '0;
        in1_count_d = '0;
        fr_d        = FrCheck;
      end
      FrCheck: begin
        // A fault is reported in order, after the instructions ahead of it.
        if (!check_fail) begin
          fr_d = hazard ? FrHazard : FrScal;
        end else if (ctx_empty) begin
          fr_done = 1'b1;
          fr_err  = 1'b1;
          fr_d    = FrIdle;
        end
      end
      FrHazard: begin
        if (!hazard) fr_d = FrScal;
      end
      FrScal: begin
        if ((!w_present[3] || scal_done_q[0]) && (!w_present[4] || scal_done_q[1]) && !rd_pending_q)
          fr_d = FrCmd;
      end
      FrCmd: begin
        cmd_valid = 1'b1;
        if (cmd_ready) begin
          ctx_push = 1'b1;
          ahead_d  = !tsr;
          fr_d     = FrRun;
        end
      end
      FrRun: begin
        if (in0_count_q == in0_total && in1_count_q == in1_total && !rd_pending_q) fr_d = FrIdle;
      end
      default: fr_d = FrIdle;
    endcase
  end

  assign done_o     = fr_done || bk_done;
  assign err_o      = fr_err;
  assign err_code_o = fr_err ? check_err : 4'd0;
  assign ahead_o    = ahead_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fr_q         <= FrIdle;
      instr_q      <= '0;
      ap_base_q    <= '0;
      sc_base_q    <= '0;
      rd_who_q     <= 3'd7;
      rd_pending_q <= 1'b0;
      rd_psum_q    <= 1'b0;
      scal_q       <= '0;
      scal_done_q  <= '0;
      in0_count_q  <= '0;
      in1_count_q  <= '0;
      ahead_q      <= 1'b0;
    end else begin
      fr_q         <= fr_d;
      if (fr_q == FrIdle && valid_i && ready_o) begin
        instr_q   <= instr_i;
        ap_base_q <= ap_base_i;
        sc_base_q <= sc_base_i;
      end
      rd_who_q     <= rd_who_d;
      rd_pending_q <= rd_pending_d;
      rd_psum_q    <= rd_psum_d;
      scal_q       <= scal_d;
      scal_done_q  <= scal_done_d;
      in0_count_q  <= in0_count_d;
      in1_count_q  <= in1_count_d;
      ahead_q      <= ahead_d;
    end
  end

  assign busy_o = (fr_q != FrIdle) || !ctx_empty;

`ifndef SYNTHESIS
  // A fault and a completion never meet; nothing is handed over while a tensor_scalar_reduce
  // is in flight.
  one_done: assert property (@(posedge clk_i) disable iff (!rst_ni) !(fr_done && bk_done));
  tsr_alone: assert property (@(posedge clk_i) disable iff (!rst_ni)
                              (fr_q == FrStart) |-> (ctx_empty || !head_tsr));
`endif

endmodule
