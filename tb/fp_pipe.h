// A driver for the pipelined numerics units of rtl/fp (*_pipe.sv): streams a batch of inputs
// through one, an input offered in every cycle except random bubbles, the whole pipeline
// stalled (en_i low) in random cycles, and returns the results in order. It checks the
// pipeline's contract as it goes: every input comes out once, in order, exactly Latency
// advancing cycles after it went in.
#pragma once

#include <fmt/format.h>
#include <verilated.h>

#include <cstdint>
#include <algorithm>
#include <deque>
#include <random>
#include <vector>

#include "clocked_unit.h"
#include "common/error.h"

namespace tern::tb {

template <class Model>
class FpPipe {
 public:
  // `seed` draws the bubbles and stalls; assertion failures are recorded, not fatal.
  FpPipe(unsigned latency, uint64_t seed) : latency_(latency), rng_(seed) {}

  // set(model, input) drives one input's operands; get(model) reads the result.
  template <class In, class Set, class Get>
  std::vector<uint32_t> run(const std::vector<In>& inputs, Set set, Get get) {
    std::vector<uint32_t> out;
    out.reserve(inputs.size());
    std::deque<uint64_t> entered;  // the advance at which each input in flight went in
    size_t next = 0;
    uint64_t advance = 0;
    for (uint64_t cycle = 0; out.size() < inputs.size(); ++cycle) {
      if (cycle > 4 * inputs.size() + 100 * (latency_ + 1)) {
        throw Error(fmt::format("pipeline of latency {} stuck: {} of {} results after {} cycles",
                                latency_, out.size(), inputs.size(), cycle));
      }
      const bool en = rng_() % 8 != 0;
      const bool offer = next < inputs.size() && rng_() % 8 != 0;
      m_->en_i = en;
      m_->valid_i = offer;
      if (offer) set(*m_, inputs[next]);
      m_->eval();
      if (en) {
        if (offer) entered.push_back(advance);
        if (m_->valid_o) take(get(*m_), entered, advance, out);
        if (offer) ++next;
        ++advance;
      }
      m_.tick();
    }
    if (!entered.empty()) throw Error("pipeline produced fewer results than it took");
    return out;
  }

  bool assertion_failed() const { return m_.assertion_failed(); }

 private:
  void take(uint32_t result, std::deque<uint64_t>& entered, uint64_t advance,
            std::vector<uint32_t>& out) {
    if (entered.empty()) throw Error(fmt::format("result {} with nothing in flight", out.size()));
    if (advance - entered.front() != latency_) {
      throw Error(fmt::format("result {} came {} advances after its input, latency is {}",
                              out.size(), advance - entered.front(), latency_));
    }
    entered.pop_front();
    out.push_back(result);
  }

  unsigned latency_;
  std::mt19937_64 rng_;
  ClockedUnit<Model> m_;
};

}  // namespace tern::tb
