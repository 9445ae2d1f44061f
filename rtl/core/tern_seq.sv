// tern_seq: one instruction sequencer of the NeuronCore (docs/core-rtl.md). It fetches its
// stream one 1024-bit instruction at a time, waits for the instruction's semaphore condition,
// executes control instructions itself (scalar ALU on 64 x 32-bit registers, branches, counted
// loops, HBM word load/store, notify, halt), hands engine instructions to its engine and DMA
// triggers to the DMA port, and on completion requests the instruction's semaphore update.
// Semantics: docs/isa.md "Semantics"; golden: model/core (tern::core::CoreModel).
//
//   Idle --start--> Fetch --rsp--> Wait --sem ok--> Exec --(done)--> Fetch ... Halted / Error
//
// An instruction is decoded (checked for its sequencer and its engine codes) in its first Wait
// cycle, and an engine instruction is offered to its engine from Exec: on the PE's path from
// one matmul to the next every state is a cycle of the array standing idle.
//
// One instruction is in flight at a time, so an instruction's results are visible to the next,
// with one exception: an engine that raises eng_ahead_i for its instruction (it can no longer
// fault, and the engine can take another) lets the sequencer go on to the next engine
// instruction. The first is then pending: it retires, in order, at the engine's next done.
// Nops that only wait (no semaphore update, not on the pending one's semaphore) pass it too, up
// to MaxSkip of them: their waits are met now, and they retire after it, one a cycle, before
// anything later does -- so a run of waits ahead of the next LoadStationary no longer holds it
// behind the running matmul. Anything else (control, ld/st, DMA, halt, a wait on the pending
// one's semaphore) waits for the pending instruction and the nops behind it.
module tern_seq (
  input  logic                                 clk_i,
  input  logic                                 rst_ni,
  // which sequencer this is (tern_isa_pkg::Seq*): a port, so synthesis elaborates one module
  input  logic [2:0]                           seq_id_i,
  // control (CSRs)
  input  logic                                 start_i,       // begin at instruction 0
  input  logic [31:0]                          prog_base_i,   // HBM byte address of the stream
  input  logic [31:0]                          prog_len_i,    // instructions in the stream
  input  logic [31:0]                          watchdog_i,    // cycles one instruction may take; 0: no limit
  input  logic [31:0]                          budget_i,      // instructions a run may start; 0: no limit
  input  logic                                 deadlock_i,    // the core is quiet: every waiting one faults
  input  logic                                 halt_req_i,    // host: halt at the next instruction boundary
  // instruction fetch: one instruction per request
  output logic                                 fetch_req_valid_o,
  input  logic                                 fetch_req_ready_i,
  output logic [31:0]                          fetch_req_addr_o,
  input  logic                                 fetch_rsp_valid_i,
  input  logic [tern_isa_pkg::InstrBits-1:0]   fetch_rsp_data_i,
  input  logic                                 fetch_rsp_err_i,
  // ld/st: one 32-bit HBM word per request
  output logic                                 mem_req_valid_o,
  input  logic                                 mem_req_ready_i,
  output logic                                 mem_req_write_o,
  output logic [31:0]                          mem_req_addr_o,
  output logic [31:0]                          mem_req_wdata_o,
  input  logic                                 mem_rsp_valid_i,
  input  logic [31:0]                          mem_rsp_rdata_i,
  input  logic                                 mem_rsp_err_i,
  // semaphores: every value, and one update request per completed instruction
  input  logic [tern_isa_pkg::NumSems*32-1:0]  sem_values_i,
  output logic                                 sem_upd_valid_o,
  output logic [1:0]                           sem_upd_mode_o,
  output logic [5:0]                           sem_upd_idx_o,
  output logic [7:0]                           sem_upd_value_o,
  // engine instructions: the instruction and its resolved base registers; done when complete
  output logic                                 eng_valid_o,
  input  logic                                 eng_ready_i,
  output logic [tern_isa_pkg::InstrBits-1:0]   eng_instr_o,
  output logic [tern_isa_pkg::ApSlots*32-1:0]  eng_ap_base_o,   // r[ap_i.base_reg]
  output logic [tern_isa_pkg::ScalarSlots*32-1:0] eng_sc_base_o, // r[s_i.base_reg]
  output logic                                 eng_acc_o,       // matmul: r[acc_reg] != 0
  input  logic                                 eng_done_i,
  input  logic                                 eng_ahead_i,     // the next may be handed over
  input  logic                                 eng_err_i,       // the engine rejected it
  input  logic [3:0]                           eng_err_code_i,  // its FaultKind (0: engine)
  // DMA triggers: the DMA engine performs the semaphore update when the transfer completes
  output logic                                 dma_valid_o,
  input  logic                                 dma_ready_i,
  input  logic                                 dma_err_i,       // with ready: no such queue or descriptor
  output logic [7:0]                           dma_queue_o,
  output logic [31:0]                          dma_desc_o,      // descriptor index (imm + rd)
  output logic [31:0]                          dma_src_add_o,   // r[rs1]
  output logic [31:0]                          dma_dst_add_o,   // r[rs2]
  output logic [1:0]                           dma_upd_mode_o,
  output logic [5:0]                           dma_upd_idx_o,
  output logic [7:0]                           dma_upd_value_o,
  // status
  output logic                                 busy_o,
  output logic                                 halted_o,
  output logic                                 waiting_o,       // blocked on a semaphore
  output logic                                 stuck_o,         // waiting, with nothing of its own in flight
  output logic                                 notify_valid_o,
  output logic [31:0]                          notify_code_o,
  output logic [3:0]                           err_code_o,      // tern::core::FaultKind; 0: none
  output logic [31:0]                          err_pc_o,
  output logic [31:0]                          pc_o,
  output logic [31:0]                          retired_o,       // instructions completed
  // performance counters since start (cycles): not idle, waiting on a semaphore, on fetch
  output logic [31:0]                          busy_cycles_o,
  output logic [31:0]                          sem_wait_cycles_o,
  output logic [31:0]                          fetch_wait_cycles_o,
  // Trace, for benches (lock-step retire checks, the profiler's timeline); no logic of its own.
  output logic                                 trace_retire_o,  // trace_pc_o's instruction retires
  output logic [31:0]                          trace_pc_o,
  output logic [3:0]                           trace_state_o,
  output logic                                 trace_rf_we_o,   // and writes rf[wa] = wd
  output logic [5:0]                           trace_rf_wa_o,
  output logic [31:0]                          trace_rf_wd_o
);

  // Field positions, from the generated ISA package (control formats share rd/rs1/rs2/imm).
  localparam int unsigned IB = tern_isa_pkg::InstrBits;
  localparam int unsigned RdLsb = tern_isa_pkg::AluRdLsb;
  localparam int unsigned Rs1Lsb = tern_isa_pkg::AluRs1Lsb;
  localparam int unsigned Rs2Lsb = tern_isa_pkg::AluRs2Lsb;
  localparam int unsigned UseImmLsb = tern_isa_pkg::AluUseImmLsb;
  localparam int unsigned ImmLsb = tern_isa_pkg::AluImmLsb;
  localparam int unsigned TargetLsb = tern_isa_pkg::BrTargetLsb;

  // Fault codes (tern::core::FaultKind), from the generated CSR package.
  localparam logic [3:0] ErrIllegal  = tern_csr_pkg::FaultIllegalInstruction;
  localparam logic [3:0] ErrEngine   = tern_csr_pkg::FaultEngine;
  localparam logic [3:0] ErrDma      = tern_csr_pkg::FaultDma;
  localparam logic [3:0] ErrMemory   = tern_csr_pkg::FaultMemory;
  localparam logic [3:0] ErrDeadlock = tern_csr_pkg::FaultDeadlock;
  localparam logic [3:0] ErrBudget   = tern_csr_pkg::FaultBudget;
  localparam logic [3:0] ErrPc       = tern_csr_pkg::FaultPc;
  localparam logic [3:0] ErrWatchdog = tern_csr_pkg::FaultWatchdog;


  // States: tern_csr_pkg::seq_state_e, generated from model/core/seq_state.cc (the trace port
  // shows them to the testbench and the profiler).
  tern_csr_pkg::seq_state_e state_q, state_d;
  logic [31:0]   pc_q, pc_d;
  logic [31:0]   len_q, len_d;
  logic [31:0]   base_q, base_d;
  logic [IB-1:0] instr_q, instr_d;
  logic [31:0]   retired_q, retired_d;
  logic [3:0]    err_q, err_d;
  logic [31:0]   err_pc_q, err_pc_d;
  logic [31:0]   waited_q, waited_d;  // cycles the current instruction has taken (the watchdog)
  logic [31:0]   started_q, started_d;  // instructions started this run (the budget)
  logic          halt_pend_q, halt_pend_d;  // the host asked for a halt
  logic          fetch_err_q, fetch_err_d;  // the fetch in Wait failed (behind the pending one)
  // An engine instruction that went ahead: its pc and semaphore update, applied when it retires.
  logic          pend_q, pend_d;
  logic [31:0]   pend_pc_q;
  logic [1:0]    pend_mode_q;
  logic [5:0]    pend_idx_q;
  logic [7:0]    pend_value_q;
  // Nops that passed the pending instruction, retiring after it: how many, and the next one's pc.
  localparam int unsigned MaxSkip = 15;
  logic [3:0]    skip_q, skip_d;
  logic [31:0]   skip_pc_q, skip_pc_d;
  logic [31:0]   busy_cyc_q, sem_cyc_q, fetch_cyc_q;
  localparam int unsigned NumRegs = tern_isa_pkg::NumRegs;
  logic [NumRegs*32-1:0] rf_q, rf_d;  // register i in bits 32i +: 32
  logic        rf_we;                  // the one write port: rf[rf_wa] = rf_wd (r0 stays 0)
  logic [5:0]  rf_wa;
  logic [31:0] rf_wd;

  // ---------------------------------------------------------------------------------------
  // Decode: fields of the current instruction.
  // ---------------------------------------------------------------------------------------
  logic [7:0]  opcode;
  logic [5:0]  rd, rs1, rs2, wait_reg, wait_sem;
  logic        use_imm, wait_en;
  logic [31:0] imm, target, a, b, wait_threshold, sem_value;
  logic [1:0]  upd_mode;
  logic [4:0]  seq_mask;

  assign opcode   = instr_q[tern_isa_pkg::HdrOpcodeLsb +: tern_isa_pkg::HdrOpcodeWidth];
  assign rd       = instr_q[RdLsb +: tern_isa_pkg::AluRdWidth];
  assign rs1      = instr_q[Rs1Lsb +: tern_isa_pkg::AluRs1Width];
  assign rs2      = instr_q[Rs2Lsb +: tern_isa_pkg::AluRs2Width];
  assign use_imm  = instr_q[UseImmLsb];
  assign imm      = instr_q[ImmLsb +: tern_isa_pkg::AluImmWidth];
  assign target   = instr_q[TargetLsb +: tern_isa_pkg::BrTargetWidth];
  assign wait_en  = instr_q[tern_isa_pkg::HdrWaitEnLsb];
  assign wait_sem = instr_q[tern_isa_pkg::HdrWaitSemLsb +: tern_isa_pkg::HdrWaitSemWidth];
  assign wait_reg = instr_q[tern_isa_pkg::HdrWaitRegLsb +: tern_isa_pkg::HdrWaitRegWidth];
  assign upd_mode = instr_q[tern_isa_pkg::HdrUpdModeLsb +: tern_isa_pkg::HdrUpdModeWidth];
  assign seq_mask = tern_isa_pkg::op_seq_mask(opcode);
  // Register file and semaphore reads, each read once. Part-selects: here they synthesise
  // smaller than tern_mux's AND-OR (15,948 against 21,014 LUTs for the sequencer, docs/fpga.md
  // "Index selects").
  logic [31:0] rs2_value, rd_value, wait_reg_value;
  assign rd_value       = rf_q[32*rd +: 32];
  assign a              = rf_q[32*rs1 +: 32];
  assign rs2_value      = rf_q[32*rs2 +: 32];
  assign wait_reg_value = rf_q[32*wait_reg +: 32];
  assign sem_value      = sem_values_i[32*wait_sem +: 32];
  assign b = use_imm ? imm : rs2_value;
  // The wait threshold: a signed 24-bit immediate plus a register, compared as int32.
  assign wait_threshold = {{8{instr_q[tern_isa_pkg::HdrWaitValueLsb + 23]}},
                           instr_q[tern_isa_pkg::HdrWaitValueLsb +: tern_isa_pkg::HdrWaitValueWidth]} + wait_reg_value;

  logic sem_ok;
  assign sem_ok = !wait_en || ($signed(sem_value) >= $signed(wait_threshold));

  // Strict decode, as the golden decoder (docs/isa.md "Formats"): a bit the instruction does not
  // use is set, or a field holds a code the machine does not define. Both functions are
  // generated from the golden encoder's tables (tern_isa_pkg).
  logic bad_field;
  assign bad_field = (|(instr_q & ~tern_isa_pkg::instr_used_bits(instr_q))) ||
                     tern_isa_pkg::instr_codes_undefined(instr_q);

  logic is_engine;
  assign is_engine = (opcode >= tern_isa_pkg::OpLdstat);

  // The scalar ALU.
  logic [31:0] alu;
  always_comb begin
    unique case (opcode)
      tern_isa_pkg::OpAdd:  alu = a + b;
      tern_isa_pkg::OpSub:  alu = a - b;
      tern_isa_pkg::OpMul:  alu = a * b;
      tern_isa_pkg::OpAnd:  alu = a & b;
      tern_isa_pkg::OpOr:   alu = a | b;
      tern_isa_pkg::OpXor:  alu = a ^ b;
      tern_isa_pkg::OpShl:  alu = a << b[4:0];
      tern_isa_pkg::OpShr:  alu = a >> b[4:0];
      tern_isa_pkg::OpSra:  alu = $unsigned($signed(a) >>> b[4:0]);
      tern_isa_pkg::OpSlt:  alu = {31'd0, $signed(a) < $signed(b)};
      tern_isa_pkg::OpSltu: alu = {31'd0, a < b};
      tern_isa_pkg::OpMin:  alu = ($signed(a) < $signed(b)) ? a : b;
      tern_isa_pkg::OpMax:  alu = ($signed(a) < $signed(b)) ? b : a;
      default:              alu = 32'd0;
    endcase
  end

  logic taken;
  always_comb begin
    unique case (opcode)
      tern_isa_pkg::OpBeq:  taken = (a == b);
      tern_isa_pkg::OpBne:  taken = (a != b);
      tern_isa_pkg::OpBlt:  taken = ($signed(a) < $signed(b));
      tern_isa_pkg::OpBge:  taken = ($signed(a) >= $signed(b));
      tern_isa_pkg::OpBltu: taken = (a < b);
      tern_isa_pkg::OpBgeu: taken = (a >= b);
      // rd -= 1, then rd != 0: r0 stays 0, so a loop on r0 falls through
      tern_isa_pkg::OpLoop: taken = (rd != 6'd0) && (rd_value != 32'd1);
      default:              taken = 1'b0;
    endcase
  end

  logic [31:0] mem_addr;
  assign mem_addr = a + imm;

  // ---------------------------------------------------------------------------------------
  // The state machine.
  // ---------------------------------------------------------------------------------------
  logic        retire, fault, go_ahead, pend_retire, pend_blocks, behind, drain, skip_nop, pass;
  // The current engine instruction's done (and fault) while the nops ahead of it retire.
  logic        done_seen_q, done_seen_d, done_err_q, done_err_d;
  logic [3:0]  done_code_q, done_code_d;
  logic        eng_done, eng_err;
  logic [3:0]  eng_err_code;
  logic [3:0]  fault_code;
  logic [31:0] next_pc;
  logic        running, budget_out;
  assign running    = !(state_q == tern_csr_pkg::SeqStIdle || state_q == tern_csr_pkg::SeqStHalted ||
                        state_q == tern_csr_pkg::SeqStError);
  assign budget_out = (budget_i != 32'd0) && (started_q >= budget_i);

  // The pending instruction retires at the engine's done, whatever state the sequencer is in.
  // Until then the next instruction starts only if it is an engine instruction that does not
  // wait on the semaphore the pending one updates, or a nop that may pass it (skip_nop).
  assign pend_retire = pend_q && eng_done_i;
  // Something before the current instruction has not retired: the pending one or nops after it.
  assign behind      = pend_q || (skip_q != 4'd0);
  assign drain       = !pend_q && (skip_q != 4'd0);  // a passed nop retires this cycle
  // A nop that may pass the pending instruction (checked in Wait, applied in Exec).
  assign skip_nop    = (opcode == tern_isa_pkg::OpNop) && (upd_mode == 2'd0) &&
                       !(wait_en && pend_mode_q != 2'd0 && wait_sem == pend_idx_q) &&
                       (skip_q != 4'(MaxSkip));
  assign pend_blocks = (pend_q && is_engine && wait_en && pend_mode_q != 2'd0 &&
                        wait_sem == pend_idx_q) ||
                       (behind && !is_engine && !(pend_q && skip_nop));
  // The engine's done for the current instruction, kept while nops ahead of it retire.
  assign eng_done     = (eng_done_i && !pend_q) || done_seen_q;
  assign eng_err      = done_seen_q ? done_err_q : eng_err_i;
  assign eng_err_code = done_seen_q ? done_code_q : eng_err_code_i;

  always_comb begin
    state_d   = state_q;
    pc_d      = pc_q;
    len_d     = len_q;
    base_d    = base_q;
    instr_d   = instr_q;
    retired_d = retired_q;
    err_d     = err_q;
    err_pc_d  = err_pc_q;
    waited_d  = waited_q + 32'd1;
    started_d = started_q;
    pend_d    = pend_q && !pend_retire;
    go_ahead  = 1'b0;
    pass      = 1'b0;
    done_seen_d = done_seen_q;
    done_err_d  = done_err_q;
    done_code_d = done_code_q;
    rf_d      = rf_q;
    rf_we     = 1'b0;
    rf_wa     = rd;
    rf_wd     = alu;
    fetch_req_valid_o = 1'b0;
    mem_req_valid_o   = 1'b0;
    eng_valid_o       = 1'b0;
    dma_valid_o       = 1'b0;
    sem_upd_valid_o   = 1'b0;
    notify_valid_o    = 1'b0;

    // Each state may retire the instruction (its update, the count, the next pc) or fault; both
    // are applied once, after the case.
    retire     = 1'b0;
    fault      = 1'b0;
    fault_code = ErrIllegal;
    fetch_err_d = fetch_err_q && (state_q == tern_csr_pkg::SeqStWait);
    next_pc    = pc_q + 32'd1;

    unique case (state_q)
      tern_csr_pkg::SeqStIdle, tern_csr_pkg::SeqStHalted, tern_csr_pkg::SeqStError: begin
        if (start_i) begin
          pc_d      = 32'd0;
          len_d     = prog_len_i;
          base_d    = prog_base_i;
          retired_d = 32'd0;
          started_d = 32'd0;
          err_d     = 4'd0;
          err_pc_d  = 32'd0;
          rf_d      = '0;  // registers start at zero
          state_d   = (prog_len_i == 32'd0) ? tern_csr_pkg::SeqStHalted : tern_csr_pkg::SeqStFetch;
        end
      end
      tern_csr_pkg::SeqStFetch: begin
        if (behind && (halt_pend_q || pc_q >= len_q)) begin
          // a halt or a fault here comes after the pending instruction retires
        end else if (halt_pend_q) begin
          state_d = tern_csr_pkg::SeqStHalted;
        end else if (pc_q >= len_q) begin  // ran past the last instruction: no halt
          fault      = 1'b1;
          fault_code = ErrPc;
        end else begin
          fetch_req_valid_o = 1'b1;
          if (fetch_req_ready_i) state_d = tern_csr_pkg::SeqStFetchWait;
        end
      end
      tern_csr_pkg::SeqStFetchWait: begin
        if (fetch_rsp_valid_i) begin
          instr_d     = fetch_rsp_data_i;
          fault       = fetch_rsp_err_i && !behind;
          fault_code  = ErrMemory;
          fetch_err_d = fetch_rsp_err_i && behind;  // raised once the pending one retires
          state_d     = tern_csr_pkg::SeqStWait;
        end
      end
      tern_csr_pkg::SeqStWait: begin
        // A fault of this instruction comes after the pending one retires, as in the golden
        // model, where that one completes first.
        if (fetch_err_q) begin
          fault      = !behind;
          fault_code = ErrMemory;
        end else if (!seq_mask[seq_id_i] || bad_field) begin
          fault = !behind;  // decoded: not this sequencer's, a reserved bit set or an undefined code
        end else if (halt_pend_q) begin
          // the instruction has not started: it stays at pc
          if (!behind) state_d = tern_csr_pkg::SeqStHalted;
        end else if (sem_ok && budget_out) begin
          fault      = !behind;  // one more would pass the budget: a runaway loop
          fault_code = ErrBudget;
        end else if (sem_ok && pend_blocks) begin
          // waits for the pending instruction
        end else if (sem_ok) begin
          state_d   = tern_csr_pkg::SeqStExec;
          started_d = started_q + 32'd1;
        end else if (deadlock_i && !behind) begin
          fault      = 1'b1;  // nothing in the core can change the semaphore it waits on
          fault_code = ErrDeadlock;
        end
      end
      tern_csr_pkg::SeqStExec: begin
        // Control instructions retire here; the others move on to their port. A nop let past
        // the pending instruction (the only control instruction here while behind) retires
        // after it.
        if (is_engine) begin
          eng_valid_o = 1'b1;
          state_d     = eng_ready_i ? tern_csr_pkg::SeqStEngWait : tern_csr_pkg::SeqStEng;
        end else if (behind) begin
          pass    = 1'b1;
          pc_d    = pc_q + 32'd1;
          state_d = tern_csr_pkg::SeqStFetch;
        end else begin
          retire = 1'b1;
          unique case (opcode)
            tern_isa_pkg::OpLd, tern_isa_pkg::OpSt: begin
              retire     = 1'b0;
              fault      = (mem_addr[1:0] != 2'd0);
              fault_code = ErrMemory;
              state_d    = tern_csr_pkg::SeqStMem;
            end
            tern_isa_pkg::OpDma: begin
              retire  = 1'b0;
              state_d = tern_csr_pkg::SeqStDma;
            end
            tern_isa_pkg::OpHalt: begin
              next_pc = pc_q;
              state_d = tern_csr_pkg::SeqStHalted;
            end
            tern_isa_pkg::OpNotify: notify_valid_o = 1'b1;
            tern_isa_pkg::OpLoop: begin
              rf_we = 1'b1;
              rf_wd = rd_value - 32'd1;
            end
            tern_isa_pkg::OpAdd, tern_isa_pkg::OpSub, tern_isa_pkg::OpMul, tern_isa_pkg::OpAnd,
            tern_isa_pkg::OpOr, tern_isa_pkg::OpXor, tern_isa_pkg::OpShl, tern_isa_pkg::OpShr,
            tern_isa_pkg::OpSra, tern_isa_pkg::OpSlt, tern_isa_pkg::OpSltu, tern_isa_pkg::OpMin,
            tern_isa_pkg::OpMax: begin
              rf_we = 1'b1;
            end
            default: ;  // nop, branches
          endcase
          if (taken) begin
            next_pc    = target;
            fault      = (target >= len_q);  // a taken branch past the stream
            fault_code = ErrPc;
          end
        end
      end
      tern_csr_pkg::SeqStMem: begin
        mem_req_valid_o = 1'b1;
        if (mem_req_ready_i) state_d = tern_csr_pkg::SeqStMemWait;
      end
      tern_csr_pkg::SeqStMemWait: begin
        if (mem_rsp_valid_i) begin
          rf_we      = (opcode == tern_isa_pkg::OpLd) && !mem_rsp_err_i;
          rf_wd      = mem_rsp_rdata_i;
          retire     = 1'b1;
          fault      = mem_rsp_err_i;
          fault_code = ErrMemory;
        end
      end
      tern_csr_pkg::SeqStEng: begin
        eng_valid_o = 1'b1;
        if (eng_ready_i) state_d = tern_csr_pkg::SeqStEngWait;
      end
      tern_csr_pkg::SeqStEngWait: begin
        if (eng_done && behind) begin
          done_seen_d = 1'b1;  // retires once the nops ahead of it have
          done_err_d  = eng_err;
          done_code_d = eng_err_code;
        end else if (eng_done) begin
          retire      = 1'b1;
          fault       = eng_err;
          fault_code  = (eng_err_code != 4'd0) ? eng_err_code : ErrEngine;
          done_seen_d = 1'b0;
        end else if (eng_ahead_i && !behind && !halt_pend_q) begin
          go_ahead = 1'b1;
          pend_d   = 1'b1;
          pc_d     = pc_q + 32'd1;
          state_d  = tern_csr_pkg::SeqStFetch;
        end
      end
      tern_csr_pkg::SeqStDma: begin
        dma_valid_o = 1'b1;
        // The DMA engine updates the semaphore when the transfer ends; a trigger naming a queue
        // or descriptor that does not exist is refused and faults here, as in the golden model.
        retire      = dma_ready_i && !dma_err_i;
        fault       = dma_ready_i && dma_err_i;
        fault_code  = ErrDma;
      end
      default: state_d = tern_csr_pkg::SeqStIdle;
    endcase

    if (pend_retire) begin
      sem_upd_valid_o = (pend_mode_q != 2'd0);
      retired_d       = retired_q + 32'd1;
    end
    // Passed nops: one retires a cycle once the pending instruction has (nothing else retires
    // then); a nop passing now joins the end of the run.
    skip_pc_d = drain ? skip_pc_q + 32'd1 : skip_pc_q;
    if (drain) retired_d = retired_q + 32'd1;
    if (pass && skip_q == 4'd0) skip_pc_d = pc_q;
    skip_d = skip_q - {3'd0, drain} + {3'd0, pass};
    // The watchdog: an instruction that has taken more than its cycles, whatever it waits for
    // (a semaphore, a fetch or ld/st response, its engine, the DMA queue), faults where it is.
    if (!fault && !retire && !go_ahead && !pass && running && watchdog_i != 32'd0 &&
        waited_q >= watchdog_i) begin
      fault      = 1'b1;
      fault_code = ErrWatchdog;
    end
    if (fault || retire || go_ahead || pass || !running) waited_d = 32'd0;
    if (fault) begin
      err_d    = fault_code;
      err_pc_d = pc_q;
      state_d  = tern_csr_pkg::SeqStError;
      rf_we    = 1'b0;
    end else if (retire) begin
      sem_upd_valid_o = (upd_mode != 2'd0) && (opcode != tern_isa_pkg::OpDma);
      retired_d       = retired_d + 32'd1;
      pc_d            = next_pc;
      if (state_d != tern_csr_pkg::SeqStHalted)
        state_d = halt_pend_q ? tern_csr_pkg::SeqStHalted : tern_csr_pkg::SeqStFetch;
    end
    // A halt request is kept until the sequencer halts (at the next instruction boundary: an
    // instruction in flight on an engine, ld/st or DMA completes first) and cleared by a start.
    halt_pend_d = (halt_pend_q || halt_req_i) && (state_d != tern_csr_pkg::SeqStHalted) &&
                  (state_d != tern_csr_pkg::SeqStError) &&
                  (state_d != tern_csr_pkg::SeqStIdle);
    if (start_i && !running) begin
      halt_pend_d = 1'b0;
      pend_d      = 1'b0;
      skip_d      = 4'd0;
      done_seen_d = 1'b0;
    end
    for (int unsigned r = 1; r < NumRegs; r++) begin
      if (rf_we && rf_wa == 6'(r)) rf_d[32*r +: 32] = rf_wd;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q   <= tern_csr_pkg::SeqStIdle;
      pc_q      <= '0;
      len_q     <= '0;
      base_q    <= '0;
      instr_q   <= '0;
      retired_q <= '0;
      err_q     <= '0;
      err_pc_q  <= '0;
      waited_q  <= '0;
      started_q <= '0;
      rf_q      <= '0;
      halt_pend_q <= 1'b0;
      fetch_err_q <= 1'b0;
      pend_q      <= 1'b0;
      pend_pc_q   <= '0;
      pend_mode_q <= '0;
      pend_idx_q  <= '0;
      pend_value_q <= '0;
      skip_q       <= '0;
      skip_pc_q    <= '0;
      done_seen_q  <= 1'b0;
      done_err_q   <= 1'b0;
      done_code_q  <= '0;
    end else begin
      state_q   <= state_d;
      pc_q      <= pc_d;
      len_q     <= len_d;
      base_q    <= base_d;
      instr_q   <= instr_d;
      retired_q <= retired_d;
      err_q     <= err_d;
      err_pc_q  <= err_pc_d;
      waited_q  <= waited_d;
      started_q <= started_d;
      rf_q      <= rf_d;
      halt_pend_q <= halt_pend_d;
      fetch_err_q <= fetch_err_d;
      pend_q      <= pend_d;
      skip_q      <= skip_d;
      skip_pc_q   <= skip_pc_d;
      done_seen_q <= done_seen_d;
      done_err_q  <= done_err_d;
      done_code_q <= done_code_d;
      if (go_ahead) begin
        pend_pc_q    <= pc_q;
        pend_mode_q  <= upd_mode;
        pend_idx_q   <= instr_q[tern_isa_pkg::HdrUpdSemLsb +: tern_isa_pkg::HdrUpdSemWidth];
        pend_value_q <= instr_q[tern_isa_pkg::HdrUpdValueLsb +: tern_isa_pkg::HdrUpdValueWidth];
      end
    end
  end

  // Performance counters: cleared by start, counting while the sequencer runs.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_cyc_q  <= '0;
      sem_cyc_q   <= '0;
      fetch_cyc_q <= '0;
    end else if (start_i && !running) begin
      busy_cyc_q  <= '0;
      sem_cyc_q   <= '0;
      fetch_cyc_q <= '0;
    end else if (running) begin
      busy_cyc_q  <= busy_cyc_q + 32'd1;
      sem_cyc_q   <= sem_cyc_q + {31'd0, state_q == tern_csr_pkg::SeqStWait && !sem_ok};
      fetch_cyc_q <= fetch_cyc_q + {31'd0, state_q == tern_csr_pkg::SeqStFetch ||
                                           state_q == tern_csr_pkg::SeqStFetchWait};
    end
  end

  // ---------------------------------------------------------------------------------------
  // Ports.
  // ---------------------------------------------------------------------------------------
  assign fetch_req_addr_o = base_q + (pc_q << tern_isa_pkg::InstrBytesLog2);
  assign mem_req_write_o  = (opcode == tern_isa_pkg::OpSt);
  assign mem_req_addr_o   = mem_addr;
  assign mem_req_wdata_o  = rs2_value;

  // The pending instruction's update, in its cycle (nothing else retires then), or this one's.
  assign sem_upd_mode_o  = pend_retire ? pend_mode_q : upd_mode;
  assign sem_upd_idx_o   = pend_retire ? pend_idx_q : instr_q[tern_isa_pkg::HdrUpdSemLsb +: tern_isa_pkg::HdrUpdSemWidth];
  assign sem_upd_value_o = pend_retire ? pend_value_q : instr_q[tern_isa_pkg::HdrUpdValueLsb +: tern_isa_pkg::HdrUpdValueWidth];

  assign eng_instr_o = instr_q;
  // A matmul's acc_reg is where the control formats keep rs1, so its value is `a`.
  assign eng_acc_o   = (a != '0);
  for (genvar i = 0; i < tern_isa_pkg::ApSlots; i++) begin : gen_ap_base
    localparam int unsigned Lsb = tern_isa_pkg::ApSlot0Lsb + i * tern_isa_pkg::ApBits +
                                  tern_isa_pkg::ApBaseRegLsb;
    assign eng_ap_base_o[32*i +: 32] = rf_q[32*instr_q[Lsb +: 6] +: 32];
  end
  for (genvar i = 0; i < tern_isa_pkg::ScalarSlots; i++) begin : gen_sc_base
    localparam int unsigned Lsb = tern_isa_pkg::ScalarSlot0Lsb + i * tern_isa_pkg::ScalarBits +
                                  tern_isa_pkg::ScBaseRegLsb;
    assign eng_sc_base_o[32*i +: 32] = rf_q[32*instr_q[Lsb +: 6] +: 32];
  end

  assign dma_queue_o     = instr_q[tern_isa_pkg::DmaQueueLsb +: tern_isa_pkg::DmaQueueWidth];
  assign dma_desc_o      = imm + rd_value;
  assign dma_src_add_o   = a;
  assign dma_dst_add_o   = rs2_value;
  assign dma_upd_mode_o  = upd_mode;
  assign dma_upd_idx_o   = instr_q[tern_isa_pkg::HdrUpdSemLsb +: tern_isa_pkg::HdrUpdSemWidth];
  assign dma_upd_value_o = instr_q[tern_isa_pkg::HdrUpdValueLsb +: tern_isa_pkg::HdrUpdValueWidth];

  assign busy_o              = running;
  assign busy_cycles_o       = busy_cyc_q;
  assign sem_wait_cycles_o   = sem_cyc_q;
  assign fetch_wait_cycles_o = fetch_cyc_q;
  assign halted_o      = (state_q == tern_csr_pkg::SeqStHalted);
  assign waiting_o     = (state_q == tern_csr_pkg::SeqStWait) && !sem_ok;
  assign stuck_o       = (state_q == tern_csr_pkg::SeqStWait) && !sem_ok && !behind && !fetch_err_q;
  assign notify_code_o = imm;
  assign err_code_o    = err_q;
  assign err_pc_o      = err_pc_q;
  assign pc_o          = pc_q;
  assign retired_o     = retired_q;

  assign trace_retire_o = (retire && !fault) || pend_retire || drain;
  assign trace_pc_o     = pend_retire ? pend_pc_q : drain ? skip_pc_q : pc_q;
  assign trace_state_o  = state_q;
  assign trace_rf_we_o  = rf_we && rf_wa != 6'd0;
  assign trace_rf_wa_o  = rf_wa;
  assign trace_rf_wd_o  = rf_wd;

`ifndef SYNTHESIS
  // A budget fault only once the run has started its budget of instructions; the instruction
  // count never passes the budget.
  budget_fault: assert property (@(posedge clk_i) disable iff (!rst_ni)
                                 err_q != ErrBudget && err_d == ErrBudget |->
                                 budget_i != 32'd0 && started_q >= budget_i);
  budget_bound: assert property (@(posedge clk_i) disable iff (!rst_ni)
                                 budget_i != 32'd0 && $stable(budget_i) && started_q <= budget_i
                                 |=> started_q <= budget_i);
`endif

`ifndef SYNTHESIS
  initial begin : params
    assert (tern_isa_pkg::PeAccRegLsb == Rs1Lsb && tern_isa_pkg::PeAccRegWidth == tern_isa_pkg::AluRs1Width)
      else $fatal(1, "tern_seq: the matmul's acc_reg must sit where rs1 does (bit %0d, %0d wide)", Rs1Lsb,
                  tern_isa_pkg::AluRs1Width);
  end
`endif

endmodule
