// tern_bench_pe_gemm: the Tensor Engine under the command stream of a tiled GEMM,
// C[M][N] = A[M][K] @ B[K][N] (bf16, and one full-size matmul per dtype on trn2), fp32 PSUM:
// for every (m-tile, n-tile), the
// K/R stationary tiles A^T[k-tile][m-tile] are loaded and multiplied with B[k-tile][n-tile],
// accumulating in one PSUM bank. Reports measured cycles, the ideal (useful MACs / (R*C)), the
// utilisation and the simulation speed, checks sampled results against the golden fold and
// the cycle count against the model's estimate, and writes build/bench/pe_gemm.json.
#include <fmt/format.h>

#include <chrono>
#include <random>

#include "bench_json.h"
#include "cmdline.h"
#include "common/error.h"
#include "numerics/numerics.h"
#include "pe_check.h"
#include "tensor_models.h"

namespace {

using namespace tern;

struct Record {
  std::string config;
  Dtype dtype;
  uint32_t m, k, n;
  uint64_t cycles, ideal, estimate;
  double sim_cycles_per_s;
  uint64_t checked;
};

Record run_gemm(const CoreConfig& cfg, uint32_t M, uint32_t K, uint32_t N, uint32_t n_tile, Dtype dt) {
  const uint32_t R = cfg.pe_rows, C = cfg.pe_cols;
  if (M % C || K % R || N % n_tile) throw Error("GEMM sizes must be multiples of the tiles");
  std::mt19937_64 rng(2026);
  // A^T (K x M) and B (K x N) as bit patterns of dtype dt.
  const Tile at = tb::random_tile(dt, K, M, rng);
  const Tile b = tb::random_tile(dt, K, N, rng);
  std::vector<tb::PeOpItem> ops;
  struct Out { uint32_t mt, nt, bank; };
  std::vector<Out> outs;
  uint32_t group = 0;
  for (uint32_t mt = 0; mt < M / C; ++mt) {
    for (uint32_t nt = 0; nt < N / n_tile; ++nt, ++group) {
      const uint32_t bank = group % cfg.psum_banks;
      for (uint32_t kt = 0; kt < K / R; ++kt) {
        Tile st(R, std::vector<uint32_t>(C)), mv(R, std::vector<uint32_t>(n_tile));
        for (uint32_t k = 0; k < R; ++k) {
          for (uint32_t m = 0; m < C; ++m) st[k][m] = at[kt * R + k][mt * C + m];
          for (uint32_t n = 0; n < n_tile; ++n) mv[k][n] = b[kt * R + k][nt * n_tile + n];
        }
        ops.push_back({{PeOp::kLoadStationary, dt, R, C}, std::move(st)});
        ops.push_back({{PeOp::kMultiplyMoving, dt, 0, 0, n_tile, bank, 0, kt > 0}, std::move(mv)});
      }
      outs.push_back({mt, nt, bank});
    }
  }
  std::vector<PeCommand> cmds;
  for (const auto& op : ops) cmds.push_back(op.cmd);
  const std::vector<PeError> no_errors(ops.size(), PeError::kNone);

  return tb::with_tensor_model(cfg, [&](auto* tag) {
    using Model = std::remove_pointer_t<decltype(tag)>;
    tb::RtlTensorUnit<Model> rtl(cfg);
    const auto start = std::chrono::steady_clock::now();
    const uint64_t cycles = rtl.run(ops, no_errors, 1'000'000'000);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // The last group per bank is still in PSUM: check sampled elements against the golden fold
    // (k ascending inside a tile, tiles added to PSUM in order).
    uint64_t checked = 0;
    std::mt19937_64 pick(7);
    for (size_t g = outs.size() > cfg.psum_banks ? outs.size() - cfg.psum_banks : 0; g < outs.size(); ++g) {
      for (int s = 0; s < 4; ++s) {
        const uint32_t m = static_cast<uint32_t>(pick() % C), n = static_cast<uint32_t>(pick() % n_tile);
        // The golden engine on this one output column: the same tiles, the same PSUM order.
        TensorEngine pe(cfg);
        Psum psum_model(cfg);
        for (uint32_t kt = 0; kt < K / R; ++kt) {
          Tile st(R, std::vector<uint32_t>(1)), mv(R, std::vector<uint32_t>(1));
          for (uint32_t k = 0; k < R; ++k) {
            st[k][0] = at[kt * R + k][outs[g].mt * C + m];
            mv[k][0] = b[kt * R + k][outs[g].nt * n_tile + n];
          }
          pe.load_stationary({PeOp::kLoadStationary, dt, R, 1}, st);
          pe.multiply_moving({PeOp::kMultiplyMoving, dt, 0, 0, 1, 0, 0, kt > 0}, mv, psum_model);
        }
        const uint32_t psum = psum_model.read(0, 0);
        const uint32_t got = rtl.read_psum(outs[g].bank * (cfg.psum_bank_bytes / 4) + n)[m];
        if (got != psum) {
          throw Error(fmt::format("{} GEMM: C[{}][{}] rtl {:08X} golden {:08X}", cfg.name,
                                  outs[g].mt * C + m, outs[g].nt * n_tile + n, got, psum));
        }
        ++checked;
      }
    }
    // Useful MACs / (R * C): an fp32 matmul is three passes, so its ideal counts them.
    const uint64_t passes = dt == Dtype::kFp32 ? 3 : 1;
    const uint64_t ideal = passes * M * K * N / (uint64_t{R} * C);
    return Record{cfg.name, dt, M, K, N, cycles, ideal, estimate_cycles(cmds, cfg), cycles / wall, checked};
  });
}

}  // namespace

int main(int argc, char** argv) {
  try {
    std::string out_dir = "build/bench", config_dir = "configs";
    bool quick = false;
    CLI::App app{"tern_bench_pe_gemm: the Tensor Engine's GEMM utilisation, into <out>/pe_gemm.json"};
    app.add_option("--out", out_dir, "the JSON's directory")->capture_default_str();
    app.add_option("--configs", config_dir, "the configs' directory")->capture_default_str();
    app.add_flag("--quick", quick, "small sizes only: a smoke test of the bench");
    if (int status = 0; !tern::cli::parse(app, argc, argv, status)) return status;
    struct Case { const char* config; uint32_t m, k, n, n_tile; Dtype dt; };
    std::vector<Case> cases = quick
        ? std::vector<Case>{{"tiny", 64, 64, 1024, 512, Dtype::kBf16}, {"small", 64, 64, 512, 512, Dtype::kBf16}}
        : std::vector<Case>{{"trn2", 1024, 1024, 1024, 512, Dtype::kBf16},
                            {"small", 1024, 1024, 1024, 512, Dtype::kBf16},
                            {"trn2", 1024, 1024, 128, 128, Dtype::kBf16}};
    // One full-size matmul (128 x 128 x 512) per dtype on trn2.
    if (!quick) {
      for (Dtype t : tb::kPeDtypes) cases.push_back({"trn2", 128, 128, 512, 512, t});
    }
    std::vector<Record> records;
    for (const Case& c : cases) {
      const CoreConfig cfg = load_config(config_dir + "/" + c.config + ".yaml");
      records.push_back(run_gemm(cfg, c.m, c.k, c.n, c.n_tile, c.dt));
      const Record& r = records.back();
      fmt::print("{:<6} {:>5} x {:>5} x {:>5} {:<7}: {:>9} cycles, ideal {:>9}, utilisation {:.4f}, "
                 "estimate {:>9}, {:.0f} sim cycles/s, {} results checked\n",
                 r.config, r.m, r.k, r.n, dtype_name(r.dtype), r.cycles, r.ideal, double(r.ideal) / r.cycles, r.estimate,
                 r.sim_cycles_per_s, r.checked);
      if (r.cycles != r.estimate) throw Error("measured cycles differ from the model's estimate");
    }
    std::vector<bench::Record> json;
    for (const Record& r : records) {
      json.push_back({{"config", r.config}, {"M", r.m}, {"K", r.k}, {"N", r.n}, {"dtype", dtype_name(r.dtype)},
                      {"cycles", r.cycles}, {"ideal_cycles", r.ideal}, {"utilization", double(r.ideal) / r.cycles},
                      {"estimated_cycles", r.estimate}, {"sim_cycles_per_s", r.sim_cycles_per_s}});
    }
    bench::write_records(out_dir, "pe_gemm.json", json);
    return 0;
  } catch (const std::exception& e) {
    fmt::print(stderr, "tern_bench_pe_gemm: error: {}\n", e.what());
    return 1;
  }
}
