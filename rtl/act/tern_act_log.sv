// log (docs/scalar-engine.md), pipelined: x_i and kernel_i at time 0, result_o at
// tern_act_pkg::LogLat (the Log* times of tern_act_pkg). x = 2^k * m with m in
// [sqrt(1/2), sqrt(2)] (subnormals scaled by 2^24 first); log(1 + f), f = m - 1, by fdlibm's
// form f - s(f - R), s = f / (2 + f), R = s^2 P(s^2) with P the series 2/3, 2/5, .. 2/11; then
// k ln2_hi + (log(1 + f) + k ln2_lo). With kernel_i set, result_o is the kernel log(1 + x)
// itself (x in [0, sqrt(2) - 1]). Golden: log_fn() and log1p_kernel() in
// model/act/act_functions.cc.
module tern_act_log (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        en_i,
  input  logic [31:0] x_i,
  input  logic        kernel_i,
  output logic [31:0] result_o
);
  /* verilator no_inline_module */  // its own class in the C++ model (smaller, faster compile)
  localparam int unsigned Mul    = tern_act_pkg::MulLat;
  localparam int unsigned Add    = tern_act_pkg::AddLat;
  localparam int unsigned Scaled = tern_act_pkg::LogTScaled;
  localparam int unsigned Mk     = tern_act_pkg::LogTMk;
  localparam int unsigned Kin    = tern_act_pkg::LogTKin;
  localparam int unsigned F      = tern_act_pkg::LogTF;
  localparam int unsigned S      = tern_act_pkg::LogTS;
  localparam int unsigned Z      = tern_act_pkg::LogTZ;
  localparam int unsigned Poly   = Z + tern_act_pkg::horner_lat(5);
  localparam int unsigned Lp     = tern_act_pkg::LogTLp;
  localparam int unsigned Last   = tern_act_pkg::LogLat - 1;  // the result before its register
  localparam logic [31:0] Sign   = tern_act_pkg::SignBit;

  // --- x = 2^k m: the subnormal scaling, then m and k (two registered steps) ------------------
  logic [31:0] x_scaled;
  logic [30:0] x_at_scaled;
  tern_act_op #(.Op (tern_act_pkg::OpMul), .TA (0), .TB (0)) u_subnormal (
    .clk_i, .rst_ni, .en_i, .a_i (x_i), .b_i (tern_act_pkg::pow2(10'sd24)), .result_o (x_scaled));
  tern_pipe_delay #(.Width (31), .Delay (Scaled)) u_x_scaled (
    .clk_i, .rst_ni, .en_i, .data_i (x_i[30:0]), .data_o (x_at_scaled));

  logic [30:0] m_in;  // the input in the normal range; its sign plays no part
  logic [32:0] split_d, split_q;  // {m_in's fraction, k_base}
  logic        unused_scaled_sign;
  assign unused_scaled_sign = x_scaled[31];
  assign m_in    = (x_at_scaled[30:23] == 8'd0) ? x_scaled[30:0] : x_at_scaled[30:0];
  assign split_d = {m_in[22:0], ((x_at_scaled[30:23] == 8'd0) ? -10'sd24 : 10'sd0) +
                                $signed({2'b00, m_in[30:23]}) - 10'sd127};
  tern_pipe_delay #(.Width (33), .Delay (1)) u_split (.clk_i, .rst_ni, .en_i, .data_i (split_d), .data_o (split_q));

  // m > sqrt(2) moves m down a binade and k up one: m = 1.fraction against sqrt(2)'s fraction.
  logic              big;
  logic signed [9:0] k;
  logic [41:0]       mk_d, mk_q;  // {m, k}
  assign big  = split_q[32:10] > tern_act_coeff_pkg::Sqrt2[22:0];
  assign mk_d = {big ? 9'h07E : 9'h07F, split_q[32:10], split_q[9:0] + 10'(big)};
  tern_pipe_delay #(.Width (42), .Delay (1)) u_mk (.clk_i, .rst_ni, .en_i, .data_i (mk_d), .data_o (mk_q));
  assign k = $signed(mk_q[9:0]);

  // k as fp32: (1.5 * 2^23 + k) - 1.5 * 2^23, exact. 1.5 * 2^23 + k for |k| < 2^9 is the
  // constant's top 22 bits, one less when k < 0, over k's ten bits.
  logic [31:0] kin_d, kin_q;
  assign kin_d = {k[9] ? 22'h12CFFF : 22'h12D000, k[9:0]};
  tern_pipe_delay #(.Width (32), .Delay (1)) u_kin (.clk_i, .rst_ni, .en_i, .data_i (kin_d), .data_o (kin_q));

  // --- f = m - 1, or x itself for the kernel (registered) --------------------------------------
  logic [31:0] m_minus_1, x_at_f, f_d, f;
  logic        kernel_at_f;
  tern_act_op #(.Op (tern_act_pkg::OpAdd), .TA (Mk), .TB (Mk)) u_f (
    .clk_i, .rst_ni, .en_i, .a_i (mk_q[41:10]), .b_i (tern_act_pkg::One ^ Sign), .result_o (m_minus_1));
  tern_pipe_delay #(.Width (33), .Delay (F - 1)) u_x_f (
    .clk_i, .rst_ni, .en_i, .data_i ({kernel_i, x_i}), .data_o ({kernel_at_f, x_at_f}));
  assign f_d = kernel_at_f ? x_at_f : m_minus_1;
  tern_pipe_delay #(.Width (32), .Delay (1)) u_sel_f (.clk_i, .rst_ni, .en_i, .data_i (f_d), .data_o (f));

  // --- log(1 + f) = f - s (f - z P(z)), s = f / (2 + f), z = s^2 ------------------------------
  logic [31:0] two_f, s, z, poly, rz, f_rz, s_f_rz, lp, f_at_rz, f_at_lp;
  tern_act_op #(.Op (tern_act_pkg::OpAdd), .TA (F), .TB (F)) u_two_f (
    .clk_i, .rst_ni, .en_i, .a_i (tern_act_pkg::Two), .b_i (f), .result_o (two_f));
  tern_act_op #(.Op (tern_act_pkg::OpDiv), .TA (F), .TB (F + Add)) u_s (
    .clk_i, .rst_ni, .en_i, .a_i (f), .b_i (two_f), .result_o (s));
  tern_act_op #(.Op (tern_act_pkg::OpMul), .TA (S), .TB (S)) u_z (
    .clk_i, .rst_ni, .en_i, .a_i (s), .b_i (s), .result_o (z));
  tern_act_horner #(.Terms (5)) u_poly (
    .clk_i, .rst_ni, .en_i, .x_i (z), .coeffs_i (tern_act_coeff_pkg::LogPoly), .result_o (poly));
  tern_act_op #(.Op (tern_act_pkg::OpMul), .TA (Z), .TB (Poly)) u_rz (
    .clk_i, .rst_ni, .en_i, .a_i (z), .b_i (poly), .result_o (rz));
  tern_pipe_delay #(.Width (32), .Delay (Poly + Mul - F)) u_f_rz (
    .clk_i, .rst_ni, .en_i, .data_i (f), .data_o (f_at_rz));
  tern_pipe_delay #(.Width (32), .Delay (Add + Mul)) u_f_lp (
    .clk_i, .rst_ni, .en_i, .data_i (f_at_rz), .data_o (f_at_lp));
  tern_act_op #(.Op (tern_act_pkg::OpAdd), .TA (Poly + Mul), .TB (Poly + Mul)) u_f_rz_sub (
    .clk_i, .rst_ni, .en_i, .a_i (f_at_rz), .b_i (rz ^ Sign), .result_o (f_rz));
  tern_act_op #(.Op (tern_act_pkg::OpMul), .TA (S), .TB (Poly + Mul + Add)) u_s_f_rz (
    .clk_i, .rst_ni, .en_i, .a_i (s), .b_i (f_rz), .result_o (s_f_rz));
  tern_act_op #(.Op (tern_act_pkg::OpAdd), .TA (Lp - Add), .TB (Lp - Add)) u_lp (
    .clk_i, .rst_ni, .en_i, .a_i (f_at_lp), .b_i (s_f_rz ^ Sign), .result_o (lp));

  // --- k ln2_hi + (log(1 + f) + k ln2_lo) ------------------------------------------------------
  logic [31:0] kf, hi, lo, lp_lo, full;
  tern_act_op #(.Op (tern_act_pkg::OpAdd), .TA (Kin), .TB (Kin)) u_kf (
    .clk_i, .rst_ni, .en_i, .a_i (kin_q), .b_i (tern_act_coeff_pkg::RoundMagic ^ Sign), .result_o (kf));
  tern_act_op #(.Op (tern_act_pkg::OpMul), .TA (Kin + Add), .TB (Kin + Add)) u_hi (
    .clk_i, .rst_ni, .en_i, .a_i (kf), .b_i (tern_act_coeff_pkg::LogLn2Hi), .result_o (hi));
  tern_act_op #(.Op (tern_act_pkg::OpMul), .TA (Kin + Add), .TB (Kin + Add)) u_lo (
    .clk_i, .rst_ni, .en_i, .a_i (kf), .b_i (tern_act_coeff_pkg::LogLn2Lo), .result_o (lo));
  tern_act_op #(.Op (tern_act_pkg::OpAdd), .TA (Lp), .TB (Kin + Add + Mul)) u_lp_lo (
    .clk_i, .rst_ni, .en_i, .a_i (lp), .b_i (lo), .result_o (lp_lo));
  tern_act_op #(.Op (tern_act_pkg::OpAdd), .TA (Kin + Add + Mul), .TB (Lp + Add)) u_full (
    .clk_i, .rst_ni, .en_i, .a_i (hi), .b_i (lp_lo), .result_o (full));

  // --- the special inputs and the result (registered) ------------------------------------------
  logic [4:0]  cls_d, cls_last;  // {kernel, NaN, +-0, negative, +Inf}
  logic        k_zero_last;
  logic [31:0] lp_last, res_d;
  assign cls_d = {kernel_i, (x_i & ~Sign) > tern_act_pkg::PosInf, (x_i & ~Sign) == 32'd0, x_i[31],
                  x_i == tern_act_pkg::PosInf};
  tern_pipe_delay #(.Width (5), .Delay (Last)) u_cls (.clk_i, .rst_ni, .en_i, .data_i (cls_d), .data_o (cls_last));
  tern_pipe_delay #(.Width (1), .Delay (Last - Mk)) u_k_zero (
    .clk_i, .rst_ni, .en_i, .data_i (k == 10'sd0), .data_o (k_zero_last));
  tern_pipe_delay #(.Width (32), .Delay (Last - Lp)) u_lp_last (
    .clk_i, .rst_ni, .en_i, .data_i (lp), .data_o (lp_last));
  always_comb begin
    if (cls_last[4])      res_d = lp_last;
    else if (cls_last[3]) res_d = tern_pkg::Fp32CanonicalNaN;
    else if (cls_last[2]) res_d = tern_act_pkg::NegInf;
    else if (cls_last[1]) res_d = tern_pkg::Fp32CanonicalNaN;
    else if (cls_last[0]) res_d = tern_act_pkg::PosInf;
    else if (k_zero_last) res_d = lp_last;
    else                  res_d = full;
  end
  tern_pipe_delay #(.Width (32), .Delay (1)) u_res (.clk_i, .rst_ni, .en_i, .data_i (res_d), .data_o (result_o));
endmodule
