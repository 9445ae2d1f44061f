// tern_dma_frontend: the DMA engine's queues. Each queue is an in-order FIFO of triggers; the
// frontend serves the non-empty queues round-robin, one transfer at a time: it fetches the
// descriptor (64 bytes at desc_base + 64 * index, through the backend's read path), hands it to
// the midend and, when the transfer has completed, emits the trigger's semaphore update or the
// fault. A faulting queue drops its pending triggers and every later one (until reset); the
// other queues go on. A transfer that takes more than watchdog_i cycles from its pick (a
// response that never comes) faults with FaultWatchdog and stops every queue until reset.
module tern_dma_frontend #(
  parameter int unsigned NumQueues = tern_cfg_pkg::DmaQueues,
  parameter int unsigned TrigDepth = 4,   // triggers per queue, a power of two
  localparam int unsigned QBits = (NumQueues > 1) ? $clog2(NumQueues) : 1
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              trig_valid_i,
  output logic              trig_ready_o,
  input  logic [QBits-1:0]  trig_queue_i,
  input  logic [31:0]       trig_desc_i,
  input  logic [31:0]       trig_src_add_i,
  input  logic [31:0]       trig_dst_add_i,
  input  logic [1:0]        trig_upd_mode_i,
  input  logic [5:0]        trig_upd_idx_i,
  input  logic [7:0]        trig_upd_value_i,
  input  logic [2:0]        trig_seq_i,
  input  logic [31:0]       trig_pc_i,
  input  logic [31:0]       desc_base_i,
  input  logic [31:0]       watchdog_i,      // cycles one transfer may take; 0: no limit
  // descriptor fetch through the backend's read path
  output logic              rd_req_valid_o,
  input  logic              rd_req_ready_i,
  output logic [31:0]       rd_req_addr_o,
  input  logic              rd_elem_valid_i,
  output logic              rd_elem_ready_o,
  input  logic [31:0]       rd_elem_data_i,
  input  logic              rd_err_i,
  output logic              fetching_o,      // the backend's read path belongs to the frontend
  // midend
  output logic              start_o,
  output logic [511:0]      desc_o,
  output logic [31:0]       src_add_o,
  output logic [31:0]       dst_add_o,
  input  logic              done_i,
  input  logic              fault_i,
  input  logic [3:0]        detail_i,
  // completion
  output logic              sem_valid_o,
  output logic [1:0]        sem_mode_o,
  output logic [5:0]        sem_idx_o,
  output logic [7:0]        sem_value_o,
  output logic              busy_o,
  output logic              hung_o,          // a transfer's watchdog fired: stopped until reset
  output logic              err_valid_o,
  output logic [3:0]        err_code_o,
  output logic [3:0]        err_detail_o,
  output logic [QBits-1:0]  err_queue_o,
  output logic [31:0]       err_desc_o,
  output logic [2:0]        err_seq_o,
  output logic [31:0]       err_pc_o,
  // trace, for benches (the profiler's DMA timeline): the transfer under way
  output logic              trace_active_o,
  output logic              trace_end_o,     // it ends (done or fault) this cycle
  output logic [QBits-1:0]  trace_queue_o,
  output logic [31:0]       trace_desc_o,
  output logic [31:0]       trace_pc_o,
  output logic [2:0]        trace_seq_o
);

  localparam int unsigned TB = tern_dma_pkg::TrigBits;
  localparam int unsigned CBits = $clog2(TrigDepth) + 1;

  // --- Queues -------------------------------------------------------------------------------
  logic [NumQueues-1:0]    q_full, q_empty, q_pop, q_flush, q_push;
  logic [NumQueues*TB-1:0] q_head;
  logic [NumQueues-1:0]    dead_q, dead_d;
  logic [TB-1:0]           trig_in;
  logic [NumQueues*CBits-1:0] q_count;

  assign trig_in = {trig_pc_i, trig_seq_i, trig_upd_value_i, trig_upd_idx_i, trig_upd_mode_i,
                    trig_dst_add_i, trig_src_add_i, trig_desc_i};

  for (genvar q = 0; q < NumQueues; q++) begin : gen_queue
    assign q_push[q] = trig_valid_i && 32'(trig_queue_i) == q && !dead_q[q];
    tern_fifo #(.Width(TB), .Depth(TrigDepth)) u_fifo (
      .clk_i(clk_i), .rst_ni(rst_ni), .flush_i(q_flush[q]), .push_i(q_push[q]), .data_i(trig_in),
      .full_o(q_full[q]), .pop_i(q_pop[q]), .data_o(q_head[TB*q +: TB]), .empty_o(q_empty[q]),
      .count_o(q_count[CBits*q +: CBits])
    );
  end

  // A dead queue swallows its triggers, so its sequencer never hangs on it.
  always_comb begin
    trig_ready_o = 1'b0;
    for (int unsigned q = 0; q < NumQueues; q++) begin
      if (32'(trig_queue_i) == q) trig_ready_o = dead_q[q] || !q_full[q];
    end
  end

  // --- Round-robin pick ---------------------------------------------------------------------
  logic [QBits-1:0] rr_q, rr_d, pick;
  logic             pick_valid;
  always_comb begin
    logic [31:0] idx;
    pick       = '0;
    pick_valid = 1'b0;
    for (int unsigned i = 1; i <= NumQueues; i++) begin
      idx = 32'(rr_q) + i;
      if (idx >= NumQueues) idx = idx - NumQueues;
      if (!pick_valid && !q_empty[idx[QBits-1:0]]) begin
        pick_valid = 1'b1;
        pick       = idx[QBits-1:0];
      end
    end
  end

  // --- Transfer sequence --------------------------------------------------------------------
  // StHung: a transfer took more than watchdog_i cycles (an AXI response that never came);
  // every queue is dead and the engine waits for reset.
  typedef enum logic [2:0] {StIdle, StFetchReq, StFetchData, StStart, StRun, StHung} state_e;
  state_e state_q, state_d;
  logic [TB-1:0]    cur_q, cur_d;
  logic [QBits-1:0] curq_q, curq_d;
  logic [511:0]     desc_q, desc_d;
  logic [3:0]       word_q, word_d;
  logic             ferr_q, ferr_d;
  logic [31:0]      took_q, took_d;  // cycles the transfer under way has taken
  logic             expired;

  logic [31:0] cur_desc, cur_src, cur_dst, cur_pc;
  logic [1:0]  cur_mode;
  logic [5:0]  cur_idx;
  logic [7:0]  cur_value;
  logic [2:0]  cur_seq;
  assign {cur_pc, cur_seq, cur_value, cur_idx, cur_mode, cur_dst, cur_src, cur_desc} = cur_q;

  // Error report, sticky: the first fault's details stay until reset.
  logic             report, report_fault;
  logic [3:0]       report_code, report_detail;
  logic             err_seen_q;
  logic [3:0]       err_code_q, err_detail_q;
  logic [QBits-1:0] err_queue_q;
  logic [31:0]      err_desc_q, err_pc_q;
  logic [2:0]       err_seq_q;

  always_comb begin
    state_d       = state_q;
    cur_d         = cur_q;
    curq_d        = curq_q;
    rr_d          = rr_q;
    desc_d        = desc_q;
    word_d        = word_q;
    ferr_d        = ferr_q || (fetching_o && rd_err_i);
    dead_d        = dead_q;
    q_pop         = '0;
    q_flush       = '0;
    report        = 1'b0;
    report_fault  = 1'b0;
    report_code   = tern_csr_pkg::FaultDma;
    report_detail = '0;
    took_d        = (state_q == StIdle || state_q == StHung) ? 32'd0 : took_q + 32'd1;
    unique case (state_q)
      StIdle: begin
        if (pick_valid) begin
          q_pop[pick] = 1'b1;
          cur_d   = q_head[TB*pick +: TB];
          curq_d  = pick;
          rr_d    = pick;
          ferr_d  = 1'b0;
          state_d = StFetchReq;
        end
      end
      StFetchReq: if (rd_req_ready_i) begin
        word_d  = '0;
        state_d = StFetchData;
      end
      StFetchData: if (rd_elem_valid_i) begin
        desc_d[32*word_q +: 32] = rd_elem_data_i;
        word_d = word_q + 4'd1;
        if (word_q == 4'd15) begin
          if (ferr_d) begin
            report        = 1'b1;
            report_fault  = 1'b1;
            report_detail = tern_csr_pkg::DmaDetDescFetch;
            state_d       = StIdle;
          end else begin
            state_d = StStart;
          end
        end
      end
      StStart: state_d = StRun;
      StRun: if (done_i) begin
        report        = 1'b1;
        report_fault  = fault_i;
        report_detail = detail_i;
        state_d       = StIdle;
      end
      StHung: ;
      default: state_d = StIdle;
    endcase
    if (report_fault) begin
      dead_d[curq_q]  = 1'b1;
      q_flush[curq_q] = 1'b1;
    end
    // The watchdog: the transfer is abandoned where it stands (its bursts may still be in
    // flight, so nothing else may start), every queue dies, the engine reports it idle.
    if (expired) begin
      report        = 1'b1;
      report_fault  = 1'b1;
      report_code   = tern_csr_pkg::FaultWatchdog;
      report_detail = '0;
      dead_d        = '1;
      q_flush       = '1;
      state_d       = StHung;
    end
  end

  assign expired = watchdog_i != 32'd0 && took_q >= watchdog_i && state_q != StIdle &&
                   state_q != StHung;

  assign fetching_o      = state_q == StFetchReq || state_q == StFetchData;
  assign rd_req_valid_o  = state_q == StFetchReq;
  assign rd_req_addr_o   = desc_base_i + {cur_desc[25:0], 6'b0};
  assign rd_elem_ready_o = state_q == StFetchData;
  assign start_o         = state_q == StStart;
  assign desc_o          = desc_q;
  assign src_add_o       = cur_src;
  assign dst_add_o       = cur_dst;

  assign sem_valid_o = report && !report_fault && cur_mode != 2'd0;
  assign sem_mode_o  = cur_mode;
  assign sem_idx_o   = cur_idx;
  assign sem_value_o = cur_value;

  assign err_valid_o  = report && report_fault;
  assign err_code_o   = err_code_q;
  assign err_detail_o = err_detail_q;
  assign err_queue_o  = err_queue_q;
  assign err_desc_o   = err_desc_q;
  assign err_seq_o    = err_seq_q;
  assign err_pc_o     = err_pc_q;
  assign busy_o       = (state_q != StIdle && state_q != StHung) || !(&q_empty);
  assign hung_o       = state_q == StHung;

  assign trace_active_o = state_q != StIdle;
  assign trace_end_o    = report;
  assign trace_queue_o  = curq_q;
  assign trace_desc_o   = cur_desc;
  assign trace_pc_o     = cur_pc;
  assign trace_seq_o    = cur_seq;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q      <= StIdle;
      cur_q        <= '0;
      curq_q       <= '0;
      rr_q         <= QBits'(NumQueues - 1);
      desc_q       <= '0;
      word_q       <= '0;
      ferr_q       <= 1'b0;
      took_q       <= '0;
      dead_q       <= '0;
      err_seen_q   <= 1'b0;
      err_code_q   <= '0;
      err_detail_q <= '0;
      err_queue_q  <= '0;
      err_desc_q   <= '0;
      err_seq_q    <= '0;
      err_pc_q     <= '0;
    end else begin
      state_q <= state_d;
      cur_q   <= cur_d;
      curq_q  <= curq_d;
      rr_q    <= rr_d;
      desc_q  <= desc_d;
      word_q  <= word_d;
      ferr_q  <= ferr_d;
      took_q  <= took_d;
      dead_q  <= dead_d;
      if (err_valid_o && !err_seen_q) begin
        err_seen_q   <= 1'b1;
        err_code_q   <= report_code;
        err_detail_q <= report_detail;
        err_queue_q  <= curq_q;
        err_desc_q   <= cur_desc;
        err_seq_q    <= cur_seq;
        err_pc_q     <= cur_pc;
      end
    end
  end

  logic unused;
  assign unused = ^{q_count, cur_desc[31:26]};

endmodule
