// Strict numbers from text a user wrote: command-line values, --shape items, YAML scalars.
// One rule everywhere (docs/decisions.md, issue 23): decimal digits, or hex digits after 0x;
// no sign, no leading zero, no exponent, nothing after the number; inside [min, max]. Anything
// else throws tern::Error naming `what` and quoting the text, so "-5" is not 4294967291 and
// "5abc" is not 5.
#pragma once

#include <cstdint>
#include <limits>
#include <string>

namespace tern {

uint64_t parse_uint(const std::string& text, const std::string& what, uint64_t min = 0,
                    uint64_t max = std::numeric_limits<uint64_t>::max());

// A bit pattern written in hex: hex digits, with or without 0x, that fit in `bits` bits
// ("line 3: '+5' is not a hex number"; "'1FF' does not fit in 8 bits").
uint64_t parse_hex(const std::string& text, const std::string& what, int bits);

// A finite real number in [min, max] (decimal, with an optional fraction and exponent).
double parse_real(const std::string& text, const std::string& what, double min, double max);

}  // namespace tern
