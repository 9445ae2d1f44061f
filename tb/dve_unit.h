// Cycle driver for the verilated Vector Engine (tern_dve) of any config: feeds commands and
// their operand streams through the valid/ready ports (optionally with random gaps on both
// operand streams and back-pressure on the result stream), collects the result beats and the
// error reports, and counts cycles. Golden counterpart: tern::VectorEngine (model/dve).
#pragma once

#include <fmt/format.h>
#include <verilated.h>
#include <verilated_fst_c.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "dut.h"
#include "owned_context.h"
#include "Vtern_dve_small.h"
#include "Vtern_dve_tiny.h"
#include "common/config.h"
#include "common/error.h"
#include "dve/vector_engine.h"

#include "ports.h"

namespace tern::tb {

// One command with its operand tiles ([partition][element], raw dtype bits).
struct DveItem {
  DveCommand cmd;
  DveLanes in0, in1;
};

template <typename Model>
class RtlDve {
 public:
  explicit RtlDve(const CoreConfig& cfg)
      : partitions_(cfg.partitions),
        dut_(std::make_unique<Model>(ctx_.get(), "dve")) {
    dut_->clk_i = 0;
    dut_->rst_ni = 0;
    dut_->eval();
    dut_->rst_ni = 1;
    dut_->eval();
  }
  ~RtlDve() {
    if (fst_) fst_->close();
  }
  RtlDve(const RtlDve&) = delete;
  RtlDve& operator=(const RtlDve&) = delete;

  void trace(const std::string& path, int depth = 99) {
    ctx_->traceEverOn(true);
    fst_ = std::make_unique<VerilatedFstC>();
    dut_->trace(fst_.get(), depth);
    fst_->open(path.c_str());
    if (!fst_->isOpen()) throw Error("cannot open waveform file " + path);
    fst_->dump(time_++);
  }
  // Random gaps (probability 1/4 per cycle) on in0, in1 and out_ready when set.
  void set_stalls(uint32_t seed) { stall_rng_.emplace(seed); }

  // One cycle with sr_seed_valid_i: every lane's generator restarts from `seed`.
  void seed(uint32_t seed) {
    dut_->sr_seed_valid_i = 1;
    dut_->sr_seed_i = seed;
    clock();
    dut_->sr_seed_valid_i = 0;
  }

  struct Report {
    std::vector<DveLanes> outs;                          // per command: [partition][beat]
    std::vector<std::pair<size_t, DveError>> errors;     // (command index, code)
    uint64_t cycles = 0;
    uint64_t first_out_cycle = 0;                        // cycle of the first result beat
  };

  // Runs the commands back to back. in0/in1/out beat counts per command come from the golden
  // model (0 for a command it rejects, which then carries no operands).
  Report run(const std::vector<DveItem>& items, const VectorEngine& golden, uint64_t max_cycles) {
    std::deque<std::vector<uint32_t>> q0, q1;
    std::vector<uint32_t> out_count;
    for (const DveItem& it : items) {
      push_beats(q0, it.in0, golden.in0_beats(it.cmd));
      push_beats(q1, it.in1, golden.in1_beats(it.cmd));
      out_count.push_back(golden.out_beats(it.cmd));
    }
    std::vector<std::vector<uint32_t>> beats;
    Report rep;
    size_t next = 0;
    std::optional<size_t> last_accepted;
    const uint64_t start = cycle_;
    bool seen_out = false;
    while (true) {
      const bool cmd_valid = next < items.size();
      dut_->cmd_valid_i = cmd_valid;
      if (cmd_valid) drive(items[next].cmd);
      const bool s0 = stall(), s1 = stall(), so = stall();
      dut_->in0_valid_i = !q0.empty() && !s0;
      if (!q0.empty()) set_vector(dut_->in0_data_i, q0.front());
      dut_->in1_valid_i = !q1.empty() && !s1;
      if (!q1.empty()) set_vector(dut_->in1_data_i, q1.front());
      dut_->out_ready_i = !so;
      dut_->eval();
      if (dut_->err_valid_o) {
        if (!last_accepted) throw Error("dve: error reported before any command was accepted");
        rep.errors.emplace_back(*last_accepted, static_cast<DveError>(dut_->err_code_o));
      }
      if (!cmd_valid && q0.empty() && q1.empty() && !dut_->busy_o) break;
      if (cycle_ - start >= max_cycles) {
        throw Error(fmt::format("dve: timeout after {} cycles ({} of {} commands accepted, {} in0 / {} in1 beats left)",
                                max_cycles, next, items.size(), q0.size(), q1.size()));
      }
      const bool cmd_fire = cmd_valid && dut_->cmd_ready_o;
      const bool f0 = dut_->in0_valid_i && dut_->in0_ready_o;
      const bool f1 = dut_->in1_valid_i && dut_->in1_ready_o;
      if (dut_->out_valid_o && dut_->out_ready_i) {
        std::vector<uint32_t> b(partitions_);
        for (uint32_t p = 0; p < partitions_; ++p) b[p] = detail::get_word(dut_->out_data_o, p);
        beats.push_back(std::move(b));
        if (!seen_out) rep.first_out_cycle = cycle_ - start;
        seen_out = true;
      }
      clock();
      if (f0) q0.pop_front();
      if (f1) q1.pop_front();
      if (cmd_fire) last_accepted = next++;
    }
    rep.cycles = cycle_ - start;
    size_t b = 0;
    for (uint32_t count : out_count) {
      DveLanes lanes(partitions_);
      for (uint32_t k = 0; k < count; ++k, ++b) {
        if (b >= beats.size()) throw Error(fmt::format("dve: {} result beats, expected more", beats.size()));
        for (uint32_t p = 0; p < partitions_; ++p) lanes[p].push_back(beats[b][p]);
      }
      rep.outs.push_back(std::move(lanes));
    }
    if (b != beats.size()) throw Error(fmt::format("dve: {} result beats, expected {}", beats.size(), b));
    return rep;
  }

 private:
  void push_beats(std::deque<std::vector<uint32_t>>& q, const DveLanes& lanes, uint32_t count) {
    for (uint32_t i = 0; i < count; ++i) {
      std::vector<uint32_t> beat(partitions_);
      for (uint32_t p = 0; p < partitions_; ++p) beat[p] = lanes.at(p).at(i);
      q.push_back(std::move(beat));
    }
  }
  template <typename T>
  void set_vector(T& port, const std::vector<uint32_t>& words) {
    for (uint32_t p = 0; p < partitions_; ++p) detail::set_word(port, p, words[p]);
  }
  void drive(const DveCommand& c) {
    dut_->cmd_op_i = static_cast<uint8_t>(c.op);
    dut_->cmd_alu0_i = static_cast<uint8_t>(c.alu0);
    dut_->cmd_alu1_i = static_cast<uint8_t>(c.alu1);
    dut_->cmd_dt_in0_i = static_cast<uint8_t>(c.in0);
    dut_->cmd_dt_in1_i = static_cast<uint8_t>(c.in1);
    dut_->cmd_dt_out_i = static_cast<uint8_t>(c.out);
    dut_->cmd_round_i = c.rounding == Rounding::kStochastic;
    dut_->cmd_saturate_i = c.saturate;
    dut_->cmd_n_i = static_cast<uint16_t>(c.n);
    dut_->cmd_imm0_i = c.imm0;
    dut_->cmd_imm1_i = c.imm1;
    dut_->cmd_imm2_i = c.imm2;
    dut_->cmd_scalar_sel_i = (c.scalar0_per_partition ? 1 : 0) | (c.scalar1_per_partition ? 2 : 0);
    dut_->cmd_reverse_i = (c.reverse0 ? 1 : 0) | (c.reverse1 ? 2 : 0);
    dut_->cmd_negate_i = c.negate;
    for (uint32_t p = 0; p < partitions_; ++p) {
      detail::set_word(dut_->cmd_scalar0_i, p, p < c.scalar0.size() ? c.scalar0[p] : 0);
      detail::set_word(dut_->cmd_scalar1_i, p, p < c.scalar1.size() ? c.scalar1[p] : 0);
    }
  }
  bool stall() { return stall_rng_ && ((*stall_rng_)() % 4 == 0); }
  // The falling edge is evaluated only for the waveform: nothing in tern_dve acts on it, and
  // every eval() recomputes all the lanes' input-dependent logic (Verilator's input region
  // runs on each call), so skipping it saves a third of the simulation time. The next eval()
  // sees the edge.
  void clock() {
    dut_->clk_i = 1;
    dut_->eval();
    if (fst_) fst_->dump(time_++);
    dut_->clk_i = 0;
    if (fst_) {
      dut_->eval();
      fst_->dump(time_++);
    }
    ++cycle_;
  }

  uint32_t partitions_;
  OwnedContext ctx_;
  Dut<Model> dut_;
  std::unique_ptr<VerilatedFstC> fst_;
  std::optional<std::mt19937> stall_rng_;
  uint64_t cycle_ = 0;
  uint64_t time_ = 0;
};

// Calls fn with a null pointer of the verilated DVE type of the config (tiny or small).
template <typename Fn>
auto with_dve_model(const CoreConfig& cfg, Fn&& fn) {
  if (cfg.name == "tiny") return fn(static_cast<Vtern_dve_tiny*>(nullptr));
  if (cfg.name == "small") return fn(static_cast<Vtern_dve_small*>(nullptr));
  throw Error("no verilated Vector Engine for config '" + cfg.name + "' (built: tiny, small)");
}

}  // namespace tern::tb
