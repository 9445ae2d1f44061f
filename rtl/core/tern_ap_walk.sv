// tern_ap_walk: one access-pattern operand (docs/isa.md "Operands: access patterns"). On
// start_i it checks the pattern in the golden model's order (partition range, quadrant rule,
// element alignment, dims of size 0, every element inside the partition of partition_bytes_i
// bytes) and either reports err_o (tern::core::FaultKind operand) or walks the pattern, d0
// outermost, emitting the byte offset of each element inside its partition on a valid/ready
// stream. `elements_o` is the pattern's free size and [span_lo_o, span_hi_o) the bytes its
// elements cover inside each partition, valid from the cycle after start_i (the span only when
// the pattern is legal).
//
// The walk multiplies nothing: each dim keeps the offset at the start of its current iteration
// (an odometer of positions, as tern_dma_walk does), so a step adds the advancing dim's byte
// step to its position and copies the sum into every dim inside it. The check multiplies once
// per dim for the span and once per dim for the running element count, which also gives the
// dense test.
module tern_ap_walk #(
  parameter int unsigned P = tern_cfg_pkg::Partitions
) (
  input  logic                               clk_i,
  input  logic                               rst_ni,
  input  logic                               start_i,
  input  logic [tern_isa_pkg::ApBits-1:0]    ap_i,        // the raw slot
  input  logic [31:0]                        base_i,      // r[ap.base_reg]
  input  logic [31:0]                        partition_bytes_i,  // the memory's partition size
  input  logic [7:0]                         lanes_i,     // scalar operands: their partitions
  input  logic                               scalar_i,    // walk one element in lanes_i partitions
  output logic                               checked_o,   // the check is done (pulse)
  output logic                               err_o,       // with checked_o: the pattern is illegal
  output logic [63:0]                        elements_o,
  output logic [31:0]                        span_lo_o,
  output logic [31:0]                        span_hi_o,
  output logic [7:0]                         start_partition_o,
  output logic [7:0]                         partitions_o,
  output logic [2:0]                         elem_bytes_o,
  output logic                               dense_o,     // visits consecutive elements, ascending
  output logic                               off_valid_o,
  input  logic                               off_ready_i,
  output logic [31:0]                        off_o,
  output logic                               off_last_o
);

  localparam int unsigned Q = (P / 4 > 0) ? P / 4 : 1;  // the quadrant

  // Fields. The memory and base register are the caller's (it passes the register's value).
  logic unused_ap;
  assign unused_ap = ^ap_i;
  logic [3:0]  dtype;
  logic [7:0]  pstart, pcount;
  logic [23:0] offset;
  logic [63:0] steps, nums;  // dim d in bits 16d +: 16
  assign dtype  = ap_i[tern_isa_pkg::ApDtypeLsb +: tern_isa_pkg::ApDtypeWidth];
  assign pstart = ap_i[tern_isa_pkg::ApStartLsb +: tern_isa_pkg::ApStartWidth];
  assign pcount = scalar_i ? lanes_i : ap_i[tern_isa_pkg::ApPartitionsLsb +: tern_isa_pkg::ApPartitionsWidth];
  assign offset = ap_i[tern_isa_pkg::ApOffsetLsb +: tern_isa_pkg::ApOffsetWidth];
  for (genvar d = 0; d < 4; d++) begin : gen_dims
    assign steps[16*d +: 16] = scalar_i ? 16'd0 : ap_i[tern_isa_pkg::ApD0StepLsb + 32 * d +: 16];
    assign nums[16*d +: 16]  = scalar_i ? 16'd1 : ap_i[tern_isa_pkg::ApD0NumLsb + 32 * d +: 16];
  end

  // The element size as a shift: 1, 2 or 4 bytes.
  logic [1:0] eb_log;
  always_comb begin
    unique case (dtype)
      tern_pkg::DtFp32, tern_pkg::DtTf32, tern_pkg::DtInt32: eb_log = 2'd2;
      tern_pkg::DtBf16, tern_pkg::DtFp16:                    eb_log = 2'd1;
      default:                                               eb_log = 2'd0;
    endcase
  end

  // The checks, combinational on the operand. The lowest and highest element offsets come
  // from each dim's span, step * (num - 1): negative spans lower the first, the others raise
  // the last.
  logic [33:0] first;  // offset + base, in bytes
  logic        bad, aligned;
  logic signed [37:0] lo_bytes, hi_bytes;  // the span around first
  always_comb begin
    logic signed [35:0] lo, hi;
    logic signed [32:0] span;
    logic               quadrant_ok, dim_zero;
    first = {10'd0, offset} + {2'd0, base_i};
    if (32'(pcount) > 2 * Q)      quadrant_ok = (pstart == 8'd0);
    else if (32'(pcount) > Q)     quadrant_ok = (pstart == 8'd0) || (32'(pstart) == 2 * Q);
    else                          quadrant_ok = (32'(pstart) % Q) == 0;
    unique case (eb_log)
      2'd2:    aligned = first[1:0] == 2'd0;
      2'd1:    aligned = !first[0];
      default: aligned = 1'b1;
    endcase
    dim_zero = 1'b0;
    lo = '0;
    hi = '0;
    for (int unsigned d = 0; d < 4; d++) begin
      dim_zero = dim_zero || (nums[16*d +: 16] == 16'd0);
      span = $signed(steps[16*d +: 16]) * $signed({1'b0, nums[16*d +: 16] - 16'd1});
      if (span < 0) lo = lo + 36'(span);
      else          hi = hi + 36'(span);
    end
    lo_bytes = 38'(lo) <<< eb_log;
    hi_bytes = (38'(hi) + 38'sd1) <<< eb_log;
    bad = (pcount == 8'd0) || (32'(pstart) + 32'(pcount) > P) || !quadrant_ok || !aligned ||
          dim_zero || ($signed({4'd0, first}) + lo_bytes < 0) ||
          ($signed({4'd0, first}) + hi_bytes > $signed({6'd0, partition_bytes_i}));
  end

  // Dense: every dim of more than one element steps by the element count of the dims inside
  // it, so the walk visits consecutive elements in ascending order (the Tensor Engine's PSUM
  // output rule). The running count, all dims multiplied, is the free size.
  logic [63:0] elements;
  logic        dense;
  always_comb begin
    logic [63:0] inner;  // the elements of the dims inside dim d
    logic        zero;
    dense = 1'b1;
    inner = 64'd1;
    zero  = 1'b0;
    for (int d = 3; d >= 0; d--) begin
      zero = zero || (nums[16*d +: 16] == 16'd0);
      if (nums[16*d +: 16] > 16'd1) begin
        if (64'($signed(steps[16*d +: 16])) != inner) dense = 1'b0;
        inner = inner * 64'(nums[16*d +: 16]);
      end
    end
    elements = zero ? 64'd0 : inner;
  end
  assign dense_o = dense;

  // The walk: dim d's index at 16d, and its position (the offset where its current iteration
  // started) at 32d; dim 3's position is the element's offset.
  logic         run_q, run_d, checked_q, checked_d, err_q, err_d;
  logic [63:0]  idx_q, idx_d;
  logic [127:0] pos_q, pos_d;
  logic [1:0]   eb_log_q, eb_log_d;
  logic [63:0]  elements_q, elements_d;
  logic [63:0]  bytes_q, bytes_d;  // span_lo at 0, span_hi at 32

  logic [3:0] at_end;  // dim d at its last index
  for (genvar d = 0; d < 4; d++) begin : gen_end
    assign at_end[d] = idx_q[16*d +: 16] == nums[16*d +: 16] - 16'd1;
  end
  logic last;
  assign last = &at_end;

  always_comb begin
    logic        carry;
    logic [31:0] next;
    carry      = 1'b1;
    next       = '0;
    run_d      = run_q;
    idx_d      = idx_q;
    pos_d      = pos_q;
    eb_log_d   = eb_log_q;
    elements_d = elements_q;
    bytes_d    = bytes_q;
    checked_d  = 1'b0;
    err_d      = err_q;
    if (start_i) begin
      checked_d  = 1'b1;
      err_d      = bad;
      run_d      = !bad;
      eb_log_d   = eb_log;
      elements_d = elements;
      bytes_d    = {32'($signed({4'd0, first}) + hi_bytes), 32'($signed({4'd0, first}) + lo_bytes)};
      idx_d      = '0;
      pos_d      = {4{first[31:0]}};
    end else if (run_q && off_ready_i) begin
      if (last) begin
        run_d = 1'b0;
      end else begin
        // The innermost dim not at its end advances; the dims inside it restart from its new
        // position.
        for (int d = 3; d >= 0; d--) begin
          if (carry) begin
            if (at_end[d]) begin
              idx_d[16*d +: 16] = 16'd0;
            end else begin
              idx_d[16*d +: 16] = idx_q[16*d +: 16] + 16'd1;
              next  = pos_q[32*d +: 32] + (32'($signed(steps[16*d +: 16])) << eb_log_q);
              carry = 1'b0;
              for (int i = 0; i < 4; i++) if (i >= d) pos_d[32*i +: 32] = next;
            end
          end
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      run_q      <= 1'b0;
      checked_q  <= 1'b0;
      err_q      <= 1'b0;
      eb_log_q   <= '0;
      elements_q <= '0;
      bytes_q    <= '0;
      idx_q      <= '0;
      pos_q      <= '0;
    end else begin
      run_q      <= run_d;
      checked_q  <= checked_d;
      err_q      <= err_d;
      eb_log_q   <= eb_log_d;
      elements_q <= elements_d;
      bytes_q    <= bytes_d;
      idx_q      <= idx_d;
      pos_q      <= pos_d;
    end
  end

  assign checked_o         = checked_q;
  assign err_o             = err_q;
  assign elements_o        = elements_q;
  assign span_lo_o         = bytes_q[31:0];
  assign span_hi_o         = bytes_q[63:32];
  assign start_partition_o = pstart;
  assign partitions_o      = pcount;
  assign elem_bytes_o      = 3'd1 << eb_log_q;
  assign off_valid_o       = run_q;
  assign off_o             = pos_q[96 +: 32];
  assign off_last_o        = last;

endmodule
