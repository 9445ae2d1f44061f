// Random operands for the engine tests, the waveform regression and the benchmarks: elements
// of any float dtype biased towards values that exercise the arithmetic, tiles and sizes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "numerics/dtype.h"
#include "pe/tensor_engine.h"

namespace tern::tb {

// A random element of dtype t in its lane's low bits: mostly moderate exponents (so sums stay
// finite and cancel), sometimes any bit pattern (subnormals, Inf, NaN, huge values).
inline uint32_t random_element(Dtype t, std::mt19937_64& rng) {
  const auto r = static_cast<uint32_t>(rng());
  const int bits = dtype_bits(t);
  if (rng() % 16 == 0) {
    return t == Dtype::kTf32 ? (r & 0xFFFFE000u) : bits == 32 ? r : (r & ((1u << bits) - 1));
  }
  // Keep the top exponent bit clear and the next one random: values around 1 in magnitude.
  switch (t) {
    case Dtype::kFp32: return (r & 0x9FFFFFFFu) | 0x20000000u;
    case Dtype::kTf32: return (r & 0x9FFFE000u) | 0x20000000u;
    case Dtype::kBf16: return (r & 0x9FFFu) | 0x2000u;
    case Dtype::kFp16: return (r & 0x9FFFu) | 0x2000u;
    case Dtype::kFp8E4M3: return (r & 0x9Fu) | 0x20u;
    default: return (r & 0x9Fu) | 0x20u;  // fp8e5m2
  }
}

inline Tile random_tile(Dtype t, uint32_t rows, uint32_t cols, std::mt19937_64& rng) {
  Tile tile(rows, std::vector<uint32_t>(cols));
  for (auto& row : tile) {
    for (auto& e : row) e = random_element(t, rng);
  }
  return tile;
}

// Picks a size in [1, max], favouring the edges (1, max) and small values.
inline uint32_t random_size(uint32_t max, std::mt19937_64& rng, uint32_t small = 8) {
  switch (rng() % 6) {
    case 0: return 1;
    case 1: return max;
    case 2: return 1 + static_cast<uint32_t>(rng() % max);
    default: return 1 + static_cast<uint32_t>(rng() % std::min(max, small));
  }
}

}  // namespace tern::tb
