// Random programs over the control ISA (docs/verification.md "Random programs over the control
// ISA"): the generator, the functional coverage of what it generated, and the check of one
// program on the RTL sequencer cluster against the golden model. Used by tests/test_core_rtl.cc
// (10,000 programs in `make test`) and the sim bench `control` (`make sim`; TAGS=nightly runs
// 10^6).
#pragma once

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "common/config.h"
#include "isa/isa.h"
#include "seq_harness.h"

namespace tern::tb {

constexpr uint64_t kControlHbmBytes = 1 << 20;
constexpr uint32_t kControlProgramBase = 0x80000;  // the program image, above every data region
constexpr uint32_t kControlDataBase = 0x1000;      // sequencer s owns [base + s * 0x1000, +0x1000)

// What a random program may hold beyond well-behaved control code: operands at their extremes,
// and one hazard, an instruction that ends the run in a fault.
enum class Hazard { kNone, kMisaligned, kOutsideHbm, kBranchPastEnd, kNoHalt, kSpin, kDeadlock };
constexpr int kHazards = 7;
struct Knobs {
  bool extremes = false;
  Hazard hazard = Hazard::kNone;
  int hazard_seq = 0;
};

// A random control program on all five sequencers. Sequencer s signals semaphore s; a wait only
// asks for signals that come earlier in the generation order, so every program without a hazard
// completes. Registers r1..r20 and r60 end in sequencer s's data region at +0x800.
std::string random_control_program(std::mt19937_64& rng, const Knobs& knobs = {});

// Functional coverage of generated programs: bins of what they exercised, and the outcome.
class ProgramCoverage {
 public:
  void program(const isa::Program& p);
  void outcome(uint32_t fault_kind);
  const std::map<std::string, uint64_t>& bins() const { return bins_; }
  // The bins a run of many control programs must hit: every control opcode, r0 in each
  // position, the extreme immediates, every fault a control program reaches, and "no fault".
  static std::vector<std::string> required();
  // The bins the engine generators (tb/core_check.h, sw/stimulus/kernel_random.h) and their single-bit
  // flips must hit together: every engine opcode, ACT function and reduce command, DVE element
  // op, both matmul modes, every Tensor Engine and ACT dtype, PSUM operands, the DMA's
  // directions, and the faults an engine instruction reaches (illegal, operand, engine).
  static std::vector<std::string> engine_required();
  std::vector<std::string> missing() const { return missing(required()); }
  std::vector<std::string> missing(const std::vector<std::string>& want) const;  // never hit
  std::string table() const;                  // "[ coverage ] <bin> <count>" lines

 private:
  void hit(const std::string& bin) { ++bins_[bin]; }
  std::map<std::string, uint64_t> bins_;
};

// Programs with their knobs drawn (extremes always, a hazard in half), each run on the golden
// model and the RTL cluster (instruction budget 1000 on both, so a spin loop ends): the same
// fault on the same sequencers at the same pcs, or the same memory and semaphores.
class ControlProgramCheck {
 public:
  explicit ControlProgramCheck(const CoreConfig& cfg);  // the golden model's config (tiny)
  // Generates program `n` from `rng`, runs it on both and records its coverage; returns the
  // mismatches (empty: they agree), each naming the program and ending with its text.
  std::vector<std::string> run_one(std::mt19937_64& rng, uint64_t n);
  const ProgramCoverage& coverage() const { return coverage_; }
  uint64_t rtl_cycles() const { return cycles_; }
  const std::string& last_program() const { return last_; }  // its assembly text
  static SeqRunOptions options();  // the cluster's: budget 1000, memory latency 1

 private:
  CoreConfig cfg_;
  RtlSeqCluster rtl_;
  ProgramCoverage coverage_;
  uint64_t cycles_ = 0;
  std::string last_;
};

}  // namespace tern::tb
