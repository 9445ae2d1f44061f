// Cycle driver for the clocked tern_mac_lane: feeds operand streams through the valid/ready
// port and collects dot products, with optional FST waves and a back-pressure pattern.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "dut.h"
#include "owned_context.h"
#include "fp_blocks.h"

namespace tern::tb {

// tern_mac_lane at its default Latency (13) takes an element every Latency + 1 cycles: each
// element's sum is the next one's accumulator (the lane's header).
constexpr uint64_t kMacLaneElementCycles = 14;

struct MacElement {
  Dtype ta;
  uint32_t a;
  Dtype tb;
  uint32_t b;
};

class RtlMacLane {
 public:
  RtlMacLane();
  ~RtlMacLane();
  RtlMacLane(const RtlMacLane&) = delete;
  RtlMacLane& operator=(const RtlMacLane&) = delete;

  void trace(const std::string& path);
  // Stalls the result port on random cycles (probability 1/4) when set.
  void set_backpressure(uint32_t seed) { stall_rng_.emplace(seed); }

  // Streams every vector and returns one fp32 dot product per vector, in order.
  std::vector<uint32_t> run(const std::vector<std::vector<MacElement>>& vectors,
                            uint64_t max_cycles);
  bool dtype_error() const;
  uint64_t cycles() const { return cycle_; }

 private:
  void clock();
  OwnedContext ctx_;
  Dut<Vtern_mac_lane> lane_;
  Waves waves_;
  std::optional<std::mt19937> stall_rng_;
  uint64_t cycle_ = 0;
};

// The golden dot product the lane must reproduce: fold of mac_step from +0 in input order.
uint32_t golden_dot(const std::vector<MacElement>& vec);

}  // namespace tern::tb
