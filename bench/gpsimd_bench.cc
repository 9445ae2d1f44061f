// tern_bench_gpsimd: one GPSIMD core's RTL on the bare-metal test programs, in lock-step with
// the ISS (so each figure is checked as it is measured), as a JSON list of records in
// <out>/gpsimd.json: per program, the simulated cycles and instructions retired, the
// instructions per cycle (the core's roofline is one per cycle: roofline_fraction is the IPC),
// the ISS's cycle count (equal by construction: the lock-step compares every EX cycle) and the
// host's simulation rate. --quick runs the smallest program only (CTest keeps the bench from
// rotting). Library operators' cycles per element join when they exist (docs/gpsimd.md).
#include <fmt/format.h>

#include <chrono>
#include <string>
#include <vector>

#include "bench_json.h"
#include "cmdline.h"
#include "gpsimd/elf_image.h"
#include "gpsimd/rtl_backend.h"

int main(int argc, char** argv) {
  using namespace tern;
  try {
    std::string out_dir = "build/bench";
    std::string programs = "build/tests/gpsimd";
    bool quick = false;
    CLI::App app{"tern_bench_gpsimd: GPSIMD core cycles and IPC on the test programs, into <out>/gpsimd.json"};
    app.add_option("--out", out_dir, "the JSON's directory")->capture_default_str();
    app.add_option("--programs", programs, "the directory of the RV32IM test programs (tests/gpsimd)")
        ->capture_default_str();
    app.add_flag("--quick", quick, "the smallest program only: a smoke test of the bench");
    if (int status = 0; !cli::parse(app, argc, argv, status)) return status;
    std::vector<std::string> names{"classes_rv32im"};
    if (!quick) names.push_back("c_program_rv32im");
    std::vector<bench::Record> records;
    for (const std::string& name : names) {
      const gpsimd::ElfImage image = gpsimd::load_elf_file(programs + "/" + name + ".elf");
      gpsimd::Core iss(gpsimd::CoreConfig{});
      const gpsimd::BareMetalResult golden = gpsimd::run_bare_metal(iss, image, 100'000'000);
      const auto start = std::chrono::steady_clock::now();
      const gpsimd::BareMetalResult rtl = gpsimd::run_bare_metal_rtl(image, gpsimd::RtlMode::kCross, 100'000'000);
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (!rtl.passed()) throw Error(fmt::format("{}: {}", name, rtl.summary()));
      const double ipc = double(rtl.instret) / double(rtl.cycles);
      bench::Record r;
      r["bench"] = "gpsimd_program";
      r["program"] = name;
      r["config"] = "gpsimd_core";
      r["backend"] = "cross";
      r["cycles"] = rtl.cycles;
      r["instructions"] = rtl.instret;
      r["ipc"] = ipc;
      r["roofline_fraction"] = ipc;
      r["golden_cycles"] = golden.cycles;
      r["sim_cycles_per_second"] = double(rtl.cycles) / seconds;
      fmt::print("{:20} {:>10} cycles {:>10} instructions  IPC {:.3f}  (ISS {} cycles)\n", name, rtl.cycles,
                 rtl.instret, ipc, golden.cycles);
      records.push_back(std::move(r));
    }
    bench::write_records(out_dir, "gpsimd.json", records);
    return 0;
  } catch (const std::exception& e) {
    fmt::print(stderr, "tern_bench_gpsimd: error: {}\n", e.what());
    return 1;
  }
}
