// tern_dve_lane: one lane of the Vector Engine (docs/vector-engine.md "Pipeline"): the input
// conversions, ALU A, ALU B and the output conversion as one pipeline, the lane's scratch
// (accumulators, max8 list, transpose block, bn_* statistics) and the micro-program datapath of
// bn_stats / bn_aggr (ALU A, an iterative divider and four temporaries). tern_dve owns the
// control: which beat is at which position (the *_i flags of positions TA, TB and TO), the
// holds that keep a loop through the scratch in order, and the micro-program's sequence. All
// lanes do the same thing in the same cycle. Positions and latencies: tern_dve_pkg (TA, TB,
// TO, TEnd). Golden: model/dve (tern::VectorEngine), per partition.
module tern_dve_lane #(
  parameter int unsigned S = 16,  // scratch words (at least ReduceSlots, and 8: the max8 list)
  localparam int unsigned CmdW = tern_dve_pkg::CmdW
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          en_i,          // the pipeline advances
  // The command of the beat at each position (tern_dve_pkg::cmd_word; two commands can be in
  // the pipeline at once): position 1 (the entry register), TA, TB, TO and TEnd. Each position
  // reads only the fields it needs.
  /* verilator lint_off UNUSEDSIGNAL */
  input  logic [CmdW-1:0] cmd1_i,
  input  logic [CmdW-1:0] cmda_i,
  input  logic [CmdW-1:0] cmdb_i,
  input  logic [CmdW-1:0] cmdo_i,
  input  logic [CmdW-1:0] cmde_i,
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic [31:0]   s0_i,          // scalar 0 of the beat at TA (imm0 or the lane's scalar)
  input  logic [31:0]   s1_i,          // scalar 1 of the beat at TB
  input  logic [31:0]   imm0_i,        // imm0 of the beat at TA
  input  logic [31:0]   n_fp_i,        // n as fp32, of the beat at TA
  input  logic [31:0]   k_fp_i,        // the micro-program's element count k as fp32
  input  logic          uop_stats_i,   // the micro-program is bn_stats' (else bn_aggr's)
  input  logic          clear_i,       // a command starts: the scratch to 0, word 0 to acc_init_i
  input  logic [31:0]   acc_init_i,
  // position 0: the beat entering (for iota, x_i is its int32 value)
  input  logic [31:0]   x_i,
  input  logic [31:0]   y_i,
  // position TA
  input  logic          a_elem_i,      // an element is there
  input  logic          a_drain_i,     // a drain beat is there
  input  logic          a_first_i,     // the element is the command's first
  input  logic [5:0]    a_col_i,       // bn_aggr: triple position; transpose: block column
  input  logic [5:0]    a_didx_i,      // drain beat; a fold beat: the slot it adds in
  input  logic          a_fold_i,      // a fold beat of an add reduction: slot col += slot didx
  input  logic [31:0]   tr_word_i,     // transpose drain: this lane's word of the block
  input  logic          kick_i,        // the element there starts a micro-program
  // position TB and TO
  input  logic          b_elem_i,
  input  logic          b_first_i,
  input  logic          b_fold_i,
  input  logic [3:0]    b_col_i,       // an add reduction: the slot the beat at TB reads or writes
  input  logic [3:0]    o_col_i,       // tensor_scalar_reduce add: the slot the beat at TO writes
  input  logic          o_elem_i,
  input  logic          o_first_i,
  input  logic [1:0]    o_kind_i,      // tern_dve_pkg::Kind*: how the beat at TO is converted
  input  logic [31:0]   random_i,      // the SR draw of the beat at TO
  input  logic [1:0]    end_kind_i,    // the kind of the beat at TEnd
  // the micro-program
  input  logic [12:0]   uop_i,         // tern_dve_pkg::uop_at: the current micro-op
  input  logic          uop_issue_i,   // issue it (ALU A or the divider)
  input  logic          uop_capture_i, // its result is there: into its temporary
  input  logic          uop_commit_i,  // the program ended: its results into the scratch
  input  logic          uop_first_i,   // bn_aggr's first triple
  // bn_stats' second program (M2), beside the next element's first
  input  logic [12:0]   vop_i,         // tern_dve_pkg::vop_at: its current micro-op
  input  logic          v_start_i,     // the first program commits: x, delta, mean' to it
  input  logic          v_issue_i,     // issue its micro-op (ALU A; before the first's)
  input  logic          v_capture_i,   // its result is there
  input  logic          v_commit_i,    // it ended: M2 into the scratch
  output logic          div_done_o,    // the divider's result is there
  // outputs
  output logic [S*32-1:0] scr_o,       // the scratch (tern_dve reads the transpose block)
  output logic [31:0]   out_o          // the beat at TEnd, converted
);
  /* verilator no_inline_module */  // lanes share one C++ class

  localparam int unsigned InLat  = tern_dve_pkg::InLat;

  // The fields each position reads.
  logic [3:0] dtx_1, dt1_1, op_a, dt0_a, dtx_a, dt1_a, dto_a, op_b, op_o, dto_o, dto_e;
  logic [4:0] alu0_a, alu1_b, alu0_b;
  /* verilator lint_off UNUSEDSIGNAL */  // each position reverses one operand pair
  logic [1:0] rev_a, rev_b;
  /* verilator lint_on UNUSEDSIGNAL */
  logic       dom_int_a, rev0_a, neg_a, rev1_b, round_o, sat_o;
  assign dtx_1     = tern_dve_pkg::cw_dtx(cmd1_i);
  assign dt1_1     = tern_dve_pkg::cw_dt1(cmd1_i);
  assign op_a      = tern_dve_pkg::cw_op(cmda_i);
  assign alu0_a    = tern_dve_pkg::cw_alu0(cmda_i);
  assign dt0_a     = tern_dve_pkg::cw_dt0(cmda_i);
  assign dtx_a     = tern_dve_pkg::cw_dtx(cmda_i);
  assign dt1_a     = tern_dve_pkg::cw_dt1(cmda_i);
  assign dto_a     = tern_dve_pkg::cw_dto(cmda_i);
  assign dom_int_a = tern_dve_pkg::cw_dom_int(cmda_i);
  assign rev_a     = tern_dve_pkg::cw_rev(cmda_i);
  assign rev0_a    = rev_a[0];
  assign neg_a     = tern_dve_pkg::cw_neg(cmda_i);
  assign op_b      = tern_dve_pkg::cw_op(cmdb_i);
  assign alu0_b    = tern_dve_pkg::cw_alu0(cmdb_i);
  assign alu1_b    = tern_dve_pkg::cw_alu1(cmdb_i);
  assign rev_b     = tern_dve_pkg::cw_rev(cmdb_i);
  assign rev1_b    = rev_b[1];
  assign op_o      = tern_dve_pkg::cw_op(cmdo_i);
  assign dto_o     = tern_dve_pkg::cw_dto(cmdo_i);
  assign round_o   = tern_dve_pkg::cw_round(cmdo_i);
  assign sat_o     = tern_dve_pkg::cw_sat(cmdo_i);
  assign dto_e     = tern_dve_pkg::cw_dto(cmde_i);

  localparam int unsigned AluLat = tern_dve_pkg::AluLat;
  localparam int unsigned OutLat = tern_dve_pkg::OutLat;
  localparam int unsigned IntOutLat = 4;  // tern_fp32_to_int_pipe's steps, at most OutLat

  logic [S*32-1:0] scr_q, scr_d;
  logic [127:0]    t_q, t_d;    // the temporaries T0 .. T3
  logic [127:0]    v_q, v_d;    // the second program's x, delta, mean' and result
  logic [31:0]     xh_q, xh_d;  // the micro-program's element
  logic [31:0]     acc, scr1, scr3, scr4, scr5;
  assign acc  = scr_q[0*32 +: 32];
  assign scr1 = scr_q[1*32 +: 32];
  assign scr3 = scr_q[3*32 +: 32];
  assign scr4 = scr_q[4*32 +: 32];
  assign scr5 = scr_q[5*32 +: 32];
  assign scr_o = scr_q;

  // --- position 1 .. TA: the inputs, raw and as fp32 ----------------------------------------
  logic [31:0] x_q, y_q, x_raw, y_raw, xf, yf;
  tern_pipe_delay #(.Width (64), .Delay (1)) u_entry (
    .clk_i, .rst_ni, .en_i, .data_i ({x_i, y_i}), .data_o ({x_q, y_q}));
  tern_pipe_delay #(.Width (32), .Delay (InLat)) u_x_raw (
    .clk_i, .rst_ni, .en_i, .data_i (x_q), .data_o (x_raw));
  tern_pipe_delay #(.Width (32), .Delay (InLat)) u_y_raw (
    .clk_i, .rst_ni, .en_i, .data_i (y_q), .data_o (y_raw));

  if (tern_fp_pkg::FastSim) begin : gen_in_fast
    tern_pipe_delay #(.Width (64), .Delay (InLat)) u_f (
      .clk_i, .rst_ni, .en_i,
      .data_i ({tern_fp_int_pkg::to_fp32(dtx_1, x_q), tern_fp_int_pkg::to_fp32(dt1_1, y_q)}),
      .data_o ({xf, yf}));
  end else begin : gen_in_units
    // Floats through the pipelined up-conversion, integers through the pipelined int_to_fp32.
    logic [31:0] x_up, y_up, x_int, y_int;
    logic        unused_x_valid, unused_y_valid, unused_x_ok, unused_y_ok;
    logic        unused_xi_valid, unused_yi_valid;
    tern_fp_upconvert_pipe #(.Latency (InLat)) u_x_up (
      .clk_i, .rst_ni, .en_i, .valid_i (1'b1), .dtype_i (dtx_1), .bits_i (x_q),
      .valid_o (unused_x_valid), .fp32_o (x_up), .dtype_ok_o (unused_x_ok));
    tern_fp_upconvert_pipe #(.Latency (InLat)) u_y_up (
      .clk_i, .rst_ni, .en_i, .valid_i (1'b1), .dtype_i (dt1_1), .bits_i (y_q),
      .valid_o (unused_y_valid), .fp32_o (y_up), .dtype_ok_o (unused_y_ok));
    tern_int_to_fp32_pipe #(.Latency (InLat)) u_x_int (
      .clk_i, .rst_ni, .en_i, .valid_i (1'b1), .dtype_i (dtx_1), .bits_i (x_q),
      .valid_o (unused_xi_valid), .fp32_o (x_int));
    tern_int_to_fp32_pipe #(.Latency (InLat)) u_y_int (
      .clk_i, .rst_ni, .en_i, .valid_i (1'b1), .dtype_i (dt1_1), .bits_i (y_q),
      .valid_o (unused_yi_valid), .fp32_o (y_int));
    assign xf = tern_pkg::is_float_dtype(dtx_a) ? x_up : x_int;
    assign yf = tern_pkg::is_float_dtype(dt1_a) ? y_up : y_int;
  end

  // The operands at TA: fp32, or int32 in a bitwise command.
  logic [31:0] x_iv, y_iv, xo, yo;
  assign x_iv = 32'(tern_fp_int_pkg::int_value(dtx_a, x_raw));
  assign y_iv = 32'(tern_fp_int_pkg::int_value(dt1_a, y_raw));
  assign xo   = dom_int_a ? x_iv : xf;
  assign yo   = dom_int_a ? y_iv : yf;

  // --- the micro-program's operands ---------------------------------------------------------
  logic        uop_last, vop_last;
  logic [1:0]  uop_unit, uop_dst, vop_unit, vop_dst;
  logic [3:0]  uop_a, uop_b, vop_a, vop_b;
  logic [31:0] ua, ub, va, vb;
  assign {uop_last, uop_unit, uop_a, uop_b, uop_dst} = uop_i;
  assign {vop_last, vop_unit, vop_a, vop_b, vop_dst} = vop_i;

  /* verilator lint_off UNUSEDSIGNAL */  // words 5 and up are no source
  function automatic logic [31:0] source(logic [3:0] c, logic [31:0] x, logic [S*32-1:0] scr,
                                         logic [127:0] t, logic [127:0] v, logic [31:0] k);
    unique case (c)
      tern_dve_pkg::SrcVx, tern_dve_pkg::SrcVd, tern_dve_pkg::SrcVm, tern_dve_pkg::SrcVv:
        source = v[32*c[1:0] +: 32];
      tern_dve_pkg::SrcX:    source = x;
      tern_dve_pkg::SrcAcc:  source = scr[0*32 +: 32];
      tern_dve_pkg::SrcScr1: source = scr[1*32 +: 32];
      tern_dve_pkg::SrcScr2: source = scr[2*32 +: 32];
      tern_dve_pkg::SrcScr3: source = scr[3*32 +: 32];
      tern_dve_pkg::SrcScr4: source = scr[4*32 +: 32];
      tern_dve_pkg::SrcK:    source = k;
      default:               source = t[32*c[1:0] +: 32];
    endcase
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */
  assign ua = source(uop_a, xh_q, scr_q, t_q, v_q, k_fp_i);
  assign ub = source(uop_b, xh_q, scr_q, t_q, v_q, k_fp_i);
  assign va = source(vop_a, xh_q, scr_q, t_q, v_q, k_fp_i);
  assign vb = source(vop_b, xh_q, scr_q, t_q, v_q, k_fp_i);

  function automatic logic [4:0] uop_alu(logic [1:0] unit);
    unique case (unit)
      tern_dve_pkg::UopAdd: uop_alu = tern_dve_pkg::DveAluAdd;
      tern_dve_pkg::UopSub: uop_alu = tern_dve_pkg::DveAluSubtract;
      default:              uop_alu = tern_dve_pkg::DveAluMultiply;
    endcase
  endfunction

  // --- ALU A at TA: the element's operands, or a micro-op --------------------------------------
  // Add reductions (tern_dve_pkg::ReduceSlots; docs/vector-engine.md "Add reductions"): a
  // tensor_reduce element adds into its slot (a_col_i) here, a fold beat adds slot a_didx_i
  // into slot a_col_i; a tensor_scalar_reduce element adds into its slot (b_col_i) at ALU B.
  localparam int unsigned RS = tern_dve_pkg::ReduceSlots;
  logic [31:0] slot_a, slot_b, slot_tb;
  tern_mux #(.N (RS), .W (32)) u_slot_a (.in_i (scr_q[0 +: RS*32]), .sel_i (a_col_i[3:0]), .out_o (slot_a));
  tern_mux #(.N (RS), .W (32)) u_slot_b (.in_i (scr_q[0 +: RS*32]), .sel_i (a_didx_i[3:0]), .out_o (slot_b));
  tern_mux #(.N (RS), .W (32)) u_slot_tb (.in_i (scr_q[0 +: RS*32]), .sel_i (b_col_i), .out_o (slot_tb));

  logic [4:0]  opa;
  logic [31:0] a1, a2, ta;
  always_comb begin
    opa = alu0_a; a1 = xo; a2 = s0_i;
    if (v_issue_i) begin
      opa = uop_alu(vop_unit);
      a1  = va;
      a2  = vb;
    end else if (uop_issue_i) begin
      opa = uop_alu(uop_unit);
      a1  = ua;
      a2  = ub;
    end else if (a_fold_i) begin
      opa = tern_dve_pkg::DveAluAdd;
      a1  = slot_a;
      a2  = slot_b;
    end else begin
      unique case (op_a)
        tern_dve_pkg::DveOpTensorTensor: a2 = yo;
        tern_dve_pkg::DveOpTensorScalar, tern_dve_pkg::DveOpScalarTensorTensor,
        tern_dve_pkg::DveOpTensorScalarReduce: begin
          a1 = rev0_a ? s0_i : xo;
          a2 = rev0_a ? xo : s0_i;
        end
        tern_dve_pkg::DveOpTensorReduce: begin  // max and min fold at TM, not here
          a1 = slot_a;
          a2 = xo;
        end
        tern_dve_pkg::DveOpTensorTensorScan: begin
          a1 = acc;
          a2 = xo;
        end
        default: ;
      endcase
    end
  end
  tern_dve_alu u_alu_a (.clk_i, .rst_ni, .en_i, .op_i (opa), .a_i (a1), .b_i (a2), .result_o (ta));

  // --- ALU B at TB ------------------------------------------------------------------------------
  logic [31:0] y_b, ta_late, tb;
  tern_pipe_delay #(.Width (32), .Delay (AluLat)) u_y_b (
    .clk_i, .rst_ni, .en_i, .data_i (yo), .data_o (y_b));
  tern_pipe_delay #(.Width (32), .Delay (AluLat)) u_ta_late (
    .clk_i, .rst_ni, .en_i, .data_i (ta), .data_o (ta_late));

  logic [4:0]  opb;
  logic [31:0] b1, b2;
  always_comb begin
    opb = alu1_b; b1 = ta; b2 = s1_i;
    unique case (op_b)
      tern_dve_pkg::DveOpTensorScalar: begin
        b1 = rev1_b ? s1_i : ta;
        b2 = rev1_b ? ta : s1_i;
      end
      tern_dve_pkg::DveOpScalarTensorTensor: begin
        b1 = rev1_b ? y_b : ta;
        b2 = rev1_b ? ta : y_b;
      end
      tern_dve_pkg::DveOpTensorScalarReduce: begin  // max and min: slot 0, the accumulator
        b1 = slot_tb;
        b2 = ta;
      end
      tern_dve_pkg::DveOpTensorTensorScan: b2 = y_b;
      default: ;
    endcase
  end
  tern_dve_alu u_alu_b (.clk_i, .rst_ni, .en_i, .op_i (opb), .a_i (b1), .b_i (b2), .result_o (tb));

  // --- the divider (micro-programs only) ------------------------------------------------------
  logic        unused_div_ready;
  logic [31:0] dv;
  tern_fp32_divsqrt u_div (
    .clk_i, .rst_ni,
    .in_valid_i  (uop_issue_i && uop_unit == tern_dve_pkg::UopDiv),
    .in_ready_o  (unused_div_ready),
    .sqrt_i      (1'b0),
    .a_i         (ua),
    .b_i         (ub),
    .out_valid_o (div_done_o),
    .out_ready_i (1'b1),
    .result_o    (dv)
  );

  // --- the value that leaves, chosen at TA for what needs no ALU ------------------------------
  logic [31:0] v_early, v_early_late, v_drain;
  always_comb begin
    unique case (op_a)
      tern_dve_pkg::DveOpTensorReduce, tern_dve_pkg::DveOpTensorScalarReduce:
        v_drain = neg_a ? tern_dve_pkg::negate(acc) : acc;
      tern_dve_pkg::DveOpBnStats:
        v_drain = (a_didx_i == 6'd0) ? n_fp_i : (a_didx_i == 6'd1) ? acc : scr1;
      tern_dve_pkg::DveOpBnAggr:
        v_drain = (a_didx_i == 6'd0) ? scr1 : scr5;
      tern_dve_pkg::DveOpMax8:
        v_drain = tern_dve_pkg::order_unkey(scr_q[32'(a_didx_i[2:0])*32 +: 32]);
      tern_dve_pkg::DveOpTranspose:
        v_drain = tr_word_i;
      default: v_drain = 32'd0;
    endcase
    v_early = v_drain;
    if (!a_drain_i) begin
      unique case (op_a)
        tern_dve_pkg::DveOpTensorCopy: begin
          if (dt0_a == dto_a) v_early = x_raw;
          else if (!tern_pkg::is_float_dtype(dt0_a) && !tern_pkg::is_float_dtype(dto_a)) v_early = x_iv;
          else v_early = xf;
        end
        tern_dve_pkg::DveOpMemset: v_early = imm0_i;
        tern_dve_pkg::DveOpSelect: v_early = tern_dve_pkg::fp32_is_zero(xo) ? s0_i : yo;
        tern_dve_pkg::DveOpIota:   v_early = tern_pkg::is_float_dtype(dto_a) ? xf : x_iv;
        default: ;
      endcase
    end
  end
  tern_pipe_delay #(.Width (32), .Delay (2 * AluLat)) u_v_early (
    .clk_i, .rst_ni, .en_i, .data_i (v_early), .data_o (v_early_late));

  // --- the value at TO and its conversion -------------------------------------------------------
  logic [31:0] v;
  always_comb begin
    unique case (op_o)
      tern_dve_pkg::DveOpTensorTensor, tern_dve_pkg::DveOpTensorScalarReduce: v = ta_late;
      tern_dve_pkg::DveOpTensorScalar, tern_dve_pkg::DveOpScalarTensorTensor,
      tern_dve_pkg::DveOpTensorTensorScan: v = tb;
      default: v = v_early_late;
    endcase
    if (!o_elem_i) v = v_early_late;  // a drain beat
  end

  if (tern_fp_pkg::FastSim) begin : gen_out_fast
    logic unused_end_kind;
    tern_pipe_delay #(.Width (32), .Delay (OutLat)) u_out (
      .clk_i, .rst_ni, .en_i,
      .data_i (tern_dve_pkg::out_convert(o_kind_i, dto_o, v, round_o, sat_o, random_i)),
      .data_o (out_o));
    assign unused_end_kind = (^end_kind_i) ^ (^dto_e);
  end else begin : gen_out_units
    // Floats through the pipelined down-conversion, floats to integers through the pipelined
    // fp32_to_int (its four steps, then a register); the other kinds converted at TO, delayed.
    logic [31:0] fp_bits, int_bits, int_late, other, other_late;
    logic        unused_fp_valid, unused_fp_ok, unused_int_valid;
    tern_fp_downconvert_pipe #(.Latency (OutLat)) u_down (
      .clk_i, .rst_ni, .en_i, .valid_i (1'b1), .dtype_i (dto_o), .fp32_i (v),
      .round_mode_i (round_o), .saturate_i (sat_o), .random_i,
      .valid_o (unused_fp_valid), .bits_o (fp_bits), .dtype_ok_o (unused_fp_ok));
    tern_fp32_to_int_pipe #(.Latency (IntOutLat)) u_to_int (
      .clk_i, .rst_ni, .en_i, .valid_i (1'b1), .dtype_i (dto_o), .fp32_i (v), .round_mode_i (round_o),
      .random_i, .valid_o (unused_int_valid), .int_o (int_bits));
    tern_pipe_delay #(.Width (32), .Delay (OutLat - IntOutLat)) u_int_late (
      .clk_i, .rst_ni, .en_i, .data_i (int_bits), .data_o (int_late));
    assign other = tern_dve_pkg::out_convert_bits(o_kind_i, dto_o, v);
    tern_pipe_delay #(.Width (32), .Delay (OutLat)) u_other (
      .clk_i, .rst_ni, .en_i, .data_i (other), .data_o (other_late));
    always_comb begin
      if (end_kind_i != tern_dve_pkg::KindFp) out_o = other_late;
      else if (tern_pkg::is_float_dtype(dto_e)) out_o = fp_bits;
      else out_o = int_late;
    end
  end

  // --- the scratch and the micro-program's registers --------------------------------------------
  // Written at TA (max/min reductions, first elements, max8, transpose, bn_aggr's stores), at
  // TB (an add reduction's slot sums and its fold; the first element of tensor_scalar_reduce), at TO (ALU B's
  // result of a reduction or scan) and by a micro-program's commit. tern_dve's holds keep one
  // beat's write before the next beat's read.
  // tensor_reduce and max8 update the scratch at TM = TA + 1, from the element's value and key
  // registered at TA: its selection and a compare with the scratch are a stage each. Their
  // elements stream, each reading what the one before wrote at TM.
  logic [31:0] k_new, m_x_q, m_key_q;
  logic [3:0]  m_op_q, m_col_q;
  logic [4:0]  m_alu_q;
  logic        m_elem_q, m_first_q;
  logic [7:0]  ge;  // max8: list entry j >= the new key (a descending list: a thermometer)
  assign k_new = tern_dve_pkg::order_key(tern_dve_pkg::canon(xo));
  always_comb begin
    for (int j = 0; j < 8; j++) ge[j] = scr_q[j*32 +: 32] >= m_key_q;
  end
  tern_pipe_delay #(.Width (79), .Delay (1)) u_tm (
    .clk_i, .rst_ni, .en_i,
    .data_i ({a_elem_i, a_first_i, op_a, alu0_a, a_col_i[3:0], xo, k_new}),
    .data_o ({m_elem_q, m_first_q, m_op_q, m_alu_q, m_col_q, m_x_q, m_key_q}));

  // The scratch with slot k (of an add reduction's ReduceSlots) set to word.
  function automatic logic [S*32-1:0] with_slot(logic [S*32-1:0] scr, logic [3:0] k, logic [31:0] word);
    with_slot = scr;
    for (int j = 0; j < RS; j++) begin
      if (32'(k) == j) with_slot[j*32 +: 32] = word;
    end
  endfunction

  always_comb begin
    scr_d = scr_q;
    t_d   = t_q;
    v_d   = v_q;
    xh_d  = xh_q;
    if (clear_i) begin
      /* verilator lint_off WIDTHCONCAT */
      scr_d = '0;
      /* verilator lint_on WIDTHCONCAT */
      scr_d[0*32 +: 32] = acc_init_i;
    end else if (en_i) begin
      if (m_elem_q) begin
        if (m_op_q == tern_dve_pkg::DveOpTensorReduce) begin
          // The first element (max, min) or the first of its slot (add; col 0 otherwise).
          if (m_first_q) begin
            scr_d = with_slot(scr_d, m_col_q, m_x_q);
          end else if (m_alu_q == tern_dve_pkg::DveAluMax) scr_d[0*32 +: 32] = tern_fp_pkg::fp32_max(acc, m_x_q);
          else if (m_alu_q == tern_dve_pkg::DveAluMin) scr_d[0*32 +: 32] = tern_fp_pkg::fp32_min(acc, m_x_q);
        end
        if (m_op_q == tern_dve_pkg::DveOpMax8) begin
          for (int j = 0; j < 8; j++) begin
            if (!ge[j]) scr_d[j*32 +: 32] = (j == 0 || ge[(j + 7) % 8]) ? m_key_q : scr_q[((j + 7) % 8)*32 +: 32];
          end
        end
      end
      if (a_elem_i) begin
        unique case (op_a)
          tern_dve_pkg::DveOpTranspose: begin
            for (int j = 0; j < S; j++) begin
              if (32'(a_col_i) == j) scr_d[j*32 +: 32] = x_raw;
            end
          end
          tern_dve_pkg::DveOpBnAggr: begin
            if (a_col_i == 6'd0) scr_d[3*32 +: 32] = xo;
            if (a_col_i == 6'd1) scr_d[4*32 +: 32] = xo;
          end
          default: ;
        endcase
      end
      if (b_elem_i) begin
        if (op_b == tern_dve_pkg::DveOpTensorReduce && alu0_b == tern_dve_pkg::DveAluAdd && !b_first_i) scr_d = with_slot(scr_d, b_col_i, ta);
        if (op_b == tern_dve_pkg::DveOpTensorScalarReduce && b_first_i) scr_d = with_slot(scr_d, b_col_i, ta);
      end
      if (b_fold_i) scr_d = with_slot(scr_d, b_col_i, ta);
      if (o_elem_i) begin
        if (op_o == tern_dve_pkg::DveOpTensorScalarReduce && !o_first_i) scr_d = with_slot(scr_d, o_col_i, tb);
        if (op_o == tern_dve_pkg::DveOpTensorTensorScan) scr_d[0*32 +: 32] = tb;
      end
    end
    if (kick_i) xh_d = xo;
    if (uop_capture_i) t_d[32*uop_dst +: 32] = (uop_unit == tern_dve_pkg::UopDiv) ? dv : ta;
    if (v_capture_i) v_d[3*32 +: 32] = ta;
    if (v_commit_i) scr_d[1*32 +: 32] = v_q[3*32 +: 32];
    if (v_start_i) v_d[0 +: 96] = {t_q[2*32 +: 32], t_q[0 +: 32], xh_q};  // mean', delta, x
    if (uop_commit_i) begin
      if (uop_stats_i) begin
        scr_d[0*32 +: 32] = t_q[2*32 +: 32];
      end else if (uop_first_i) begin
        scr_d[0*32 +: 32] = scr3;
        scr_d[1*32 +: 32] = scr4;
        scr_d[2*32 +: 32] = xh_q;
        scr_d[5*32 +: 32] = t_q[2*32 +: 32];
      end else begin
        scr_d[0*32 +: 32] = t_q[0*32 +: 32];
        scr_d[1*32 +: 32] = t_q[3*32 +: 32];
        scr_d[2*32 +: 32] = t_q[1*32 +: 32];
        scr_d[5*32 +: 32] = t_q[2*32 +: 32];
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      /* verilator lint_off WIDTHCONCAT */
      scr_q <= '0;
      /* verilator lint_on WIDTHCONCAT */
      t_q   <= '0;
      v_q   <= '0;
      xh_q  <= '0;
    end else begin
      scr_q <= scr_d;
      t_q   <= t_d;
      v_q   <= v_d;
      xh_q  <= xh_d;
    end
  end

  logic unused_last;
  assign unused_last = uop_last ^ vop_last ^ (^vop_dst);

`ifndef SYNTHESIS
  initial begin : latencies
    assert (InLat == tern_fp_pkg::UpLat && AluLat == tern_fp_pkg::AddLat + 1 && OutLat == tern_fp_pkg::DownLat)
      else $fatal(1, "tern_dve_lane: tern_dve_pkg's latencies differ from tern_fp_pkg's units");
  end
`endif

endmodule
