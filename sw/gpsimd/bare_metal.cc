#include "gpsimd/bare_metal.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/error.h"

namespace tern::gpsimd {
namespace {

uint32_t tohost_address(const Core& core, const ElfImage& image) {
  const std::optional<uint32_t> addr = image.symbol("tohost");
  if (!addr) {
    throw Error(fmt::format("{}: no `tohost` symbol: a bare-metal program reports its exit code by "
                            "writing it to `tohost` (docs/gpsimd.md)", image.path));
  }
  const CoreConfig& c = core.config();
  if (*addr % 4 != 0 || *addr < c.mem_base || uint64_t(*addr) + 4 > uint64_t(c.mem_base) + c.mem_bytes) {
    throw Error(fmt::format("{}: `tohost` at 0x{:08x} is not an aligned word of local memory", image.path, *addr));
  }
  return *addr;
}

void load_image(Core& core, const ElfImage& image) {
  for (const ElfSegment& s : image.segments) {
    try {
      core.write_memory(s.addr, s.bytes);
    } catch (const Error& e) {
      throw Error(fmt::format("{}: a segment does not load: {}", image.path, e.what()));
    }
  }
  core.set_pc(image.entry);
}

}  // namespace

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

BareMetalResult run_bare_metal(Core& core, const ElfImage& image, uint64_t max_cycles,
                               const std::function<void(const Retire&)>& on_retire) {
  const uint32_t tohost = tohost_address(core, image);
  load_image(core, image);
  BareMetalResult result;
  while (core.cycles() < max_cycles) {
    const Core::Step s = core.step();
    if (s.exception) {
      result.end = BareMetalResult::End::kException;
      result.exception = s.exception;
      break;
    }
    if (on_retire) on_retire(*s.retired);
    const Retire& r = *s.retired;
    if (!r.mem_write || r.mem_addr + r.mem_bytes <= tohost || r.mem_addr >= tohost + 4) continue;
    const uint32_t value = core.read_word(tohost);
    if (value == 0) continue;
    if (value % 2 == 0) {
      throw Error(fmt::format("{}: tohost written with the even value {} at pc 0x{:08x}: that is a host "
                              "call, which tern does not provide (write 1 to pass, (n << 1) | 1 to fail test n)",
                              image.path, value, r.pc));
    }
    result.end = BareMetalResult::End::kToHost;
    result.tohost = value;
    break;
  }
  result.cycles = core.cycles();
  result.instret = core.instret();
  return result;
}

}  // namespace tern::gpsimd
