// The per-lane stochastic-rounding generator (docs/numerics.md, "Stochastic rounding").
//   seeding:  state = mix32(seed ^ mix32(lane + 1)); a zero state becomes 0x6A09E667
//   step:     xorshift32 with shifts (13, 17, 5)
//   draw:     advance one step, then use the new state as the 32-bit random value
// One draw is consumed per element converted with stochastic rounding, in the lane's element
// order; nothing else advances the generator.
#pragma once

#include <cstdint>

namespace tern {

// The murmur3 32-bit finaliser: a bijective avalanche mix, used only for seeding.
constexpr uint32_t mix32(uint32_t x) {
  x ^= x >> 16;
  x *= 0x85EBCA6Bu;
  x ^= x >> 13;
  x *= 0xC2B2AE35u;
  x ^= x >> 16;
  return x;
}

constexpr uint32_t xorshift32(uint32_t x) {
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return x;
}

class SrRng {
 public:
  static constexpr uint32_t kZeroStateReplacement = 0x6A09E667u;

  SrRng(uint32_t seed, uint32_t lane) : state_(initial_state(seed, lane)) {}

  static constexpr uint32_t initial_state(uint32_t seed, uint32_t lane) {
    const uint32_t s = mix32(seed ^ mix32(lane + 1));
    return s == 0 ? kZeroStateReplacement : s;
  }

  uint32_t draw() {
    state_ = xorshift32(state_);
    return state_;
  }
  uint32_t state() const { return state_; }

 private:
  uint32_t state_;
};

}  // namespace tern
