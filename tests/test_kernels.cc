// The kernel API, the reference kernels and the runtime, end to end on the golden core model:
// every kernel against its fp64 reference on every config, random shapes, the automatic
// synchronisation (every wait it inserts is needed; without them the race detector fires),
// the builder's and the runtime's errors, and the trace JSON.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <set>

#include "common/error.h"
#include "core/core_model.h"
#include "kernels/kernels.h"
#include "runtime/device.h"
#include "test_util.h"
#include "trace_check.h"

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
    testing::Combine(testing::Values("gemm", "gemm_at", "gemm_at_bf16", "softmax", "layernorm",
                                     "rmsnorm", "mlp", "attention"),
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
    for (auto& stream : b.program.streams) {
      for (auto& instr : stream) {
        if (!instr.sync.wait) continue;
        ++waits;
        instr.sync.wait = false;
        EXPECT_EQ(fault_of(b, cfg, in), int(core::FaultKind::kRace))
            << name << ": dropping the wait of a " << isa::opcode_info(uint8_t(instr.op))->mnemonic
            << " did not cause a race";
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
        k.memset(k.all(t), 0);
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
        k.memset(k.all(a), 0);
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
