// tern_dma_midend: one transfer at a time. Checks both sides as the golden model does
// (tern_dma_side_check, from extreme offsets), then walks the source and the destination
// patterns (tern_dma_walk): HBM sides become 1-D runs for the backend.
// * Row mode (docs/dma.md "Row mode"): a copy between HBM and SBUF with equal dtypes moves a
//   byte stream (tern_dma_stream). The SBUF side walks runs too and reads or writes up to
//   RowBytes bytes of one partition per cycle (the SBUF's row port), the HBM side a beat.
// * Element mode (everything else: casts, PSUM, on-chip to on-chip, HBM to HBM): the on-chip
//   sides move one element per cycle on the SBUF/PSUM element ports; elements meet in a small
//   FIFO and are cast through fp32 (round to nearest even) when the dtypes differ, else copied
//   raw.
// After a read error the transfer runs to its end with every write suppressed, so the
// backend's outstanding bursts drain; done_o then reports the fault.
module tern_dma_midend #(
  parameter int unsigned P = tern_cfg_pkg::Partitions,
  parameter int unsigned SbufBytes = tern_cfg_pkg::SbufPartitionBytes,
  parameter int unsigned PsumBytes = tern_cfg_pkg::PsumBanks * tern_cfg_pkg::PsumBankBytes,
  parameter int unsigned DataBits = tern_cfg_pkg::AxiDataBits,
  parameter int unsigned RowBytes = tern_pkg::sbuf_row_bytes(DataBits / 8, P),
  localparam int unsigned Wb = $clog2(DataBits / 8),
  localparam int unsigned RB = $clog2(RowBytes)
) (
  input  logic           clk_i,
  input  logic           rst_ni,
  input  logic           start_i,          // a fetched descriptor (one cycle)
  input  logic [511:0]   desc_i,
  input  logic [31:0]    src_add_i,
  input  logic [31:0]    dst_add_i,
  input  logic [31:0]    hbm_size_i,
  output logic           busy_o,
  output logic           done_o,           // the transfer ended (pulse)
  output logic           fault_o,          // with done_o
  output logic [3:0]     detail_o,         // with fault_o: tern_csr_pkg::DmaDet*
  output logic [63:0]    elem_rd_bytes_o,  // bytes this cycle's element moved (counters)
  output logic [63:0]    elem_wr_bytes_o,
  // backend
  output logic           rd_req_valid_o,
  input  logic           rd_req_ready_i,
  output logic [31:0]    rd_req_addr_o,
  output logic [18:0]    rd_req_bytes_o,
  input  logic           rd_valid_i,
  input  logic [DataBits-1:0] rd_data_i,
  input  logic [Wb:0]    rd_avail_i,
  output logic [Wb:0]    rd_take_o,
  output logic           wr_req_valid_o,
  input  logic           wr_req_ready_i,
  output logic [31:0]    wr_req_addr_o,
  output logic [18:0]    wr_req_bytes_o,
  output logic [DataBits-1:0] wr_data_o,
  output logic [Wb:0]    wr_avail_o,
  input  logic [Wb:0]    wr_take_i,
  output logic           wr_suppress_o,
  input  logic           wr_idle_i,
  input  logic           axi_err_i,        // SLVERR/DECERR on a data beat or response (pulse)
  input  logic           axi_dec_i,        // with axi_err_i: DECERR
  // on-chip memories
  output logic           oc_rd_valid_o,
  input  logic           oc_rd_ready_i,
  output logic           oc_rd_psum_o,
  output logic [31:0]    oc_rd_addr_o,
  output logic           oc_rd_row_o,      // row mode: RowBytes of partition oc_rd_part_o
  output logic [7:0]     oc_rd_part_o,
  input  logic [P*32-1:0] oc_rd_data_i,
  output logic           oc_wr_valid_o,
  input  logic           oc_wr_ready_i,
  output logic           oc_wr_psum_o,
  output logic [31:0]    oc_wr_addr_o,
  output logic [2:0]     oc_wr_bytes_o,
  output logic [P-1:0]   oc_wr_mask_o,
  output logic [P*32-1:0] oc_wr_data_o,
  output logic           oc_wr_row_o,      // row mode: oc_wr_strb_o's bytes of one row
  output logic [RowBytes-1:0] oc_wr_strb_o
);

  typedef enum logic [1:0] {StIdle, StCheck, StRun, StDone} state_e;
  state_e state_q, state_d;

  logic [511:0] desc_q;
  logic [31:0]  src_add_q, dst_add_q;

  // --- Checks -------------------------------------------------------------------------------
  logic [2:0]   s_fault, d_fault, s_eb, d_eb;
  logic [63:0]  s_count, d_count, s_nums, d_nums;
  logic [31:0]  s_addr, d_addr;
  logic [7:0]   s_part, d_part;
  logic [127:0] s_steps, d_steps;
  logic         s_onchip, d_onchip, s_psum, d_psum;
  logic [3:0]   s_dtype, d_dtype;

  tern_dma_side_check #(.P(P), .SbufBytes(SbufBytes), .PsumBytes(PsumBytes)) u_src_check (
    .side_i(desc_q[tern_isa_pkg::DescSrcLsb +: tern_isa_pkg::DescSideBits]), .add_i(src_add_q),
    .hbm_size_i(hbm_size_i), .fault_o(s_fault), .count_o(s_count), .eb_o(s_eb), .addr_o(s_addr),
    .part_o(s_part), .steps_o(s_steps), .nums_o(s_nums), .onchip_o(s_onchip), .psum_o(s_psum),
    .dtype_o(s_dtype)
  );
  tern_dma_side_check #(.P(P), .SbufBytes(SbufBytes), .PsumBytes(PsumBytes)) u_dst_check (
    .side_i(desc_q[tern_isa_pkg::DescDstLsb +: tern_isa_pkg::DescSideBits]), .add_i(dst_add_q),
    .hbm_size_i(hbm_size_i), .fault_o(d_fault), .count_o(d_count), .eb_o(d_eb), .addr_o(d_addr),
    .part_o(d_part), .steps_o(d_steps), .nums_o(d_nums), .onchip_o(d_onchip), .psum_o(d_psum),
    .dtype_o(d_dtype)
  );

  logic [3:0] check_detail;
  logic       check_ok;
  always_comb begin
    check_ok = 1'b0;
    // tern_dma_side_check numbers its checks from 1 in the generated details' order.
    if (s_fault != 3'd0)           check_detail = tern_csr_pkg::DmaDetSrcZeroDim + 4'(s_fault) - 4'd1;
    else if (d_fault != 3'd0)      check_detail = tern_csr_pkg::DmaDetDstZeroDim + 4'(d_fault) - 4'd1;
    else if (s_count != d_count)   check_detail = tern_csr_pkg::DmaDetCount;
    else begin
      check_detail = '0;
      check_ok     = 1'b1;
    end
  end

  // --- Walkers ------------------------------------------------------------------------------
  logic walk_start;
  logic sw_valid, sw_ready, dw_valid, dw_ready, sw_busy, dw_busy;
  logic [7:0]  sw_part, dw_part;
  logic [31:0] sw_addr, dw_addr;
  logic [16:0] sw_elems, dw_elems;

  assign walk_start = state_q == StCheck && check_ok;

  // Row mode: an HBM <-> SBUF copy without a cast.
  logic wide_new;
  assign wide_new = s_dtype == d_dtype && s_onchip != d_onchip && !(s_onchip ? s_psum : d_psum);

  tern_dma_walk u_src_walk (
    .clk_i(clk_i), .rst_ni(rst_ni), .start_i(walk_start), .onchip_i(s_onchip), .runs_i(wide_new),
    .elem_bytes_i(s_eb), .addr_i(s_addr), .part_i(s_part), .steps_i(s_steps), .nums_i(s_nums),
    .valid_o(sw_valid), .ready_i(sw_ready), .part_o(sw_part), .addr_o(sw_addr),
    .elems_o(sw_elems), .busy_o(sw_busy)
  );
  tern_dma_walk u_dst_walk (
    .clk_i(clk_i), .rst_ni(rst_ni), .start_i(walk_start), .onchip_i(d_onchip), .runs_i(wide_new),
    .elem_bytes_i(d_eb), .addr_i(d_addr), .part_i(d_part), .steps_i(d_steps), .nums_i(d_nums),
    .valid_o(dw_valid), .ready_i(dw_ready), .part_o(dw_part), .addr_o(dw_addr),
    .elems_o(dw_elems), .busy_o(dw_busy)
  );

  // Per-transfer side facts, held while running.
  logic       s_onchip_q, d_onchip_q, s_psum_q, d_psum_q, cast_q, wide_q;
  logic [2:0] s_eb_q, d_eb_q;
  logic [3:0] s_dt_q, d_dt_q;
  logic [63:0] left_q, left_d;     // bytes still to write
  logic       err_q, err_d;        // an AXI error in this transfer
  logic       dec_q, dec_d;        // the first one was DECERR
  logic       running;
  assign running = state_q == StRun;

  // --- Source runs: HBM runs to the backend ------------------------------------------------
  assign rd_req_valid_o = running && !s_onchip_q && sw_valid;
  assign rd_req_addr_o  = sw_addr;
  assign rd_req_bytes_o = 19'(sw_elems) * 19'(s_eb_q);
  assign wr_req_valid_o = running && !d_onchip_q && dw_valid;
  assign wr_req_addr_o  = dw_addr;
  assign wr_req_bytes_o = 19'(dw_elems) * 19'(d_eb_q);
  assign wr_suppress_o  = err_q || axi_err_i;

  // Bytes moved this cycle (the counters) and bytes leaving towards the destination.
  logic [RB:0] pushed, popped;

  // --- Element mode: source --------------------------------------------------------------
  localparam int unsigned FifoDepth = 4;
  logic        ef_push, ef_pop, ef_full, ef_empty;
  logic [31:0] ef_in, ef_head;
  logic [2:0]  ef_count;
  logic        ocr_pend_q;          // an on-chip element read returns data this cycle
  logic [7:0]  ocr_part_q;
  logic        el_ocr_valid, el_ocr_hs, el_rd_take;

  assign el_ocr_valid = running && !wide_q && s_onchip_q && sw_valid &&
                        (32'(ef_count) + 32'(ocr_pend_q)) < FifoDepth;
  assign el_ocr_hs    = el_ocr_valid && oc_rd_ready_i;
  assign el_rd_take   = !wide_q && rd_valid_i && !ef_full;
  assign ef_push      = ocr_pend_q || el_rd_take;
  logic [31:0] ocr_lane;
  always_comb begin
    ocr_lane = '0;
    for (int unsigned p = 0; p < P; p++) begin
      if (ocr_part_q == 8'(p)) ocr_lane = oc_rd_data_i[32*p +: 32];
    end
  end
  assign ef_in = ocr_pend_q ? ocr_lane : rd_data_i[31:0];

  tern_fifo #(.Width(32), .Depth(FifoDepth)) u_elems (
    .clk_i(clk_i), .rst_ni(rst_ni), .flush_i(1'b0), .push_i(ef_push), .data_i(ef_in),
    .full_o(ef_full), .pop_i(ef_pop), .data_o(ef_head), .empty_o(ef_empty), .count_o(ef_count)
  );

  // --- Element mode: cast, golden convert_from_fp32(dst, convert_to_fp32(src, v), RNE) ------
  logic [31:0] up_f, up_i, fp32, down_f, down_i, elem;
  logic        unused_ok_up, unused_ok_down;
  tern_fp_upconvert u_up (
    .dtype_i(s_dt_q), .bits_i(ef_head), .fp32_o(up_f), .dtype_ok_o(unused_ok_up)
  );
  assign up_i = tern_fp_int_pkg::int_to_fp32(s_dt_q, ef_head);
  assign fp32 = tern_pkg::is_float_dtype(s_dt_q) ? up_f : up_i;
  tern_fp_downconvert u_down (
    .dtype_i(d_dt_q), .fp32_i(fp32), .round_mode_i(tern_pkg::RoundRne), .saturate_i(1'b0),
    .random_i(32'd0), .bits_o(down_f), .dtype_ok_o(unused_ok_down)
  );
  assign down_i = tern_fp_int_pkg::fp32_to_int(d_dt_q, fp32, tern_pkg::RoundRne, 32'd0);
  assign elem = !cast_q ? ef_head : (tern_pkg::is_float_dtype(d_dt_q) ? down_f : down_i);

  // --- Element mode: destination ---------------------------------------------------------
  // After an error the on-chip writes are dropped (the element still leaves the FIFO).
  logic el_ocw_valid, el_sink_hs;
  assign el_ocw_valid = running && !wide_q && d_onchip_q && !ef_empty && dw_valid;
  assign el_sink_hs   = d_onchip_q ? (el_ocw_valid && (oc_wr_ready_i || err_q))
                                   : (!wide_q && wr_take_i != '0);
  assign ef_pop       = el_sink_hs;

  // --- Row mode ----------------------------------------------------------------------------
  // Offsets into the current walker item (a run of one partition, or an HBM run).
  // Four rows deep: a row read is issued only when its bytes will fit next cycle, so with two
  // rows the SBUF side could read only every other cycle.
  localparam int unsigned StreamRows = 4;
  localparam int unsigned CB = RB + 3;
  logic [RowBytes*8-1:0] st_head, st_push_data;
  logic [CB-1:0]         st_count;
  logic [RB:0]           st_push, st_pop;
  logic [31:0]           soff_q, soff_d, doff_q, doff_d;
  logic [RB:0]           rpend_q, rpend_d;     // bytes of the row read answering this cycle
  logic [RB-1:0]         rpend_off_q, rpend_off_d;
  logic [31:0]           s_run_bytes, d_run_bytes, s_cur, d_cur, s_left, d_left;
  logic [RB:0]           s_k, d_k;
  logic                  w_ocr_valid, w_ocr_hs, w_ocw_valid, w_sink_hs;

  tern_dma_stream #(.Width(RowBytes), .Rows(StreamRows)) u_stream (
    .clk_i(clk_i), .rst_ni(rst_ni), .clear_i(state_q == StCheck),
    .push_n_i(st_push), .push_data_i(st_push_data), .pop_n_i(st_pop), .head_o(st_head),
    .count_o(st_count)
  );

  assign s_run_bytes = 32'(sw_elems) * 32'(s_eb_q);
  assign d_run_bytes = 32'(dw_elems) * 32'(d_eb_q);
  assign s_cur       = sw_addr + soff_q;
  assign d_cur       = dw_addr + doff_q;
  assign s_left      = s_run_bytes - soff_q;
  assign d_left      = d_run_bytes - doff_q;

  // SBUF source: a row read of the bytes of this row the run still needs, issued when the
  // stream has room for them next cycle (after the read answering now has been pushed).
  always_comb begin
    logic [RB:0] row_left;
    row_left = (RB + 1)'(RowBytes) - (RB + 1)'(s_cur[RB-1:0]);
    s_k = (s_left < 32'(row_left)) ? (RB + 1)'(s_left) : row_left;
  end
  assign w_ocr_valid = running && wide_q && s_onchip_q && sw_valid &&
                       32'(st_count) + 32'(rpend_q) + 32'(s_k) <= StreamRows * RowBytes;
  assign w_ocr_hs    = w_ocr_valid && oc_rd_ready_i;

  // SBUF destination: write as much of this row as the stream holds.
  always_comb begin
    logic [RB:0] row_left;
    row_left = (RB + 1)'(RowBytes) - (RB + 1)'(d_cur[RB-1:0]);
    d_k = (d_left < 32'(row_left)) ? (RB + 1)'(d_left) : row_left;
    if (32'(st_count) < 32'(d_k)) d_k = (RB + 1)'(st_count);
  end
  assign w_ocw_valid = running && wide_q && d_onchip_q && dw_valid && d_k != '0;
  assign w_sink_hs   = w_ocw_valid && (oc_wr_ready_i || err_q);

  // Stream in: the row read answering, or bytes of the backend's beat.
  always_comb begin
    logic [31:0] room, take;
    room = StreamRows * RowBytes - 32'(st_count);
    take = '0;
    st_push      = '0;
    st_push_data = '0;
    rd_take_o    = el_rd_take ? (Wb + 1)'(s_eb_q) : '0;
    if (wide_q && s_onchip_q) begin
      st_push      = rpend_q;
      st_push_data = oc_rd_data_i[0 +: 8*RowBytes] >> {rpend_off_q, 3'b000};
    end else if (wide_q && rd_valid_i) begin
      // The beat's bytes (up to a whole beat, wider than a row when RowBytes < the bus), as
      // many as the stream has room for, at most a row.
      take = 32'(rd_avail_i);
      if (take > room) take = room;
      if (take > RowBytes) take = RowBytes;
      st_push      = (RB + 1)'(take);
      st_push_data = rd_data_i[0 +: 8*RowBytes];
      rd_take_o    = (Wb + 1)'(st_push);
    end
  end

  // Stream out: to the SBUF row port or to the backend's beat.
  assign st_pop = !wide_q ? '0 : d_onchip_q ? (w_sink_hs ? d_k : '0) : (RB + 1)'(wr_take_i);
  always_comb begin
    wr_data_o  = DataBits'(elem);
    wr_avail_o = (running && !wide_q && !d_onchip_q && !ef_empty) ? (Wb + 1)'(d_eb_q) : '0;
    if (wide_q) begin
      wr_data_o  = DataBits'(st_head);
      wr_avail_o = (32'(st_count) < RowBytes) ? (Wb + 1)'(st_count) : (Wb + 1)'(RowBytes);
      if (!running || d_onchip_q) wr_avail_o = '0;
    end
  end

  // Walker progress inside row mode.
  always_comb begin
    soff_d      = soff_q;
    doff_d      = doff_q;
    rpend_d     = '0;
    rpend_off_d = rpend_off_q;
    if (w_ocr_hs) begin
      rpend_d     = s_k;
      rpend_off_d = s_cur[RB-1:0];
      soff_d      = (32'(s_k) == s_left) ? 32'd0 : soff_q + 32'(s_k);
    end
    if (w_sink_hs) doff_d = (32'(d_k) == d_left) ? 32'd0 : doff_q + 32'(d_k);
  end

  // --- The on-chip ports and the walkers' handshakes -------------------------------------
  assign oc_rd_valid_o = el_ocr_valid || w_ocr_valid;
  assign oc_rd_psum_o  = s_psum_q;
  assign oc_rd_addr_o  = wide_q ? s_cur : sw_addr;
  assign oc_rd_row_o   = wide_q;
  assign oc_rd_part_o  = sw_part;
  assign sw_ready      = !s_onchip_q ? (running && rd_req_ready_i)
                       : wide_q      ? (w_ocr_hs && 32'(s_k) == s_left)
                                     : el_ocr_hs;

  assign oc_wr_valid_o = (el_ocw_valid || w_ocw_valid) && !err_q;
  assign oc_wr_psum_o  = d_psum_q;
  assign oc_wr_addr_o  = wide_q ? d_cur : dw_addr;
  assign oc_wr_bytes_o = d_eb_q;
  assign oc_wr_row_o   = wide_q;
  // The row's bytes at their place in the row (the strobes pick the ones written).
  logic [8*RowBytes-1:0] row_data;
  assign row_data      = st_head << {d_cur[RB-1:0], 3'b000};
  assign oc_wr_strb_o  = RowBytes'(((RowBytes + 1)'(1) << d_k) - 1'b1) << d_cur[RB-1:0];
  always_comb begin
    oc_wr_data_o = wide_q ? (P*32)'(row_data) : {P{elem}};
    for (int unsigned p = 0; p < P; p++) oc_wr_mask_o[p] = dw_part == 8'(p);
  end
  assign dw_ready = !d_onchip_q ? (running && wr_req_ready_i)
                  : wide_q      ? (w_sink_hs && 32'(d_k) == d_left)
                                : el_sink_hs;

  assign pushed = wide_q ? st_push : (ef_push ? (RB + 1)'(s_eb_q) : '0);
  assign popped = wide_q ? st_pop : (el_sink_hs ? (RB + 1)'(d_eb_q) : '0);
  assign elem_rd_bytes_o = 64'(pushed);
  assign elem_wr_bytes_o = 64'(popped);

  // --- Control ------------------------------------------------------------------------------
  always_comb begin
    state_d  = state_q;
    left_d   = left_q;
    err_d    = err_q || (running && axi_err_i);
    dec_d    = err_q ? dec_q : axi_dec_i;
    done_o   = 1'b0;
    fault_o  = 1'b0;
    detail_o = '0;
    left_d   = left_q - 64'(popped);
    unique case (state_q)
      StIdle:  if (start_i) state_d = StCheck;
      StCheck: begin
        left_d = d_count * 64'(d_eb);
        err_d  = 1'b0;
        if (!check_ok) begin
          done_o   = 1'b1;
          fault_o  = 1'b1;
          detail_o = check_detail;
          state_d  = StIdle;
        end else begin
          state_d = StRun;
        end
      end
      StRun: if (left_q == 64'd0 && wr_idle_i && !ocr_pend_q && rpend_q == '0) state_d = StDone;
      StDone: begin
        done_o   = 1'b1;
        fault_o  = err_q;
        detail_o = dec_q ? tern_csr_pkg::DmaDetDecErr : tern_csr_pkg::DmaDetSlvErr;
        state_d  = StIdle;
      end
      default: state_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q    <= StIdle;
      desc_q     <= '0;
      src_add_q  <= '0;
      dst_add_q  <= '0;
      left_q     <= '0;
      err_q      <= 1'b0;
      dec_q      <= 1'b0;
      s_onchip_q <= 1'b0;
      d_onchip_q <= 1'b0;
      s_psum_q   <= 1'b0;
      d_psum_q   <= 1'b0;
      cast_q     <= 1'b0;
      s_eb_q     <= '0;
      d_eb_q     <= '0;
      s_dt_q     <= '0;
      d_dt_q     <= '0;
      ocr_pend_q <= 1'b0;
      ocr_part_q <= '0;
      wide_q     <= 1'b0;
      soff_q     <= '0;
      doff_q     <= '0;
      rpend_q    <= '0;
      rpend_off_q <= '0;
    end else begin
      state_q    <= state_d;
      left_q     <= left_d;
      err_q      <= err_d;
      dec_q      <= dec_d;
      ocr_pend_q <= el_ocr_hs;
      if (el_ocr_hs) ocr_part_q <= sw_part;
      soff_q      <= state_q == StCheck ? 32'd0 : soff_d;
      doff_q      <= state_q == StCheck ? 32'd0 : doff_d;
      rpend_q     <= rpend_d;
      rpend_off_q <= rpend_off_d;
      if (start_i && state_q == StIdle) begin
        desc_q    <= desc_i;
        src_add_q <= src_add_i;
        dst_add_q <= dst_add_i;
      end
      if (state_q == StCheck) begin
        s_onchip_q <= s_onchip;
        d_onchip_q <= d_onchip;
        s_psum_q   <= s_psum;
        d_psum_q   <= d_psum;
        cast_q     <= s_dtype != d_dtype;
        wide_q     <= wide_new;
        s_eb_q     <= s_eb;
        d_eb_q     <= d_eb;
        s_dt_q     <= s_dtype;
        d_dt_q     <= d_dtype;
      end
    end
  end

  assign busy_o = state_q != StIdle;

  logic unused;
  assign unused = ^{sw_busy, dw_busy, unused_ok_up, unused_ok_down};
  if (8 * RowBytes < DataBits) begin : gen_narrow_row  // the row is narrower than a beat
    logic unused_beat;
    assign unused_beat = ^rd_data_i[DataBits-1:8*RowBytes];
  end

endmodule
