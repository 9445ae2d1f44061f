// tern_dve: the Vector Engine (docs/vector-engine.md). One lane per partition; commands arrive
// on a valid/ready port, operand elements stream in on in0/in1 (one element per lane per beat,
// the dtype's bits in the low bits of each 32-bit slot) and results stream out on out (same
// layout). All arithmetic is fp32 (bitwise ops: int32); inputs are converted on entry and
// results on exit (RNE or stochastic rounding). Golden: model/dve (tern::VectorEngine).
//
//   Idle --cmd ok--> Run --last element--> Idle                       (element-wise ops)
//                        \--last element--> Drain --last beat--> Idle  (reductions, bn_*,
//                         \--B elements--> Drain --B beats--> Run     max8, transpose)
//
// Element-wise instructions consume one beat of each input and produce one output beat per
// cycle; the output is registered (out_valid_o high the cycle after the inputs were taken).
// A rejected command reports err_valid_o for one cycle with err_code_o and leaves the engine
// idle. The per-lane state (accumulators, max8 lists, transpose blocks) is one flat scratch
// vector of S words per lane, written as a _d/_q pair. Each lane's arithmetic is a
// tern_dve_lane (one module, so synthesis elaborates it once for all lanes) and each lane's
// stochastic-rounding generator a tern_sr_rng.
module tern_dve #(
  parameter int unsigned P = tern_cfg_pkg::Partitions,
  localparam int unsigned B = (P < 32) ? P : 32,  // transpose block: min(32, P)
  localparam int unsigned S = (B > 8) ? B : 8      // scratch words per lane
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  // command
  input  logic            cmd_valid_i,
  output logic            cmd_ready_o,
  input  logic [3:0]      cmd_op_i,          // tern_dve_pkg::DveOp*
  input  logic [4:0]      cmd_alu0_i,        // tern_dve_pkg::DveAlu*
  input  logic [4:0]      cmd_alu1_i,
  input  logic [3:0]      cmd_dt_in0_i,      // tern_pkg::Dt*
  input  logic [3:0]      cmd_dt_in1_i,
  input  logic [3:0]      cmd_dt_out_i,
  input  logic            cmd_round_i,       // tern_pkg::RoundRne / RoundSr
  input  logic            cmd_saturate_i,    // float outputs: overflow to +-max finite
  input  logic [15:0]     cmd_n_i,           // free size: elements per lane
  input  logic [31:0]     cmd_imm0_i,
  input  logic [31:0]     cmd_imm1_i,
  input  logic [31:0]     cmd_imm2_i,
  input  logic [1:0]      cmd_scalar_sel_i,  // bit k: scalar k from cmd_scalar<k>_i, else imm<k>
  input  logic [1:0]      cmd_reverse_i,     // bit k: op k takes its operands swapped
  input  logic            cmd_negate_i,      // reductions: negate the result
  input  logic [P*32-1:0] cmd_scalar0_i,     // per-partition scalars
  input  logic [P*32-1:0] cmd_scalar1_i,
  // operand streams
  input  logic            in0_valid_i,
  output logic            in0_ready_o,
  input  logic [P*32-1:0] in0_data_i,
  input  logic            in1_valid_i,
  output logic            in1_ready_o,
  input  logic [P*32-1:0] in1_data_i,
  // result stream
  output logic            out_valid_o,
  input  logic            out_ready_i,
  output logic [P*32-1:0] out_data_o,
  // status
  output logic            busy_o,
  output logic            err_valid_o,
  output logic [2:0]      err_code_o,
  // the code the presented command would be rejected with (DveErrNone: it would be accepted),
  // so a caller can check a command before committing operand streams to it
  output logic [2:0]      cmd_check_o,
  // stochastic rounding: (re)seed every lane's generator
  input  logic            sr_seed_valid_i,
  input  logic [31:0]     sr_seed_i
);

  localparam logic [1:0] StIdle  = 2'd0;
  localparam logic [1:0] StRun   = 2'd1;
  localparam logic [1:0] StDrain = 2'd2;

  // ---------------------------------------------------------------------------------------
  // Command checks (docs/vector-engine.md, "Bad commands"), in the order of the codes' checks.
  // ---------------------------------------------------------------------------------------
  function automatic logic uses_alu0(logic [3:0] op);
    uses_alu0 = (op <= tern_dve_pkg::DveOpTensorTensorScan);
  endfunction

  function automatic logic uses_alu1(logic [3:0] op);
    uses_alu1 = (op == tern_dve_pkg::DveOpTensorScalar) || (op == tern_dve_pkg::DveOpScalarTensorTensor) ||
                (op == tern_dve_pkg::DveOpTensorScalarReduce) || (op == tern_dve_pkg::DveOpTensorTensorScan);
  endfunction

  // The command works on int32 values: one of its ALU ops is bitwise.
  function automatic logic int_domain(logic [3:0] op, logic [4:0] alu0, logic [4:0] alu1);
    int_domain = (uses_alu0(op) && tern_dve_pkg::alu_is_bitwise(alu0)) ||
                 (uses_alu1(op) && tern_dve_pkg::alu_is_bitwise(alu1));
  endfunction

  function automatic logic [2:0] check(logic [3:0] op, logic [4:0] alu0, logic [4:0] alu1,
                                       logic [3:0] dt0, logic [3:0] dt1, logic [3:0] dto,
                                       logic [15:0] n);
    logic bw0, bw1, u_in0, u_in1, u_alu0, u_alu1, bad_alu, bad_dt, is_int, mix, float_dt;
    // Each helper called once (synthesis inlines every call).
    bw0    = tern_dve_pkg::alu_is_bitwise(alu0);
    bw1    = tern_dve_pkg::alu_is_bitwise(alu1);
    u_in0  = tern_dve_pkg::uses_in0(op);
    u_in1  = tern_dve_pkg::uses_in1(op);
    u_alu0 = uses_alu0(op);
    u_alu1 = uses_alu1(op);
    bad_alu = (u_alu0 && alu0 > tern_dve_pkg::DveAluLast) ||
              (u_alu1 && alu1 > tern_dve_pkg::DveAluLast);
    unique case (op)
      tern_dve_pkg::DveOpTensorReduce:       bad_alu = bad_alu || !tern_dve_pkg::alu_is_reduce(alu0);
      tern_dve_pkg::DveOpTensorScalarReduce: bad_alu = bad_alu || bw0 || !tern_dve_pkg::alu_is_reduce(alu1);
      tern_dve_pkg::DveOpTensorTensorScan:   bad_alu = bad_alu || bw0 || bw1;
      default: ;
    endcase
    bad_dt = (u_in0 && dt0 > tern_pkg::DtInt32) || (u_in1 && dt1 > tern_pkg::DtInt32) ||
             (dto > tern_pkg::DtInt32);
    unique case (op)
      tern_dve_pkg::DveOpTranspose: bad_dt = bad_dt || (dt0 != dto);
      tern_dve_pkg::DveOpBnStats:   bad_dt = bad_dt || (dto != tern_pkg::DtFp32);
      tern_dve_pkg::DveOpBnAggr:    bad_dt = bad_dt || (dto != tern_pkg::DtFp32) || (dt0 != tern_pkg::DtFp32);
      default: ;
    endcase
    mix = ((op == tern_dve_pkg::DveOpTensorScalar) || (op == tern_dve_pkg::DveOpScalarTensorTensor)) &&
          ((bw0 && !bw1 && alu1 != tern_dve_pkg::DveAluBypass) ||
           (bw1 && !bw0 && alu0 != tern_dve_pkg::DveAluBypass));
    is_int   = (u_alu0 && bw0) || (u_alu1 && bw1);  // int_domain
    float_dt = (u_in0 && tern_pkg::is_float_dtype(dt0)) ||
               (u_in1 && tern_pkg::is_float_dtype(dt1)) || tern_pkg::is_float_dtype(dto);
    if (op > tern_dve_pkg::DveOpTranspose) begin
      check = tern_dve_pkg::DveErrOpcode;
    end else if (bad_alu) begin
      check = tern_dve_pkg::DveErrAluOp;
    end else if (bad_dt) begin
      check = tern_dve_pkg::DveErrDtype;
    end else if (mix) begin
      check = tern_dve_pkg::DveErrAluMix;
    end else if (is_int && float_dt) begin
      check = tern_dve_pkg::DveErrBitwiseFloat;
    end else if (n == 16'd0 || 32'(n) > tern_dve_pkg::DveMaxN ||
                 (op == tern_dve_pkg::DveOpTranspose && (32'(n) % B) != 0) ||
                 (op == tern_dve_pkg::DveOpBnAggr && (n % 16'd3) != 16'd0) ||
                 (op == tern_dve_pkg::DveOpMax8 && n < 16'd8)) begin
      check = tern_dve_pkg::DveErrSize;
    end else begin
      check = tern_dve_pkg::DveErrNone;
    end
  endfunction

  // ---------------------------------------------------------------------------------------
  // State
  // ---------------------------------------------------------------------------------------
  logic [1:0]        state_q, state_d;
  logic [3:0]        op_q, op_d;
  logic [4:0]        alu0_q, alu0_d, alu1_q, alu1_d;
  logic [3:0]        dt0_q, dt0_d, dt1_q, dt1_d, dto_q, dto_d;
  logic              round_q, round_d, sat_q, sat_d, neg_q, neg_d, dom_int_q, dom_int_d;
  logic [1:0]        ssel_q, ssel_d, rev_q, rev_d;
  logic [15:0]       n_q, n_d, idx_q, idx_d;
  logic [31:0]       imm0_q, imm0_d, imm1_q, imm1_d, imm2_q, imm2_d;
  logic [5:0]        col_q, col_d, drain_q, drain_d;
  logic [P*32-1:0]   scal0_q, scal0_d, scal1_q, scal1_d;
  logic [P*S*32-1:0] scr_q, scr_d;
  logic              out_valid_q, out_valid_d;
  logic [P*32-1:0]   out_q, out_d;
  logic              err_valid_q, err_valid_d;
  logic [2:0]        err_code_q, err_code_d;

  // ---------------------------------------------------------------------------------------
  // Lane datapath: one tern_dve_lane per lane computes its candidate result and next scratch
  // every cycle; the control below decides whether they are taken. Here only what crosses
  // lanes or is the same in all of them: the conversion kind, k and n as fp32, the iota
  // terms, the transpose drain word (read from the block's other lanes) and the SR draws.
  // ---------------------------------------------------------------------------------------
  logic [P*32-1:0]   lane_out;       // the lane's result beat, converted to the out dtype
  logic [P*S*32-1:0] lane_scr;       // the scratch after taking this cycle's elements
  logic [P*32-1:0]   random;         // each lane's SR draw for this cycle's element
  logic [1:0]        kind;           // how this cycle's beat is converted
  logic [31:0]       k_fp, n_fp;     // idx + 1 and n as fp32
  logic [31:0]       iota_step;      // imm2 * idx
  logic              draw;           // every lane consumes one SR draw this cycle
  logic              seed_load, seed_init_q;

  always_comb begin
    unique case (state_q)
      StDrain: begin
        unique case (op_q)
          tern_dve_pkg::DveOpTensorReduce, tern_dve_pkg::DveOpMax8: kind = tern_dve_pkg::KindFp;
          tern_dve_pkg::DveOpTranspose: kind = tern_dve_pkg::KindCopy;
          default: kind = tern_dve_pkg::KindWord;
        endcase
      end
      default: begin
        unique case (op_q)
          tern_dve_pkg::DveOpTensorTensor, tern_dve_pkg::DveOpTensorScalar,
          tern_dve_pkg::DveOpScalarTensorTensor:
            kind = dom_int_q ? tern_dve_pkg::KindInt : tern_dve_pkg::KindFp;
          tern_dve_pkg::DveOpTensorCopy:
            kind = (dt0_q == dto_q) ? tern_dve_pkg::KindCopy :
                   (!tern_pkg::is_float_dtype(dt0_q) && !tern_pkg::is_float_dtype(dto_q)) ?
                   tern_dve_pkg::KindInt : tern_dve_pkg::KindFp;
          tern_dve_pkg::DveOpIota: kind = tern_dve_pkg::KindInt;
          default: kind = tern_dve_pkg::KindFp;
        endcase
      end
    endcase
  end

  tern_int32_to_fp32 u_k_fp (.int_i({16'd0, idx_q} + 32'd1), .fp32_o(k_fp));
  tern_int32_to_fp32 u_n_fp (.int_i({16'd0, n_q}), .fp32_o(n_fp));
  assign iota_step = imm2_q * {16'd0, idx_q};

  for (genvar p = 0; p < P; p++) begin : gen_lane
    logic [31:0] s0, s1, iota, tr_word;
    assign s0      = ssel_q[0] ? scal0_q[p*32 +: 32] : imm0_q;
    assign s1      = ssel_q[1] ? scal1_q[p*32 +: 32] : imm1_q;
    assign iota    = s0 + 32'(p) * imm1_q + iota_step;
    // Transpose: lane p drains word p % B of lane (p / B) * B + drain of its block.
    assign tr_word = scr_q[((32'((p / B) * B) + 32'(drain_q)) * S + (p % B)) * 32 +: 32];

    tern_dve_lane #(.S(S)) u_lane (
      .op_i       (op_q),
      .alu0_i     (alu0_q),
      .alu1_i     (alu1_q),
      .dt0_i      (dt0_q),
      .dt1_i      (dt1_q),
      .dto_i      (dto_q),
      .dom_int_i  (dom_int_q),
      .rev_i      (rev_q),
      .round_i    (round_q),
      .sat_i      (sat_q),
      .neg_i      (neg_q),
      .drain_i    (state_q == StDrain),
      .kind_i     (kind),
      .idx_i      (idx_q),
      .col_i      (col_q),
      .drain_idx_i(drain_q),
      .k_fp_i     (k_fp),
      .n_fp_i     (n_fp),
      .imm0_i     (imm0_q),
      .x_i        (in0_data_i[p*32 +: 32]),
      .y_i        (in1_data_i[p*32 +: 32]),
      .s0_i       (s0),
      .s1_i       (s1),
      .iota_i     (iota),
      .tr_word_i  (tr_word),
      .random_i   (random[p*32 +: 32]),
      .scr_i      (scr_q[p*S*32 +: S*32]),
      .scr_o      (lane_scr[p*S*32 +: S*32]),
      .out_o      (lane_out[p*32 +: 32])
    );

    // The lane's stochastic-rounding generator: one draw per element converted with SR.
    tern_sr_rng u_sr_rng (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .lane_i     (16'(p)),
      .seed_load_i(seed_load),
      .seed_i     (sr_seed_valid_i ? sr_seed_i : 32'd0),
      .draw_i     (draw),
      .random_o   (random[p*32 +: 32])
    );
  end

  // After reset the generators are loaded with seed 0 (the golden model's state after
  // construction) in the first cycle: no element can be converted in that cycle.
  assign seed_load = sr_seed_valid_i || seed_init_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      seed_init_q <= 1'b1;
    end else begin
      seed_init_q <= 1'b0;
    end
  end

  // ---------------------------------------------------------------------------------------
  // Control
  // ---------------------------------------------------------------------------------------
  logic       need0, need1, per_elem, out_free, fire, gen, draws;
  logic [5:0] drain_len;
  logic [2:0] cmd_err;

  always_comb begin
    state_d = state_q;
    op_d = op_q; alu0_d = alu0_q; alu1_d = alu1_q;
    dt0_d = dt0_q; dt1_d = dt1_q; dto_d = dto_q;
    round_d = round_q; sat_d = sat_q; neg_d = neg_q; dom_int_d = dom_int_q;
    ssel_d = ssel_q; rev_d = rev_q; n_d = n_q;
    imm0_d = imm0_q; imm1_d = imm1_q; imm2_d = imm2_q;
    scal0_d = scal0_q; scal1_d = scal1_q;
    idx_d = idx_q; col_d = col_q; drain_d = drain_q;
    scr_d = scr_q;
    err_valid_d = 1'b0;
    err_code_d = err_code_q;
    cmd_ready_o = (state_q == StIdle);
    in0_ready_o = 1'b0;
    in1_ready_o = 1'b0;
    cmd_err = tern_dve_pkg::DveErrNone;
    gen = 1'b0;

    need0    = tern_dve_pkg::uses_in0(op_q);
    need1    = tern_dve_pkg::uses_in1(op_q);
    per_elem = (op_q <= tern_dve_pkg::DveOpScalarTensorTensor) ||
               ((op_q >= tern_dve_pkg::DveOpTensorScalarReduce) && (op_q <= tern_dve_pkg::DveOpIota));
    out_free = !out_valid_q || out_ready_i;
    unique case (op_q)
      tern_dve_pkg::DveOpTensorReduce, tern_dve_pkg::DveOpTensorScalarReduce: drain_len = 6'd1;
      tern_dve_pkg::DveOpBnStats:   drain_len = 6'd3;
      tern_dve_pkg::DveOpBnAggr:    drain_len = 6'd2;
      tern_dve_pkg::DveOpMax8:      drain_len = 6'd8;
      tern_dve_pkg::DveOpTranspose: drain_len = 6'(B);
      default:                      drain_len = 6'd0;
    endcase
    fire = 1'b0;

    unique case (state_q)
      StIdle: begin
        if (cmd_valid_i) begin
          cmd_err = check(cmd_op_i, cmd_alu0_i, cmd_alu1_i, cmd_dt_in0_i, cmd_dt_in1_i, cmd_dt_out_i, cmd_n_i);
          if (cmd_err != tern_dve_pkg::DveErrNone) begin
            err_valid_d = 1'b1;
            err_code_d  = cmd_err;
          end else begin
            state_d = StRun;
            op_d = cmd_op_i; alu0_d = cmd_alu0_i; alu1_d = cmd_alu1_i;
            dt0_d = cmd_dt_in0_i; dt1_d = cmd_dt_in1_i; dto_d = cmd_dt_out_i;
            round_d = cmd_round_i; sat_d = cmd_saturate_i; neg_d = cmd_negate_i;
            dom_int_d = int_domain(cmd_op_i, cmd_alu0_i, cmd_alu1_i);
            ssel_d = cmd_scalar_sel_i; rev_d = cmd_reverse_i; n_d = cmd_n_i;
            imm0_d = cmd_imm0_i; imm1_d = cmd_imm1_i; imm2_d = cmd_imm2_i;
            scal0_d = cmd_scalar0_i; scal1_d = cmd_scalar1_i;
            idx_d = '0; col_d = '0; drain_d = '0;
            // Accumulators start at +0, max8 lists empty (key 0 is below every value); a scan
            // starts from its scalar 0.
            /* verilator lint_off WIDTHCONCAT */  // the scratch is P*S words: 32 Kbit on small
            scr_d = '0;
            /* verilator lint_on WIDTHCONCAT */
            if (cmd_op_i == tern_dve_pkg::DveOpTensorTensorScan) begin
              for (int p = 0; p < P; p++) begin
                scr_d[p*S*32 +: 32] = cmd_scalar_sel_i[0] ? cmd_scalar0_i[p*32 +: 32] : cmd_imm0_i;
              end
            end
          end
        end
      end

      StRun: begin
        in0_ready_o = need0 && (!need1 || in1_valid_i) && (!per_elem || out_free);
        in1_ready_o = need1 && (!need0 || in0_valid_i) && (!per_elem || out_free);
        fire = (!need0 || in0_valid_i) && (!need1 || in1_valid_i) && (!per_elem || out_free);
        if (fire) begin
          gen   = per_elem;
          scr_d = lane_scr;
          idx_d = idx_q + 16'd1;
          if (op_q == tern_dve_pkg::DveOpTranspose) begin
            col_d = col_q + 6'd1;
            if (32'(col_q) + 32'd1 == B) begin
              col_d   = 6'd0;
              state_d = StDrain;
            end
          end else begin
            if (op_q == tern_dve_pkg::DveOpBnAggr) col_d = (col_q == 6'd2) ? 6'd0 : col_q + 6'd1;
            if (idx_q + 16'd1 == n_q) state_d = (drain_len != 6'd0) ? StDrain : StIdle;
          end
        end
      end

      StDrain: begin
        if (out_free) begin
          gen     = 1'b1;
          drain_d = drain_q + 6'd1;
          if (drain_q + 6'd1 == drain_len) begin
            drain_d = 6'd0;
            state_d = (op_q == tern_dve_pkg::DveOpTranspose && idx_q != n_q) ? StRun : StIdle;
          end
        end
      end

      default: state_d = StIdle;
    endcase

  end

  // The result beat. One SR draw per lane for each element converted from fp32 (or from int32
  // to a float) with SR.
  assign draws = (round_q == tern_pkg::RoundSr) &&
                 ((kind == tern_dve_pkg::KindFp) ||
                  (kind == tern_dve_pkg::KindInt && tern_pkg::is_float_dtype(dto_q)));
  assign draw  = gen && draws;
  always_comb begin
    out_valid_d = out_valid_q && !out_ready_i;
    out_d       = out_q;
    if (gen) begin
      out_valid_d = 1'b1;
      out_d       = lane_out;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      op_q <= '0; alu0_q <= '0; alu1_q <= '0;
      dt0_q <= '0; dt1_q <= '0; dto_q <= '0;
      round_q <= 1'b0; sat_q <= 1'b0; neg_q <= 1'b0; dom_int_q <= 1'b0;
      ssel_q <= '0; rev_q <= '0; n_q <= '0;
      imm0_q <= '0; imm1_q <= '0; imm2_q <= '0;
      scal0_q <= '0; scal1_q <= '0;
      idx_q <= '0; col_q <= '0; drain_q <= '0;
      /* verilator lint_off WIDTHCONCAT */  // the scratch is P*S words: 32 Kbit on small
      scr_q <= '0;
      /* verilator lint_on WIDTHCONCAT */
      out_valid_q <= 1'b0;
      out_q <= '0;
      err_valid_q <= 1'b0;
      err_code_q <= '0;
    end else begin
      state_q <= state_d;
      op_q <= op_d; alu0_q <= alu0_d; alu1_q <= alu1_d;
      dt0_q <= dt0_d; dt1_q <= dt1_d; dto_q <= dto_d;
      round_q <= round_d; sat_q <= sat_d; neg_q <= neg_d; dom_int_q <= dom_int_d;
      ssel_q <= ssel_d; rev_q <= rev_d; n_q <= n_d;
      imm0_q <= imm0_d; imm1_q <= imm1_d; imm2_q <= imm2_d;
      scal0_q <= scal0_d; scal1_q <= scal1_d;
      idx_q <= idx_d; col_q <= col_d; drain_q <= drain_d;
      scr_q <= scr_d;
      out_valid_q <= out_valid_d;
      out_q <= out_d;
      err_valid_q <= err_valid_d;
      err_code_q <= err_code_d;
    end
  end

  assign out_valid_o = out_valid_q;
  assign out_data_o  = out_q;
  assign busy_o      = (state_q != StIdle) || out_valid_q;
  assign err_valid_o = err_valid_q;
  assign err_code_o  = err_code_q;
  assign cmd_check_o = check(cmd_op_i, cmd_alu0_i, cmd_alu1_i, cmd_dt_in0_i, cmd_dt_in1_i,
                             cmd_dt_out_i, cmd_n_i);

endmodule
