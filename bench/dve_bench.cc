// tern_bench_dve: Vector Engine cycles per instruction against the free size n, one instruction
// at a time on an idle engine with no stream gaps, for the tiny and small configs. Each
// record gives the cycles from the command's first cycle until the engine is idle, the cycle
// of the first result beat, and the start cost (cycles - n for element-wise instructions).
// Results are checked against the golden model. Writes <out>/dve.json (a JSON list).
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "common/error.h"
#include "dve_check.h"

int main(int argc, char** argv) {
  using namespace tern;
  try {
    std::string out_dir = "build/bench", configs = TERN_CONFIG_DIR;
    bool quick = false;
    for (int i = 1; i < argc; ++i) {
      const std::string k = argv[i];
      auto value = [&]() -> std::string {
        if (i + 1 >= argc) throw Error(fmt::format("option {} needs a value", k));
        return argv[++i];
      };
      if (k == "--out") out_dir = value();
      else if (k == "--configs") configs = value();
      else if (k == "--quick") quick = true;
      else throw Error(fmt::format("unknown option '{}'", k));
    }
    std::vector<uint32_t> sizes = {1, 8, 64, 512, 4096};
    if (quick) sizes = {1, 64};
    const DveOp ops[] = {DveOp::kTensorTensor, DveOp::kTensorScalar, DveOp::kTensorReduce, DveOp::kTensorCopy,
                         DveOp::kTensorTensorScan, DveOp::kBnStats, DveOp::kMax8, DveOp::kTranspose};
    std::string json = "[\n";
    bool first = true, ok = true;
    for (const char* name : {"tiny", "small"}) {
      const CoreConfig cfg = load_config(configs + "/" + name + ".yaml");
      tb::with_dve_model(cfg, [&](auto* tag) {
        using Model = std::remove_pointer_t<decltype(tag)>;
        std::mt19937_64 rng(2026);
        for (DveOp op : ops) {
          for (uint32_t n0 : sizes) {
            DveCommand c;
            c.op = op;
            c.alu0 = DveAlu::kAdd;
            c.alu1 = DveAlu::kMultiply;
            c.in0 = c.in1 = Dtype::kBf16;
            c.out = Dtype::kBf16;
            c.imm0 = 0x3F800000u;
            c.imm1 = 0x40000000u;
            const uint32_t B = cfg.partitions < 32 ? cfg.partitions : 32;
            c.n = op == DveOp::kTranspose ? std::max(B, n0 / B * B) : op == DveOp::kMax8 ? std::max(8u, n0) : n0;
            if (op == DveOp::kBnStats) c.in0 = c.out = Dtype::kFp32;
            tb::RtlDve<Model> rtl(cfg);
            VectorEngine golden(cfg);
            const tb::DveCheck r = tb::run_and_check(rtl, golden, {tb::make_item(c, cfg.partitions, rng)}, 10'000'000);
            if (r.mismatches) {
              fmt::print(stderr, "MISMATCH {}: {}\n", dve_op_name(op), r.first_mismatch);
              ok = false;
            }
            const int64_t start_cost = static_cast<int64_t>(r.cycles) - static_cast<int64_t>(c.n);
            fmt::print("{:6} {:22} n {:5}: {:6} cycles, first result at cycle {}, cycles - n = {}\n", name,
                       dve_op_name(op), c.n, r.cycles, r.first_out_cycle, start_cost);
            json += fmt::format("{}  {{\"engine\": \"dve\", \"config\": \"{}\", \"op\": \"{}\", \"n\": {}, \"cycles\": {}, "
                                "\"first_result_cycle\": {}, \"cycles_minus_n\": {}}}",
                                first ? "" : ",\n", name, dve_op_name(op), c.n, r.cycles, r.first_out_cycle, start_cost);
            first = false;
          }
        }
        return 0;
      });
    }
    json += "\n]\n";
    std::filesystem::create_directories(out_dir);
    std::ofstream(out_dir + "/dve.json") << json;
    fmt::print("wrote {}/dve.json\n", out_dir);
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    fmt::print(stderr, "tern_bench_dve: {}\n", e.what());
    return 1;
  }
}
