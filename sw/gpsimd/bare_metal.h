// Bare-metal runs of one GPSIMD core (`tern gpsimd run`, docs/gpsimd.md): an ELF loaded into
// local memory, run from its entry point until it writes its exit code to `tohost` (the
// riscv-tests convention: 1 is pass, (n << 1) | 1 is "test n failed"), an exception stops it,
// or the cycle limit is reached.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

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

using RetireHook = std::function<void(const Retire&)>;
// Bytes the host writes into local memory after loading a program, before it runs (a job in the
// I/O window, docs/gpsimd.md "Memory map").
using HostWrites = std::vector<std::pair<uint32_t, std::vector<uint8_t>>>;

// What a program runs on (the ISS, the RTL core, both in lock-step): one instruction at a time,
// and the elapsed cycles and instructions.
struct Machine {
  std::function<Core::Step()> step;
  std::function<uint64_t()> cycles;
  std::function<uint64_t()> instret;
};

// The word a program writes its exit code to: its `tohost` symbol, an aligned word of the local
// memory [mem_base, mem_base + mem_bytes). A missing or misplaced one is an error naming the file.
uint32_t tohost_address(const ElfImage& image, uint32_t mem_base, uint32_t mem_bytes);

// Writes each segment of `image`, then `writes`, with `write(addr, bytes)`; a failure names the
// file.
void load_segments(const ElfImage& image, const std::function<void(uint32_t, const std::vector<uint8_t>&)>& write,
                   const HostWrites& writes = {});

// Runs a loaded program on `m` until it writes `tohost` (with one word store), an exception
// stops it, or max_cycles pass. `on_retire`, when set, sees every retired instruction. A tohost
// write of an even value (a host call, which tern does not provide) or by a partial store is
// an error naming the file.
BareMetalResult run_to_tohost(const Machine& m, const ElfImage& image, uint32_t tohost, uint64_t max_cycles,
                              const RetireHook& on_retire = {});

// The ISS: loads `image` into `core` (segments, then `writes`; pc = entry) and runs it as above.
BareMetalResult run_bare_metal(Core& core, const ElfImage& image, uint64_t max_cycles,
                               const RetireHook& on_retire = {}, const HostWrites& writes = {});

}  // namespace tern::gpsimd
