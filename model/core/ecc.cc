#include "core/ecc.h"

#include <array>

namespace tern::core::ecc {
namespace {

// Hamming position (1 .. 12) of each data bit: the positions that are not powers of two, in
// increasing order (docs/ecc.md).
constexpr std::array<uint32_t, kDataBits> kDataPos = {3, 5, 6, 7, 9, 10, 11, 12};

bool bit(uint32_t word, uint32_t i) { return (word >> i) & 1u; }

// The XOR of the positions of the set bits among codeword bits 0 .. 11 (bit k - 1 is
// position k).
uint32_t syndrome(uint16_t code) {
  uint32_t s = 0;
  for (uint32_t k = 1; k <= 12; ++k)
    if (bit(code, k - 1)) s ^= k;
  return s;
}

bool parity(uint32_t word) {
  bool p = false;
  for (uint32_t i = 0; i < kCodeBits; ++i) p ^= bit(word, i);
  return p;
}

}  // namespace

uint16_t encode(uint8_t data) {
  uint32_t code = 0;
  for (uint32_t i = 0; i < kDataBits; ++i)
    if (bit(data, i)) code |= 1u << (kDataPos[i] - 1);
  // Check bit j (at position 2^j) is the parity of the data positions with bit j set.
  for (uint32_t j = 0; j < 4; ++j) {
    bool check = false;
    for (uint32_t i = 0; i < kDataBits; ++i) check ^= bit(data, i) && bit(kDataPos[i], j);
    if (check) code |= 1u << ((1u << j) - 1);
  }
  if (parity(code)) code |= 1u << 12;
  return uint16_t(code);
}

Decoded decode(uint16_t code) {
  code &= kCodeMask;
  const uint32_t s = syndrome(code);
  const bool p = parity(code);
  Decoded d;
  uint32_t fixed = code;
  if (p && s <= 12) {
    d.corrected = true;
    if (s != 0) fixed ^= 1u << (s - 1);
  } else if (p || s != 0) {
    d.uncorrectable = true;
  }
  for (uint32_t i = 0; i < kDataBits; ++i)
    if (bit(fixed, kDataPos[i] - 1)) d.data |= uint8_t(1u << i);
  return d;
}

}  // namespace tern::core::ecc
