// tern_dve_lane: one lane of the Vector Engine (docs/vector-engine.md, "RTL structure"): this
// cycle's element through both ALU stages, the bn_stats / bn_aggr arithmetic, the next scratch
// and the output conversion. Combinational; tern_dve holds the state and decides whether the
// results are taken. Every fp32 operation is an instance of a small module, computed every
// cycle; the procedural code only selects operands and results. Synthesis elaborates each
// module once however many lanes there are, and Verilator calls one shared C++ function per
// operation. Golden: model/dve (tern::VectorEngine), per partition.
module tern_dve_lane #(
  parameter int unsigned S = 8  // scratch words (at least 8: the max8 list)
) (
  // the command and the engine's position in it (the same in every lane)
  input  logic [3:0]    op_i,          // tern_dve_pkg::DveOp*
  input  logic [4:0]    alu0_i,
  input  logic [4:0]    alu1_i,
  input  logic [3:0]    dt0_i,
  input  logic [3:0]    dt1_i,
  input  logic [3:0]    dto_i,
  input  logic          dom_int_i,     // the command works on int32 values
  input  logic [1:0]    rev_i,
  input  logic          round_i,
  input  logic          sat_i,
  input  logic          neg_i,
  input  logic          drain_i,       // the drain phase: out_o is the drain beat
  input  logic [1:0]    kind_i,        // tern_dve_pkg::Kind*: how out_o is converted
  input  logic [15:0]   idx_i,         // elements taken so far
  input  logic [5:0]    col_i,         // bn_aggr: triple position; transpose: block column
  input  logic [5:0]    drain_idx_i,   // drain beat
  input  logic [31:0]   k_fp_i,        // idx + 1 as fp32
  input  logic [31:0]   n_fp_i,        // n as fp32
  input  logic [31:0]   imm0_i,
  // this lane's operands
  input  logic [31:0]   x_i,           // in0 element (raw dtype bits)
  input  logic [31:0]   y_i,           // in1 element
  input  logic [31:0]   s0_i,          // scalar 0 (imm0 or the lane's scalar)
  input  logic [31:0]   s1_i,
  input  logic [31:0]   iota_i,        // iota: s0 + p * imm1 + imm2 * idx
  input  logic [31:0]   tr_word_i,     // transpose drain: this lane's word of the block
  input  logic [31:0]   random_i,      // the SR draw this element uses
  input  logic [S*32-1:0] scr_i,
  output logic [S*32-1:0] scr_o,       // the scratch after taking this cycle's element
  output logic [31:0]   out_o          // the result beat, converted to dto_i
);

  // Storage width of a dtype in bits.
  function automatic logic [31:0] dt_mask(logic [3:0] dt);
    unique case (dt)
      tern_pkg::DtInt8, tern_pkg::DtUint8, tern_pkg::DtFp8E4M3, tern_pkg::DtFp8E5M2: dt_mask = 32'h0000_00FF;
      tern_pkg::DtBf16, tern_pkg::DtFp16: dt_mask = 32'h0000_FFFF;
      default: dt_mask = 32'hFFFF_FFFF;
    endcase
  endfunction

  logic [31:0] acc, scr1, scr2, scr3, scr4;
  assign acc  = scr_i[0*32 +: 32];
  assign scr1 = scr_i[1*32 +: 32];
  assign scr2 = scr_i[2*32 +: 32];
  assign scr3 = scr_i[3*32 +: 32];
  assign scr4 = scr_i[4*32 +: 32];

  // --- inputs: fp32, or int32 in a bitwise command ------------------------------------------
  // Floats exact (upconvert); integers through int32 (tern_fp_int_pkg::to_fp32).
  logic [31:0] x_int, y_int, x_up, y_up, x_int_fp, y_int_fp, xf, yf, xo, yo;
  logic        unused_x_ok, unused_y_ok;
  assign x_int = 32'(tern_fp_int_pkg::int_value(dt0_i, x_i));
  assign y_int = 32'(tern_fp_int_pkg::int_value(dt1_i, y_i));
  tern_fp_upconvert  u_x_up  (.dtype_i(dt0_i), .bits_i(x_i), .fp32_o(x_up), .dtype_ok_o(unused_x_ok));
  tern_fp_upconvert  u_y_up  (.dtype_i(dt1_i), .bits_i(y_i), .fp32_o(y_up), .dtype_ok_o(unused_y_ok));
  tern_int32_to_fp32 u_x_int (.int_i(x_int), .fp32_o(x_int_fp));
  tern_int32_to_fp32 u_y_int (.int_i(y_int), .fp32_o(y_int_fp));
  assign xf = tern_pkg::is_float_dtype(dt0_i) ? x_up : x_int_fp;
  assign yf = tern_pkg::is_float_dtype(dt1_i) ? y_up : y_int_fp;
  assign xo = dom_int_i ? x_int : xf;
  assign yo = dom_int_i ? y_int : yf;

  // --- stage A: ta = a1 opa a2 --------------------------------------------------------------
  logic [4:0]  opa;
  logic [31:0] a1, a2, ta;
  always_comb begin
    opa = alu0_i; a1 = xo; a2 = s0_i;
    unique case (op_i)
      tern_dve_pkg::DveOpTensorTensor: a2 = yo;
      tern_dve_pkg::DveOpTensorScalar, tern_dve_pkg::DveOpScalarTensorTensor,
      tern_dve_pkg::DveOpTensorScalarReduce: begin
        a1 = rev_i[0] ? s0_i : xo;
        a2 = rev_i[0] ? xo : s0_i;
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
  end
  tern_dve_alu u_alu_a (.op_i(opa), .a_i(a1), .b_i(a2), .result_o(ta));

  // --- the divider: bn_stats delta / k; bn_aggr f = nb / n, and the variance M2 / n when
  // draining ----------------------------------------------------------------------------------
  logic [31:0] c1, c2, dv;
  always_comb begin
    if (drain_i) begin
      c1 = scr2;
      c2 = acc;
    end else if (op_i == tern_dve_pkg::DveOpBnStats) begin
      c1 = ta;
      c2 = k_fp_i;
    end else begin
      c1 = scr3;
      c2 = ta;
    end
  end
  tern_fp32_div u_div (.a_i(c1), .b_i(c2), .quotient_o(dv));

  // Welford: mean' = mean + delta / k; M2 term delta * (x - mean').
  logic [31:0] bn_mean, x_dev, bn_m2;
  tern_fp32_add u_bn_mean (.a_i(acc), .b_i(dv), .sum_o(bn_mean));
  tern_fp32_add u_x_dev   (.a_i(xo), .b_i({~bn_mean[31], bn_mean[30:0]}), .sum_o(x_dev));
  tern_fp32_mul u_bn_m2   (.a_i(ta), .b_i(x_dev), .product_o(bn_m2));

  // --- stage B: tb = b1 opb b2 --------------------------------------------------------------
  logic [4:0]  opb;
  logic [31:0] b1, b2, tb;
  always_comb begin
    opb = alu1_i; b1 = ta; b2 = s1_i;
    unique case (op_i)
      tern_dve_pkg::DveOpTensorScalar: begin
        b1 = rev_i[1] ? s1_i : ta;
        b2 = rev_i[1] ? ta : s1_i;
      end
      tern_dve_pkg::DveOpScalarTensorTensor: begin
        b1 = rev_i[1] ? yo : ta;
        b2 = rev_i[1] ? ta : yo;
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
  end
  tern_dve_alu u_alu_b (.op_i(opb), .a_i(b1), .b_i(b2), .result_o(tb));

  // Chan: mean = ma + delta * f; M2 = (M2a + M2b) + (delta * delta) * (na * f).
  logic [31:0] tb_f, ag_mean, m2_ab, tb_sq, na_f, m2_term, ag_m2;
  tern_fp32_mul u_tb_f    (.a_i(tb), .b_i(dv), .product_o(tb_f));
  tern_fp32_add u_ag_mean (.a_i(scr1), .b_i(tb_f), .sum_o(ag_mean));
  tern_fp32_add u_m2_ab   (.a_i(scr2), .b_i(xo), .sum_o(m2_ab));
  tern_fp32_mul u_tb_sq   (.a_i(tb), .b_i(tb), .product_o(tb_sq));
  tern_fp32_mul u_na_f    (.a_i(acc), .b_i(dv), .product_o(na_f));
  tern_fp32_mul u_m2_term (.a_i(tb_sq), .b_i(na_f), .product_o(m2_term));
  tern_fp32_add u_ag_m2   (.a_i(m2_ab), .b_i(m2_term), .sum_o(ag_m2));

  // --- the element's result, and the scratch after taking it ---------------------------------
  logic [31:0] v_run, k_new;
  logic [3:0]  pos;
  always_comb begin
    scr_o = scr_i;
    v_run = 32'd0;
    k_new = tern_dve_pkg::order_key(tern_dve_pkg::canon(xo));
    pos   = 4'd0;
    unique case (op_i)
      tern_dve_pkg::DveOpTensorTensor: v_run = ta;
      tern_dve_pkg::DveOpTensorScalar, tern_dve_pkg::DveOpScalarTensorTensor: v_run = tb;
      tern_dve_pkg::DveOpTensorReduce: scr_o[0*32 +: 32] = (idx_i == 16'd0) ? xo : ta;
      tern_dve_pkg::DveOpTensorScalarReduce: begin
        v_run = ta;
        scr_o[0*32 +: 32] = (idx_i == 16'd0) ? ta : tb;
      end
      tern_dve_pkg::DveOpTensorTensorScan: begin
        v_run = tb;
        scr_o[0*32 +: 32] = tb;
      end
      tern_dve_pkg::DveOpTensorCopy: begin
        if (dt0_i == dto_i) v_run = x_i;
        else if (!tern_pkg::is_float_dtype(dt0_i) && !tern_pkg::is_float_dtype(dto_i))
          v_run = 32'(tern_fp_int_pkg::int_value(dt0_i, x_i));
        else v_run = xf;
      end
      tern_dve_pkg::DveOpMemset: v_run = imm0_i;
      tern_dve_pkg::DveOpSelect: v_run = tern_dve_pkg::fp32_is_zero(xo) ? s0_i : yo;
      tern_dve_pkg::DveOpIota:   v_run = iota_i;
      tern_dve_pkg::DveOpBnStats: begin
        scr_o[0*32 +: 32] = bn_mean;
        scr_o[1*32 +: 32] = tb;
      end
      tern_dve_pkg::DveOpBnAggr: begin
        if (col_i == 6'd0) begin
          scr_o[3*32 +: 32] = xo;
        end else if (col_i == 6'd1) begin
          scr_o[4*32 +: 32] = xo;
        end else if (idx_i == 16'd2) begin  // the first triple
          scr_o[0*32 +: 32] = scr3;
          scr_o[1*32 +: 32] = scr4;
          scr_o[2*32 +: 32] = xo;
        end else begin
          scr_o[0*32 +: 32] = ta;
          scr_o[1*32 +: 32] = ag_mean;
          scr_o[2*32 +: 32] = ag_m2;
        end
      end
      tern_dve_pkg::DveOpMax8: begin
        // Insert into the descending list of order keys; equal keys keep arrival order.
        for (int j = 0; j < 8; j++) begin
          if (scr_i[j*32 +: 32] >= k_new) pos = pos + 4'd1;
        end
        for (int j = 1; j < 8; j++) begin
          if (4'(j) > pos) scr_o[j*32 +: 32] = scr_i[(j-1)*32 +: 32];
        end
        for (int j = 0; j < 8; j++) begin
          if (4'(j) == pos) scr_o[j*32 +: 32] = k_new;
        end
      end
      tern_dve_pkg::DveOpTranspose: begin
        for (int j = 0; j < S; j++) begin
          if (32'(col_i) == j) scr_o[j*32 +: 32] = x_i;
        end
      end
      default: ;
    endcase
  end

  // --- the drain beat -------------------------------------------------------------------------
  logic [31:0] v_drain;
  always_comb begin
    unique case (op_i)
      tern_dve_pkg::DveOpTensorReduce, tern_dve_pkg::DveOpTensorScalarReduce:
        v_drain = neg_i ? tern_dve_pkg::negate(acc) : acc;
      tern_dve_pkg::DveOpBnStats:
        v_drain = (drain_idx_i == 6'd0) ? n_fp_i : (drain_idx_i == 6'd1) ? acc : scr1;
      tern_dve_pkg::DveOpBnAggr:
        v_drain = (drain_idx_i == 6'd0) ? scr1 : dv;  // dv = M2 / n while draining
      tern_dve_pkg::DveOpMax8:
        v_drain = tern_dve_pkg::order_unkey(scr_i[32'(drain_idx_i[2:0])*32 +: 32]);
      tern_dve_pkg::DveOpTranspose:
        v_drain = tr_word_i;
      default: v_drain = 32'd0;
    endcase
  end

  // --- output conversion (RNE/SR, saturate flag; int32 results saturate to int dtypes) -------
  // Floats through downconvert (saturate flag), integers through fp32_to_int
  // (tern_fp_int_pkg::from_fp32).
  logic [31:0] v, fv, conv_in, conv_fp, conv_int, conv, sat_int;
  logic        unused_out_ok;
  assign v = drain_i ? v_drain : v_run;
  tern_int32_to_fp32 u_v_fp32 (.int_i(v), .fp32_o(fv));
  assign conv_in = (kind_i == tern_dve_pkg::KindInt) ? fv : v;
  tern_fp_downconvert u_out_fp (
    .dtype_i     (dto_i),
    .fp32_i      (conv_in),
    .round_mode_i(round_i),
    .saturate_i  (sat_i),
    .random_i    (random_i),
    .bits_o      (conv_fp),
    .dtype_ok_o  (unused_out_ok)
  );
  tern_fp32_to_int u_out_int (
    .dtype_i     (dto_i),
    .fp32_i      (conv_in),
    .round_mode_i(round_i),
    .random_i    (random_i),
    .int_o       (conv_int)
  );
  assign conv = tern_pkg::is_float_dtype(dto_i) ? conv_fp : conv_int;
  assign sat_int = tern_fp_int_pkg::saturate_int(dto_i, {v[31], v});
  always_comb begin
    unique case (kind_i)
      tern_dve_pkg::KindInt:  out_o = tern_pkg::is_float_dtype(dto_i) ? conv : sat_int;
      tern_dve_pkg::KindCopy: out_o = v & dt_mask(dto_i);
      tern_dve_pkg::KindWord: out_o = tern_dve_pkg::canon(v);
      default:                out_o = conv;
    endcase
  end

endmodule
