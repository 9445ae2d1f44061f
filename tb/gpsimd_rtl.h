// One GPSIMD core's RTL (tb/tern_gpsimd_tb.sv: rtl/gpsimd/tern_gpsimd_core.sv and its local
// memory) driven the way model/gpsimd's ISS is: memory written while stopped, a start pc, then
// one retired instruction or the exception at a time, in the ISS's types; and the lock-step
// comparison of the two (docs/gpsimd.md "Verification").
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <verilated_fst_c.h>

#include <memory>

#include "Vtern_gpsimd_tb.h"
#include "dut.h"
#include "gpsimd/rv_core.h"
#include "owned_context.h"

namespace tern::tb {

class GpsimdRtl {
 public:
  // The tb's memory: the ISS's default CoreConfig, which tern_gpsimd_tb's default parameters
  // are (a difference would fault every program in the lock-step tests).
  static constexpr uint32_t kMemBase = gpsimd::CoreConfig{}.mem_base;
  static constexpr uint32_t kMemBytes = gpsimd::CoreConfig{}.mem_bytes;

  explicit GpsimdRtl(uint32_t hart_id = 0);
  ~GpsimdRtl();
  GpsimdRtl(const GpsimdRtl&) = delete;
  GpsimdRtl& operator=(const GpsimdRtl&) = delete;

  // Writes FST waves of every cycle from now on (the core and its memory).
  void trace(const std::string& path);

  // Writes bytes into local memory through the host port (the core must be stopped).
  void write_memory(uint32_t addr, const std::vector<uint8_t>& bytes);
  void start(uint32_t pc);

  struct Event {
    std::optional<gpsimd::Retire> retired;
    std::optional<gpsimd::Exception> exception;
    uint64_t ex_cycle = 0;  // the cycle (from the start) the instruction entered EX
  };
  // Clocks until the core retires an instruction or stops with an exception; nullopt when
  // neither happens within max_cycles.
  std::optional<Event> next(uint64_t max_cycles);
  // The same as an ISS step; no event within kMaxCyclesPerInstruction (a hang) is an error.
  static constexpr uint64_t kMaxCyclesPerInstruction = 1000;
  gpsimd::Core::Step step();

  uint64_t cycles() const { return cycle_; }
  bool assertion_failed() const { return ctx_->gotError(); }

 private:
  void tick();

  OwnedContext ctx_;
  Dut<Vtern_gpsimd_tb> m_;
  std::unique_ptr<VerilatedFstC> fst_;
  uint64_t time_ = 0;
  std::vector<uint8_t> image_;
  uint64_t cycle_ = 0;
  bool fault_reported_ = false;
};

// Runs the ISS and the RTL, both loaded and at the same pc, instruction by instruction:
// every retire record (pc, word, register write, memory write) and the EX cycle must agree, and
// an exception must be the same one. Stops at the first difference, an exception, `stop`
// returning true after a retire, or max_instructions.
// One ISS step (taken when the ISS was at iss_cycle) against the RTL's next event: the
// difference as text, empty when they agree.
std::string compare_step(const gpsimd::Core::Step& iss, uint64_t iss_cycle, const std::optional<GpsimdRtl::Event>& rtl);

struct LockstepEnd {
  uint64_t retired = 0;
  std::optional<gpsimd::Exception> exception;
  std::string mismatch;  // empty: the two agreed
};
LockstepEnd run_lockstep(gpsimd::Core& iss, GpsimdRtl& rtl, uint64_t max_instructions,
                         const std::function<bool(const gpsimd::Retire&)>& stop = {});

}  // namespace tern::tb
