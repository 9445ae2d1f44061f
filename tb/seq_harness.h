// SeqHarness: a verilated top with the sequencer cluster's ports (rtl/core/tern_seq_cluster.sv,
// rtl/core/tern_core_compute.sv) in plain C++, with an HBM byte store serving instruction fetch and
// ld/st after a fixed latency, engines that accept an instruction and complete it a few cycles
// later (for the engine ports that lead out of the top; no data), and a DMA stand-in that
// performs each trigger's semaphore update when its "transfer" ends. Fast enough for GoogleTest;
// the full core harness grows from it.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "dut.h"
#include "isa/isa.h"
#include "run_limits.h"

class Vtern_seq_cluster;
class VerilatedFstC;

namespace tern::tb {

struct SeqRunOptions {
  uint32_t mem_latency = 3;     // cycles from request to response (fetch and ld/st)
  uint32_t engine_cycles = 4;   // cycles from an engine instruction's acceptance to done
  // Engines take a second instruction once the first has run a cycle (raising ahead, as the
  // PE's two lanes do), completing in order; otherwise one at a time.
  bool engine_ahead = false;
  uint32_t dma_cycles = 20;     // cycles from a DMA trigger to its semaphore update
  uint64_t max_cycles = 2'000'000;
  RunLimits limits;             // GLB.WATCHDOG and GLB.BUDGET
  uint32_t lose_fetch = UINT32_MAX;  // this instruction fetch (0: the first) is never answered
  std::string waves;            // an FST file to write (empty: none)
};

struct SeqRunResult {
  uint64_t cycles = 0;
  bool timed_out = false;  // some sequencer was still busy at max_cycles
  std::array<uint32_t, isa::kNumSeqs> err_code{}, err_pc{}, retired{};
  std::array<bool, isa::kNumSeqs> halted{};
  std::array<bool, isa::kNumSeqs> waiting{};  // blocked on a semaphore at the end
  std::vector<std::pair<int, uint32_t>> notifications;  // (sequencer, code) in cycle order
  std::array<uint32_t, isa::kNumSems> sems{};
  // Each sequencer's retired pcs in retire order (the trace port), and the cycles its engine
  // accepted and completed instructions.
  std::array<std::vector<uint32_t>, isa::kNumSeqs> retired_pcs;
  std::array<std::vector<uint64_t>, isa::kNumSeqs> engine_accepts, engine_dones;
  // The sequencers' performance counters (cycles).
  std::array<uint32_t, isa::kNumSeqs> busy_cycles{}, sem_wait_cycles{}, fetch_wait_cycles{};
};

template <typename Top>
class SeqHarness {
 public:
  using Options = SeqRunOptions;
  using Result = SeqRunResult;

  SeqHarness(uint64_t hbm_bytes, Options opt);
  explicit SeqHarness(uint64_t hbm_bytes) : SeqHarness(hbm_bytes, Options{}) {}
  ~SeqHarness();

  std::vector<uint8_t>& hbm() { return hbm_; }
  Top& top() { return *top_; }
  // One clock; `before_edge` runs with this cycle's inputs applied and evaluated.
  void tick(const std::function<void()>& before_edge = {});
  // Writes each stream's instructions to HBM from `program_base` (stream after stream), resets
  // and starts every sequencer and runs until all have stopped and the DMA stand-in is idle.
  Result run(const isa::Program& p, uint32_t program_base);
  // The same from raw instruction bits, one list per stream: for instructions no encoder
  // writes (a reserved bit set, an undefined code), which the decoder must reject.
  using Streams = std::array<std::vector<isa::InstrBits>, isa::kNumSeqs>;
  Result run_bits(const Streams& streams, uint32_t program_base);

 private:
  Dut<Top> top_;
  std::unique_ptr<VerilatedFstC> fst_;
  uint64_t time_ = 0;
  std::vector<uint8_t> hbm_;
  Options opt_;
};

using RtlSeqCluster = SeqHarness<Vtern_seq_cluster>;

}  // namespace tern::tb
