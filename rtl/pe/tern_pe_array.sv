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
  parameter int unsigned Rows = 2,  // the defaults are the fpga config's, the size `make timing`
  parameter int unsigned Cols = 2   // checks this module at (rtl/timing.yaml)
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

  // A PE's step data in a slot of whole 32-bit words (a simulator moves words).
  localparam int unsigned P1S = 32 * ((FieldsW + 31) / 32);
  localparam int unsigned P2S = 32 * ((ShiftW + 31) / 32);
  localparam int unsigned P3S = 32 * ((RowsW + 31) / 32);
  localparam int unsigned P4S = 64;
  localparam int unsigned A1S = 32 * ((UnpW + 31) / 32);
  localparam int unsigned A2S = 32 * ((OrderW + 31) / 32);
  localparam int unsigned A3S = 32 * ((AlignW + 31) / 32);
  localparam int unsigned A4S = 32 * ((HalfW + 31) / 32);
  localparam int unsigned A5S = 32 * ((SumW + 31) / 32);
  localparam int unsigned A6S = 32 * ((CountW + 31) / 32);
  localparam int unsigned A7S = 32 * ((PrepW + 31) / 32);
  localparam int unsigned A8S = 32 * ((RShiftW + 31) / 32);
  localparam int unsigned A9S = 32 * ((IncW + 31) / 32);

  logic [Pe*64-1:0]        mv_q, mv_d;      // elements travelling along the rows
  logic [2*Pe*32-1:0]      w_q, w_d;        // stationary double buffer
  logic                    w_we;
  // Each step of a PE holds a mode, a raw word and data. Mode: product steps {transpose,
  // math}, accumulate steps {math}. Raw: the value a step that does no math passes on (the
  // transposed weight; in the accumulate steps the partial sum from above, or that weight).
  // Data: the step's result, written only when it does math (the register holds otherwise).
  // Mode and raw of step s (0-based) for PE pe sit at s*Pe + pe.
  logic [4*Pe*2-1:0]   pm_q, pm_d;
  logic [4*Pe*32-1:0]  pr_q, pr_d;
  logic [9*Pe-1:0]     am_q, am_d;
  logic [9*Pe*32-1:0]  ar_q, ar_d;
  logic [Pe*P1S-1:0] p1_q, p1_d;
  logic [Pe*P2S-1:0] p2_q, p2_d;
  logic [Pe*P3S-1:0] p3_q, p3_d;
  logic [Pe*P4S-1:0] p4_q, p4_d;
  logic [Pe*A1S-1:0] a1_q, a1_d;
  logic [Pe*A2S-1:0] a2_q, a2_d;
  logic [Pe*A3S-1:0] a3_q, a3_d;
  logic [Pe*A4S-1:0] a4_q, a4_d;
  logic [Pe*A5S-1:0] a5_q, a5_d;
  logic [Pe*A6S-1:0] a6_q, a6_d;
  logic [Pe*A7S-1:0] a7_q, a7_d;
  logic [Pe*A8S-1:0] a8_q, a8_d;
  logic [Pe*A9S-1:0] a9_q, a9_d;
  logic [Pe*32-1:0]  psum_q, psum_d;  // partial sums flowing down the columns

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

  // The first product step. Element at PE(k, m): the row's delay line for m = 0, else
  // PE(k, m-1).
  logic [Pe*2-1:0]  pm0;
  logic [Pe*32-1:0] pr0;
  always_comb begin
    p1_d = p1_q;
    for (int k = 0; k < Rows; k++) begin
      for (int m = 0; m < Cols; m++) begin
        logic [63:0] e;
        logic [31:0] weight;
        logic [1:0]  stat_part, mov_part, mode;
        e  = (m == 0) ? (primed[k] ? lane_out[LaneW*k +: 64] : 64'd0) : mv_q[64*(k*Cols + m - 1) +: 64];
        mv_d[64*(k*Cols + m) +: 64] = e;
        weight    = w_q[32*(32'(e[33])*Pe + (k*Cols + m)) +: 32];
        stat_part = (e[53:52] == 2'd3) ? tern_fp_pkg::PartWhole
                  : (e[53:52] == 2'd0) ? tern_fp_pkg::PartLo : tern_fp_pkg::PartHi;
        mov_part  = (e[53:52] == 2'd3) ? tern_fp_pkg::PartWhole
                  : (e[53:52] == 2'd1) ? tern_fp_pkg::PartLo : tern_fp_pkg::PartHi;
        // Columns past the buffer's M are never written back: skip their arithmetic.
        mode = {e[32] && (m < 32'(e[51:43])) && e[34], e[32] && (m < 32'(e[51:43])) && !e[34]};
        pm0[2*(k*Cols + m) +: 2]   = mode;
        pr0[32*(k*Cols + m) +: 32] = weight;
        if (mode[0]) begin
          p1_d[P1S*(k*Cols + m) +: P1S] = P1S'({tern_fp_pkg::unpack_part_fields(e[42:39], weight, stat_part),
                                      tern_fp_pkg::unpack_part_fields(e[38:35], e[31:0], mov_part)});
        end
      end
    end
  end

  // Modes and raw words move one step a cycle; the partial sum from above (or a transposed
  // weight) enters the accumulate steps' raw word.
  logic [Pe-1:0]    am0;
  logic [Pe*32-1:0] ar0, psum_above;  // psum_above: PE(k, m) sees PE(k-1, m)'s sum; row 0, +0
  if (Rows > 1) begin : gen_above
    assign psum_above = {psum_q[(Pe-Cols)*32-1:0], {(Cols*32){1'b0}}};
  end else begin : gen_one_row
    assign psum_above = '0;
  end
  always_comb begin
    for (int pe = 0; pe < Pe; pe++) begin
      am0[pe]          = pm_q[2*(3*Pe + pe)];
      ar0[32*pe +: 32] = pm_q[2*(3*Pe + pe) + 1] ? pr_q[32*(3*Pe + pe) +: 32] : psum_above[32*pe +: 32];
    end
  end
  assign pm_d = {pm_q[3*Pe*2-1:0], pm0};
  assign pr_d = {pr_q[3*Pe*32-1:0], pr0};
  assign am_d = {am_q[8*Pe-1:0], am0};
  assign ar_d = {ar_q[8*Pe*32-1:0], ar0};

  // The other steps, one block each; a step's data register holds unless it does math.
  always_comb begin
    p2_d = p2_q;
    for (int pe = 0; pe < Pe; pe++) begin
      if (pm_q[2*pe]) begin
        p2_d[P2S*pe +: P2S] = P2S'({tern_fp_pkg::unpack_shift(p1_q[P1S*pe + 39 +: 39]),
                                    tern_fp_pkg::unpack_shift(p1_q[P1S*pe +: 39])});
      end
    end
  end
  always_comb begin
    p3_d = p3_q;
    for (int pe = 0; pe < Pe; pe++) begin
      if (pm_q[2*(Pe + pe)]) begin
        p3_d[P3S*pe +: P3S] = P3S'(tern_fp_pkg::mul_exact_rows(
            tern_fp_pkg::unpack_exp(p2_q[P2S*pe + 44 +: 44]), tern_fp_pkg::unpack_exp(p2_q[P2S*pe +: 44])));
      end
    end
  end
  always_comb begin
    p4_d = p4_q;
    for (int pe = 0; pe < Pe; pe++) begin
      if (pm_q[2*(2*Pe + pe)]) p4_d[P4S*pe +: P4S] = P4S'(tern_fp_pkg::mul_exact_resolve(p3_q[P3S*pe +: RowsW]));
    end
  end
  // The partial sum from above joins the product.
  always_comb begin
    a1_d = a1_q;
    for (int pe = 0; pe < Pe; pe++) begin
      if (pm_q[2*(3*Pe + pe)]) begin
        // The partial sum straight from the row above (not through ar0's transpose select).
        a1_d[A1S*pe +: A1S] = A1S'({tern_fp_pkg::unpack(tern_pkg::DtFp32, psum_above[32*pe +: 32]),
                                    p4_q[P4S*pe +: 39]});
      end
    end
  end
  always_comb begin
    a2_d = a2_q;
    for (int pe = 0; pe < Pe; pe++) begin
      if (am_q[pe]) a2_d[A2S*pe +: A2S] = A2S'(tern_fp_pkg::add_order(a1_q[A1S*pe + 39 +: 39], a1_q[A1S*pe +: 39]));
    end
  end
  always_comb begin
    a3_d = a3_q;
    for (int pe = 0; pe < Pe; pe++) begin
      if (am_q[Pe + pe]) a3_d[A3S*pe +: A3S] = A3S'(tern_fp_pkg::add_align(a2_q[A2S*pe +: OrderW]));
    end
  end
  always_comb begin
    a4_d = a4_q;
    for (int pe = 0; pe < Pe; pe++) begin
      if (am_q[2*Pe + pe]) a4_d[A4S*pe +: A4S] = A4S'(tern_fp_pkg::add_sum_low(a3_q[A3S*pe +: AlignW]));
    end
  end
  always_comb begin
    a5_d = a5_q;
    for (int pe = 0; pe < Pe; pe++) begin
      if (am_q[3*Pe + pe]) a5_d[A5S*pe +: A5S] = A5S'(tern_fp_pkg::add_sum_high(a4_q[A4S*pe +: HalfW]));
    end
  end
  always_comb begin
    a6_d = a6_q;
    for (int pe = 0; pe < Pe; pe++) begin
      if (am_q[4*Pe + pe]) a6_d[A6S*pe +: A6S] = A6S'(tern_fp_pkg::add_count(a5_q[A5S*pe +: SumW]));
    end
  end
  always_comb begin
    a7_d = a7_q;
    for (int pe = 0; pe < Pe; pe++) begin
      if (am_q[5*Pe + pe]) begin
        a7_d[A7S*pe +: A7S] = A7S'(tern_fp_pkg::round_prep(tern_pkg::DtFp32,
                                                            tern_fp_pkg::add_normalize(a6_q[A6S*pe +: CountW]),
                                                            tern_pkg::RoundRne, 1'b0, 32'd0));
      end
    end
  end
  always_comb begin
    a8_d = a8_q;
    for (int pe = 0; pe < Pe; pe++) begin
      if (am_q[6*Pe + pe]) a8_d[A8S*pe +: A8S] = A8S'(tern_fp_pkg::round_shift(a7_q[A7S*pe +: PrepW]));
    end
  end
  always_comb begin
    a9_d = a9_q;
    for (int pe = 0; pe < Pe; pe++) begin
      if (am_q[7*Pe + pe]) a9_d[A9S*pe +: A9S] = A9S'(tern_fp_pkg::round_increment(a8_q[A8S*pe +: RShiftW]));
    end
  end
  always_comb begin
    for (int pe = 0; pe < Pe; pe++) begin
      psum_d[32*pe +: 32] = am_q[8*Pe + pe] ? tern_fp_pkg::round_encode(a9_q[A9S*pe +: IncW])
                                            : ar_q[32*(8*Pe + pe) +: 32];
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
    pm_q   <= pm_d;
    pr_q   <= pr_d;
    am_q   <= am_d;
    ar_q   <= ar_d;
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
