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
// vector of S words per lane, written as a _d/_q pair.
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
  function automatic logic uses_in1(logic [3:0] op);
    uses_in1 = (op == tern_dve_pkg::DveOpTensorTensor) || (op == tern_dve_pkg::DveOpScalarTensorTensor) ||
               (op == tern_dve_pkg::DveOpTensorTensorScan) || (op == tern_dve_pkg::DveOpSelect);
  endfunction

  function automatic logic uses_in0(logic [3:0] op);
    uses_in0 = (op != tern_dve_pkg::DveOpMemset) && (op != tern_dve_pkg::DveOpIota);
  endfunction

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
    logic bw0, bw1, bad_alu, bad_dt, is_int, mix, float_dt;
    bw0 = tern_dve_pkg::alu_is_bitwise(alu0);
    bw1 = tern_dve_pkg::alu_is_bitwise(alu1);
    bad_alu = (uses_alu0(op) && alu0 > tern_dve_pkg::DveAluLast) ||
              (uses_alu1(op) && alu1 > tern_dve_pkg::DveAluLast);
    unique case (op)
      tern_dve_pkg::DveOpTensorReduce:       bad_alu = bad_alu || !tern_dve_pkg::alu_is_reduce(alu0);
      tern_dve_pkg::DveOpTensorScalarReduce: bad_alu = bad_alu || bw0 || !tern_dve_pkg::alu_is_reduce(alu1);
      tern_dve_pkg::DveOpTensorTensorScan:   bad_alu = bad_alu || bw0 || bw1;
      default: ;
    endcase
    bad_dt = (uses_in0(op) && dt0 > tern_pkg::DtInt32) || (uses_in1(op) && dt1 > tern_pkg::DtInt32) ||
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
    is_int   = int_domain(op, alu0, alu1);
    float_dt = (uses_in0(op) && tern_pkg::is_float_dtype(dt0)) ||
               (uses_in1(op) && tern_pkg::is_float_dtype(dt1)) || tern_pkg::is_float_dtype(dto);
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

  // Storage width of a dtype in bits.
  function automatic logic [31:0] dt_mask(logic [3:0] dt);
    unique case (dt)
      tern_pkg::DtInt8, tern_pkg::DtUint8, tern_pkg::DtFp8E4M3, tern_pkg::DtFp8E5M2: dt_mask = 32'h0000_00FF;
      tern_pkg::DtBf16, tern_pkg::DtFp16: dt_mask = 32'h0000_FFFF;
      default: dt_mask = 32'hFFFF_FFFF;
    endcase
  endfunction

  // fp32 operations named as in docs/vector-engine.md.
  function automatic logic [31:0] f_sub(logic [31:0] a, logic [31:0] b);
    f_sub = tern_fp_pkg::fp32_add(a, {~b[31], b[30:0]});
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
  logic [P*32-1:0]   rng_q, rng_d, rng_reset;
  logic              out_valid_q, out_valid_d;
  logic [P*32-1:0]   out_q, out_d;
  logic              err_valid_q, err_valid_d;
  logic [2:0]        err_code_q, err_code_d;

  // ---------------------------------------------------------------------------------------
  // Lane datapath: every lane computes its candidate result and next scratch every cycle;
  // the control below decides whether they are taken. The fp functions are called at the top
  // level of the loop body, never inside a case branch, so synthesis sees one instance of
  // each per lane (two ALU stages, one divider for bn_stats/bn_aggr, ...).
  // ---------------------------------------------------------------------------------------
  logic [P*32-1:0]   lane_out;       // the lane's result beat, converted to the out dtype
  logic [P*32-1:0]   lane_rnd;       // the lane's next SR draw
  logic [P*S*32-1:0] lane_scr;       // the scratch after taking this cycle's elements
  logic [1:0]        kind;           // how this cycle's beat is converted
  logic [31:0]       k_fp, n_fp;     // idx + 1 and n as fp32

  logic [31:0] x_raw, y_raw, xf, yf, xo, yo, s0, s1, acc, scr1, scr2, scr3, scr4;
  logic [31:0] a1, a2, b1, b2, c1, c2, ta, tb, dv, bn_mean, bn_m2, ag_mean, ag_m2, ag_var;
  logic [31:0] v_run, v_drain, v, fv, rnd, conv, sat_int;
  logic [4:0]  opa, opb;
  logic [3:0]  pos;
  logic [31:0] k_new;

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
    k_fp = tern_fp_int_pkg::int32_to_fp32({16'd0, idx_q} + 32'd1);
    n_fp = tern_fp_int_pkg::int32_to_fp32({16'd0, n_q});
    lane_scr = scr_q;
    for (int p = 0; p < P; p++) begin
      x_raw = in0_data_i[p*32 +: 32];
      y_raw = in1_data_i[p*32 +: 32];
      s0    = ssel_q[0] ? scal0_q[p*32 +: 32] : imm0_q;
      s1    = ssel_q[1] ? scal1_q[p*32 +: 32] : imm1_q;
      acc   = scr_q[p*S*32 +: 32];
      scr1  = scr_q[(p*S+1)*32 +: 32];
      scr2  = scr_q[(p*S+2)*32 +: 32];
      scr3  = scr_q[(p*S+3)*32 +: 32];
      scr4  = scr_q[(p*S+4)*32 +: 32];
      xf    = tern_fp_int_pkg::to_fp32(dt0_q, x_raw);
      yf    = tern_fp_int_pkg::to_fp32(dt1_q, y_raw);
      xo    = dom_int_q ? 32'(tern_fp_int_pkg::int_value(dt0_q, x_raw)) : xf;
      yo    = dom_int_q ? 32'(tern_fp_int_pkg::int_value(dt1_q, y_raw)) : yf;

      // Stage A: ta = a1 opa a2.
      opa = alu0_q; a1 = xo; a2 = s0;
      unique case (op_q)
        tern_dve_pkg::DveOpTensorTensor: a2 = yo;
        tern_dve_pkg::DveOpTensorScalar, tern_dve_pkg::DveOpScalarTensorTensor,
        tern_dve_pkg::DveOpTensorScalarReduce: begin
          a1 = rev_q[0] ? s0 : xo;
          a2 = rev_q[0] ? xo : s0;
        end
        tern_dve_pkg::DveOpTensorReduce, tern_dve_pkg::DveOpTensorTensorScan: begin
          a1 = acc;
          a2 = xo;
        end
        tern_dve_pkg::DveOpBnStats: begin  // delta = x - mean
          opa = tern_dve_pkg::DveAluSubtract;
          a2  = acc;
        end
        tern_dve_pkg::DveOpBnAggr: begin   // n = na + nb
          opa = tern_dve_pkg::DveAluAdd;
          a1  = acc;
          a2  = scr3;
        end
        default: ;
      endcase
      ta = tern_dve_pkg::alu(opa, a1, a2);

      // The divider: bn_stats delta / k, bn_aggr f = nb / n.
      c1 = (op_q == tern_dve_pkg::DveOpBnStats) ? ta : scr3;
      c2 = (op_q == tern_dve_pkg::DveOpBnStats) ? k_fp : ta;
      dv = tern_fp_pkg::fp32_div(c1, c2);
      // Welford: mean' = mean + delta / k; M2 term delta * (x - mean').
      bn_mean = tern_fp_pkg::fp32_add(acc, dv);
      bn_m2   = tern_fp_pkg::fp32_mul(ta, f_sub(xo, bn_mean));

      // Stage B: tb = b1 opb b2.
      opb = alu1_q; b1 = ta; b2 = s1;
      unique case (op_q)
        tern_dve_pkg::DveOpTensorScalar: begin
          b1 = rev_q[1] ? s1 : ta;
          b2 = rev_q[1] ? ta : s1;
        end
        tern_dve_pkg::DveOpScalarTensorTensor: begin
          b1 = rev_q[1] ? yo : ta;
          b2 = rev_q[1] ? ta : yo;
        end
        tern_dve_pkg::DveOpTensorScalarReduce: begin
          b1 = acc;
          b2 = ta;
        end
        tern_dve_pkg::DveOpTensorTensorScan: b2 = yo;
        tern_dve_pkg::DveOpBnStats: begin   // M2' = M2 + delta * (x - mean')
          opb = tern_dve_pkg::DveAluAdd;
          b1  = scr1;
          b2  = bn_m2;
        end
        tern_dve_pkg::DveOpBnAggr: begin    // delta = mb - ma
          opb = tern_dve_pkg::DveAluSubtract;
          b1  = scr4;
          b2  = scr1;
        end
        default: ;
      endcase
      tb = tern_dve_pkg::alu(opb, b1, b2);

      // Chan: mean = ma + delta * f; M2 = (M2a + M2b) + (delta * delta) * (na * f);
      // the variance M2 / n when draining.
      ag_mean = tern_fp_pkg::fp32_add(scr1, tern_fp_pkg::fp32_mul(tb, dv));
      ag_m2   = tern_fp_pkg::fp32_add(tern_fp_pkg::fp32_add(scr2, xo),
                                      tern_fp_pkg::fp32_mul(tern_fp_pkg::fp32_mul(tb, tb),
                                                            tern_fp_pkg::fp32_mul(acc, dv)));
      ag_var  = tern_fp_pkg::fp32_div(scr2, acc);

      // The element's result, and the scratch after taking it.
      v_run = 32'd0;
      k_new = tern_dve_pkg::order_key(tern_dve_pkg::canon(xo));
      pos   = 4'd0;
      unique case (op_q)
        tern_dve_pkg::DveOpTensorTensor: v_run = ta;
        tern_dve_pkg::DveOpTensorScalar, tern_dve_pkg::DveOpScalarTensorTensor: v_run = tb;
        tern_dve_pkg::DveOpTensorReduce: lane_scr[p*S*32 +: 32] = (idx_q == 16'd0) ? xo : ta;
        tern_dve_pkg::DveOpTensorScalarReduce: begin
          v_run = ta;
          lane_scr[p*S*32 +: 32] = (idx_q == 16'd0) ? ta : tb;
        end
        tern_dve_pkg::DveOpTensorTensorScan: begin
          v_run = tb;
          lane_scr[p*S*32 +: 32] = tb;
        end
        tern_dve_pkg::DveOpTensorCopy: begin
          if (dt0_q == dto_q) v_run = x_raw;
          else if (!tern_pkg::is_float_dtype(dt0_q) && !tern_pkg::is_float_dtype(dto_q))
            v_run = 32'(tern_fp_int_pkg::int_value(dt0_q, x_raw));
          else v_run = xf;
        end
        tern_dve_pkg::DveOpMemset: v_run = imm0_q;
        tern_dve_pkg::DveOpSelect: v_run = tern_dve_pkg::fp32_is_zero(xo) ? s0 : yo;
        tern_dve_pkg::DveOpIota:   v_run = s0 + 32'(p) * imm1_q + imm2_q * {16'd0, idx_q};
        tern_dve_pkg::DveOpBnStats: begin
          lane_scr[p*S*32 +: 32]     = bn_mean;
          lane_scr[(p*S+1)*32 +: 32] = tb;
        end
        tern_dve_pkg::DveOpBnAggr: begin
          if (col_q == 6'd0) begin
            lane_scr[(p*S+3)*32 +: 32] = xo;
          end else if (col_q == 6'd1) begin
            lane_scr[(p*S+4)*32 +: 32] = xo;
          end else if (idx_q == 16'd2) begin  // the first triple
            lane_scr[p*S*32 +: 32]     = scr3;
            lane_scr[(p*S+1)*32 +: 32] = scr4;
            lane_scr[(p*S+2)*32 +: 32] = xo;
          end else begin
            lane_scr[p*S*32 +: 32]     = ta;
            lane_scr[(p*S+1)*32 +: 32] = ag_mean;
            lane_scr[(p*S+2)*32 +: 32] = ag_m2;
          end
        end
        tern_dve_pkg::DveOpMax8: begin
          // Insert into the descending list of order keys; equal keys keep arrival order.
          for (int j = 0; j < 8; j++) begin
            if (scr_q[(p*S+j)*32 +: 32] >= k_new) pos = pos + 4'd1;
          end
          for (int j = 1; j < 8; j++) begin
            if (4'(j) > pos) lane_scr[(p*S+j)*32 +: 32] = scr_q[(p*S+j-1)*32 +: 32];
          end
          for (int j = 0; j < 8; j++) begin
            if (4'(j) == pos) lane_scr[(p*S+j)*32 +: 32] = k_new;
          end
        end
        tern_dve_pkg::DveOpTranspose: lane_scr[(p*S+32'(col_q))*32 +: 32] = x_raw;
        default: ;
      endcase

      // The drain beat.
      unique case (op_q)
        tern_dve_pkg::DveOpTensorReduce, tern_dve_pkg::DveOpTensorScalarReduce:
          v_drain = neg_q ? tern_dve_pkg::negate(acc) : acc;
        tern_dve_pkg::DveOpBnStats:
          v_drain = (drain_q == 6'd0) ? n_fp : (drain_q == 6'd1) ? acc : scr1;
        tern_dve_pkg::DveOpBnAggr:
          v_drain = (drain_q == 6'd0) ? scr1 : ag_var;
        tern_dve_pkg::DveOpMax8:
          v_drain = tern_dve_pkg::order_unkey(scr_q[(p*S+32'(drain_q[2:0]))*32 +: 32]);
        tern_dve_pkg::DveOpTranspose:
          v_drain = scr_q[(((p/B)*B + 32'(drain_q))*S + (p%B))*32 +: 32];
        default: v_drain = 32'd0;
      endcase

      // Output conversion (RNE/SR, saturate flag; int32 results saturate to int dtypes).
      v       = (state_q == StDrain) ? v_drain : v_run;
      rnd     = tern_dve_pkg::sr_xorshift32(rng_q[p*32 +: 32]);
      fv      = tern_fp_int_pkg::int32_to_fp32(v);
      conv    = tern_fp_int_pkg::from_fp32(dto_q, (kind == tern_dve_pkg::KindInt) ? fv : v, round_q, sat_q, rnd);
      sat_int = tern_fp_int_pkg::saturate_int(dto_q, {v[31], v});
      unique case (kind)
        tern_dve_pkg::KindInt:  lane_out[p*32 +: 32] = tern_pkg::is_float_dtype(dto_q) ? conv : sat_int;
        tern_dve_pkg::KindCopy: lane_out[p*32 +: 32] = v & dt_mask(dto_q);
        tern_dve_pkg::KindWord: lane_out[p*32 +: 32] = tern_dve_pkg::canon(v);
        default:                lane_out[p*32 +: 32] = conv;
      endcase
      lane_rnd[p*32 +: 32] = rnd;
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
    rng_d = rng_q;
    out_valid_d = out_valid_q && !out_ready_i;
    out_d = out_q;
    err_valid_d = 1'b0;
    err_code_d = err_code_q;
    cmd_ready_o = (state_q == StIdle);
    in0_ready_o = 1'b0;
    in1_ready_o = 1'b0;
    cmd_err = tern_dve_pkg::DveErrNone;
    gen = 1'b0;

    need0    = uses_in0(op_q);
    need1    = uses_in1(op_q);
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

    // One SR draw per lane for each element converted from fp32 (or int32 to a float) with SR.
    draws = (round_q == tern_pkg::RoundSr) &&
            ((kind == tern_dve_pkg::KindFp) ||
             (kind == tern_dve_pkg::KindInt && tern_pkg::is_float_dtype(dto_q)));
    if (gen) begin
      out_valid_d = 1'b1;
      out_d       = lane_out;
      if (draws) rng_d = lane_rnd;
    end
    if (sr_seed_valid_i) begin
      for (int p = 0; p < P; p++) begin
        rng_d[p*32 +: 32] = tern_dve_pkg::sr_seed_state(sr_seed_i, 32'(p));
      end
    end
  end

  // After reset the generators hold the states of seed 0.
  always_comb begin
    for (int p = 0; p < P; p++) rng_reset[p*32 +: 32] = tern_dve_pkg::sr_seed_state(32'd0, 32'(p));
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
      rng_q <= rng_reset;
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
      rng_q <= rng_d;
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

endmodule
