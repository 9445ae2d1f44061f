// tern_psum: the partial-sum buffer, Partitions x Banks x Entries fp32 words, one memory per
// partition. Two ports:
//   * the Tensor Engine's accumulate port: partition p < TeCols writes one word per cycle,
//     overwriting or read-add-writing with the fp32 RNE add of docs/numerics.md, pipelined
//     (tern_psum_acc: the write lands tern_pe_pkg::PsumAccLatency cycles after the request);
//   * a plain port (Vector/Scalar engines, the testbench): one address for all partitions, a
//     partition mask, write or read (read data one cycle later).
// The Tensor Engine has priority: the plain port stalls (rw_ready_o low) in a cycle where the
// engine's pipeline writes a partition it selects. Conflicts cost cycles, never correctness.
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

  logic [Partitions-1:0]           wb_we;
  logic [Partitions*AddrWidth-1:0] te_addr, wb_addr;
  logic [Partitions*32-1:0]        te_old, wb_data;
  logic [TeCols-1:0]               acc_we;
  logic [TeCols*AddrWidth-1:0]     acc_addr;
  logic [TeCols*32-1:0]            acc_data;
  logic                            rw_fire, rd_valid_q;

  assign rw_ready_o = !(|(wb_we & rw_mask_i));
  assign rw_fire    = rw_valid_i && rw_ready_o;
  assign rd_valid_o = rd_valid_q;

  // The engine's columns map to partitions 0 .. TeCols-1.
  assign te_addr = (Partitions*AddrWidth)'(pe2psum_addr_i);
  tern_psum_acc #(.P(TeCols), .AW(AddrWidth)) u_acc (
    .clk_i,
    .rst_ni,
    .te_we_i  (pe2psum_we_i),
    .te_acc_i (pe2psum_acc_i),
    .te_addr_i(pe2psum_addr_i),
    .te_data_i(pe2psum_data_i),
    .old_i    (te_old[TeCols*32-1:0]),
    .wb_we_o  (acc_we),
    .wb_addr_o(acc_addr),
    .wb_data_o(acc_data)
  );
  assign wb_we   = Partitions'(acc_we);
  assign wb_addr = (Partitions*AddrWidth)'(acc_addr);
  assign wb_data = (Partitions*32)'(acc_data);

  for (genvar p = 0; p < Partitions; p++) begin : gen_partition
    logic [31:0] mem_q [Words];
    logic [31:0] rd_q, old_q;

    // Two synchronous read ports (the accumulate's, the plain port's) and one write port.
    always_ff @(posedge clk_i) begin
      old_q <= mem_q[te_addr[AddrWidth*p +: AddrWidth]];
    end
    assign te_old[32*p +: 32] = old_q;

    always_ff @(posedge clk_i) begin
      if (wb_we[p]) begin
        mem_q[wb_addr[AddrWidth*p +: AddrWidth]] <= wb_data[32*p +: 32];
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
