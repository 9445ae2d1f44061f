// tern_lane_mem: an on-chip memory of P partitions x Bytes bytes (SBUF, and PSUM as the Vector
// and Scalar engines see it), one 32-bit-wide lane per partition. A read returns, one cycle
// later, the element at the same byte offset of every partition (the element's bits in the low
// bits of each lane); a write stores an element of 1, 2 or 4 bytes at one offset in the
// partitions of a mask. Elements are aligned to their size, so one never crosses a word.
// PSUM also has the Tensor Engine's accumulate port (HasTe): partition p writes one fp32 word
// per cycle at its own word address, overwriting or read-add-writing with the fp32 RNE add of
// docs/numerics.md, pipelined (tern_psum_acc: the write lands tern_pe_pkg::PsumAccLatency
// cycles after the request). It has priority: the element write port is not ready (wr_ready_o
// low) in a cycle where the engine's pipeline writes a partition of its mask; conflicts cost
// cycles, not data.
// Row mode (SBUF, for the DMA engines: docs/dma.md "Row mode"): a read returns RowBytes bytes of
// one partition (rd_part_i) from the row holding rd_addr_i, in the low bits of rd_data_o; a
// write stores the bytes of wr_strb_i of one row (wr_data_i's low RowBytes bytes, byte i at row
// byte i) in the partitions of the mask. Each partition is one RowBytes-wide memory, so an
// element access is a word of a row.
// The backdoor port lets a testbench load and dump one aligned word in every partition at once
// (a read answers the next cycle, through the element read port when that is idle).
// SBUF's partitions are tern_srams (the technology wrapper: a simulation model, a block-RAM
// template for FPGAs); PSUM's are memories of their own because the engine's accumulate reads
// through a second read port.
module tern_lane_mem #(
  parameter int unsigned P = tern_cfg_pkg::Partitions,
  parameter int unsigned Bytes = tern_cfg_pkg::SbufPartitionBytes,
  parameter bit HasTe = 1'b0,
  parameter int unsigned RowBytes = 4,   // row mode's width; a power of two, 4 .. 4 * P
  parameter int unsigned ChunkBytes = 4, // rd_chunk_o's width; a power of two, 4 .. RowBytes
  localparam int unsigned AW = $clog2(Bytes),
  localparam int unsigned RB = $clog2(RowBytes),
  localparam int unsigned RowWords = RowBytes / 4,
  localparam int unsigned WAW = AW - 2   // word address of the engine port
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  // element read: data one cycle after rd_valid_i
  input  logic            rd_valid_i,
  input  logic [AW-1:0]   rd_addr_i,
  input  logic            rd_row_i,     // row mode: the row of partition rd_part_i
  input  logic [7:0]      rd_part_i,
  output logic [P*32-1:0] rd_data_o,
  output logic [P*8*ChunkBytes-1:0] rd_chunk_o,  // with rd_data_o: each partition's aligned
                                                 // ChunkBytes around the element (not row mode)
  // element write
  input  logic            wr_valid_i,
  input  logic [AW-1:0]   wr_addr_i,
  input  logic [2:0]      wr_bytes_i,   // 1, 2 or 4
  input  logic [P-1:0]    wr_mask_i,
  input  logic [P*32-1:0] wr_data_i,
  input  logic            wr_row_i,     // row mode: wr_strb_i's bytes of the row
  input  logic [RowBytes-1:0] wr_strb_i,
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

  // The engine's writes, PsumAccLatency cycles after its requests.
  logic [P-1:0]     wb_we;
  logic [P*WAW-1:0] wb_addr;
  logic [P*32-1:0]  te_old, wb_data;
  if (HasTe) begin : gen_acc
    tern_psum_acc #(.P(P), .AW(WAW)) u_acc (
      .clk_i,
      .rst_ni,
      .te_we_i  (te_we_i),
      .te_acc_i (te_acc_i),
      .te_addr_i(te_addr_i),
      .te_data_i(te_data_i),
      .old_i    (te_old),
      .wb_we_o  (wb_we),
      .wb_addr_o(wb_addr),
      .wb_data_o(wb_data)
    );
  end else begin : gen_no_acc
    assign wb_we   = '0;
    assign wb_addr = '0;
    assign wb_data = '0;
    logic unused_te;  // no engine port on this memory
    assign unused_te = (^te_we_i) ^ (^te_acc_i) ^ (^te_addr_i) ^ (^te_data_i) ^ (^te_old) ^
                       (^wb_addr) ^ (^wb_data);
  end
  assign wr_ready_o = !(|(wb_we & wr_mask_i));

  // One read port per partition, shared by element reads and backdoor reads (element first).
  logic          rd_en;
  logic [AW-3:0] rd_waddr;
  logic [1:0]    rd_shift_q;
  logic          rd_row_q;
  logic [7:0]    rd_part_q;
  logic [RB-1:0] rd_word_q;    // byte offset of the word in the row (low 2 bits zero)
  assign rd_en    = rd_valid_i || (bd_valid_i && !bd_write_i);
  assign rd_waddr = rd_valid_i ? rd_addr_i[AW-1:2] : bd_addr_i[AW-1:2];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_shift_q <= '0;
      rd_row_q   <= 1'b0;
      rd_part_q  <= '0;
      rd_word_q  <= '0;
    end else if (rd_en) begin
      rd_shift_q <= rd_valid_i ? rd_addr_i[1:0] : 2'd0;
      rd_row_q   <= rd_valid_i && rd_row_i;
      rd_part_q  <= rd_part_i;
      rd_word_q  <= RB'({rd_waddr, 2'b00});
    end
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

  // Every partition's row as read, partition p at 8 * RowBytes * p.
  logic [P*8*RowBytes-1:0] rows;
  logic [AW-RB-1:0] rd_raddr;
  logic [P*32-1:0]  el_rd_data;
  assign rd_raddr = rd_valid_i ? rd_addr_i[AW-1:RB] : bd_addr_i[AW-1:RB];

  for (genvar p = 0; p < P; p++) begin : gen_part
    logic                  wr_el, wr_bd, wr_en;
    logic [RowBytes-1:0]   wr_be;
    logic [8*RowBytes-1:0] wr_row;
    logic [AW-RB-1:0]      wr_raddr;
    logic [31:0]           el_word;
    logic [8*RowBytes-1:0] row_rd;
    assign wr_el    = wr_valid_i && wr_ready_o && wr_mask_i[p];
    assign wr_bd    = bd_valid_i && bd_write_i && bd_mask_i[p];
    assign wr_en    = wr_el || wr_bd;
    assign el_word  = wr_data_i[32*p +: 32] << (8 * wr_addr_i[1:0]);
    // An element or backdoor word lands on its word's lanes of the row.
    always_comb begin
      if (wr_el && wr_row_i) begin
        wr_be  = wr_strb_i;
        wr_row = wr_data_i[0 +: 8*RowBytes];
      end else if (wr_el) begin
        wr_be  = RowBytes'(el_be) << RB'({wr_addr_i[AW-1:2], 2'b00});
        wr_row = {RowWords{el_word}};
      end else begin
        wr_be  = RowBytes'(4'hf) << RB'({bd_addr_i[AW-1:2], 2'b00});
        wr_row = {RowWords{bd_wdata_i[32*p +: 32]}};
      end
    end
    assign wr_raddr = wr_el ? wr_addr_i[AW-1:RB] : bd_addr_i[AW-1:RB];

    if (HasTe) begin : gen_flops
      // PSUM: the engine's accumulate reads the old word at its request's address (a second
      // synchronous read port) while its pipeline writes another, so these are a memory of
      // their own rather than a tern_sram. Rows are words here (RowBytes 4).
      logic [7:0]  mem_q [Bytes];
      logic [31:0] old_q;
      always_ff @(posedge clk_i) begin
        for (int unsigned b = 0; b < 4; b++) old_q[8*b +: 8] <= mem_q[{te_addr_i[WAW*p +: WAW], 2'(b)}];
      end
      assign te_old[32*p +: 32] = old_q;
      always_ff @(posedge clk_i) begin
        if (rd_en) begin
          for (int unsigned b = 0; b < 4; b++) row_rd[8*b +: 8] <= mem_q[{rd_raddr, 2'(b)}];
        end
        if (wb_we[p]) begin
          for (int unsigned b = 0; b < 4; b++) mem_q[{wb_addr[WAW*p +: WAW], 2'(b)}] <= wb_data[32*p + 8*b +: 8];
        end else if (wr_en) begin
          for (int unsigned b = 0; b < 4; b++) begin
            if (wr_be[b]) mem_q[{wr_raddr, 2'(b)}] <= wr_row[8*b +: 8];
          end
        end
      end
    end else begin : gen_sram
      tern_sram #(.Words (Bytes / RowBytes), .Bytes (RowBytes)) u_sram (
        .clk_i,
        .rd_en_i   (rd_en),
        .rd_addr_i (rd_raddr),
        .rd_data_o (row_rd),
        .wr_en_i   (wr_en),
        .wr_addr_i (wr_raddr),
        .wr_be_i   (wr_be),
        .wr_data_i (wr_row)
      );
      assign te_old[32*p +: 32] = 32'd0;
    end
    logic [31:0] word;
    assign rows[8*RowBytes*p +: 8*RowBytes] = row_rd;
    assign word = row_rd[8*rd_word_q +: 32];
    assign el_rd_data[32*p +: 32] = word >> (8 * rd_shift_q);
    assign rd_chunk_o[8*ChunkBytes*p +: 8*ChunkBytes] =
        row_rd[8 * ((32'(rd_word_q) / ChunkBytes) * ChunkBytes) +: 8*ChunkBytes];
    assign bd_rdata_o[32*p +: 32] = word;
  end

  assign rd_data_o = rd_row_q ? (P*32)'(rows[8*RowBytes*rd_part_q +: 8*RowBytes]) : el_rd_data;

endmodule
