// Cycle driver for the verilated tern_tensor_unit (Tensor Engine + PSUM) of any config: feeds
// commands and their operand streams through the valid/ready ports, records the engine's
// error reports, measures cycles and reads PSUM through the plain port.
#pragma once

#include <fmt/format.h>

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
#include "common/config.h"
#include "common/error.h"
#include "fp_blocks.h"
#include "ports.h"
#include "pe/tensor_engine.h"

namespace tern::tb {

// One command with its operand tile (stationary K x M, moving K x N, none for Transpose).
struct PeOpItem {
  PeCommand cmd;
  Tile tile;
};

template <typename Model>
class RtlTensorUnit {
 public:
  explicit RtlTensorUnit(const CoreConfig& cfg)
      : cfg_(cfg), dut_(std::make_unique<Model>(ctx_.get(), "unit")) {
    dut_->clk_i = 0;
    dut_->rst_ni = 0;
    dut_->eval();
    dut_->rst_ni = 1;
    dut_->eval();
  }
  ~RtlTensorUnit() { waves_.close(); }
  RtlTensorUnit(const RtlTensorUnit&) = delete;
  RtlTensorUnit& operator=(const RtlTensorUnit&) = delete;

  void trace(const std::string& path, int depth = 99) { waves_.open(*dut_, path, depth); }
  // Random gaps in the operand streams (probability 1/4 per cycle) when set.
  void set_stream_stalls(uint32_t seed) { stall_rng_.emplace(seed); }

  // Plain-port writes (word address, value for every partition) issued during the next run(),
  // one per cycle while the port is ready: they contend with the engine's PSUM writes.
  void queue_side_writes(std::deque<std::pair<uint32_t, uint32_t>> writes) { side_writes_ = std::move(writes); }
  uint64_t side_write_stalls() const { return side_stalls_; }

  // Runs the commands back to back; returns the cycles from the first command until the
  // engine is idle. `expected_errors[i]` says whether command i will be rejected (from the
  // golden check): a rejected command carries no operand data.
  uint64_t run(const std::vector<PeOpItem>& ops, const std::vector<PeError>& expected_errors,
               uint64_t max_cycles) {
    size_t next = 0;
    std::deque<std::vector<uint32_t>> stat_q, mov_q;
    const uint64_t start = cycle_;
    while (true) {
      const bool cmd_valid = next < ops.size();
      dut_->cmd_valid_i = cmd_valid;
      if (cmd_valid) drive_command(ops[next].cmd);
      const bool stall = stall_rng_ && ((*stall_rng_)() % 4 == 0);
      dut_->stat_valid_i = !stat_q.empty() && !stall;
      if (!stat_q.empty()) set_vector(dut_->stat_data_i, stat_q.front());
      dut_->mov_valid_i = !mov_q.empty() && !stall;
      if (!mov_q.empty()) set_vector(dut_->mov_data_i, mov_q.front());
      const bool side = !side_writes_.empty();
      dut_->rw_valid_i = side;
      if (side) {
        dut_->rw_write_i = 1;
        dut_->rw_addr_i = side_writes_.front().first;
        detail::set_ones(dut_->rw_mask_i, cfg_.partitions);
        for (uint32_t p = 0; p < cfg_.partitions; ++p) detail::set_word(dut_->rw_wdata_i, p, side_writes_.front().second);
      }
      dut_->eval();
      if (!cmd_valid && stat_q.empty() && mov_q.empty() && !side && !dut_->busy_o) break;
      const bool side_fire = side && dut_->rw_ready_o;
      if (side && !side_fire) ++side_stalls_;
      if (cycle_ - start >= max_cycles) {
        throw Error(fmt::format("tensor unit: timeout after {} cycles ({} of {} commands accepted)",
                                max_cycles, next, ops.size()));
      }
      const bool cmd_fire = cmd_valid && dut_->cmd_ready_o;
      const bool stat_fire = dut_->stat_valid_i && dut_->stat_ready_o;
      const bool mov_fire = dut_->mov_valid_i && dut_->mov_ready_o;
      clock();
      if (side_fire) side_writes_.pop_front();
      if (stat_fire) stat_q.pop_front();
      if (mov_fire) mov_q.pop_front();
      if (cmd_fire) {
        const PeOpItem& op = ops[next];
        if (expected_errors[next] == PeError::kNone) queue_operands(op, stat_q, mov_q);
        ++next;
      }
    }
    dut_->rw_valid_i = 0;
    dut_->rw_write_i = 0;
    return cycle_ - start;
  }

  // Error codes the engine reported, in order.
  const std::vector<PeError>& reported_errors() const { return errors_; }
  uint32_t error_count() const { return dut_->err_count_o; }

  // PSUM through the plain port: every partition's word at `addr`.
  std::vector<uint32_t> read_psum(uint32_t addr) {
    dut_->cmd_valid_i = 0;
    dut_->stat_valid_i = 0;
    dut_->mov_valid_i = 0;
    dut_->rw_valid_i = 1;
    dut_->rw_write_i = 0;
    dut_->rw_addr_i = addr;
    detail::set_ones(dut_->rw_mask_i, cfg_.partitions);
    for (int tries = 0;; ++tries) {
      dut_->eval();
      if (dut_->rw_ready_o) break;
      if (tries > 1000) throw Error("PSUM plain port never ready");
      clock();
    }
    clock();
    dut_->rw_valid_i = 0;
    dut_->eval();
    if (!dut_->rd_valid_o) throw Error("PSUM read data not valid one cycle after the request");
    std::vector<uint32_t> out(cfg_.partitions);
    for (uint32_t p = 0; p < cfg_.partitions; ++p) out[p] = detail::get_word(dut_->rd_data_o, p);
    return out;
  }

  // Writes `value` to every word of every partition (PSUM has no reset).
  void fill_psum(uint32_t value) {
    dut_->cmd_valid_i = 0;
    dut_->stat_valid_i = 0;
    dut_->mov_valid_i = 0;
    dut_->rw_valid_i = 1;
    dut_->rw_write_i = 1;
    detail::set_ones(dut_->rw_mask_i, cfg_.partitions);
    for (uint32_t p = 0; p < cfg_.partitions; ++p) detail::set_word(dut_->rw_wdata_i, p, value);
    const uint32_t words = cfg_.psum_banks * cfg_.psum_bank_bytes / 4;
    for (uint32_t a = 0; a < words; ++a) {
      dut_->rw_addr_i = a;
      clock();
    }
    dut_->rw_valid_i = 0;
    dut_->rw_write_i = 0;
  }

  uint64_t cycles() const { return cycle_; }

 private:
  // The rising edge; the falling edge is evaluated together with the next cycle's inputs,
  // which saves one evaluation of the input logic per cycle.
  void clock() {
    waves_.dump(2 * cycle_);
    dut_->clk_i = 1;
    dut_->eval();
    waves_.dump(2 * cycle_ + 1);
    dut_->clk_i = 0;
    ++cycle_;
    if (dut_->err_valid_o) errors_.push_back(static_cast<PeError>(dut_->err_code_o));
  }

  void drive_command(const PeCommand& c) {
    dut_->cmd_op_i = static_cast<uint8_t>(c.op);
    dut_->cmd_dtype_i = static_cast<uint8_t>(c.dtype);
    dut_->cmd_k_i = static_cast<uint16_t>(std::min<uint32_t>(c.k, 0xFFFF));
    dut_->cmd_m_i = static_cast<uint16_t>(std::min<uint32_t>(c.m, 0xFFFF));
    dut_->cmd_n_i = static_cast<uint16_t>(std::min<uint32_t>(c.n, 0xFFFF));
    dut_->cmd_bank_i = static_cast<uint8_t>(std::min<uint32_t>(c.bank, 0xF));
    dut_->cmd_offset_i = static_cast<uint16_t>(std::min<uint32_t>(c.offset, 0xFFFF));
    dut_->cmd_acc_i = c.accumulate;
  }

  template <typename Port>
  void set_vector(Port& port, const std::vector<uint32_t>& v) {
    for (uint32_t k = 0; k < cfg_.pe_rows; ++k) detail::set_word(port, k, k < v.size() ? v[k] : 0);
  }

  void queue_operands(const PeOpItem& op, std::deque<std::vector<uint32_t>>& stat_q,
                      std::deque<std::vector<uint32_t>>& mov_q) {
    const Tile& t = op.tile;
    if (op.cmd.op == PeOp::kLoadStationary) {
      stat_dtype_ = op.cmd.dtype;
      for (uint32_t m = 0; m < op.cmd.m; ++m) {
        std::vector<uint32_t> col(op.cmd.k);
        for (uint32_t k = 0; k < op.cmd.k; ++k) col[k] = t[k][m];
        stat_q.push_back(std::move(col));
      }
    } else if (op.cmd.op == PeOp::kMultiplyMoving) {
      // An fp32 matmul reads its moving tile three times, once per pass.
      const int passes = is_fp32_pass_pair(stat_dtype_, op.cmd.dtype) ? 3 : 1;
      for (int pass = 0; pass < passes; ++pass) {
        for (uint32_t n = 0; n < op.cmd.n; ++n) {
          std::vector<uint32_t> vec(t.size());
          for (size_t k = 0; k < t.size(); ++k) vec[k] = t[k][n];
          mov_q.push_back(std::move(vec));
        }
      }
    }
  }

  CoreConfig cfg_;
  OwnedContext ctx_;
  Dut<Model> dut_;
  Waves waves_;
  std::optional<std::mt19937> stall_rng_;
  std::vector<PeError> errors_;
  Dtype stat_dtype_ = Dtype::kBf16;  // of the last accepted LoadStationary
  std::deque<std::pair<uint32_t, uint32_t>> side_writes_;
  uint64_t side_stalls_ = 0;
  uint64_t cycle_ = 0;
};

}  // namespace tern::tb
