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
// Simulation builds (tern_fp_pkg::FastSim) evaluate each PE's product and accumulation as whole
// operations at the cycles their first steps would run and carry the results through as many
// registers: the same values at the same cycles, a third of the state. Synthesis, and the model
// built with TERN_SIM_STEPS, build the steps.
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
  localparam int unsigned P  = tern_pe_pkg::PeProductSteps;
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
  // Every product step of a PE holds a mode: {transpose, math} (neither: the partial sum from
  // above passes through). Mode of step s (0-based) for PE pe at s*Pe + pe.
  // ------------------------------------------------------------------------------------------
  logic [Pe*64-1:0]    mv_q, mv_d;      // elements travelling along the rows
  logic [2*Pe*32-1:0]  w_q, w_d;        // stationary double buffer
  logic                w_we;
  logic [P*Pe*2-1:0]   pm_q, pm_d;      // the product steps' modes
  logic [Pe*2-1:0]     pm0;             // the mode of the element entering each PE
  logic [Pe*32-1:0]    weight0;         // the weight it multiplies with
  logic [Pe*32-1:0]    psum_q, psum_d;  // partial sums flowing down the columns
  logic [Pe*32-1:0]    psum_above;      // PE(k, m) sees PE(k-1, m)'s sum; row 0, +0

  // The parts of the stationary and moving operands an element's fp32 pass multiplies:
  // {stationary, moving}.
  function automatic logic [3:0] pass_parts(logic [1:0] pass);
    pass_parts = {(pass == 2'd3) ? tern_fp_pkg::PartWhole
                  : (pass == 2'd0) ? tern_fp_pkg::PartLo : tern_fp_pkg::PartHi,
                  (pass == 2'd3) ? tern_fp_pkg::PartWhole
                  : (pass == 2'd1) ? tern_fp_pkg::PartLo : tern_fp_pkg::PartHi};
  endfunction

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

  // The element at PE(k, m): the row's delay line for m = 0, else PE(k, m-1); its weight and
  // mode. Columns past the buffer's M are never written back: they skip the arithmetic.
  always_comb begin
    for (int k = 0; k < Rows; k++) begin
      for (int m = 0; m < Cols; m++) begin
        logic [63:0] e;
        logic        live;
        e  = (m == 0) ? (primed[k] ? lane_out[LaneW*k +: 64] : 64'd0) : mv_q[64*(k*Cols + m - 1) +: 64];
        mv_d[64*(k*Cols + m) +: 64]    = e;
        weight0[32*(k*Cols + m) +: 32] = w_q[32*(32'(e[33])*Pe + (k*Cols + m)) +: 32];
        live = e[32] && (m < 32'(e[51:43]));
        pm0[2*(k*Cols + m) +: 2] = {live && e[34], live && !e[34]};
      end
    end
  end
  assign pm_d = {pm_q[(P-1)*Pe*2-1:0], pm0};

  // Word by word: as one shifted vector, a simulator shifted the whole mesh's sums once for
  // every PE that read its word (quadratic in the PEs).
  always_comb begin
    for (int pe = 0; pe < Cols; pe++) psum_above[32*pe +: 32] = 32'd0;
    for (int pe = Cols; pe < Pe; pe++) psum_above[32*pe +: 32] = psum_q[32*(pe - Cols) +: 32];
  end

  if (tern_fp_pkg::FastSim) begin : gen_fast
    // ----------------------------------------------------------------------------------------
    // Simulation (tern_fp_pkg::FastSim): each PE's two halves as whole operations -- the exact
    // product as the element enters, the accumulation as the product reaches the last product
    // step -- and their results carried through the same number of registers as the steps
    // (docs/decisions.md, "In simulation the lane's units are their whole operations").
    // ----------------------------------------------------------------------------------------
    logic [Pe*64-1:0] pv0, pv;  // the product (math) or the weight, entering and P cycles later
    logic [Pe*32-1:0] r0;       // this row's sum, D - 1 cycles before psum_q

    always_comb begin
      for (int pe = 0; pe < Pe; pe++) begin
        logic [3:0] parts;
        parts = pass_parts(mv_d[64*pe + 52 +: 2]);
        // An if, not a conditional operator: a simulator then forms the product only for the
        // PEs that use it (Verilator evaluates an inlined function in a conditional anyway).
        pv0[64*pe +: 64] = 64'(weight0[32*pe +: 32]);
        if (pm0[2*pe]) begin
          pv0[64*pe +: 64] = 64'(tern_fp_pkg::mul_exact(
              tern_fp_pkg::unpack_part(mv_d[64*pe + 39 +: 4], weight0[32*pe +: 32], parts[3:2]),
              tern_fp_pkg::unpack_part(mv_d[64*pe + 35 +: 4], mv_d[64*pe +: 32], parts[1:0])));
        end
      end
    end

    // Rings (tern_pipe_delay), so a cycle writes and reads one slot instead of moving them all.
    tern_pipe_delay #(
      .Width   (Pe * 64),
      .Delay   (P),
      .ShiftMax(1)
    ) u_product (
      .clk_i,
      .rst_ni,
      .en_i  (1'b1),
      .data_i(pv0),
      .data_o(pv)
    );

    always_comb begin
      for (int pe = 0; pe < Pe; pe++) begin
        logic [1:0]  mode;
        logic [38:0] v;  // the slot's low bits: the product, or the weight in [31:0]
        mode = pm_q[2*((P-1)*Pe + pe) +: 2];
        v    = pv[64*pe +: 39];
        r0[32*pe +: 32] = mode[1] ? v[31:0] : psum_above[32*pe +: 32];
        if (mode[0]) r0[32*pe +: 32] = tern_fp_pkg::mac_add(psum_above[32*pe +: 32], v);
      end
    end

    tern_pipe_delay #(
      .Width   (Pe * 32),
      .Delay   (D - 1),
      .ShiftMax(1)
    ) u_sum (
      .clk_i,
      .rst_ni,
      .en_i  (1'b1),
      .data_i(r0),
      .data_o(psum_d)
    );

  end else begin : gen_steps
    // ----------------------------------------------------------------------------------------
    // The steps. Each accumulate step holds a mode {math} and a raw word beside its data: the
    // value a step that does no math passes on (the partial sum from above, or a transposed
    // weight). Data: the step's result, written only when it does math (the register holds
    // otherwise). Mode and raw of step s (0-based) for PE pe sit at s*Pe + pe.
    // ----------------------------------------------------------------------------------------
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

    logic [4*Pe*32-1:0] pr_q, pr_d;  // the product steps' raw words (the weight)
    logic [9*Pe-1:0]    am_q, am_d;
    logic [9*Pe*32-1:0] ar_q, ar_d;
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

    // The first product step.
    always_comb begin
      p1_d = p1_q;
      for (int pe = 0; pe < Pe; pe++) begin
        logic [3:0] parts;
        parts = pass_parts(mv_d[64*pe + 52 +: 2]);
        if (pm0[2*pe]) begin
          p1_d[P1S*pe +: P1S] = P1S'({
              tern_fp_pkg::unpack_part_fields(mv_d[64*pe + 39 +: 4], weight0[32*pe +: 32], parts[3:2]),
              tern_fp_pkg::unpack_part_fields(mv_d[64*pe + 35 +: 4], mv_d[64*pe +: 32], parts[1:0])});
        end
      end
    end

    // Modes and raw words move one step a cycle; the partial sum from above (or a transposed
    // weight) enters the accumulate steps' raw word.
    logic [Pe-1:0]    am0;
    logic [Pe*32-1:0] ar0;
    always_comb begin
      for (int pe = 0; pe < Pe; pe++) begin
        am0[pe]          = pm_q[2*(3*Pe + pe)];
        ar0[32*pe +: 32] = pm_q[2*(3*Pe + pe) + 1] ? pr_q[32*(3*Pe + pe) +: 32] : psum_above[32*pe +: 32];
      end
    end
    assign pr_d = {pr_q[3*Pe*32-1:0], weight0};
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
        if (am_q[5*Pe + pe]) a7_d[A7S*pe +: A7S] = A7S'(tern_fp_pkg::add_normalize_prep(a6_q[A6S*pe +: CountW]));
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

    // The steps need no reset: nothing reaches a PSUM write without a valid element (the
    // engine's tokens), and a step's mode comes from the element it carries.
    always_ff @(posedge clk_i) begin
      pr_q <= pr_d;
      am_q <= am_d;
      ar_q <= ar_d;
      p1_q <= p1_d;
      p2_q <= p2_d;
      p3_q <= p3_d;
      p4_q <= p4_d;
      a1_q <= a1_d;
      a2_q <= a2_d;
      a3_q <= a3_d;
      a4_q <= a4_d;
      a5_q <= a5_d;
      a6_q <= a6_d;
      a7_q <= a7_d;
      a8_q <= a8_d;
      a9_q <= a9_d;
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

  // The modes, partial sums and weights need no reset (as the steps).
  always_ff @(posedge clk_i) begin
    pm_q   <= pm_d;
    psum_q <= psum_d;
    if (w_we) w_q <= w_d;
  end

  always_comb begin
    for (int m = 0; m < Cols; m++) out_data_o[32*m +: 32] = psum_q[32*((Rows-1)*Cols+m) +: 32];
  end

`ifndef SYNTHESIS
  // The stepped form (gen_steps) is written as 4 product and 10 accumulate steps; the depths come
  // from the golden model's constants (tern_pe_pkg's generated block), which must agree.
  initial begin : params
    assert (P == 4 && D == 10)
      else $fatal(1, "tern_pe_array: the stepped PE has 4 product and 10 accumulate steps, tern_pe_pkg says %0d and %0d",
                  P, D);
  end
`endif

endmodule
