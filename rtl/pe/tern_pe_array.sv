// tern_pe_array: the Tensor Engine's R x C weight-stationary systolic mesh.
//
//   moving vector n, row k ---> [skew: k+1 regs] ---> PE(k,0) -> PE(k,1) -> ... -> PE(k,C-1)
//                                                       |          |                  |
//   partial sums flow down each column m:             PE(k+1,0)  ...     out[m] = psum(R-1, m)
//
// PE(k, m) holds two stationary values (double buffer, w_q[buffer][k][m]); each moving element
// carries the buffer it multiplies with, and that buffer's dtype and width, so the next tile
// (and its description) loads while the current one is still streaming.
// PE(k, m) sees element (k, n) of the vector issued at cycle t during cycle t + k + 1 + m and
// folds it into the column's partial sum with tern_fp_pkg::mac (exact product, one fp32
// rounding); row 0 starts from +0 and rows whose element is not valid pass the sum through.
// The column result leaves psum_q[R-1][m] during cycle t + R + 1 + m. In transpose mode a PE
// passes its stationary bits (zero-extended) instead of computing, for the one valid row.
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

  // State is held in flat vectors, updated as _d/_q pairs: Verilator cannot schedule delayed
  // assignments to unpacked arrays inside loops it does not unroll, and Yosys reads no
  // unpacked-array assignment patterns. A moving element and everything that travels with it
  // share one 64-bit lane, so a PE moves it with one access:
  //   [31:0] data  [32] valid  [33] buffer  [34] transpose  [38:35] moving dtype
  //   [42:39] stationary dtype  [51:43] the buffer's M  [53:52] fp32 pass  [63:54] zero
  // Skew lane (k, j) is at k*R + j; mesh lane (k, m) at k*C + m; weight (b, k, m) at b*R*C + k*C + m.
  localparam int unsigned Sk = Rows * Rows;
  localparam int unsigned Pe = Rows * Cols;

  logic [Sk*64-1:0]   sk_q, sk_d;      // skew line: row k's element passes k + 1 lanes
  logic [Pe*64-1:0]   mv_q, mv_d;      // elements travelling along the rows
  logic [2*Pe*32-1:0] w_q, w_d;        // stationary double buffer
  logic [Pe*32-1:0]   psum_q, psum_d;  // partial sums flowing down the columns

  always_comb begin
    sk_d = sk_q;
    for (int k = 0; k < Rows; k++) begin
      sk_d[64*(k*Rows) +: 64] = {10'd0, in_pass_i, in_cols_i, in_stat_dtype_i, in_dtype_i, in_transpose_i,
                                 in_buf_i, in_valid_i && in_row_mask_i[k], in_data_i[32*k +: 32]};
      for (int j = 1; j <= k; j++) sk_d[64*(k*Rows+j) +: 64] = sk_q[64*(k*Rows+j-1) +: 64];
    end
  end

  // The PEs. Element at PE(k, m): from the skew line's last lane for m = 0, else PE(k, m-1).
  always_comb begin
    for (int k = 0; k < Rows; k++) begin
      for (int m = 0; m < Cols; m++) begin
        logic [63:0] e;
        logic [31:0] psum_in, weight;
        logic [1:0]  stat_part, mov_part;
        e       = (m == 0) ? sk_q[64*(k*Rows+k) +: 64] : mv_q[64*(k*Cols+m-1) +: 64];
        psum_in = (k == 0) ? 32'h0000_0000 : psum_q[32*((k-1)*Cols+m) +: 32];
        weight  = w_q[32*(32'(e[33])*Pe + k*Cols + m) +: 32];
        mv_d[64*(k*Cols+m) +: 64] = e;
        stat_part = (e[53:52] == 2'd3) ? tern_fp_pkg::PartWhole
                  : (e[53:52] == 2'd0) ? tern_fp_pkg::PartLo : tern_fp_pkg::PartHi;
        mov_part  = (e[53:52] == 2'd3) ? tern_fp_pkg::PartWhole
                  : (e[53:52] == 2'd1) ? tern_fp_pkg::PartLo : tern_fp_pkg::PartHi;
        // Columns past the buffer's M are never written back: skip their arithmetic.
        if (e[32] && (m < 32'(e[51:43]))) begin
          psum_d[32*(k*Cols+m) +: 32] =
              e[34] ? weight : tern_fp_pkg::mac_parts(psum_in, e[42:39], weight, stat_part,
                                                       e[38:35], e[31:0], mov_part);
        end else begin
          psum_d[32*(k*Cols+m) +: 32] = psum_in;
        end
      end
    end
  end

  // Stationary load: column ls_col_i of buffer ls_buf_i, every row at once.
  always_comb begin
    w_d = w_q;
    for (int k = 0; k < Rows; k++) begin
      w_d[32*(32'(ls_buf_i)*Pe + k*Cols + 32'(ls_col_i)) +: 32] = ls_data_i[32*k +: 32];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      // The lane vectors are R*R*64 and R*C*64 bits wide by design (1 Mbit at 128 x 128).
      /* verilator lint_off WIDTHCONCAT */
      sk_q <= '0;
      mv_q <= '0;
      /* verilator lint_on WIDTHCONCAT */
    end else begin
      sk_q <= sk_d;
      mv_q <= mv_d;
    end
  end

  // Partial sums and weights need no reset: nothing reads them without a valid element.
  always_ff @(posedge clk_i) begin
    psum_q <= psum_d;
    if (ls_we_i) w_q <= w_d;
  end

  always_comb begin
    for (int m = 0; m < Cols; m++) out_data_o[32*m +: 32] = psum_q[32*((Rows-1)*Cols+m) +: 32];
  end

endmodule
