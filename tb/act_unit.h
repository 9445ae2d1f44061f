// Cycle driver for the verilated Scalar Engine (tern_act) of any config: feeds commands and
// their input tiles through the valid/ready ports (with optional random gaps on the input
// and back-pressure on the output), collects the results and the reported errors, and
// measures cycles. Golden counterpart: tern::act::ScalarEngine.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "dut.h"
#include "owned_context.h"
#include "act/scalar_engine.h"
#include "common/error.h"
#include "fp_blocks.h"
#include "ports.h"

namespace tern::tb {

struct ActOp {
  act::ActCommand cmd;
  act::ActTile in;  // [partition][element]
};

template <typename Model>
class RtlActUnit {
 public:
  RtlActUnit(uint32_t partitions, uint32_t sr_seed)
      : lanes_(partitions), dut_(std::make_unique<Model>(ctx_.get(), "act")) {
    dut_->clk_i = 0;
    dut_->rst_ni = 0;
    dut_->eval();
    dut_->rst_ni = 1;
    dut_->eval();
    seed(sr_seed);
  }
  ~RtlActUnit() { waves_.close(); }
  RtlActUnit(const RtlActUnit&) = delete;
  RtlActUnit& operator=(const RtlActUnit&) = delete;

  void trace(const std::string& path, int depth = 99) { waves_.open(*dut_, path, depth); }
  // Random input gaps and output back-pressure (each with probability 1/4 per cycle).
  void set_stalls(uint32_t seed) { stall_rng_.emplace(seed); }

  void seed(uint32_t sr_seed) {
    dut_->sr_seed_valid_i = 1;
    dut_->sr_seed_i = sr_seed;
    clock();
    dut_->sr_seed_valid_i = 0;
  }

  // Runs the commands back to back; `expected_errors[i]` (from the golden check) says whether
  // command i is rejected, in which case it carries no input. Returns the cycles from the
  // first command until the engine is idle; results land in outputs(), one tile per accepted
  // command.
  uint64_t run(const std::vector<ActOp>& ops, const std::vector<act::ActError>& expected_errors,
               uint64_t max_cycles) {
    size_t next = 0;
    std::deque<std::vector<uint32_t>> in_q;
    std::deque<size_t> out_owner;  // which command each pending output beat belongs to
    outputs_.assign(ops.size(), {});
    const uint64_t start = cycle_;
    while (true) {
      const bool cmd_valid = next < ops.size();
      dut_->cmd_valid_i = cmd_valid;
      if (cmd_valid) drive_command(ops[next].cmd);
      const bool in_stall = stall_rng_ && ((*stall_rng_)() % 4 == 0);
      const bool out_stall = stall_rng_ && ((*stall_rng_)() % 4 == 0);
      dut_->in_valid_i = !in_q.empty() && !in_stall;
      if (!in_q.empty()) set_lanes(dut_->in_data_i, in_q.front());
      dut_->out_ready_i = !out_stall;
      dut_->eval();
      if (!cmd_valid && in_q.empty() && !dut_->busy_o) break;
      if (cycle_ - start >= max_cycles) {
        throw Error(fmt::format("scalar engine: timeout after {} cycles ({} of {} commands accepted)",
                                max_cycles, next, ops.size()));
      }
      const bool cmd_fire = cmd_valid && dut_->cmd_ready_o;
      const bool in_fire = dut_->in_valid_i && dut_->in_ready_o;
      const bool out_fire = dut_->out_valid_o && dut_->out_ready_i;
      if (out_fire) {
        if (out_owner.empty()) throw Error("scalar engine: a result beat nobody asked for");
        act::ActTile& tile = outputs_[out_owner.front()];
        if (tile.empty()) tile.assign(lanes_, {});
        for (uint32_t p = 0; p < lanes_; ++p) tile[p].push_back(detail::get_word(dut_->out_data_o, p));
        out_owner.pop_front();
      }
      clock();
      if (in_fire) in_q.pop_front();
      if (cmd_fire) {
        if (expected_errors[next] == act::ActError::kNone) {
          const ActOp& op = ops[next];
          for (uint32_t j = 0; j < op.cmd.n; ++j) {
            std::vector<uint32_t> beat(lanes_);
            for (uint32_t p = 0; p < lanes_; ++p) beat[p] = op.in[p][j];
            in_q.push_back(std::move(beat));
            out_owner.push_back(next);
          }
        }
        ++next;
      }
    }
    if (!out_owner.empty()) throw Error("scalar engine: idle with result beats still owed");
    return cycle_ - start;
  }

  const std::vector<act::ActTile>& outputs() const { return outputs_; }
  const std::vector<act::ActError>& reported_errors() const { return errors_; }
  std::vector<uint32_t> accumulators() const {
    std::vector<uint32_t> acc(lanes_);
    for (uint32_t p = 0; p < lanes_; ++p) acc[p] = detail::get_word(dut_->acc_o, p);
    return acc;
  }
  uint64_t cycles() const { return cycle_; }

 private:
  void clock() {
    waves_.dump(2 * cycle_);
    dut_->clk_i = 1;
    dut_->eval();
    waves_.dump(2 * cycle_ + 1);
    dut_->clk_i = 0;
    ++cycle_;
    if (dut_->err_valid_o) errors_.push_back(static_cast<act::ActError>(dut_->err_code_o));
  }

  template <typename Port>
  void set_lanes(Port& port, const std::vector<uint32_t>& v) {
    for (uint32_t p = 0; p < lanes_; ++p) detail::set_word(port, p, p < v.size() ? v[p] : 0);
  }

  void drive_command(const act::ActCommand& c) {
    dut_->cmd_func_i = c.func & 0x1F;
    dut_->cmd_in_dtype_i = c.in_dtype & 0xF;
    dut_->cmd_out_dtype_i = c.out_dtype & 0xF;
    dut_->cmd_round_i = c.rounding == Rounding::kStochastic;
    dut_->cmd_n_i = static_cast<uint16_t>(c.n);
    dut_->cmd_scale_vec_i = c.scale_per_partition;
    dut_->cmd_scale_i = c.scale;
    dut_->cmd_bias_vec_i = c.bias_per_partition;
    dut_->cmd_bias_i = c.bias;
    set_lanes(dut_->cmd_scales_i, c.scale_vec);
    set_lanes(dut_->cmd_biases_i, c.bias_vec);
    set_lanes(dut_->cmd_acc_load_i, c.acc_load);
    dut_->cmd_reduce_op_i = c.reduce_op & 1;
    dut_->cmd_reduce_cmd_i = c.reduce_cmd & 7;
  }

  uint32_t lanes_;
  OwnedContext ctx_;
  Dut<Model> dut_;
  Waves waves_;
  std::optional<std::mt19937> stall_rng_;
  std::vector<act::ActTile> outputs_;
  std::vector<act::ActError> errors_;
  uint64_t cycle_ = 0;
};

}  // namespace tern::tb
