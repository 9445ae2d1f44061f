// Engine instructions through the core RTL (rtl/core/tern_core_compute.sv: sequencers, SBUF,
// PSUM and the PE, ACT, DVE and POOL datapaths) against the golden core model: random
// instructions with random access patterns over random SBUF/PSUM contents must leave both
// memories identical, and bad operands must stop the sequencer at the same pc with the golden
// code.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <set>

#include "common/config.h"
#include "act/scalar_engine.h"
#include "core/core_model.h"
#include "control_random.h"
#include "core_check.h"
#include "dve/vector_engine.h"
#include "isa/asm.h"
#include "stimulus/kernel_random.h"
#include "pe/pe_types.h"
#include "test_util.h"

namespace tern {
namespace {

template <typename Harness>
struct ConfigOf;
template <>
struct ConfigOf<tb::RtlCoreComputeTiny> {
  static constexpr const char* kName = "tiny";
};
#if TERN_SMALL_CORE
template <>
struct ConfigOf<tb::RtlCoreComputeSmall> {
  static constexpr const char* kName = "small";
};
#endif

template <typename Harness>
class CoreComputeTest : public ::testing::Test {
 protected:
  CoreConfig cfg = load_config(std::string(TERN_CONFIG_DIR) + "/" + ConfigOf<Harness>::kName + ".yaml");

  void compare(const isa::Program& p, uint32_t span, std::mt19937_64& rng, const std::string& what,
               const std::set<uint32_t>& psum_rows = {}) {
    Harness rtl(tb::kCoreHbmBytes);
    const std::vector<std::string> errors =
        tb::compare_with_golden(cfg, rtl, p, span, rng, nullptr, psum_rows);
    EXPECT_TRUE(errors.empty()) << what << ":\n" << fmt::format("{}", fmt::join(errors, "\n"));
  }

  // One sequencer's program (body, then halt): its cycles alone on the RTL, and its results
  // against the golden model over the first span bytes.
  uint64_t run_and_compare(const std::string& seq, const std::string& body, uint32_t span,
                           std::mt19937_64& rng, const char* what) {
    const std::string text = ".seq " + seq + "\n" + body + "  halt\n";
    SCOPED_TRACE(text);
    const isa::Program p = isa::assemble(text, what);
    Harness rtl(tb::kCoreHbmBytes);
    const tb::SeqRunResult r = rtl.run(p, 0);
    EXPECT_FALSE(r.timed_out) << what;
    compare(p, span, rng, what);
    return r.cycles;
  }
};

#if TERN_SMALL_CORE
using Harnesses = ::testing::Types<tb::RtlCoreComputeTiny, tb::RtlCoreComputeSmall>;
#else
using Harnesses = ::testing::Types<tb::RtlCoreComputeTiny>;
#endif
TYPED_TEST_SUITE(CoreComputeTest, Harnesses);

// Random Vector Engine instructions, on DVE or POOL, each with its own random operands.
TYPED_TEST(CoreComputeTest, RandomInstructionsMatchGolden) {
  auto rng = test::make_rng();
  for (int prog = 0; prog < 30; ++prog) {
    uint32_t span = 0;
    const isa::Program p = tb::random_vec_program(this->cfg, rng, &span);
    SCOPED_TRACE(isa::disassemble(p));
    this->compare(p, span, rng, fmt::format("program {}", prog));
  }
}

// Random Tensor Engine rounds on PE: ldstat, matmuls into PSUM (overwrite and accumulate,
// every legal dtype pair, fp32 three-pass pairs), pe_transpose.
TYPED_TEST(CoreComputeTest, RandomTensorEngineProgramsMatchGolden) {
  auto rng = test::make_rng();
  for (int prog = 0; prog < 30; ++prog) {
    uint32_t span = 0;
    std::set<uint32_t> psum_rows;  // random before, compared after: the words the matmuls write
    const isa::Program p = tb::random_pe_program(this->cfg, rng, &span, &psum_rows);
    SCOPED_TRACE(isa::disassemble(p));
    this->compare(p, span, rng, fmt::format("program {}", prog), psum_rows);
  }
}

// Random Scalar Engine instructions on ACT.
TYPED_TEST(CoreComputeTest, RandomScalarEngineProgramsMatchGolden) {
  auto rng = test::make_rng();
  for (int prog = 0; prog < 30; ++prog) {
    uint32_t span = 0;
    const isa::Program p = tb::random_act_program(this->cfg, rng, &span);
    SCOPED_TRACE(isa::disassemble(p));
    this->compare(p, span, rng, fmt::format("program {}", prog));
  }
}

// Bad Tensor and Scalar Engine operands stop PE or ACT like the golden model.
TYPED_TEST(CoreComputeTest, BadEngineOperandsFaultLikeGolden) {
  auto rng = test::make_rng();
  const uint32_t P = this->cfg.partitions, R = this->cfg.pe_rows;
  const std::string ld = ".seq pe\n  ldstat sbuf.bf16[0:4, 0][[1,3]]\n";
  const std::string bad[] = {
      // matmul before any ldstat: the engine rejects it
      ".seq pe\n  matmul psum.fp32[0:3, 0][[1,5]], sbuf.bf16[0:4, 64][[1,5]]\n  halt\n",
      // ldstat K past the rows (P > rows never happens here, so use M past the columns)
      fmt::format(".seq pe\n  ldstat sbuf.bf16[0:{}, 0][[1,{}]]\n  halt\n", P, R + 1),
      // ldstat of a dtype the engine does not take
      ".seq pe\n  ldstat sbuf.int32[0:4, 0][[1,3]]\n  halt\n",
      // matmul output in SBUF, not fp32, not from partition 0, not contiguous
      ld + "  matmul sbuf.fp32[0:3, 0][[1,5]], sbuf.bf16[0:4, 64][[1,5]]\n  halt\n",
      ld + "  matmul psum.bf16[0:3, 0][[1,5]], sbuf.bf16[0:4, 64][[1,5]]\n  halt\n",
      ld + fmt::format("  matmul psum.fp32[{}:{}, 0][[1,5]], sbuf.bf16[0:4, 64][[1,5]]\n  halt\n", P / 2, P / 2 + 3),
      ld + "  matmul psum.fp32[0:3, 0][[2,5]], sbuf.bf16[0:4, 64][[1,5]]\n  halt\n",
      // M, N and K that disagree with the stationary tile
      ld + "  matmul psum.fp32[0:2, 0][[1,5]], sbuf.bf16[0:4, 64][[1,5]]\n  halt\n",
      ld + "  matmul psum.fp32[0:3, 0][[1,5]], sbuf.bf16[0:4, 64][[1,6]]\n  halt\n",
      ld + "  matmul psum.fp32[0:3, 0][[1,5]], sbuf.bf16[0:2, 64][[1,5]]\n  halt\n",
      ld + "  pe_transpose psum.fp32[0:3, 0][[1,5]]\n  halt\n",
      // N past the bank's end: the engine rejects it
      ld + fmt::format("  matmul psum.fp32[0:3, {}][[1,5]], sbuf.bf16[0:4, 64][[1,5]]\n  halt\n",
                       this->cfg.psum_bank_bytes - 8),
      // activate: shapes that disagree, a bad function, load_reduce without acc_load, acc_out
      // of two elements, a scale outside SBUF
      ".seq act\n  activate sbuf.fp32[0:2, 64][[1,4]], sbuf.fp32[0:2, 0][[1,5]], func=copy, scale=1.0, bias=0.0\n  halt\n",
      ".seq act\n  activate sbuf.fp32[0:2, 64][[1,4]], sbuf.fp32[0:1, 0][[1,4]], func=copy, scale=1.0, bias=0.0\n  halt\n",
      ".seq act\n  activate sbuf.fp32[0:2, 64][[1,4]], sbuf.fp32[0:2, 0][[1,4]], func=copy, scale=1.0, bias=0.0, reduce=load_reduce:add\n  halt\n",
      ".seq act\n  activate sbuf.fp32[0:2, 64][[1,4]], sbuf.fp32[0:2, 0][[1,4]], func=copy, scale=1.0, bias=0.0, acc_out=sbuf.fp32[0:2, 128][[1,2]]\n  halt\n",
      fmt::format(".seq act\n  activate sbuf.fp32[0:2, 64][[1,4]], sbuf.fp32[0:2, 0][[1,4]], func=copy, "
                  "scale=sbuf.fp32[0:, {}], bias=0.0\n  halt\n", this->cfg.sbuf_partition_bytes),
      // activate of an integer dtype: the engine rejects it
      ".seq act\n  activate sbuf.int32[0:2, 64][[1,4]], sbuf.fp32[0:2, 0][[1,4]], func=copy, scale=1.0, bias=0.0\n  halt\n",
      // activate of 65536 elements (one, re-read): more than the engine takes (the RTL used to
      // run 65535 of them and wait for the last forever)
      ".seq act\n  activate sbuf.fp32[0:2, 64][[0,2],[0,32768]], sbuf.fp32[0:2, 0][[0,2],[0,32768]], func=copy, scale=1.0, bias=0.0\n  halt\n",
  };
  for (const std::string& text : bad) {
    SCOPED_TRACE(text);
    const isa::Program p = isa::assemble(text, "bad");
    core::CoreModel golden(this->cfg, {});
    EXPECT_THROW(golden.run(p), core::CoreFault);
    this->compare(p, 256, rng, text);
  }
}

// The adapters read ahead of their engines (tern_beat_fifo): one streamed operand moves a beat
// per cycle. Each program is one instruction of N beats; with one read at a time it took about
// 3N cycles. The bound allows for fetch, the engine's pipeline and (matmul) the stationary
// load and the array's drain.
TYPED_TEST(CoreComputeTest, EnginesStreamABeatPerCycle) {
  auto rng = test::make_rng();
  const uint32_t P = this->cfg.partitions, R = this->cfg.pe_rows, C = this->cfg.pe_cols, N = 256;
  struct Case {
    const char* engine;
    std::string text;
    uint32_t fixed;  // cycles besides the N beats
  };
  const Case cases[] = {
      {"dve", fmt::format(".seq dve\n  tensor_copy sbuf.fp32[0:{0}, 4096][[1,{1}]], sbuf.fp32[0:{0}, 0][[1,{1}]], -\n  halt\n", P, N),
       kDvePipeCycles + 20},
      {"act", fmt::format(".seq act\n  activate sbuf.fp32[0:{0}, 4096][[1,{1}]], sbuf.fp32[0:{0}, 0][[1,{1}]], "
                          "func=copy, scale=1.0, bias=0.0\n  halt\n", P, N),
       act::act_latency(act::ActFunc::kCopy) + 20},
      {"pe", fmt::format(".seq pe\n  ldstat sbuf.bf16[0:{0}, 0][[1,{1}]]\n  matmul psum.fp32[0:{1}, 0][[1,{2}]], "
                         "sbuf.bf16[0:{0}, 1024][[1,{2}]]\n  halt\n", R, C, N),
       C + R * kPeAccSteps + kPeProductSteps + C + kPsumAccLatency + 60},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    const isa::Program p = isa::assemble(c.text, c.engine);
    TypeParam rtl(tb::kCoreHbmBytes);
    const tb::SeqRunResult r = rtl.run(p, 0);
    fmt::print("{} on {}: {} beats in {} cycles\n", c.engine, ConfigOf<TypeParam>::kName, N, r.cycles);
    EXPECT_FALSE(r.timed_out);
    EXPECT_LT(r.cycles, N + c.fixed) << c.engine;
    this->compare(p, 8192, rng, c.engine);
  }
}

// A PE instruction is done once its vectors are in the array: the second LoadStationary and
// matmul follow the first matmul without waiting out its drain (Rows + Cols cycles), and DVE,
// released by the first matmul's semaphore before that drain, still copies its final results
// (PSUM holds the copy's reads of the bank until the writes land; compare() checks the copy).
TYPED_TEST(CoreComputeTest, PeOverlapsTheDrainAndPsumHoldsReaders) {
  auto rng = test::make_rng();
  const uint32_t R = this->cfg.pe_rows, C = this->cfg.pe_cols, N = 256;
  const std::string one = fmt::format(
      ".seq pe\n  ldstat sbuf.bf16[0:{0}, 0][[1,{1}]]\n"
      "  matmul psum.fp32[0:{1}, 0][[1,{2}]], sbuf.bf16[0:{0}, 1024][[1,{2}]] $S[1]++@complete\n",
      R, C, N);
  const std::string two = one + fmt::format(
      "  ldstat sbuf.bf16[0:{0}, 512][[1,{1}]]\n"
      "  matmul psum.fp32[0:{1}, 2048][[1,{2}]], sbuf.bf16[0:{0}, 1024][[1,{2}]]\n", R, C, N);
  const std::string copy = fmt::format(
      ".seq dve\n  tensor_copy sbuf.fp32[0:{0}, 8192][[1,{1}]], psum.fp32[0:{0}, 0][[1,{1}]], - "
      "$S[1]>=1\n  halt\n", C, N);
  uint64_t cycles[2] = {};
  for (int i = 0; i < 2; ++i) {
    const isa::Program p = isa::assemble((i == 0 ? one : two) + "  halt\n", "pe only");
    TypeParam rtl(tb::kCoreHbmBytes);
    const tb::SeqRunResult r = rtl.run(p, 0);
    EXPECT_FALSE(r.timed_out);
    cycles[i] = r.cycles;
  }
  const std::string text = two + "  halt\n" + copy;
  SCOPED_TRACE(text);
  this->compare(isa::assemble(text, "overlap"), 12288, rng, text);
  fmt::print("{}: one ldstat + matmul {} cycles, two {} cycles (N {}, drain {})\n",
             ConfigOf<TypeParam>::kName, cycles[0], cycles[1], N, R + C);
  // The second pair costs its C + N beats and about 30 cycles of issue (two instructions),
  // no drain: waiting out the drain added R + C more (64 on small, where this bites).
  EXPECT_LT(cycles[1] - cycles[0], uint64_t(C + N + 40));
}

// The PE adapter's second lane (tern_pe_adapter): the next ldstat streams into the other
// stationary buffer while a matmul streams, and a matmul that follows another starts in the
// cycle after the last one's final vector.
TYPED_TEST(CoreComputeTest, PeRunsTheNextInstructionWhileAMatmulStreams) {
  auto rng = test::make_rng();
  const uint32_t R = this->cfg.pe_rows, C = this->cfg.pe_cols, N = 256;
  const std::string base = fmt::format(
      ".seq pe\n  ldstat sbuf.bf16[0:{0}, 0][[1,{1}]]\n"
      "  matmul psum.fp32[0:{1}, 0][[1,{2}]], sbuf.bf16[0:{0}, 1024][[1,{2}]] $S[1]++@complete\n",
      R, C, N);
  const std::string more = base + fmt::format(
      "  ldstat sbuf.bf16[0:{0}, 512][[1,{1}]]\n"
      "  matmul psum.fp32[0:{1}, 2048][[1,{2}]], sbuf.bf16[0:{0}, 1024][[1,{2}]]\n"
      "  matmul psum.fp32[0:{1}, 4096][[1,{2}]], sbuf.bf16[0:{0}, 2048][[1,{2}]], acc $S[2]++@complete\n",
      R, C, N);
  const std::string copy = fmt::format(
      ".seq dve\n  tensor_copy sbuf.fp32[0:{0}, 8192][[1,{1}]], psum.fp32[0:{0}, 4096][[1,{1}]], - "
      "$S[2]>=1\n  halt\n", C, N);
  uint64_t cycles[2] = {};
  for (int i = 0; i < 2; ++i) {
    const isa::Program p = isa::assemble((i == 0 ? base : more) + "  halt\n", "pe only");
    TypeParam rtl(tb::kCoreHbmBytes);
    const tb::SeqRunResult r = rtl.run(p, 0);
    EXPECT_FALSE(r.timed_out);
    cycles[i] = r.cycles;
  }
  const std::string text = more + "  halt\n" + copy;
  SCOPED_TRACE(text);
  this->compare(isa::assemble(text, "ahead"), 12288, rng, text);
  const uint64_t extra = cycles[1] - cycles[0];
  fmt::print("{}: ldstat + matmul {} cycles; then ldstat + two matmuls {} more (N {}, C {})\n",
             ConfigOf<TypeParam>::kName, cycles[0], extra, N, C);
  // The three add their 2 N matmul beats and one instruction's issue (the matmul after the
  // ldstat, about 20 cycles). One instruction at a time they added C ldstat beats and three
  // issues (about 3 x 15) more.
  EXPECT_LT(extra, uint64_t(2 * N + 24));
}

// A pe instruction that went ahead and faults: the matmul before it still completes and makes
// its update, and the fault names the ldstat, as in the golden model.
TYPED_TEST(CoreComputeTest, PeFaultAfterAnInstructionWentAhead) {
  auto rng = test::make_rng();
  const uint32_t R = this->cfg.pe_rows, C = this->cfg.pe_cols, P = this->cfg.partitions;
  const std::string text = fmt::format(
      ".seq pe\n  ldstat sbuf.bf16[0:{0}, 0][[1,{1}]]\n"
      "  matmul psum.fp32[0:{1}, 0][[1,64]], sbuf.bf16[0:{0}, 1024][[1,64]] $S[1]++@complete\n"
      "  ldstat sbuf.bf16[0:{2}, 512][[1,{1}]]\n  halt\n",
      R, C, P + 1);
  SCOPED_TRACE(text);
  const isa::Program p = isa::assemble(text, "fault ahead");
  core::CoreModel golden(this->cfg, {});
  EXPECT_THROW(golden.run(p), core::CoreFault);
  this->compare(p, 4096, rng, text);
}

// The ACT adapter's overlap (tern_act_adapter): the next activate runs its front (checks,
// reads, command, inputs) while the last one's results drain from the engine's pipeline, so
// two instructions share one latency. One that reads what the last one writes waits for those
// writes, in SBUF and in PSUM; one that faults after another went ahead lets it complete.
// Every case must match the golden model.
TYPED_TEST(CoreComputeTest, ActRunsTheNextInstructionWhileOneDrains) {
  auto rng = test::make_rng();
  const uint32_t P = this->cfg.partitions, N = 64, K = 4, L = act::act_latency(act::ActFunc::kExp);
  // Region r of `parts` partitions: N fp32 elements at byte r * 4N.
  auto ap = [&](const char* mem, uint32_t r, uint32_t parts = 0) {
    return fmt::format("{}.fp32[0:{}, {}][[1,{}]]", mem, parts ? parts : P, r * 4 * N, N);
  };
  auto activate = [](const std::string& out, const std::string& in) {
    return fmt::format("  activate {}, {}, func=exp, scale=0.5, bias=0.0\n", out, in);
  };
  auto run = [&](const std::string& body, const char* what) {
    return this->run_and_compare("act", body, 2 * K * 4 * N, rng, what);
  };
  std::string apart, chain, psum;
  for (uint32_t i = 0; i < K; ++i) {
    apart += activate(ap("sbuf", 2 * i + 1), ap("sbuf", 2 * i));  // regions of their own
    chain += activate(ap("sbuf", i + 1), ap("sbuf", i));          // reads the last output
    psum += activate(ap("psum", (i + 1) % 2), ap("psum", i % 2));
  }
  const uint64_t one = run(activate(ap("sbuf", 1), ap("sbuf", 0)), "one");
  const uint64_t apart_cycles = run(apart, "apart"), chain_cycles = run(chain, "chain");
  run(psum, "psum chain");
  run(activate(ap("sbuf", 1), ap("sbuf", 0)) + activate(ap("sbuf", 3), ap("sbuf", 2, P + 1)),
      "fault after one went ahead");
  fmt::print("{}: one exp of {} {} cycles; {} apart {}, {} chained {} (latency {})\n",
             ConfigOf<TypeParam>::kName, N, one, K, apart_cycles, K, chain_cycles, L);
  // Apart, the K - 1 more cost their beats and issue and, two in flight, a latency per pair;
  // one at a time they would pay K - 1 latencies. Chained, each waits out the last one's.
  EXPECT_LT(apart_cycles - one, uint64_t((K - 1) * (N + 30) + (K / 2) * L));
  EXPECT_GE(chain_cycles - one, uint64_t((K - 1) * L));
}

// The DVE and POOL adapters' overlap (tern_vec_adapter, as ACT's): the next Vector Engine
// instruction runs its front while the last one's results drain, and an element-wise command
// enters the engine right behind the last one's beats, so a run of them pays the pipeline's
// latency once. A read of what the last one writes (in0, in1 or a per-partition scalar) waits
// for those writes; a tensor_scalar_reduce runs alone; a fault after one went ahead lets it
// complete. Every case must match the golden model.
TYPED_TEST(CoreComputeTest, VecRunsTheNextInstructionWhileOneDrains) {
  auto rng = test::make_rng();
  const uint32_t P = this->cfg.partitions, N = 64, K = 4;
  auto ap = [&](const char* mem, uint32_t r, uint32_t parts = 0, uint32_t n = 0) {
    return fmt::format("{}.fp32[0:{}, {}][[1,{}]]", mem, parts ? parts : P, r * 4 * N, n ? n : N);
  };
  auto scale = [](const std::string& out, const std::string& in, const std::string& s0 = "1.5") {
    return fmt::format("  tensor_scalar {}, {}, -, alu0=multiply, s0={}\n", out, in, s0);
  };
  auto run = [&](const char* seq, const std::string& body, const char* what) {
    return this->run_and_compare(seq, body, 12 * 4 * N, rng, what);
  };
  // A chain of N elements reads each element about N - 34 cycles after the last instruction
  // wrote it; one of 8 elements, or a scalar that is the last output's last element, would
  // read it before (what the check is for).
  std::string apart, chain, short_chain, psum, scalar_chain;
  for (uint32_t i = 0; i < K; ++i) {
    apart += scale(ap("sbuf", 2 * i + 1), ap("sbuf", 2 * i));  // regions of their own
    chain += scale(ap("sbuf", i + 1), ap("sbuf", i));          // reads the last output
    short_chain += scale(ap("sbuf", i + 1, 0, 8), ap("sbuf", i, 0, 8));
    psum += scale(ap("psum", (i + 1) % 2, 0, 8), ap("psum", i % 2, 0, 8));
    scalar_chain += scale(ap("sbuf", 2 * i + 3), ap("sbuf", 2 * i + 2),
                          fmt::format("sbuf.fp32[0:, {}]", (2 * i + 2) * 4 * N - 4));
  }
  const uint64_t one = run("dve", scale(ap("sbuf", 1), ap("sbuf", 0)), "one");
  const uint64_t apart_cycles = run("dve", apart, "apart"), chain_cycles = run("dve", chain, "chain");
  run("pool", apart, "apart on pool");
  run("dve", short_chain, "short chain");
  run("dve", psum, "psum chain");
  run("dve", scalar_chain, "scalar chain");
  run("dve", scale(ap("sbuf", 1), ap("sbuf", 0)) +
                 fmt::format("  tensor_scalar_reduce {}, {}, sbuf.fp32[0:{}, {}][[1,1]], alu0=add, "
                             "alu1=add, s0=0.5\n", ap("sbuf", 3), ap("sbuf", 1), P, 5 * 4 * N) +
                 scale(ap("sbuf", 4), ap("sbuf", 3)),
      "reduce between");
  run("dve", scale(ap("sbuf", 1), ap("sbuf", 0)) + scale(ap("sbuf", 3), ap("sbuf", 2, P + 1)),
      "fault after one went ahead");
  fmt::print("{}: one tensor_scalar of {} {} cycles; {} apart {}, {} chained {} (pipeline {})\n",
             ConfigOf<TypeParam>::kName, N, one, K, apart_cycles, K, chain_cycles, kDvePipeCycles);
  // Apart, the K - 1 more cost their beats and issue, the latency hidden behind N; one at a
  // time they would pay K - 1 latencies. Chained, each waits out the last one's.
  EXPECT_LT(apart_cycles - one, uint64_t((K - 1) * (N + 20)));
  EXPECT_GE(chain_cycles - one, uint64_t((K - 1) * kDvePipeCycles));
}

// Bad operands stop the sequencer at the instruction with the golden model's code.
TYPED_TEST(CoreComputeTest, BadOperandsFaultLikeGolden) {
  auto rng = test::make_rng();
  const uint32_t P = this->cfg.partitions, S = this->cfg.sbuf_partition_bytes;
  const std::string bad[] = {
      // partitions past P
      fmt::format(".seq dve\n  nop\n  memset sbuf.fp32[0:{}, 0][[1,4]], -, -\n  halt\n", P + 1),
      // misaligned start partition
      fmt::format(".seq dve\n  memset sbuf.fp32[1:{}, 0][[1,4]], -, -\n  halt\n", P),
      // misaligned byte offset
      ".seq pool\n  nop\n  nop\n  tensor_copy sbuf.fp32[0:1, 2][[1,4]], sbuf.fp32[0:1, 64][[1,4]], -\n  halt\n",
      // element past the partition
      fmt::format(".seq dve\n  memset sbuf.fp32[0:1, {}][[1,4]], -, -\n  halt\n", S - 4),
      // a dim of size 0
      ".seq dve\n  memset sbuf.fp32[0:1, 0][[1,0]], -, -\n  halt\n",
      // shapes that disagree
      ".seq dve\n  tensor_copy sbuf.fp32[0:1, 0][[1,4]], sbuf.fp32[0:1, 64][[1,5]], -\n  halt\n",
      // partition counts that disagree
      ".seq dve\n  tensor_copy sbuf.fp32[0:1, 0][[1,4]], sbuf.fp32[0:2, 64][[1,4]], -\n  halt\n",
      // the engine rejects the command: bitwise op on floats
      ".seq pool\n  tensor_tensor sbuf.fp32[0:1, 0][[1,4]], sbuf.fp32[0:1, 64][[1,4]], "
      "sbuf.fp32[0:1, 128][[1,4]], alu0=bitwise_and\n  halt\n",
      // a per-partition scalar outside SBUF
      fmt::format(".seq dve\n  tensor_scalar sbuf.fp32[0:1, 0][[1,4]], sbuf.fp32[0:1, 64][[1,4]], -, "
                  "alu0=add, s0=sbuf.fp32[0:, {}]\n  halt\n", S),
  };
  for (const std::string& text : bad) {
    SCOPED_TRACE(text);
    const isa::Program p = isa::assemble(text, "bad");
    // Each case must be a fault for the golden model, or the comparison below checks nothing.
    core::CoreModel golden(this->cfg, {});
    EXPECT_THROW(golden.run(p), core::CoreFault);
    this->compare(p, 256, rng, text);
  }
}

// Strict decode: every single-bit flip of one instruction of every format. A flip the golden
// decoder rejects (a reserved bit, an undefined code) must stop the RTL sequencer at that
// instruction with an illegal-instruction fault. A flip it accepts is another legal instruction:
// the golden core model runs it, and the RTL must end with the same fault (kind and pc) or none;
// an instruction the flip made long (a count's high bit) may run past a cycle cap, and a DMA
// trigger meets the harness's DMA stand-in, which checks nothing: those must at least not have
// been refused. Results in memory are the random-program tests' job.
// Tiny config only: the decoder does not depend on the size.
TYPED_TEST(CoreComputeTest, BitFlipsDecodeLikeGolden) {
  if (std::string(ConfigOf<TypeParam>::kName) != "tiny") GTEST_SKIP() << "the decoder is config-independent";
  const std::string upd = " $S[3]++@complete";
  const std::vector<std::pair<std::string, std::string>> formats = {
      {"sp", "  nop" + upd},
      {"sp", "  halt"},
      {"act", "  notify 7" + upd},
      {"dve", "  ld r3, [r0+0x100]" + upd},
      {"dve", "  st r3, [r0+0x100]" + upd},
      {"pool", "  loop r5, @1" + upd},
      {"sp", "  add r3, r1, 5" + upd},
      {"sp", "  sub r3, r1, r2" + upd},
      {"pool", "  beq r1, r2, @1" + upd},
      {"pool", "  blt r1, 9, @1" + upd},
      {"sp", "  dma q0, d0" + upd},
      {"pe", "  ldstat sbuf.bf16[0:8, 0][[1,8]]" + upd},
      {"pe", "  matmul psum.fp32[0:8, 0][[1,4]], sbuf.bf16[0:8, 64][[1,4]], acc" + upd},
      {"pe", "  pe_transpose psum.fp32[0:8, 0][[1,8]]" + upd},
      {"act", "  activate sbuf.fp32[0:8, 64][[1,4]], sbuf.fp32[0:8, 0][[1,4]], func=exp, "
              "scale=sbuf.fp32[0:, 128], bias=0x3f800000" + upd},
      {"dve", "  tensor_scalar sbuf.fp32[0:8, 64][[1,4]], sbuf.fp32[0:8, 0][[1,4]], -, alu0=add, alu1=multiply, "
              "s0=sbuf.fp32[0:, 128], s1=2.0" + upd},
  };
  const std::string desc = ".desc 0 src=hbm.fp32[4096][[4,4]] dst=sbuf.fp32[0, 192][[1,1],[0,1],[0,1],[4,4]]\n";
  tb::SeqRunOptions opt;
  opt.max_cycles = 3000;  // well past every short instruction here; a flip may make one long
  TypeParam rtl(tb::kCoreHbmBytes, opt);  // one model for every run: each run resets it
  core::CoreOptions gopt;
  gopt.hbm_bytes = tb::kCoreHbmBytes;
  gopt.instruction_budget = 10'000;  // a flipped branch target can make a spin loop
  constexpr uint32_t kIllegal = uint32_t(core::FaultKind::kIllegalInstruction);
  size_t rejected = 0, accepted = 0, long_runs = 0;
  for (const auto& [seq, text] : formats) {
    const isa::Program base = isa::assemble(".seq " + seq + "\n" + text + "\n  halt\n" + desc, "flip");
    const size_t si = size_t(*isa::seq_from_name(seq));
    const isa::InstrBits good = isa::encode(base.streams[si][0]);
    for (uint32_t bit = 0; bit < isa::kInstrBits; ++bit) {
      isa::InstrBits flipped = good;
      flipped.set(bit, 1, good.get(bit, 1) ^ 1u);
      SCOPED_TRACE(fmt::format("{} with bit {} flipped", text, bit));
      typename TypeParam::Streams streams;
      streams[si] = {flipped, isa::encode(base.streams[si][1])};
      // The golden verdict: refused by the decoder, or the fault (or none) of running it.
      uint32_t want = kIllegal, want_pc = 0;
      bool legal = true;
      isa::Program p = base;
      try {
        p.streams[si][0] = isa::decode(flipped);
      } catch (const Error&) {
        legal = false;
      }
      if (legal) {
        want = 0;
        try {
          core::CoreModel(this->cfg, gopt).run(p);
        } catch (const core::CoreFault& f) {
          want = uint32_t(f.kind());
          want_pc = f.pc();
        }
      }
      const tb::SeqRunResult r = rtl.run_bits(streams, tb::kCoreProgramBase);
      if (!legal) {
        ++rejected;
        ASSERT_EQ(r.err_code[si], kIllegal);
        ASSERT_EQ(r.err_pc[si], 0u);
      } else if (r.timed_out || p.streams[si][0].op == isa::Opcode::kDma) {
        // Long, or a DMA trigger (the harness's DMA stand-in checks no queue or descriptor).
        ++long_runs;
        ASSERT_NE(r.err_code[si], kIllegal) << "a legal instruction refused";
      } else {
        ++accepted;
        ASSERT_EQ(r.err_code[si], want) << "golden fault " << want << " at pc " << want_pc;
        if (want) {
          ASSERT_EQ(r.err_pc[si], want_pc);
        }
      }
    }
  }
  fmt::print("bit flips: {} refused by both, {} legal with the same outcome, {} legal, long or DMA\n", rejected,
             accepted, long_runs);
  EXPECT_GT(rejected, 5000u);
  EXPECT_GT(accepted, 1000u);
}

// Functional coverage of the engine generators (docs/verification.md, "Random programs"): the
// programs the RTL comparisons above and CoreTop's random kernels are drawn from, each also with
// one bit of one instruction flipped, run on the golden model alone. Every engine opcode, ACT
// function and reduce command, DVE element op, dtype, DMA direction and engine fault must
// appear (ProgramCoverage::engine_required); the table is printed.
TEST(IsaCoverage, EngineGeneratorsCoverTheEngineIsa) {
  const CoreConfig cfg = load_config(std::string(TERN_CONFIG_DIR) + "/tiny.yaml");
  auto rng = test::make_rng();
  tb::ProgramCoverage cov;
  core::CoreOptions opt;
  opt.hbm_bytes = tb::kCoreHbmBytes;
  opt.instruction_budget = 10'000;  // a flipped branch target can make a spin loop
  auto run = [&](const isa::Program& p) {
    cov.program(p);
    try {
      core::CoreModel golden(cfg, opt);
      golden.run(p);
      cov.outcome(0);
    } catch (const core::CoreFault& f) {
      cov.outcome(uint32_t(f.kind()));
    }
  };
  // One bit of one instruction flipped: refused by the decoder (illegal), or another program.
  auto flipped = [&](isa::Program p) {
    std::vector<std::pair<size_t, size_t>> at;
    for (size_t s = 0; s < p.streams.size(); ++s)
      for (size_t i = 0; i < p.streams[s].size(); ++i) at.push_back({s, i});
    const auto [s, i] = at[rng() % at.size()];
    isa::InstrBits bits = isa::encode(p.streams[s][i]);
    const uint32_t bit = uint32_t(rng() % isa::kInstrBits);
    bits.set(bit, 1, bits.get(bit, 1) ^ 1u);
    try {
      p.streams[s][i] = isa::decode(bits);
    } catch (const Error&) {
      cov.outcome(uint32_t(core::FaultKind::kIllegalInstruction));
      return;
    }
    run(p);
  };
  using Generator = isa::Program (*)(const CoreConfig&, std::mt19937_64&, uint32_t*);
  for (Generator gen : {Generator(tb::random_vec_program), Generator(tb::random_pe_program),
                        Generator(tb::random_act_program)})
    for (int i = 0; i < 400; ++i) {
      uint32_t span = 0;
      const isa::Program p = gen(cfg, rng, &span);
      run(p);
      flipped(p);
    }
  for (int i = 0; i < 100; ++i) {
    const stimulus::KernelImage img = stimulus::random_kernel(cfg, rng);
    cov.program(img.program);
    cov.outcome(tb::run_golden(cfg, img.program, img.hbm).fault_info.kind);
  }
  fmt::print("{}", cov.table());
  const std::vector<std::string> missing = cov.missing(tb::ProgramCoverage::engine_required());
  std::string names;
  for (const std::string& m : missing) names += "\n  " + m;
  EXPECT_TRUE(missing.empty()) << "bins never hit:" << names;
}

}  // namespace
}  // namespace tern
