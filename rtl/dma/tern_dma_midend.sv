// tern_dma_midend: one transfer at a time. Checks both sides as the golden model does
// (tern_dma_side_check, from extreme offsets), then walks the source and the destination
// patterns (tern_dma_walk): HBM sides become 1-D runs for the backend, on-chip sides one
// element per cycle on the SBUF/PSUM ports. Elements meet in a small FIFO and are cast through
// fp32 (round to nearest even) when the dtypes differ, else copied raw. After a read error the
// transfer runs to its end with every write suppressed, so the backend's outstanding bursts
// drain; done_o then reports the fault.
module tern_dma_midend #(
  parameter int unsigned P = tern_cfg_pkg::Partitions,
  parameter int unsigned SbufBytes = tern_cfg_pkg::SbufPartitionBytes,
  parameter int unsigned PsumBytes = tern_cfg_pkg::PsumBanks * tern_cfg_pkg::PsumBankBytes
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
  output logic [3:0]     detail_o,         // with fault_o: tern_dma_pkg::Det*
  output logic [63:0]    elem_rd_bytes_o,  // bytes this cycle's element moved (counters)
  output logic [63:0]    elem_wr_bytes_o,
  // backend
  output logic           rd_req_valid_o,
  input  logic           rd_req_ready_i,
  output logic [31:0]    rd_req_addr_o,
  output logic [18:0]    rd_req_bytes_o,
  output logic [2:0]     rd_req_eb_o,
  input  logic           rd_elem_valid_i,
  output logic           rd_elem_ready_o,
  input  logic [31:0]    rd_elem_data_i,
  output logic           wr_req_valid_o,
  input  logic           wr_req_ready_i,
  output logic [31:0]    wr_req_addr_o,
  output logic [18:0]    wr_req_bytes_o,
  output logic [2:0]     wr_req_eb_o,
  output logic           wr_elem_valid_o,
  input  logic           wr_elem_ready_i,
  output logic [31:0]    wr_elem_data_o,
  output logic           wr_suppress_o,
  input  logic           wr_idle_i,
  input  logic           axi_err_i,        // SLVERR/DECERR on a data beat or response (pulse)
  input  logic           axi_dec_i,        // with axi_err_i: DECERR
  // on-chip memories
  output logic           oc_rd_valid_o,
  input  logic           oc_rd_ready_i,
  output logic           oc_rd_psum_o,
  output logic [31:0]    oc_rd_addr_o,
  input  logic [P*32-1:0] oc_rd_data_i,
  output logic           oc_wr_valid_o,
  input  logic           oc_wr_ready_i,
  output logic           oc_wr_psum_o,
  output logic [31:0]    oc_wr_addr_o,
  output logic [2:0]     oc_wr_bytes_o,
  output logic [P-1:0]   oc_wr_mask_o,
  output logic [P*32-1:0] oc_wr_data_o
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
    if (s_fault != 3'd0)           check_detail = {1'b0, s_fault};
    else if (d_fault != 3'd0)      check_detail = 4'(d_fault) + 4'd6;
    else if (s_count != d_count)   check_detail = tern_dma_pkg::DetCount;
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

  tern_dma_walk u_src_walk (
    .clk_i(clk_i), .rst_ni(rst_ni), .start_i(walk_start), .onchip_i(s_onchip),
    .elem_bytes_i(s_eb), .addr_i(s_addr), .part_i(s_part), .steps_i(s_steps), .nums_i(s_nums),
    .valid_o(sw_valid), .ready_i(sw_ready), .part_o(sw_part), .addr_o(sw_addr),
    .elems_o(sw_elems), .busy_o(sw_busy)
  );
  tern_dma_walk u_dst_walk (
    .clk_i(clk_i), .rst_ni(rst_ni), .start_i(walk_start), .onchip_i(d_onchip),
    .elem_bytes_i(d_eb), .addr_i(d_addr), .part_i(d_part), .steps_i(d_steps), .nums_i(d_nums),
    .valid_o(dw_valid), .ready_i(dw_ready), .part_o(dw_part), .addr_o(dw_addr),
    .elems_o(dw_elems), .busy_o(dw_busy)
  );

  // Per-transfer side facts, held while running.
  logic       s_onchip_q, d_onchip_q, s_psum_q, d_psum_q, cast_q;
  logic [2:0] s_eb_q, d_eb_q;
  logic [3:0] s_dt_q, d_dt_q;
  logic [63:0] left_q, left_d;     // elements still to write
  logic       err_q, err_d;        // an AXI error in this transfer
  logic       dec_q, dec_d;        // the first one was DECERR
  logic       running;
  assign running = state_q == StRun;

  // --- Source: HBM runs to the backend, or on-chip element reads ----------------------------
  localparam int unsigned FifoDepth = 4;
  logic        ef_push, ef_pop, ef_full, ef_empty;
  logic [31:0] ef_in, ef_head;
  logic [2:0]  ef_count;
  logic        ocr_pend_q;          // an on-chip read returns data this cycle
  logic [7:0]  ocr_part_q;
  logic        ocr_hs;

  assign rd_req_valid_o  = running && !s_onchip_q && sw_valid;
  assign rd_req_addr_o   = sw_addr;
  assign rd_req_bytes_o  = 19'(sw_elems) * 19'(s_eb_q);
  assign rd_req_eb_o     = s_eb_q;
  assign oc_rd_valid_o   = running && s_onchip_q && sw_valid &&
                           (32'(ef_count) + 32'(ocr_pend_q)) < FifoDepth;
  assign oc_rd_psum_o    = s_psum_q;
  assign oc_rd_addr_o    = sw_addr;
  assign ocr_hs          = oc_rd_valid_o && oc_rd_ready_i;
  assign sw_ready        = s_onchip_q ? ocr_hs : (running && rd_req_ready_i);
  assign rd_elem_ready_o = !ef_full;
  assign ef_push         = ocr_pend_q || (rd_elem_valid_i && !ef_full);
  logic [31:0] ocr_lane;
  always_comb begin
    ocr_lane = '0;
    for (int unsigned p = 0; p < P; p++) begin
      if (ocr_part_q == 8'(p)) ocr_lane = oc_rd_data_i[32*p +: 32];
    end
  end
  assign ef_in           = ocr_pend_q ? ocr_lane : rd_elem_data_i;

  tern_dma_fifo #(.Width(32), .Depth(FifoDepth)) u_elems (
    .clk_i(clk_i), .rst_ni(rst_ni), .flush_i(1'b0), .push_i(ef_push), .data_i(ef_in),
    .full_o(ef_full), .pop_i(ef_pop), .data_o(ef_head), .empty_o(ef_empty), .count_o(ef_count)
  );

  // --- Cast: golden convert_from_fp32(dst, convert_to_fp32(src, v), RNE, no saturation) ------
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

  // --- Destination: HBM runs and elements to the backend, or on-chip element writes ---------
  logic sink_hs;
  assign wr_req_valid_o  = running && !d_onchip_q && dw_valid;
  assign wr_req_addr_o   = dw_addr;
  assign wr_req_bytes_o  = 19'(dw_elems) * 19'(d_eb_q);
  assign wr_req_eb_o     = d_eb_q;
  assign wr_elem_valid_o = running && !d_onchip_q && !ef_empty;
  assign wr_elem_data_o  = elem;
  assign wr_suppress_o   = err_q || axi_err_i;
  // After an error the on-chip writes are dropped (the element still leaves the FIFO).
  assign oc_wr_valid_o   = running && d_onchip_q && !ef_empty && dw_valid && !err_q;
  assign oc_wr_psum_o    = d_psum_q;
  assign oc_wr_addr_o    = dw_addr;
  assign oc_wr_bytes_o   = d_eb_q;
  assign oc_wr_data_o    = {P{elem}};
  always_comb begin
    for (int unsigned p = 0; p < P; p++) oc_wr_mask_o[p] = dw_part == 8'(p);
  end
  assign sink_hs  = d_onchip_q ? (running && !ef_empty && dw_valid && (oc_wr_ready_i || err_q))
                               : (wr_elem_valid_o && wr_elem_ready_i);
  assign dw_ready = d_onchip_q ? sink_hs : (running && wr_req_ready_i);
  assign ef_pop   = sink_hs;

  assign elem_rd_bytes_o = ef_push ? 64'(s_eb_q) : 64'd0;
  assign elem_wr_bytes_o = sink_hs ? 64'(d_eb_q) : 64'd0;

  // --- Control ------------------------------------------------------------------------------
  always_comb begin
    state_d  = state_q;
    left_d   = left_q;
    err_d    = err_q || (running && axi_err_i);
    dec_d    = err_q ? dec_q : axi_dec_i;
    done_o   = 1'b0;
    fault_o  = 1'b0;
    detail_o = '0;
    if (sink_hs) left_d = left_q - 64'd1;
    unique case (state_q)
      StIdle:  if (start_i) state_d = StCheck;
      StCheck: begin
        left_d = s_count;
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
      StRun: if (left_q == 64'd0 && wr_idle_i && !ocr_pend_q) state_d = StDone;
      StDone: begin
        done_o   = 1'b1;
        fault_o  = err_q;
        detail_o = dec_q ? tern_dma_pkg::DetDecErr : tern_dma_pkg::DetSlvErr;
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
    end else begin
      state_q    <= state_d;
      left_q     <= left_d;
      err_q      <= err_d;
      dec_q      <= dec_d;
      ocr_pend_q <= ocr_hs;
      if (ocr_hs) ocr_part_q <= sw_part;
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

endmodule
