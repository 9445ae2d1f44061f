// tern_gpsimd_core: one GPSIMD core (docs/gpsimd.md "Pipeline"), RV32IM + Zicsr in machine
// mode, in order, four stages:
//   IF  the fetch address drives the local memory's read port (one synchronous 1R1W SRAM,
//       outside this module: mem_*);
//   ID  the word arrives and is decoded; registers are read, bypassing the one WB writes;
//   EX  ALU, branches and jumps (resolved here: a taken one refetches, 2 cycles), load and store
//       addresses (a load takes the read port from IF for its cycle, and the next instruction
//       waits one cycle in ID: every load costs one cycle more), CSRs, exceptions; the M unit
//       holds EX for MulDivCycles cycles more; forwarding from WB's result register;
//   WB  the load data arrives and is aligned; the register file is written; the retire port
//       reports the instruction (the lock-step comparison with model/gpsimd's ISS).
// An exception stops the core with its mcause code, pc and tval (fault_*); a core takes no
// traps. start_i (while stopped) starts it at start_pc_i with the counters at zero.
module tern_gpsimd_core #(
  parameter logic [31:0] MemBase  = 32'h8000_0000,
  parameter int unsigned MemBytes = 64 * 1024,   // a power of two; MemBase is aligned to it
  localparam int unsigned AW = $clog2(MemBytes / 4)
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        start_i,
  input  logic [31:0] start_pc_i,
  input  logic [31:0] hart_id_i,
  // the local memory (tern_sram: read data the cycle after rd_en, byte-enabled write)
  output logic          mem_rd_en_o,
  output logic [AW-1:0] mem_rd_addr_o,
  input  logic [31:0]   mem_rd_data_i,
  output logic          mem_wr_en_o,
  output logic [AW-1:0] mem_wr_addr_o,
  output logic [3:0]    mem_wr_be_o,
  output logic [31:0]   mem_wr_data_o,
  // state
  output logic        running_o,
  output logic        fault_o,
  output logic [3:0]  fault_cause_o,   // tern_gpsimd_pkg::cause_e
  output logic [31:0] fault_pc_o,
  output logic [31:0] fault_tval_o,
  // the retire port: one instruction per valid cycle, in program order
  output logic        retire_valid_o,
  output logic [31:0] retire_pc_o,
  output logic [31:0] retire_insn_o,
  output logic        retire_rd_we_o,
  output logic [4:0]  retire_rd_o,
  output logic [31:0] retire_rd_value_o,
  output logic        retire_mem_we_o,
  output logic [31:0] retire_mem_addr_o,
  output logic [31:0] retire_mem_data_o,
  output logic [2:0]  retire_mem_bytes_o,
  output logic [5:0]  retire_ex_stall_o   // cycles it stayed in EX after its first (the M unit's)
);

  localparam logic [31:0] MemMask = 32'(MemBytes - 1);

  // Major opcodes (instruction bits 6:0) of RV32IM + Zicsr.
  localparam logic [6:0] OpcLoad   = 7'h03;
  localparam logic [6:0] OpcMisc   = 7'h0F;
  localparam logic [6:0] OpcOpImm  = 7'h13;
  localparam logic [6:0] OpcAuipc  = 7'h17;
  localparam logic [6:0] OpcStore  = 7'h23;
  localparam logic [6:0] OpcOp     = 7'h33;
  localparam logic [6:0] OpcLui    = 7'h37;
  localparam logic [6:0] OpcBranch = 7'h63;
  localparam logic [6:0] OpcJalr   = 7'h67;
  localparam logic [6:0] OpcJal    = 7'h6F;
  localparam logic [6:0] OpcSystem = 7'h73;


  // ---------------------------------------------------------------- state and pipeline registers
  logic        run_q, run_d;
  logic        fault_q, fault_d;
  tern_gpsimd_pkg::cause_e      cause_q, cause_d;
  logic [31:0] fault_pc_q, fault_pc_d, fault_tval_q, fault_tval_d;

  logic [31:0] pc_f_q, pc_f_d;

  logic        d_valid_q, d_valid_d, d_from_mem_q, d_from_mem_d, d_ffault_q, d_ffault_d;
  logic [31:0] d_pc_q, d_pc_d, d_insn_q, d_insn_d;

  logic        e_valid_q, e_valid_d, e_ffault_q, e_ffault_d;
  logic [31:0] e_pc_q, e_pc_d, e_insn_q, e_insn_d, e_rs1v_q, e_rs1v_d, e_rs2v_q, e_rs2v_d;
  logic        e_fwd1_q, e_fwd1_d, e_fwd2_q, e_fwd2_d;  // take the operand from WB's result
  logic [31:0] e_imm4_q, e_imm4_d;                       // the immediate plus 4, added in ID
  tern_gpsimd_pkg::decoded_t    e_dec_q, e_dec_d;

  logic        w_valid_q, w_valid_d, w_rd_we_q, w_rd_we_d, w_load_q, w_load_d, w_mem_we_q, w_mem_we_d;
  logic [4:0]  w_rd_q, w_rd_d;
  logic [2:0]  w_f3_q, w_f3_d, w_bytes_q, w_bytes_d;
  logic [31:0] w_pc_q, w_pc_d, w_insn_q, w_insn_d, w_alu_q, w_alu_d, w_addr_q, w_addr_d;
  logic [31:0] w_sdata_q, w_sdata_d;
  logic [5:0]  e_stall_q, e_stall_d, w_stall_q, w_stall_d;

  logic [32*32-1:0] rf_q, rf_d;  // register r in bits 32r +: 32; x0 is never written

  logic [63:0] cycle_q, cycle_d, instret_q, instret_d;
  logic [31:0] mtvec_q, mtvec_d, mscratch_q, mscratch_d, mepc_q, mepc_d, mcause_q, mcause_d;
  logic [31:0] mtval_q, mtval_d;

  // ---------------------------------------------------------------- WB: the value written back
  logic [31:0] load_word, w_value;
  assign load_word = mem_rd_data_i >> {w_addr_q[1:0], 3'b000};
  always_comb begin
    w_value = w_alu_q;
    if (w_load_q) begin
      unique case (w_f3_q)
        3'd0: w_value = {{24{load_word[7]}}, load_word[7:0]};
        3'd1: w_value = {{16{load_word[15]}}, load_word[15:0]};
        3'd4: w_value = {24'b0, load_word[7:0]};
        3'd5: w_value = {16'b0, load_word[15:0]};
        default: w_value = load_word;
      endcase
    end
  end
  logic w_writes;
  assign w_writes = w_valid_q && w_rd_we_q;

  // ---------------------------------------------------------------- ID
  logic [31:0] insn;
  tern_gpsimd_pkg::decoded_t    dec;
  assign insn = d_from_mem_q ? mem_rd_data_i : d_insn_q;
  // The decoder: every encoding the RISC-V manuals do not define for RV32IM + Zicsr is
  // OpIllegal, reserved fields included (which CSRs exist is EX's to say); the rules are
  // model/gpsimd/rv_core.cc's with has_f false (the cores' F unit is to come).
  logic [6:0]  opcode, funct7;
  logic [2:0]  funct3;
  logic [31:0] imm_i, imm;
  tern_gpsimd_pkg::op_e op;
  logic        alt, use_imm, rd_we;
  always_comb begin
    opcode = insn[6:0];
    funct3 = insn[14:12];
    funct7 = insn[31:25];
    imm_i  = {{20{insn[31]}}, insn[31:20]};
    op      = tern_gpsimd_pkg::OpIllegal;
    alt     = funct7 == 7'h20 && (opcode == OpcOp || funct3 == 3'd5);
    use_imm = 1'b0;
    imm     = imm_i;
    rd_we   = 1'b0;
    unique case (opcode)
      OpcLui: begin
        op = tern_gpsimd_pkg::OpLui;
        rd_we = 1'b1;
        imm = {insn[31:12], 12'b0};
      end
      OpcAuipc: begin
        op = tern_gpsimd_pkg::OpAuipc;
        rd_we = 1'b1;
        imm = {insn[31:12], 12'b0};
      end
      OpcJal: begin
        op = tern_gpsimd_pkg::OpJal;
        rd_we = 1'b1;
        imm = {{11{insn[31]}}, insn[31], insn[19:12], insn[20], insn[30:21], 1'b0};
      end
      OpcJalr: if (funct3 == 3'd0) begin
        op = tern_gpsimd_pkg::OpJalr;
        rd_we = 1'b1;
      end
      OpcBranch: if (funct3 != 3'd2 && funct3 != 3'd3) begin
        op = tern_gpsimd_pkg::OpBranch;
        imm = {{19{insn[31]}}, insn[31], insn[7], insn[30:25], insn[11:8], 1'b0};
      end
      OpcLoad: if (funct3 != 3'd3 && funct3 != 3'd6 && funct3 != 3'd7) begin
        op = tern_gpsimd_pkg::OpLoad;
        rd_we = 1'b1;
      end
      OpcStore: if (funct3 <= 3'd2) begin
        op = tern_gpsimd_pkg::OpStore;
        imm = {{20{insn[31]}}, insn[31:25], insn[11:7]};
      end
      OpcOpImm: begin
        use_imm = 1'b1;
        if ((funct3 != 3'd1 && funct3 != 3'd5) || funct7 == 7'h00 || (funct3 == 3'd5 && funct7 == 7'h20)) begin
          op = tern_gpsimd_pkg::OpAlu;
          rd_we = 1'b1;
        end
      end
      OpcOp: begin
        if (funct7 == 7'h01) begin
          op = tern_gpsimd_pkg::OpMulDiv;
          rd_we = 1'b1;
        end else if (funct7 == 7'h00 || (funct7 == 7'h20 && (funct3 == 3'd0 || funct3 == 3'd5))) begin
          op = tern_gpsimd_pkg::OpAlu;
          rd_we = 1'b1;
        end
      end
      OpcMisc: if (funct3 <= 3'd1) op = tern_gpsimd_pkg::OpNop;  // fence (reserved fields ignored), fence.i
      OpcSystem: begin
        if (funct3 == 3'd0) begin
          if (insn[19:7] == 13'b0 && insn[31:20] == 12'h000) op = tern_gpsimd_pkg::OpEcall;
          if (insn[19:7] == 13'b0 && insn[31:20] == 12'h001) op = tern_gpsimd_pkg::OpEbreak;
          if (insn[19:7] == 13'b0 && insn[31:20] == 12'h105) op = tern_gpsimd_pkg::OpNop;  // wfi
        end else if (funct3 != 3'd4) begin
          op = tern_gpsimd_pkg::OpCsr;
          rd_we = 1'b1;
        end
      end
      default: ;
    endcase
    if (insn[11:7] == 5'd0) rd_we = 1'b0;
    dec = {op, funct3, alt, use_imm, imm, insn[11:7], rd_we, insn[19:15], insn[24:20]};
  end

  // Register reads bypass the write WB makes this cycle (x0 stays zero: never written).
  logic [31:0] rf_rs1, rf_rs2, id_rs1v, id_rs2v;
  tern_mux #(.N(32), .W(32)) u_rs1 (.in_i(rf_q), .sel_i(dec.rs1), .out_o(rf_rs1));
  tern_mux #(.N(32), .W(32)) u_rs2 (.in_i(rf_q), .sel_i(dec.rs2), .out_o(rf_rs2));
  assign id_rs1v = (w_writes && w_rd_q == dec.rs1) ? w_value : rf_rs1;
  assign id_rs2v = (w_writes && w_rd_q == dec.rs2) ? w_value : rf_rs2;

  // ---------------------------------------------------------------- EX
  logic        md_busy, md_done;
  logic [31:0] md_result;
  logic [31:0] a, b, rs2v;
  // The instruction in WB is the one just ahead; a load there never feeds EX (ID held the next
  // instruction a cycle), so forwarding takes only the registered result, and ID has already
  // decided which operands it replaces (e_fwd*_q: the compare is off EX's path).
  assign a    = e_fwd1_q ? w_alu_q : e_rs1v_q;
  assign rs2v = e_fwd2_q ? w_alu_q : e_rs2v_q;
  assign b    = e_dec_q.use_imm ? e_dec_q.imm : rs2v;

  // add and sub share one prefix adder: a + ~b + 1 for sub.
  logic [31:0] add_sub;
  tern_prefix_add #(.Width(32)) u_add_sub (
    .a_i  (a),
    .b_i  (e_dec_q.alt ? ~b : b),
    .cin_i(e_dec_q.alt),
    .sum_o(add_sub)
  );

  logic [31:0] alu;
  always_comb begin
    unique case (e_dec_q.funct3)
      3'd0: alu = add_sub;
      3'd1: alu = a << b[4:0];
      3'd2: alu = {31'b0, $signed(a) < $signed(b)};
      3'd3: alu = {31'b0, a < b};
      3'd4: alu = a ^ b;
      3'd5: alu = e_dec_q.alt ? 32'($signed(a) >>> b[4:0]) : a >> b[4:0];
      3'd6: alu = a | b;
      default: alu = a & b;
    endcase
  end

  logic taken;
  always_comb begin
    unique case (e_dec_q.funct3)
      3'd0: taken = a == rs2v;
      3'd1: taken = a != rs2v;
      3'd4: taken = $signed(a) < $signed(rs2v);
      3'd5: taken = $signed(a) >= $signed(rs2v);
      3'd6: taken = a < rs2v;
      default: taken = a >= rs2v;
    endcase
  end

  logic is_load, is_store, is_muldiv, jumps;
  logic [31:0] pc_plus_imm, addr, jalr_target, target, pc_plus4;
  assign pc_plus_imm = e_pc_q + e_dec_q.imm;
  assign addr        = a + e_dec_q.imm;
  assign jalr_target = {addr[31:1], 1'b0};
  assign pc_plus4    = e_pc_q + 32'd4;
  // A store into the two instructions behind it (in ID and being fetched) and fence.i refetch
  // from pc + 4, so a core always runs the code it has written (the ISS's rule).
  logic refetch;
  assign refetch = (e_dec_q.op == tern_gpsimd_pkg::OpStore && (addr[31:2] == pc_plus4[31:2] || addr[31:2] == pc_plus4[31:2] + 30'd1))
                || (e_dec_q.op == tern_gpsimd_pkg::OpNop && e_dec_q.funct3 == 3'd1);
  assign target      = e_dec_q.op == tern_gpsimd_pkg::OpJalr ? jalr_target : jumps ? pc_plus_imm : pc_plus4;
  // A taken jump fetches its target in its own EX cycle (one cycle lost), and the fetch after it
  // from target + 4, added in parallel ((a + imm) & ~1 + 4 is (a + imm + 4) & ~1: 4 is even).
  logic [31:0] target4, jalr_sum4, jalr_target4;
  assign jalr_sum4    = a + e_imm4_q;
  assign jalr_target4 = {jalr_sum4[31:1], 1'b0};
  logic unused_jalr_lsb;
  assign unused_jalr_lsb = jalr_sum4[0];
  assign target4      = e_dec_q.op == tern_gpsimd_pkg::OpJalr ? jalr_target4 : e_pc_q + e_imm4_q;

  assign is_load   = e_dec_q.op == tern_gpsimd_pkg::OpLoad;
  assign is_store  = e_dec_q.op == tern_gpsimd_pkg::OpStore;
  assign is_muldiv = e_dec_q.op == tern_gpsimd_pkg::OpMulDiv;
  assign jumps     = e_dec_q.op == tern_gpsimd_pkg::OpJal || e_dec_q.op == tern_gpsimd_pkg::OpJalr || (e_dec_q.op == tern_gpsimd_pkg::OpBranch && taken);

  // Access size in bytes and alignment.
  logic [2:0] bytes;
  logic       misaligned;
  assign bytes      = 3'd1 << e_dec_q.funct3[1:0];
  assign misaligned = (e_dec_q.funct3[1:0] == 2'd1 && addr[0]) || (e_dec_q.funct3[1:0] == 2'd2 && addr[1:0] != 2'b00);

  // CSRs: the value read, whether the address exists and whether this instruction may write it.
  logic [11:0] csr;
  logic [31:0] csr_rdata, csr_operand, csr_wdata;
  logic        csr_exists, csr_writes, csr_read_only;
  assign csr         = e_insn_q[31:20];
  assign csr_operand = e_dec_q.funct3[2] ? {27'b0, e_dec_q.rs1} : a;
  assign csr_writes  = e_dec_q.funct3[1:0] == 2'd1 || e_dec_q.rs1 != 5'd0;
  assign csr_read_only = csr[11:10] == 2'b11;
  always_comb begin
    csr_exists = 1'b1;
    csr_rdata  = '0;
    unique case (csr)
      12'h300: csr_rdata = '0;              // mstatus: no field implemented without F
      12'h301: csr_rdata = 32'h4000_1100;   // misa: RV32 I M
      12'h305: csr_rdata = mtvec_q;
      12'h340: csr_rdata = mscratch_q;
      12'h341: csr_rdata = mepc_q;
      12'h342: csr_rdata = mcause_q;
      12'h343: csr_rdata = mtval_q;
      12'hB00, 12'hC00: csr_rdata = cycle_q[31:0];
      12'hB80, 12'hC80: csr_rdata = cycle_q[63:32];
      12'hB02, 12'hC02: csr_rdata = instret_q[31:0];
      12'hB82, 12'hC82: csr_rdata = instret_q[63:32];
      12'hF11, 12'hF12, 12'hF13: csr_rdata = '0;
      12'hF14: csr_rdata = hart_id_i;
      // The CSRs the privileged manual requires of a hart without interrupts, further counters
      // or a configuration structure read zero: mie, mip, mstatush, mcountinhibit, mconfigptr,
      // mhpmevent3-31, mhpmcounter3-31(h) and their read-only shadows (the ISS's zero_csr).
      12'h304, 12'h344, 12'h310, 12'h320, 12'hF15: csr_rdata = '0;
      default: csr_exists = csr[4:0] >= 5'd3 && (csr[11:5] == 7'h19 || csr[11:5] == 7'h58 || csr[11:5] == 7'h5C
                                                  || csr[11:5] == 7'h60 || csr[11:5] == 7'h64);
    endcase
    unique case (e_dec_q.funct3[1:0])
      2'd1: csr_wdata = csr_operand;
      2'd2: csr_wdata = csr_rdata | csr_operand;
      default: csr_wdata = csr_rdata & ~csr_operand;
    endcase
  end
  logic csr_illegal;
  assign csr_illegal = !csr_exists || (csr_writes && csr_read_only);

  // Exceptions, in the ISS's order of checks.
  logic        exc;
  tern_gpsimd_pkg::cause_e      exc_cause;
  logic [31:0] exc_tval;
  always_comb begin
    exc = 1'b0;
    exc_cause = tern_gpsimd_pkg::CauseIllegal;
    exc_tval = e_insn_q;
    if (e_ffault_q) begin
      exc = 1'b1;
      exc_cause = e_pc_q[1:0] != 2'b00 ? tern_gpsimd_pkg::CauseMisalignedFetch : tern_gpsimd_pkg::CauseFetchAccess;
      exc_tval = e_pc_q;
    end else begin
      unique case (e_dec_q.op)
        tern_gpsimd_pkg::OpIllegal: exc = 1'b1;
        tern_gpsimd_pkg::OpEcall: begin exc = 1'b1; exc_cause = tern_gpsimd_pkg::CauseEcall; exc_tval = '0; end
        tern_gpsimd_pkg::OpEbreak: begin exc = 1'b1; exc_cause = tern_gpsimd_pkg::CauseBreakpoint; exc_tval = e_pc_q; end
        tern_gpsimd_pkg::OpCsr: exc = csr_illegal;
        tern_gpsimd_pkg::OpJal, tern_gpsimd_pkg::OpJalr, tern_gpsimd_pkg::OpBranch: if (jumps && target[1:0] != 2'b00) begin
          exc = 1'b1;
          exc_cause = tern_gpsimd_pkg::CauseMisalignedFetch;
          exc_tval = target;
        end
        tern_gpsimd_pkg::OpLoad, tern_gpsimd_pkg::OpStore: begin
          exc_tval = addr;
          if (misaligned) begin
            exc = 1'b1;
            exc_cause = is_load ? tern_gpsimd_pkg::CauseMisalignedLoad : tern_gpsimd_pkg::CauseMisalignedStore;
          end else if ((addr & ~MemMask) != MemBase) begin
            exc = 1'b1;
            exc_cause = is_load ? tern_gpsimd_pkg::CauseLoadAccess : tern_gpsimd_pkg::CauseStoreAccess;
          end
        end
        default: ;
      endcase
    end
  end

  // ex_stall: the M unit holds EX. id_hold: ID keeps its instruction (EX is held, or runs a
  // load: the next instruction waits a cycle, EX takes a bubble).
  logic ex_go, ex_done, ex_stall, redirect, port_busy, id_hold;
  assign ex_go     = e_valid_q && run_q;
  assign ex_stall  = ex_go && !exc && is_muldiv && !md_done;
  assign ex_done   = ex_go && !exc && !ex_stall;
  assign redirect  = ex_go && !exc && (jumps || refetch);
  // A jump's only exceptions are its fetch fault and a misaligned target: its redirect needs no
  // more of EX's exception logic (the load/store checks stay off the fetch address).
  logic jump_go, refetch_go;
  assign jump_go    = ex_go && jumps && !e_ffault_q && target[1:0] == 2'b00;
  assign refetch_go = redirect && !jumps;
  assign port_busy = ex_go && is_load && !exc;
  assign id_hold   = ex_stall || port_busy;

  tern_gpsimd_muldiv u_muldiv (
    .clk_i,
    .rst_ni,
    .start_i (ex_go && !exc && is_muldiv && !md_busy),
    .op_i    (e_dec_q.funct3),
    .a_i     (a),
    .b_i     (rs2v),
    .busy_o  (md_busy),
    .done_o  (md_done),
    .result_o(md_result)
  );

  logic [31:0] ex_result;
  always_comb begin
    unique case (e_dec_q.op)
      tern_gpsimd_pkg::OpLui:    ex_result = e_dec_q.imm;
      tern_gpsimd_pkg::OpAuipc:  ex_result = pc_plus_imm;
      tern_gpsimd_pkg::OpJal, tern_gpsimd_pkg::OpJalr: ex_result = pc_plus4;
      tern_gpsimd_pkg::OpCsr:    ex_result = csr_rdata;
      tern_gpsimd_pkg::OpMulDiv: ex_result = md_result;
      default:  ex_result = alu;
    endcase
  end

  // ---------------------------------------------------------------- IF
  logic fetch_go, fetch_ok;
  logic [31:0] fetch_pc;  // what IF fetches this cycle: a taken jump's target, else the next pc
  assign fetch_pc = jump_go ? target : pc_f_q;
  assign fetch_go = run_q && !id_hold && !(ex_go && exc);  // id_hold covers a load's port
  assign fetch_ok = fetch_pc[1:0] == 2'b00 && (fetch_pc & ~MemMask) == MemBase;

  // ---------------------------------------------------------------- memory ports
  logic [31:0] store_data;
  logic [3:0]  store_be;
  assign store_data = rs2v << {addr[1:0], 3'b000};
  assign store_be   = 4'((5'b1 << bytes) - 5'd1) << addr[1:0];

  assign mem_rd_en_o   = port_busy || (fetch_go && fetch_ok);
  assign mem_rd_addr_o = port_busy ? addr[AW+1:2] : fetch_pc[AW+1:2];
  assign mem_wr_en_o   = ex_go && is_store && !exc;
  assign mem_wr_addr_o = addr[AW+1:2];
  assign mem_wr_be_o   = store_be;
  assign mem_wr_data_o = store_data;

  // ---------------------------------------------------------------- next state
  always_comb begin
    run_d        = run_q;
    fault_d      = fault_q;
    cause_d      = cause_q;
    fault_pc_d   = fault_pc_q;
    fault_tval_d = fault_tval_q;
    if (ex_go && exc) begin
      run_d        = 1'b0;
      fault_d      = 1'b1;
      cause_d      = exc_cause;
      fault_pc_d   = e_pc_q;
      fault_tval_d = exc_tval;
    end
    if (start_i && !run_q) begin
      run_d   = 1'b1;
      fault_d = 1'b0;
    end
  end

  // IF -> ID
  always_comb begin
    pc_f_d       = pc_f_q;
    d_valid_d    = d_valid_q;
    d_from_mem_d = 1'b0;
    d_pc_d       = d_pc_q;
    d_insn_d     = insn;
    d_ffault_d   = d_ffault_q;
    if (!id_hold) begin
      d_valid_d  = fetch_go && !refetch_go;
      d_from_mem_d = fetch_go && fetch_ok;
      d_pc_d     = fetch_pc;
      d_ffault_d = !fetch_ok;
      if (fetch_go) pc_f_d = jump_go ? target4 : pc_f_q + 32'd4;
    end
    // A store into the code in flight, or fence.i: this cycle's fetch may read the old word
    // (the write lands at the clock edge), so the refetch from pc + 4 starts next cycle.
    if (refetch_go) pc_f_d = pc_plus4;
    if (!run_q || (ex_go && exc)) d_valid_d = 1'b0;
    if (start_i && !run_q) pc_f_d = start_pc_i;
  end

  // ID -> EX
  always_comb begin
    e_valid_d  = e_valid_q;
    e_pc_d     = e_pc_q;
    e_insn_d   = e_insn_q;
    e_dec_d    = e_dec_q;
    e_rs1v_d   = e_rs1v_q;
    e_rs2v_d   = e_rs2v_q;
    e_fwd1_d   = e_fwd1_q;
    e_fwd2_d   = e_fwd2_q;
    e_imm4_d   = e_imm4_q;
    e_ffault_d = e_ffault_q;
    e_stall_d  = ex_stall ? e_stall_q + 6'd1 : 6'd0;
    if (!ex_stall) e_valid_d = 1'b0;
    if (!id_hold) begin
      e_valid_d  = d_valid_q && run_q && !redirect;
      e_pc_d     = d_pc_q;
      e_insn_d   = insn;
      e_dec_d    = dec;
      e_rs1v_d   = id_rs1v;
      e_rs2v_d   = id_rs2v;
      // The instruction now in EX is in WB when this one is in EX (an exception flushes both,
      // and an M instruction holds this one in ID until it completes).
      // (EX never holds a load here: a load holds ID.)
      e_imm4_d   = dec.imm + 32'd4;
      e_fwd1_d   = e_valid_q && e_dec_q.rd_we && e_dec_q.rd == dec.rs1;
      e_fwd2_d   = e_valid_q && e_dec_q.rd_we && e_dec_q.rd == dec.rs2;
      e_ffault_d = d_ffault_q;
    end
    if (!run_q || (ex_go && exc)) e_valid_d = 1'b0;
  end

  // EX -> WB
  always_comb begin
    w_valid_d  = ex_done;
    w_pc_d     = e_pc_q;
    w_insn_d   = e_insn_q;
    w_rd_we_d  = e_dec_q.rd_we;
    w_rd_d     = e_dec_q.rd;
    w_alu_d    = ex_result;
    w_load_d   = is_load;
    w_f3_d     = e_dec_q.funct3;
    w_addr_d   = addr;
    w_mem_we_d = is_store;
    w_bytes_d  = bytes;
    w_stall_d  = e_stall_q;
    w_sdata_d  = bytes == 3'd4 ? rs2v : bytes == 3'd2 ? {16'b0, rs2v[15:0]} : {24'b0, rs2v[7:0]};
  end

  // Registers, CSRs, counters.
  always_comb begin
    for (int unsigned r = 0; r < 32; r++) begin
      rf_d[32*r +: 32] = (w_writes && 32'(w_rd_q) == r) ? w_value : rf_q[32*r +: 32];
    end
    mtvec_d    = mtvec_q;
    mscratch_d = mscratch_q;
    mepc_d     = mepc_q;
    mcause_d   = mcause_q;
    mtval_d    = mtval_q;
    cycle_d    = run_q ? cycle_q + 64'd1 : cycle_q;
    instret_d  = ex_done ? instret_q + 64'd1 : instret_q;
    if (ex_done && e_dec_q.op == tern_gpsimd_pkg::OpCsr && csr_writes) begin
      // A counter written reads the value written in the next cycle (the writing instruction's
      // own count and cycle are overwritten; the ISS's rule too).
      unique case (csr)
        12'h305: mtvec_d = {csr_wdata[31:2], 2'b00};
        12'h340: mscratch_d = csr_wdata;
        12'h341: mepc_d = {csr_wdata[31:2], 2'b00};
        12'h342: mcause_d = csr_wdata;
        12'h343: mtval_d = csr_wdata;
        12'hB00: cycle_d = {cycle_q[63:32], csr_wdata};
        12'hB80: cycle_d = {csr_wdata, cycle_q[31:0]};
        12'hB02: instret_d = {instret_q[63:32], csr_wdata};
        12'hB82: instret_d = {csr_wdata, instret_q[31:0]};
        default: ;  // mstatus, misa: no writable field
      endcase
    end
    if (start_i && !run_q) begin
      cycle_d   = '0;
      instret_d = '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      run_q     <= 1'b0;
      fault_q   <= 1'b0;
      d_valid_q <= 1'b0;
      e_valid_q <= 1'b0;
      w_valid_q <= 1'b0;
      rf_q      <= '0;
      mtvec_q    <= '0;
      mscratch_q <= '0;
      mepc_q     <= '0;
      mcause_q   <= '0;
      mtval_q    <= '0;
    end else begin
      run_q     <= run_d;
      fault_q   <= fault_d;
      d_valid_q <= d_valid_d;
      e_valid_q <= e_valid_d;
      w_valid_q <= w_valid_d;
      rf_q      <= rf_d;
      mtvec_q    <= mtvec_d;
      mscratch_q <= mscratch_d;
      mepc_q     <= mepc_d;
      mcause_q   <= mcause_d;
      mtval_q    <= mtval_d;
    end
  end

  always_ff @(posedge clk_i) begin
    cause_q      <= cause_d;
    fault_pc_q   <= fault_pc_d;
    fault_tval_q <= fault_tval_d;
    pc_f_q       <= pc_f_d;
    d_from_mem_q <= d_from_mem_d;
    d_pc_q       <= d_pc_d;
    d_insn_q     <= d_insn_d;
    d_ffault_q   <= d_ffault_d;
    e_pc_q       <= e_pc_d;
    e_insn_q     <= e_insn_d;
    e_dec_q      <= e_dec_d;
    e_rs1v_q     <= e_rs1v_d;
    e_rs2v_q     <= e_rs2v_d;
    e_fwd1_q     <= e_fwd1_d;
    e_imm4_q     <= e_imm4_d;
    e_fwd2_q     <= e_fwd2_d;
    e_ffault_q   <= e_ffault_d;
    w_pc_q       <= w_pc_d;
    w_insn_q     <= w_insn_d;
    w_rd_we_q    <= w_rd_we_d;
    w_rd_q       <= w_rd_d;
    w_alu_q      <= w_alu_d;
    w_load_q     <= w_load_d;
    w_f3_q       <= w_f3_d;
    w_addr_q     <= w_addr_d;
    w_mem_we_q   <= w_mem_we_d;
    w_bytes_q    <= w_bytes_d;
    w_sdata_q    <= w_sdata_d;
    e_stall_q    <= e_stall_d;
    w_stall_q    <= w_stall_d;
    cycle_q      <= cycle_d;
    instret_q    <= instret_d;
  end

  assign running_o     = run_q;
  assign fault_o       = fault_q;
  assign fault_cause_o = cause_q;  // the enum's 4 bits
  assign fault_pc_o    = fault_pc_q;
  assign fault_tval_o  = fault_tval_q;

  assign retire_valid_o     = w_valid_q;
  assign retire_pc_o        = w_pc_q;
  assign retire_insn_o      = w_insn_q;
  assign retire_rd_we_o     = w_rd_we_q;
  assign retire_rd_o        = w_rd_q;
  assign retire_rd_value_o  = w_value;
  assign retire_mem_we_o    = w_mem_we_q;
  assign retire_mem_addr_o  = w_addr_q;
  assign retire_mem_data_o  = w_sdata_q;
  assign retire_mem_bytes_o = w_bytes_q;
  assign retire_ex_stall_o  = w_stall_q;

`ifndef SYNTHESIS
  initial begin : params
    assert (MemBytes >= 8 && (MemBytes & (MemBytes - 1)) == 0 && (MemBase & 32'(MemBytes - 1)) == 0)
      else $fatal(1, "tern_gpsimd_core: MemBytes (%0d) must be a power of two and MemBase (%h) aligned to it",
                  MemBytes, MemBase);
  end
  // EX's forwarding, decided in ID, is the compare it replaces (in an instruction's first EX
  // cycle: the M unit has its operands after that).
  fwd_is_the_compare: assert property (@(posedge clk_i) disable iff (!rst_ni)
      ex_go && !md_busy |-> e_fwd1_q == (w_writes && !w_load_q && w_rd_q == e_dec_q.rs1)
             && e_fwd2_q == (w_writes && !w_load_q && w_rd_q == e_dec_q.rs2))
    else $error("tern_gpsimd_core: EX at pc %h forwards from WB wrongly", e_pc_q);
  // A load's result reaches the next instruction through ID's bypass, never EX's forwarding.
  no_load_forward: assert property (@(posedge clk_i) disable iff (!rst_ni)
      ex_go && w_writes && w_load_q |-> w_rd_q != e_dec_q.rs1 && w_rd_q != e_dec_q.rs2)
    else $error("tern_gpsimd_core: EX at pc %h reads x%0d, loaded by the instruction in WB", e_pc_q, w_rd_q);
  one_port_user: assert property (@(posedge clk_i) disable iff (!rst_ni) !(port_busy && fetch_go))
    else $error("tern_gpsimd_core: a fetch and a load in the same cycle");
  start_when_stopped: assert property (@(posedge clk_i) disable iff (!rst_ni) start_i |-> !run_q)
    else $error("tern_gpsimd_core: start_i while running");
`endif

endmodule
