#include "mac_lane.h"

#include <fmt/format.h>

#include "Vtern_mac_lane.h"

namespace tern::tb {

RtlMacLane::RtlMacLane()
    : lane_(std::make_unique<Vtern_mac_lane>(ctx_.get(), "lane")) {
  lane_->clk_i = 0;
  lane_->rst_ni = 0;
  lane_->eval();
  lane_->rst_ni = 1;
  lane_->eval();
}

RtlMacLane::~RtlMacLane() { waves_.close(); }

void RtlMacLane::trace(const std::string& path) { waves_.open(*lane_, path); }

void RtlMacLane::clock() {
  waves_.dump(2 * cycle_);
  lane_->clk_i = 1;
  lane_->eval();
  waves_.dump(2 * cycle_ + 1);
  lane_->clk_i = 0;
  lane_->eval();
  ++cycle_;
}

bool RtlMacLane::dtype_error() const { return lane_->dtype_err_o; }

std::vector<uint32_t> RtlMacLane::run(const std::vector<std::vector<MacElement>>& vectors,
                                      uint64_t max_cycles) {
  for (size_t i = 0; i < vectors.size(); ++i) {
    if (vectors[i].empty()) throw Error(fmt::format("tern_mac_lane: vector {} is empty", i));
  }
  std::vector<uint32_t> results;
  size_t vec = 0;
  size_t elem = 0;
  const uint64_t limit = cycle_ + max_cycles;
  while (results.size() < vectors.size()) {
    if (cycle_ >= limit) {
      throw Error(fmt::format("tern_mac_lane: timeout after {} cycles with {} of {} results",
                              max_cycles, results.size(), vectors.size()));
    }
    const bool have_input = vec < vectors.size();
    lane_->in_valid_i = have_input;
    if (have_input) {
      const MacElement& e = vectors[vec][elem];
      lane_->in_last_i = elem + 1 == vectors[vec].size();
      lane_->a_dtype_i = static_cast<uint8_t>(e.ta);
      lane_->a_i = e.a;
      lane_->b_dtype_i = static_cast<uint8_t>(e.tb);
      lane_->b_i = e.b;
    }
    lane_->out_ready_i = stall_rng_ ? ((*stall_rng_)() % 4 != 0) : 1;
    lane_->eval();
    const bool accepted = have_input && lane_->in_ready_o;
    if (lane_->out_valid_o && lane_->out_ready_i) results.push_back(lane_->out_o);
    clock();
    if (accepted && ++elem == vectors[vec].size()) {
      elem = 0;
      ++vec;
    }
  }
  return results;
}

uint32_t golden_dot(const std::vector<MacElement>& vec) {
  uint32_t acc = 0;
  for (const MacElement& e : vec) acc = mac_step(acc, e.ta, e.a, e.tb, e.b);
  return acc;
}

}  // namespace tern::tb
