#include "gpsimd/bare_metal.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/error.h"

namespace tern::gpsimd {

uint32_t tohost_address(const ElfImage& image, uint32_t mem_base, uint32_t mem_bytes) {
  const std::optional<uint32_t> addr = image.symbol("tohost");
  if (!addr) {
    throw Error(fmt::format("{}: no `tohost` symbol: a bare-metal program reports its exit code by "
                            "writing it to `tohost` (docs/gpsimd.md)", image.path));
  }
  if (*addr % 4 != 0 || *addr < mem_base || uint64_t(*addr) + 4 > uint64_t(mem_base) + mem_bytes) {
    throw Error(fmt::format("{}: `tohost` at 0x{:08x} is not an aligned word of local memory", image.path, *addr));
  }
  return *addr;
}

void load_segments(const ElfImage& image, const std::function<void(uint32_t, const std::vector<uint8_t>&)>& write,
                   const HostWrites& writes) {
  for (const ElfSegment& s : image.segments) {
    try {
      write(s.addr, s.bytes);
    } catch (const Error& e) {
      throw Error(fmt::format("{}: a segment does not load: {}", image.path, e.what()));
    }
  }
  for (const auto& [addr, bytes] : writes) {
    try {
      write(addr, bytes);
    } catch (const Error& e) {
      throw Error(fmt::format("{}: the host's data does not load: {}", image.path, e.what()));
    }
  }
}

int BareMetalResult::exit_status() const {
  if (end != End::kToHost) return 1;
  return tohost == 1 ? 0 : int(std::min<uint32_t>(tohost >> 1, 255));
}

std::string BareMetalResult::summary() const {
  std::string outcome;
  switch (end) {
    case End::kToHost:
      outcome = tohost == 1 ? "PASS (tohost 1)" : fmt::format("FAIL: test {} (tohost {})", tohost >> 1, tohost);
      break;
    case End::kException: outcome = "FAULT: " + describe(*exception); break;
    case End::kCycleLimit: outcome = "TIMEOUT: no tohost write within the cycle limit"; break;
  }
  return fmt::format("{}; cycles {}, instructions retired {}", outcome, cycles, instret);
}

BareMetalResult run_to_tohost(const Machine& m, const ElfImage& image, uint32_t tohost, uint64_t max_cycles,
                              const RetireHook& on_retire) {
  BareMetalResult result;
  while (m.cycles() < max_cycles) {
    const Core::Step s = m.step();
    if (s.exception) {
      result.end = BareMetalResult::End::kException;
      result.exception = s.exception;
      break;
    }
    const Retire& r = *s.retired;
    if (on_retire) on_retire(r);
    if (!r.mem_write || r.mem_addr + r.mem_bytes <= tohost || r.mem_addr >= tohost + 4) continue;
    if (r.mem_data == 0) continue;  // clearing it (start-up code zeroes bss bytewise)
    if (r.mem_addr != tohost || r.mem_bytes != 4) {
      throw Error(fmt::format("{}: tohost written by a {}-byte store at pc 0x{:08x}; write it with one word store",
                              image.path, r.mem_bytes, r.pc));
    }
    if (r.mem_data % 2 == 0) {
      throw Error(fmt::format("{}: tohost written with the even value {} at pc 0x{:08x}: that is a host "
                              "call, which tern does not provide (write 1 to pass, (n << 1) | 1 to fail test n)",
                              image.path, r.mem_data, r.pc));
    }
    result.end = BareMetalResult::End::kToHost;
    result.tohost = r.mem_data;
    break;
  }
  result.cycles = m.cycles();
  result.instret = m.instret();
  return result;
}

BareMetalResult run_bare_metal(Core& core, const ElfImage& image, uint64_t max_cycles, const RetireHook& on_retire,
                               const HostWrites& writes) {
  const CoreConfig& c = core.config();
  const uint32_t tohost = tohost_address(image, c.mem_base, c.mem_bytes);
  load_segments(image, [&core](uint32_t addr, const std::vector<uint8_t>& bytes) { core.write_memory(addr, bytes); },
                writes);
  core.set_pc(image.entry);
  const Machine m{[&core] { return core.step(); }, [&core] { return core.cycles(); },
                  [&core] { return core.instret(); }};
  return run_to_tohost(m, image, tohost, max_cycles, on_retire);
}

}  // namespace tern::gpsimd
