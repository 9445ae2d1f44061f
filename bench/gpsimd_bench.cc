// tern_bench_gpsimd: one GPSIMD core's RTL on the bare-metal test programs, in lock-step with
// the ISS (so each figure is checked as it is measured), as a JSON list of records in
// <out>/gpsimd.json: per program, the simulated cycles and instructions retired, the
// instructions per cycle (the core's roofline is one per cycle: roofline_fraction is the IPC),
// the ISS's cycle count (equal by construction: the lock-step compares every EX cycle) and the
// host's simulation rate; and per library operator (tern_gpsimd_ops.h, run by
// tests/gpsimd/ops_program.c on 16 partitions of 32 elements, the RTL in lock-step), the
// operator's cycles and cycles per element. --quick runs the smallest program and one operator
// (CTest keeps the bench from rotting).
#include <fmt/format.h>

#include <chrono>
#include <string>
#include <vector>

#include "bench_json.h"
#include "cmdline.h"
#include "gpsimd/elf_image.h"
#include "gpsimd/rtl_backend.h"
#include "gpsimd/ops_job_host.h"

namespace {

using namespace tern;  // NOLINT(google-build-using-namespace): the bench's own file

// A record's identity: which bench, what it ran, on the RTL in lock-step with the ISS.
bench::Record record(const char* bench, const char* what, const std::string& name) {
  bench::Record r;
  r["bench"] = bench;
  r[what] = name;
  r["config"] = "gpsimd_core";
  r["backend"] = "cross";
  return r;
}

// One library operator on 16 partitions of 32 elements: its cycles (the program reads the cycle
// CSR around the call), measured on the ISS and checked by the RTL in lock-step.
bench::Record op_record(const std::string& programs, const char* name, uint32_t op) {
  const gpsimd::ElfImage image = gpsimd::load_elf_file(programs + "/ops_program_rv32im.elf");
  test::gpsimd_ops::Job j;
  j.op = op;
  j.partitions = 16;
  j.n = 32;
  j.k = op == TERN_OP_TOPK ? 8 : 32;
  j.stride = 4 * 32;
  j.a = 0;
  j.b = 1;
  j.c = -1;
  const size_t words = j.partitions * j.n;
  uint32_t x = 12345;
  for (size_t w = 0; w < words; ++w) {
    x = x * 1103515245u + 12345u;  // any values: the operators' costs do not depend on them much
    j.in.push_back(0x3F800000u ^ (x >> 9));
    j.idx.push_back((x >> 16) % 32);
    j.out.push_back(0);
  }
  const uint32_t io = *image.symbol("tern_io");
  const gpsimd::HostWrites writes = test::gpsimd_ops::job_writes(j, io);
  gpsimd::Core iss(gpsimd::CoreConfig{});
  const gpsimd::BareMetalResult golden = gpsimd::run_bare_metal(iss, image, 100'000'000, {}, writes);
  const gpsimd::BareMetalResult rtl = gpsimd::run_bare_metal_rtl(image, gpsimd::RtlMode::kCross, 100'000'000, {}, writes);
  if (!golden.passed() || !rtl.passed() || iss.read_word(io + 4 * TERN_JOB_STATUS) != 0) {
    throw Error(fmt::format("{}: the operator's run failed: {}", name, rtl.summary()));
  }
  const uint32_t cycles = iss.read_word(io + 4 * TERN_JOB_CYCLES);
  bench::Record r = record("gpsimd_op", "op", name);
  r["partitions"] = j.partitions;
  r["n"] = j.n;
  r["k"] = j.k;
  r["cycles"] = cycles;
  r["cycles_per_element"] = double(cycles) / double(words);
  fmt::print("{:20} {:>10} cycles  {:.2f} cycles per element\n", name, cycles, double(cycles) / double(words));
  return r;
}

}  // namespace

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
      bench::Record r = record("gpsimd_program", "program", name);
      r["cycles"] = rtl.cycles;
      r["instructions_retired"] = rtl.instret;
      r["ipc"] = ipc;
      r["roofline_fraction"] = ipc;
      r["golden_cycles"] = golden.cycles;
      r["sim_cycles_per_s"] = double(rtl.cycles) / seconds;
      fmt::print("{:20} {:>10} cycles {:>10} instructions  IPC {:.3f}  (ISS {} cycles)\n", name, rtl.cycles,
                 rtl.instret, ipc, golden.cycles);
      records.push_back(std::move(r));
    }
    const std::pair<const char*, uint32_t> ops[] = {{"iota", TERN_OP_IOTA},         {"affine_select", TERN_OP_AFFINE_SELECT},
                                                    {"gather", TERN_OP_GATHER},     {"scatter", TERN_OP_SCATTER},
                                                    {"topk_8", TERN_OP_TOPK},       {"bitonic_sort", TERN_OP_SORT},
                                                    {"user_cumsum_softfloat", TERN_OP_CUMSUM}};
    for (const auto& [name, op] : ops) {
      records.push_back(op_record(programs, name, op));
      if (quick) break;
    }
    bench::write_records(out_dir, "gpsimd.json", records);
    return 0;
  } catch (const std::exception& e) {
    fmt::print(stderr, "tern_bench_gpsimd: error: {}\n", e.what());
    return 1;
  }
}
