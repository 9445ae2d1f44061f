// SeqHarness<Top>'s members: included by the file that instantiates it for a top.
#pragma once

#include <verilated.h>
#include <verilated_fst_c.h>

#include "seq_harness.h"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <type_traits>
#include <utility>

#include "common/error.h"
#include "ports.h"

namespace tern::tb {

namespace seq_harness_detail {

constexpr int kSeqs = isa::kNumSeqs;
constexpr uint32_t kInstrWords = isa::kInstrBits / 32;
// Cycles with every busy sequencer waiting and nothing in flight after which a run is over:
// more than tern_seq_cluster's DeadlockCycles and the path to its faults.
constexpr uint64_t kQuietCycles = 32;

template <typename T>
bool bit(const T& port, int i) {
  return (uint64_t(port) >> i) & 1u;
}
template <typename T>
void set_bit(T& port, int i, bool v) {
  port = T((uint64_t(port) & ~(uint64_t(1) << i)) | (uint64_t(v) << i));
}
template <typename T>
uint32_t field(const T& port, int i, int width) {
  return uint32_t((uint64_t(port) >> (i * width)) & ((uint64_t(1) << width) - 1));
}

// Tops whose engine ports lead out (the cluster) get the harness's stand-in engines; tops with
// the engines inside (tern_core_compute) do not have the ports.
template <typename T, typename = void>
struct HasEnginePorts : std::false_type {};
template <typename T>
struct HasEnginePorts<T, std::void_t<decltype(std::declval<T&>().eng_valid_o)>> : std::true_type {};

struct Pending {
  uint64_t due;
  int seq;
  bool err;
  std::array<uint32_t, kInstrWords> data;  // fetch: the instruction; ld: data[0]
};

struct SemUpdate {
  uint64_t due;
  uint32_t mode, idx, value;
};

}  // namespace seq_harness_detail

template <typename Top>
SeqHarness<Top>::SeqHarness(uint64_t hbm_bytes, Options opt) : hbm_(hbm_bytes, 0), opt_(opt) {
  if (!opt_.waves.empty()) Verilated::traceEverOn(true);  // before the model is built
  top_ = std::make_unique<Top>();
  if (!opt_.waves.empty()) {
    fst_ = std::make_unique<VerilatedFstC>();
    top_->trace(fst_.get(), 99);
    fst_->open(opt_.waves.c_str());
  }
}

template <typename Top>
SeqHarness<Top>::~SeqHarness() {
  top_->final();
  if (fst_) fst_->close();
}

template <typename Top>
void SeqHarness<Top>::tick(const std::function<void()>& before_edge) {
  top_->clk_i = 0;
  top_->eval();
  if (fst_) fst_->dump(time_++);
  if (before_edge) before_edge();
  top_->clk_i = 1;
  top_->eval();
  if (fst_) fst_->dump(time_++);
}

template <typename Top>
SeqRunResult SeqHarness<Top>::run(const isa::Program& p, uint32_t program_base) {
  Streams streams;
  for (int s = 0; s < isa::kNumSeqs; ++s)
    for (const isa::Instruction& in : p.streams[size_t(s)]) streams[size_t(s)].push_back(isa::encode(in));
  return run_bits(streams, program_base);
}

template <typename Top>
SeqRunResult SeqHarness<Top>::run_bits(const Streams& streams, uint32_t program_base) {
  using namespace seq_harness_detail;
  Top& t = *top_;
  // The image: each stream's instructions, little-endian, one after the other.
  uint64_t at = program_base;
  for (int s = 0; s < kSeqs; ++s) {
    detail::set_word(t.prog_base_i, size_t(s), uint32_t(at));
    detail::set_word(t.prog_len_i, size_t(s), uint32_t(streams[size_t(s)].size()));
    for (const isa::InstrBits& bits : streams[size_t(s)]) {
      if (at + isa::kInstrBytes > hbm_.size()) throw Error("RtlSeqCluster: program outside HBM");
      for (uint64_t w : bits.words)
        for (int b = 0; b < 8; ++b) hbm_[at++] = uint8_t(w >> (8 * b));
    }
  }
  t.rst_ni = 0;
  t.start_i = 0;
  t.watchdog_i = opt_.limits.watchdog;
  t.budget_i = opt_.limits.budget;
  t.dma_fault_i = 0;
  tick();
  t.rst_ni = 1;
  t.sem_clear_i = 1;
  t.start_i = (1u << kSeqs) - 1;
  tick();
  t.sem_clear_i = 0;
  t.start_i = 0;

  auto read_le = [&](uint64_t addr, uint32_t bytes, uint32_t* out) {
    for (uint32_t w = 0; w < bytes / 4; ++w) {
      out[w] = 0;
      for (int b = 0; b < 4; ++b) out[w] |= uint32_t(hbm_[addr + 4 * w + uint64_t(b)]) << (8 * b);
    }
  };

  Result r;
  std::deque<Pending> fetches, mems;
  // Per engine, the cycles its instructions complete and were accepted, oldest first.
  std::array<std::deque<std::pair<uint64_t, uint64_t>>, kSeqs> engine_busy;
  std::deque<SemUpdate> dma_updates;
  uint64_t cycle = 0, quiet = 0;
  uint32_t fetch_count = 0;
  for (; cycle < opt_.max_cycles; ++cycle) {
    t.fetch_req_ready_i = 0;
    t.mem_req_ready_i = 0;
    t.fetch_rsp_valid_i = 0;
    t.mem_rsp_valid_i = 0;
    t.fetch_rsp_err_i = 0;
    t.mem_rsp_err_i = 0;
    if constexpr (HasEnginePorts<Top>::value) {
      t.eng_done_i = 0;
      t.eng_ahead_i = 0;
      t.eng_err_i = 0;
      t.eng_err_code_i = 0;
    }
    t.dma_sem_valid_i = 0;
    t.eval();
    // Requests: accept every one; respond after the latency.
    for (int s = 0; s < kSeqs; ++s) {
      if (bit(t.fetch_req_valid_o, s)) {
        set_bit(t.fetch_req_ready_i, s, true);
        const uint64_t addr = detail::get_word(t.fetch_req_addr_o, size_t(s));
        Pending f{cycle + opt_.mem_latency, s, addr + isa::kInstrBytes > hbm_.size(), {}};
        if (!f.err) read_le(addr, isa::kInstrBytes, f.data.data());
        if (fetch_count++ != opt_.lose_fetch) fetches.push_back(f);
      }
      if (bit(t.mem_req_valid_o, s)) {
        set_bit(t.mem_req_ready_i, s, true);
        const uint64_t addr = detail::get_word(t.mem_req_addr_o, size_t(s));
        Pending m{cycle + opt_.mem_latency, s, addr + 4 > hbm_.size(), {}};
        if (!m.err) {
          if (bit(t.mem_req_write_o, s)) {
            const uint32_t v = detail::get_word(t.mem_req_wdata_o, size_t(s));
            for (int b = 0; b < 4; ++b) hbm_[addr + uint64_t(b)] = uint8_t(v >> (8 * b));
          } else {
            read_le(addr, 4, m.data.data());
          }
        }
        mems.push_back(m);
      }
      if constexpr (HasEnginePorts<Top>::value) {
        auto& busy = engine_busy[size_t(s)];
        // A second instruction only once the first has run a cycle; it ends after the first.
        const bool second = opt_.engine_ahead && busy.size() == 1 && busy.front().second < cycle;
        set_bit(t.eng_ahead_i, s, second);
        if (bit(t.eng_valid_o, s) && (busy.empty() || second)) {
          set_bit(t.eng_ready_i, s, true);
          const uint64_t due = std::max(cycle + opt_.engine_cycles,
                                        busy.empty() ? 0 : busy.back().first + 1);
          busy.emplace_back(due, cycle);
          r.engine_accepts[size_t(s)].push_back(cycle);
        } else {
          set_bit(t.eng_ready_i, s, false);
        }
        if (!busy.empty() && busy.front().first <= cycle &&
            (opt_.engine_ahead || !bit(t.eng_valid_o, s))) {
          set_bit(t.eng_done_i, s, true);
          busy.pop_front();
          r.engine_dones[size_t(s)].push_back(cycle);
        }
      }
      set_bit(t.dma_ready_i, s, true);
      if (bit(t.dma_valid_o, s) && field(t.dma_upd_mode_o, s, 2) != 0)
        dma_updates.push_back({cycle + opt_.dma_cycles, field(t.dma_upd_mode_o, s, 2),
                               field(t.dma_upd_idx_o, s, 6), field(t.dma_upd_value_o, s, 8)});
      if (bit(t.notify_valid_o, s))
        r.notifications.emplace_back(s, detail::get_word(t.notify_code_o, size_t(s)));
    }
    // Responses due this cycle, one per sequencer and port.
    for (auto* q : {&fetches, &mems}) {
      const bool is_fetch = q == &fetches;
      for (auto it = q->begin(); it != q->end();) {
        if (it->due > cycle) {
          ++it;
          continue;
        }
        if (is_fetch) {
          set_bit(t.fetch_rsp_valid_i, it->seq, true);
          set_bit(t.fetch_rsp_err_i, it->seq, it->err);
          for (uint32_t w = 0; w < kInstrWords; ++w)
            t.fetch_rsp_data_i[size_t(it->seq) * kInstrWords + w] = it->data[w];
        } else {
          set_bit(t.mem_rsp_valid_i, it->seq, true);
          set_bit(t.mem_rsp_err_i, it->seq, it->err);
          detail::set_word(t.mem_rsp_rdata_i, size_t(it->seq), it->data[0]);
        }
        it = q->erase(it);
      }
    }
    if (!dma_updates.empty() && dma_updates.front().due <= cycle) {
      const SemUpdate u = dma_updates.front();
      dma_updates.pop_front();
      t.dma_sem_valid_i = 1;
      t.dma_sem_mode_i = u.mode;
      t.dma_sem_idx_i = u.idx;
      t.dma_sem_value_i = u.value;
    }
    t.dma_busy_i = !dma_updates.empty();
    tick([&] {  // the retires of this cycle, with the engines' inputs applied
      for (int s = 0; s < kSeqs; ++s)
        if (bit(t.trace_retire_o, s))
          r.retired_pcs[size_t(s)].push_back(detail::get_word(t.trace_pc_o, size_t(s)));
    });
    // Done when no sequencer is busy, or every busy one has waited with nothing in flight for
    // longer than the deadlock detector takes (it has faulted them, or stands down after a fault).
    bool busy = false, moving = !dma_updates.empty() || !fetches.empty() || !mems.empty();
    for (int s = 0; s < kSeqs; ++s) {
      busy |= bit(t.busy_o, s);
      moving |= bit(t.busy_o, s) && !bit(t.waiting_o, s);
      moving |= !engine_busy[size_t(s)].empty();
    }
    quiet = moving ? 0 : quiet + 1;
    if (!busy || quiet > kQuietCycles) break;
  }
  r.cycles = cycle;
  t.eval();
  for (int s = 0; s < kSeqs; ++s) {
    r.err_code[size_t(s)] = field(t.err_code_o, s, 4);
    r.err_pc[size_t(s)] = detail::get_word(t.err_pc_o, size_t(s));
    r.retired[size_t(s)] = detail::get_word(t.retired_o, size_t(s));
    r.halted[size_t(s)] = bit(t.halted_o, s);
    r.waiting[size_t(s)] = bit(t.waiting_o, s);
    r.busy_cycles[size_t(s)] = detail::get_word(t.busy_cycles_o, size_t(s));
    r.sem_wait_cycles[size_t(s)] = detail::get_word(t.sem_wait_cycles_o, size_t(s));
    r.fetch_wait_cycles[size_t(s)] = detail::get_word(t.fetch_wait_cycles_o, size_t(s));
    r.timed_out |= cycle >= opt_.max_cycles && bit(t.busy_o, s);
  }
  for (uint32_t i = 0; i < isa::kNumSems; ++i) r.sems[i] = detail::get_word(t.sem_values_o, i);
  return r;
}

}  // namespace tern::tb
