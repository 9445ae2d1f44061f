// One GPSIMD core's instruction-set simulator (rv_core.h), decoded from the RISC-V manuals'
// opcode map. Any encoding the manuals do not define for RV32IMF + Zicsr is an illegal
// instruction, reserved fields included.
#include "gpsimd/rv_core.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/error.h"

namespace tern::gpsimd {
namespace {

// Major opcodes (instruction bits 6:0).
constexpr uint32_t kLoad = 0x03, kLoadFp = 0x07, kMiscMem = 0x0F, kOpImm = 0x13, kAuipc = 0x17;
constexpr uint32_t kStore = 0x23, kStoreFp = 0x27, kOp = 0x33, kLui = 0x37;
constexpr uint32_t kMadd = 0x43, kMsub = 0x47, kNmsub = 0x4B, kNmadd = 0x4F, kOpFp = 0x53;
constexpr uint32_t kBranch = 0x63, kJalr = 0x67, kJal = 0x6F, kSystem = 0x73;

// Cycle estimate (docs/gpsimd.md), the RTL core's pipeline (rtl/gpsimd/tern_gpsimd_core.sv):
// the first instruction reaches EX two cycles after the start (fetch, decode), then one cycle
// per instruction plus these.
constexpr uint64_t kPipelineFill = 2;
constexpr unsigned kJumpPenalty = 1;      // taken branch or jump: EX fetches the target
constexpr unsigned kRefetchPenalty = 2;   // fence.i, a store into the code in flight
constexpr unsigned kLoadCycles = 1;       // a load takes the memory's one read port from fetch
// The F extension's pipeline, which the RTL does not have yet: targets.
constexpr unsigned kFpUseStall = 2;       // FP results arrive three stages after issue
constexpr unsigned kFpDivSqrtCycles = 26; // digit recurrence, one bit per cycle

uint32_t opcode(uint32_t i) { return i & 0x7F; }
unsigned rd_of(uint32_t i) { return (i >> 7) & 0x1F; }
unsigned rs1_of(uint32_t i) { return (i >> 15) & 0x1F; }
unsigned rs2_of(uint32_t i) { return (i >> 20) & 0x1F; }
unsigned rs3_of(uint32_t i) { return i >> 27; }
uint32_t funct3(uint32_t i) { return (i >> 12) & 0x7; }
uint32_t funct7(uint32_t i) { return i >> 25; }
int32_t imm_i(uint32_t i) { return int32_t(i) >> 20; }
int32_t imm_s(uint32_t i) { return (int32_t(i & 0xFE000000u) >> 20) | int32_t((i >> 7) & 0x1F); }
int32_t imm_b(uint32_t i) {
  return (int32_t(i & 0x80000000u) >> 19) | int32_t((i & 0x80) << 4) | int32_t((i >> 20) & 0x7E0) |
         int32_t((i >> 7) & 0x1E);
}
int32_t imm_j(uint32_t i) {
  return (int32_t(i & 0x80000000u) >> 11) | int32_t(i & 0xFF000) | int32_t((i >> 9) & 0x800) |
         int32_t((i >> 20) & 0x7FE);
}

bool is_fp_opcode(uint32_t op) {
  return op == kOpFp || op == kMadd || op == kMsub || op == kNmsub || op == kNmadd;
}

// Whether the instruction reads FP register r as a source (the FP-use stall).
bool reads_fp_register(uint32_t insn, unsigned r) {
  const uint32_t op = opcode(insn);
  const uint32_t f7 = funct7(insn);
  if (op == kStoreFp) return rs2_of(insn) == r;
  if (op == kOpFp) {
    const bool int_source = f7 == 0x68 || f7 == 0x78;
    const bool unary = f7 == 0x2C || f7 == 0x60 || f7 == 0x70;  // fsqrt, fcvt.w[u].s, fmv.x.w/fclass
    return (!int_source && rs1_of(insn) == r) || (!int_source && !unary && rs2_of(insn) == r);
  }
  if (is_fp_opcode(op)) return rs1_of(insn) == r || rs2_of(insn) == r || rs3_of(insn) == r;
  return false;
}

}  // namespace

std::string cause_name(Cause c) {
  switch (c) {
    case Cause::kMisalignedFetch: return "misaligned instruction fetch";
    case Cause::kFetchAccess: return "instruction fetch outside local memory";
    case Cause::kIllegalInstruction: return "illegal instruction";
    case Cause::kBreakpoint: return "breakpoint (ebreak)";
    case Cause::kMisalignedLoad: return "misaligned load";
    case Cause::kLoadAccess: return "load outside local memory";
    case Cause::kMisalignedStore: return "misaligned store";
    case Cause::kStoreAccess: return "store outside local memory";
    case Cause::kEcall: return "environment call (ecall): GPSIMD cores have no host calls";
  }
  return "unknown exception";
}

std::string describe(const Exception& e) {
  const bool is_insn = e.cause == Cause::kIllegalInstruction;
  const bool has_addr = e.cause != Cause::kBreakpoint && e.cause != Cause::kEcall && !is_insn;
  std::string what = fmt::format("{} (mcause {}) at pc 0x{:08x}", cause_name(e.cause), unsigned(e.cause), e.pc);
  if (is_insn) what += fmt::format(": instruction 0x{:08x}", e.tval);
  if (has_addr) what += fmt::format(": address 0x{:08x}", e.tval);
  return what;
}

Core::Core(const CoreConfig& config)
    : config_(config), mem_(config.mem_bytes, 0), pc_(config.mem_base), cycles_(kPipelineFill) {
  if (config.mem_bytes == 0 || config.mem_bytes % 4 != 0 ||
      uint64_t(config.mem_base) + config.mem_bytes > (uint64_t(1) << 32)) {
    throw Error(fmt::format("gpsimd core: local memory of {} bytes at 0x{:08x} is not a word-sized "
                            "range inside the 32-bit address space", config.mem_bytes, config.mem_base));
  }
}

bool Core::in_memory(uint32_t addr, uint32_t bytes) const {
  return addr >= config_.mem_base && uint64_t(addr - config_.mem_base) + bytes <= config_.mem_bytes;
}

void Core::write_memory(uint32_t addr, const std::vector<uint8_t>& bytes) {
  if (!in_memory(addr, uint32_t(bytes.size())) || bytes.size() > config_.mem_bytes) {
    throw Error(fmt::format("gpsimd core: {} bytes at 0x{:08x} do not fit the local memory "
                            "[0x{:08x}, 0x{:08x})", bytes.size(), addr, config_.mem_base,
                            uint64_t(config_.mem_base) + config_.mem_bytes));
  }
  std::copy(bytes.begin(), bytes.end(), mem_.begin() + (addr - config_.mem_base));
}

uint32_t Core::read_word(uint32_t addr) const {
  uint32_t v = 0;
  if (load(addr, 4, false, v)) throw Error(fmt::format("gpsimd core: no local memory word at 0x{:08x}", addr));
  return v;
}

std::optional<Exception> Core::load(uint32_t addr, unsigned bytes, bool sign, uint32_t& value) const {
  if (addr % bytes != 0) return Exception{Cause::kMisalignedLoad, pc_, addr};
  if (!in_memory(addr, bytes)) return Exception{Cause::kLoadAccess, pc_, addr};
  uint32_t v = 0;
  for (unsigned k = 0; k < bytes; ++k) v |= uint32_t(mem_[addr - config_.mem_base + k]) << (8 * k);
  if (sign && bytes < 4 && (v >> (8 * bytes - 1)) != 0) v |= ~0u << (8 * bytes);
  value = v;
  return std::nullopt;
}

std::optional<Exception> Core::store(uint32_t addr, unsigned bytes, uint32_t value, Retire& r) {
  if (addr % bytes != 0) return Exception{Cause::kMisalignedStore, pc_, addr};
  if (!in_memory(addr, bytes)) return Exception{Cause::kStoreAccess, pc_, addr};
  for (unsigned k = 0; k < bytes; ++k) mem_[addr - config_.mem_base + k] = uint8_t(value >> (8 * k));
  r.mem_write = true;
  r.mem_addr = addr;
  r.mem_bytes = uint8_t(bytes);
  r.mem_data = bytes == 4 ? value : value & ((1u << (8 * bytes)) - 1);
  return std::nullopt;
}

void Core::write_x(Retire& r, unsigned rd, uint32_t v) {
  if (rd == 0) return;  // x0 is hard-wired: no register write retires
  x_[rd] = v;
  r.dest = Retire::Dest::kX;
  r.rd = uint8_t(rd);
  r.rd_value = v;
}

void Core::write_f(Retire& r, unsigned rd, uint32_t v) {
  f_[rd] = v;
  r.dest = Retire::Dest::kF;
  r.rd = uint8_t(rd);
  r.rd_value = v;
}

Core::Step Core::step() {
  if (stopped_) return {std::nullopt, stopped_};
  Step s;
  uint32_t insn = 0;
  if (pc_ % 4 != 0) {
    s.exception = Exception{Cause::kMisalignedFetch, pc_, pc_};
  } else if (!in_memory(pc_, 4)) {
    s.exception = Exception{Cause::kFetchAccess, pc_, pc_};
  } else {
    load(pc_, 4, false, insn);
    Retire r;
    r.pc = pc_;
    r.insn = insn;
    uint32_t next_pc = pc_ + 4;
    redirected_ = false;
    refetched_ = false;
    s.exception = exec_int(insn, r, next_pc);
    if (!s.exception) {
      account(insn, r, redirected_);
      pc_ = next_pc;
      s.retired = r;
    }
  }
  if (s.exception) stopped_ = s.exception;
  return s;
}

void Core::account(uint32_t insn, const Retire& r, bool redirected) {
  ++instret_;
  cycles_ += 1 + (redirected ? kJumpPenalty : 0) + (refetched_ ? kRefetchPenalty : 0);
  if (pending_stall_ != 0 && reads_fp_register(insn, pending_rd_)) cycles_ += pending_stall_;
  const uint32_t op = opcode(insn);
  if (op == kOp && funct7(insn) == 1) cycles_ += kMulDivCycles;
  if (op == kLoad || op == kLoadFp) cycles_ += kLoadCycles;
  if (op == kOpFp && (funct7(insn) == 0x0C || funct7(insn) == 0x2C)) cycles_ += kFpDivSqrtCycles;
  pending_rd_ = r.rd;
  pending_stall_ = is_fp_opcode(op) && r.dest == Retire::Dest::kF ? kFpUseStall : 0;
}

std::optional<Exception> Core::exec_int(uint32_t insn, Retire& r, uint32_t& next_pc) {
  const uint32_t op = opcode(insn);
  const unsigned rd = rd_of(insn);
  switch (op) {
    case kLui: write_x(r, rd, insn & 0xFFFFF000u); return std::nullopt;
    case kAuipc: write_x(r, rd, pc_ + (insn & 0xFFFFF000u)); return std::nullopt;
    case kJal: {
      const uint32_t target = pc_ + uint32_t(imm_j(insn));
      if (target % 4 != 0) return Exception{Cause::kMisalignedFetch, pc_, target};
      write_x(r, rd, pc_ + 4);
      next_pc = target;
      redirected_ = true;
      return std::nullopt;
    }
    case kJalr: {
      if (funct3(insn) != 0) return illegal(insn);
      const uint32_t target = (x_[rs1_of(insn)] + uint32_t(imm_i(insn))) & ~1u;
      if (target % 4 != 0) return Exception{Cause::kMisalignedFetch, pc_, target};
      write_x(r, rd, pc_ + 4);
      next_pc = target;
      redirected_ = true;
      return std::nullopt;
    }
    case kBranch: return exec_branch(insn, next_pc);
    case kOpImm:
    case kOp: return exec_alu(insn, r);
    case kLoad:
    case kStore: return exec_mem(insn, r);
    case kLoadFp:
    case kStoreFp: return config_.has_f ? exec_mem(insn, r) : illegal(insn);
    case kMiscMem:
      // fence (its reserved rd/rs1 fields ignored, as the manual requires): no effect on one
      // in-order core with one memory port; fence.i refetches what follows (2 cycles).
      if (funct3(insn) > 1) return illegal(insn);
      refetched_ = funct3(insn) == 1;
      return std::nullopt;
    case kSystem: return exec_system(insn, r);
    default:
      if (is_fp_opcode(op) && config_.has_f) return exec_fp(insn, r);
      return illegal(insn);
  }
}

std::optional<Exception> Core::exec_branch(uint32_t insn, uint32_t& next_pc) {
  const uint32_t a = x_[rs1_of(insn)];
  const uint32_t b = x_[rs2_of(insn)];
  bool taken = false;
  switch (funct3(insn)) {
    case 0: taken = a == b; break;
    case 1: taken = a != b; break;
    case 4: taken = int32_t(a) < int32_t(b); break;
    case 5: taken = int32_t(a) >= int32_t(b); break;
    case 6: taken = a < b; break;
    case 7: taken = a >= b; break;
    default: return illegal(insn);
  }
  if (!taken) return std::nullopt;
  const uint32_t target = pc_ + uint32_t(imm_b(insn));
  if (target % 4 != 0) return Exception{Cause::kMisalignedFetch, pc_, target};
  next_pc = target;
  redirected_ = true;
  return std::nullopt;
}

namespace {

// The M extension (funct7 1 of OP), with the manual's results for division by zero and overflow.
uint32_t mul_div(uint32_t f3, uint32_t a, uint32_t b) {
  const int64_t sa = int32_t(a);
  const int64_t sb = int32_t(b);
  const bool overflow = a == 0x80000000u && b == 0xFFFFFFFFu;
  switch (f3) {
    case 0: return uint32_t(sa * sb);
    case 1: return uint32_t(uint64_t(sa * sb) >> 32);
    case 2: return uint32_t(uint64_t(sa * int64_t(uint64_t(b))) >> 32);
    case 3: return uint32_t((uint64_t(a) * b) >> 32);
    case 4: return b == 0 ? ~0u : overflow ? a : uint32_t(int32_t(a) / int32_t(b));
    case 5: return b == 0 ? ~0u : a / b;
    case 6: return b == 0 ? a : overflow ? 0u : uint32_t(int32_t(a) % int32_t(b));
    default: return b == 0 ? a : a % b;
  }
}

// The base ALU on a and b (b is the immediate for OP-IMM); `alt` is funct7 bit 5 (sub, sra).
uint32_t alu(uint32_t f3, bool alt, uint32_t a, uint32_t b) {
  switch (f3) {
    case 0: return alt ? a - b : a + b;
    case 1: return a << (b & 31);
    case 2: return int32_t(a) < int32_t(b) ? 1u : 0u;
    case 3: return a < b ? 1u : 0u;
    case 4: return a ^ b;
    case 5: return alt ? uint32_t(int32_t(a) >> (b & 31)) : a >> (b & 31);
    case 6: return a | b;
    default: return a & b;
  }
}

}  // namespace

std::optional<Exception> Core::exec_alu(uint32_t insn, Retire& r) {
  const uint32_t f3 = funct3(insn);
  const uint32_t f7 = funct7(insn);
  const uint32_t a = x_[rs1_of(insn)];
  if (opcode(insn) == kOpImm) {
    const bool shift = f3 == 1 || f3 == 5;
    if (shift && !(f7 == 0 || (f3 == 5 && f7 == 0x20))) return illegal(insn);
    const uint32_t b = shift ? rs2_of(insn) : uint32_t(imm_i(insn));
    write_x(r, rd_of(insn), alu(f3, shift && f7 == 0x20, a, b));
    return std::nullopt;
  }
  const uint32_t b = x_[rs2_of(insn)];
  if (f7 == 1) {
    write_x(r, rd_of(insn), mul_div(f3, a, b));
    return std::nullopt;
  }
  const bool alt_ok = f3 == 0 || f3 == 5;
  if (!(f7 == 0 || (f7 == 0x20 && alt_ok))) return illegal(insn);
  write_x(r, rd_of(insn), alu(f3, f7 == 0x20, a, b));
  return std::nullopt;
}

std::optional<Exception> Core::exec_mem(uint32_t insn, Retire& r) {
  const uint32_t op = opcode(insn);
  const uint32_t f3 = funct3(insn);
  const uint32_t base = x_[rs1_of(insn)];
  if (op == kLoad || op == kLoadFp) {
    const bool valid = op == kLoad ? (f3 != 3 && f3 <= 5) : f3 == 2;
    if (!valid) return illegal(insn);
    const unsigned bytes = 1u << (f3 & 3);
    uint32_t v = 0;
    if (auto e = load(base + uint32_t(imm_i(insn)), bytes, (f3 & 4) == 0, v)) return e;
    if (op == kLoad) write_x(r, rd_of(insn), v);
    else write_f(r, rd_of(insn), v);
    return std::nullopt;
  }
  const bool valid = op == kStore ? f3 <= 2 : f3 == 2;
  if (!valid) return illegal(insn);
  const uint32_t value = op == kStore ? x_[rs2_of(insn)] : f_[rs2_of(insn)];
  const uint32_t addr = base + uint32_t(imm_s(insn));
  // A store into the next two instructions' words refetches them (2 cycles): the RTL has them
  // in flight, and a core always runs the code it has written.
  const uint32_t word = addr >> 2, next = (pc_ + 4) >> 2;
  if (word == next || word == next + 1) refetched_ = true;
  return store(addr, 1u << f3, value, r);
}

namespace {

// The CSRs the privileged manual requires of a machine-mode hart without interrupts, counters
// beyond cycle and instret or a configuration structure: they read zero (writes ignored where
// writable): mie, mip, mstatush, mcountinhibit, mhpmevent3-31, mhpmcounter3-31(h) and their
// read-only shadows, mconfigptr.
bool zero_csr(uint32_t csr) {
  const bool hpm = (csr & 0x1F) >= 3;
  return csr == 0x304 || csr == 0x344 || csr == 0x310 || csr == 0x320 || csr == 0xF15 ||
         (hpm && ((csr & ~0x1Fu) == 0x320 || (csr & ~0x1Fu) == 0xB00 || (csr & ~0x1Fu) == 0xB80 ||
                  (csr & ~0x1Fu) == 0xC00 || (csr & ~0x1Fu) == 0xC80));
}

}  // namespace

std::optional<uint32_t> Core::read_csr(uint32_t csr) const {
  const bool fp_csr = csr >= 0x001 && csr <= 0x003;
  if (fp_csr && !config_.has_f) return std::nullopt;
  switch (csr) {
    case 0x001: return fflags_;
    case 0x002: return frm_;
    case 0x003: return fcsr();
    case 0x300: return mstatus_ | ((mstatus_ & 0x6000u) == 0x6000u ? 0x80000000u : 0u);  // SD: FS dirty
    case 0x301: return config_.has_f ? 0x40001120u : 0x40001100u;  // misa: MXL 32, I, M (, F)
    case 0x305: return mtvec_;
    case 0x340: return mscratch_;
    case 0x341: return mepc_;
    case 0x342: return mcause_;
    case 0x343: return mtval_;
    case 0xB00: case 0xC00: return uint32_t(cycles_ + mcycle_offset_);
    case 0xB80: case 0xC80: return uint32_t((cycles_ + mcycle_offset_) >> 32);
    case 0xB02: case 0xC02: return uint32_t(instret_ + minstret_offset_);
    case 0xB82: case 0xC82: return uint32_t((instret_ + minstret_offset_) >> 32);
    case 0xF11: case 0xF12: case 0xF13: return 0u;  // mvendorid, marchid, mimpid
    case 0xF14: return config_.hart_id;
    default: return zero_csr(csr) ? std::optional<uint32_t>(0u) : std::nullopt;
  }
}

namespace {

// The offset that makes a counter read `v` in one half at the next count (the writing
// instruction's own cycle or count is overwritten, as in the RTL), then count on: the CSR is the
// elapsed count plus the offset, so writes never change the elapsed count itself.
uint64_t written(bool high, uint64_t elapsed, uint64_t offset, uint32_t v) {
  const uint64_t now = elapsed + offset;
  const uint64_t value = high ? (now & 0xFFFFFFFFu) | uint64_t(v) << 32 : (now & ~uint64_t(0xFFFFFFFF)) | v;
  return value - (elapsed + 1);
}

}  // namespace

bool Core::write_csr(uint32_t csr, uint32_t v) {
  switch (csr) {
    case 0x001: fflags_ = uint8_t(v & 0x1F); return true;
    case 0x002: frm_ = uint8_t(v & 0x7); return true;
    case 0x003: fflags_ = uint8_t(v & 0x1F); frm_ = uint8_t((v >> 5) & 0x7); return true;
    case 0x300: mstatus_ = config_.has_f ? v & 0x6000u : 0u; return true;  // only FS (WARL, not checked)
    case 0x301: return true;                          // misa is WARL with no writable field
    case 0x305: mtvec_ = v & ~3u; return true;
    case 0x340: mscratch_ = v; return true;
    case 0x341: mepc_ = v & ~3u; return true;
    case 0x342: mcause_ = v; return true;
    case 0x343: mtval_ = v; return true;
    case 0xB00: case 0xB80: mcycle_offset_ = written(csr == 0xB80, cycles_, mcycle_offset_, v); return true;
    case 0xB02: case 0xB82: minstret_offset_ = written(csr == 0xB82, instret_, minstret_offset_, v); return true;
    default: return zero_csr(csr) && (csr >> 10) != 3;  // writable zeros ignore writes; 0xC../0xF.. are read-only
  }
}

std::optional<Exception> Core::exec_system(uint32_t insn, Retire& r) {
  const uint32_t f3 = funct3(insn);
  if (f3 == 0) {
    if (rd_of(insn) != 0 || rs1_of(insn) != 0) return illegal(insn);
    if (insn >> 20 == 0) return Exception{Cause::kEcall, pc_, 0};
    if (insn >> 20 == 1) return Exception{Cause::kBreakpoint, pc_, pc_};
    if (insn == 0x10500073u) return std::nullopt;  // wfi: no interrupt to wait for, a nop
    return illegal(insn);  // mret and the rest: a core takes no traps
  }
  if (f3 == 4) return illegal(insn);
  const uint32_t csr = insn >> 20;
  const unsigned rs1 = rs1_of(insn);
  const uint32_t operand = (f3 & 4) != 0 ? rs1 : x_[rs1];
  const std::optional<uint32_t> old = read_csr(csr);
  if (!old) return illegal(insn);
  const uint32_t op = f3 & 3;
  const bool writes = op == 1 || rs1 != 0;  // csrrs/csrrc with x0 (or uimm 0) only read
  if (writes) {
    const uint32_t value = op == 1 ? operand : op == 2 ? (*old | operand) : (*old & ~operand);
    // The counters read back the value written: the write happens after this instruction counts.
    if (!write_csr(csr, value)) return illegal(insn);
  }
  write_x(r, rd_of(insn), *old);
  return std::nullopt;
}

std::optional<RoundingMode> Core::rounding(uint32_t insn) const {
  const uint32_t rm = funct3(insn) == 7 ? frm_ : funct3(insn);
  if (rm > 4) return std::nullopt;
  return RoundingMode(rm);
}

std::optional<Exception> Core::exec_fp(uint32_t insn, Retire& r) {
  const uint32_t op = opcode(insn);
  if (op == kOpFp) return exec_fp_op(insn, r);
  if (((insn >> 25) & 3) != 0) return illegal(insn);  // fmt 00: single precision only
  const std::optional<RoundingMode> rm = rounding(insn);
  if (!rm) return illegal(insn);
  const uint32_t a = f_[rs1_of(insn)], b = f_[rs2_of(insn)], c = f_[rs3_of(insn)];
  const FpResult res = fmadd(a, b, c, *rm, op == kNmsub || op == kNmadd, op == kMsub || op == kNmadd);
  fflags_ |= res.flags;
  write_f(r, rd_of(insn), res.bits);
  return std::nullopt;
}

std::optional<Exception> Core::exec_fp_op(uint32_t insn, Retire& r) {
  const uint32_t f7 = funct7(insn);
  const uint32_t f3 = funct3(insn);
  const unsigned rs2 = rs2_of(insn);
  const uint32_t a = f_[rs1_of(insn)];
  const uint32_t b = f_[rs2];
  const std::optional<RoundingMode> rm = rounding(insn);
  std::optional<FpResult> res;
  bool to_x = false;
  switch (f7) {
    case 0x00: if (rm) res = fadd(a, b, *rm); break;
    case 0x04: if (rm) res = fsub(a, b, *rm); break;
    case 0x08: if (rm) res = fmul(a, b, *rm); break;
    case 0x0C: if (rm) res = fdiv(a, b, *rm); break;
    case 0x2C: if (rm && rs2 == 0) res = fsqrt(a, *rm); break;
    case 0x10:
      if (f3 <= 2) {
        const uint32_t sb = f3 == 0 ? b : f3 == 1 ? ~b : (a ^ b);
        res = FpResult{(a & 0x7FFFFFFFu) | (sb & 0x80000000u), 0};
      }
      break;
    case 0x14: if (f3 <= 1) res = f3 == 0 ? fmin(a, b) : fmax(a, b); break;
    case 0x50:
      to_x = true;
      if (f3 == 2) res = feq(a, b);
      if (f3 == 1) res = flt(a, b);
      if (f3 == 0) res = fle(a, b);
      break;
    case 0x60:
      to_x = true;
      if (rm && rs2 <= 1) res = rs2 == 0 ? fcvt_w_s(a, *rm) : fcvt_wu_s(a, *rm);
      break;
    case 0x68: {
      const uint32_t xa = x_[rs1_of(insn)];
      if (rm && rs2 <= 1) res = rs2 == 0 ? fcvt_s_w(xa, *rm) : fcvt_s_wu(xa, *rm);
      break;
    }
    case 0x70:
      to_x = true;
      if (rs2 == 0 && f3 == 0) res = FpResult{a, 0};
      if (rs2 == 0 && f3 == 1) res = FpResult{fclass(a), 0};
      break;
    case 0x78: if (rs2 == 0 && f3 == 0) res = FpResult{x_[rs1_of(insn)], 0}; break;
    default: break;
  }
  if (!res) return illegal(insn);
  fflags_ |= res->flags;
  if (to_x) write_x(r, rd_of(insn), res->bits);
  else write_f(r, rd_of(insn), res->bits);
  return std::nullopt;
}

}  // namespace tern::gpsimd
