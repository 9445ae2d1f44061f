// tern_bench_mac_lane: cycle benchmark of the MAC lane (the PE's step in a loop). Reports
// simulated cycles, lane utilisation (MACs / cycles: at most 1 / tb::kMacLaneElementCycles, as
// each element waits for the sum before it) with and without result back-pressure, and the
// simulation speed, as JSON under <out>/mac_lane.json. Figures come from the simulation's cycle
// count; wall time is only used for the simulation-speed figure, which is labelled as such.
#include <fmt/format.h>

#include <chrono>
#include <random>

#include "bench_json.h"
#include "common/error.h"
#include "mac_lane.h"
#include "cmdline.h"

namespace {

struct Figure {
  std::string name;
  uint64_t macs;
  uint64_t cycles;
  double wall_s;
};

Figure measure(const std::string& name, size_t vectors, size_t length, bool backpressure) {
  using tern::Dtype;
  std::mt19937_64 rng(7);
  std::vector<std::vector<tern::tb::MacElement>> work(vectors, std::vector<tern::tb::MacElement>(length));
  uint64_t macs = 0;
  for (auto& v : work) {
    for (auto& e : v) e = {Dtype::kBf16, static_cast<uint32_t>(rng() & 0xBFFF), Dtype::kBf16, static_cast<uint32_t>(rng() & 0xFFFF)};
    macs += v.size();
  }
  tern::tb::RtlMacLane lane;
  if (backpressure) lane.set_backpressure(11);
  const auto start = std::chrono::steady_clock::now();
  const auto results = lane.run(work, 100 * macs);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (size_t i = 0; i < work.size(); ++i) {
    if (results[i] != tern::tb::golden_dot(work[i])) throw tern::Error(fmt::format("{}: result {} differs from golden", name, i));
  }
  return {name, macs, lane.cycles(), wall};
}

}  // namespace

int main(int argc, char** argv) {
  try {
    std::string out_dir = "build/bench";
    CLI::App app{"tern_bench_mac_lane: the MAC lane's cycles and utilisation, into <out>/mac_lane.json"};
    app.add_option("--out", out_dir, "the JSON's directory")->capture_default_str();
    if (int status = 0; !tern::cli::parse(app, argc, argv, status)) return status;
    const std::vector<Figure> figures = {
        measure("bf16_dot128_streaming", 2000, 128, false),
        measure("bf16_dot8_streaming", 20000, 8, false),
        measure("bf16_dot128_backpressure_25pct", 2000, 128, true),
    };
    std::vector<tern::bench::Record> records;
    for (const Figure& f : figures) {
      const double util = static_cast<double>(f.macs) / static_cast<double>(f.cycles);
      fmt::print("{:<34} {:>9} MACs {:>9} cycles  utilisation {:6.2f}%  sim speed {:.0f} cycles/s\n",
                 f.name, f.macs, f.cycles, 100 * util, f.cycles / f.wall_s);
      records.push_back({{"name", f.name}, {"macs", f.macs}, {"cycles", f.cycles}, {"utilisation", util},
                         {"sim_cycles_per_wall_second", f.cycles / f.wall_s}});
    }
    tern::bench::write_records(out_dir, "mac_lane.json", records);
    return 0;
  } catch (const std::exception& e) {
    fmt::print(stderr, "tern_bench_mac_lane: error: {}\n", e.what());
    return 1;
  }
}
