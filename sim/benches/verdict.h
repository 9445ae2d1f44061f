// The regression's contract with a bench, in one place: a bench prints "CYCLES <n>" and ends
// with a line "PASS" only when every check passed; anything else (a failed check, an exception)
// ends with "FAIL" and exit code 1 (docs/verification.md, "Waveform regression").
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <exception>
#include <string>
#include <vector>

namespace tern::sim {

struct Verdict {
  uint64_t cycles = 0;
  std::vector<std::string> errors;  // empty: every check passed
};

template <typename Body>
int run_bench(Body&& body) {
  try {
    const Verdict v = body();
    fmt::print("CYCLES {}\n", v.cycles);
    for (const std::string& e : v.errors) fmt::print("ERROR: {}\n", e);
    fmt::print("{}\n", v.errors.empty() ? "PASS" : "FAIL");
    return v.errors.empty() ? 0 : 1;
  } catch (const std::exception& e) {
    fmt::print("ERROR: {}\nFAIL\n", e.what());
    return 1;
  }
}

}  // namespace tern::sim
