// The golden instruction-set simulator of one GPSIMD core (docs/gpsimd.md): RV32IMF with Zicsr,
// machine mode only, a local memory, one instruction per step. Written from the RISC-V
// unprivileged and privileged manuals. A core takes no traps: an exception stops it with the
// RISC-V cause code and the faulting pc, and POOL reports that. Cycles follow the RTL core's
// pipeline exactly (docs/gpsimd.md "Cycle estimate"; the lock-step test compares them): cycles()
// is the cycle at which the next instruction is in EX.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpsimd/rv_fp.h"

namespace tern::gpsimd {

// mcause codes of the privileged manual (synchronous exceptions).
enum class Cause : uint8_t {
  kMisalignedFetch = 0,
  kFetchAccess = 1,
  kIllegalInstruction = 2,
  kBreakpoint = 3,
  kMisalignedLoad = 4,
  kLoadAccess = 5,
  kMisalignedStore = 6,
  kStoreAccess = 7,
  kEcall = 11,
};
std::string cause_name(Cause c);
// Every cause, with the name rtl/gpsimd/tern_gpsimd_pkg.sv gives it (Cause<name>), which
// `GpsimdRtlPackage.HasTheIssCodes` holds the package to.
struct CauseName {
  Cause cause;
  const char* name;
};
constexpr CauseName kCauseNames[] = {
    {Cause::kMisalignedFetch, "MisalignedFetch"}, {Cause::kFetchAccess, "FetchAccess"},
    {Cause::kIllegalInstruction, "Illegal"},      {Cause::kBreakpoint, "Breakpoint"},
    {Cause::kMisalignedLoad, "MisalignedLoad"},   {Cause::kLoadAccess, "LoadAccess"},
    {Cause::kMisalignedStore, "MisalignedStore"}, {Cause::kStoreAccess, "StoreAccess"},
    {Cause::kEcall, "Ecall"},
};

// The cycles an M instruction holds EX after its first (the RTL's iterative M unit,
// tern_gpsimd_pkg::MulDivCycles, held to this by the same test and by the lock-step).
constexpr unsigned kMulDivCycles = 36;

struct Exception {
  Cause cause = Cause::kIllegalInstruction;
  uint32_t pc = 0;
  uint32_t tval = 0;  // the faulting address, or the instruction word for an illegal instruction
};
std::string describe(const Exception& e);

// One retired instruction, as the RTL core's retire port reports it (lock-step comparison).
struct Retire {
  uint32_t pc = 0;
  uint32_t insn = 0;
  enum class Dest : uint8_t { kNone, kX, kF } dest = Dest::kNone;
  uint8_t rd = 0;
  uint32_t rd_value = 0;
  bool mem_write = false;
  uint32_t mem_addr = 0;
  uint32_t mem_data = 0;  // the stored bytes, in the low mem_bytes
  uint8_t mem_bytes = 0;
};

struct CoreConfig {
  uint32_t mem_base = 0x80000000u;  // local memory: [mem_base, mem_base + mem_bytes)
  uint32_t mem_bytes = 64 * 1024;
  uint32_t hart_id = 0;
  // The F extension (misa.F, the FP instructions, fflags/frm/fcsr, mstatus.FS). Off: a core of
  // the RTL as it is today (rtl/gpsimd: RV32IM + Zicsr), for the lock-step tests.
  bool has_f = true;
};

class Core {
 public:
  explicit Core(const CoreConfig& config);

  // Copies bytes into local memory; a range outside it throws tern::Error naming it.
  void write_memory(uint32_t addr, const std::vector<uint8_t>& bytes);
  uint32_t read_word(uint32_t addr) const;  // throws outside local memory
  void set_pc(uint32_t pc) { pc_ = pc; }

  // Executes one instruction: its retire record, or the exception that stopped the core (after
  // which the core stays stopped).
  struct Step {
    std::optional<Retire> retired;
    std::optional<Exception> exception;
  };
  Step step();

  uint32_t pc() const { return pc_; }
  uint32_t x(unsigned i) const { return x_.at(i); }
  uint32_t f(unsigned i) const { return f_.at(i); }
  uint32_t fcsr() const { return uint32_t(frm_) << 5 | fflags_; }
  // Elapsed cycles (the cycle at which the next instruction is in EX) and instructions retired;
  // the mcycle and minstret CSRs read these plus what a program wrote into them.
  uint64_t cycles() const { return cycles_; }
  uint64_t instret() const { return instret_; }
  const CoreConfig& config() const { return config_; }

 private:
  Exception illegal(uint32_t insn) const { return {Cause::kIllegalInstruction, pc_, insn}; }
  bool in_memory(uint32_t addr, uint32_t bytes) const;
  std::optional<Exception> load(uint32_t addr, unsigned bytes, bool sign, uint32_t& value) const;
  std::optional<Exception> store(uint32_t addr, unsigned bytes, uint32_t value, Retire& r);
  std::optional<Exception> exec_int(uint32_t insn, Retire& r, uint32_t& next_pc);
  std::optional<Exception> exec_alu(uint32_t insn, Retire& r);
  std::optional<Exception> exec_branch(uint32_t insn, uint32_t& next_pc);
  std::optional<Exception> exec_mem(uint32_t insn, Retire& r);
  std::optional<Exception> exec_system(uint32_t insn, Retire& r);
  std::optional<Exception> exec_fp(uint32_t insn, Retire& r);
  std::optional<Exception> exec_fp_op(uint32_t insn, Retire& r);
  std::optional<RoundingMode> rounding(uint32_t insn) const;
  std::optional<uint32_t> read_csr(uint32_t csr) const;
  bool write_csr(uint32_t csr, uint32_t value);
  void write_x(Retire& r, unsigned rd, uint32_t v);
  void write_f(Retire& r, unsigned rd, uint32_t v);
  void account(uint32_t insn, const Retire& r, bool redirected);

  CoreConfig config_;
  std::vector<uint8_t> mem_;
  std::vector<uint32_t> x_ = std::vector<uint32_t>(32, 0);
  std::vector<uint32_t> f_ = std::vector<uint32_t>(32, 0);
  uint32_t pc_ = 0;
  uint8_t fflags_ = 0;
  uint8_t frm_ = 0;
  uint32_t mstatus_ = 0;
  uint32_t mscratch_ = 0;
  uint32_t mtvec_ = 0;
  uint32_t mepc_ = 0;
  uint32_t mcause_ = 0;
  uint32_t mtval_ = 0;
  uint64_t cycles_ = 0;   // elapsed: CSR writes set the offsets, never these
  uint64_t instret_ = 0;
  uint64_t mcycle_offset_ = 0;
  uint64_t minstret_offset_ = 0;
  std::optional<Exception> stopped_;
  bool redirected_ = false;  // this instruction jumped or took a branch (even to pc + 4)
  bool refetched_ = false;   // fence.i, or a store into the next two instructions' words
  // The previous FP operation's result register, for the FP-use stall.
  uint8_t pending_rd_ = 0;
  unsigned pending_stall_ = 0;
};

}  // namespace tern::gpsimd
