// The platform's comparison depths against the golden model (docs/platform.md):
//   end       the RTL's outcome after the interrupt: faults, HBM below the program, semaphores
//             (compare_outcome, tb/core_compare.h);
//   transfer  plus a scoreboard of every HBM write as it reaches the HBM target: each byte must
//             be the next value the golden run wrote to that address, and when an RTL DMA
//             transfer ends, every byte the golden model's matching transfer (the same queue,
//             in order) wrote must have arrived;
//   lockstep  plus every instruction each sequencer retires, matched as it retires with the
//             golden run's next instruction of that sequencer: pc, and the register written
//             and its value.
// transfer and lockstep stop the simulation at the first mismatch (tern::Error from the hook)
// with the cycle and the golden instruction or transfer.
#pragma once

#include <fmt/format.h>

#include <deque>
#include <map>
#include <string>
#include <vector>

#include "common/error.h"
#include "core/core_model.h"
#include "core_compare.h"
#include "platform/core_platform.h"

namespace tern::tb {

enum class CheckDepth { kEnd, kTransfer, kLockstep };

inline CheckDepth parse_check_depth(const std::string& s) {
  if (s == "end") return CheckDepth::kEnd;
  if (s == "transfer") return CheckDepth::kTransfer;
  if (s == "lockstep") return CheckDepth::kLockstep;
  throw Error(fmt::format("unknown check depth '{}' (end, transfer, lockstep)", s));
}

inline std::string event_text(const core::TraceEvent& e) {
  return fmt::format("{} at pc {} on {}", e.name, e.pc, e.agent);
}

// Per sequencer, the golden run's instructions in order, matched with the RTL's retires.
class LockstepChecker {
 public:
  explicit LockstepChecker(const std::vector<core::TraceEvent>& golden) {
    for (const core::TraceEvent& e : golden)
      if (auto s = isa::seq_from_name(e.agent)) streams_[size_t(*s)].push_back(&e);
  }

  void retire(const RetireEvent& r) {
    auto& q = streams_[size_t(r.seq)];
    const char* seq = isa::seq_name(isa::Seq(r.seq));
    if (q.empty())
      throw Error(fmt::format("lockstep: cycle {}: {} retired pc {} after the golden run's last "
                              "instruction", r.cycle, seq, r.pc));
    const core::TraceEvent& g = *q.front();
    if (r.pc != g.pc || r.rd != g.rd || (r.rd != 0 && r.rd_value != g.rd_value))
      throw Error(fmt::format("lockstep: cycle {}: {} retired pc {} (writes r{} = 0x{:x}), the "
                              "golden model's next is {} (writes r{} = 0x{:x})", r.cycle, seq,
                              r.pc, r.rd, r.rd_value, event_text(g), g.rd, g.rd_value));
    q.pop_front();
    ++matched_;
  }

  // After a run without faults: every golden instruction retired.
  void finish() const {
    for (int s = 0; s < isa::kNumSeqs; ++s)
      if (!streams_[size_t(s)].empty())
        throw Error(fmt::format("lockstep: {} stopped before {}", isa::seq_name(isa::Seq(s)),
                                event_text(*streams_[size_t(s)].front())));
  }
  uint64_t matched() const { return matched_; }

 private:
  std::array<std::deque<const core::TraceEvent*>, isa::kNumSeqs> streams_;
  uint64_t matched_ = 0;
};

// Every HBM byte write of the golden run, per address in order, checked as the RTL's writes
// arrive; per DMA queue, the golden transfers in order, checked complete as the RTL's end.
class TransferScoreboard {
 public:
  TransferScoreboard(const std::vector<core::TraceEvent>& trace,
                     const std::vector<core::HbmWrite>& writes)
      : trace_(trace) {
    for (const core::HbmWrite& w : writes)
      for (size_t i = 0; i < w.bytes.size(); ++i)
        bytes_[w.addr + i].push_back({w.bytes[i], w.writer});
    for (size_t i = 0; i < trace.size(); ++i)
      if (trace[i].agent.rfind("dma.q", 0) == 0)
        transfers_[uint32_t(std::stoul(trace[i].agent.substr(5)))].push_back(i);
    for (const core::HbmWrite& w : writes) pending_[w.writer] += w.bytes.size();
  }

  void write(const AxiWriteEvent& e) {
    for (size_t i = 0; i < e.data->size(); ++i) {
      if ((*e.enables)[i] != TLM_BYTE_ENABLED) continue;
      const uint64_t a = e.addr + i;
      auto it = bytes_.find(a);
      if (it == bytes_.end() || it->second.empty())
        throw Error(fmt::format("transfer: cycle {}: the RTL wrote HBM 0x{:x} = 0x{:02x} (AXI id "
                                "{}), which the golden run {}", e.cycle, a, (*e.data)[i], e.id,
                                it == bytes_.end() ? "never writes" : "wrote no more times"));
      const Expected x = it->second.front();
      if ((*e.data)[i] != x.value)
        throw Error(fmt::format("transfer: cycle {}: HBM 0x{:x}: RTL wrote 0x{:02x}, golden 0x{:02x}"
                                " from {}", e.cycle, a, (*e.data)[i], x.value,
                                event_text(trace_[x.writer])));
      it->second.pop_front();
      --pending_[x.writer];
      ++checked_;
    }
  }

  void dma_end(uint32_t queue, uint32_t desc, uint64_t cycle) {
    auto& q = transfers_[queue];
    if (q.empty())
      throw Error(fmt::format("transfer: cycle {}: dma.q{} ended descriptor {}, the golden run has "
                              "no more transfers on that queue", cycle, queue, desc));
    const core::TraceEvent& g = trace_[q.front()];
    if (g.name != fmt::format("dma d{}", desc))
      throw Error(fmt::format("transfer: cycle {}: dma.q{} ended descriptor {}, golden {}", cycle,
                              queue, desc, event_text(g)));
    if (pending_[q.front()] != 0)
      throw Error(fmt::format("transfer: cycle {}: dma.q{} descriptor {} ended with {} of its HBM "
                              "bytes not written ({})", cycle, queue, desc, pending_[q.front()],
                              event_text(g)));
    q.pop_front();
    ++transfers_done_;
  }

  void finish() const {
    for (const auto& [writer, n] : pending_)
      if (n != 0)
        throw Error(fmt::format("transfer: {} HBM bytes of {} were never written", n,
                                event_text(trace_[writer])));
  }
  uint64_t checked_bytes() const { return checked_; }
  uint64_t transfers() const { return transfers_done_; }

 private:
  struct Expected {
    uint8_t value;
    size_t writer;
  };
  const std::vector<core::TraceEvent>& trace_;
  std::map<uint64_t, std::deque<Expected>> bytes_;
  std::map<uint32_t, std::deque<size_t>> transfers_;
  std::map<size_t, size_t> pending_;  // writer -> bytes not yet seen
  uint64_t checked_ = 0, transfers_done_ = 0;
};

// How far the golden model's cycle estimate may be from the RTL platform's cycles, as a
// fraction of the RTL's (issue 24's goal; docs/core-model.md "Timing").
constexpr double kGoldenCycleTolerance = 0.10;

struct PlatformCompare {
  CoreCompare outcome;   // errors empty: the RTL matched
  PlatformRun run;
  uint64_t lockstep_instructions = 0, scoreboard_bytes = 0, scoreboard_transfers = 0;
};

// What the golden side runs, when it is not what the RTL runs (tests that inject a mismatch).
struct GoldenOverride {
  const isa::Program* program = nullptr;
  const std::vector<uint8_t>* hbm = nullptr;
};

// Runs `p` on the platform and on the golden model and compares them at `depth`. A mismatch
// found during the run (transfer, lockstep) is the first entry of outcome.errors.
template <typename Top>
PlatformCompare platform_compare(CorePlatform<Top>& platform, const CoreConfig& cfg,
                                 const isa::Program& p, const std::vector<uint8_t>& hbm_init,
                                 const std::vector<HbmRegion>& regions, CheckDepth depth,
                                 GoldenOverride golden_side = {}) {
  const HbmPortTiming& port = platform.hbm().timing(0);
  const GoldenRun g = run_golden(cfg, golden_side.program ? *golden_side.program : p,
                                 golden_side.hbm ? *golden_side.hbm : hbm_init,
                                 depth != CheckDepth::kEnd, {port.latency_cycles, port.bytes_per_cycle});
  LockstepChecker lockstep(g.model->trace());
  TransferScoreboard board(g.model->trace(), g.model->hbm_writes());
  // A faulting golden run stops at its fault; the RTL runs on a little in its other agents.
  const bool live = !g.fault;
  platform.on_retire = nullptr;
  platform.on_hbm_write = nullptr;
  platform.on_dma_end = nullptr;
  if (live && depth == CheckDepth::kLockstep)
    platform.on_retire = [&](const RetireEvent& r) { lockstep.retire(r); };
  if (live && depth != CheckDepth::kEnd) {
    platform.on_hbm_write = [&](const AxiWriteEvent& e) { board.write(e); };
    platform.on_dma_end = [&](uint32_t q, uint32_t d, uint64_t c) { board.dma_end(q, d, c); };
  }
  PlatformCompare c;
  try {
    c.run = platform.run(p, hbm_init, g.hbm_bytes, g.program_base, &cfg);
    c.outcome = compare_outcome(cfg, g, hbm_init, regions, c.run.status, platform.hbm().bytes());
    if (live && c.outcome.errors.empty()) {
      if (depth == CheckDepth::kLockstep) lockstep.finish();
      if (depth != CheckDepth::kEnd) board.finish();
    }
  } catch (const Error& e) {
    c.outcome.errors.insert(c.outcome.errors.begin(), e.what());
  }
  platform.on_retire = nullptr;
  platform.on_hbm_write = nullptr;
  platform.on_dma_end = nullptr;
  c.lockstep_instructions = lockstep.matched();
  c.scoreboard_bytes = board.checked_bytes();
  c.scoreboard_transfers = board.transfers();
  return c;
}

}  // namespace tern::tb
