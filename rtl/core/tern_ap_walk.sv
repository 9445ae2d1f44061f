// tern_ap_walk: one access-pattern operand (docs/isa.md "Operands: access patterns"). On
// start_i it checks the pattern in the golden model's order (partition range, quadrant rule,
// element alignment, dims of size 0, every element inside the partition) and either reports
// err_o (tern::core::FaultKind operand) or walks the pattern, d0 outermost, emitting the byte
// offset of each element inside its partition on a valid/ready stream. `elements_o` is the
// pattern's free size, valid from the cycle after start_i.
module tern_ap_walk #(
  parameter int unsigned P = tern_cfg_pkg::Partitions,
  parameter int unsigned PartitionBytes = tern_cfg_pkg::SbufPartitionBytes
) (
  input  logic                               clk_i,
  input  logic                               rst_ni,
  input  logic                               start_i,
  input  logic [tern_isa_pkg::ApBits-1:0]    ap_i,        // the raw slot
  input  logic [31:0]                        base_i,      // r[ap.base_reg]
  input  logic [7:0]                         lanes_i,     // scalar operands: their partitions
  input  logic                               scalar_i,    // walk one element in lanes_i partitions
  output logic                               checked_o,   // the check is done (pulse)
  output logic                               err_o,       // with checked_o: the pattern is illegal
  output logic [63:0]                        elements_o,
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
  assign dtype  = ap_i[tern_isa_pkg::ApDtypeLsb +: 4];
  assign pstart = ap_i[tern_isa_pkg::ApStartLsb +: 8];
  assign pcount = scalar_i ? lanes_i : ap_i[tern_isa_pkg::ApPartitionsLsb +: 8];
  assign offset = ap_i[tern_isa_pkg::ApOffsetLsb +: 24];
  for (genvar d = 0; d < 4; d++) begin : gen_dims
    assign steps[16*d +: 16] = scalar_i ? 16'd0 : ap_i[tern_isa_pkg::ApD0StepLsb + 32 * d +: 16];
    assign nums[16*d +: 16]  = scalar_i ? 16'd1 : ap_i[tern_isa_pkg::ApD0NumLsb + 32 * d +: 16];
  end

  logic [2:0] eb;
  always_comb begin
    unique case (dtype)
      tern_pkg::DtFp32, tern_pkg::DtTf32, tern_pkg::DtInt32: eb = 3'd4;
      tern_pkg::DtBf16, tern_pkg::DtFp16:                    eb = 3'd2;
      default:                                               eb = 3'd1;
    endcase
  end

  // The checks, combinational on the operand.
  logic [33:0] first;  // offset + base, in bytes
  logic        bad;
  always_comb begin
    logic signed [47:0] lo, hi, span;
    logic               quadrant_ok, dim_zero;
    first = {10'd0, offset} + {2'd0, base_i};
    if (32'(pcount) > 2 * Q)      quadrant_ok = (pstart == 8'd0);
    else if (32'(pcount) > Q)     quadrant_ok = (pstart == 8'd0) || (32'(pstart) == 2 * Q);
    else                          quadrant_ok = (32'(pstart) % Q) == 0;
    dim_zero = 1'b0;
    lo = '0;
    hi = '0;
    for (int unsigned d = 0; d < 4; d++) begin
      dim_zero = dim_zero || (nums[16*d +: 16] == 16'd0);
      span = 48'($signed(steps[16*d +: 16])) * $signed({32'd0, nums[16*d +: 16]} - 48'sd1);
      if (span < 0) lo = lo + span;
      else          hi = hi + span;
    end
    lo = $signed({14'd0, first}) + lo * $signed({45'd0, eb});
    hi = $signed({14'd0, first}) + (hi + 48'sd1) * $signed({45'd0, eb});
    bad = (pcount == 8'd0) || (32'(pstart) + 32'(pcount) > P) || !quadrant_ok ||
          (first % 34'(eb) != 34'd0) || dim_zero || (lo < 0) || (hi > 48'(PartitionBytes));
  end

  // Dense: every dim of more than one element steps by the span of the dims inside it, so the
  // walk visits consecutive elements in ascending order (the Tensor Engine's PSUM output rule).
  always_comb begin
    logic [47:0] span;
    dense_o = 1'b1;
    span    = 48'd1;
    for (int d = 3; d >= 0; d--) begin
      if (nums[16*d +: 16] > 16'd1) begin
        if (48'($signed(steps[16*d +: 16])) != span) dense_o = 1'b0;
        span = span * 48'(nums[16*d +: 16]);
      end
    end
  end

  // The walk.
  logic        run_q, run_d, checked_q, checked_d, err_q, err_d;
  logic [63:0] idx_q, idx_d;  // dim d's index in bits 16d +: 16
  logic [33:0] first_q, first_d;
  logic [2:0]  eb_q, eb_d;
  logic [63:0] elements_q, elements_d;

  logic last;
  assign last = (idx_q[0 +: 16] == nums[16*0 +: 16] - 16'd1) && (idx_q[16 +: 16] == nums[16*1 +: 16] - 16'd1) &&
                (idx_q[32 +: 16] == nums[16*2 +: 16] - 16'd1) && (idx_q[48 +: 16] == nums[16*3 +: 16] - 16'd1);

  logic carry;
  always_comb begin
    carry      = 1'b1;
    run_d      = run_q;
    idx_d      = idx_q;
    first_d    = first_q;
    eb_d       = eb_q;
    elements_d = elements_q;
    checked_d  = 1'b0;
    err_d      = err_q;
    if (start_i) begin
      checked_d  = 1'b1;
      err_d      = bad;
      run_d      = !bad;
      first_d    = first;
      eb_d       = eb;
      elements_d = 64'(nums[16*0 +: 16]) * 64'(nums[16*1 +: 16]) * 64'(nums[16*2 +: 16]) * 64'(nums[16*3 +: 16]);
      idx_d      = '0;
    end else if (run_q && off_ready_i) begin
      if (last) begin
        run_d = 1'b0;
      end else begin
        // An odometer: the innermost dim (d3) counts fastest.
        for (int d = 3; d >= 0; d--) begin
          if (carry) begin
            if (idx_q[16*d +: 16] == nums[16*d +: 16] - 16'd1) begin
              idx_d[16*d +: 16] = 16'd0;
            end else begin
              idx_d[16*d +: 16] = idx_q[16*d +: 16] + 16'd1;
              carry    = 1'b0;
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
      first_q    <= '0;
      eb_q       <= '0;
      elements_q <= '0;
      idx_q      <= '0;
    end else begin
      run_q      <= run_d;
      checked_q  <= checked_d;
      err_q      <= err_d;
      first_q    <= first_d;
      eb_q       <= eb_d;
      elements_q <= elements_d;
      idx_q      <= idx_d;
    end
  end

  logic signed [47:0] elem;
  always_comb begin
    elem = '0;
    for (int unsigned d = 0; d < 4; d++)
      elem = elem + $signed({32'd0, idx_q[16*d +: 16]}) * 48'($signed(steps[16*d +: 16]));
  end

  assign checked_o         = checked_q;
  assign err_o             = err_q;
  assign elements_o        = elements_q;
  assign start_partition_o = pstart;
  assign partitions_o      = pcount;
  assign elem_bytes_o      = eb_q;
  assign off_valid_o       = run_q;
  assign off_o             = 32'($signed({14'd0, first_q}) + elem * $signed({45'd0, eb_q}));
  assign off_last_o        = last;

endmodule
