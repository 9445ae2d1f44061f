// One lane of the Scalar Engine (docs/scalar-engine.md "Pipeline"): x = upconvert(in) * scale
// + bias, y = func(x), the reduction (max: acc' = max(acc, y); add: y into its slot's partial
// sum, the slots combined at the end, as tern_act sequences it), and out = downconvert(y),
// as one pipeline shared by every function. Every binary32 operation is a pipelined unit
// (tern_act_op, tern_act_exp, tern_act_log, tern_act_horner) and every select between them is
// registered; the times are tern_act_pkg's (advances after the beat's entry). Each function
// leaves by its exit (tern_act_pkg::Exit*, its result registered there); tern_act keeps the
// beats in order, says which exit a beat leaves by (exit_i), and carries the beat's context
// (func_line_i: the function code of the beat d advances in, at [5*d +: 5]). Two exp units (A
// serves every function, B only erfc's second factor), one log unit, two dividers (the
// functions' quotient and log's), one square root, and one Horner unit that erf's series and
// erfc's polynomial share. The same operations in the same order as
// model/act/act_functions.cc, so the results are bit-exact.
module tern_act_lane #(
  parameter int unsigned NumExits = tern_act_pkg::NumExits,
  parameter int unsigned LineW    = (tern_act_pkg::MaxExit + 1) * 5,
  localparam int unsigned Slots   = tern_act_pkg::ReduceSlots,
  localparam int unsigned SW      = $clog2(Slots)
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        en_i,          // the pipeline advances (a stalled output holds it)
  // the beat at its entry
  input  logic [31:0] in_i,          // raw element bits of in_dtype_i
  input  logic [3:0]  in_dtype_i,
  input  logic [31:0] scale_i,
  input  logic [31:0] bias_i,
  input  logic [LineW-1:0] func_line_i,
  // the beat leaving: exit_i[e] is set when exit e's register holds it
  input  logic [NumExits-1:0] exit_i,
  // the tail, one advance after the exit (the bus): conversion and reduction
  input  logic        bus_valid_i,
  input  logic [3:0]  out_dtype_i,
  input  logic        round_i,
  input  logic [31:0] random_i,      // the SR draw of the bus beat
  // An add reduction (tern_act's sequence; model: act::add_reduce): the bus beat's result into
  // slot red_slot_i (as it is when red_first_i, else added to the slot's sum); a combine step
  // adds slot 2k and 2k + 1 (cmb_add_i) or moves slot 2k (cmb_move_i) into slot k = cmb_k_i;
  // an adder's sum lands in slot wr_slot_i when wr_valid_i, tern_act_pkg::RedAddLat advances
  // after its issue.
  input  logic        red_add_i,
  input  logic        red_first_i,
  input  logic [SW-1:0]   red_slot_i,
  input  logic        cmb_add_i,
  input  logic        cmb_move_i,
  input  logic [SW-2:0]   cmb_k_i,
  input  logic        wr_valid_i,
  input  logic [SW-1:0]   wr_slot_i,
  input  logic        acc_max_i,     // the bus beat takes the maximum
  input  logic        acc_set_i,     // load acc_value_i (a command's start, nothing in flight)
  input  logic [31:0] acc_value_i,
  output logic [31:0] out_o,         // the bus beat converted, DownLat advances later
  output logic [31:0] acc_o          // the accumulator: slot 0
);
  /* verilator no_inline_module */  // lanes share one C++ class: P copies would not verilate

  // The schedule (tern_act_pkg): where each value is valid, in advances after the entry.
  localparam int unsigned UpLat = tern_act_pkg::UpLat;
  localparam int unsigned TX = tern_act_pkg::TX;
  localparam int unsigned TFlags = tern_act_pkg::TFlags;
  localparam int unsigned TW = tern_act_pkg::TW;
  localparam int unsigned TErfArg = tern_act_pkg::TErfArg;
  localparam int unsigned TMid = tern_act_pkg::TMid;
  localparam int unsigned TZ = tern_act_pkg::TZ;
  localparam int unsigned TZhSq = tern_act_pkg::TZhSq;
  localparam int unsigned TExpArg = tern_act_pkg::TExpArg;
  localparam int unsigned TExpA = tern_act_pkg::TExpA;
  localparam int unsigned TExpB = tern_act_pkg::TExpB;
  localparam int unsigned TErfSmall = tern_act_pkg::TErfSmall;
  localparam int unsigned TG = tern_act_pkg::TG;
  localparam int unsigned TErfc = tern_act_pkg::TErfc;
  localparam int unsigned TOneT = tern_act_pkg::TOneT;
  localparam int unsigned TRoot = tern_act_pkg::TRoot;
  localparam int unsigned TDivIn = tern_act_pkg::TDivIn;
  localparam int unsigned TQ = tern_act_pkg::TQ;
  localparam int unsigned TLogIn = tern_act_pkg::TLogIn;
  localparam int unsigned TLog = tern_act_pkg::TLog;
  localparam int unsigned TPhi = tern_act_pkg::TPhi;
  localparam int unsigned TFinalArg = tern_act_pkg::TFinalArg;
  localparam int unsigned TXFinal = tern_act_pkg::TXFinal;
  localparam int unsigned ExitBits = tern_act_pkg::ExitBits;
  localparam int unsigned ExitSquare = tern_act_pkg::ExitSquare;
  localparam int unsigned ExitSqrt = tern_act_pkg::ExitSqrt;
  localparam int unsigned ExitExp = tern_act_pkg::ExitExp;
  localparam int unsigned ExitErf = tern_act_pkg::ExitErf;
  localparam int unsigned ExitDiv = tern_act_pkg::ExitDiv;
  localparam int unsigned ExitXFinal = tern_act_pkg::ExitXFinal;
  localparam int unsigned ExitLog = tern_act_pkg::ExitLog;
  localparam int unsigned ExitSoftplus = tern_act_pkg::ExitSoftplus;
  localparam logic [31:0] S = tern_act_pkg::SignBit;
  localparam int unsigned Mul = tern_act_pkg::MulLat;
  localparam int unsigned Add = tern_act_pkg::AddLat;

  function automatic logic [4:0] func_at(logic [LineW-1:0] line, int unsigned t);
    func_at = line[5*t +: 5];
  endfunction

  // --- x = in * scale + bias --------------------------------------------------------------------
  logic [31:0] in_fp32, scale_up, in_scaled, bias_sc, x;
  logic        unused_up_valid, unused_up_ok;
  tern_fp_upconvert_pipe u_up (
    .clk_i, .rst_ni, .en_i, .valid_i (1'b1), .dtype_i (in_dtype_i), .bits_i (in_i),
    .valid_o (unused_up_valid), .fp32_o (in_fp32), .dtype_ok_o (unused_up_ok));
  tern_pipe_delay #(.Width (32), .Delay (UpLat)) u_scale_d (
    .clk_i, .rst_ni, .en_i, .data_i (scale_i), .data_o (scale_up));
  tern_pipe_delay #(.Width (32), .Delay (UpLat + Mul)) u_bias_d (
    .clk_i, .rst_ni, .en_i, .data_i (bias_i), .data_o (bias_sc));
  tern_act_op #(.Op (tern_act_pkg::OpMul), .TA (UpLat), .TB (UpLat)) u_scale (
    .clk_i, .rst_ni, .en_i, .a_i (in_fp32), .b_i (scale_up), .result_o (in_scaled));
  tern_act_op #(.Op (tern_act_pkg::OpAdd), .TA (UpLat + Mul), .TB (UpLat + Mul)) u_bias (
    .clk_i, .rst_ni, .en_i, .a_i (in_scaled), .b_i (bias_sc), .result_o (x));

  // x carried to where it is used (x_<time>), and its classes (registered at TFlags, carried).
  localparam int unsigned TZf = TW + Mul + Add;  // x * z_factor
  logic [31:0] x_flags, x_w, x_zf, x_exparg, x_expa, x_login, x_divin, x_final_in, x_xfinal, x_log;
  tern_pipe_delay #(.Width (32), .Delay (TFlags - TX)) u_x0 (.clk_i, .rst_ni, .en_i, .data_i (x), .data_o (x_flags));
  tern_pipe_delay #(.Width (32), .Delay (TW - TFlags)) u_x1 (.clk_i, .rst_ni, .en_i, .data_i (x_flags), .data_o (x_w));
  tern_pipe_delay #(.Width (32), .Delay (TZf - TW)) u_x2 (.clk_i, .rst_ni, .en_i, .data_i (x_w), .data_o (x_zf));
  tern_pipe_delay #(.Width (32), .Delay (TExpArg - 1 - TZf)) u_x3 (
    .clk_i, .rst_ni, .en_i, .data_i (x_zf), .data_o (x_exparg));
  tern_pipe_delay #(.Width (32), .Delay (TExpA - (TExpArg - 1))) u_x4 (
    .clk_i, .rst_ni, .en_i, .data_i (x_exparg), .data_o (x_expa));
  tern_pipe_delay #(.Width (32), .Delay (TLogIn - 1 - TExpA)) u_x5 (
    .clk_i, .rst_ni, .en_i, .data_i (x_expa), .data_o (x_login));
  tern_pipe_delay #(.Width (32), .Delay (TDivIn - TLogIn)) u_x6 (
    .clk_i, .rst_ni, .en_i, .data_i (x_login), .data_o (x_divin));
  tern_pipe_delay #(.Width (32), .Delay (TFinalArg - (TDivIn - 1))) u_x7 (
    .clk_i, .rst_ni, .en_i, .data_i (x_divin), .data_o (x_final_in));
  tern_pipe_delay #(.Width (32), .Delay (TXFinal - TFinalArg)) u_x8 (
    .clk_i, .rst_ni, .en_i, .data_i (x_final_in), .data_o (x_xfinal));
  tern_pipe_delay #(.Width (32), .Delay (TLog - 1 - TXFinal)) u_x9 (
    .clk_i, .rst_ni, .en_i, .data_i (x_xfinal), .data_o (x_log));

  // Classes: {sign, mish linear, |x| >= erf saturation, |x| < erf's series edge, |x| >= tanh
  // saturation, |x| == 0, -Inf, +Inf, NaN}.
  localparam int unsigned FlagsW = 9;
  logic [31:0] ax;
  logic [FlagsW-1:0] flags_d, fl_bits, fl_square, fl_sqrt, fl_exp, fl_erf, fl_div, fl_xfinal, fl_log,
                     fl_softplus;
  assign ax      = x & ~S;
  assign flags_d = {x[31], !x[31] && (x >= tern_act_pkg::MishLinear), ax >= tern_act_pkg::ErfSaturate, ax < tern_act_pkg::ErfSmall,
                    ax >= tern_act_pkg::TanhSaturate, ax == 32'd0, x == tern_act_pkg::NegInf, x == tern_act_pkg::PosInf, ax > tern_act_pkg::PosInf};
  tern_pipe_delay #(.Width (FlagsW), .Delay (1)) u_fl0 (.clk_i, .rst_ni, .en_i, .data_i (flags_d), .data_o (fl_bits));
  tern_pipe_delay #(.Width (FlagsW), .Delay (ExitSquare - 1 - TFlags)) u_fl1 (
    .clk_i, .rst_ni, .en_i, .data_i (fl_bits), .data_o (fl_square));
  tern_pipe_delay #(.Width (FlagsW), .Delay (ExitSqrt - ExitSquare)) u_fl2 (
    .clk_i, .rst_ni, .en_i, .data_i (fl_square), .data_o (fl_sqrt));
  tern_pipe_delay #(.Width (FlagsW), .Delay (ExitExp - ExitSqrt)) u_fl3 (
    .clk_i, .rst_ni, .en_i, .data_i (fl_sqrt), .data_o (fl_exp));
  tern_pipe_delay #(.Width (FlagsW), .Delay (ExitErf - ExitExp)) u_fl4 (
    .clk_i, .rst_ni, .en_i, .data_i (fl_exp), .data_o (fl_erf));
  tern_pipe_delay #(.Width (FlagsW), .Delay (ExitDiv - ExitErf)) u_fl5 (
    .clk_i, .rst_ni, .en_i, .data_i (fl_erf), .data_o (fl_div));
  tern_pipe_delay #(.Width (FlagsW), .Delay (ExitXFinal - ExitDiv)) u_fl6 (
    .clk_i, .rst_ni, .en_i, .data_i (fl_div), .data_o (fl_xfinal));
  tern_pipe_delay #(.Width (FlagsW), .Delay (ExitLog - ExitXFinal)) u_fl7 (
    .clk_i, .rst_ni, .en_i, .data_i (fl_xfinal), .data_o (fl_log));
  tern_pipe_delay #(.Width (FlagsW), .Delay (ExitSoftplus - ExitLog)) u_fl8 (
    .clk_i, .rst_ni, .en_i, .data_i (fl_log), .data_o (fl_softplus));

  // --- operands shared by several functions ------------------------------------------------
  logic [31:0] w, x_sq, k2_x_sq, z_factor, z, two_ax;
  tern_act_op #(.Op (tern_act_pkg::OpMul), .TA (TX), .TB (TX)) u_w (
    .clk_i, .rst_ni, .en_i, .a_i (x), .b_i (tern_act_coeff_pkg::InvSqrt2), .result_o (w));
  tern_act_op #(.Op (tern_act_pkg::OpMul), .TA (TX), .TB (TX)) u_x_sq (
    .clk_i, .rst_ni, .en_i, .a_i (x), .b_i (x), .result_o (x_sq));
  tern_act_op #(.Op (tern_act_pkg::OpMul), .TA (TW), .TB (TW)) u_k2_x_sq (
    .clk_i, .rst_ni, .en_i, .a_i (tern_act_coeff_pkg::GeluTanhK2), .b_i (x_sq), .result_o (k2_x_sq));
  tern_act_op #(.Op (tern_act_pkg::OpAdd), .TA (TW + Mul), .TB (TW + Mul)) u_z_factor (
    .clk_i, .rst_ni, .en_i, .a_i (tern_act_coeff_pkg::GeluTanhK1), .b_i (k2_x_sq), .result_o (z_factor));
  tern_act_op #(.Op (tern_act_pkg::OpMul), .TA (TZf), .TB (TZf)) u_z (
    .clk_i, .rst_ni, .en_i, .a_i (x_zf), .b_i (z_factor), .result_o (z));
  tern_act_op #(.Op (tern_act_pkg::OpAdd), .TA (TX), .TB (TX)) u_two_ax (
    .clk_i, .rst_ni, .en_i, .a_i (ax), .b_i (ax), .result_o (two_ax));

  // erf's argument (w for gelu, else x), registered; its classes {|a| < series edge, |a| >=
  // erfc's zero, sign}, registered.
  logic [31:0] erf_arg_d, erf_arg, erf_mag, zh;
  logic [2:0]  erf_cls_d, erf_cls;
  assign erf_arg_d = (func_at(func_line_i, TW) == tern_act_pkg::FnGelu) ? w : x_w;
  tern_pipe_delay #(.Width (32), .Delay (1)) u_erf_arg (.clk_i, .rst_ni, .en_i, .data_i (erf_arg_d), .data_o (erf_arg));
  assign erf_mag   = erf_arg & ~S;
  assign zh        = erf_mag & 32'hFFFF_F000;
  assign erf_cls_d = {erf_mag < tern_act_pkg::ErfSmall, erf_mag >= tern_act_pkg::ErfcZero, erf_arg[31]};
  tern_pipe_delay #(.Width (3), .Delay (1)) u_erf_cls (.clk_i, .rst_ni, .en_i, .data_i (erf_cls_d), .data_o (erf_cls));

  // erfc(|a|) = exp(-zh^2) * exp(-(|a| - zh)(|a| + zh)) * g(|a|), zh = |a| to 12 bits.
  logic [31:0] zh_sq, dz_lo, dz_hi, delta;
  tern_act_op #(.Op (tern_act_pkg::OpMul), .TA (TErfArg), .TB (TErfArg)) u_zh_sq (
    .clk_i, .rst_ni, .en_i, .a_i (zh), .b_i (zh), .result_o (zh_sq));
  tern_act_op #(.Op (tern_act_pkg::OpAdd), .TA (TErfArg), .TB (TErfArg)) u_dz_lo (
    .clk_i, .rst_ni, .en_i, .a_i (erf_mag), .b_i (zh ^ S), .result_o (dz_lo));
  tern_act_op #(.Op (tern_act_pkg::OpAdd), .TA (TErfArg), .TB (TErfArg)) u_dz_hi (
    .clk_i, .rst_ni, .en_i, .a_i (erf_mag), .b_i (zh), .result_o (dz_hi));
  tern_act_op #(.Op (tern_act_pkg::OpMul), .TA (TErfArg + Add), .TB (TErfArg + Add)) u_delta (
    .clk_i, .rst_ni, .en_i, .a_i (dz_lo), .b_i (dz_hi), .result_o (delta));

  // --- exp unit A: the one exponential of every function but erfc, which uses A and B --------
  logic [31:0] two_ax_e, zh_sq_e, exp_a_arg_d, exp_a_arg, exp_a, expm1_a, exp_b, unused_expm1_b;
  tern_pipe_delay #(.Width (32), .Delay (TExpArg - 1 - (TX + Add))) u_two_ax_e (
    .clk_i, .rst_ni, .en_i, .data_i (two_ax), .data_o (two_ax_e));
  tern_pipe_delay #(.Width (32), .Delay (TExpArg - 1 - TZhSq)) u_zh_sq_e (
    .clk_i, .rst_ni, .en_i, .data_i (zh_sq), .data_o (zh_sq_e));
  always_comb begin
    unique case (func_at(func_line_i, TExpArg - 1))
      tern_act_pkg::FnExp, tern_act_pkg::FnMish:                    exp_a_arg_d = x_exparg;
      tern_act_pkg::FnSigmoid, tern_act_pkg::FnSilu, tern_act_pkg::FnSoftplus:    exp_a_arg_d = x_exparg | S;  // -|x|
      tern_act_pkg::FnGeluApprxTanh:                  exp_a_arg_d = z | S;
      tern_act_pkg::FnTanh:                           exp_a_arg_d = two_ax_e;
      default:                          exp_a_arg_d = zh_sq_e ^ S;   // erf, gelu
    endcase
  end
  tern_pipe_delay #(.Width (32), .Delay (1)) u_exp_a_arg (
    .clk_i, .rst_ni, .en_i, .data_i (exp_a_arg_d), .data_o (exp_a_arg));
  tern_act_exp u_exp_a (.clk_i, .rst_ni, .en_i, .t_i (exp_a_arg), .exp_o (exp_a), .expm1_o (expm1_a));
  tern_act_exp u_exp_b (.clk_i, .rst_ni, .en_i, .t_i (delta ^ S), .exp_o (exp_b), .expm1_o (unused_expm1_b));

  // --- erf's series and erfc's polynomial: one Horner unit -----------------------------------
  // An argument takes one or the other (|a| < the series edge or not), so both run through one
  // unit of PolyTerms terms, the shorter set with zero leading coefficients (0 * v + c = c
  // exactly for a finite v and c != 0; the generated coefficients are all nonzero). The series
  // is Q at a^2; erfc's g is its interval's polynomial at d = |a| - mid.
  localparam int unsigned Terms = tern_act_coeff_pkg::ErfcTerms;
  localparam int unsigned PolyTerms = tern_act_pkg::PolyTerms;
  localparam int unsigned Intervals = tern_act_coeff_pkg::ErfcIntervals;
  localparam int unsigned TPolyIn = tern_act_pkg::TPolyIn;
  logic [31:0] x_sq_erf, x_sq_poly, erf_small;
  tern_act_op #(.Op (tern_act_pkg::OpMul), .TA (TErfArg), .TB (TErfArg)) u_erf_sq (
    .clk_i, .rst_ni, .en_i, .a_i (erf_arg), .b_i (erf_arg), .result_o (x_sq_erf));
  tern_pipe_delay #(.Width (32), .Delay (TPolyIn - 1 - TZhSq)) u_x_sq_poly (
    .clk_i, .rst_ni, .en_i, .data_i (x_sq_erf), .data_o (x_sq_poly));

  // erfc's interval of |a| (the edges compared, registered; then its midpoint and the
  // polynomial's coefficients -- the series' for a small argument -- registered), d = |a| - mid.
  logic [Intervals-1:0] ge_d, ge;
  logic [31:0]          mag_ge, mag_mid, mid;
  logic [PolyTerms*32+31:0] sel_d, sel;  // {mid, coefficients}
  always_comb begin
    for (int i = 0; i < Intervals; i++) ge_d[i] = erf_mag >= tern_act_coeff_pkg::ErfcEdges[32*i +: 32];
  end
  tern_pipe_delay #(.Width (Intervals + 32), .Delay (1)) u_ge (
    .clk_i, .rst_ni, .en_i, .data_i ({ge_d, erf_mag}), .data_o ({ge, mag_ge}));
  always_comb begin
    logic [3:0] iv;
    iv = 4'd0;
    for (int i = 1; i < Intervals; i++) begin
      if (ge[i]) iv = 4'(i);
    end
    sel_d = {tern_act_coeff_pkg::ErfcMids[32*iv +: 32],
             erf_cls[2] ? (PolyTerms*32)'(tern_act_coeff_pkg::ErfPoly)
                        : (PolyTerms*32)'(tern_act_coeff_pkg::ErfcPoly[32*Terms*iv +: 32*Terms])};
  end
  tern_pipe_delay #(.Width (PolyTerms * 32 + 64), .Delay (1)) u_sel (
    .clk_i, .rst_ni, .en_i, .data_i ({sel_d, mag_ge}), .data_o ({sel, mag_mid}));
  assign mid = sel[PolyTerms*32 +: 32];
  logic [31:0] d, poly_in_d, poly_in, g, eg, erfc;
  logic        small_poly;
  logic [PolyTerms*32-1:0] poly_coeffs;
  logic unused_ge0;
  assign unused_ge0 = ge[0];
  tern_act_op #(.Op (tern_act_pkg::OpAdd), .TA (TMid), .TB (TMid)) u_d (
    .clk_i, .rst_ni, .en_i, .a_i (mag_mid), .b_i (mid ^ S), .result_o (d));
  tern_pipe_delay #(.Width (1), .Delay (TPolyIn - 1 - (TErfArg + 1))) u_small_poly (
    .clk_i, .rst_ni, .en_i, .data_i (erf_cls[2]), .data_o (small_poly));
  assign poly_in_d = small_poly ? x_sq_poly : d;
  tern_pipe_delay #(.Width (32), .Delay (1)) u_poly_in (
    .clk_i, .rst_ni, .en_i, .data_i (poly_in_d), .data_o (poly_in));
  tern_pipe_delay #(.Width (PolyTerms * 32), .Delay (TPolyIn - TMid)) u_poly_coeffs (
    .clk_i, .rst_ni, .en_i, .data_i (sel[PolyTerms*32-1:0]), .data_o (poly_coeffs));
  tern_act_horner #(.Terms (PolyTerms), .ConstCoeffs (1'b0)) u_poly (
    .clk_i, .rst_ni, .en_i, .x_i (poly_in), .coeffs_i (poly_coeffs), .result_o (g));
  tern_act_op #(.Op (tern_act_pkg::OpMul), .TA (TErfArg), .TB (TG)) u_erf_small (
    .clk_i, .rst_ni, .en_i, .a_i (erf_arg), .b_i (g), .result_o (erf_small));
  tern_act_op #(.Op (tern_act_pkg::OpMul), .TA (TExpB), .TB (TG)) u_eg (
    .clk_i, .rst_ni, .en_i, .a_i (exp_b), .b_i (g), .result_o (eg));
  tern_act_op #(.Op (tern_act_pkg::OpMul), .TA (TExpA), .TB (tern_act_pkg::later(TExpB, TG) + Mul)) u_erfc (
    .clk_i, .rst_ni, .en_i, .a_i (exp_a), .b_i (eg), .result_o (erfc));

  // --- sigmoid family, tanh, mish: the divider ------------------------------------------------
  logic [31:0] one_t, x_t, em_2, u_2, v, v_2, root;
  tern_act_op #(.Op (tern_act_pkg::OpAdd), .TA (TExpA), .TB (TExpA)) u_one_t (
    .clk_i, .rst_ni, .en_i, .a_i (tern_act_pkg::One), .b_i (exp_a), .result_o (one_t));
  tern_act_op #(.Op (tern_act_pkg::OpMul), .TA (TExpA), .TB (TExpA)) u_x_t (
    .clk_i, .rst_ni, .en_i, .a_i (x_expa), .b_i (exp_a), .result_o (x_t));
  tern_act_op #(.Op (tern_act_pkg::OpAdd), .TA (TExpA), .TB (TExpA)) u_em_2 (
    .clk_i, .rst_ni, .en_i, .a_i (expm1_a), .b_i (tern_act_pkg::Two), .result_o (em_2));
  tern_act_op #(.Op (tern_act_pkg::OpAdd), .TA (TExpA), .TB (TExpA)) u_u_2 (
    .clk_i, .rst_ni, .en_i, .a_i (exp_a), .b_i (tern_act_pkg::Two), .result_o (u_2));
  tern_act_op #(.Op (tern_act_pkg::OpMul), .TA (TExpA), .TB (TOneT)) u_v (
    .clk_i, .rst_ni, .en_i, .a_i (exp_a), .b_i (u_2), .result_o (v));
  tern_act_op #(.Op (tern_act_pkg::OpAdd), .TA (TOneT + Mul), .TB (TOneT + Mul)) u_v_2 (
    .clk_i, .rst_ni, .en_i, .a_i (v), .b_i (tern_act_pkg::Two), .result_o (v_2));
  tern_act_op #(.Op (tern_act_pkg::OpSqrt), .TA (TX), .TB (TX)) u_root (
    .clk_i, .rst_ni, .en_i, .a_i (x), .b_i (x), .result_o (root));

  // The quotient's operands at TDivIn - 1, selected and registered.
  localparam int unsigned TSel = TDivIn - 1;
  logic [31:0] exp_a_s, expm1_a_s, x_t_s, one_t_s, em_2_s, v_s, root_s, num_d, den_d, num, den, q;
  logic        z_neg_s;
  tern_pipe_delay #(.Width (64), .Delay (TSel - TExpA)) u_exp_s (
    .clk_i, .rst_ni, .en_i, .data_i ({exp_a, expm1_a}), .data_o ({exp_a_s, expm1_a_s}));
  tern_pipe_delay #(.Width (32), .Delay (TSel - (TExpA + Mul))) u_x_t_s (
    .clk_i, .rst_ni, .en_i, .data_i (x_t), .data_o (x_t_s));
  tern_pipe_delay #(.Width (64), .Delay (TSel - TOneT)) u_one_t_s (
    .clk_i, .rst_ni, .en_i, .data_i ({one_t, em_2}), .data_o ({one_t_s, em_2_s}));
  tern_pipe_delay #(.Width (32), .Delay (TSel - (TOneT + Mul))) u_v_s (
    .clk_i, .rst_ni, .en_i, .data_i (v), .data_o (v_s));
  tern_pipe_delay #(.Width (32), .Delay (TSel - TRoot)) u_root_s (
    .clk_i, .rst_ni, .en_i, .data_i (root), .data_o (root_s));
  tern_pipe_delay #(.Width (1), .Delay (TSel - TZ)) u_z_s (
    .clk_i, .rst_ni, .en_i, .data_i (z[31]), .data_o (z_neg_s));
  always_comb begin
    unique case (func_at(func_line_i, TSel))
      tern_act_pkg::FnSigmoid:       begin num_d = x_divin[31] ? exp_a_s : tern_act_pkg::One;  den_d = one_t_s; end
      tern_act_pkg::FnSilu:          begin num_d = x_divin[31] ? x_t_s : x_divin; den_d = one_t_s; end
      tern_act_pkg::FnGeluApprxTanh: begin num_d = z_neg_s ? x_t_s : x_divin;     den_d = one_t_s; end
      tern_act_pkg::FnTanh:          begin num_d = expm1_a_s;                     den_d = em_2_s;  end
      tern_act_pkg::FnMish:          begin num_d = v_s;                           den_d = v_2;     end
      tern_act_pkg::FnRsqrt:         begin num_d = tern_act_pkg::One;                           den_d = root_s;  end
      default:         begin num_d = tern_act_pkg::One;                           den_d = x_divin; end  // reciprocal
    endcase
  end
  tern_pipe_delay #(.Width (64), .Delay (1)) u_num_den (
    .clk_i, .rst_ni, .en_i, .data_i ({num_d, den_d}), .data_o ({num, den}));
  tern_act_op #(.Op (tern_act_pkg::OpDiv), .TA (TDivIn), .TB (TDivIn)) u_div (
    .clk_i, .rst_ni, .en_i, .a_i (num), .b_i (den), .result_o (q));

  // --- softplus: max(x, 0) + log1p(t), t = exp(-|x|); log itself ---------------------------
  logic        t_small_d, t_small, kernel_d, kernel;
  logic [31:0] exp_a_l, one_t_l, log_arg_d, log_arg, log_out, x_pos_d, x_pos, softplus;
  assign t_small_d = exp_a <= tern_act_pkg::SqrtHalfUp;
  tern_pipe_delay #(.Width (1), .Delay (TLogIn - 1 - TExpA)) u_t_small (
    .clk_i, .rst_ni, .en_i, .data_i (t_small_d), .data_o (t_small));
  tern_pipe_delay #(.Width (32), .Delay (TLogIn - 1 - TExpA)) u_exp_l (
    .clk_i, .rst_ni, .en_i, .data_i (exp_a), .data_o (exp_a_l));
  assign one_t_l   = one_t;  // valid at TOneT = TLogIn - 1
  assign kernel_d  = (func_at(func_line_i, TLogIn - 1) == tern_act_pkg::FnSoftplus) && t_small;
  assign log_arg_d = (func_at(func_line_i, TLogIn - 1) != tern_act_pkg::FnSoftplus) ? x_login : t_small ? exp_a_l : one_t_l;
  tern_pipe_delay #(.Width (33), .Delay (1)) u_log_arg (
    .clk_i, .rst_ni, .en_i, .data_i ({kernel_d, log_arg_d}), .data_o ({kernel, log_arg}));
  tern_act_log u_log (.clk_i, .rst_ni, .en_i, .x_i (log_arg), .kernel_i (kernel), .result_o (log_out));
  assign x_pos_d = x_log[31] ? tern_act_pkg::PosZero : x_log;
  tern_pipe_delay #(.Width (32), .Delay (1)) u_x_pos (.clk_i, .rst_ni, .en_i, .data_i (x_pos_d), .data_o (x_pos));
  tern_act_op #(.Op (tern_act_pkg::OpAdd), .TA (TLog), .TB (TLog)) u_softplus (
    .clk_i, .rst_ni, .en_i, .a_i (x_pos), .b_i (log_out), .result_o (softplus));

  // --- erf and gelu from the series or erfc; the last multiply by x ---------------------------
  localparam int unsigned TPhiSmall = TErfSmall + Add + Mul;
  localparam int unsigned THalfErfc = TErfc + Mul;
  logic [31:0] one_m_erfc, one_erf, phi_small, half_erfc, one_m_half, phi_small_p, half_erfc_p;
  logic [31:0] phi_d, phi, phi_f, q_f, final_arg_d, final_arg, x_final;
  logic [2:0]  erf_cls_p;
  tern_act_op #(.Op (tern_act_pkg::OpAdd), .TA (TErfc), .TB (TErfc)) u_one_m_erfc (
    .clk_i, .rst_ni, .en_i, .a_i (tern_act_pkg::One), .b_i (erfc ^ S), .result_o (one_m_erfc));
  tern_act_op #(.Op (tern_act_pkg::OpAdd), .TA (TErfSmall), .TB (TErfSmall)) u_one_erf (
    .clk_i, .rst_ni, .en_i, .a_i (tern_act_pkg::One), .b_i (erf_small), .result_o (one_erf));
  tern_act_op #(.Op (tern_act_pkg::OpMul), .TA (TErfSmall + Add), .TB (TErfSmall + Add)) u_phi_small (
    .clk_i, .rst_ni, .en_i, .a_i (tern_act_pkg::Half), .b_i (one_erf), .result_o (phi_small));
  tern_act_op #(.Op (tern_act_pkg::OpMul), .TA (TErfc), .TB (TErfc)) u_half_erfc (
    .clk_i, .rst_ni, .en_i, .a_i (tern_act_pkg::Half), .b_i (erfc), .result_o (half_erfc));
  tern_act_op #(.Op (tern_act_pkg::OpAdd), .TA (THalfErfc), .TB (THalfErfc)) u_one_m_half (
    .clk_i, .rst_ni, .en_i, .a_i (tern_act_pkg::One), .b_i (half_erfc ^ S), .result_o (one_m_half));
  tern_pipe_delay #(.Width (32), .Delay (TPhi - 1 - TPhiSmall)) u_phi_small_p (
    .clk_i, .rst_ni, .en_i, .data_i (phi_small), .data_o (phi_small_p));
  tern_pipe_delay #(.Width (32), .Delay (TPhi - 1 - THalfErfc)) u_half_erfc_p (
    .clk_i, .rst_ni, .en_i, .data_i (half_erfc), .data_o (half_erfc_p));
  tern_pipe_delay #(.Width (3), .Delay (TPhi - 1 - (TErfArg + 1))) u_erf_cls_p (
    .clk_i, .rst_ni, .en_i, .data_i (erf_cls), .data_o (erf_cls_p));
  always_comb begin
    if (erf_cls_p[2]) begin
      phi_d = phi_small_p;
    end else if (erf_cls_p[1]) begin
      phi_d = erf_cls_p[0] ? tern_act_pkg::PosZero : tern_act_pkg::One;
    end else begin
      phi_d = erf_cls_p[0] ? half_erfc_p : one_m_half;
    end
  end
  tern_pipe_delay #(.Width (32), .Delay (1)) u_phi (.clk_i, .rst_ni, .en_i, .data_i (phi_d), .data_o (phi));
  tern_pipe_delay #(.Width (32), .Delay (TFinalArg - 1 - TPhi)) u_phi_f (
    .clk_i, .rst_ni, .en_i, .data_i (phi), .data_o (phi_f));
  tern_pipe_delay #(.Width (32), .Delay (TFinalArg - 1 - TQ)) u_q_f (
    .clk_i, .rst_ni, .en_i, .data_i (q), .data_o (q_f));
  assign final_arg_d = (func_at(func_line_i, TFinalArg - 1) == tern_act_pkg::FnGelu) ? phi_f : q_f;
  tern_pipe_delay #(.Width (32), .Delay (1)) u_final_arg (
    .clk_i, .rst_ni, .en_i, .data_i (final_arg_d), .data_o (final_arg));
  tern_act_op #(.Op (tern_act_pkg::OpMul), .TA (TFinalArg), .TB (TFinalArg)) u_x_final (
    .clk_i, .rst_ni, .en_i, .a_i (x_final_in), .b_i (final_arg), .result_o (x_final));

  // --- the exits: each function's result (its special inputs' limits, NaN canonical), registered
  // Classes' bits in fl_*: 0 NaN, 1 +Inf, 2 -Inf, 3 zero, 4 tanh sat, 5 erf small, 6 erf sat,
  // 7 mish linear, 8 sign.
  function automatic logic [31:0] nan_or(logic [FlagsW-1:0] fl, logic [31:0] y);
    /* verilator lint_off UNUSEDSIGNAL */
    logic [FlagsW-1:0] f;
    /* verilator lint_on UNUSEDSIGNAL */
    f = fl;
    nan_or = f[0] ? tern_pkg::Fp32CanonicalNaN : y;
  endfunction
  function automatic logic [31:0] limits(logic [FlagsW-1:0] fl, logic [31:0] neg_inf_y, logic [31:0] y);
    /* verilator lint_off UNUSEDSIGNAL */
    logic [FlagsW-1:0] f;
    /* verilator lint_on UNUSEDSIGNAL */
    f = fl;
    limits = f[1] ? tern_act_pkg::PosInf : f[2] ? neg_inf_y : y;
  endfunction
  logic [31:0] sign_one_bits, sign_one_erf, sign_one_div, erf_small_e;
  assign sign_one_bits = tern_act_pkg::One | {fl_bits[8], 31'd0};
  assign sign_one_erf  = tern_act_pkg::One | {fl_erf[8], 31'd0};
  assign sign_one_div  = tern_act_pkg::One | {fl_div[8], 31'd0};
  tern_pipe_delay #(.Width (32), .Delay (ExitErf - 1 - TErfSmall)) u_erf_small_e (
    .clk_i, .rst_ni, .en_i, .data_i (erf_small), .data_o (erf_small_e));

  logic [NumExits*32-1:0] exit_d, exit_q;
  always_comb begin
    unique case (func_at(func_line_i, ExitBits - 1))
      tern_act_pkg::FnRelu:  exit_d[0*32 +: 32] = x_flags[31] ? tern_act_pkg::PosZero : x_flags;
      tern_act_pkg::FnAbs:   exit_d[0*32 +: 32] = x_flags & ~S;
      tern_act_pkg::FnSign:  exit_d[0*32 +: 32] = fl_bits[3] ? x_flags : sign_one_bits;
      default: exit_d[0*32 +: 32] = x_flags;  // copy
    endcase
    exit_d[0*32 +: 32] = nan_or(fl_bits, exit_d[0*32 +: 32]);
    exit_d[1*32 +: 32] = nan_or(fl_square, x_sq);
    exit_d[2*32 +: 32] = nan_or(fl_sqrt, root);
    exit_d[3*32 +: 32] = nan_or(fl_exp, exp_a);
    exit_d[4*32 +: 32] = nan_or(fl_erf, fl_erf[5] ? erf_small_e : fl_erf[6] ? sign_one_erf :
                                        (one_m_erfc | {fl_erf[8], 31'd0}));
    unique case (func_at(func_line_i, ExitDiv - 1))
      tern_act_pkg::FnSilu, tern_act_pkg::FnGeluApprxTanh: exit_d[5*32 +: 32] = limits(fl_div, tern_act_pkg::NegZero, q);
      tern_act_pkg::FnTanh:  exit_d[5*32 +: 32] = fl_div[4] ? sign_one_div : (q | {fl_div[8], 31'd0});
      default: exit_d[5*32 +: 32] = q;  // sigmoid, rsqrt, reciprocal
    endcase
    exit_d[5*32 +: 32] = nan_or(fl_div, exit_d[5*32 +: 32]);
    if (func_at(func_line_i, ExitXFinal - 1) == tern_act_pkg::FnMish) begin
      exit_d[6*32 +: 32] = limits(fl_xfinal, tern_act_pkg::NegZero, fl_xfinal[7] ? x_xfinal : x_final);
    end else begin
      exit_d[6*32 +: 32] = limits(fl_xfinal, tern_act_pkg::NegZero, x_final);  // gelu
    end
    exit_d[6*32 +: 32] = nan_or(fl_xfinal, exit_d[6*32 +: 32]);
    exit_d[7*32 +: 32] = nan_or(fl_log, log_out);
    exit_d[8*32 +: 32] = nan_or(fl_softplus, limits(fl_softplus, tern_act_pkg::PosZero, softplus));
  end
  tern_pipe_delay #(.Width (NumExits * 32), .Delay (1)) u_exit (
    .clk_i, .rst_ni, .en_i, .data_i (exit_d), .data_o (exit_q));

  // --- the bus: the leaving beat's result; its conversion and the reduction step -------------
  logic [31:0] y_d, y;
  always_comb begin
    y_d = '0;
    for (int e = 0; e < NumExits; e++) y_d |= exit_i[e] ? exit_q[32*e +: 32] : 32'd0;
  end
  tern_pipe_delay #(.Width (32), .Delay (1)) u_bus (.clk_i, .rst_ni, .en_i, .data_i (y_d), .data_o (y));

  logic unused_down_valid, unused_down_ok;
  tern_fp_downconvert_pipe u_down (
    .clk_i, .rst_ni, .en_i, .valid_i (bus_valid_i), .dtype_i (out_dtype_i), .fp32_i (y),
    .round_mode_i (round_i), .saturate_i (1'b0), .random_i, .valid_o (unused_down_valid),
    .bits_o (out_o), .dtype_ok_o (unused_down_ok));

  // The reduction's slots (slot 0 is the accumulator) and their adder: a beat's slot sum and
  // result, or a combine step's pair, registered, then tern_fp32_add_pipe (RedAddLat advances
  // in all). tern_act issues at most one add an advance and never reads a slot whose sum is
  // still on its way.
  logic [Slots*32-1:0] slots_q, slots_d;
  logic [31:0] slot_beat, slot_even, slot_odd, add_a, add_b, sum, acc;
  logic [63:0] add_q;  // {a, b}
  logic        add_valid, sum_valid;
  tern_mux #(.N (Slots), .W (32)) u_slot_beat (.in_i (slots_q), .sel_i (red_slot_i), .out_o (slot_beat));
  tern_mux #(.N (Slots), .W (32)) u_slot_even (.in_i (slots_q), .sel_i ({cmb_k_i, 1'b0}), .out_o (slot_even));
  tern_mux #(.N (Slots), .W (32)) u_slot_odd (.in_i (slots_q), .sel_i ({cmb_k_i, 1'b1}), .out_o (slot_odd));
  assign add_a = cmb_add_i ? slot_even : slot_beat;
  assign add_b = cmb_add_i ? slot_odd : y;
  tern_pipe_reg #(.Width (64)) u_add_in (
    .clk_i, .rst_ni, .en_i, .valid_i ((red_add_i && !red_first_i) || cmb_add_i),
    .data_i ({add_a, add_b}), .valid_o (add_valid), .data_o (add_q));
  tern_fp32_add_pipe u_acc (
    .clk_i, .rst_ni, .en_i, .valid_i (add_valid), .a_i (add_q[63:32]), .b_i (add_q[31:0]),
    .valid_o (sum_valid), .sum_o (sum));
  assign acc = slots_q[31:0];
  always_comb begin
    slots_d = slots_q;
    if (acc_set_i) begin
      slots_d[31:0] = acc_value_i;
    end else if (en_i) begin
      for (int unsigned k = 0; k < Slots; k++) begin
        if (red_add_i && red_first_i && 32'(red_slot_i) == k) slots_d[32*k +: 32] = y;
        if (wr_valid_i && 32'(wr_slot_i) == k)                slots_d[32*k +: 32] = sum;
        if (cmb_move_i && 32'(cmb_k_i) == k)                  slots_d[32*k +: 32] = slot_even;
      end
      if (acc_max_i) slots_d[31:0] = tern_fp_pkg::fp32_max(acc, y);
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) slots_q <= '0;
    else         slots_q <= slots_d;
  end
  assign acc_o = acc;

  logic unused;
  assign unused = ^{func_line_i[4:0]};

`ifndef SYNTHESIS
  initial begin : params
    assert (tern_act_pkg::ErfcTerms == tern_act_coeff_pkg::ErfcTerms)
      else $fatal(1, "tern_act_pkg::ErfcTerms %0d is not the generated %0d", tern_act_pkg::ErfcTerms,
                  tern_act_coeff_pkg::ErfcTerms);
    assert ($bits(tern_act_coeff_pkg::ErfPoly) == 32 * tern_act_pkg::ErfTerms)
      else $fatal(1, "tern_act_pkg::ErfTerms %0d is not the generated series' length", tern_act_pkg::ErfTerms);
    assert (tern_act_pkg::UpLat == tern_fp_pkg::UpLat && tern_act_pkg::MulLat == tern_fp_pkg::MulLat &&
            tern_act_pkg::AddLat == tern_fp_pkg::AddLat && tern_act_pkg::DivLat == tern_fp_pkg::DivLat &&
            tern_act_pkg::DownLat == tern_fp_pkg::DownLat)
      else $fatal(1, "tern_act_pkg's unit latencies differ from tern_fp_pkg's");
    assert (tern_act_pkg::RedAddLat == 1 + tern_fp_pkg::AddLat)
      else $fatal(1, "tern_act_pkg::RedAddLat %0d is not the operand register and the adder's %0d",
                  tern_act_pkg::RedAddLat, tern_fp_pkg::AddLat);
    assert (Slots >= tern_act_pkg::RedAddLat + 1 && (Slots & (Slots - 1)) == 0)
      else $fatal(1, "tern_act_pkg::ReduceSlots %0d: a power of two above the add's %0d advances",
                  Slots, tern_act_pkg::RedAddLat);
  end
  // tern_act's line of slot numbers keeps time with the adder.
  sum_slot: assert property (@(posedge clk_i) disable iff (!rst_ni) sum_valid == wr_valid_i);
`endif
endmodule
