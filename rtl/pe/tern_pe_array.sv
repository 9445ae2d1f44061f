// tern_pe_array: the Tensor Engine's R x C weight-stationary systolic mesh, pipelined.
//
//   vector n, row k ---> [delay line: 1 + k*D] ---> PE(k,0) -> PE(k,1) -> ... -> PE(k,C-1)
//   load column c, row k ->   (the same line)          |          |                  |
//   partial sums flow down each column m:           PE(k+1,0)  ...     out[m] = psum(R-1, m)
//
// D = tern_pe_pkg::PeAccSteps, P = tern_pe_pkg::PeProductSteps. Each PE is a pipeline of P
// product steps (the element and its weight to the exact product) and D accumulate steps (the
// partial sum from the row above plus the product, one fp32 RNE rounding: tern_fp_pkg::mac's
// steps, each at most 8 LUT6 levels). Only the accumulate steps are in the row-to-row loop, so
// row k sees a vector D cycles after row k - 1: PE(k, m) sees element (k, n) of the vector
// issued at cycle t during cycle t + 1 + k*D + m, takes the partial sum of PE(k-1, m) P cycles
// later, and its own sum is out D cycles after that. The column result leaves psum(R-1, m)
// during cycle t + 1 + R*D + P + m. Row 0 starts from +0; a row whose element is not valid
// (or a column past the buffer's M) passes the sum through unchanged, and in transpose mode
// the one valid row passes its stationary bits (zero-extended) instead of computing.
//
// PE(k, m) holds two stationary values (double buffer); each moving element carries the
// buffer it multiplies with and that buffer's dtype and width. A stationary load travels down
// the same delay line as the vectors, so row k's weights change D cycles after row k - 1's:
// a load may overwrite a buffer from the cycle after the last vector that used it was issued,
// and a vector issued after a load's last column sees the whole tile.
//
// The mesh is written as loops over register arrays, not as a grid of PE instances: one PE
// body serves every size, and Verilator keeps the 128 x 128 array small (docs/performance.md).
module tern_pe_array #(
  parameter int unsigned Rows = 8,
  parameter int unsigned Cols = 8
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // One moving vector per cycle, unskewed (element k in bits [32k +: 32]).
  input  logic                 in_valid_i,
  input  logic [Rows-1:0]      in_row_mask_i,   // rows that carry an element
  input  logic [Rows*32-1:0]   in_data_i,
  input  logic                 in_buf_i,        // stationary buffer to multiply with
  input  logic [3:0]           in_dtype_i,      // moving dtype
  input  logic [3:0]           in_stat_dtype_i, // the buffer's stationary dtype
  input  logic [8:0]           in_cols_i,       // the buffer's M: columns past it skip the math
  input  logic [1:0]           in_pass_i,       // fp32 pass 0..2 (lo x hi, hi x lo, hi x hi); 3: none
  input  logic                 in_transpose_i,
  // Stationary load: one column of the buffer per cycle.
  input  logic                 ls_we_i,
  input  logic                 ls_buf_i,
  input  logic [7:0]           ls_col_i,        // < Cols
  input  logic [Rows*32-1:0]   ls_data_i,
  // Column results, valid as the controller's tokens say.
  output logic [Cols*32-1:0]   out_data_o
);

  localparam int unsigned D  = tern_pe_pkg::PeAccSteps;
  localparam int unsigned Pe = Rows * Cols;

  // ------------------------------------------------------------------------------------------
  // Row delay lines. A row's lane (112 bits):
  //   [31:0] data  [32] valid  [33] buffer  [34] transpose  [38:35] moving dtype
  //   [42:39] stationary dtype  [51:43] the buffer's M  [53:52] fp32 pass  [63:54] zero
  //   [64] load  [65] load buffer  [73:66] load column  [105:74] load data  [111:106] zero
  // ------------------------------------------------------------------------------------------
  localparam int unsigned LaneW = 112;
  logic [Rows*LaneW-1:0] lane_in, lane_out;
  logic [Rows-1:0]       primed;

  always_comb begin
    for (int k = 0; k < Rows; k++) begin
      lane_in[LaneW*k +: LaneW] = {6'd0, ls_data_i[32*k +: 32], ls_col_i, ls_buf_i, ls_we_i, 10'd0,
                                   in_pass_i, in_cols_i, in_stat_dtype_i, in_dtype_i,
                                   in_transpose_i, in_buf_i, in_valid_i && in_row_mask_i[k],
                                   in_data_i[32*k +: 32]};
    end
  end

  for (genvar k = 0; k < Rows; k++) begin : gen_row
    tern_delay_line #(
      .Width(LaneW),
      .Delay(1 + k * D)
    ) u_skew (
      .clk_i,
      .rst_ni,
      .data_i  (lane_in[LaneW*k +: LaneW]),
      .data_o  (lane_out[LaneW*k +: LaneW]),
      .primed_o(primed[k])
    );
  end

  // ------------------------------------------------------------------------------------------
  // State: flat vectors updated as _d/_q pairs (Verilator cannot schedule delayed assignments
  // to unpacked arrays inside loops it does not unroll; Yosys reads no unpacked-array
  // assignment patterns). Mesh lane (k, m) at k*C + m; weight (b, k, m) at b*R*C + k*C + m.
  // Every pipeline step of a PE holds a mode beside its data: StepMath, or StepRaw with the
  // value to pass (a transposed weight or the partial sum from above) in the data's low bits.
  // ------------------------------------------------------------------------------------------
  localparam int unsigned FieldsW = 2 * 39;                      // both operands' fields
  localparam int unsigned ShiftW  = 2 * 44;
  localparam int unsigned RowsW   = tern_fp_pkg::MulExactRowsW;
  localparam int unsigned UnpW    = 2 * 39;                      // {acc, product} unpacked
  localparam int unsigned OrderW  = tern_fp_pkg::AddOrderW;
  localparam int unsigned AlignW  = tern_fp_pkg::AddAlignedW;
  localparam int unsigned HalfW   = tern_fp_pkg::AddHalfW;
  localparam int unsigned SumW    = tern_fp_pkg::AddSummedW;
  localparam int unsigned CountW  = tern_fp_pkg::AddCountedW;
  localparam int unsigned PrepW   = tern_fp_pkg::RoundPrepW;
  localparam int unsigned RShiftW = tern_fp_pkg::RoundShiftW;
  localparam int unsigned IncW    = tern_fp_pkg::RoundIncW;

  // A PE's step, {mode, data}, in a slot of whole 32-bit words (a simulator moves words).
  localparam int unsigned P1S = 32 * ((FieldsW+2 + 31) / 32);
  localparam int unsigned P2S = 32 * ((ShiftW+2 + 31) / 32);
  localparam int unsigned P3S = 32 * ((RowsW+2 + 31) / 32);
  localparam int unsigned P4S = 32 * ((41 + 31) / 32);
  localparam int unsigned A1S = 32 * ((UnpW+1 + 31) / 32);
  localparam int unsigned A2S = 32 * ((OrderW+1 + 31) / 32);
  localparam int unsigned A3S = 32 * ((AlignW+1 + 31) / 32);
  localparam int unsigned A4S = 32 * ((HalfW+1 + 31) / 32);
  localparam int unsigned A5S = 32 * ((SumW+1 + 31) / 32);
  localparam int unsigned A6S = 32 * ((CountW+1 + 31) / 32);
  localparam int unsigned A7S = 32 * ((PrepW+1 + 31) / 32);
  localparam int unsigned A8S = 32 * ((RShiftW+1 + 31) / 32);
  localparam int unsigned A9S = 32 * ((IncW+1 + 31) / 32);

  logic [Pe*64-1:0]        mv_q, mv_d;      // elements travelling along the rows
  logic [2*Pe*32-1:0]      w_q, w_d;        // stationary double buffer
  logic                    w_we;
  // Product steps: mode {math, raw} then data.
  logic [Pe*P1S-1:0] p1_q, p1_d;
  logic [Pe*P2S-1:0] p2_q, p2_d;
  logic [Pe*P3S-1:0] p3_q, p3_d;
  logic [Pe*P4S-1:0] p4_q, p4_d;
  // Accumulate steps: math flag then data.
  logic [Pe*A1S-1:0] a1_q, a1_d;
  logic [Pe*A2S-1:0] a2_q, a2_d;
  logic [Pe*A3S-1:0] a3_q, a3_d;
  logic [Pe*A4S-1:0] a4_q, a4_d;
  logic [Pe*A5S-1:0] a5_q, a5_d;
  logic [Pe*A6S-1:0] a6_q, a6_d;
  logic [Pe*A7S-1:0] a7_q, a7_d;
  logic [Pe*A8S-1:0] a8_q, a8_d;
  logic [Pe*A9S-1:0] a9_q, a9_d;
  logic [Pe*32-1:0]          psum_q, psum_d;  // partial sums flowing down the columns

  // Stationary loads, row by row as the delay lines deliver them.
  always_comb begin
    w_d  = w_q;
    w_we = 1'b0;
    for (int k = 0; k < Rows; k++) begin
      logic [41:0] ld;
      ld = lane_out[LaneW*k + 64 +: 42];
      if (ld[0] && primed[k]) begin
        w_d[32*(32'(ld[1])*Pe + k*Cols + 32'(ld[9:2])) +: 32] = ld[41:10];
        w_we = 1'b1;
      end
    end
  end

  // Product steps. Element at PE(k, m): the row's delay line for m = 0, else PE(k, m-1).
  always_comb begin
    for (int k = 0; k < Rows; k++) begin
      for (int m = 0; m < Cols; m++) begin
        logic [63:0] e;
        logic [31:0] weight;
        logic [1:0]  stat_part, mov_part, mode;
        logic [FieldsW+1:0] p1;
        logic [ShiftW+1:0]  p2;
        logic [RowsW+1:0]   p3;
        logic [40:0]        p4;
        int unsigned        pe;
        pe = k * Cols + m;
        e  = (m == 0) ? (primed[k] ? lane_out[LaneW*k +: 64] : 64'd0) : mv_q[64*(pe-1) +: 64];
        mv_d[64*pe +: 64] = e;
        weight    = w_q[32*(32'(e[33])*Pe + pe) +: 32];
        stat_part = (e[53:52] == 2'd3) ? tern_fp_pkg::PartWhole
                  : (e[53:52] == 2'd0) ? tern_fp_pkg::PartLo : tern_fp_pkg::PartHi;
        mov_part  = (e[53:52] == 2'd3) ? tern_fp_pkg::PartWhole
                  : (e[53:52] == 2'd1) ? tern_fp_pkg::PartLo : tern_fp_pkg::PartHi;
        // Columns past the buffer's M are never written back: skip their arithmetic.
        mode = {e[32] && (m < 32'(e[51:43])) && e[34], e[32] && (m < 32'(e[51:43])) && !e[34]};
        if (mode[0]) begin
          p1 = {mode, tern_fp_pkg::unpack_part_fields(e[42:39], weight, stat_part),
                tern_fp_pkg::unpack_part_fields(e[38:35], e[31:0], mov_part)};
        end else begin
          p1 = {mode, {(FieldsW - 32){1'b0}}, weight};
        end
        p1_d[P1S*pe +: P1S] = P1S'(p1);

        p1 = p1_q[P1S*pe +: FieldsW+2];
        if (p1[FieldsW]) begin
          p2 = {p1[FieldsW+1:FieldsW], tern_fp_pkg::unpack_shift(p1[77:39]),
                tern_fp_pkg::unpack_shift(p1[38:0])};
        end else begin
          p2 = {p1[FieldsW+1:FieldsW], {(ShiftW - 32){1'b0}}, p1[31:0]};
        end
        p2_d[P2S*pe +: P2S] = P2S'(p2);

        p2 = p2_q[P2S*pe +: ShiftW+2];
        if (p2[ShiftW]) begin
          p3 = {p2[ShiftW+1:ShiftW], tern_fp_pkg::mul_exact_rows(tern_fp_pkg::unpack_exp(p2[87:44]),
                                                                tern_fp_pkg::unpack_exp(p2[43:0]))};
        end else begin
          p3 = {p2[ShiftW+1:ShiftW], {(RowsW - 32){1'b0}}, p2[31:0]};
        end
        p3_d[P3S*pe +: P3S] = P3S'(p3);

        p3 = p3_q[P3S*pe +: RowsW+2];
        if (p3[RowsW]) begin
          p4 = {p3[RowsW+1:RowsW], tern_fp_pkg::mul_exact_resolve(p3[RowsW-1:0])};
        end else begin
          p4 = {p3[RowsW+1:RowsW], 7'd0, p3[31:0]};
        end
        p4_d[P4S*pe +: P4S] = P4S'(p4);
      end
    end
  end

  // Accumulate steps: the partial sum from above joins the product in the first.
  always_comb begin
    for (int k = 0; k < Rows; k++) begin
      for (int m = 0; m < Cols; m++) begin
        logic [40:0]       p4;
        logic [31:0]       psum_in;
        logic [UnpW:0]     a1;
        logic [OrderW:0]   a2;
        logic [AlignW:0]   a3;
        logic [HalfW:0]    a4;
        logic [SumW:0]     a5;
        logic [CountW:0]   a6;
        logic [PrepW:0]    a7;
        logic [RShiftW:0]  a8;
        logic [IncW:0]     a9;
        int unsigned       pe;
        pe      = k * Cols + m;
        p4      = p4_q[P4S*pe +: 41];
        psum_in = (k == 0) ? 32'h0000_0000 : psum_q[32*(pe-Cols) +: 32];
        if (p4[39]) a1 = {1'b1, tern_fp_pkg::unpack(tern_pkg::DtFp32, psum_in), p4[38:0]};
        else        a1 = {1'b0, {(UnpW - 32){1'b0}}, p4[40] ? p4[31:0] : psum_in};
        a1_d[A1S*pe +: A1S] = A1S'(a1);

        a1 = a1_q[A1S*pe +: UnpW+1];
        a2 = a1[UnpW] ? {1'b1, tern_fp_pkg::add_order(a1[77:39], a1[38:0])}
                      : {1'b0, {(OrderW - 32){1'b0}}, a1[31:0]};
        a2_d[A2S*pe +: A2S] = A2S'(a2);

        a2 = a2_q[A2S*pe +: OrderW+1];
        a3 = a2[OrderW] ? {1'b1, tern_fp_pkg::add_align(a2[OrderW-1:0])}
                        : {1'b0, {(AlignW - 32){1'b0}}, a2[31:0]};
        a3_d[A3S*pe +: A3S] = A3S'(a3);

        a3 = a3_q[A3S*pe +: AlignW+1];
        a4 = a3[AlignW] ? {1'b1, tern_fp_pkg::add_sum_low(a3[AlignW-1:0])}
                        : {1'b0, {(HalfW - 32){1'b0}}, a3[31:0]};
        a4_d[A4S*pe +: A4S] = A4S'(a4);

        a4 = a4_q[A4S*pe +: HalfW+1];
        a5 = a4[HalfW] ? {1'b1, tern_fp_pkg::add_sum_high(a4[HalfW-1:0])}
                       : {1'b0, {(SumW - 32){1'b0}}, a4[31:0]};
        a5_d[A5S*pe +: A5S] = A5S'(a5);

        a5 = a5_q[A5S*pe +: SumW+1];
        a6 = a5[SumW] ? {1'b1, tern_fp_pkg::add_count(a5[SumW-1:0])}
                      : {1'b0, {(CountW - 32){1'b0}}, a5[31:0]};
        a6_d[A6S*pe +: A6S] = A6S'(a6);

        a6 = a6_q[A6S*pe +: CountW+1];
        a7 = a6[CountW] ? {1'b1, tern_fp_pkg::round_prep(tern_pkg::DtFp32,
                                                          tern_fp_pkg::add_normalize(a6[CountW-1:0]),
                                                          tern_pkg::RoundRne, 1'b0, 32'd0)}
                        : {1'b0, {(PrepW - 32){1'b0}}, a6[31:0]};
        a7_d[A7S*pe +: A7S] = A7S'(a7);

        a7 = a7_q[A7S*pe +: PrepW+1];
        a8 = a7[PrepW] ? {1'b1, tern_fp_pkg::round_shift(a7[PrepW-1:0])}
                       : {1'b0, {(RShiftW - 32){1'b0}}, a7[31:0]};
        a8_d[A8S*pe +: A8S] = A8S'(a8);

        a8 = a8_q[A8S*pe +: RShiftW+1];
        a9 = a8[RShiftW] ? {1'b1, tern_fp_pkg::round_increment(a8[RShiftW-1:0])}
                         : {1'b0, {(IncW - 32){1'b0}}, a8[31:0]};
        a9_d[A9S*pe +: A9S] = A9S'(a9);

        a9 = a9_q[A9S*pe +: IncW+1];
        psum_d[32*pe +: 32] = a9[IncW] ? tern_fp_pkg::round_encode(a9[IncW-1:0]) : a9[31:0];
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      // The lane vector is R*C*64 bits wide by design (1 Mbit at 128 x 128).
      /* verilator lint_off WIDTHCONCAT */
      mv_q <= '0;
      /* verilator lint_on WIDTHCONCAT */
    end else begin
      mv_q <= mv_d;
    end
  end

  // The steps and weights need no reset: nothing reaches a PSUM write without a valid element
  // (the engine's tokens), and a step's mode comes from the element it carries.
  always_ff @(posedge clk_i) begin
    p1_q   <= p1_d;
    p2_q   <= p2_d;
    p3_q   <= p3_d;
    p4_q   <= p4_d;
    a1_q   <= a1_d;
    a2_q   <= a2_d;
    a3_q   <= a3_d;
    a4_q   <= a4_d;
    a5_q   <= a5_d;
    a6_q   <= a6_d;
    a7_q   <= a7_d;
    a8_q   <= a8_d;
    a9_q   <= a9_d;
    psum_q <= psum_d;
    if (w_we) w_q <= w_d;
  end

  always_comb begin
    for (int m = 0; m < Cols; m++) out_data_o[32*m +: 32] = psum_q[32*((Rows-1)*Cols+m) +: 32];
  end

endmodule
