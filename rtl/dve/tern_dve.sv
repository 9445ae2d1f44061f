// tern_dve: the Vector Engine (docs/vector-engine.md). One lane per partition; commands arrive
// on a valid/ready port, operand elements stream in on in0/in1 (one element per lane per beat,
// the dtype's bits in the low bits of each 32-bit slot) and results stream out on out (same
// layout). All arithmetic is fp32 (bitwise ops: int32); inputs are converted on entry and
// results on exit (RNE or stochastic rounding). Golden: model/dve (tern::VectorEngine).
//
//   Idle --cmd ok--> Run --last element--> Idle                       (element-wise ops)
//                        \--last element--> Drain --last beat--> Idle  (reductions, bn_*,
//                         \--B elements--> Drain --B beats--> Run     max8, transpose)
//                          \--last element--> Fold --one slot left--> Drain  (add reductions)
//
// The lanes (tern_dve_lane) are one pipeline (docs/vector-engine.md "Pipeline"): a beat (an
// element, or a drain beat that reads the scratch) enters at most once a cycle and leaves on
// out tern_dve_pkg::TEnd + 1 advances later, in order; the output's back-pressure stalls the
// whole pipeline. This block holds the command, the line of beat records beside the pipeline
// (what is at each position), the holds that keep a loop through the scratch in order (an
// add reduction's fold reads two slots at TA and writes one AluLat later, so its next round
// waits), and the micro-program sequencer of bn_stats / bn_aggr (one element at a time).
// Two commands can be in the pipeline: the engine keeps two command contexts and each beat's
// record names its own, so every position reads the command of the beat it holds. A command
// that keeps nothing in the scratch (tern_dve_pkg::streams: the element-wise ones) is accepted
// once the last command's beats have all entered and the older context is free: back to back,
// such commands cost n cycles each and the latency is paid once. Every other command waits
// for an empty pipeline (it clears the scratch). cmd_ready_o looks at cmd_op_i for that. A
// rejected command reports err_valid_o for one cycle with err_code_o and leaves the engine
// idle.
module tern_dve #(
  parameter int unsigned P = tern_cfg_pkg::Partitions,
  localparam int unsigned B = (P < 32) ? P : 32,  // transpose block: min(32, P)
  localparam int unsigned RS = tern_dve_pkg::ReduceSlots,
  localparam int unsigned S = (B > RS) ? B : RS    // scratch words per lane (at least 8)
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

  typedef enum logic [1:0] {StIdle, StRun, StDrain, StFold} state_e;

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

  // n is a multiple of 3: 4 = 1 (mod 3), so n mod 3 is the sum of its base-4 digits mod 3 (a
  // small adder tree instead of a divider).
  function automatic logic multiple_of_3(logic [15:0] n);
    logic [4:0] sum;
    sum = 5'(n[1:0]) + 5'(n[3:2]) + 5'(n[5:4]) + 5'(n[7:6]) + 5'(n[9:8]) + 5'(n[11:10]) +
          5'(n[13:12]) + 5'(n[15:14]);
    multiple_of_3 = (sum == 5'd0) || (sum == 5'd3) || (sum == 5'd6) || (sum == 5'd9) ||
                    (sum == 5'd12) || (sum == 5'd15) || (sum == 5'd18) || (sum == 5'd21) ||
                    (sum == 5'd24);
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
                 (op == tern_dve_pkg::DveOpBnAggr && !multiple_of_3(n)) ||
                 (op == tern_dve_pkg::DveOpMax8 && n < 16'd8)) begin
      check = tern_dve_pkg::DveErrSize;
    end else begin
      check = tern_dve_pkg::DveErrNone;
    end
  endfunction

  // ---------------------------------------------------------------------------------------
  // The command
  // ---------------------------------------------------------------------------------------
  localparam int unsigned TA   = tern_dve_pkg::TA;
  localparam int unsigned TB   = tern_dve_pkg::TB;
  localparam int unsigned TO   = tern_dve_pkg::TO;
  localparam int unsigned TEnd = tern_dve_pkg::TEnd;

  localparam int unsigned CmdW = tern_dve_pkg::CmdW;

  // The two command contexts (what the beats of a command read down the pipeline): the
  // command word, each lane's scalars, imm0 and n as fp32. cur_q is the front's: the command
  // whose beats enter.
  logic [2*CmdW-1:0]   cw_q, cw_d;
  logic [2*P*32-1:0]   s0_q, s0_d, s1_q, s1_d;
  logic [63:0]         imm0_q, imm0_d, nfp_q, nfp_d;
  logic                cur_q, cur_d;

  // The front: the command whose beats enter.
  state_e            state_q, state_d;
  logic [CmdW-1:0]   cw_f;
  logic [3:0]        op_q;
  logic [4:0]        alu0_q, alu1_q;
  logic [15:0]       n_q, n_d, idx_q, idx_d;
  logic [15:0]       rem_q, rem_d;  // n - 1 - idx (mod 2^16): the last element is rem 0
  logic [31:0]       imm2_q, imm2_d;
  logic              accept;           // a command is taken this cycle
  logic              iota_setup_q, iota_setup_d;  // the lanes add iota's start values
  logic [5:0]        col_q, col_d, drain_q, drain_d;
  logic              err_valid_q, err_valid_d;
  logic [2:0]        err_code_q, err_code_d;
  logic [5:0]        hold_q, hold_d;   // advances before the next beat may enter
  logic [31:0]       k_fp_q, k_fp;     // idx as fp32 (registered)
  logic [31:0]       n_fp;             // the command's n as fp32, into its context
  // An add reduction's fold (tern_dve_pkg::ReduceSlots, docs/vector-engine.md): fold_m_q
  // slots hold sums; beat k of a round adds slot k + h into slot k, h = ceil(m / 2).
  logic              add_red;          // the front's command is an add reduction
  logic [4:0]        fold_m_q, fold_m_d, fold_h;
  logic [3:0]        fold_k_q, fold_k_d;

  assign cw_f   = cw_q[32'(cur_q)*CmdW +: CmdW];
  assign op_q   = tern_dve_pkg::cw_op(cw_f);
  assign alu0_q = tern_dve_pkg::cw_alu0(cw_f);
  assign alu1_q = tern_dve_pkg::cw_alu1(cw_f);
  assign add_red = ((op_q == tern_dve_pkg::DveOpTensorReduce) && (alu0_q == tern_dve_pkg::DveAluAdd)) ||
                   ((op_q == tern_dve_pkg::DveOpTensorScalarReduce) && (alu1_q == tern_dve_pkg::DveAluAdd));
  assign fold_h  = (fold_m_q + 5'd1) >> 1;

  // ---------------------------------------------------------------------------------------
  // The line: what is at each position 1 .. TEnd of the pipeline
  // ---------------------------------------------------------------------------------------
  // A beat's record: {ctx (its command's context), gen (it leaves on out), elem, drain, first
  // (the command's first element; an add reduction: the first of its slot), triple (bn_aggr:
  // the first triple's third element; with neither elem nor drain: a fold beat), col[5:0]
  // (an add reduction: the slot written), didx[5:0] (a fold beat: the slot added in)}.
  localparam int unsigned RecW = 18;
  logic [RecW-1:0]      rec_in;
  logic [TEnd*RecW-1:0] line_q, line_d;
  logic                 line_empty;

  function automatic logic [RecW-1:0] rec_at(logic [TEnd*RecW-1:0] line, int unsigned pos);
    rec_at = line[(pos - 1)*RecW +: RecW];
  endfunction
  /* verilator lint_off UNUSEDSIGNAL */  // each reads one field
  function automatic logic rec_ctx(logic [RecW-1:0] r);   rec_ctx   = r[17]; endfunction
  function automatic logic rec_gen(logic [RecW-1:0] r);   rec_gen   = r[16]; endfunction
  function automatic logic rec_elem(logic [RecW-1:0] r);  rec_elem  = r[15]; endfunction
  function automatic logic rec_drain(logic [RecW-1:0] r); rec_drain = r[14]; endfunction
  function automatic logic rec_first(logic [RecW-1:0] r); rec_first = r[13]; endfunction
  function automatic logic rec_fold(logic [RecW-1:0] r);  rec_fold  = r[12] && !r[15] && !r[14]; endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  logic [RecW-1:0] at_1, at_a, at_b, at_o, at_end;
  assign at_1   = rec_at(line_q, 1);
  assign at_a   = rec_at(line_q, TA);
  assign at_b   = rec_at(line_q, TB);
  assign at_o   = rec_at(line_q, TO);
  assign at_end = rec_at(line_q, TEnd);

  // Which contexts have beats in the pipeline.
  logic [1:0] ctx_live;
  always_comb begin
    ctx_live = 2'b00;
    for (int k = 0; k < TEnd; k++) begin
      if (line_q[k*RecW + 15] || line_q[k*RecW + 14]) ctx_live[line_q[k*RecW + 17]] = 1'b1;
    end
  end
  assign line_empty = (ctx_live == 2'b00);

  // The command of the beat at each position the lanes read one.
  function automatic logic [CmdW-1:0] cw_of(logic [2*CmdW-1:0] cw, logic [RecW-1:0] r);
    cw_of = cw[32'(rec_ctx(r))*CmdW +: CmdW];
  endfunction
  logic [CmdW-1:0] cw_1, cw_a, cw_b, cw_o, cw_e;
  assign cw_1 = cw_of(cw_q, at_1);
  assign cw_a = cw_of(cw_q, at_a);
  assign cw_b = cw_of(cw_q, at_b);
  assign cw_o = cw_of(cw_q, at_o);
  assign cw_e = cw_of(cw_q, at_end);

  // How a beat is converted on exit (tern_dve_pkg::Kind*).
  function automatic logic [1:0] kind_of(logic [3:0] op, logic drain, logic dom_int, logic [3:0] dt0,
                                         logic [3:0] dto);
    if (drain) begin
      unique case (op)
        tern_dve_pkg::DveOpTensorReduce, tern_dve_pkg::DveOpMax8: kind_of = tern_dve_pkg::KindFp;
        tern_dve_pkg::DveOpTranspose: kind_of = tern_dve_pkg::KindCopy;
        default: kind_of = tern_dve_pkg::KindWord;
      endcase
    end else begin
      unique case (op)
        tern_dve_pkg::DveOpTensorTensor, tern_dve_pkg::DveOpTensorScalar,
        tern_dve_pkg::DveOpScalarTensorTensor:
          kind_of = dom_int ? tern_dve_pkg::KindInt : tern_dve_pkg::KindFp;
        tern_dve_pkg::DveOpTensorCopy:
          kind_of = (dt0 == dto) ? tern_dve_pkg::KindCopy :
                    (!tern_pkg::is_float_dtype(dt0) && !tern_pkg::is_float_dtype(dto)) ?
                    tern_dve_pkg::KindInt : tern_dve_pkg::KindFp;
        tern_dve_pkg::DveOpIota:
          kind_of = tern_pkg::is_float_dtype(dto) ? tern_dve_pkg::KindFp : tern_dve_pkg::KindInt;
        default: kind_of = tern_dve_pkg::KindFp;
      endcase
    end
  endfunction

  function automatic logic [1:0] kind_at(logic [CmdW-1:0] cw, logic [RecW-1:0] r);
    kind_at = kind_of(tern_dve_pkg::cw_op(cw), rec_drain(r), tern_dve_pkg::cw_dom_int(cw),
                      tern_dve_pkg::cw_dt0(cw), tern_dve_pkg::cw_dto(cw));
  endfunction
  logic [1:0] kind_o, kind_end;
  assign kind_o   = kind_at(cw_o, at_o);
  assign kind_end = kind_at(cw_e, at_end);

  // ---------------------------------------------------------------------------------------
  // The micro-program sequencer (bn_stats, bn_aggr): one micro-op at a time; bn_stats' second
  // program (its M2 update, tern_dve_pkg::vop_at) runs beside the next element's first.
  // ---------------------------------------------------------------------------------------
  logic        ufirst_q, ufirst_d;  // bn_aggr: the program of the first triple
  logic [3:0]  upc, vpc;
  logic [12:0] uop, vop;
  logic        en, kick, bn_busy, uop_issue, uop_capture, uop_commit;
  logic        v_busy, v_start, v_issue, v_capture, v_commit;
  logic [P-1:0] div_done;

  assign kick = en && rec_elem(at_a) &&
                (tern_dve_pkg::cw_op(cw_a) == tern_dve_pkg::DveOpBnStats ||
                 (tern_dve_pkg::cw_op(cw_a) == tern_dve_pkg::DveOpBnAggr && at_a[11:6] == 6'd2));
  assign ufirst_d = kick ? at_a[12] : ufirst_q;

  // The element's program, started by its arrival at ALU A.
  assign uop = tern_dve_pkg::uop_at(op_q, ufirst_q, upc);
  tern_dve_useq u_useq (
    .clk_i, .rst_ni, .en_i (en), .start_i (kick), .hold_i (v_issue), .uop_i (uop),
    .div_done_i (div_done[0]), .pc_o (upc), .busy_o (bn_busy), .issue_o (uop_issue),
    .capture_o (uop_capture), .commit_o (uop_commit));

  // bn_stats' second program: started by the first's commit; it issues first in a cycle both
  // would.
  logic [1:0] unused_vpc;
  assign v_start    = uop_commit && (op_q == tern_dve_pkg::DveOpBnStats);
  assign vop        = tern_dve_pkg::vop_at(vpc[1:0]);
  assign unused_vpc = vpc[3:2];
  tern_dve_useq u_vseq (
    .clk_i, .rst_ni, .en_i (en), .start_i (v_start), .hold_i (1'b0), .uop_i (vop),
    .div_done_i (1'b0), .pc_o (vpc), .busy_o (v_busy), .issue_o (v_issue),
    .capture_o (v_capture), .commit_o (v_commit));

  // ---------------------------------------------------------------------------------------
  // Lanes: the pipeline, per partition. Here what crosses lanes or is the same in all of
  // them: k and n as fp32, the iota values, the transpose drain word (read from the block's
  // other lanes) and the SR draws.
  // ---------------------------------------------------------------------------------------
  logic [P*32-1:0]   lane_out;   // each lane's beat at TEnd, converted
  logic [P*S*32-1:0] lane_scr;   // each lane's scratch
  logic [P*32-1:0]   random;     // each lane's SR draw for the beat at TO
  logic [3:0]        dtx;        // in0's dtype as the lanes convert it
  logic              draw;       // every lane consumes one SR draw this cycle
  logic              seed_load, seed_init_q, clear, clear_q;
  logic              fire;       // a beat enters

  assign k_fp = tern_fp_int_pkg::u16_to_fp32(idx_q);
  assign n_fp = tern_fp_int_pkg::u16_to_fp32(cmd_n_i);
  // in0's dtype as the lanes convert it: iota's values are int32.
  assign dtx = (cmd_op_i == tern_dve_pkg::DveOpIota) ? tern_pkg::DtInt32 : cmd_dt_in0_i;

  for (genvar p = 0; p < P; p++) begin : gen_lane
    logic [31:0] iota, tr_word, acc_init;
    // Iota: the lane's value for the front's next beat (tern_dve_pkg::iota_rows ..
    // iota_value). s0 + p * imm1 as carry-save rows when the command is taken, their halves
    // added the cycle after (so iota's first beat enters a cycle later than another
    // command's), then imm2 added as each beat enters.
    logic [63:0] iota_rows_q, iota_rows_d;
    logic [32:0] iota_q, iota_d;
    assign iota_rows_d = !accept ? iota_rows_q :
        tern_dve_pkg::iota_rows(cmd_scalar_sel_i[0] ? cmd_scalar0_i[p*32 +: 32] : cmd_imm0_i,
                                cmd_imm1_i, p);
    always_comb begin
      iota_d = iota_q;
      if (iota_setup_q) begin
        iota_d = tern_dve_pkg::iota_start(iota_rows_q);
      end else if (fire && op_q == tern_dve_pkg::DveOpIota) begin
        iota_d = tern_dve_pkg::iota_step(iota_q, imm2_q);
      end
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        iota_rows_q <= '0;
        iota_q      <= '0;
      end else begin
        iota_rows_q <= iota_rows_d;
        iota_q      <= iota_d;
      end
    end
    assign iota = tern_dve_pkg::iota_value(iota_q);
    // Transpose: lane p drains word p % B of lane (p / B) * B + drain of its block.
    assign tr_word  = lane_scr[((32'((p / B) * B) + 32'(at_a[5:0])) * S + (p % B)) * 32 +: 32];
    // The scratch is cleared the cycle after the command is taken (clear_q; its first beat
    // reaches the scratch at TA, and a command that clears waits for an empty pipeline), from
    // the command's context: a scan starts from its scalar 0, every other accumulator from +0.
    assign acc_init = (op_q != tern_dve_pkg::DveOpTensorTensorScan) ? 32'd0
                                                                    : s0_q[(32'(cur_q)*P + p)*32 +: 32];

    tern_dve_lane #(.S(S)) u_lane (
      .clk_i, .rst_ni, .en_i (en),
      .cmd1_i       (cw_1),
      .cmda_i       (cw_a),
      .cmdb_i       (cw_b),
      .cmdo_i       (cw_o),
      .cmde_i       (cw_e),
      .s0_i         (s0_q[(32'(rec_ctx(at_a))*P + p)*32 +: 32]),
      .s1_i         (s1_q[(32'(rec_ctx(at_b))*P + p)*32 +: 32]),
      .imm0_i       (imm0_q[32'(rec_ctx(at_a))*32 +: 32]),
      .n_fp_i       (nfp_q[32'(rec_ctx(at_a))*32 +: 32]),
      .k_fp_i       (k_fp_q),
      .uop_stats_i  (op_q == tern_dve_pkg::DveOpBnStats),
      .clear_i      (clear_q),
      .acc_init_i   (acc_init),
      .x_i          ((op_q == tern_dve_pkg::DveOpIota) ? iota : in0_data_i[p*32 +: 32]),
      .y_i          (in1_data_i[p*32 +: 32]),
      .a_elem_i     (rec_elem(at_a)),
      .a_drain_i    (rec_drain(at_a)),
      .a_first_i    (rec_first(at_a)),
      .a_col_i      (at_a[11:6]),
      .a_didx_i     (at_a[5:0]),
      .a_fold_i     (rec_fold(at_a)),
      .tr_word_i    (tr_word),
      .kick_i       (kick),
      .b_elem_i     (rec_elem(at_b)),
      .b_first_i    (rec_first(at_b)),
      .b_fold_i     (rec_fold(at_b)),
      .b_col_i      (at_b[9:6]),
      .o_col_i      (at_o[9:6]),
      .o_elem_i     (rec_elem(at_o)),
      .o_first_i    (rec_first(at_o)),
      .o_kind_i     (kind_o),
      .random_i     (random[p*32 +: 32]),
      .end_kind_i   (kind_end),
      .uop_i        (uop),
      .uop_issue_i  (uop_issue),
      .uop_capture_i(uop_capture),
      .uop_commit_i (uop_commit),
      .uop_first_i  (ufirst_q),
      .vop_i        (vop),
      .v_start_i    (v_start),
      .v_issue_i    (v_issue),
      .v_capture_i  (v_capture),
      .v_commit_i   (v_commit),
      .div_done_o   (div_done[p]),
      .scr_o        (lane_scr[p*S*32 +: S*32]),
      .out_o        (lane_out[p*32 +: 32])
    );

    // The lane's stochastic-rounding generator: one draw per beat converted with SR, at TO.
    logic unused_seeding;  // the generator asserts no draw meets a seed on its way
    tern_sr_rng u_sr_rng (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .lane_i     (16'(p)),
      .seed_load_i(seed_load),
      .seed_i     (sr_seed_valid_i ? sr_seed_i : 32'd0),
      .draw_i     (draw),
      .random_o   (random[p*32 +: 32]),
      .seeding_o  (unused_seeding)
    );
  end

  // After reset the generators are loaded with seed 0 (the golden model's state after
  // construction) in the first cycle: no element can be converted in that cycle.
  assign seed_load = sr_seed_valid_i || seed_init_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      seed_init_q <= 1'b1;
      clear_q     <= 1'b0;
    end else begin
      seed_init_q <= 1'b0;
      clear_q     <= clear;
    end
  end

  // One SR draw per lane for each beat converted from fp32 with SR, as it reaches TO.
  assign draw = en && rec_gen(at_o) && (tern_dve_pkg::cw_round(cw_o) == tern_pkg::RoundSr) &&
                (kind_o == tern_dve_pkg::KindFp);

  // ---------------------------------------------------------------------------------------
  // Control
  // ---------------------------------------------------------------------------------------
  logic        need0, need1, per_elem, may_enter, last_elem;
  logic        out_valid_q, out_valid_d;
  logic [P*32-1:0] out_q, out_d;
  logic [5:0]  drain_len;
  logic [2:0]  cmd_err;

  assign en        = !out_valid_q || out_ready_i;
  // bn_stats' drain reads M2: it waits for the last element's second program.
  assign may_enter = en && (hold_q == 6'd0) && !kick && !bn_busy && !(v_busy && state_q == StDrain) &&
                     !iota_setup_q;

  always_comb begin
    state_d = state_q;
    cw_d = cw_q; s0_d = s0_q; s1_d = s1_q; imm0_d = imm0_q; nfp_d = nfp_q; cur_d = cur_q;
    n_d = n_q; imm2_d = imm2_q;
    accept = 1'b0;
    idx_d = idx_q; col_d = col_q; drain_d = drain_q; rem_d = rem_q;
    fold_m_d = fold_m_q; fold_k_d = fold_k_q;
    hold_d = (en && hold_q != 6'd0) ? hold_q - 6'd1 : hold_q;
    err_valid_d = 1'b0;
    err_code_d = err_code_q;
    // A command that streams may follow the last one's beats while the older context is free;
    // any other waits for an empty pipeline.
    cmd_ready_o = (state_q == StIdle) && !bn_busy && !v_busy &&
                  (line_empty || (tern_dve_pkg::streams(cmd_op_i) && !ctx_live[!cur_q]));
    in0_ready_o = 1'b0;
    in1_ready_o = 1'b0;
    cmd_err = tern_dve_pkg::DveErrNone;
    clear = 1'b0;
    fire = 1'b0;
    rec_in = '0;

    need0    = tern_dve_pkg::uses_in0(op_q);
    need1    = tern_dve_pkg::uses_in1(op_q);
    per_elem = (op_q <= tern_dve_pkg::DveOpScalarTensorTensor) ||
               ((op_q >= tern_dve_pkg::DveOpTensorScalarReduce) && (op_q <= tern_dve_pkg::DveOpIota));
    unique case (op_q)
      tern_dve_pkg::DveOpTensorReduce, tern_dve_pkg::DveOpTensorScalarReduce: drain_len = 6'd1;
      tern_dve_pkg::DveOpBnStats:   drain_len = 6'd3;
      tern_dve_pkg::DveOpBnAggr:    drain_len = 6'd2;
      tern_dve_pkg::DveOpMax8:      drain_len = 6'd8;
      tern_dve_pkg::DveOpTranspose: drain_len = 6'(B);
      default:                      drain_len = 6'd0;
    endcase
    last_elem = rem_q == 16'd0;  // idx_q + 1 == n_q, with no adder in front of the state

    unique case (state_q)
      StIdle: begin
        if (cmd_valid_i && cmd_ready_o) begin
          cmd_err = check(cmd_op_i, cmd_alu0_i, cmd_alu1_i, cmd_dt_in0_i, cmd_dt_in1_i, cmd_dt_out_i, cmd_n_i);
          if (cmd_err != tern_dve_pkg::DveErrNone) begin
            err_valid_d = 1'b1;
            err_code_d  = cmd_err;
          end else begin
            // The command into the other context; the front moves to it.
            accept  = 1'b1;
            state_d = StRun;
            cur_d   = !cur_q;
            cw_d[32'(!cur_q)*CmdW +: CmdW] = tern_dve_pkg::cmd_word(
                cmd_op_i, cmd_alu0_i, cmd_alu1_i, cmd_dt_in0_i, dtx, cmd_dt_in1_i, cmd_dt_out_i,
                int_domain(cmd_op_i, cmd_alu0_i, cmd_alu1_i), cmd_reverse_i, cmd_round_i,
                cmd_saturate_i, cmd_negate_i);
            for (int unsigned p = 0; p < P; p++) begin
              s0_d[(32'(!cur_q)*P + p)*32 +: 32] = cmd_scalar_sel_i[0] ? cmd_scalar0_i[p*32 +: 32] : cmd_imm0_i;
              s1_d[(32'(!cur_q)*P + p)*32 +: 32] = cmd_scalar_sel_i[1] ? cmd_scalar1_i[p*32 +: 32] : cmd_imm1_i;
            end
            imm0_d[32'(!cur_q)*32 +: 32] = cmd_imm0_i;
            nfp_d[32'(!cur_q)*32 +: 32]  = n_fp;
            n_d = cmd_n_i; imm2_d = cmd_imm2_i;
            idx_d = '0; col_d = '0; drain_d = '0; rem_d = cmd_n_i - 16'd1;
            // hold_q is 0 here (assertion idle_unheld), so taking a command leaves it alone.
            // Accumulators start at +0, max8 lists empty (key 0 is below every value); a scan
            // starts from its scalar 0. A command that streams leaves the scratch alone: the
            // last command's drain beats may still read it.
            clear = !tern_dve_pkg::streams(cmd_op_i);
          end
        end
      end

      StRun: begin
        in0_ready_o = need0 && may_enter && (!need1 || in1_valid_i);
        in1_ready_o = need1 && may_enter && (!need0 || in0_valid_i);
        fire = may_enter && (!need0 || in0_valid_i) && (!need1 || in1_valid_i);
        if (fire) begin
          rec_in = {cur_q, per_elem, 1'b1, 1'b0, idx_q == 16'd0, idx_q == 16'd2, col_q, 6'd0};
          if (add_red) rec_in[13:6] = {idx_q < 16'(RS), 1'b0, 2'b00, idx_q[3:0]};
          idx_d = idx_q + 16'd1;
          rem_d = rem_q - 16'd1;
          hold_d = tern_dve_pkg::hold_after(op_q, alu0_q, alu1_q,
                                            last_elem && op_q != tern_dve_pkg::DveOpTranspose);
          if (op_q == tern_dve_pkg::DveOpTranspose) begin
            col_d = col_q + 6'd1;
            if (32'(col_q) + 32'd1 == B) begin
              col_d   = 6'd0;
              state_d = StDrain;
            end
          end else begin
            if (op_q == tern_dve_pkg::DveOpBnAggr) col_d = (col_q == 6'd2) ? 6'd0 : col_q + 6'd1;
            if (last_elem) state_d = (drain_len != 6'd0) ? StDrain : StIdle;
            if (last_elem && add_red && n_q != 16'd1) state_d = StFold;
            fold_m_d = (n_q < 16'(RS)) ? 5'(n_q) : 5'(RS);
            fold_k_d = '0;
          end
        end
      end

      // A round's beats a cycle apart, the next round (or the drain) AluLat after its last.
      StFold: begin
        fire = may_enter;
        if (fire) begin
          rec_in   = {cur_q, 1'b0, 1'b0, 1'b0, 1'b0, 1'b1, 2'b00, fold_k_q, 2'b00, 4'(fold_k_q + 4'(fold_h))};
          fold_k_d = fold_k_q + 4'd1;
          if (5'(fold_k_q) + 5'd1 == (fold_m_q >> 1)) begin
            fold_m_d = fold_h;
            fold_k_d = '0;
            hold_d   = 6'(tern_dve_pkg::AluLat);
            if (fold_h == 5'd1) state_d = StDrain;
          end
        end
      end

      StDrain: begin
        fire = may_enter;
        if (fire) begin
          rec_in  = {cur_q, 1'b1, 1'b0, 1'b1, 1'b0, 1'b0, 6'd0, drain_q};
          drain_d = drain_q + 6'd1;
          hold_d  = 6'd0;
          if (drain_q + 6'd1 == drain_len) begin
            drain_d = 6'd0;
            state_d = (op_q == tern_dve_pkg::DveOpTranspose && idx_q != n_q) ? StRun : StIdle;
          end
        end
      end

      default: state_d = StIdle;
    endcase
  end

  assign iota_setup_d = accept && (cmd_op_i == tern_dve_pkg::DveOpIota);

  assign line_d = en ? {line_q[(TEnd-1)*RecW-1:0], rec_in} : line_q;

  // The result register: the beat at TEnd, converted.
  assign out_valid_d = en ? rec_gen(at_end) : out_valid_q;
  assign out_d       = en ? lane_out : out_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      cw_q <= '0; s0_q <= '0; s1_q <= '0; imm0_q <= '0; nfp_q <= '0; cur_q <= 1'b0;
      n_q <= '0; imm2_q <= '0; iota_setup_q <= 1'b0;
      idx_q <= '0; col_q <= '0; drain_q <= '0; rem_q <= '0;
      fold_m_q <= '0; fold_k_q <= '0;
      hold_q <= '0;
      k_fp_q <= '0;
      line_q <= '0;
      ufirst_q <= 1'b0;
      out_valid_q <= 1'b0;
      out_q <= '0;
      err_valid_q <= 1'b0;
      err_code_q <= '0;
    end else begin
      state_q <= state_d;
      cw_q <= cw_d; s0_q <= s0_d; s1_q <= s1_d; imm0_q <= imm0_d; nfp_q <= nfp_d; cur_q <= cur_d;
      n_q <= n_d; imm2_q <= imm2_d; iota_setup_q <= iota_setup_d;
      idx_q <= idx_d; col_q <= col_d; drain_q <= drain_d; rem_q <= rem_d;
      fold_m_q <= fold_m_d; fold_k_q <= fold_k_d;
      hold_q <= hold_d;
      k_fp_q <= k_fp;
      line_q <= line_d;
      ufirst_q <= ufirst_d;
      out_valid_q <= out_valid_d;
      out_q <= out_d;
      err_valid_q <= err_valid_d;
      err_code_q <= err_code_d;
    end
  end

  assign out_valid_o = out_valid_q;
  assign out_data_o  = out_q;
  assign busy_o      = (state_q != StIdle) || !line_empty || bn_busy || v_busy || out_valid_q;
  assign err_valid_o = err_valid_q;
  assign err_code_o  = err_code_q;
  assign cmd_check_o = check(cmd_op_i, cmd_alu0_i, cmd_alu1_i, cmd_dt_in0_i, cmd_dt_in1_i,
                             cmd_dt_out_i, cmd_n_i);

`ifndef SYNTHESIS
  // A micro-program runs with no element between entry and ALU A; every lane's divider ends
  // in the same cycle; a beat leaves only when it entered; a context is free when taken.
  uop_alone: assert property (@(posedge clk_i) disable iff (!rst_ni)
                              bn_busy |-> !rec_elem(at_a));
  div_lockstep: assert property (@(posedge clk_i) disable iff (!rst_ni)
                                 div_done == '0 || div_done == '1);
  issue_clear: assert property (@(posedge clk_i) disable iff (!rst_ni)
                                uop_issue |-> !rec_elem(at_a));
  ctx_free: assert property (@(posedge clk_i) disable iff (!rst_ni)
                             (cur_d != cur_q) |-> !ctx_live[cur_d]);
  // Every command's last beat leaves no hold behind it (the drain beats and the element-wise
  // commands' last elements hold nothing).
  idle_unheld: assert property (@(posedge clk_i) disable iff (!rst_ni)
                                (state_q == StIdle) |-> (hold_q == 6'd0));
  // The count down to the last element follows the element index.
  rem_tracks_idx: assert property (@(posedge clk_i) disable iff (!rst_ni)
                                   (state_q != StIdle) |-> (rem_q == n_q - 16'd1 - idx_q));

  // An add reduction: a beat never reads a slot that a beat further on has yet to write. Fold
  // beats read at TA and write at TB; tensor_reduce's elements read at TA and write at TB (the
  // first of a slot at TA + 1), tensor_scalar_reduce's read at TB and write at TO (the first
  // of a slot at TB).
  function automatic logic slot_pending(logic [TEnd*RecW-1:0] line, logic [3:0] slot,
                                        int unsigned from, logic loop_b);  // loop_b: the sums at ALU B
    logic [RecW-1:0] r;
    logic            writes;
    slot_pending = 1'b0;
    for (int unsigned q = from + 1; q <= TO; q++) begin
      r = rec_at(line, q);
      writes = rec_fold(r) ? (q <= TB) :
               rec_first(r) ? (q <= (loop_b ? TB : TA + 1)) : (q <= (loop_b ? TO : TB));
      if ((rec_elem(r) || rec_fold(r)) && writes && r[9:6] == slot) slot_pending = 1'b1;
    end
  endfunction
  logic a_red, a_tsr, a_reads_col, b_tsr;
  assign a_tsr = tern_dve_pkg::cw_op(cw_a) == tern_dve_pkg::DveOpTensorScalarReduce &&
                 tern_dve_pkg::cw_alu1(cw_a) == tern_dve_pkg::DveAluAdd;
  assign a_red = a_tsr || (tern_dve_pkg::cw_op(cw_a) == tern_dve_pkg::DveOpTensorReduce &&
                           tern_dve_pkg::cw_alu0(cw_a) == tern_dve_pkg::DveAluAdd);
  assign a_reads_col = (rec_elem(at_a) && !rec_first(at_a) && !a_tsr) || rec_fold(at_a) || rec_drain(at_a);
  assign b_tsr = tern_dve_pkg::cw_op(cw_b) == tern_dve_pkg::DveOpTensorScalarReduce &&
                 tern_dve_pkg::cw_alu1(cw_b) == tern_dve_pkg::DveAluAdd;
  slot_read_col: assert property (@(posedge clk_i) disable iff (!rst_ni)
                                  (a_red && a_reads_col) |-> !slot_pending(line_q, at_a[9:6], TA, a_tsr));
  slot_read_fold: assert property (@(posedge clk_i) disable iff (!rst_ni)
                                   (a_red && rec_fold(at_a)) |-> !slot_pending(line_q, at_a[3:0], TA, a_tsr));
  slot_read_b: assert property (@(posedge clk_i) disable iff (!rst_ni)
                                (b_tsr && rec_elem(at_b) && !rec_first(at_b)) |->
                                !slot_pending(line_q, at_b[9:6], TB, 1'b1));
`endif

endmodule
