// tern_lane_mem: an on-chip memory of P partitions x Bytes bytes (SBUF, and PSUM as the Vector
// and Scalar engines see it), one 32-bit-wide lane per partition. A read returns, one cycle
// later, the element at the same byte offset of every partition (the element's bits in the low
// bits of each lane); a write stores an element of 1, 2 or 4 bytes at one offset in the
// partitions of a mask. Elements are aligned to their size, so one never crosses a word.
// PSUM also has the Tensor Engine's accumulate port (HasTe): partition p writes one fp32 word
// per cycle at its own word address, overwriting or read-add-writing with the fp32 RNE add of
// docs/numerics.md. It has priority: the element write port is not ready (wr_ready_o low) in a
// cycle where the engine writes a partition of its mask; conflicts cost cycles, not data.
// The backdoor port lets a testbench load and dump one aligned word in every partition at once
// (a read answers the next cycle, through the element read port when that is idle).
// SBUF's partitions are tern_srams (the technology wrapper: a simulation model, a block-RAM
// template for FPGAs); PSUM's stay flops because the engine's read-add-write is a third port.
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
  output logic [P*32-1:0] bd_rdata_o    // the cycle after a read: the word of every partition
);

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

  // One read port per partition, shared by element reads and backdoor reads (element first).
  logic          rd_en;
  logic [AW-3:0] rd_waddr;
  logic [1:0]    rd_shift_q;
  assign rd_en    = rd_valid_i || (bd_valid_i && !bd_write_i);
  assign rd_waddr = rd_valid_i ? rd_addr_i[AW-1:2] : bd_addr_i[AW-1:2];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)    rd_shift_q <= '0;
    else if (rd_en) rd_shift_q <= rd_valid_i ? rd_addr_i[1:0] : 2'd0;
  end

  // The element write as a word write: byte enables and data on the element's lanes.
  logic [3:0] el_be;
  always_comb begin
    unique case (wr_bytes_i)
      3'd1:    el_be = 4'b0001 << wr_addr_i[1:0];
      3'd2:    el_be = 4'b0011 << wr_addr_i[1:0];
      default: el_be = 4'b1111;
    endcase
  end

  for (genvar p = 0; p < P; p++) begin : gen_part
    logic        wr_el, wr_bd, wr_en;
    logic [3:0]  wr_be;
    logic [31:0] wr_word, word_q;
    logic [AW-3:0] wr_waddr;
    assign wr_el    = wr_valid_i && wr_ready_o && wr_mask_i[p];
    assign wr_bd    = bd_valid_i && bd_write_i && bd_mask_i[p];
    assign wr_en    = wr_el || wr_bd;
    assign wr_be    = wr_el ? el_be : 4'b1111;
    assign wr_word  = wr_el ? (wr_data_i[32*p +: 32] << (8 * wr_addr_i[1:0])) : bd_wdata_i[32*p +: 32];
    assign wr_waddr = wr_el ? wr_addr_i[AW-1:2] : bd_addr_i[AW-1:2];

    if (HasTe) begin : gen_flops
      // PSUM: the engine's read-add-write needs the old word in the cycle it writes, a third
      // port, so these stay flops (LUTRAM on an FPGA) rather than a tern_sram.
      logic [7:0] mem_q [Bytes];
      always_ff @(posedge clk_i) begin
        if (rd_en) begin
          for (int unsigned b = 0; b < 4; b++) word_q[8*b +: 8] <= mem_q[{rd_waddr, 2'(b)}];
        end
        if (te_we[p]) begin
          for (int unsigned b = 0; b < 4; b++) mem_q[{te_addr_i[WAW*p +: WAW], 2'(b)}] <= te_new[32*p + 8*b +: 8];
        end else if (wr_en) begin
          for (int unsigned b = 0; b < 4; b++) begin
            if (wr_be[b]) mem_q[{wr_waddr, 2'(b)}] <= wr_word[8*b +: 8];
          end
        end
      end
      for (genvar b = 0; b < 4; b++) begin : gen_te_old
        assign te_old[32*p + 8*b +: 8] = mem_q[{te_addr_i[WAW*p +: WAW], 2'(b)}];
      end
    end else begin : gen_sram
      tern_sram #(.Words (Bytes / 4)) u_sram (
        .clk_i,
        .rd_en_i   (rd_en),
        .rd_addr_i (rd_waddr),
        .rd_data_o (word_q),
        .wr_en_i   (wr_en),
        .wr_addr_i (wr_waddr),
        .wr_be_i   (wr_be),
        .wr_data_i (wr_word)
      );
      assign te_old[32*p +: 32] = 32'd0;
      logic unused_te;  // no engine port on this memory
      assign unused_te = (^te_addr_i[WAW*p +: WAW]) ^ (^te_new[32*p +: 32]);
    end
    assign rd_data_o[32*p +: 32]  = word_q >> (8 * rd_shift_q);
    assign bd_rdata_o[32*p +: 32] = word_q;
  end

endmodule
