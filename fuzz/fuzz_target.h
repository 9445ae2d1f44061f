// The contract of every fuzz target: a parser given any bytes either returns or throws
// tern::Error with a message. Anything else -- another exception, a crash, a sanitizer report,
// a hang or unbounded memory (libFuzzer's -timeout and -rss_limit_mb) -- is a bug.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "common/error.h"

namespace tern::fuzz {

template <typename Fn>
void expect_error_or_success(Fn&& fn) {
  try {
    fn();
  } catch (const Error& e) {
    if (std::string(e.what()).empty()) {
      std::fprintf(stderr, "tern::Error without a message\n");
      std::abort();
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "not a tern::Error: %s\n", e.what());
    std::abort();
  }
}

inline std::string text(const uint8_t* data, size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

}  // namespace tern::fuzz
