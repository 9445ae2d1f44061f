// tern_lane_mem: an on-chip memory of P partitions x Bytes bytes (SBUF, and PSUM as the Vector
// and Scalar engines see it), one 32-bit-wide lane per partition. A read returns, one cycle
// later, the element at the same byte offset of every partition (the element's bits in the low
// bits of each lane); a write stores an element of 1, 2 or 4 bytes at one offset in the
// partitions of a mask. Elements are aligned to their size, so one never crosses a word.
// PSUM also has the Tensor Engine's accumulate port (HasTe): partition p writes one fp32 word
// per cycle at its own word address, overwriting or read-add-writing with the fp32 RNE add of
// docs/numerics.md. It has priority: the element write port is not ready (wr_ready_o low) in a
// cycle where the engine writes a partition of its mask; conflicts cost cycles, not data.
// The backdoor port lets a testbench load and dump one aligned word in every partition at once.
// This is the simulation model; a banked SRAM wrapper for FPGA and ASIC comes with the core top.
module tern_lane_mem #(
  parameter int unsigned P = tern_cfg_pkg::Partitions,
  parameter int unsigned Bytes = tern_cfg_pkg::SbufPartitionBytes,
  parameter bit HasTe = 1'b0,
  localparam int unsigned AW = $clog2(Bytes),
  localparam int unsigned WAW = AW - 2   // word address of the engine port
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  // element read: data one cycle after rd_valid_i
  input  logic            rd_valid_i,
  input  logic [AW-1:0]   rd_addr_i,
  output logic [P*32-1:0] rd_data_o,
  // element write
  input  logic            wr_valid_i,
  input  logic [AW-1:0]   wr_addr_i,
  input  logic [2:0]      wr_bytes_i,   // 1, 2 or 4
  input  logic [P-1:0]    wr_mask_i,
  input  logic [P*32-1:0] wr_data_i,
  output logic            wr_ready_o,
  // Tensor Engine accumulate port (HasTe)
  input  logic [P-1:0]     te_we_i,
  input  logic [P-1:0]     te_acc_i,
  input  logic [P*WAW-1:0] te_addr_i,
  input  logic [P*32-1:0]  te_data_i,
  // backdoor: one aligned word of every partition (a mask of them for writes)
  input  logic            bd_valid_i,
  input  logic            bd_write_i,
  input  logic [P-1:0]    bd_mask_i,    // the partitions a write stores to
  input  logic [AW-1:0]   bd_addr_i,
  input  logic [P*32-1:0] bd_wdata_i,   // partition p's word in bits 32p +: 32
  output logic [P*32-1:0] bd_rdata_o    // the word at bd_addr_i of every partition
);

  logic [AW-1:0] rd_word, bd_word;
  assign rd_word = {rd_addr_i[AW-1:2], 2'b00};
  assign bd_word = {bd_addr_i[AW-1:2], 2'b00};
  logic unused_bd;
  assign unused_bd = ^bd_addr_i[1:0];  // the backdoor moves whole words

  logic [P-1:0] te_we;
  assign te_we      = HasTe ? te_we_i : '0;
  assign wr_ready_o = !(|(te_we & wr_mask_i));

  // The engine's old words and the words it writes: one adder body in a loop (not one per
  // partition instance), so the 128-partition PSUM stays small in Verilator.
  logic [P*32-1:0] te_old, te_new;
  always_comb begin
    for (int unsigned p = 0; p < P; p++) begin
      te_new[32*p +: 32] = te_acc_i[p] ? tern_fp_pkg::fp32_add(te_old[32*p +: 32], te_data_i[32*p +: 32])
                                       : te_data_i[32*p +: 32];
    end
  end

  logic [1:0]  rd_shift_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)         rd_shift_q <= '0;
    else if (rd_valid_i) rd_shift_q <= rd_addr_i[1:0];
  end

  // One byte array per partition.
  for (genvar p = 0; p < P; p++) begin : gen_part
    logic [7:0]  mem_q [Bytes];
    logic [31:0] rd_q;
    always_ff @(posedge clk_i) begin
      if (rd_valid_i) begin
        for (int unsigned b = 0; b < 4; b++) rd_q[8*b +: 8] <= mem_q[32'(rd_word) + b];
      end
      if (te_we[p]) begin
        for (int unsigned b = 0; b < 4; b++) mem_q[{te_addr_i[WAW*p +: WAW], 2'(b)}] <= te_new[32*p + 8*b +: 8];
      end else if (wr_valid_i && wr_ready_o && wr_mask_i[p]) begin
        for (int unsigned b = 0; b < 4; b++) begin
          if (b < 32'(wr_bytes_i)) mem_q[32'(wr_addr_i) + b] <= wr_data_i[32*p + 8*b +: 8];
        end
      end
      if (bd_valid_i && bd_write_i && bd_mask_i[p]) begin
        for (int unsigned b = 0; b < 4; b++) mem_q[32'(bd_word) + b] <= bd_wdata_i[32*p + 8*b +: 8];
      end
    end
    assign rd_data_o[32*p +: 32] = rd_q >> (8 * rd_shift_q);
    for (genvar b = 0; b < 4; b++) begin : gen_te_old
      assign te_old[32*p + 8*b +: 8] = mem_q[{te_addr_i[WAW*p +: WAW], 2'(b)}];
    end
    for (genvar b = 0; b < 4; b++) begin : gen_bd
      assign bd_rdata_o[32*p + 8*b +: 8] = mem_q[32'(bd_word) + b];
    end
  end


endmodule
