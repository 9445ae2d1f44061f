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
// ECC (docs/ecc.md): every byte is stored as its 13-bit SECDED codeword (tern_secded_pkg). A
// read returns each byte corrected when one of its bits flipped, as stored when two did. For
// tests, an armed injection (ecc_arm_i) inverts ecc_inj_flip_i's bits in the codeword of the
// next write of byte ecc_inj_off_i of partition ecc_inj_part_i. A scrub (ecc_scrub_i) reads
// every word (4 aligned bytes of every partition) in the read port's idle cycles and counts the
// words with a corrected error only and those with an uncorrectable one, keeping the first of
// those in scrub order (word, then partition); it changes nothing.
module tern_lane_mem #(
  parameter int unsigned P = tern_cfg_pkg::Partitions,
  parameter int unsigned Bytes = tern_cfg_pkg::SbufPartitionBytes,
  parameter bit HasTe = 1'b0,
  parameter int unsigned RowBytes = 4,   // row mode's width; a power of two, 4 .. 4 * P
  parameter int unsigned ChunkBytes = 4, // rd_chunk_o's width; a power of two, 4 .. RowBytes
  localparam int unsigned AW = $clog2(Bytes),
  localparam int unsigned RB = $clog2(RowBytes),
  localparam int unsigned RowWords = RowBytes / 4,
  localparam int unsigned WAW = AW - 2,  // word address of the engine port
  localparam int unsigned CB = tern_secded_pkg::CodeBits
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
  output logic [P*32-1:0] bd_rdata_o,   // the cycle after a read: the word of every partition
  // ECC: injection and scrub (pulses last one cycle)
  input  logic            ecc_arm_i,
  input  logic [7:0]      ecc_inj_part_i,
  input  logic [23:0]     ecc_inj_off_i,
  input  logic [CB-1:0]   ecc_inj_flip_i,
  input  logic            ecc_scrub_i,
  input  logic            ecc_clear_i,
  output logic            ecc_armed_o,
  output logic            ecc_busy_o,
  output logic [31:0]     ecc_ce_o,       // words found with a corrected error only
  output logic [31:0]     ecc_ue_o,       // words found with an uncorrectable error
  output logic            ecc_ue_valid_o,
  output logic [31:0]     ecc_ue_addr_o   // the first: partition in [31:24], byte offset below
);

  // The codewords of a word's or a row's bytes, and their decoding: {data, corrected flags,
  // uncorrectable flags} of N bytes.
  function automatic logic [CB*RowBytes-1:0] encode_bytes(logic [8*RowBytes-1:0] d, int unsigned n);
    logic [CB*RowBytes-1:0] c;
    c = '0;
    for (int unsigned b = 0; b < RowBytes; b++) begin
      if (b < n) c[CB*b +: CB] = tern_secded_pkg::encode(d[8*b +: 8]);
    end
    encode_bytes = c;
  endfunction
  function automatic logic [10*RowBytes-1:0] decode_bytes(logic [CB*RowBytes-1:0] c, int unsigned n);
    logic [9:0]            r;
    logic [8*RowBytes-1:0] d;
    logic [RowBytes-1:0]   ce, ue;
    d  = '0;
    ce = '0;
    ue = '0;
    for (int unsigned b = 0; b < RowBytes; b++) begin
      if (b < n) begin
        r = tern_secded_pkg::decode(c[CB*b +: CB]);
        d[8*b +: 8] = r[9:2];
        ce[b] = r[1];
        ue[b] = r[0];
      end
    end
    decode_bytes = {d, ce, ue};
  endfunction

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

  // One read port per partition, shared by element reads, backdoor reads and the scrub (in
  // that order).
  typedef enum logic [1:0] {ScIdle, ScRead, ScCheck, ScScan} scrub_e;
  // An armed injection and its target, taken at the arm: rewriting ECC_INJECT* afterwards does
  // not move it (the golden model's arm_injection takes them at the arm too).
  logic          armed_q, armed_d;
  logic [7:0]    inj_part_q, inj_part_d;
  logic [23:0]   inj_off_q, inj_off_d;
  logic [CB-1:0] inj_flip_q, inj_flip_d;
  localparam int unsigned NWords = Bytes / 4;
  localparam int unsigned PW = (P > 1) ? $clog2(P) : 1;
  scrub_e        sc_q, sc_d;
  logic [WAW-1:0] sc_word_q, sc_word_d;
  logic [PW-1:0] sc_part_q, sc_part_d;
  logic          bd_rd, sc_rd;
  logic          rd_en;
  logic [WAW-1:0] rd_src;      // the word address read
  logic [1:0]    rd_shift_q;
  logic          rd_row_q;
  logic [7:0]    rd_part_q;
  logic [RB-1:0] rd_word_q;    // byte offset of the word in the row (low 2 bits zero)
  assign bd_rd  = bd_valid_i && !bd_write_i;
  assign sc_rd  = (sc_q == ScRead) && !rd_valid_i && !bd_rd;
  assign rd_en  = rd_valid_i || bd_rd || sc_rd;
  assign rd_src = rd_valid_i ? rd_addr_i[AW-1:2] : (sc_rd ? sc_word_q : bd_addr_i[AW-1:2]);
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
      rd_word_q  <= RB'({rd_src, 2'b00});
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

  // Row mode writes the same row to every partition of the mask: its bytes encoded once.
  logic [CB*RowBytes-1:0] row_wr_code;
  assign row_wr_code = encode_bytes(wr_data_i[0 +: 8*RowBytes], RowBytes);

  // Every partition's row as read (codewords), partition p at RS * p: a power-of-two stride, so
  // the row mode's select indexes by a shift, not by a multiply.
  localparam int unsigned RS = 16 * RowBytes;
  logic [P*RS-1:0] rows;
  logic [AW-RB-1:0] rd_raddr;
  logic [P*32-1:0]  el_rd_data;
  logic [P-1:0]     inj_fire, word_ce, word_ue;
  assign rd_raddr = rd_src[WAW-1:RB-2];

  for (genvar p = 0; p < P; p++) begin : gen_part
    logic                   wr_el, wr_bd, wr_en;
    logic [RowBytes-1:0]    wr_be;
    logic [CB*RowBytes-1:0] wr_code;
    logic [AW-RB-1:0]       wr_raddr;
    logic [31:0]            el_word;
    logic [CB*RowBytes-1:0] row_rd;
    // The write this cycle (PSUM: the engine's, else the element or backdoor write).
    logic                   st_en;
    logic [AW-RB-1:0]       st_addr;
    logic [RowBytes-1:0]    st_be, st_hit;
    logic [CB*RowBytes-1:0] st_code, st_code_inj;
    assign wr_el    = wr_valid_i && wr_ready_o && wr_mask_i[p];
    assign wr_bd    = bd_valid_i && bd_write_i && bd_mask_i[p];
    assign wr_en    = wr_el || wr_bd;
    assign el_word  = wr_data_i[32*p +: 32] << (8 * wr_addr_i[1:0]);
    logic [4*CB-1:0]        el_code, bd_code;
    assign el_code = (4*CB)'(encode_bytes((8*RowBytes)'(el_word), 4));
    assign bd_code = (4*CB)'(encode_bytes((8*RowBytes)'(bd_wdata_i[32*p +: 32]), 4));
    // An element or backdoor word lands on its word's lanes of the row.
    always_comb begin
      if (wr_el && wr_row_i) begin
        wr_be   = wr_strb_i;
        wr_code = row_wr_code;
      end else if (wr_el) begin
        wr_be   = RowBytes'(el_be) << RB'({wr_addr_i[AW-1:2], 2'b00});
        wr_code = {RowWords{el_code}};
      end else begin
        wr_be   = RowBytes'(4'hf) << RB'({bd_addr_i[AW-1:2], 2'b00});
        wr_code = {RowWords{bd_code}};
      end
    end
    assign wr_raddr = wr_el ? wr_addr_i[AW-1:RB] : bd_addr_i[AW-1:RB];

    // An armed injection inverts its bits in the codeword of its byte's next write.
    always_comb begin
      st_code_inj = st_code;
      for (int unsigned b = 0; b < RowBytes; b++) begin
        st_hit[b] = armed_q && inj_part_q == 8'(p) && st_en && st_be[b] &&
                    32'(st_addr) == 32'(inj_off_q[23:RB]) && 32'(inj_off_q[RB-1:0]) == b;
        if (st_hit[b]) st_code_inj[CB*b +: CB] = st_code[CB*b +: CB] ^ inj_flip_q;
      end
    end
    assign inj_fire[p] = |st_hit;

    if (HasTe) begin : gen_flops
      // PSUM: the engine's accumulate reads the old word at its request's address (a second
      // synchronous read port) while its pipeline writes another, so these are a memory of
      // their own rather than a tern_sram. Rows are words here (RowBytes 4).
      logic [CB-1:0]   mem_q [Bytes];
      logic [4*CB-1:0] old_q;
      logic [39:0]     old_dec;     // {data, corrected, uncorrectable} of its 4 bytes
      logic [7:0]      unused_old;
      always_ff @(posedge clk_i) begin
        for (int unsigned b = 0; b < 4; b++) old_q[CB*b +: CB] <= mem_q[{te_addr_i[WAW*p +: WAW], 2'(b)}];
      end
      assign old_dec = 40'(decode_bytes((CB*RowBytes)'(old_q), 4));
      assign {te_old[32*p +: 32], unused_old} = old_dec;
      assign st_en   = wb_we[p] || wr_en;
      assign st_addr = wb_we[p] ? wb_addr[WAW*p +: WAW] : wr_raddr;
      assign st_be   = wb_we[p] ? RowBytes'(4'hf) : wr_be;
      assign st_code = wb_we[p] ? encode_bytes((8*RowBytes)'(wb_data[32*p +: 32]), 4) : wr_code;
      always_ff @(posedge clk_i) begin
        if (rd_en) begin
          for (int unsigned b = 0; b < 4; b++) row_rd[CB*b +: CB] <= mem_q[{rd_raddr, 2'(b)}];
        end
        if (st_en) begin
          for (int unsigned b = 0; b < 4; b++) begin
            if (st_be[b]) mem_q[{st_addr, 2'(b)}] <= st_code_inj[CB*b +: CB];
          end
        end
      end
    end else begin : gen_sram
      assign st_en   = wr_en;
      assign st_addr = wr_raddr;
      assign st_be   = wr_be;
      assign st_code = wr_code;
      tern_sram #(.Words (Bytes / RowBytes), .Bytes (RowBytes), .ByteBits (CB)) u_sram (
        .clk_i,
        .rd_en_i   (rd_en),
        .rd_addr_i (rd_raddr),
        .rd_data_o (row_rd),
        .wr_en_i   (st_en),
        .wr_addr_i (st_addr),
        .wr_be_i   (st_be),
        .wr_data_i (st_code_inj)
      );
      assign te_old[32*p +: 32] = 32'd0;
    end
    // The chunk around the word read, decoded: the element, the backdoor word and the chunk
    // come from it; the scrub reads the word's flags.
    logic [CB*ChunkBytes-1:0] chunk_code;
    logic [10*RowBytes-1:0]   chunk;
    logic [8*ChunkBytes-1:0]  chunk_data;
    logic [ChunkBytes-1:0]    chunk_ce, chunk_ue;
    logic [31:0]              word;
    logic [3:0]               wce, wue;
    localparam int unsigned CW = (ChunkBytes > 4) ? $clog2(ChunkBytes) : 2;
    logic [CW-1:0]            wpos;  // byte of the word in the chunk
    assign rows[RS*p +: RS] = RS'(row_rd);
    always_comb begin
      chunk_code = row_rd[0 +: CB*ChunkBytes];
      for (int unsigned c = 1; c < RowBytes / ChunkBytes; c++) begin
        if (32'(rd_word_q) / ChunkBytes == c) chunk_code = row_rd[CB*ChunkBytes*c +: CB*ChunkBytes];
      end
    end
    assign chunk      = decode_bytes((CB*RowBytes)'(chunk_code), ChunkBytes);
    assign chunk_data = chunk[2*RowBytes +: 8*ChunkBytes];
    assign chunk_ce   = chunk[RowBytes +: ChunkBytes];
    assign chunk_ue   = chunk[0 +: ChunkBytes];
    logic unused_chunk;  // the bytes past the chunk (decoded as zeros)
    assign unused_chunk = ^chunk;
    assign wpos = CW'(32'(rd_word_q) % ChunkBytes);
    assign word = chunk_data[8*wpos +: 32];
    assign wce  = chunk_ce[wpos +: 4];
    assign wue  = chunk_ue[wpos +: 4];
    assign word_ue[p] = |wue;
    assign word_ce[p] = (|wce) && !(|wue);
    assign el_rd_data[32*p +: 32] = word >> (8 * rd_shift_q);
    assign rd_chunk_o[8*ChunkBytes*p +: 8*ChunkBytes] = chunk_data;
    assign bd_rdata_o[32*p +: 32] = word;
  end

  // Row mode: the row of partition rd_part_q, decoded.
  logic [CB*RowBytes-1:0] row_sel;
  logic [10*RowBytes-1:0] row_dec;
  logic [2*RowBytes-1:0]  unused_row_flags;
  assign row_sel = rows[RS*rd_part_q +: CB*RowBytes];
  assign row_dec = decode_bytes(row_sel, RowBytes);
  assign unused_row_flags = row_dec[2*RowBytes-1:0];
  assign rd_data_o = rd_row_q ? (P*32)'(row_dec[10*RowBytes-1 -: 8*RowBytes]) : el_rd_data;

  // --- ECC: the injection and the scrub ----------------------------------------------------
  logic [P-1:0] ce_vec_q, ce_vec_d, ue_vec_q, ue_vec_d;
  logic [31:0] ce_cnt_q, ce_cnt_d, ue_cnt_q, ue_cnt_d, ue_addr_q, ue_addr_d;
  logic        ue_valid_q, ue_valid_d;
  logic        sc_last_word, sc_last_part;
  assign sc_last_word = 32'(sc_word_q) == NWords - 1;
  assign sc_last_part = 32'(sc_part_q) == P - 1;

  always_comb begin
    armed_d    = ecc_arm_i ? 1'b1 : (armed_q && !(|inj_fire));
    inj_part_d = ecc_arm_i ? ecc_inj_part_i : inj_part_q;
    inj_off_d  = ecc_arm_i ? ecc_inj_off_i : inj_off_q;
    inj_flip_d = ecc_arm_i ? ecc_inj_flip_i : inj_flip_q;
    sc_d       = sc_q;
    sc_word_d  = sc_word_q;
    sc_part_d  = sc_part_q;
    ce_vec_d   = ce_vec_q;
    ue_vec_d   = ue_vec_q;
    ce_cnt_d   = ce_cnt_q;
    ue_cnt_d   = ue_cnt_q;
    ue_addr_d  = ue_addr_q;
    ue_valid_d = ue_valid_q;
    unique case (sc_q)
      ScIdle: begin
        if (ecc_scrub_i) begin
          sc_d      = ScRead;
          sc_word_d = '0;
        end
      end
      ScRead:  if (sc_rd) sc_d = ScCheck;
      ScCheck: begin
        // The word's flags in every partition arrive the cycle after its read.
        ce_vec_d  = word_ce;
        ue_vec_d  = word_ue;
        sc_part_d = '0;
        if (|(word_ce | word_ue)) begin
          sc_d = ScScan;
        end else begin
          sc_d      = sc_last_word ? ScIdle : ScRead;
          sc_word_d = sc_word_q + WAW'(1);
        end
      end
      ScScan: begin
        // One partition a cycle: counted, and the first uncorrectable word kept.
        if (ue_vec_q[sc_part_q]) begin
          if (ue_cnt_q != '1) ue_cnt_d = ue_cnt_q + 32'd1;
          if (!ue_valid_q) begin
            ue_valid_d = 1'b1;
            ue_addr_d  = {8'(sc_part_q), 24'({sc_word_q, 2'b00})};
          end
        end else if (ce_vec_q[sc_part_q]) begin
          if (ce_cnt_q != '1) ce_cnt_d = ce_cnt_q + 32'd1;
        end
        sc_part_d = sc_part_q + PW'(1);
        if (sc_last_part) begin
          sc_d      = sc_last_word ? ScIdle : ScRead;
          sc_word_d = sc_word_q + WAW'(1);
        end
      end
      default: sc_d = ScIdle;
    endcase
    if (ecc_clear_i) begin
      ce_cnt_d   = '0;
      ue_cnt_d   = '0;
      ue_addr_d  = '0;
      ue_valid_d = 1'b0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      armed_q    <= 1'b0;
      inj_part_q <= '0;
      inj_off_q  <= '0;
      inj_flip_q <= '0;
      sc_q       <= ScIdle;
      sc_word_q  <= '0;
      sc_part_q  <= '0;
      ce_vec_q   <= '0;
      ue_vec_q   <= '0;
      ce_cnt_q   <= '0;
      ue_cnt_q   <= '0;
      ue_addr_q  <= '0;
      ue_valid_q <= 1'b0;
    end else begin
      armed_q    <= armed_d;
      inj_part_q <= inj_part_d;
      inj_off_q  <= inj_off_d;
      inj_flip_q <= inj_flip_d;
      sc_q       <= sc_d;
      sc_word_q  <= sc_word_d;
      sc_part_q  <= sc_part_d;
      ce_vec_q   <= ce_vec_d;
      ue_vec_q   <= ue_vec_d;
      ce_cnt_q   <= ce_cnt_d;
      ue_cnt_q   <= ue_cnt_d;
      ue_addr_q  <= ue_addr_d;
      ue_valid_q <= ue_valid_d;
    end
  end

  assign ecc_armed_o    = armed_q;
  assign ecc_busy_o     = sc_q != ScIdle;
  assign ecc_ce_o       = ce_cnt_q;
  assign ecc_ue_o       = ue_cnt_q;
  assign ecc_ue_valid_o = ue_valid_q;
  assign ecc_ue_addr_o  = ue_addr_q;

`ifndef SYNTHESIS
  initial begin : params
    assert (AW <= 24 && P <= 256)
      else $fatal(1, "tern_lane_mem: ECC addresses hold 24-bit offsets and 8-bit partitions");
  end
  // An injection targets a byte of the memory.
  inj_in_range: assert property (@(posedge clk_i) disable iff (!rst_ni)
                                 ecc_arm_i |-> 32'(ecc_inj_part_i) < P && 32'(ecc_inj_off_i) < Bytes)
    else $error("tern_lane_mem: ECC injection at partition %0d byte %0d, outside %0d x %0d",
                ecc_inj_part_i, ecc_inj_off_i, P, Bytes);
`endif

endmodule
