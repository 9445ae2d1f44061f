// tern_act_adapter: runs the ACT sequencer's activate instructions on a tern_act (docs/core-rtl.md).
// It checks the operands in the golden model's order (model/core: exec_act), reads the
// per-partition scale and bias and the load_reduce accumulator (acc_load, ap2), streams ap1 from
// SBUF or PSUM into the engine and its results to ap0, and finally writes the reduction
// accumulators, converted to acc_out's dtype (RNE), to acc_out (ap3). Lane i is partition
// start + i of each operand.
// Two instructions overlap (docs/core-rtl.md "ACT: two instructions in flight"). The front
// checks an instruction, reads its scalars, gives the engine its command and streams ap1 in;
// the back writes the engine's results to ap0 (and the accumulators to ap3) for the oldest
// instruction in its context queue and signals done. Once an instruction's command is taken
// (it can no longer fault) and it does not write acc_out, ahead_o lets the sequencer hand over
// the next one, whose front runs while the back drains the engine's pipeline. The next one's
// reads wait while they overlap the bytes the back still has to write (a read-after-write
// hazard); an instruction that writes acc_out runs alone (its accumulators are read once the
// engine is empty).
module tern_act_adapter #(
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
  // SBUF and PSUM: a request is granted when gnt is high with valid; read data the next cycle
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

  // Front walkers: 0 ap0 (out), 1 ap1 (in), 2 ap2 (acc_load), 3 ap3 (acc_out), 4 scale,
  // 5 bias. The front only checks ap0 and ap3; the back walks them again.
  localparam int unsigned NW = 6;
  localparam logic [2:0] WIn = 3'd1, WLoad = 3'd2, WAccOut = 3'd3, WScale = 3'd4, WBias = 3'd5;

  front_e        fr_q, fr_d;
  logic [IB-1:0] instr_q;
  logic [tern_isa_pkg::ApSlots*32-1:0]     ap_base_q;
  logic [tern_isa_pkg::ScalarSlots*32-1:0] sc_base_q;

  logic [NW-1:0]     w_checked, w_err, w_valid, w_ready, w_last, w_start, w_psum, w_present;
  logic [NW*64-1:0]  w_elements;
  logic [NW*8-1:0]   w_pstart, w_parts;
  logic [NW*3-1:0]   w_eb;
  logic [NW*32-1:0]  w_off, w_lo, w_hi;

  logic [7:0] lanes;  // ap0's partitions: the lanes of the instruction
  assign lanes = instr_q[tern_isa_pkg::ApSlot0Lsb + tern_isa_pkg::ApPartitionsLsb +: tern_isa_pkg::ApPartitionsWidth];

  for (genvar w = 0; w < NW; w++) begin : gen_walk
    localparam bit IsScalar = (w >= 4);
    localparam int unsigned Lsb = IsScalar ? tern_isa_pkg::ScalarSlot0Lsb + (w - 4) * tern_isa_pkg::ScalarBits
                                           : tern_isa_pkg::ApSlot0Lsb + w * tern_isa_pkg::ApBits;
    logic [tern_isa_pkg::ApBits-1:0] ap;
    logic [31:0] base;
    if (IsScalar) begin : gen_scalar
      assign ap   = tern_core_pkg::scalar_as_ap(instr_q[Lsb +: tern_isa_pkg::ScalarBits]);
      assign base = sc_base_q[32*(w-4) +: 32];
      assign w_present[w] = instr_q[Lsb + tern_isa_pkg::ScPerPartitionLsb];
    end else begin : gen_ap
      assign ap   = instr_q[Lsb +: tern_isa_pkg::ApBits];
      assign base = ap_base_q[32*w +: 32];
      assign w_present[w] = (ap[tern_isa_pkg::ApPartitionsLsb +: tern_isa_pkg::ApPartitionsWidth] != 8'd0) || (w < 2);
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
      .span_lo_o (lo), .span_hi_o (hi), .start_partition_o (sp), .partitions_o (np),
      .elem_bytes_o (eb), .dense_o (dense_unused),
      .off_valid_o (w_valid[w]), .off_ready_i (w_ready[w]), .off_o (off), .off_last_o (w_last[w]));
    assign w_off[32*w +: 32]      = off;
    assign w_lo[32*w +: 32]       = lo;
    assign w_hi[32*w +: 32]       = hi;
    assign w_elements[64*w +: 64] = el;
    assign w_pstart[8*w +: 8]     = sp;
    assign w_parts[8*w +: 8]      = np;
    assign w_eb[3*w +: 3]         = eb;
  end

  function automatic logic [3:0] ap_dtype(input logic [IB-1:0] instr, input int unsigned slot);
    ap_dtype = instr[tern_isa_pkg::ApSlot0Lsb + slot * tern_isa_pkg::ApBits + tern_isa_pkg::ApDtypeLsb +: tern_isa_pkg::ApDtypeWidth];
  endfunction

  // ---------------------------------------------------------------------------------------
  // The engine and its command.
  // ---------------------------------------------------------------------------------------
  logic [2:0]  reduce_cmd;
  logic [63:0] n_full;
  assign reduce_cmd = instr_q[tern_isa_pkg::ActReduceCmdLsb +: tern_isa_pkg::ActReduceCmdWidth];
  assign n_full     = w_elements[64*1 +: 64];

  logic            cmd_valid, cmd_ready, in_valid, in_ready, out_valid, out_ready, act_busy;
  logic [P*32-1:0] in_data, out_data, acc_data;
  // The per-partition scale, bias and acc_load (fp32 per lane): three registers, not one of
  // 3*P*32 bits (at P = 128 that one would pass Verilator's 8k-bit WIDTHCONCAT limit on reset).
  logic [P*32-1:0] scale_q, scale_d, bias_q, bias_d, acc_load_q, acc_load_d;
  logic [3:0]      check_code, err_code_unused;
  logic            err_valid_unused;

  tern_act #(.Lanes(P)) u_act (
    .clk_i, .rst_ni,
    .cmd_valid_i       (cmd_valid),
    .cmd_ready_o       (cmd_ready),
    .cmd_func_i        (instr_q[tern_isa_pkg::ActFuncLsb +: tern_isa_pkg::ActFuncWidth]),
    .cmd_in_dtype_i    (ap_dtype(instr_q, 1)),
    .cmd_out_dtype_i   (ap_dtype(instr_q, 0)),
    .cmd_round_i       (instr_q[tern_isa_pkg::ActStochasticLsb]),
    // More than 65535 elements is the engine's BadSize, as n = 0 is (golden: ScalarEngine::check).
    .cmd_n_i           ((n_full > 64'(tern_act_pkg::MaxN)) ? 16'd0 : n_full[15:0]),
    .cmd_scale_vec_i   (w_present[WScale]),
    .cmd_scale_i       (instr_q[tern_isa_pkg::ScalarSlot0Lsb + tern_isa_pkg::ScImmLsb +: tern_isa_pkg::ScImmWidth]),
    .cmd_scales_i      (scale_q),
    .cmd_bias_vec_i    (w_present[WBias]),
    .cmd_bias_i        (instr_q[tern_isa_pkg::ScalarSlot1Lsb + tern_isa_pkg::ScImmLsb +: tern_isa_pkg::ScImmWidth]),
    .cmd_biases_i      (bias_q),
    .cmd_reduce_op_i   (instr_q[tern_isa_pkg::ActReduceOpLsb]),
    .cmd_reduce_cmd_i  (reduce_cmd),
    .cmd_acc_load_i    (acc_load_q),
    .in_valid_i        (in_valid),
    .in_ready_o        (in_ready),
    .in_data_i         (in_data),
    .out_valid_o       (out_valid),
    .out_ready_i       (out_ready),
    .out_data_o        (out_data),
    .acc_o             (acc_data),
    .sr_seed_valid_i,
    .sr_seed_i,
    .busy_o            (act_busy),
    .err_valid_o       (err_valid_unused),
    .err_code_o        (err_code_unused),
    .cmd_check_o       (check_code)
  );
  logic unused;
  assign unused = err_valid_unused ^ (^err_code_unused) ^ (^w_checked) ^ (^w_last) ^
                  (^w_off[0 +: 32]) ^ (^w_off[32*WAccOut +: 32]) ^ w_valid[0] ^ w_valid[WAccOut];

  // The first failing check, in the golden model's order (exec_act).
  function automatic logic one_per_lane(input logic [NW*64-1:0] el, input logic [NW*8-1:0] parts,
                                        input int unsigned w, input logic [7:0] n);
    one_per_lane = (parts[8*w +: 8] == n) && (el[64*w +: 64] == 64'd1);
  endfunction

  logic       check_fail;
  logic [3:0] check_err;
  always_comb begin
    check_fail = 1'b1;
    check_err  = ErrOperand;
    if (w_err[0] || w_err[WIn] || w_parts[8*WIn +: 8] != lanes || n_full != w_elements[63:0]) begin
      check_err = ErrOperand;
    end else if ((w_present[WScale] && w_err[WScale]) || (w_present[WBias] && w_err[WBias])) begin
      check_err = ErrOperand;
    end else if (reduce_cmd == tern_act_pkg::RedLoadReduce &&
                 (!w_present[WLoad] || w_err[WLoad] || !one_per_lane(w_elements, w_parts, 32'(WLoad), lanes))) begin
      check_err = ErrOperand;
    end else if (w_present[WAccOut] &&
                 (w_err[WAccOut] || !one_per_lane(w_elements, w_parts, 32'(WAccOut), lanes))) begin
      check_err = ErrOperand;
    end else if (check_code != tern_act_pkg::ActErrNone) begin
      check_err = ErrEngine;
    end else begin
      check_fail = 1'b0;
    end
  end

  logic need_load;
  assign need_load = (reduce_cmd == tern_act_pkg::RedLoadReduce);

  // ---------------------------------------------------------------------------------------
  // The back (tern_adapter_back): the head's results to its ap0, then (acc_out) its
  // accumulators, converted RNE to acc_out's dtype, to its ap3. What it is writing is the
  // front's read-after-write check.
  // ---------------------------------------------------------------------------------------
  logic            ctx_push, ctx_full_unused, ctx_empty, head_acc, bk_done, sp_valid, sp_psum;
  logic [1:0]      ctx_count;
  logic [3:0]      acc_dtype;
  logic [7:0]      sp_pstart, sp_parts;
  logic [31:0]     sp_lo, sp_hi;
  logic [P*32-1:0] acc_conv;
  always_comb begin
    for (int unsigned i = 0; i < P; i++)
      acc_conv[32*i +: 32] = tern_core_pkg::from_fp32(acc_dtype, acc_data[32*i +: 32]);
  end
  tern_adapter_back #(.P(P), .SecondFromOut (1'b0), .SAW (SAW), .PAW (PAW)) u_back (
    .clk_i, .rst_ni,
    .push_i (ctx_push),
    .first_ap_i (instr_q[tern_isa_pkg::ApSlot0Lsb +: tern_isa_pkg::ApBits]), .first_base_i (ap_base_q[31:0]),
    .second_ap_i (instr_q[tern_isa_pkg::ApSlot0Lsb + 3 * tern_isa_pkg::ApBits +: tern_isa_pkg::ApBits]),
    .second_base_i (ap_base_q[32*3 +: 32]), .second_i (w_present[WAccOut]),
    .lanes_i (lanes), .n_i (w_elements[64*WIn +: 64]),
    .full_o (ctx_full_unused), .empty_o (ctx_empty), .count_o (ctx_count),
    .head_second_o (head_acc), .head_second_dtype_o (acc_dtype),
    .span_valid_o (sp_valid), .span_psum_o (sp_psum), .span_pstart_o (sp_pstart),
    .span_parts_o (sp_parts), .span_lo_o (sp_lo), .span_hi_o (sp_hi),
    .out_valid_i (out_valid), .out_ready_o (out_ready), .out_data_i (out_data),
    .engine_busy_i (act_busy), .second_data_i (acc_conv),
    .sbuf_wr_valid_o, .sbuf_wr_gnt_i, .sbuf_wr_addr_o, .sbuf_wr_bytes_o, .sbuf_wr_mask_o,
    .sbuf_wr_data_o, .psum_wr_valid_o, .psum_wr_gnt_i, .psum_wr_addr_o, .psum_wr_bytes_o,
    .psum_wr_mask_o, .psum_wr_data_o,
    .done_o (bk_done));
  logic unused_full;  // the front pushes at most one behind the head (ready_o)
  assign unused_full = ctx_full_unused;

  // The front's reads: ap1, and scale, bias and acc_load where the instruction has them.
  logic [NW-1:0] reads;
  assign reads = {w_present[WBias], w_present[WScale], 1'b0, need_load, 1'b1, 1'b0};
  logic hazard;
  always_comb begin
    // Until the back has started on the head, its span is not known: wait.
    hazard = !ctx_empty && !sp_valid;
    for (int unsigned w = 0; w < NW; w++) begin
      if (reads[w] && !ctx_empty &&
          tern_core_pkg::overlaps(w_psum[w], w_pstart[8*w +: 8], w_parts[8*w +: 8], w_lo[32*w +: 32], w_hi[32*w +: 32],
                   sp_psum, sp_pstart, sp_parts, sp_lo, sp_hi))
        hazard = 1'b1;
    end
  end

  // ---------------------------------------------------------------------------------------
  // Memory reads (the front): one a cycle for ap1 (read ahead into a tern_beat_fifo), one at a
  // time for a scalar or acc_load.
  // ---------------------------------------------------------------------------------------
  logic [2:0]      rd_who_q, rd_who_d;      // walker whose read was granted last cycle
  logic            rd_pending_q, rd_pending_d, rd_psum_q, rd_psum_d;
  logic [P*32-1:0] rd_row, rd_lanes;
  logic            in_room;
  logic [2:0]      scal_done_q, scal_done_d;  // scale, bias, acc_load read
  logic [63:0]     in_count_q, in_count_d;

  assign rd_row = rd_psum_q ? psum_rd_data_i : sbuf_rd_data_i;
  tern_lane_gather #(.P(P)) u_gather (
    .row_i (rd_row), .start_i (w_pstart[8*rd_who_q +: 8]), .count_i (w_parts[8*rd_who_q +: 8]),
    .elem_bytes_i (w_eb[3*rd_who_q +: 3]), .lanes_o (rd_lanes));

  // The returned row as fp32 per lane: scale and bias as per-partition scalars, acc_load by
  // the golden model's convert_to_fp32.
  logic [P*32-1:0] rd_fp32;
  always_comb begin
    logic [3:0] dt;
    if (rd_who_q == WLoad) dt = ap_dtype(instr_q, 2);
    else dt = instr_q[(rd_who_q == WScale ? tern_isa_pkg::ScalarSlot0Lsb : tern_isa_pkg::ScalarSlot1Lsb) +
                      tern_isa_pkg::ScDtypeLsb +: tern_isa_pkg::ScDtypeWidth];
    for (int unsigned i = 0; i < P; i++)
      rd_fp32[32*i +: 32] = (rd_who_q == WLoad) ? tern_core_pkg::to_fp32(dt, rd_lanes[32*i +: 32])
                                                : tern_core_pkg::scalar_value(dt, rd_lanes[32*i +: 32]);
  end

  tern_beat_fifo #(.Width (P*32)) u_in_beats (
    .clk_i, .rst_ni, .clear_i (fr_q == FrStart),
    .push_i (rd_pending_q && rd_who_q == WIn), .push_data_i (rd_lanes),
    .valid_o (in_valid), .data_o (in_data), .pop_i (in_valid && in_ready), .room_o (in_room));

  logic [2:0] want;
  always_comb begin
    want = 3'd7;
    if (fr_q == FrScal) begin
      if (rd_pending_q)                                                 want = 3'd7;
      else if (w_present[WScale] && !scal_done_q[0] && w_valid[WScale]) want = WScale;
      else if (w_present[WBias] && !scal_done_q[1] && w_valid[WBias])   want = WBias;
      else if (need_load && !scal_done_q[2] && w_valid[WLoad])          want = WLoad;
    end else if (fr_q == FrRun) begin
      if (w_valid[WIn] && in_room) want = WIn;
    end
  end

  logic rd_gnt;
  always_comb begin
    sbuf_rd_valid_o = 1'b0;
    psum_rd_valid_o = 1'b0;
    if (want != 3'd7) begin
      sbuf_rd_valid_o = !w_psum[want];
      psum_rd_valid_o = w_psum[want];
    end
  end
  assign sbuf_rd_addr_o = w_off[32*want +: SAW];
  assign psum_rd_addr_o = w_off[32*want +: PAW];
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
  always_comb begin
    fr_d         = fr_q;
    rd_who_d     = rd_who_q;
    rd_pending_d = 1'b0;
    rd_psum_d    = rd_psum_q;
    scale_d      = scale_q;
    bias_d       = bias_q;
    acc_load_d   = acc_load_q;
    scal_done_d  = scal_done_q;
    in_count_d   = in_count_q;
    ahead_d      = ahead_q;
    w_start      = '0;
    cmd_valid    = 1'b0;
    ctx_push     = 1'b0;
    ready_o      = 1'b0;
    fr_done      = 1'b0;
    fr_err       = 1'b0;

    // A read granted last cycle returns its row now (ap1's rows go to the FIFO).
    if (rd_pending_q && rd_who_q != WIn) begin
      unique case (rd_who_q)
        WScale: begin
          scale_d        = rd_fp32;
          scal_done_d[0] = 1'b1;
        end
        WBias: begin
          bias_d         = rd_fp32;
          scal_done_d[1] = 1'b1;
        end
        default: begin
          acc_load_d     = rd_fp32;
          scal_done_d[2] = 1'b1;
        end
      endcase
    end
    if (rd_gnt) begin
      rd_pending_d = 1'b1;
      rd_who_d     = want;
      rd_psum_d    = w_psum[want];
    end
    if (in_valid && in_ready) in_count_d = in_count_q + 64'd1;

    unique case (fr_q)
      FrIdle: begin
        // One instruction at a time behind one that writes acc_out.
        ready_o = ctx_empty || (ctx_count == 2'd1 && !head_acc);
        if (valid_i && ready_o) begin
          ahead_d = 1'b0;
          fr_d    = FrStart;
        end
      end
      FrStart: begin
        w_start     = {w_present[5:4], w_present[3:2], 2'b11};
        scal_done_d = '0;
        in_count_d  = '0;
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
        if ((!w_present[WScale] || scal_done_q[0]) && (!w_present[WBias] || scal_done_q[1]) &&
            (!need_load || scal_done_q[2]) && !rd_pending_q)
          fr_d = FrCmd;
      end
      FrCmd: begin
        cmd_valid = 1'b1;
        if (cmd_ready) begin
          ctx_push = 1'b1;
          ahead_d  = !w_present[WAccOut];
          fr_d     = FrRun;
        end
      end
      FrRun: begin
        if (in_count_q == n_full && !rd_pending_q) fr_d = FrIdle;
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
      scale_q      <= '0;
      bias_q       <= '0;
      acc_load_q   <= '0;
      scal_done_q  <= '0;
      in_count_q   <= '0;
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
      scale_q      <= scale_d;
      bias_q       <= bias_d;
      acc_load_q   <= acc_load_d;
      scal_done_q  <= scal_done_d;
      in_count_q   <= in_count_d;
      ahead_q      <= ahead_d;
    end
  end

  assign busy_o = (fr_q != FrIdle) || !ctx_empty;

`ifndef SYNTHESIS
  // A fault and a completion never meet; nothing is handed over while an instruction that
  // writes acc_out is in flight.
  one_done: assert property (@(posedge clk_i) disable iff (!rst_ni) !(fr_done && bk_done));
  acc_alone: assert property (@(posedge clk_i) disable iff (!rst_ni)
                              (fr_q == FrStart) |-> (ctx_empty || !head_acc));
`endif

endmodule
