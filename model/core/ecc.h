// The on-chip memories' SECDED code (docs/ecc.md): an extended Hamming (13, 8) code over each
// byte, written here from the document (rtl/prim/tern_secded_pkg.sv is the RTL's; the tests
// compare the two on every codeword).
#pragma once

#include <cstdint>

namespace tern::core::ecc {

constexpr uint32_t kDataBits = 8;
constexpr uint32_t kCodeBits = 13;
constexpr uint16_t kCodeMask = (1u << kCodeBits) - 1;

// The 13-bit codeword of a data byte.
uint16_t encode(uint8_t data);

struct Decoded {
  uint8_t data = 0;            // corrected when `corrected`; the stored data bits otherwise
  bool corrected = false;      // one bit was flipped, and is repaired in `data`
  bool uncorrectable = false;  // two or more: `data` may be wrong
};
Decoded decode(uint16_t code);

}  // namespace tern::core::ecc
