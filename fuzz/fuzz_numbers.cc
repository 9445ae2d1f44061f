// The numbers a user types (every numeric option, --shape, YAML scalars, tern fp's hex
// operands) on any text. A whole number that parses prints back as the text it came from.
#include <fmt/format.h>

#include <cstdlib>

#include "common/parse.h"
#include "fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tern;
  const std::string s = fuzz::text(data, size);
  fuzz::expect_error_or_success([&] {
    const uint64_t v = parse_uint(s, "n");
    const bool hex = s.size() > 2 && (s[1] == 'x' || s[1] == 'X');
    if (!hex && fmt::format("{}", v) != s) std::abort();
  });
  fuzz::expect_error_or_success([&] { parse_real(s, "x", -1e300, 1e300); });
  for (int bits : {8, 16, 32, 64})
    fuzz::expect_error_or_success([&] {
      const uint64_t v = parse_hex(s, "line 1", bits);
      if (bits < 64 && (v >> bits) != 0) std::abort();
    });
  return 0;
}
