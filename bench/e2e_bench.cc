// tern_bench_e2e: end-to-end benchmarks of the NeuronCore RTL in the SystemC TLM-2.0 platform
// (tb/platform/), every figure in simulated cycles, every run checked against the golden model
// (end compare; a mismatch fails the bench). Writes, under --out:
//   e2e_gemm.json   tiled GEMM with its DMA from HBM: the keys of pe_gemm.json plus
//                   hbm_latency, dma_bytes (both sides of every transfer), hbm_bytes and the
//                   HBM bandwidth used (read and write channels together) against the port's,
//                   and the PE sequencer's cycles per instruction and waiting (pe_cycles), with
//                   each run's Perfetto trace next to it (e2e_gemm_<config>_<shape>_*.trace.json);
//   dma.json        HBM -> SBUF and SBUF -> HBM copies of 128 partitions' rows x 2..32 KiB at
//                   several HBM latencies: each direction's cycles and its efficiency (bytes
//                   moved / (cycles x AXI bytes per beat));
//   kernels.json    attention and layer norm: cycles and per-engine utilisation;
//   workloads.json  the workload suite (bench/workloads.yaml, bench/workloads.h): every run's
//                   golden estimate, and the RTL's cycles for the runs whose estimate is within
//                   --rtl-max-cycles, each with its roofline figures.
// (sim_speed.json, one and two Verilator threads, is tern_bench_sim_speed's.)
// Each file is a JSON list of records with a "config" key; a run replaces the records of its
// own config and keeps the others, so the small and trn2 runs share the files.
// tern_bench_e2e holds the tiny core and the small one when the build has it (TERN_SMALL_CORE:
// `make bench` turns it on and runs small; --config tiny for a quick look). tern_bench_e2e_trn2 is the same bench linked with the trn2 core as well (built by
// `make bench` only, rtl/CMakeLists.txt): --config trn2 runs the GEMM at kTrn2Gemm, HBM latency
// 200, as the trn2 core simulates a few hundred cycles per second (docs/performance.md).
// SystemC elaborates once, so the process holds one platform for all runs.
// The verilated models before <systemc> (see tb/platform/core_platform.cc).
#include "Vtern_core_tiny.h"
#include "built_configs.h"
#include "core_models.h"
#if TERN_SMALL_CORE
#include "Vtern_core_small.h"
#endif
#ifdef TERN_TRN2_CORE
#include "Vtern_core_trn2.h"
#include "platform/core_platform_impl.h"
#endif

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <systemc>
#include <vector>

#include "bench_json.h"
#include "isa/image.h"
#include "workloads.h"
#include "cmdline.h"
#include "common/error.h"
#include "stimulus/kernel_random.h"
#include "kernels/kernels.h"
#include "platform/platform_check.h"
#include "runtime/device.h"

#ifdef TERN_TRN2_CORE
namespace tern::tb {
template class CorePlatform<Vtern_core_trn2>;
}  // namespace tern::tb
#endif

namespace {

using namespace tern;

// The trn2 GEMM: the 1024^3, on gemm_at (the stationary operand given transposed, as
// NKI's matmul takes it), with an fp32 result and with a bf16 one (as NKI's tuned matmul, the
// goal's anchor, stores it). Under a hundred thousand cycles each at a few hundred cycles per
// second: about five minutes each on a free core; --gemm for another shape, --gemm-kernel for
// one kernel.
const char* const kTrn2Gemm = "m=1024,k=1024,n=1024";
// The steady-state GEMM on small: whole 32 x 32 tiles, N one PSUM bank.
const char* const kSmallBigGemm = "m=256,k=256,n=512";

struct Args {
  std::string out = "build/bench", configs = "configs", config = "small";
  std::string gemm;                  // --gemm m=..,k=..,n=..: that GEMM at latency 200 (default: per config)
  std::string gemm_kernel;  // --gemm-kernel: the kernel --gemm and trn2 run (default gemm_at;
                            // trn2: gemm_at and gemm_at_bf16)
  std::set<std::string> sections;    // --sections gemm,dma,kernels,workloads (default: per config)
  std::string suite = "bench/workloads.yaml";
  uint64_t rtl_max_cycles = 250000;  // workloads: the RTL runs those the golden model estimates within
  bool golden_only = false;          // workloads: the golden estimates alone (any config, no core model)
  bool quick = false;
};

template <typename Top>
tb::PlatformCompare run_checked(tb::CorePlatform<Top>& platform, const CoreConfig& cfg,
                                const stimulus::KernelImage& img, uint32_t latency) {
  platform.hbm().set_timing(0, {latency, cfg.axi_data_bits / 8});  // one beat a cycle
  tb::PlatformCompare c =
      tb::platform_compare(platform, cfg, img.program, img.hbm, img.regions, tb::CheckDepth::kEnd);
  if (!c.outcome.errors.empty())
    throw Error(fmt::format("{}: the RTL differs from the golden model: {}", img.recipe,
                            c.outcome.errors.front()));
  return c;
}

stimulus::KernelImage reference_image(const CoreConfig& cfg, const std::string& name, const kernels::Shape& s) {
  stimulus::KernelImage img = stimulus::reference_kernel_image(kernels::find_kernel(name), cfg, s, 1);
  img.recipe = fmt::format("{} {}", name, kernels::shape_text(s));
  return img;
}

// The DMA copy: 128 partitions' rows of bytes_per_partition, HBM -> SBUF, then back to
// HBM (fp32). On a config with fewer partitions the rows are P-row tiles, one dma_copy each, all
// loaded before any is stored (so as many tiles as SBUF holds: the rows actually moved are in the
// record); the kernel puts the copies on the DMA engines in turn, so they run at once, and each
// direction is measured alone (docs/decisions.md).
struct DmaCopy {
  stimulus::KernelImage img;
  uint32_t rows = 0;
};

// Cycles in which sequencer `agent` executed an instruction: the union of its slices on all of
// its timeline rows (`agent`, `agent.2`, ...: instructions that started while others still ran).
uint64_t busy_cycles(const std::vector<core::TraceEvent>& timeline, const std::string& agent) {
  std::vector<std::pair<uint64_t, uint64_t>> slices;
  for (const core::TraceEvent& e : timeline)
    if (core::on_sequencer(e, agent)) slices.emplace_back(e.start, e.end);
  std::sort(slices.begin(), slices.end());
  uint64_t busy = 0, covered = 0;  // covered: the end of the union so far
  for (const auto& [start, end] : slices) {
    if (end > std::max(start, covered)) busy += end - std::max(start, covered);
    covered = std::max(covered, end);
  }
  return busy;
}

DmaCopy dma_copy_image(const CoreConfig& cfg, uint32_t bytes_per_partition) {
  DmaCopy d;
  stimulus::KernelImage& img = d.img;
  img.k = std::make_unique<kernel::Kernel>(cfg, "dma_copy");
  kernel::Kernel& k = *img.k;
  const uint32_t P = cfg.partitions, cols = bytes_per_partition / 4;
  const uint32_t tiles = std::max(1u, std::min(std::max(1u, 128 / P), cfg.sbuf_partition_bytes / bytes_per_partition));
  d.rows = tiles * P;
  const auto& X = k.input("x", d.rows, cols, Dtype::kFp32);
  const auto& Y = k.output("y", d.rows, cols, Dtype::kFp32);
  auto pool = k.sbuf_pool("t", tiles);
  auto rows = [&](const kernel::HbmTensor& h, uint32_t i) {
    kernel::HbmView v;
    v.tensor = &h;
    v.row0 = i * P;
    v.nrows = P;
    v.ncols = cols;
    return v;
  };
  std::vector<kernel::Tile> t;
  for (uint32_t i = 0; i < tiles; ++i) {
    t.push_back(pool.tile(P, cols, Dtype::kFp32, fmt::format("t{}", i)));
    k.dma_copy(k.all(t.back()), rows(X, i));
  }
  // Each direction alone: every store waits for every load. The Vector Engine reads a column of
  // each loaded tile into PSUM, then writes it back (the same values), in order, so each store,
  // which waits for the write to its tile, starts after the last load has ended.
  auto scratch = k.psum_pool("s", 1).tile(P, tiles, Dtype::kFp32, "s");
  for (uint32_t i = 0; i < tiles; ++i) k.tensor_copy(k.sub(scratch, 0, P, i, 1), k.sub(t[i], 0, P, 0, 1));
  for (uint32_t i = 0; i < tiles; ++i) k.tensor_copy(k.sub(t[i], 0, P, 0, 1), k.sub(scratch, 0, P, i, 1));
  for (uint32_t i = 0; i < tiles; ++i) k.dma_copy(rows(Y, i), k.all(t[i]));
  img.program = k.finish();
  stimulus::lay_out_tensors(img, [](const kernel::HbmTensor&, uint64_t i) { return uint32_t(i * 2654435761u); });
  img.recipe = fmt::format("dma copy {} x {} bytes", d.rows, bytes_per_partition);
  return d;
}

// The golden model's estimate of a run at HBM latency 200: timing only (the Tensor Engine's
// arithmetic skipped, no race detection), so that every suite shape runs in seconds.
core::RunStats golden_estimate(const CoreConfig& cfg, const stimulus::KernelImage& img) {
  core::CoreOptions opt;
  opt.hbm_bytes = isa::image_hbm_bytes(img.program, isa::image_program_base(img.hbm.size()));
  opt.timing_only = true;
  opt.detect_races = false;
  core::CoreModel model(cfg, opt);
  model.hbm().write(0, img.hbm.data(), img.hbm.size());
  return model.run(img.program);
}

// Runs an image on the RTL platform, checked against the golden model; empty: no RTL core.
using RtlRun = std::function<tb::PlatformCompare(const stimulus::KernelImage&)>;

// The workload suite: each run's golden estimate, and the RTL's cycles (checked against the
// golden model's results) where the estimate is at most --rtl-max-cycles and `rtl` is given.
// A shape the kernel cannot build on this config is a record with its error. An estimate more
// than tb::kGoldenCycleTolerance from the RTL's cycles (issue 24: the golden model predicts the
// RTL) fails the bench once every record is written.
void run_workloads(const CoreConfig& cfg, const Args& a, const RtlRun& rtl) {
  std::vector<bench::Record> out;
  std::vector<std::string> mispredicted;
  const uint32_t port = cfg.axi_data_bits / 8;
  for (const bench::Workload& w : bench::load_workloads(a.suite)) {
    const std::string shape = kernels::shape_text(w.shape);
    const std::string what = fmt::format("{} {} {} {}", w.model, w.layer, w.kernel, shape);
    stimulus::KernelImage img;
    core::RunStats est;
    try {
      img = reference_image(cfg, w.kernel, w.shape);
      est = golden_estimate(cfg, img);
    } catch (const Error& e) {
      fmt::print("{}: not run: {}\n", what, e.what());
      out.push_back({{"model", w.model}, {"layer", w.layer}, {"kernel", w.kernel}, {"shape", shape},
                     {"config", cfg.name}, {"backend", "none"}, {"error", e.what()}});
      continue;
    }
    uint64_t tensor_bytes = 0;
    for (const auto& t : img.k->tensors())
      tensor_bytes += uint64_t(t->rows) * t->cols * core::dtype_bytes(t->dtype);
    bench::Record g = bench::workload_record(w, cfg, "golden", est.cycles, est, tensor_bytes, port);
    fmt::print("{}: golden estimate {} cycles, roofline {:.3f} ({}-bound)\n", what, est.cycles,
               g["roofline_fraction"].get<double>(), g["bound"].get<std::string>());
    out.push_back(std::move(g));
    if (!rtl || est.cycles > a.rtl_max_cycles) continue;
    const tb::PlatformCompare c = rtl(img);
    bench::Record r =
        bench::workload_record(w, cfg, "rtl", c.run.cycles, c.outcome.golden, tensor_bytes, port);
    r["wall_seconds"] = c.run.wall_seconds;
    const double ratio = double(c.outcome.golden.cycles) / double(std::max<uint64_t>(c.run.cycles, 1));
    r["golden_ratio"] = ratio;
    fmt::print("{}: RTL {} cycles (golden {}: {:.3f}), roofline {:.3f}\n", what, c.run.cycles,
               c.outcome.golden.cycles, ratio, r["roofline_fraction"].get<double>());
    if (std::abs(ratio - 1) > tb::kGoldenCycleTolerance)
      mispredicted.push_back(fmt::format("{} (golden {} cycles, RTL {}: {:.3f})", what, c.outcome.golden.cycles,
                                         c.run.cycles, ratio));
    out.push_back(std::move(r));
  }
  bench::write_records(a.out, "workloads.json", out, true);
  if (!mispredicted.empty())
    throw Error(fmt::format("the golden estimate is more than {:.0f} % from the RTL's cycles on {} run(s): {}",
                            100 * tb::kGoldenCycleTolerance, mispredicted.size(), fmt::join(mispredicted, "; ")));
}

template <typename Top>
void run_all(const CoreConfig& cfg, const Args& a) {
  tb::PlatformOptions opt;
  tb::CorePlatform<Top> platform("platform", opt);
  const bool trn2 = cfg.name == "trn2";
  const std::set<std::string> sections =
      !a.sections.empty() ? a.sections
      : trn2              ? std::set<std::string>{"gemm"}
      : a.quick           ? std::set<std::string>{"gemm", "dma", "kernels"}
                          : std::set<std::string>{"gemm", "dma", "kernels", "workloads"};

  // --- e2e GEMM ------------------------------------------------------------------------
  std::vector<bench::Record> gemm;
  // small: gemm's default shape (131 x 69 x 87, edges included) at three latencies, and
  // kSmallBigGemm (whole tiles, N a full PSUM bank) on gemm and gemm_at at latency 200; trn2:
  // kTrn2Gemm on gemm_at at 200.
  struct GemmRun {
    std::string kernel;
    kernels::Shape shape;
    uint32_t latency;
  };
  auto shape_of = [&](const std::string& kernel, const char* text) {
    return kernels::parse_shape(kernels::find_kernel(kernel), text, cfg);
  };
  std::vector<GemmRun> runs;
  if (!a.gemm.empty()) {
    const std::string kernel = a.gemm_kernel.empty() ? "gemm_at" : a.gemm_kernel;
    runs.push_back({kernel, shape_of(kernel, a.gemm.c_str()), 200});
  } else if (a.quick) {
    runs.push_back({"gemm", kernels::Shape{{"m", cfg.pe_cols}, {"k", cfg.pe_rows}, {"n", 64}}, 200});
  } else if (trn2) {
    for (const std::string& kernel : a.gemm_kernel.empty()
                                        ? std::vector<std::string>{"gemm_at", "gemm_at_bf16"}
                                        : std::vector<std::string>{a.gemm_kernel})
      runs.push_back({kernel, shape_of(kernel, kTrn2Gemm), 200});
  } else {
    for (uint32_t latency : {64, 200, 500})
      runs.push_back({"gemm", kernels::find_kernel("gemm").default_shape(cfg), latency});
    for (const char* kernel : {"gemm", "gemm_at"})
      runs.push_back({kernel, shape_of(kernel, kSmallBigGemm), 200});
  }
  if (sections.count("gemm")) {
    for (const auto& [kernel, gemm_shape, latency] : runs) {
      const uint32_t m = gemm_shape.at("m"), kk = gemm_shape.at("k"), n = gemm_shape.at("n");
      const stimulus::KernelImage img = reference_image(cfg, kernel, gemm_shape);
      std::string out_dtype;  // the result's (the inputs are bf16)
      for (const auto& t : img.k->tensors())
        if (t->output) out_dtype = dtype_name(t->dtype);
      const tb::PlatformCompare c = run_checked(platform, cfg, img, latency);
      const uint64_t cycles = c.run.cycles;
      const uint64_t ideal = (c.outcome.golden.pe_macs + uint64_t(cfg.pe_rows) * cfg.pe_cols - 1) /
                             (uint64_t(cfg.pe_rows) * cfg.pe_cols);
      // The engines count both sides of a transfer; every gemm transfer has exactly one HBM side,
      // so HBM moved half of it (read and write channels together).
      for (const isa::Descriptor& d : img.program.descriptors)
        if ((d.src.space == isa::Space::kHbm) == (d.dst.space == isa::Space::kHbm))
          throw Error(fmt::format("{}: a DMA transfer without exactly one HBM side", img.recipe));
      uint64_t dma_bytes = 0;
      for (const auto& d : c.run.status.dma) dma_bytes += d.bytes_read + d.bytes_written;
      const uint64_t hbm_bytes = dma_bytes / 2;
      const double util = double(ideal) / double(cycles);
      // Where the PE sequencer's cycles go: executing, per instruction, and waiting on
      // semaphores; the whole timeline goes to a Perfetto trace next to the JSON.
      std::map<std::string, uint64_t> pe_cycles;
      for (const core::TraceEvent& e : c.run.timeline) {
        if (!core::on_sequencer(e, "pe")) continue;  // pe.2, ...: started under the last one
        pe_cycles[e.name] += e.end - e.start;
        pe_cycles["sem_wait"] += e.start - std::min(e.start, e.wait_start);
      }
      bench::Record pe_json = bench::Record::object();
      for (const auto& [name, cyc] : pe_cycles) pe_json[name] = cyc;
      const std::string trace_name =
          fmt::format("e2e_{}_{}_{}x{}x{}_latency{}.trace.json", kernel, cfg.name, m, kk, n, latency);
      std::filesystem::create_directories(a.out);
      std::ofstream trace(a.out + "/" + trace_name);
      if (!(trace << trace_json(c.run.timeline, kernel, "RTL cycles")))
        throw Error(fmt::format("cannot write {}/{}", a.out, trace_name));
      fmt::print("{} {}x{}x{} latency {}: {} cycles, ideal {}, PE utilisation {:.4f}, estimate {}, "
                 "HBM {:.2f} of {} B/cycle (reads and writes share the port)\n", kernel, m, kk, n, latency, cycles, ideal, util,
                 c.outcome.golden.cycles, double(hbm_bytes) / double(cycles), cfg.axi_data_bits / 8);
      gemm.push_back({{"config", cfg.name}, {"kernel", kernel}, {"M", m}, {"K", kk}, {"N", n}, {"dtype", "bf16"},
                      {"out_dtype", out_dtype}, {"cycles", cycles}, {"ideal_cycles", ideal}, {"utilization", util},
                      {"estimated_cycles", c.outcome.golden.cycles},
                      {"sim_cycles_per_s", double(cycles) / std::max(c.run.wall_seconds, 1e-9)},
                      {"hbm_latency", latency}, {"dma_bytes", dma_bytes}, {"hbm_bytes", hbm_bytes},
                      {"hbm_bytes_per_cycle", double(hbm_bytes) / double(cycles)},
                      {"hbm_bytes_per_cycle_configured", cfg.axi_data_bits / 8}, {"pe_cycles", pe_json},
                      {"trace", trace_name}, {"wall_seconds", c.run.wall_seconds}});
    }
    bench::write_records(a.out, "e2e_gemm.json", gemm, true);
  }

  // --- DMA bandwidth ----------------------------------------------------------------------
  if (sections.count("dma")) {
    std::vector<bench::Record> dma;
    const uint32_t axi_bytes = cfg.axi_data_bits / 8;
    for (uint32_t kib : a.quick ? std::vector<uint32_t>{2} : std::vector<uint32_t>{2, 4, 8, 32}) {
      if (kib * 1024 > cfg.sbuf_partition_bytes) continue;
      // Every size at 200 cycles; the latency sweep at 4 KiB.
      const std::vector<uint32_t> latencies =
          a.quick || kib != 4 ? std::vector<uint32_t>{200} : std::vector<uint32_t>{64, 200, 500};
      for (uint32_t latency : latencies) {
        const DmaCopy copy = dma_copy_image(cfg, kib * 1024);
        const stimulus::KernelImage& img = copy.img;
        const tb::PlatformCompare c = run_checked(platform, cfg, img, latency);
        // Each direction from its first transfer's start to its last transfer's end.
        std::array<uint64_t, 2> first{UINT64_MAX, UINT64_MAX}, last{0, 0};
        std::array<uint32_t, 2> count{0, 0};
        for (const core::TraceEvent& e : c.run.timeline) {
          if (e.agent.rfind("dma.", 0) != 0) continue;
          const size_t desc = std::stoul(e.name.substr(e.name.find('d', 4) + 1));
          const int dir = img.program.descriptors.at(desc).src.space == isa::Space::kHbm ? 0 : 1;
          first[size_t(dir)] = std::min(first[size_t(dir)], e.start);
          last[size_t(dir)] = std::max(last[size_t(dir)], e.end);
          ++count[size_t(dir)];
        }
        const uint32_t tiles = copy.rows / cfg.partitions;
        if (count[0] != tiles || count[1] != tiles)
          throw Error(fmt::format("{}: {} loads and {} stores, not {} each", img.recipe, count[0], count[1], tiles));
        const uint64_t bytes = uint64_t(copy.rows) * kib * 1024;
        const char* dirs[2] = {"hbm_to_sbuf", "sbuf_to_hbm"};
        for (size_t i = 0; i < 2; ++i) {
          const uint64_t cyc = last[i] - first[i];
          const double eff = double(bytes) / (double(cyc) * axi_bytes);
          fmt::print("dma {} {} x {} KiB latency {}: {} cycles, efficiency {:.3f}\n", dirs[i],
                     copy.rows, kib, latency, cyc, eff);
          dma.push_back({{"config", cfg.name}, {"direction", dirs[i]}, {"partitions", copy.rows},
                         {"bytes_per_partition", kib * 1024}, {"hbm_latency", latency}, {"transfers", tiles},
                         {"cycles", cyc}, {"efficiency", eff}});
        }
      }
    }
    bench::write_records(a.out, "dma.json", dma, true);
  }

  // --- kernels ----------------------------------------------------------------------------
  if (sections.count("kernels")) {
    std::vector<bench::Record> kern;
    for (const char* name : {"attention", "layernorm"}) {
      const kernels::RefKernel& ref = kernels::find_kernel(name);
      const kernels::Shape s = ref.default_shape(cfg);
      const stimulus::KernelImage img = reference_image(cfg, name, s);
      const tb::PlatformCompare c = run_checked(platform, cfg, img, 200);
      // Utilisation: the cycles each engine spent executing instructions (the timeline's slices,
      // semaphore waits and fetches excluded) over the run's cycles.
      std::map<std::string, uint64_t> executing;
      for (int q = 0; q < isa::kNumSeqs; ++q) {
        const std::string agent = isa::seq_name(isa::Seq(q));
        executing[agent] = busy_cycles(c.run.timeline, agent);
      }
      bench::Record util = bench::Record::object();
      for (int q = 0; q < isa::kNumSeqs; ++q) {
        const char* agent = isa::seq_name(isa::Seq(q));
        util[agent] = double(executing[agent]) / double(c.run.cycles);
      }
      fmt::print("{} {}: {} cycles (golden estimate {}), busy: {}\n", name, kernels::shape_text(s),
                 c.run.cycles, c.outcome.golden.cycles, util.dump());
      kern.push_back({{"config", cfg.name}, {"kernel", name}, {"shape", kernels::shape_text(s)}, {"hbm_latency", 200},
                      {"cycles", c.run.cycles}, {"estimated_cycles", c.outcome.golden.cycles}, {"utilization", util}});
    }
    bench::write_records(a.out, "kernels.json", kern, true);
  }
  if (sections.count("workloads"))
    run_workloads(cfg, a, [&](const stimulus::KernelImage& img) { return run_checked(platform, cfg, img, 200); });
}

}  // namespace

int sc_main(int argc, char** argv) {
  try {
    Args a;
    CLI::App app{"tern_bench_e2e: kernels end to end on the RTL platform, into <out>/*.json"};
    app.add_option("--out", a.out, "the JSONs' directory")->capture_default_str();
    app.add_option("--configs", a.configs, "the configs' directory")->capture_default_str();
    app.add_option("--config", a.config, "the config's name")->capture_default_str();
    app.add_flag("--quick", a.quick, "one small case of each: a smoke test of the bench");
    app.add_option("--gemm", a.gemm, "the GEMM section's shape")->capture_default_str();
    app.add_option("--gemm-kernel", a.gemm_kernel, "the GEMM section's kernel")->capture_default_str();
    app.add_option("--sections", a.sections, "the sections to run (default: all)")
        ->delimiter(',')
        ->check(CLI::IsMember({"gemm", "dma", "kernels", "workloads"}));
    app.add_option("--suite", a.suite, "the workload suite")->capture_default_str();
    app.add_flag("--golden-only", a.golden_only,
                 "workloads: the golden model's estimates only (any config)");
    cli::add_uint(app, "--rtl-max-cycles", a.rtl_max_cycles,
                  "workloads: run on the RTL the shapes the golden model estimates within this", 0, UINT64_MAX);
    if (int status = 0; !cli::parse(app, argc, argv, status)) return status;
    const CoreConfig cfg = load_config(a.configs + "/" + a.config + ".yaml");
    if (a.golden_only) {
      if (a.sections != std::set<std::string>{"workloads"})
        throw Error("--golden-only runs the workloads section alone (--sections workloads)");
      run_workloads(cfg, a, {});
      return 0;
    }
    tb::require_built_config(cfg, fmt::format("tern_bench_e2e --config {}", a.config));
    if (cfg.name == "tiny") run_all<Vtern_core_tiny>(cfg, a);
#if TERN_SMALL_CORE
    else if (cfg.name == "small") run_all<Vtern_core_small>(cfg, a);
#endif
#ifdef TERN_TRN2_CORE
    else if (cfg.name == "trn2") run_all<Vtern_core_trn2>(cfg, a);
#else
    else if (cfg.name == "trn2")
      throw Error("the trn2 core is in tern_bench_e2e_trn2 (make bench builds it)");
#endif
    else tb::no_core_model("tern_bench_e2e", cfg.name);
    return 0;
  } catch (const std::exception& e) {
    fmt::print(stderr, "tern_bench_e2e: error: {}\n", e.what());
    return 1;
  }
}
