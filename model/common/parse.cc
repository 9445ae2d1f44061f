#include "common/parse.h"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <cstdlib>

#include "common/error.h"

namespace tern {

uint64_t parse_uint(const std::string& text, const std::string& what, uint64_t min, uint64_t max) {
  const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  const std::string digits = hex ? text.substr(2) : text;
  const int base = hex ? 16 : 10;
  bool ok = !digits.empty() && (hex || digits == "0" || digits[0] != '0');
  uint64_t value = 0;
  for (const char c : digits) {
    if (!ok) break;
    const int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
                  : (hex && std::isxdigit(static_cast<unsigned char>(c)))
                      ? std::tolower(static_cast<unsigned char>(c)) - 'a' + 10
                      : -1;
    if (d < 0) ok = false;
    else if (value > (std::numeric_limits<uint64_t>::max() - uint64_t(d)) / uint64_t(base))
      throw Error(fmt::format("{} = {} is out of range [{}, {}]", what, text, min, max));
    else value = value * uint64_t(base) + uint64_t(d);
  }
  if (!ok) {
    throw Error(fmt::format("{} must be a whole number (decimal digits without a leading zero, "
                            "or 0x and hex digits), got '{}'", what, text));
  }
  if (value < min || value > max)
    throw Error(fmt::format("{} = {} is out of range [{}, {}]", what, text, min, max));
  return value;
}

uint64_t parse_hex(const std::string& text, const std::string& what, int bits) {
  const bool prefixed = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  const std::string digits = prefixed ? text.substr(2) : text;
  if (digits.empty() || digits.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
    throw Error(fmt::format("{}: '{}' is not a hex number", what, text));
  uint64_t value = 0;
  for (const char c : digits) {
    const uint64_t d = std::isdigit(static_cast<unsigned char>(c))
                           ? uint64_t(c - '0')
                           : uint64_t(std::tolower(static_cast<unsigned char>(c)) - 'a' + 10);
    if ((value >> 60) != 0)  // one more digit would not fit in 64 bits
      throw Error(fmt::format("{}: '{}' does not fit in {} bits", what, text, bits));
    value = value << 4 | d;
  }
  if (bits < 64 && (value >> bits) != 0)
    throw Error(fmt::format("{}: '{}' does not fit in {} bits", what, text, bits));
  return value;
}

double parse_real(const std::string& text, const std::string& what, double min, double max) {
  char* end = nullptr;
  const double value = text.empty() || std::isspace(static_cast<unsigned char>(text[0]))
                           ? std::nan("")
                           : std::strtod(text.c_str(), &end);
  if (end == nullptr || *end != '\0' || !std::isfinite(value))
    throw Error(fmt::format("{} must be a finite number, got '{}'", what, text));
  if (value < min || value > max)
    throw Error(fmt::format("{} = {} is out of range [{}, {}]", what, text, min, max));
  return value;
}

}  // namespace tern
