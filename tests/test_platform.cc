// The SystemC TLM-2.0 platform (tb/platform/, docs/platform.md) around the verilated NeuronCore
// on the tiny config: the reference kernels at every comparison depth, each depth catching an
// injected mismatch, HBM latency and bandwidth showing in the cycles, the golden model's cycle
// estimate against the RTL's, an AXI error, and the timeline from the trace port. CTest runs each test in its own process, so each process
// elaborates one platform (SystemC elaborates once per process) and runs it for every program.
// The verilated model before <systemc> (see tb/platform/core_platform.cc).
#include "Vtern_core_tiny.h"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>
#include <memory>
#include <set>
#include <systemc>

#include "common/config.h"
#include "core/csr_map.h"
#include "isa/asm.h"
#include "isa/image.h"
#include "isa/isa.h"
#include "stimulus/kernel_random.h"
#include "kernels/kernels.h"
#include "platform/platform_check.h"
#include "runtime/rtl_backend.h"
#include "runtime/device.h"
#include "trace_check.h"
#include "trip_kernel.h"

namespace tern {
namespace {

using Platform = tb::CorePlatform<Vtern_core_tiny>;

CoreConfig tiny() { return load_config(std::string(TERN_CONFIG_DIR) + "/tiny.yaml"); }

// tern::Device's options with the platform as its RTL backends.
DeviceOptions rtl_options() {
  DeviceOptions o;
  o.rtl = rtl_runner();
  return o;
}

// The process's one platform.
Platform& platform() {
  static std::unique_ptr<Platform> p = [] {
    tb::PlatformOptions o;
    o.core_port = {200, 64};
    return std::make_unique<Platform>("platform", o);
  }();
  return *p;
}

std::string joined(const std::vector<std::string>& errors) {
  return fmt::format("{}", fmt::join(errors, "\n"));
}

stimulus::KernelImage kernel_image(const std::string& name) {
  const CoreConfig cfg = tiny();
  const kernels::RefKernel& ref = kernels::find_kernel(name);
  return stimulus::reference_kernel_image(ref, cfg, ref.default_shape(cfg), 1);
}

// A reference kernel built through the kernel API, with its inputs.
struct BuiltKernel {
  const kernels::RefKernel& ref;
  kernels::Shape shape;
  std::unique_ptr<kernel::Kernel> k;
  isa::Program program;
  kernels::Tensors inputs;
};

BuiltKernel build_kernel(const kernels::RefKernel& ref, uint32_t seed) {
  BuiltKernel b{ref, ref.default_shape(tiny()), std::make_unique<kernel::Kernel>(tiny(), ref.name), {}, {}};
  ref.build(*b.k, b.shape);
  b.program = b.k->finish();
  b.inputs = ref.inputs(b.shape, seed);
  return b;
}

// The golden estimate of a run against the RTL's cycles.
void expect_estimate_close(const tb::PlatformCompare& c) {
  const double ratio = double(c.outcome.golden.cycles) / double(c.run.cycles);
  fmt::print("  golden estimate {} cycles, RTL {}: {:.3f}\n", c.outcome.golden.cycles, c.run.cycles, ratio);
  EXPECT_LE(std::abs(ratio - 1), tb::kGoldenCycleTolerance)
      << "golden estimate " << c.outcome.golden.cycles << " cycles, RTL " << c.run.cycles;
}

void check_reference_kernels(tb::CheckDepth depth) {
  const CoreConfig cfg = tiny();
  for (const kernels::RefKernel& ref : kernels::reference_kernels()) {
    SCOPED_TRACE(ref.name);
    const stimulus::KernelImage img = kernel_image(ref.name);
    const tb::PlatformCompare c =
        tb::platform_compare(platform(), cfg, img.program, img.hbm, img.regions, depth);
    EXPECT_TRUE(c.outcome.errors.empty()) << joined(c.outcome.errors);
    EXPECT_FALSE(c.outcome.golden_fault);
    EXPECT_GT(c.outcome.golden_changed_bytes, 0u) << "the kernel wrote nothing";
    if (depth != tb::CheckDepth::kEnd) {
      EXPECT_GT(c.scoreboard_bytes, 0u);
      EXPECT_GT(c.scoreboard_transfers, 0u);
    }
    if (depth == tb::CheckDepth::kLockstep) {
      uint64_t golden_instructions = 0;
      for (const auto& s : c.outcome.golden.seq) golden_instructions += s.instructions;
      EXPECT_EQ(c.lockstep_instructions, golden_instructions);
    }
    EXPECT_EQ(c.run.axi.reads > 0, true);
    expect_estimate_close(c);
    fmt::print("{}: {} cycles, {} AXI reads / {} writes, {:.0f} cycles/s\n", ref.name,
               c.run.cycles, c.run.axi.reads, c.run.axi.writes,
               double(c.run.cycles) / std::max(c.run.wall_seconds, 1e-9));
  }
}

TEST(Platform, ReferenceKernelsEndCompare) { check_reference_kernels(tb::CheckDepth::kEnd); }
TEST(Platform, ReferenceKernelsTransferScoreboard) { check_reference_kernels(tb::CheckDepth::kTransfer); }
TEST(Platform, ReferenceKernelsLockstep) { check_reference_kernels(tb::CheckDepth::kLockstep); }

// Shapes past a kernel's simple tiling, on the RTL against the golden model: attention's head
// dim past the partitions (the scores accumulate over chunks), a row too long for two row
// tiles in SBUF (rmsnorm single-buffered), gemm_at's K loop of 8 steps an iteration with b
// streamed in blocks, gemm's blocks of m tiles, and a decode-shaped fp8 GEMM whose group of b
// slices loads as one tile in pieces (the fp64 checks: test_kernels).
TEST(Platform, KernelsPastTheirSimpleTiling) {
  const CoreConfig cfg = tiny();
  const std::vector<std::pair<std::string, kernels::Shape>> runs{
      {"attention", {{"d", 2 * cfg.partitions + 5}, {"s", 20}}},
      {"rmsnorm", {{"d", cfg.sbuf_partition_bytes / 16}, {"rows", cfg.partitions + 1}}},
      {"softmax", {{"d", cfg.sbuf_partition_bytes / 10}, {"rows", cfg.partitions + 1}}},
      {"gemm_at", {{"m", 9 * cfg.partitions + 3}, {"k", 20 * cfg.pe_rows + 3}, {"n", 100}}},
      {"gemm", {{"m", 9 * cfg.partitions + 3}, {"k", 5 * cfg.pe_rows}, {"n", 500}}},
      {"gemm_at_fp8", {{"m", 5}, {"k", 8 * cfg.pe_rows}, {"n", 1100}}},
  };
  for (const auto& [name, shape] : runs) {
    SCOPED_TRACE(fmt::format("{} {}", name, kernels::shape_text(shape)));
    const stimulus::KernelImage img = stimulus::reference_kernel_image(kernels::find_kernel(name), cfg, shape, 3);
    const tb::PlatformCompare c =
        tb::platform_compare(platform(), cfg, img.program, img.hbm, img.regions, tb::CheckDepth::kEnd);
    EXPECT_TRUE(c.outcome.errors.empty()) << joined(c.outcome.errors);
    EXPECT_GT(c.outcome.golden_changed_bytes, 0u) << "the kernel wrote nothing";
    expect_estimate_close(c);
  }
}

// The golden side sees one input element changed: every depth must notice, transfer and
// lockstep at the HBM write itself (a "transfer:" error with the cycle), end at the end.
std::vector<uint8_t> with_input_changed(const stimulus::KernelImage& img) {
  std::vector<uint8_t> hbm = img.hbm;
  for (const tb::HbmRegion& r : img.regions)
    if (r.name.find("out") == std::string::npos && r.bytes > 0) {
      hbm[r.address] ^= 0x40;  // an exponent bit of the first element's low half
      hbm[r.address + r.elem_bytes - 1] ^= 0x40;
      break;
    }
  return hbm;
}

TEST(Platform, EndCompareCatchesAWrongOutput) {
  const stimulus::KernelImage img = kernel_image("gemm");
  const std::vector<uint8_t> golden_hbm = with_input_changed(img);
  const tb::PlatformCompare c = tb::platform_compare(platform(), tiny(), img.program, img.hbm,
                                                     img.regions, tb::CheckDepth::kEnd,
                                                     {nullptr, &golden_hbm});
  ASSERT_FALSE(c.outcome.errors.empty());
  EXPECT_NE(c.outcome.errors[0].find("golden writer"), std::string::npos) << joined(c.outcome.errors);
}

TEST(Platform, TransferScoreboardCatchesAWrongWriteAsItHappens) {
  const stimulus::KernelImage img = kernel_image("gemm");
  const std::vector<uint8_t> golden_hbm = with_input_changed(img);
  const tb::PlatformCompare c = tb::platform_compare(platform(), tiny(), img.program, img.hbm,
                                                     img.regions, tb::CheckDepth::kTransfer,
                                                     {nullptr, &golden_hbm});
  ASSERT_FALSE(c.outcome.errors.empty());
  EXPECT_EQ(c.outcome.errors[0].rfind("transfer: cycle", 0), 0u) << joined(c.outcome.errors);
  EXPECT_NE(c.outcome.errors[0].find("dma d"), std::string::npos) << c.outcome.errors[0];
}

// The golden side runs the same control program with one immediate changed (sp, pc 1): the
// values differ but not the control flow, and lock-step stops at that instruction's retire.
TEST(Platform, LockstepCatchesAWrongRegisterValue) {
  const std::string text = R"(
.seq pe
  halt
.seq act
  halt
.seq dve
  halt
.seq pool
  halt
.seq sp
  add r5, r0, 7
  add r6, r5, 3
  add r7, r6, r5
  halt
)";
  const isa::Program rtl_program = isa::assemble(text, "lockstep");
  std::string changed = text;
  changed.replace(changed.find("r5, 3"), 5, "r5, 4");
  const isa::Program golden_program = isa::assemble(changed, "lockstep-golden");
  const std::vector<uint8_t> hbm(4096, 0);
  const tb::PlatformCompare same = tb::platform_compare(platform(), tiny(), rtl_program, hbm, {},
                                                        tb::CheckDepth::kLockstep);
  EXPECT_TRUE(same.outcome.errors.empty()) << joined(same.outcome.errors);
  EXPECT_EQ(same.lockstep_instructions, 8u);
  const tb::PlatformCompare c = tb::platform_compare(platform(), tiny(), rtl_program, hbm, {},
                                                     tb::CheckDepth::kLockstep,
                                                     {&golden_program, nullptr});
  ASSERT_FALSE(c.outcome.errors.empty());
  EXPECT_EQ(c.outcome.errors[0].rfind("lockstep: cycle", 0), 0u) << joined(c.outcome.errors);
  EXPECT_NE(c.outcome.errors[0].find("sp retired pc 1 (writes r6 = 0xa)"), std::string::npos)
      << c.outcome.errors[0];
}

// The host checks the core's CONFIG CSRs against the program's config before it loads anything:
// a program built for small does not run on the tiny core.
TEST(Platform, ConfigMismatchIsAClearError) {
  const CoreConfig small = load_config(std::string(TERN_CONFIG_DIR) + "/small.yaml");
  const isa::Program halt = isa::assemble(
      ".seq pe\n  halt\n.seq act\n  halt\n.seq dve\n  halt\n.seq pool\n  halt\n.seq sp\n  halt\n", "halt");
  try {
    platform().run(halt, std::vector<uint8_t>(4096), 8192, 4096, &small);
    ADD_FAILURE() << "a small program ran on the tiny core";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("the core reports partitions = 8; config 'small' has 32"),
              std::string::npos) << e.what();
  }
  const CoreConfig cfg = tiny();
  const tb::PlatformRun ok = platform().run(halt, std::vector<uint8_t>(4096), 8192, 4096, &cfg);
  EXPECT_FALSE(ok.status.timed_out);
}

// HBM latency and bandwidth are the target's: a longer latency costs cycles, a narrower port
// too, and the results stay bit-exact.
TEST(Platform, HbmLatencyAndBandwidthShowInCycles) {
  const stimulus::KernelImage img = kernel_image("gemm");
  auto cycles = [&](tb::HbmPortTiming t) {
    platform().hbm().set_timing(0, t);
    const tb::PlatformCompare c = tb::platform_compare(platform(), tiny(), img.program, img.hbm,
                                                       img.regions, tb::CheckDepth::kEnd);
    EXPECT_TRUE(c.outcome.errors.empty()) << joined(c.outcome.errors);
    return c.run.cycles;
  };
  const uint64_t fast = cycles({20, 64}), slow = cycles({400, 64}), narrow = cycles({20, 4});
  platform().hbm().set_timing(0, {200, 64});
  fmt::print("gemm: latency 20: {} cycles, latency 400: {}, 4 bytes/cycle: {}\n", fast, slow, narrow);
  EXPECT_GT(slow, fast);
  EXPECT_GT(narrow, fast);
}

// The golden model's cycle estimate (docs/core-model.md "Timing") predicts the RTL platform's
// cycles within tb::kGoldenCycleTolerance on every reference kernel, at a short and a long HBM
// latency (the default, 200, is checked by ReferenceKernels*). A port narrower than a beat a
// cycle is not held to it (docs/core-model.md: 0.83-0.98 at 16 bytes a cycle).
TEST(Platform, GoldenCyclesPredictTheRtl) {
  for (const tb::HbmPortTiming t : {tb::HbmPortTiming{64, 64}, tb::HbmPortTiming{500, 64}}) {
    platform().hbm().set_timing(0, t);
    for (const kernels::RefKernel& ref : kernels::reference_kernels()) {
      SCOPED_TRACE(fmt::format("{}, HBM latency {}, {} bytes/cycle", ref.name, t.latency_cycles, t.bytes_per_cycle));
      const stimulus::KernelImage img = kernel_image(ref.name);
      const tb::PlatformCompare c = tb::platform_compare(platform(), tiny(), img.program, img.hbm,
                                                         img.regions, tb::CheckDepth::kEnd);
      EXPECT_TRUE(c.outcome.errors.empty()) << joined(c.outcome.errors);
      expect_estimate_close(c);
    }
  }
  platform().hbm().set_timing(0, {200, 64});
}

// SLVERR on the kernel's input: the DMA engine faults and raises the DMA-error interrupt; the
// next run (after the platform's reset) is clean again.
TEST(Platform, SlverrFaultsTheDmaThenARunIsCleanAgain) {
  const stimulus::KernelImage img = kernel_image("gemm");
  const tb::HbmRegion& in = img.regions.front();
  platform().hbm().add_slverr(in.address, in.address + in.bytes);
  const uint32_t program_base = isa::image_program_base(img.hbm.size());
  const tb::PlatformRun bad =
      platform().run(img.program, img.hbm, isa::image_hbm_bytes(img.program, program_base), program_base);
  platform().hbm().clear_errors();
  bool dma_fault = false;
  for (const auto& d : bad.status.dma) dma_fault |= csr::dma::kErrStatusCode.get(d.err_status) != 0;
  EXPECT_TRUE(dma_fault);
  EXPECT_FALSE(bad.status.timed_out);
  EXPECT_NE(bad.status.irq_status & csr::glb::kIrqDmaError.mask(), 0u);
  const tb::PlatformCompare c = tb::platform_compare(platform(), tiny(), img.program, img.hbm,
                                                     img.regions, tb::CheckDepth::kLockstep);
  EXPECT_TRUE(c.outcome.errors.empty()) << joined(c.outcome.errors);
}

// The trace port's timeline: every golden instruction and DMA transfer appears once, in order
// per engine, with issue <= wait_start <= start < end.
TEST(Platform, TimelineHasEveryInstructionAndTransfer) {
  const stimulus::KernelImage img = kernel_image("attention");
  const tb::PlatformCompare c = tb::platform_compare(platform(), tiny(), img.program, img.hbm,
                                                     img.regions, tb::CheckDepth::kEnd);
  ASSERT_TRUE(c.outcome.errors.empty()) << joined(c.outcome.errors);
  uint64_t golden_instr = 0;
  for (const auto& s : c.outcome.golden.seq) golden_instr += s.instructions;
  uint64_t instr = 0, dma = 0;
  for (const core::TraceEvent& e : c.run.timeline) {
    (e.agent.rfind("dma.", 0) == 0 ? dma : instr)++;
    EXPECT_LE(e.issue, e.wait_start) << e.name;
    EXPECT_LE(e.wait_start, e.start) << e.name;
    EXPECT_LT(e.start, e.end) << e.name;
    EXPECT_LE(e.end, c.run.cycles + 64) << e.name;
  }
  EXPECT_EQ(instr, golden_instr);
  EXPECT_EQ(dma, c.outcome.golden.dma_transfers);
}

// Every reference kernel through tern::Device on the RTL backend: the outputs equal the golden
// backend's bit for bit and pass the kernel's own fp64 check. The backend elaborates its own
// platform, and SystemC elaborates once per process: these cases pass under CTest, which runs
// each case in its own process, but not after another case in the same run of the binary.
TEST(Platform, DeviceRtlBackendRunsEveryReferenceKernel) {
  for (const kernels::RefKernel& ref : kernels::reference_kernels()) {
    SCOPED_TRACE(ref.name);
    const BuiltKernel b = build_kernel(ref, 2);
    const DeviceRun golden = Device(tiny()).run(*b.k, b.program, b.inputs);
    const DeviceRun rtl = Device(tiny(), Backend::kRtl, rtl_options()).run(*b.k, b.program, b.inputs);
    EXPECT_EQ(rtl.outputs, golden.outputs);
    EXPECT_TRUE(ref.check(b.shape, b.inputs, rtl.outputs).ok());
    uint64_t retired = 0;
    for (uint64_t n : rtl.rtl->retired) retired += n;
    uint64_t executed = 0;
    for (const auto& s : golden.stats.seq) executed += s.instructions;
    EXPECT_EQ(retired, executed);
  }
}

// A run-time trip count on the RTL: one program at no iterations, an odd count (the loop
// leaves after the first copy of its body) and the largest, against outputs computed from the
// inputs; the odd count again through the cross backend in lock step.
TEST(Platform, RunTimeTripCount) {
  const test::TripKernel t = test::trip_kernel(tiny(), 5);
  for (uint32_t n : {0u, 3u, 5u})
    EXPECT_EQ(Device(tiny(), Backend::kRtl, rtl_options()).run(*t.k, t.program, t.inputs(n)).outputs, t.expected(n))
        << "n = " << n;
  DeviceOptions lockstep = rtl_options();
  lockstep.check = "lockstep";
  const DeviceRun cross = Device(tiny(), Backend::kCross, lockstep).run(*t.k, t.program, t.inputs(3));
  EXPECT_EQ(cross.outputs, t.expected(3));
}

// A count past the largest, in an image the host did not check: the RTL and the golden model
// stop the same way (every sequencer notifies and halts), instruction for instruction.
TEST(Platform, TripCountPastItsLargestHaltsLikeGolden) {
  const test::TripKernel t = test::trip_kernel(tiny(), 2);
  std::vector<uint8_t> hbm(t.k->hbm_bytes(), 0);
  hbm[t.k->tensors().front()->address] = 3;
  const tb::PlatformCompare c =
      tb::platform_compare(platform(), tiny(), t.program, hbm, {}, tb::CheckDepth::kLockstep);
  EXPECT_TRUE(c.outcome.errors.empty()) << joined(c.outcome.errors);
  EXPECT_GT(c.lockstep_instructions, 0u);
  for (uint32_t code : c.run.status.err_code) EXPECT_EQ(code, 0u);
}

// The RTL backend through tern::Device, and its profile: Chrome trace-event JSON that Perfetto
// opens (every slice on a named thread, no two slices of one thread overlapping, the RTL's
// time unit), with every engine and DMA queue of the kernel on its own thread.
TEST(Platform, DeviceRtlBackendProfileIsAValidPerfettoTrace) {
  const BuiltKernel b = build_kernel(kernels::find_kernel("attention"), 1);
  const DeviceRun golden = Device(tiny()).run(*b.k, b.program, b.inputs);
  const DeviceRun rtl = Device(tiny(), Backend::kRtl, rtl_options()).run(*b.k, b.program, b.inputs);
  EXPECT_EQ(rtl.outputs, golden.outputs);
  ASSERT_TRUE(rtl.rtl.has_value());
  EXPECT_GT(rtl.rtl->cycles, 0u);
  DeviceOptions lockstep = rtl_options();
  lockstep.check = "lockstep";
  const DeviceRun cross = Device(tiny(), Backend::kCross, lockstep).run(*b.k, b.program, b.inputs);
  EXPECT_EQ(cross.outputs, golden.outputs);
  EXPECT_GT(cross.rtl->lockstep_instructions, 0u);

  const test::TraceSummary t = test::check_trace_json(trace_json(rtl.trace, "attention", "RTL cycles"));
  EXPECT_EQ(t.time_unit, "RTL cycles");
  EXPECT_GE(t.slices, rtl.trace.size());
  for (const char* agent : {"pe", "act", "dve", "pool", "sp"})
    EXPECT_TRUE(t.threads.count(agent)) << agent << " has no thread";
  // Every DMA queue the kernel uses (the golden run's) has its thread.
  std::set<std::string> queues;
  for (const auto& e : golden.trace)
    if (e.agent.rfind("dma.", 0) == 0) queues.insert(e.agent);
  EXPECT_GE(queues.size(), 2u);
  for (const std::string& q : queues) EXPECT_TRUE(t.threads.count(q)) << q << " has no thread";
}

}  // namespace
}  // namespace tern

int sc_main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
