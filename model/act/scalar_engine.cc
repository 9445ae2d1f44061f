#include "act/scalar_engine.h"

#include <algorithm>
#include <string>

#include "common/error.h"
#include "numerics/dtype.h"

namespace tern::act {

bool is_act_dtype(uint8_t code) { return code < kNumDtypes && is_float(static_cast<Dtype>(code)); }

uint32_t reduce_identity(ReduceOp op) { return op == ReduceOp::kAdd ? 0x00000000u : 0xFF800000u; }

uint32_t reduce_step(ReduceOp op, uint32_t acc, uint32_t value) {
  return op == ReduceOp::kAdd ? fp32_add(acc, value) : fp32_max(acc, value);
}

uint32_t add_reduce(uint32_t acc, const std::vector<uint32_t>& results) {
  std::vector<uint32_t> slot{acc};
  for (size_t j = 0; j < results.size(); ++j) {
    const size_t s = j % kActReduceSlots;
    if (s >= slot.size()) slot.push_back(results[j]);
    else slot[s] = fp32_add(slot[s], results[j]);
  }
  while (slot.size() > 1) {
    for (size_t k = 0; 2 * k < slot.size(); ++k)
      slot[k] = 2 * k + 1 < slot.size() ? fp32_add(slot[2 * k], slot[2 * k + 1]) : slot[2 * k];
    slot.resize((slot.size() + 1) / 2);
  }
  return slot[0];
}

ScalarEngine::ScalarEngine(uint32_t partitions, uint32_t sr_seed)
    : partitions_(partitions), acc_(partitions, 0) {
  if (partitions == 0) throw Error("ScalarEngine: zero partitions");
  seed(sr_seed);
}

void ScalarEngine::seed(uint32_t sr_seed) {
  rng_.clear();
  for (uint32_t p = 0; p < partitions_; ++p) rng_.emplace_back(sr_seed, p);
}

ActError ScalarEngine::check(const ActCommand& cmd) const {
  if (cmd.func >= kNumActFuncs) return ActError::kBadFunc;
  if (!is_act_dtype(cmd.in_dtype) || !is_act_dtype(cmd.out_dtype)) return ActError::kBadDtype;
  if (cmd.n == 0 || cmd.n > kActMaxN) return ActError::kBadSize;
  if (cmd.reduce_op > 1 || cmd.reduce_cmd > 4) return ActError::kBadReduce;
  return ActError::kNone;
}

ActError ScalarEngine::run(const ActCommand& cmd, const ActTile& in, ActTile& out) {
  out.clear();
  const ActError err = check(cmd);
  if (err != ActError::kNone) return err;
  if (in.size() != partitions_) throw Error("ScalarEngine::run: input tile has the wrong partition count");
  auto need = [&](bool used, const std::vector<uint32_t>& v, const char* what) {
    if (used && v.size() != partitions_) {
      throw Error(std::string("ScalarEngine::run: ") + what + " needs one value per partition");
    }
  };
  need(cmd.scale_per_partition, cmd.scale_vec, "per-partition scale");
  need(cmd.bias_per_partition, cmd.bias_vec, "per-partition bias");
  need(cmd.reduce_cmd == static_cast<uint8_t>(ReduceCmd::kLoadReduce), cmd.acc_load, "load_reduce");
  const auto func = static_cast<ActFunc>(cmd.func);
  const auto in_t = static_cast<Dtype>(cmd.in_dtype), out_t = static_cast<Dtype>(cmd.out_dtype);
  const auto op = static_cast<ReduceOp>(cmd.reduce_op);
  const auto rcmd = static_cast<ReduceCmd>(cmd.reduce_cmd);
  const ConvertMode mode{cmd.rounding, false};
  out.assign(partitions_, std::vector<uint32_t>(cmd.n));
  for (uint32_t p = 0; p < partitions_; ++p) {
    if (in[p].size() != cmd.n) throw Error("ScalarEngine::run: input row length differs from the command's n");
    const uint32_t scale = cmd.scale_per_partition ? cmd.scale_vec[p] : cmd.scale;
    const uint32_t bias = cmd.bias_per_partition ? cmd.bias_vec[p] : cmd.bias;
    uint32_t acc = acc_[p];
    if (rcmd == ReduceCmd::kReset || rcmd == ReduceCmd::kResetReduce) acc = reduce_identity(op);
    if (rcmd == ReduceCmd::kLoadReduce) acc = cmd.acc_load[p];
    const bool reduce = rcmd == ReduceCmd::kReduce || rcmd == ReduceCmd::kResetReduce ||
                        rcmd == ReduceCmd::kLoadReduce;
    std::vector<uint32_t> sums;  // an add reduction's results, in order
    for (uint32_t j = 0; j < cmd.n; ++j) {
      const uint32_t x = fp32_add(fp32_mul(convert_to_fp32(in_t, in[p][j]), scale), bias);
      const uint32_t y = act_function(func, x);
      if (reduce && op == ReduceOp::kAdd) sums.push_back(y);
      else if (reduce) acc = reduce_step(op, acc, y);
      const uint32_t random = cmd.rounding == Rounding::kStochastic ? rng_[p].draw() : 0;
      out[p][j] = convert_from_fp32(out_t, y, mode, random);
    }
    acc_[p] = reduce && op == ReduceOp::kAdd ? add_reduce(acc, sums) : acc;
  }
  return ActError::kNone;
}

uint32_t act_latency(ActFunc f) {
  // Each function's exit in the lane's schedule (docs/scalar-engine.md "Pipeline"), then the
  // bus register and the output conversion's 5 steps.
  constexpr uint32_t kTail = 1 + kActDownLatency;
  switch (f) {
    case ActFunc::kCopy:
    case ActFunc::kRelu:
    case ActFunc::kAbs:
    case ActFunc::kSign: return 25 + kTail;
    case ActFunc::kSquare: return 31 + kTail;
    case ActFunc::kSqrt: return 59 + kTail;
    case ActFunc::kExp: return 254 + kTail;
    case ActFunc::kErf: return 271 + kTail;
    case ActFunc::kGelu:
    case ActFunc::kMish: return 325 + kTail;
    case ActFunc::kLog: return 460 + kTail;
    case ActFunc::kSoftplus: return 470 + kTail;
    default: return 317 + kTail;  // the quotient's: sigmoid, silu, gelu_apprx_tanh, tanh, rsqrt, reciprocal
  }
}

uint64_t act_reduce_tail(const ActCommand& c) {
  const uint64_t last_out = uint64_t(c.n) + act_latency(ActFunc(c.func)) + 1;
  const bool reduces = c.reduce_cmd >= uint8_t(ReduceCmd::kReduce);
  if (!reduces || c.reduce_op != uint8_t(ReduceOp::kAdd) || c.n == 0) return 0;
  // The results reach the reduction a cycle apart, the last kActDownLatency cycles before its
  // output. The last one added (not moved into an empty slot) is the last result, or with n up
  // to kActReduceSlots the first (slot 0 holds the accumulator). The combine's first round
  // starts the cycle after that sum is written and the last result has arrived; each round
  // issues a pair a cycle (an unpaired last slot is moved, not added), and the next starts the
  // cycle after its last sum is written.
  const uint64_t last_at = last_out - kActDownLatency;
  const uint64_t last_add = c.n > kActReduceSlots ? last_at : last_at - (c.n - 1);
  uint64_t written = std::max(last_add + kActReduceAddLatency, last_at);
  for (uint64_t m = std::min<uint64_t>(c.n, kActReduceSlots); m > 1; m = (m + 1) / 2)
    written += 1 + (m / 2 - 1) + kActReduceAddLatency;
  return written > last_out ? written - last_out : 0;
}

uint64_t act_cycles(const ActCommand& c) {
  return uint64_t(c.n) + act_latency(ActFunc(c.func)) + 1 + act_reduce_tail(c);
}

}  // namespace tern::act
