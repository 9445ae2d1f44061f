// tern_psum: the partial-sum buffer, Partitions x Banks x Entries fp32 words, one memory per
// partition. Two ports:
//   * the Tensor Engine's accumulate port: partition p < TeCols writes one word per cycle,
//     overwriting or read-add-writing with the fp32 RNE add of docs/numerics.md;
//   * a plain port (Vector/Scalar engines, the testbench): one address for all partitions, a
//     partition mask, write or read (read data one cycle later).
// The Tensor Engine has priority: the plain port stalls (rw_ready_o low) in a cycle where the
// engine writes a partition it selects. Conflicts cost cycles, never correctness.
module tern_psum #(
  parameter int unsigned Partitions = 8,
  parameter int unsigned Banks      = 8,
  parameter int unsigned Entries    = 512,
  parameter int unsigned TeCols     = 8,      // partitions the Tensor Engine writes
  localparam int unsigned Words     = Banks * Entries,
  localparam int unsigned AddrWidth = $clog2(Words)
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,
  // Tensor Engine accumulate port
  input  logic [TeCols-1:0]           pe2psum_we_i,
  input  logic [TeCols-1:0]           pe2psum_acc_i,
  input  logic [TeCols*AddrWidth-1:0] pe2psum_addr_i,
  input  logic [TeCols*32-1:0]        pe2psum_data_i,
  // plain port
  input  logic                        rw_valid_i,
  output logic                        rw_ready_o,
  input  logic                        rw_write_i,
  input  logic [AddrWidth-1:0]        rw_addr_i,     // bank * Entries + offset
  input  logic [Partitions-1:0]       rw_mask_i,
  input  logic [Partitions*32-1:0]    rw_wdata_i,
  output logic                        rd_valid_o,
  output logic [Partitions*32-1:0]    rd_data_o
);

  logic [Partitions-1:0]           te_we, te_acc;
  logic [Partitions*AddrWidth-1:0] te_addr;
  logic [Partitions*32-1:0]        te_data, te_old, te_new;
  logic                            rw_fire, rd_valid_q;

  assign rw_ready_o = !(|(te_we & rw_mask_i));
  assign rw_fire    = rw_valid_i && rw_ready_o;
  assign rd_valid_o = rd_valid_q;

  // The engine's columns map to partitions 0 .. TeCols-1.
  assign te_we   = Partitions'(pe2psum_we_i);
  assign te_acc  = Partitions'(pe2psum_acc_i);
  assign te_addr = (Partitions*AddrWidth)'(pe2psum_addr_i);
  assign te_data = (Partitions*32)'(pe2psum_data_i);

  // Read-add-write: one adder body in a loop (not one per partition instance), so the
  // 128-partition PSUM stays small in Verilator.
  always_comb begin
    for (int p = 0; p < Partitions; p++) begin
      te_new[32*p +: 32] = (te_we[p] && te_acc[p])
                           ? tern_fp_pkg::fp32_add(te_old[32*p +: 32], te_data[32*p +: 32])
                           : te_data[32*p +: 32];
    end
  end

  for (genvar p = 0; p < Partitions; p++) begin : gen_partition
    logic [31:0] mem_q [Words];
    logic [31:0] rd_q;

    assign te_old[32*p +: 32] = mem_q[te_addr[AddrWidth*p +: AddrWidth]];

    always_ff @(posedge clk_i) begin
      if (te_we[p]) begin
        mem_q[te_addr[AddrWidth*p +: AddrWidth]] <= te_new[32*p +: 32];
      end else if (rw_fire && rw_write_i && rw_mask_i[p]) begin
        mem_q[rw_addr_i] <= rw_wdata_i[32*p +: 32];
      end
      if (rw_fire && !rw_write_i) rd_q <= mem_q[rw_addr_i];
    end
    assign rd_data_o[32*p +: 32] = rd_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_valid_q <= 1'b0;
    end else begin
      rd_valid_q <= rw_fire && !rw_write_i;
    end
  end

endmodule
