#include "gpsimd/rtl_backend.h"

#include <fmt/format.h>

#include "common/error.h"
#include "gpsimd_rtl.h"

namespace tern::gpsimd {

BareMetalResult run_bare_metal_rtl(const ElfImage& image, RtlMode mode, uint64_t max_cycles,
                                   const RetireHook& on_retire, const HostWrites& writes, const std::string& waves) {
  if (image.single_float_abi) {
    throw Error(fmt::format("{}: built for the F extension's ABI (ilp32f), and the RTL cores have no F unit "
                            "yet: build it with -march=rv32im -mabi=ilp32 (docs/gpsimd.md)", image.path));
  }
  CoreConfig config;
  config.has_f = false;  // the RTL as it is
  const uint32_t tohost = tohost_address(image, tb::GpsimdRtl::kMemBase, tb::GpsimdRtl::kMemBytes);
  tb::GpsimdRtl rtl;
  if (!waves.empty()) rtl.trace(waves);
  Core iss(config);
  load_segments(image, [&](uint32_t addr, const std::vector<uint8_t>& bytes) {
    rtl.write_memory(addr, bytes);
    if (mode == RtlMode::kCross) iss.write_memory(addr, bytes);
  }, writes);
  rtl.start(image.entry);
  iss.set_pc(image.entry);
  // Cycles as the ISS counts them: in lock-step the ISS's own; on the RTL alone its clock, which
  // is the ISS's count at a retire and one more at an exception (seen the cycle after EX).
  Machine m{[&rtl] { return rtl.step(); }, [&rtl] { return rtl.cycles(); }, [] { return uint64_t(0); }};
  uint64_t retired = 0;
  if (mode == RtlMode::kCross) {
    m.cycles = [&iss] { return iss.cycles(); };
    m.step = [&] {
      const uint64_t iss_cycle = iss.cycles();
      const Core::Step s = iss.step();
      const std::string diff = tb::compare_step(s, iss_cycle, rtl.next(tb::GpsimdRtl::kMaxCyclesPerInstruction));
      if (!diff.empty()) throw Error(fmt::format("{}: RTL and ISS differ at instruction {}: {}", image.path, retired, diff));
      return s;
    };
  }
  const RetireHook count = [&](const Retire& r) {
    ++retired;
    if (on_retire) on_retire(r);
  };
  m.instret = [&retired] { return retired; };
  BareMetalResult result = run_to_tohost(m, image, tohost, max_cycles, count);
  if (mode == RtlMode::kRtl && result.end == BareMetalResult::End::kException) result.cycles -= 1;
  if (rtl.assertion_failed()) throw Error(fmt::format("{}: an RTL assertion failed (see above)", image.path));
  return result;
}

}  // namespace tern::gpsimd
