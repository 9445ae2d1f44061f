// The golden NeuronCore model (docs/core-model.md): five sequencers executing their instruction
// streams, the semaphore bank, SBUF, PSUM, HBM and the DMA queues, with the Tensor, Scalar and
// Vector engine models plugged in. Engines run concurrently in a deterministic interleaving
// driven by estimated cycles; a race detector reports unsynchronised conflicting accesses to
// SBUF/PSUM and a deadlock detector reports a program that can no longer progress.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/config.h"
#include "common/error.h"
#include "core/csr_map.h"
#include "core/fault.h"
#include "core/memory.h"
#include "isa/isa.h"

namespace tern::core {

// The core's HBM port as the RTL platform models it (tb/platform/hbm_target.h): each transaction
// waits for the port, then takes `latency` cycles plus its bytes at `bytes_per_cycle`. The
// golden model's cycle estimate uses the same figures (docs/core-model.md "Timing").
struct HbmTiming {
  uint32_t latency = 200;
  uint32_t bytes_per_cycle = 0;  // 0: one AXI beat a cycle
};

struct CoreOptions {
  uint64_t hbm_bytes = 64ull << 20;
  HbmTiming hbm_timing;
  uint32_t sr_seed = 0;
  // Instructions one sequencer may start in a run (GLB.BUDGET; 0: no limit); past it the next
  // one faults with kBudget. The RTL's reset value, so both stop a runaway loop alike.
  uint32_t instruction_budget = csr::glb::kBudgetReset;
  bool detect_races = true;
  // Skips the Tensor Engine's arithmetic (PSUM keeps what it held): the cycle estimate of a
  // shape too big to compute, with every other effect and check. The results are not the
  // program's.
  bool timing_only = false;
  // Remember which trace event last wrote each HBM byte (hbm_writer), to name the instruction
  // behind a mismatch; costs 4 bytes per HBM byte.
  bool track_hbm_writers = false;
  // Log every HBM write in program order with its bytes and writer (hbm_writes), for the
  // per-transfer scoreboard of the RTL platform.
  bool log_hbm_writes = false;
  // Registers preset per sequencer before the run (run-time shapes, base addresses).
  std::array<std::array<uint32_t, isa::kNumRegs>, isa::kNumSeqs> regs{};
};

// One HBM write of the golden run: bytes at an address, written by trace event `writer`.
struct HbmWrite {
  uint64_t addr = 0;
  std::vector<uint8_t> bytes;
  size_t writer = 0;  // index into trace()
};

// One executed instruction or DMA transfer, with its estimated start and end cycles.
struct TraceEvent {
  // "pe", "act", "dve", "pool", "sp", "dma.q3"; the RTL puts an instruction that overlaps those
  // before it on a further row of its sequencer: "pe.2", "pe.3", ...
  std::string agent;
  uint32_t pc = 0;    // instruction index; DMA: index of the triggering instruction
  std::string name;   // mnemonic, or "dma d<index>"
  std::string detail; // sync annotations, e.g. "$S[4]>=16 $S[8]++@complete"
  uint64_t start = 0, end = 0;
  uint64_t wait_start = 0;  // when the sequencer began waiting on the semaphore (== start if not)
  uint32_t rd = 0, rd_value = 0;  // the register it wrote and the value (rd 0: none)
  uint64_t issue = 0;  // when the sequencer had it decoded (the golden model: == wait_start)
};

// Whether `e` is an instruction of sequencer `seq` (on any of its rows).
inline bool on_sequencer(const TraceEvent& e, const std::string& seq) {
  if (e.agent.compare(0, seq.size(), seq) != 0) return false;
  if (e.agent.size() == seq.size()) return true;
  return e.agent[seq.size()] == '.' && e.agent.size() > seq.size() + 1 &&
         e.agent.find_first_not_of("0123456789", seq.size() + 1) == std::string::npos;
}

struct SeqStats {
  uint64_t instructions = 0;
  uint64_t busy_cycles = 0;  // estimated cycles of its instructions
  uint64_t wait_cycles = 0;  // estimated cycles spent waiting on semaphores
  uint64_t end_cycle = 0;
};

struct RunStats {
  std::array<SeqStats, isa::kNumSeqs> seq{};
  uint64_t dma_transfers = 0;
  uint64_t dma_bytes_read = 0, dma_bytes_written = 0;
  uint64_t cycles = 0;  // estimated: the last event's end
  uint64_t pe_macs = 0;  // useful multiply-accumulates of the matmuls (K x M x N each)
  uint64_t hbm_bytes = 0;  // bytes the transfers moved on their HBM sides (reads and writes)
  std::vector<uint32_t> notifications;  // notify codes in order
};

class CoreModel {
 public:
  CoreModel(const CoreConfig& cfg, const CoreOptions& opt = {});
  ~CoreModel();
  CoreModel(const CoreModel&) = delete;
  CoreModel& operator=(const CoreModel&) = delete;

  const CoreConfig& config() const { return cfg_; }
  Hbm& hbm() { return hbm_; }
  const Hbm& hbm() const { return hbm_; }
  OnChipMemory& sbuf() { return sbuf_; }
  OnChipMemory& psum() { return psum_; }

  // Runs a program to completion (every sequencer halted, every DMA done). Throws CoreFault.
  RunStats run(const isa::Program& program);
  const std::vector<TraceEvent>& trace() const { return trace_; }
  uint32_t semaphore(uint32_t i) const { return sems_.at(i); }
  uint32_t reg(isa::Seq s, uint32_t r) const;
  // With track_hbm_writers: the trace event (DMA transfer or st) that last wrote HBM byte
  // `addr`; nullptr if none did.
  const TraceEvent* hbm_writer(uint64_t addr) const;
  // With log_hbm_writes: every HBM write in order.
  const std::vector<HbmWrite>& hbm_writes() const { return hbm_writes_; }

 private:
  struct Impl;
  // Records the trace event about to be logged as the writer of HBM bytes [addr, addr + n).
  void note_hbm_write(uint64_t addr, uint32_t n);
  CoreConfig cfg_;
  CoreOptions opt_;
  Hbm hbm_;
  OnChipMemory sbuf_, psum_;
  std::array<uint32_t, isa::kNumSems> sems_{};
  std::vector<TraceEvent> trace_;
  std::vector<uint32_t> hbm_writer_;  // trace index + 1 per HBM byte (0: not written)
  std::vector<HbmWrite> hbm_writes_;
  std::unique_ptr<Impl> impl_;
};


}  // namespace tern::core
