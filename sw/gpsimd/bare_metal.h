// Bare-metal runs of one GPSIMD core (`tern gpsimd run`, docs/gpsimd.md): an ELF loaded into
// local memory, run from its entry point until it writes its exit code to `tohost` (the
// riscv-tests convention: 1 is pass, (n << 1) | 1 is "test n failed"), an exception stops it,
// or the cycle limit is reached.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "gpsimd/elf_image.h"
#include "gpsimd/rv_core.h"

namespace tern::gpsimd {

struct BareMetalResult {
  enum class End : uint8_t { kToHost, kException, kCycleLimit } end = End::kCycleLimit;
  uint32_t tohost = 0;  // kToHost: the value written
  std::optional<Exception> exception;
  uint64_t cycles = 0;
  uint64_t instret = 0;

  bool passed() const { return end == End::kToHost && tohost == 1; }
  // The process exit status of `tern gpsimd run`: 0 pass, the failing test number (capped at
  // 255) for a failure code, 1 for an exception or the cycle limit.
  int exit_status() const;
  std::string summary() const;  // one line: the outcome, cycles, instructions retired
};

// Loads `image` into `core` (segments, pc = entry) and runs it. `on_retire`, when set, sees every
// retired instruction. An image without a `tohost` symbol, or a tohost write of an even value
// (a host call, which tern does not provide), is an error naming the file.
BareMetalResult run_bare_metal(Core& core, const ElfImage& image, uint64_t max_cycles,
                               const std::function<void(const Retire&)>& on_retire = {});

}  // namespace tern::gpsimd
