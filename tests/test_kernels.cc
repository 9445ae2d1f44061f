// The kernel API, the reference kernels and the runtime, end to end on the golden core model:
// every kernel against its fp64 reference on every config, random shapes, the automatic
// synchronisation (every wait it inserts is needed; without them the race detector fires),
// the builder's and the runtime's errors, and the trace JSON.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <numeric>
#include <set>
#include <type_traits>

#include "common/error.h"
#include "core/core_model.h"
#include "isa/asm.h"
#include "kernels/kernels.h"
#include "numerics/numerics.h"
#include "runtime/device.h"
#include "test_util.h"
#include "trace_check.h"
#include "trip_kernel.h"

namespace tern {
namespace {

using kernels::RefKernel;
using kernels::Shape;

CoreConfig config(const std::string& name) {
  return load_config(std::string(TERN_CONFIG_DIR) + "/" + name + ".yaml");
}

struct Built {
  std::unique_ptr<kernel::Kernel> k;
  isa::Program program;
};

Built build(const RefKernel& ref, const CoreConfig& cfg, const Shape& s) {
  Built b{std::make_unique<kernel::Kernel>(cfg, ref.name), {}};
  ref.build(*b.k, s);
  b.program = b.k->finish();
  return b;
}

kernels::CheckResult run_and_check(const RefKernel& ref, const CoreConfig& cfg, const Shape& s,
                                   uint32_t seed) {
  Built b = build(ref, cfg, s);
  const kernels::Tensors in = ref.inputs(s, seed);
  Device dev(cfg);
  const DeviceRun run = dev.run(*b.k, b.program, in);
  return ref.check(s, in, run.outputs);
}

// --- every kernel on every config ----------------------------------------------------------

class KernelOnConfig : public testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(KernelOnConfig, MatchesFp64Reference) {
  const auto& [name, cfg_name] = GetParam();
  const CoreConfig cfg = config(cfg_name);
  const RefKernel& ref = kernels::find_kernel(name);
  const Shape s = ref.default_shape(cfg);
  const kernels::CheckResult r = run_and_check(ref, cfg, s, 1);
  EXPECT_TRUE(r.ok()) << name << " on " << cfg_name << " (" << kernels::shape_text(s)
                      << "): " << r.failures << " failures; " << r.first_failure;
  EXPECT_EQ(r.elements > 0, true);
  fmt::print("{} on {} ({}): worst error {:.3f} of tolerance\n", name, cfg_name,
             kernels::shape_text(s), r.worst);
}

INSTANTIATE_TEST_SUITE_P(
    All, KernelOnConfig,
    testing::Combine(testing::Values("gemm", "gemm_at", "gemm_at_bf16", "gemm_at_fp8", "softmax",
                                     "layernorm", "rmsnorm", "mlp", "attention"),
                     testing::Values("tiny", "small", "trn2")),
    [](const auto& info) {
      return std::get<0>(info.param) + "_" + std::get<1>(info.param);
    });

TEST(Kernels, RandomShapesOnTiny) {
  const CoreConfig cfg = config("tiny");
  auto rng = test::make_rng();
  const uint32_t P = cfg.partitions;
  auto size = [&](uint32_t lo, uint32_t hi) {
    return uint32_t(std::uniform_int_distribution<uint32_t>(lo, hi)(rng));
  };
  for (int trial = 0; trial < 4; ++trial) {
    const std::vector<std::pair<std::string, Shape>> cases = {
        {"gemm", {{"m", size(1, 5 * P)}, {"k", size(1, 4 * P)}, {"n", size(1, 80)}}},
        {"gemm_at", {{"m", size(1, 5 * P)}, {"k", size(1, 4 * P)}, {"n", size(1, 1200)}}},
        {"gemm_at_bf16", {{"m", size(1, 5 * P)}, {"k", size(1, 4 * P)}, {"n", size(1, 1200)}}},
        {"gemm_at_fp8", {{"m", size(1, 5 * P)}, {"k", size(1, 4 * P)}, {"n", size(1, 1200)}}},
        {"softmax", {{"rows", size(1, 6 * P)}, {"d", size(1, 300)}}},
        {"layernorm", {{"rows", size(1, 6 * P)}, {"d", size(2, 300)}}},
        {"rmsnorm", {{"rows", size(1, 6 * P)}, {"d", size(1, 300)}}},
        {"mlp", {{"t", size(1, 60)}, {"dm", size(1, 3 * P)}, {"f", size(1, 3 * P)}}},
        {"attention", {{"s", size(1, 7 * P)}, {"d", size(1, P)}}},
    };
    for (const auto& [name, s] : cases) {
      const uint32_t seed = uint32_t(rng());
      const kernels::CheckResult r = run_and_check(kernels::find_kernel(name), cfg, s, seed);
      EXPECT_TRUE(r.ok()) << name << " (" << kernels::shape_text(s) << "), input seed " << seed
                          << ": " << r.first_failure;
    }
  }
}

// gemm keeps b resident when it fits a quarter of SBUF; this shape does not (3 k slices x 700
// columns x 2 bytes = 4,200 bytes > 16 KiB / 4 on tiny), so every k step loads its b slice, and
// n = 700 spans two PSUM banks.
TEST(Kernels, GemmStreamsBWhenItIsTooBigToKeep) {
  const CoreConfig cfg = config("tiny");
  const Shape s{{"m", 11}, {"k", 17}, {"n", 700}};
  const kernels::CheckResult r = run_and_check(kernels::find_kernel("gemm"), cfg, s, 7);
  EXPECT_TRUE(r.ok()) << r.first_failure;
}

// A Llama-class projection on trn2 (issue 24): its n-tile groups are straight-line code, each
// with its own k loop, and every loop's index registers used to stay allocated for the whole
// kernel, so the builder ran out of registers past about 5,000 columns. Registers are reused
// once their loops have ended; this builds (no run: 120 G MACs).
// On small too (2026-11-27): there its plan streams a_t per k step in blocks of 7 m tiles, and
// each of the 28 n tiles, written out, held registers for its k loop's addresses until the
// block loop ended; whole n-tile groups now go in a hardware loop.
TEST(Kernels, LlamaProjectionFitsTheSequencersRegisters) {
  for (const std::string cfg_name : {"trn2", "small"}) {
    SCOPED_TRACE(cfg_name);
    const CoreConfig cfg = config(cfg_name);
    const Shape s{{"m", 2048}, {"k", 4096}, {"n", 14336}};
    for (const std::string kernel : {"gemm_at_bf16", "gemm_at_fp8"}) {
      const Built b = build(kernels::find_kernel(kernel), cfg, s);
      size_t instructions = 0;
      for (const auto& stream : b.program.streams) instructions += stream.size();
      EXPECT_GT(instructions, 0u);
      EXPECT_LT(b.k->hbm_bytes(), uint64_t{1} << 32);
    }
  }
}

// The same reuse, run: 60 loops one after the other, each copying its own columns through SBUF
// with loop-indexed windows (a register of its own each: more than a sequencer has), on the
// golden model; every column must arrive where it belongs, so a reused register that did not
// hold zero would show.
TEST(Kernels, SequentialLoopsReuseRegisters) {
  const CoreConfig cfg = config("tiny");
  constexpr uint32_t kLoops = 60, kIters = 6, kCols = kLoops * kIters * 4;
  kernel::Kernel k(cfg, "loops");
  const auto& in = k.input("in", 8, kCols, Dtype::kFp32);
  const auto& out = k.output("out", 8, kCols, Dtype::kFp32);
  auto pool = k.sbuf_pool("p", 2);
  for (uint32_t i = 0; i < kLoops; ++i) {
    k.loop(kIters, [&](kernel::Index j) {
      const kernel::Tile t = pool.tile(8, 4, Dtype::kFp32, "t");
      const kernel::Index col = j * 4 + int64_t(i * kIters * 4);
      k.dma_copy(k.all(t), kernel::HbmView{&in, 0, col, 8, 4});
      k.dma_copy(kernel::HbmView{&out, 0, col, 8, 4}, k.all(t));
    });
  }
  const isa::Program p = k.finish();
  kernels::Tensors inputs{{"in", TensorBits(8 * kCols)}};
  std::iota(inputs["in"].begin(), inputs["in"].end(), 1u);
  const DeviceRun run = Device(cfg).run(k, p, inputs);
  EXPECT_EQ(run.outputs.at("out"), inputs["in"]);
}

// A register freed inside a loop that is still open (the inner loop's, at its end) must not
// serve a map on that loop (the outer index, used after the inner loop): the outer loop's next
// iteration runs the inner loop again, which expects its register back at zero. The copies
// interleave (source columns 4 apart, destination 8 apart), so a shifted one shows.
TEST(Kernels, RegistersFreedInsideALoopSkipItsIndex) {
  const CoreConfig cfg = config("tiny");
  kernel::Kernel k(cfg, "nested");
  const auto& in = k.input("in", 8, 24, Dtype::kFp32);
  const auto& out = k.output("out", 8, 24, Dtype::kFp32);
  auto pool = k.sbuf_pool("p", 2);
  const kernel::Tile a = pool.tile(8, 4, Dtype::kFp32, "a"), b = pool.tile(8, 4, Dtype::kFp32, "b");
  k.loop(3, [&](kernel::Index i) {
    k.loop(3, [&](kernel::Index j) {  // in[:, 4j..] -> out[:, 8j..], again every outer iteration
      k.dma_copy(k.all(a), kernel::HbmView{&in, 0, j * 4, 8, 4});
      k.dma_copy(kernel::HbmView{&out, 0, j * 8, 8, 4}, k.all(a));
    });
    k.dma_copy(k.all(b), kernel::HbmView{&in, 0, i * 4 + 12, 8, 4});  // -> out[:, 8i + 4..]
    k.dma_copy(kernel::HbmView{&out, 0, i * 8 + 4, 8, 4}, k.all(b));
  });
  const isa::Program p = k.finish();
  kernels::Tensors inputs{{"in", TensorBits(8 * 24)}};
  std::iota(inputs["in"].begin(), inputs["in"].end(), 1u);
  TensorBits want(8 * 24);
  for (uint32_t r = 0; r < 8; ++r)
    for (uint32_t t = 0; t < 3; ++t)
      for (uint32_t c = 0; c < 4; ++c) {
        want[r * 24 + t * 8 + c] = inputs["in"][r * 24 + t * 4 + c];
        want[r * 24 + t * 8 + 4 + c] = inputs["in"][r * 24 + 12 + t * 4 + c];
      }
  EXPECT_EQ(Device(cfg).run(k, p, inputs).outputs.at("out"), want);
}

// The GEMMs' fallbacks when SBUF is short, run against the reference on tiny (16 KiB a
// partition): a K long enough that gemm streams a's slices (transposed per n tile), and that
// gemm_at streams a_t's (k = 4,097: its whole-K tile per m tile would need 2 x 8 KiB).
TEST(Kernels, GemmsStreamTheirOperandsWhenSbufIsShort) {
  const CoreConfig cfg = config("tiny");
  const kernels::CheckResult a = run_and_check(kernels::find_kernel("gemm"), cfg,
                                               Shape{{"m", 20}, {"k", 2047}, {"n", 100}}, 5);
  EXPECT_TRUE(a.ok()) << a.first_failure;
  const kernels::CheckResult b = run_and_check(kernels::find_kernel("gemm_at"), cfg,
                                               Shape{{"m", 31}, {"k", 4097}, {"n", 40}}, 6);
  EXPECT_TRUE(b.ok()) << b.first_failure;
}

// Runs a GEMM kernel on small at M x K x N, checked against fp64, and bounds the HBM bytes it
// moves: a (or a_t) and c once, b at most b_reads times. b (and a_t when a_t_big) must be too big
// to stay in SBUF, so the shape tests the streamed plan it is meant for.
void expect_gemm_moves(const std::string& kernel, uint32_t M, uint32_t K, uint32_t N, uint32_t b_reads,
                       bool a_t_big) {
  const CoreConfig cfg = config("small");
  const RefKernel& ref = kernels::find_kernel(kernel);
  const Shape s{{"m", M}, {"k", K}, {"n", N}};
  Built b = build(ref, cfg, s);
  const kernels::Tensors in = ref.inputs(s, 7);
  const DeviceRun run = Device(cfg).run(*b.k, b.program, in);
  const kernels::CheckResult check = ref.check(s, in, run.outputs);
  EXPECT_TRUE(check.ok()) << check.first_failure;
  const uint64_t a_t = uint64_t(K) * M * 2, b_bytes = uint64_t(K) * N * 2, c = uint64_t(M) * N * 4;
  fmt::print("{} {}: {} HBM bytes; a {}, b {}, c {}\n", kernel, kernels::shape_text(s), run.stats.hbm_bytes,
             a_t, b_bytes, c);
  EXPECT_GT(uint64_t(K / cfg.pe_rows) * N * 2, cfg.sbuf_partition_bytes / 4) << "b would stay resident";
  if (a_t_big) {
    EXPECT_GT(uint64_t(K / cfg.pe_rows) * M * 2, cfg.sbuf_partition_bytes / 4) << "a_t would stay resident";
  }
  EXPECT_LE(run.stats.hbm_bytes, a_t + c + b_reads * b_bytes);
}

// gemm_at streams b, when it is too big to stay in SBUF, once per block of m tiles (issue 24
// item 1): the block's LoadStationary and matmuls share each slice of b. On small, with 21 m
// tiles and PSUM's 8 banks (blocks of 7), b moves 3 times (the lead block and two looped
// blocks, the last m tile in the last); once per m tile it would be 21.
TEST(Kernels, GemmAtStreamsBOncePerBlock) { expect_gemm_moves("gemm_at", 32 * 20 + 5, 256, 1100, 3, false); }

// gemm (a untransposed) blocks its m tiles too: PSUM holds 6 accumulators beside the two
// transposes, so blocks of 5 (one spare) and b moves ceil(21 / 5) = 5 times, not 21.
TEST(Kernels, GemmStreamsBOncePerBlock) { expect_gemm_moves("gemm", 32 * 20 + 5, 256, 1100, 5, false); }

// A long K (a k loop of several steps an iteration, and steps left over) with b streamed: the
// m tiles go in blocks, the short last one in the last block, so b moves once per block (two
// here) and a_t, kept per m tile for all of K, once.
TEST(Kernels, GemmAtLongKReadsEachOperandOncePerBlock) {
  expect_gemm_moves("gemm_at", 32 * 9 + 3, 32 * 30 + 3, 1100, 2, true);
}

// With a k loop (K past 16 steps) and a_t kept per m tile (blocks of 7), whole n tiles run in
// a hardware loop of their own (two here, then the short third written out): checked against
// fp64 on tiny (the same shape ran on the tiny RTL against the golden model by `tern run
// gemm_at --config tiny --backend cross --shape m=105,k=136,n=1025`, 2026-11-27).
TEST(Kernels, GemmAtNTilesInALoop) {
  const CoreConfig cfg = config("tiny");
  const Shape s{{"m", 105}, {"k", 136}, {"n", 1025}};
  const kernels::CheckResult r = run_and_check(kernels::find_kernel("gemm_at"), cfg, s, 7);
  EXPECT_TRUE(r.ok()) << r.first_failure;
}

// Attention with a head dim past the partitions (q k^T accumulates over chunks of them),
// rmsnorm with rows too long for two row tiles of x and y beside gamma (one of each) and softmax
// with rows too long for three or four x tiles beside e (tiny only), against
// fp64, on tiny and small (the RTL runs the tiny shapes: Platform.KernelsPastTheirSimpleTiling).
TEST(Kernels, AttentionAndNormPastThePartitionsAndSbuf) {
  for (const std::string cfg_name : {"tiny", "small"}) {
    const CoreConfig cfg = config(cfg_name);
    std::vector<std::pair<std::string, Shape>> runs{
        {"attention", {{"d", 2 * cfg.partitions + 5}, {"s", 2 * cfg.partitions + 3}}},
        // a head dim whose pair of query tiles does not fit tiny's SBUF (one at a time there)
        {"attention", {{"d", std::min(16 * cfg.partitions, cfg.moving_max_n())}, {"s", 2 * cfg.partitions + 3}}},
        {"rmsnorm", {{"d", cfg.sbuf_partition_bytes / 16}, {"rows", cfg.partitions + 1}}},
    };
    // softmax rows with room for two x buffers, then one (small's 64 KiB take four rows of the
    // longest row an instruction takes, 4,096)
    for (uint32_t part : {14u, 10u})
      if (cfg.sbuf_partition_bytes / part <= 4096)
        runs.push_back({"softmax", {{"d", cfg.sbuf_partition_bytes / part}, {"rows", 2 * cfg.partitions + 1}}});
    for (const auto& [name, s] : runs) {
      SCOPED_TRACE(fmt::format("{} on {}, {}", name, cfg_name, kernels::shape_text(s)));
      const RefKernel& ref = kernels::find_kernel(name);
      Built b = build(ref, cfg, s);
      const kernels::Tensors in = ref.inputs(s, 5);
      const DeviceRun run = Device(cfg).run(*b.k, b.program, in);
      const kernels::CheckResult check = ref.check(s, in, run.outputs);
      EXPECT_TRUE(check.ok()) << check.first_failure;
    }
  }
}

// Random shapes (each dimension 1 to 2,047, the tiles' edges included) on every
// config, build only (finish(): pools, synchronisation, registers); the runs at small shapes
// are the tests above. The GEMM kernels build at every one (they fall back to streaming their
// operands when SBUF is short, issue 24); the others may stop at a limit of theirs
// (docs/kernels.md "Limits"), with an error naming it, but never for lack of loop registers.
TEST(Kernels, BuildAtAnyShape) {
  auto rng = test::make_rng();
  const std::vector<uint32_t> sizes{1, 2, 7, 8, 9, 31, 33, 127, 129, 255, 513, 1000, 2047};
  const std::set<std::string> gemms{"gemm", "gemm_at", "gemm_at_bf16", "gemm_at_fp8"};
  std::vector<std::string> failures, limits;
  for (const std::string cfg_name : {"tiny", "small", "trn2"}) {
    const CoreConfig cfg = config(cfg_name);
    for (const RefKernel& ref : kernels::reference_kernels()) {
      // Each dimension long in turn (the others 9), then random ones.
      std::vector<Shape> shapes;
      for (const std::string& big : ref.dims) {
        Shape s;
        for (const std::string& d : ref.dims) s[d] = d == big ? sizes.back() : 9;
        shapes.push_back(s);
      }
      for (int trial = 0; trial < 20; ++trial) {
        Shape s;
        for (const std::string& d : ref.dims) s[d] = sizes[rng() % sizes.size()];
        shapes.push_back(s);
      }
      for (const Shape& s : shapes) {
        try {
          build(ref, cfg, s);
        } catch (const Error& e) {
          const std::string what = e.what();
          const bool limit = !gemms.count(ref.name) && what.find("register") == std::string::npos;
          (limit ? limits : failures)
              .push_back(fmt::format("{} {} {}: {}", cfg_name, ref.name, kernels::shape_text(s), what));
        }
      }
    }
  }
  fmt::print("{} shapes stopped at a kernel's limit, for example {}\n", limits.size(),
             limits.empty() ? "none" : limits.front());
  EXPECT_TRUE(failures.empty()) << failures.size() << " shapes fail to build:\n"
                                << fmt::format("{}", fmt::join(failures, "\n"));
}

// --- automatic synchronisation --------------------------------------------------------------

// Runs a program and returns the fault kind, or 0 when it completes.
int fault_of(const Built& b, const CoreConfig& cfg, const kernels::Tensors& in) {
  try {
    Device(cfg).run(*b.k, b.program, in);
    return 0;
  } catch (const core::CoreFault& f) {
    return int(f.kind());
  }
}

// Every wait the builder inserts is needed: dropping any one of them lets two engines touch the
// same bytes unordered, which the race detector reports.
TEST(AutoSync, EveryInsertedWaitIsNeeded) {
  const CoreConfig cfg = config("tiny");
  for (const char* name : {"gemm", "gemm_at", "softmax", "layernorm", "mlp", "attention"}) {
    const RefKernel& ref = kernels::find_kernel(name);
    const Shape s = ref.default_shape(cfg);
    Built b = build(ref, cfg, s);
    const kernels::Tensors in = ref.inputs(s, 1);
    ASSERT_EQ(fault_of(b, cfg, in), 0) << name;
    int waits = 0;
    for (size_t q = 0; q < b.program.streams.size(); ++q) {
      for (size_t pc = 0; pc < b.program.streams[q].size(); ++pc) {
        isa::Instruction& instr = b.program.streams[q][pc];
        if (!instr.sync.wait) continue;
        ++waits;
        instr.sync.wait = false;
        EXPECT_EQ(fault_of(b, cfg, in), int(core::FaultKind::kRace))
            << name << ": dropping the wait of " << isa::seq_name(isa::Seq(q)) << " pc " << pc << " ("
            << isa::instruction_text(instr) << ") did not cause a race";
        instr.sync.wait = true;
      }
    }
    EXPECT_GT(waits, 3) << name;
  }
}

TEST(AutoSync, UnsynchronisedKernelIsARace) {
  const CoreConfig cfg = config("tiny");
  const RefKernel& ref = kernels::find_kernel("softmax");
  const Shape s = ref.default_shape(cfg);
  Built b = build(ref, cfg, s);
  for (auto& stream : b.program.streams)
    for (auto& instr : stream) instr.sync.wait = false;
  try {
    Device(cfg).run(*b.k, b.program, ref.inputs(s, 1));
    FAIL() << "no race reported";
  } catch (const core::CoreFault& f) {
    EXPECT_EQ(f.kind(), core::FaultKind::kRace);
    const std::string what = f.what();
    EXPECT_NE(what.find("race fault"), std::string::npos) << what;
    EXPECT_NE(what.find("no semaphore ordering"), std::string::npos) << what;
  }
}

// Double buffering follows from the pools: with two buffers, the load of row tile i + 1 does
// not wait for the compute on tile i, so the run is shorter than with one buffer.
TEST(AutoSync, TwoBuffersOverlapDmaWithCompute) {
  const CoreConfig cfg = config("tiny");
  auto cycles = [&](uint32_t bufs) {
    kernel::Kernel k(cfg, "exp_rows");
    const uint32_t P = cfg.partitions, R = 8 * P, D = 64;
    const auto& X = k.input("x", R, D, Dtype::kFp32);
    const auto& Y = k.output("y", R, D, Dtype::kFp32);
    auto in_pool = k.sbuf_pool("in", bufs), out_pool = k.sbuf_pool("out", bufs);
    k.loop(R / P, [&](kernel::Index i) {
      const kernel::Tile a = in_pool.tile(P, D, Dtype::kFp32, "a");
      k.dma_copy(k.all(a), kernel::HbmView{&X, i * P, 0, P, D});
      const kernel::Tile e = out_pool.tile(P, D, Dtype::kFp32, "e");
      kernel::ActArgs exp;
      exp.func = act::ActFunc::kExp;
      k.activation(k.all(e), k.all(a), exp);
      k.dma_copy(kernel::HbmView{&Y, i * P, 0, P, D}, k.all(e));
    });
    const isa::Program p = k.finish();
    TensorBits x(size_t(R) * D, 0x3F800000u);
    const DeviceRun run = Device(cfg).run(k, p, {{"x", x}});
    for (uint32_t v : run.outputs.at("y")) EXPECT_EQ(v, act::act_function(act::ActFunc::kExp, 0x3F800000u));
    return run.stats.cycles;
  };
  const uint64_t one = cycles(1), two = cycles(2);
  fmt::print("cycles with 1 buffer {}, with 2 buffers {}\n", one, two);
  EXPECT_LT(two, one);
}

// --- builder and runtime errors -------------------------------------------------------------

void expect_error(const std::function<void()>& f, const std::vector<std::string>& words) {
  try {
    f();
    FAIL() << "no error";
  } catch (const Error& e) {
    for (const auto& w : words)
      EXPECT_NE(std::string(e.what()).find(w), std::string::npos) << e.what() << " lacks " << w;
  }
}

TEST(KernelErrors, KernelThatDoesNotFitSbufNamesPoolTileAndSizes) {
  const CoreConfig cfg = config("tiny");  // 16 KiB per partition
  expect_error(
      [&] {
        kernel::Kernel k(cfg, "big");
        auto pool = k.sbuf_pool("activations", 3);
        const kernel::Tile t = pool.tile(8, 2048, Dtype::kFp32, "x_tile");  // 8 KiB x 3
        k.memset(k.all(t), 0.0f);
        k.finish();
      },
      {"does not fit SBUF", "activations", "x_tile", "8192", "16384"});
  expect_error(
      [&] {
        kernel::Kernel k(cfg, "psum");
        auto pool = k.psum_pool("acc", 1);
        pool.tile(8, 600, Dtype::kFp32, "acc_tile");
      },
      {"acc_tile", "2400", "PSUM bank", "2048"});
}

TEST(KernelErrors, TileUsedAfterItsSlotWasReused) {
  const CoreConfig cfg = config("tiny");
  expect_error(
      [&] {
        kernel::Kernel k(cfg, "reuse");
        auto pool = k.sbuf_pool("work", 2);
        const kernel::Tile a = pool.tile(8, 16, Dtype::kFp32, "a");
        const kernel::Tile b = pool.tile(8, 16, Dtype::kFp32, "b");
        const kernel::Tile c = pool.tile(8, 16, Dtype::kFp32, "c");
        k.tensor_tensor(k.all(c), k.all(a), k.all(b), DveAlu::kAdd);
        k.finish();
      },
      {"tile 'a'", "pool 'work'", "2 buffers", "tile 'c'"});
}

// Vector Engine immediates say what they are: a float is its binary32 pattern, an integer must
// be named (Imm::int32, Imm::bits). Before, DveArgs and memset took raw patterns, so
// `imm0 = 0.125f` became 0 and `memset(v, 1.0f)` wrote the pattern 1.
static_assert(std::is_convertible_v<float, kernel::Imm>);
static_assert(!std::is_convertible_v<int, kernel::Imm>);
static_assert(!std::is_convertible_v<uint32_t, kernel::Imm>);
// The example's helpers are the kernel API's own (kernel/kernel.h), not the reference
// kernels': rows past a whole number of partition tiles, copied through SBUF with them.
TEST(KernelApi, TileLoopAndWindowCoverARaggedTensor) {
  const CoreConfig cfg = config("tiny");
  const uint32_t P = cfg.partitions, R = 2 * P + 3, D = 24;
  kernel::Kernel k(cfg, "copy_rows");
  const auto& X = k.input("x", R, D, Dtype::kFp32);
  const auto& Y = k.output("y", R, D, Dtype::kFp32);
  auto io = k.sbuf_pool("io", 2);
  kernel::tile_loop(k, 0, R, P, [&](kernel::Index r0, uint32_t rows) {
    const kernel::Tile t = io.tile(rows, D, Dtype::kFp32, "t");
    k.dma_copy(k.all(t), kernel::window(X, r0, 0, rows, D));
    k.dma_copy(kernel::window(Y, r0, 0, rows, D), k.all(t));
  });
  const isa::Program p = k.finish();
  TensorBits x(size_t(R) * D);
  for (size_t i = 0; i < x.size(); ++i) x[i] = uint32_t(i * 2654435761u);
  EXPECT_EQ(Device(cfg).run(k, p, {{"x", x}}).outputs.at("y"), x);
  expect_error([&] { kernel::tile_loop(k, 0, R, 0, [](kernel::Index, uint32_t) {}); },
               {"tile_loop with a tile of 0"});
}

// --- loops with a run-time trip count --------------------------------------------------------

// One program for every count from 0 to its largest: 7 is odd, so the loop of two body copies
// is analysed for 8 iterations and the eighth never runs (nor is it bounds-checked).
TEST(TripCount, OneProgramServesEveryCount) {
  const CoreConfig cfg = config("tiny");
  const test::TripKernel t = test::trip_kernel(cfg, 7);
  for (uint32_t n = 0; n <= t.max; ++n) {
    const DeviceRun run = Device(cfg).run(*t.k, t.program, t.inputs(n));
    EXPECT_EQ(run.outputs, t.expected(n)) << "n = " << n;
  }
}

// Two run-time loops in a row, the first with a pool of three buffers (a body of three copies)
// around a counted inner loop, the second summing, then a static loop that reads the sum: every
// pair of counts against outputs computed from the inputs.
TEST(TripCount, SequentialLoopsNestedLoopsAndThreeBuffers) {
  const CoreConfig cfg = config("tiny");
  const uint32_t P = cfg.partitions, D = 16, kMaxN = 5, kMaxM = 4;
  kernel::Kernel k(cfg, "two_trips");
  const kernel::TripCount n = k.trip_count("n", kMaxN), m = k.trip_count("m", kMaxM);
  const auto& X = k.input("x", kMaxN * P, 2 * D, Dtype::kFp32);
  const auto& Y = k.output("y", kMaxN * P, 2 * D, Dtype::kFp32);
  const auto& S = k.output("s", 3 * P, D, Dtype::kFp32);
  auto three = k.sbuf_pool("three", 3), acc_pool = k.sbuf_pool("acc", 1), in = k.sbuf_pool("in", 2);
  k.loop(n, [&](kernel::Index i) {
    k.loop(2, [&](kernel::Index j) {
      const kernel::Tile a = three.tile(P, D, Dtype::kFp32, "a");
      k.dma_copy(k.all(a), kernel::HbmView{&X, i * P, j * D, P, D});
      kernel::DveArgs twice;
      twice.alu0 = DveAlu::kMultiply;
      twice.imm0 = 2.0f;
      k.tensor_scalar(k.all(a), k.all(a), twice);
      k.dma_copy(kernel::HbmView{&Y, i * P, j * D, P, D}, k.all(a));
    });
  });
  const kernel::Tile acc = acc_pool.tile(P, D, Dtype::kFp32, "acc");
  k.memset(k.all(acc), 0.0f);
  k.loop(m, [&](kernel::Index i) {
    const kernel::Tile a = in.tile(P, D, Dtype::kFp32, "a");
    k.dma_copy(k.all(a), kernel::HbmView{&X, i * P, 0, P, D});
    k.tensor_tensor(k.all(acc), k.all(acc), k.all(a), DveAlu::kAdd);
  });
  k.loop(3, [&](kernel::Index r) {
    const kernel::Tile o = in.tile(P, D, Dtype::kFp32, "o");
    k.activation(k.all(o), k.all(acc), kernel::ActArgs{});
    k.dma_copy(kernel::HbmView{&S, r * P, 0, P, D}, k.all(o));
  });
  const isa::Program p = k.finish();
  TensorBits x(size_t(kMaxN) * P * 2 * D);
  for (size_t e = 0; e < x.size(); ++e) x[e] = test::fp32_bits(float((e * 7) % 23));
  for (uint32_t cn = 0; cn <= kMaxN; ++cn) {
    for (uint32_t cm = 0; cm <= kMaxM; ++cm) {
      TensorBits y(x.size(), 0), s(size_t(3) * P * D, 0);
      for (size_t e = 0; e < size_t(cn) * P * 2 * D; ++e) y[e] = test::fp32_bits(2 * test::fp32_value(x[e]));
      for (uint32_t r = 0; r < P; ++r)
        for (uint32_t c = 0; c < D; ++c) {
          float sum = 0;
          for (uint32_t t = 0; t < cm; ++t) sum += test::fp32_value(x[(size_t(t) * P + r) * 2 * D + c]);
          for (uint32_t rep = 0; rep < 3; ++rep) s[(size_t(rep) * P + r) * D + c] = test::fp32_bits(sum);
        }
      const DeviceRun run = Device(cfg).run(k, p, {{"x", x}, {"n", {cn}}, {"m", {cm}}});
      EXPECT_EQ(run.outputs.at("y"), y) << "n = " << cn << ", m = " << cm;
      EXPECT_EQ(run.outputs.at("s"), s) << "n = " << cn << ", m = " << cm;
    }
  }
}

// A count past the largest: the runtime refuses it; run anyway (the image without the host's
// check), every sequencer raises kTripCountNotify and halts instead of running past the
// tensors.
TEST(TripCount, CountPastItsLargestStops) {
  const CoreConfig cfg = config("tiny");
  const test::TripKernel t = test::trip_kernel(cfg, 3);
  expect_error([&] { Device(cfg).run(*t.k, t.program, t.inputs(4)); },
               {"trip count 'n' is 4", "at most 3"});
  expect_error([&] { Device(cfg).run(*t.k, t.program, t.inputs(uint32_t(-1))); },
               {"trip count 'n' is -1"});
  core::CoreOptions opt;
  opt.hbm_bytes = t.k->hbm_bytes();
  core::CoreModel model(cfg, opt);
  model.hbm().write(t.k->tensors().front()->address, "\x04\0\0\0", 4);
  const core::RunStats stats = model.run(t.program);
  EXPECT_FALSE(stats.notifications.empty());
  for (uint32_t code : stats.notifications) EXPECT_EQ(code, isa::kTripCountNotify);
  const kernel::HbmTensor& y = *t.k->tensors().at(2);
  std::vector<uint8_t> after(y.bytes(), 0xFF);
  model.hbm().read(y.address, after.data(), after.size());
  EXPECT_EQ(after, std::vector<uint8_t>(y.bytes(), 0)) << "y was written";
}

TEST(TripCount, BuilderErrors) {
  const CoreConfig cfg = config("tiny");
  kernel::Kernel k(cfg, "trips");
  expect_error([&] { k.trip_count("zero", 0); }, {"trip count 'zero'", "largest value is 0"});
  const kernel::TripCount n = k.trip_count("n", 4);
  const auto& out = k.output("out", cfg.partitions, 4, Dtype::kFp32);
  auto pool = k.sbuf_pool("p", 1);
  expect_error([&] { k.loop(2, [&](kernel::Index) { k.loop(n, [](kernel::Index) {}); }); },
               {"run-time trip count ('n') must be outermost"});
  expect_error([&] { k.loop(kernel::TripCount{&out, 4}, [](kernel::Index) {}); },
               {"not one of its trip_count()s"});
  expect_error([&] { k.loop(kernel::TripCount{n.tensor, 5}, [](kernel::Index) {}); },
               {"the loop says at most 5, trip_count() said 4"});
  // A window past the tensor at a count the kernel allows is refused when it is built.
  k.loop(n, [&](kernel::Index i) {
    const kernel::Tile a = pool.tile(cfg.partitions, 4, Dtype::kFp32, "a");
    k.memset(k.all(a), 0.0f);
    k.dma_copy(kernel::HbmView{&out, i * 0, i, cfg.partitions, 4}, k.all(a));
  });
  expect_error([&] { k.finish(); }, {"dma_copy at loop iteration", "leave the"});
}

TEST(KernelApi, ImmediatesAreTyped) {
  EXPECT_EQ(kernel::Imm(0.125f).pattern(), 0x3E000000u);
  EXPECT_EQ(kernel::Imm::int32(-7).pattern(), 0xFFFFFFF9u);
  const CoreConfig cfg = config("tiny");
  kernel::Kernel k(cfg, "fill");
  const auto& out = k.output("out", 8, 4, Dtype::kFp32);
  auto pool = k.sbuf_pool("p", 1);
  const kernel::Tile t = pool.tile(8, 4, Dtype::kFp32, "t");
  k.memset(k.all(t), 1.0f);
  kernel::DveArgs scale;
  scale.alu0 = DveAlu::kMultiply;
  scale.imm0 = 0.125f;
  k.tensor_scalar(k.all(t), k.all(t), scale);
  k.dma_copy(kernel::HbmView{&out, 0, 0, 8, 4}, k.all(t));
  const isa::Program p = k.finish();
  EXPECT_EQ(Device(cfg).run(k, p, {}).outputs.at("out"), TensorBits(32, 0x3E000000u));
}

// Run-time accumulate: a K loop of matmuls whose first iteration overwrites the PSUM tile and
// the rest add (Accumulate::when_nonzero), inside a loop over two N tiles that share the one
// PSUM slot, so a first step that added would keep the other tile's sums. Operands are small
// integers in bf16, so every sum is exact and the reference is integer arithmetic.
TEST(KernelApi, RunTimeAccumulateKeepsTheKLoopALoop) {
  const CoreConfig cfg = config("tiny");
  const uint32_t P = cfg.partitions, M = cfg.pe_cols, KT = 6, K = KT * P, NT = 16, N = 2 * NT;
  kernel::Kernel k(cfg, "k_loop");
  const auto& AT = k.input("a_t", K, M, Dtype::kBf16);
  const auto& B = k.input("b", K, N, Dtype::kBf16);
  const auto& C = k.output("c", M, N, Dtype::kFp32);
  auto st_pool = k.sbuf_pool("st", 2), mv_pool = k.sbuf_pool("mv", 2);
  auto acc_pool = k.psum_pool("acc", 1), out_pool = k.sbuf_pool("out", 1);
  k.loop(2, [&](kernel::Index nt) {
    const kernel::Tile acc = acc_pool.tile(M, NT, Dtype::kFp32, "acc");
    k.loop(KT, [&](kernel::Index kt) {
      const kernel::Tile st = st_pool.tile(P, M, Dtype::kBf16, "st");
      k.dma_copy(k.all(st), kernel::window(AT, kt * P, 0, P, M));
      const kernel::Tile mv = mv_pool.tile(P, NT, Dtype::kBf16, "mv");
      k.dma_copy(k.all(mv), kernel::window(B, kt * P, nt * NT, P, NT));
      k.matmul(k.all(acc), k.all(st), k.all(mv), kernel::Accumulate::when_nonzero(kt));
    });
    const kernel::Tile out = out_pool.tile(M, NT, Dtype::kFp32, "out");
    k.tensor_copy(k.all(out), k.all(acc));
    k.dma_copy(kernel::window(C, 0, nt * NT, M, NT), k.all(out));
  });
  const isa::Program p = k.finish();
  const auto& pe = p.streams[size_t(isa::Seq::kPe)];
  EXPECT_TRUE(std::any_of(pe.begin(), pe.end(), [](const isa::Instruction& in) {
    return in.op == isa::Opcode::kMatmul && in.acc_reg != 0;
  })) << "the K loop's first copy decides at run time";

  std::mt19937_64 rng = test::make_rng();
  auto ints = [&](size_t n, std::vector<int>& v) {
    v.resize(n);
    TensorBits bits(n);
    for (size_t i = 0; i < n; ++i) {
      v[i] = int(rng() % 7) - 3;
      bits[i] = convert_from_fp32(Dtype::kBf16, kernel::fbits(float(v[i])), {}, 0);  // exact
    }
    return bits;
  };
  std::vector<int> at, b;
  const TensorBits at_bits = ints(size_t(K) * M, at), b_bits = ints(size_t(K) * N, b);
  TensorBits want(size_t(M) * N);
  for (uint32_t m = 0; m < M; ++m)
    for (uint32_t n = 0; n < N; ++n) {
      int64_t sum = 0;
      for (uint32_t kk = 0; kk < K; ++kk) sum += int64_t(at[size_t(kk) * M + m]) * b[size_t(kk) * N + n];
      want[size_t(m) * N + n] = kernel::fbits(float(sum));
    }
  const DeviceRun run = Device(cfg).run(k, p, {{"a_t", at_bits}, {"b", b_bits}});
  EXPECT_EQ(run.outputs.at("c"), want);

  expect_error([] { kernel::Accumulate::when_nonzero(kernel::Index(-1)); },
               {"when_nonzero", "nonnegative constant"});
  expect_error([] { kernel::Accumulate::when_nonzero(kernel::Index::var(0) * -1 + 4); },
               {"when_nonzero", "positive multiples"});
}

// An instruction past its engine's elements per partition is the kernel's error, naming the
// instruction and the limit, not the engine's fault at run time.
TEST(KernelErrors, EngineFreeSizeLimits) {
  kernel::Kernel k(config("trn2"), "long");
  auto pool = k.sbuf_pool("p", 1);
  const kernel::Tile wide = pool.tile(1, 4097, Dtype::kFp32, "wide");
  const kernel::Tile out = pool.tile(1, 1, Dtype::kFp32, "out");
  expect_error([&] { k.tensor_reduce(k.all(out), k.all(wide), DveAlu::kMax); },
               {"tensor_reduce: 4097 elements per partition", "Vector Engine", "(4096)"});
  k.tensor_reduce(k.all(out), k.sub(wide, 0, 1, 0, 4096), DveAlu::kMax);  // at the limit
  const kernel::Tile bytes = pool.tile(1, 65536, Dtype::kFp8E4M3, "bytes");
  expect_error([&] { k.activation(k.all(bytes), k.all(bytes), {}); },
               {"activate: 65536 elements per partition", "Scalar Engine", "(65535)"});
}

// A shape too large for the 4 GiB a core addresses is an error naming the tensor, not an
// allocation failure (it was "std::bad_alloc") or an address that wraps.
TEST(KernelErrors, TensorsPastTheHbmACoreAddresses) {
  kernel::Kernel k(config("trn2"), "huge");
  k.input("a", 32768, 32768, Dtype::kFp32);  // 4 GiB exactly: nothing after it fits
  expect_error([&] { k.input("b", 1, 1, Dtype::kFp32); },
               {"tensor 'b'", "does not fit the 4 GiB of HBM"});
  kernel::Kernel g(config("trn2"), "gemm_at");
  expect_error([&] { kernels::find_kernel("gemm_at").build(g, {{"m", 1 << 20}, {"k", 1 << 20}, {"n", 8}}); },
               {"tensor 'a_t'", "1048576 x 1048576 bf16"});
}

TEST(KernelErrors, DmaShapesAndDirections) {
  const CoreConfig cfg = config("tiny");
  kernel::Kernel k(cfg, "dma");
  const auto& in = k.input("in", 16, 16, Dtype::kBf16);
  const auto& out = k.output("out", 16, 16, Dtype::kBf16);
  auto pool = k.sbuf_pool("p", 1);
  const kernel::Tile t = pool.tile(8, 16, Dtype::kBf16, "t");
  expect_error([&] { k.dma_copy(k.all(t), kernel::HbmView{&in, 0, 0, 8, 12}); },
               {"HBM window is 8 x 12", "8 x 16"});
  expect_error([&] { k.dma_copy(k.all(t), kernel::HbmView{&in, 12, 0, 8, 16}); },
               {"leave the 16 x 16 tensor"});
  expect_error([&] { k.dma_copy(k.all(t), kernel::HbmView{&out, 0, 0, 8, 16}); },
               {"reads output tensor 'out'"});
  expect_error([&] { k.dma_copy(kernel::HbmView{&in, 0, 0, 8, 16}, k.all(t)); },
               {"must be an output tensor"});
  expect_error([&] { k.sub(t, 4, 8, 0, 16); }, {"partitions 4..12 outside its 8"});
}

// Indices that grow with a loop are checked at every iteration, not only when constant: the
// second iteration's window (cols 48..80 of a 64-column tensor, elements 48..79 of a 64-element
// tile) would have written past the tensor or tile.
TEST(KernelErrors, LoopIndexedWindowsStayInside) {
  const CoreConfig cfg = config("tiny");
  expect_error(
      [&] {
        kernel::Kernel k(cfg, "loop_dma");
        const auto& in = k.input("in", 8, 64, Dtype::kFp32);
        const auto& out = k.output("out", 8, 64, Dtype::kFp32);
        auto pool = k.sbuf_pool("p", 2);
        k.loop(2, [&](kernel::Index i) {
          const kernel::Tile t = pool.tile(8, 32, Dtype::kFp32, "t");
          k.dma_copy(k.all(t), kernel::HbmView{&in, 0, i * 32, 8, 32});
          k.dma_copy(kernel::HbmView{&out, 0, i * 48, 8, 32}, k.all(t));
        });
        k.finish();
      },
      {"dma_copy", "rows 0..8 x cols 48..80 leave the 8 x 64 tensor 'out'"});
  expect_error(
      [&] {
        kernel::Kernel k(cfg, "loop_view");
        auto pool = k.sbuf_pool("p", 1);
        const kernel::Tile a = pool.tile(8, 64, Dtype::kFp32, "a");
        k.memset(k.all(a), 0.0f);
        k.loop(2, [&](kernel::Index i) { k.tensor_copy(k.sub(a, 0, 8, i * 48, 32), k.sub(a, 0, 8, 0, 32)); });
        k.finish();
      },
      {"tensor_copy", "elements 48..79 of tile 'a' are outside its 64"});
}

// A per-partition scale or bias needs a value for every output partition.
TEST(KernelErrors, PerPartitionScalarsCoverTheOutput) {
  const CoreConfig cfg = config("tiny");
  kernel::Kernel k(cfg, "bias");
  auto pool = k.sbuf_pool("p", 1);
  const kernel::Tile x = pool.tile(8, 16, Dtype::kFp32, "x");
  const kernel::Tile b = pool.tile(4, 1, Dtype::kFp32, "b");
  kernel::ActArgs a;
  a.bias_vec = k.all(b);
  expect_error([&] { k.activation(k.all(x), k.all(x), a); },
               {"activation bias_vec: the view has 4 partitions, the output 8"});
}

TEST(DeviceErrors, InputsAreCheckedByNameAndSize) {
  const CoreConfig cfg = config("tiny");
  const RefKernel& ref = kernels::find_kernel("softmax");
  const Shape s = ref.default_shape(cfg);
  Built b = build(ref, cfg, s);
  Device dev(cfg);
  expect_error([&] { dev.run(*b.k, b.program, {}); }, {"input 'x' was not given"});
  expect_error([&] { dev.run(*b.k, b.program, {{"x", TensorBits(3)}}); },
               {"input 'x' has 3 elements"});
  auto in = ref.inputs(s, 1);
  in["w"] = TensorBits(1);
  expect_error([&] { dev.run(*b.k, b.program, in); }, {"has no input 'w'"});
}

// rtl and cross without the platform's runner (no global registry to fall back on).
TEST(DeviceErrors, RtlBackendsNeedTheirRunner) {
  const CoreConfig cfg = config("tiny");
  const RefKernel& ref = kernels::find_kernel("softmax");
  const Shape s = ref.default_shape(cfg);
  Built b = build(ref, cfg, s);
  for (Backend backend : {Backend::kRtl, Backend::kCross})
    expect_error([&] { Device(cfg, backend).run(*b.k, b.program, ref.inputs(s, 1)); },
                 {"kernel 'softmax': backend", "needs the RTL platform's runner in DeviceOptions::rtl"});
}

// --- trace JSON ------------------------------------------------------------------------------

TEST(Trace, IsChromeTraceEventJsonWithOneThreadPerEngine) {
  const CoreConfig cfg = config("tiny");
  const RefKernel& ref = kernels::find_kernel("attention");
  const Shape s = ref.default_shape(cfg);
  Built b = build(ref, cfg, s);
  const DeviceRun run = Device(cfg).run(*b.k, b.program, ref.inputs(s, 1));
  const test::TraceSummary t = test::check_trace_json(trace_json(run.trace, "attention"));
  EXPECT_EQ(t.time_unit, "estimated cycles");
  EXPECT_GE(t.slices, run.trace.size());
  const std::set<std::string>& names = t.threads;
  for (const char* engine : {"pe", "act", "dve", "pool", "sp"})
    EXPECT_TRUE(names.count(engine)) << engine << " has no thread";
  // The kernel's loads and stores take the DMA engines in turn: a thread per queue used.
  const size_t queues = size_t(std::count_if(names.begin(), names.end(), [](const std::string& n) {
    return n.rfind("dma.q", 0) == 0;
  }));
  EXPECT_GE(queues, 2u);
}

// Names and annotations are text a program can carry (a kernel's name, a sync annotation):
// quotes, backslashes and control characters come out as valid JSON, unchanged.
TEST(Trace, EscapesWhatItQuotes) {
  core::TraceEvent e;
  e.agent = "pe";
  e.name = "say \"hi\" \\ now";
  e.detail = "line\none\ttab";
  e.start = 5;
  e.end = 9;
  e.wait_start = 2;
  const std::string json = trace_json({e}, "kernel \"k\"", "cycles");
  const test::TraceSummary t = test::check_trace_json(json);
  EXPECT_EQ(t.slices, 2u);  // the wait and the instruction
  const YAML::Node doc = YAML::Load(json);
  const YAML::Node last = doc["traceEvents"][doc["traceEvents"].size() - 1];
  EXPECT_EQ(last["name"].as<std::string>(), e.name);
  EXPECT_EQ(last["args"]["sync"].as<std::string>(), e.detail);
  EXPECT_EQ(doc["traceEvents"][0]["args"]["name"].as<std::string>(), "tern kernel \"k\"");
}

}  // namespace
}  // namespace tern
