// tern_sim_fp: the waveform regression bench of the numerics blocks. Runs one scenario on the
// verilated RTL, checks every result against the golden model, optionally dumps FST waves, and
// ends with an explicit PASS or FAIL line (the regression runner requires both a clean exit
// and the PASS line).
#include <fmt/format.h>

#include <cstdlib>
#include <functional>
#include <map>
#include <random>
#include <string>

#include "common/config.h"
#include "common/error.h"
#include "fp_blocks.h"
#include "mac_lane.h"
#include "numerics/sr_rng.h"
#include "verdict.h"

namespace tern {
namespace {

struct Args {
  std::string scenario;
  uint64_t seed = 1;
  uint64_t vectors = 10000;
  std::string waves;   // FST path; empty: no waves
  std::string config;  // config YAML the run is sized by
};

struct Outcome {
  uint64_t checked = 0;
  uint64_t cycles = 0;
  uint64_t errors = 0;
};

void report_mismatch(Outcome& out, const std::string& what) {
  if (++out.errors <= 10) fmt::print("ERROR: {}\n", what);
}

constexpr Dtype kMacTypes[] = {Dtype::kBf16, Dtype::kFp16, Dtype::kFp8E4M3, Dtype::kFp8E5M2,
                               Dtype::kTf32};
constexpr Dtype kFloatTargets[] = {Dtype::kTf32, Dtype::kBf16, Dtype::kFp16, Dtype::kFp8E4M3,
                                   Dtype::kFp8E5M2};

uint32_t operand(Dtype t, std::mt19937_64& rng) {
  const auto r = static_cast<uint32_t>(rng());
  return t == Dtype::kTf32 ? (r & 0xFFFFE000u) : (r & ((1u << dtype_bits(t)) - 1));
}

Outcome fp32_add_scenario(const Args& a, std::mt19937_64& rng) {
  tb::RtlFp rtl;
  if (!a.waves.empty()) rtl.trace(tb::RtlFp::Block::kFp32Add, a.waves);
  Outcome out;
  for (; out.checked < a.vectors; ++out.checked) {
    const auto x = static_cast<uint32_t>(rng());
    auto y = static_cast<uint32_t>(rng());
    if (out.checked % 2) y = (y & 0x807FFFFFu) | (x & 0x7F800000u);  // same binade: cancellation
    const uint32_t got = rtl.fp32_add(x, y), want = fp32_add(x, y);
    if (got != want) report_mismatch(out, fmt::format("{:08X} + {:08X}: rtl {:08X} golden {:08X}", x, y, got, want));
  }
  out.cycles = out.checked;
  return out;
}

Outcome mac_scenario(const Args& a, std::mt19937_64& rng) {
  tb::RtlFp rtl;
  if (!a.waves.empty()) rtl.trace(tb::RtlFp::Block::kMac, a.waves);
  Outcome out;
  for (; out.checked < a.vectors; ++out.checked) {
    const Dtype ta = kMacTypes[rng() % 5], tb = kMacTypes[rng() % 5];
    const uint32_t x = operand(ta, rng), y = operand(tb, rng);
    const auto acc = static_cast<uint32_t>(rng());
    const uint32_t got = rtl.mac_step(acc, ta, x, tb, y), want = mac_step(acc, ta, x, tb, y);
    if (got != want) {
      report_mismatch(out, fmt::format("{:08X} + {}:{:X} * {}:{:X}: rtl {:08X} golden {:08X}", acc,
                                       dtype_name(ta), x, dtype_name(tb), y, got, want));
    }
  }
  out.cycles = out.checked;
  return out;
}

// Stochastic and nearest-even down-conversion, the SR draws coming from the RTL generator
// (for the RTL) and from the golden generator (for the model): the whole SR path is checked.
Outcome downconvert_scenario(const Args& a, std::mt19937_64& rng) {
  tb::RtlFp rtl;
  if (!a.waves.empty()) rtl.trace(tb::RtlFp::Block::kDownConvert, a.waves);
  const auto seed = static_cast<uint32_t>(a.seed);
  tb::RtlSrRng rtl_rng(5);
  rtl_rng.seed(seed);
  SrRng golden_rng(seed, 5);
  Outcome out;
  for (; out.checked < a.vectors; ++out.checked) {
    const Dtype t = kFloatTargets[rng() % 5];
    const ConvertMode mode{(rng() & 1) ? Rounding::kStochastic : Rounding::kNearestEven,
                           static_cast<bool>(rng() & 2)};
    const auto x = static_cast<uint32_t>(rng());
    const bool sr = mode.rounding == Rounding::kStochastic;
    const uint32_t r_rtl = sr ? rtl_rng.draw() : 0;
    const uint32_t r_gold = sr ? golden_rng.draw() : 0;
    const uint32_t got = rtl.convert_from_fp32(t, x, mode, r_rtl);
    const uint32_t want = convert_from_fp32(t, x, mode, r_gold);
    if (got != want) {
      report_mismatch(out, fmt::format("{:08X} -> {} sr={} sat={}: rtl {:X} golden {:X}", x,
                                       dtype_name(t), sr, mode.saturate, got, want));
    }
  }
  out.cycles = out.checked;
  return out;
}

Outcome upconvert_scenario(const Args& a, std::mt19937_64&) {
  tb::RtlFp rtl;
  if (!a.waves.empty()) rtl.trace(tb::RtlFp::Block::kUpConvert, a.waves);
  Outcome out;
  for (Dtype t : {Dtype::kBf16, Dtype::kFp16, Dtype::kFp8E4M3, Dtype::kFp8E5M2}) {
    for (uint32_t x = 0; x < (1u << dtype_bits(t)); ++x, ++out.checked) {
      const uint32_t got = rtl.convert_to_fp32(t, x), want = convert_to_fp32(t, x);
      if (got != want) report_mismatch(out, fmt::format("{} {:X}: rtl {:08X} golden {:08X}", dtype_name(t), x, got, want));
    }
  }
  out.cycles = out.checked;
  return out;
}

Outcome mac_lane_scenario(const Args& a, std::mt19937_64& rng, uint32_t max_len) {
  std::vector<std::vector<tb::MacElement>> vectors;
  uint64_t elements = 0;
  while (elements < a.vectors) {
    const Dtype ta = kMacTypes[rng() % 4], tb = kMacTypes[rng() % 4];
    std::vector<tb::MacElement> v(1 + rng() % max_len);
    for (auto& e : v) e = {ta, operand(ta, rng) & 0xBFFFu, tb, operand(tb, rng)};
    elements += v.size();
    vectors.push_back(std::move(v));
  }
  tb::RtlMacLane lane;
  if (!a.waves.empty()) lane.trace(a.waves);
  lane.set_backpressure(static_cast<uint32_t>(a.seed));
  const std::vector<uint32_t> got = lane.run(vectors, 2 * tb::kMacLaneElementCycles * elements + 100);
  Outcome out;
  for (size_t i = 0; i < vectors.size(); ++i, ++out.checked) {
    const uint32_t want = tb::golden_dot(vectors[i]);
    if (got[i] != want) report_mismatch(out, fmt::format("dot {}: rtl {:08X} golden {:08X}", i, got[i], want));
  }
  if (lane.dtype_error()) report_mismatch(out, "dtype error raised on legal operands");
  out.cycles = lane.cycles();
  return out;
}

Outcome sr_rng_scenario(const Args& a, std::mt19937_64& rng) {
  Outcome out;
  for (uint32_t lane = 0; lane < 8; ++lane) {
    tb::RtlSrRng rtl(lane);
    if (!a.waves.empty() && lane == 0) rtl.trace(a.waves);
    const auto seed = static_cast<uint32_t>(rng());
    rtl.seed(seed);
    SrRng golden(seed, lane);
    for (uint64_t i = 0; i < a.vectors / 8; ++i, ++out.checked, out.cycles += 2) {
      const uint32_t got = rtl.draw(), want = golden.draw();
      if (got != want) report_mismatch(out, fmt::format("lane {} draw {}: rtl {:08X} golden {:08X}", lane, i, got, want));
    }
  }
  return out;
}

Args parse(int argc, char** argv) {
  const sim::BenchArgs b(argc, argv, {{"--scenario", ""}, {"--vectors", "10000"}});
  Args a;
  a.scenario = b.text("--scenario");
  a.seed = b.seed;
  a.vectors = b.number("--vectors");
  a.waves = b.waves;
  a.config = b.config;
  return a;
}

}  // namespace
}  // namespace tern

int main(int argc, char** argv) {
  using namespace tern;
  return sim::run_bench([&] {
    const Args a = parse(argc, argv);
    std::optional<CoreConfig> cfg;
    if (!a.config.empty()) cfg = load_config(a.config);
    const uint32_t lane_len = cfg ? cfg->pe_rows : 8;  // one dot product per array column
    const std::map<std::string, std::function<Outcome(const Args&, std::mt19937_64&)>> scenarios = {
        {"fp32_add", fp32_add_scenario},
        {"mac", mac_scenario},
        {"downconvert", downconvert_scenario},
        {"upconvert", upconvert_scenario},
        {"mac_lane", [&](const Args& x, std::mt19937_64& r) { return mac_lane_scenario(x, r, lane_len); }},
        {"sr_rng", sr_rng_scenario},
    };
    const auto it = scenarios.find(a.scenario);
    if (it == scenarios.end()) {
      std::string known;
      for (const auto& [name, fn] : scenarios) known += " " + name;
      throw Error(fmt::format("unknown scenario '{}'; known:{}", a.scenario, known));
    }
    fmt::print("scenario {} seed {} vectors {} config {} waves {}\n", a.scenario, a.seed, a.vectors,
               cfg ? cfg->name : "-", a.waves.empty() ? "off" : a.waves);
    std::mt19937_64 rng(a.seed);
    const Outcome out = it->second(a, rng);
    fmt::print("checked {} results in {} cycles, {} mismatches\n", out.checked, out.cycles, out.errors);
    sim::Verdict v{out.cycles, {}};
    if (out.errors != 0) v.errors.push_back(fmt::format("{} mismatches", out.errors));
    if (out.checked == 0) v.errors.push_back("nothing was checked");
    return v;
  });
}
