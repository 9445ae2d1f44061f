// tern_seq_cluster: the five sequencers (pe, act, dve, pool, sp) and the semaphore bank they
// share with the DMA queues (docs/core-rtl.md). Each sequencer's fetch, ld/st, engine and DMA
// ports are brought out unchanged, concatenated with sequencer i in slice i; the core top
// connects them to the AXI master, the engines and the DMA engines.
//
// The deadlock detector: when every running sequencer waits on a semaphore with nothing of its
// own in flight, no DMA transfer is queued or moving and no DMA semaphore update is arriving, for
// DeadlockCycles cycles in a row, nothing can change a semaphore again: every waiting sequencer
// faults with FaultDeadlock at its instruction, as the golden model reports (docs/core-rtl.md).
// After a fault (a sequencer's or a DMA engine's) the detector is off: the run has stopped at
// that fault, as the golden model's does, and the waits behind it are its consequence.
module tern_seq_cluster #(
  parameter int unsigned NumDmaUpd = 2,  // semaphore update ports of the DMA engines
  localparam int unsigned S  = tern_isa_pkg::NumSeqs,
  localparam int unsigned IB = tern_isa_pkg::InstrBits
) (
  input  logic                                   clk_i,
  input  logic                                   rst_ni,
  input  logic [S-1:0]                           start_i,
  input  logic                                   sem_clear_i,
  input  logic [S*32-1:0]                        prog_base_i,
  input  logic [S*32-1:0]                        prog_len_i,
  input  logic [31:0]                            watchdog_i,   // cycles one instruction may take, 0: none
  input  logic [31:0]                            budget_i,     // instructions a run may start, 0: none
  input  logic                                   dma_busy_i,   // a DMA transfer is queued or moving
  input  logic                                   dma_fault_i,  // a DMA engine has faulted this run
  input  logic [S-1:0]                           halt_req_i,   // host halt requests
  // instruction fetch
  output logic [S-1:0]                           fetch_req_valid_o,
  input  logic [S-1:0]                           fetch_req_ready_i,
  output logic [S*32-1:0]                        fetch_req_addr_o,
  input  logic [S-1:0]                           fetch_rsp_valid_i,
  input  logic [S*IB-1:0]                        fetch_rsp_data_i,
  input  logic [S-1:0]                           fetch_rsp_err_i,
  // ld/st
  output logic [S-1:0]                           mem_req_valid_o,
  input  logic [S-1:0]                           mem_req_ready_i,
  output logic [S-1:0]                           mem_req_write_o,
  output logic [S*32-1:0]                        mem_req_addr_o,
  output logic [S*32-1:0]                        mem_req_wdata_o,
  input  logic [S-1:0]                           mem_rsp_valid_i,
  input  logic [S*32-1:0]                        mem_rsp_rdata_i,
  input  logic [S-1:0]                           mem_rsp_err_i,
  // engine instructions
  output logic [S-1:0]                           eng_valid_o,
  input  logic [S-1:0]                           eng_ready_i,
  output logic [S*IB-1:0]                        eng_instr_o,
  output logic [S*tern_isa_pkg::ApSlots*32-1:0]  eng_ap_base_o,
  output logic [S*tern_isa_pkg::ScalarSlots*32-1:0] eng_sc_base_o,
  output logic [S-1:0]                           eng_acc_o,      // matmul: r[acc_reg] != 0
  input  logic [S-1:0]                           eng_done_i,
  input  logic [S-1:0]                           eng_ahead_i,
  input  logic [S-1:0]                           eng_err_i,
  input  logic [S*4-1:0]                         eng_err_code_i,
  // DMA triggers
  output logic [S-1:0]                           dma_valid_o,
  input  logic [S-1:0]                           dma_ready_i,
  input  logic [S-1:0]                           dma_err_i,      // with ready: trigger refused
  output logic [S*8-1:0]                         dma_queue_o,
  output logic [S*32-1:0]                        dma_desc_o,
  output logic [S*32-1:0]                        dma_src_add_o,
  output logic [S*32-1:0]                        dma_dst_add_o,
  output logic [S*2-1:0]                         dma_upd_mode_o,
  output logic [S*6-1:0]                         dma_upd_idx_o,
  output logic [S*8-1:0]                         dma_upd_value_o,
  // semaphore updates from the DMA engines (transfer completions)
  input  logic [NumDmaUpd-1:0]                   dma_sem_valid_i,
  input  logic [NumDmaUpd*2-1:0]                 dma_sem_mode_i,
  input  logic [NumDmaUpd*6-1:0]                 dma_sem_idx_i,
  input  logic [NumDmaUpd*8-1:0]                 dma_sem_value_i,
  // status
  output logic [tern_isa_pkg::NumSems*32-1:0]    sem_values_o,
  output logic [S-1:0]                           busy_o,
  output logic [S-1:0]                           halted_o,
  output logic [S-1:0]                           waiting_o,
  output logic [S-1:0]                           notify_valid_o,
  output logic [S*32-1:0]                        notify_code_o,
  output logic [S*4-1:0]                         err_code_o,
  output logic [S*32-1:0]                        err_pc_o,
  output logic [S*32-1:0]                        pc_o,
  output logic [S*32-1:0]                        retired_o,
  output logic [S*32-1:0]                        busy_cycles_o,
  output logic [S*32-1:0]                        sem_wait_cycles_o,
  output logic [S*32-1:0]                        fetch_wait_cycles_o,
  output logic [S-1:0]                           trace_retire_o,
  output logic [S*32-1:0]                        trace_pc_o,
  output logic [S*4-1:0]                         trace_state_o,
  output logic [S-1:0]                           trace_rf_we_o,
  output logic [S*6-1:0]                         trace_rf_wa_o,
  output logic [S*32-1:0]                        trace_rf_wd_o
);

  localparam int unsigned Ports = S + NumDmaUpd;

  logic [S-1:0]   seq_upd_valid;
  logic [S*2-1:0] seq_upd_mode;
  logic [S*6-1:0] seq_upd_idx;
  logic [S*8-1:0] seq_upd_value;
  logic [S-1:0]   stuck;
  logic           deadlock_q;

  for (genvar i = 0; i < S; i++) begin : gen_seq
    tern_seq u_seq (
      .clk_i,
      .rst_ni,
      .seq_id_i          (3'(i)),
      .start_i           (start_i[i]),
      .prog_base_i       (prog_base_i[32*i +: 32]),
      .prog_len_i        (prog_len_i[32*i +: 32]),
      .watchdog_i        (watchdog_i),
      .budget_i          (budget_i),
      .deadlock_i        (deadlock_q),
      .halt_req_i        (halt_req_i[i]),
      .fetch_req_valid_o (fetch_req_valid_o[i]),
      .fetch_req_ready_i (fetch_req_ready_i[i]),
      .fetch_req_addr_o  (fetch_req_addr_o[32*i +: 32]),
      .fetch_rsp_valid_i (fetch_rsp_valid_i[i]),
      .fetch_rsp_data_i  (fetch_rsp_data_i[IB*i +: IB]),
      .fetch_rsp_err_i   (fetch_rsp_err_i[i]),
      .mem_req_valid_o   (mem_req_valid_o[i]),
      .mem_req_ready_i   (mem_req_ready_i[i]),
      .mem_req_write_o   (mem_req_write_o[i]),
      .mem_req_addr_o    (mem_req_addr_o[32*i +: 32]),
      .mem_req_wdata_o   (mem_req_wdata_o[32*i +: 32]),
      .mem_rsp_valid_i   (mem_rsp_valid_i[i]),
      .mem_rsp_rdata_i   (mem_rsp_rdata_i[32*i +: 32]),
      .mem_rsp_err_i     (mem_rsp_err_i[i]),
      .sem_values_i      (sem_values_o),
      .sem_upd_valid_o   (seq_upd_valid[i]),
      .sem_upd_mode_o    (seq_upd_mode[2*i +: 2]),
      .sem_upd_idx_o     (seq_upd_idx[6*i +: 6]),
      .sem_upd_value_o   (seq_upd_value[8*i +: 8]),
      .eng_valid_o       (eng_valid_o[i]),
      .eng_ready_i       (eng_ready_i[i]),
      .eng_instr_o       (eng_instr_o[IB*i +: IB]),
      .eng_ap_base_o     (eng_ap_base_o[tern_isa_pkg::ApSlots*32*i +: tern_isa_pkg::ApSlots*32]),
      .eng_sc_base_o     (eng_sc_base_o[tern_isa_pkg::ScalarSlots*32*i +: tern_isa_pkg::ScalarSlots*32]),
      .eng_acc_o         (eng_acc_o[i]),
      .eng_done_i        (eng_done_i[i]),
      .eng_ahead_i       (eng_ahead_i[i]),
      .eng_err_i         (eng_err_i[i]),
      .eng_err_code_i    (eng_err_code_i[4*i +: 4]),
      .dma_valid_o       (dma_valid_o[i]),
      .dma_ready_i       (dma_ready_i[i]),
      .dma_err_i         (dma_err_i[i]),
      .dma_queue_o       (dma_queue_o[8*i +: 8]),
      .dma_desc_o        (dma_desc_o[32*i +: 32]),
      .dma_src_add_o     (dma_src_add_o[32*i +: 32]),
      .dma_dst_add_o     (dma_dst_add_o[32*i +: 32]),
      .dma_upd_mode_o    (dma_upd_mode_o[2*i +: 2]),
      .dma_upd_idx_o     (dma_upd_idx_o[6*i +: 6]),
      .dma_upd_value_o   (dma_upd_value_o[8*i +: 8]),
      .busy_o            (busy_o[i]),
      .halted_o          (halted_o[i]),
      .waiting_o         (waiting_o[i]),
      .stuck_o           (stuck[i]),
      .notify_valid_o    (notify_valid_o[i]),
      .notify_code_o     (notify_code_o[32*i +: 32]),
      .err_code_o        (err_code_o[4*i +: 4]),
      .err_pc_o          (err_pc_o[32*i +: 32]),
      .pc_o              (pc_o[32*i +: 32]),
      .retired_o         (retired_o[32*i +: 32]),
      .busy_cycles_o     (busy_cycles_o[32*i +: 32]),
      .sem_wait_cycles_o (sem_wait_cycles_o[32*i +: 32]),
      .fetch_wait_cycles_o (fetch_wait_cycles_o[32*i +: 32]),
      .trace_retire_o    (trace_retire_o[i]),
      .trace_pc_o        (trace_pc_o[32*i +: 32]),
      .trace_state_o     (trace_state_o[4*i +: 4]),
      .trace_rf_we_o     (trace_rf_we_o[i]),
      .trace_rf_wa_o     (trace_rf_wa_o[6*i +: 6]),
      .trace_rf_wd_o     (trace_rf_wd_o[32*i +: 32])
    );
  end

  // Quiet: some sequencer waits, every running one is stuck, nothing else can update a semaphore.
  // DeadlockCycles covers the registered paths from a DMA completion or a retirement to the
  // semaphore values (two cycles) with margin. The verdict is registered (the sequencers fault
  // a cycle after the count is reached): a stuck sequencer's wait check, the detector and the
  // fault's semaphore and state updates would otherwise be one path (docs/core-rtl.md).
  localparam int unsigned DeadlockCycles = 8;
  logic       quiet, deadlock_d;
  logic [3:0] quiet_cnt_q, quiet_cnt_d;
  // (A stuck or stopped sequencer makes no semaphore update, so the sequencers' own updates
  // need no term here.)
  assign quiet = (|stuck) && (&(stuck | ~busy_o)) && !dma_busy_i && !(|dma_sem_valid_i) &&
                 !(|err_code_o) && !dma_fault_i;
  assign quiet_cnt_d = !quiet ? 4'd0 :
                       (quiet_cnt_q == 4'(DeadlockCycles)) ? quiet_cnt_q : quiet_cnt_q + 4'd1;
  assign deadlock_d  = quiet && (quiet_cnt_q == 4'(DeadlockCycles));
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      quiet_cnt_q <= '0;
      deadlock_q  <= 1'b0;
    end else begin
      quiet_cnt_q <= quiet_cnt_d;
      deadlock_q  <= deadlock_d;
    end
  end

  // Sequencers take the low port numbers, so their sets win over the DMA engines'.
  tern_sem_bank #(
    .NumPorts(Ports)
  ) u_sem_bank (
    .clk_i,
    .rst_ni,
    .clear_i     (sem_clear_i),
    .upd_valid_i ({dma_sem_valid_i, seq_upd_valid}),
    .upd_mode_i  ({dma_sem_mode_i, seq_upd_mode}),
    .upd_idx_i   ({dma_sem_idx_i, seq_upd_idx}),
    .upd_value_i ({dma_sem_value_i, seq_upd_value}),
    .values_o    (sem_values_o)
  );

`ifndef SYNTHESIS
  // The detector fires only after DeadlockCycles quiet cycles, and every sequencer stuck on a
  // wait then faults with FaultDeadlock (docs/core-rtl.md, "Three guards").
  deadlock_after_quiet: assert property (@(posedge clk_i) disable iff (!rst_ni)
                                         deadlock_q |-> $past(quiet) && $past(quiet, DeadlockCycles + 1));
  for (genvar s = 0; s < S; s++) begin : gen_deadlock_check
    deadlock_faults: assert property (@(posedge clk_i) disable iff (!rst_ni)
                                      deadlock_q && stuck[s] |=>
                                      err_code_o[s*4 +: 4] == tern_csr_pkg::FaultDeadlock);
  end
`endif

endmodule
