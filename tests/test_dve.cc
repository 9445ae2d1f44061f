// The Vector Engine RTL (tern_dve) against the golden model (tern::VectorEngine), bit for bit,
// on the tiny and small configs: every instruction x every dtype in and out with RNE and SR,
// edge sizes, special values, integer overflow, bad commands, stream stalls, and seeded random
// programs (eight parts per config; TERN_DVE_INSTRS sets the instructions per part).
#include <cstdlib>

#include "dve_check.h"
#include "test_util.h"

namespace tern {
namespace {

template <typename Model>
struct ConfigOf;
template <>
struct ConfigOf<Vtern_dve_tiny> {
  static constexpr const char* kName = "tiny";
};
template <>
struct ConfigOf<Vtern_dve_small> {
  static constexpr const char* kName = "small";
};

// Random instructions per part (eight parts per config, run in parallel by CTest): in `make
// test` 2,500 on tiny and 300 on small (a small instruction simulates 4x the lanes), in `make
// test-deep` 11,250 and 1,250, 10^5 in all.
uint64_t random_instructions(uint32_t partitions) {
  const bool tiny = partitions <= 8;
  return test::random_count("TERN_DVE_INSTRS", tiny ? 2500 : 300, tiny ? 11250 : 1250);
}

template <typename Model>
class DveTest : public ::testing::Test {
 public:
  DveTest()
      : cfg(load_config(std::string(TERN_CONFIG_DIR) + "/" + ConfigOf<Model>::kName + ".yaml")),
        rtl(cfg), golden(cfg) {}
  uint32_t P() const { return cfg.partitions; }
  tb::DveCheck check(const std::vector<tb::DveItem>& items) {
    tb::DveCheck r = tb::run_and_check(rtl, golden, items, 100'000'000);
    EXPECT_EQ(r.mismatches, 0u) << r.first_mismatch << " (TERN_SEED=" << test::test_seed() << ")";
    return r;
  }
  DveCommand cmd(DveOp op, DveAlu a0, Dtype in, Dtype out, uint32_t n) {
    DveCommand c;
    c.op = op; c.alu0 = a0; c.alu1 = DveAlu::kBypass; c.in0 = in; c.in1 = in; c.out = out; c.n = n;
    return c;
  }
  // A legal size for the instruction near `n`.
  uint32_t fit(DveOp op, uint32_t n) const {
    const uint32_t B = golden.block();
    switch (op) {
      case DveOp::kTranspose: return std::max<uint32_t>(B, n / B * B);
      case DveOp::kBnAggr: return std::max<uint32_t>(3, n / 3 * 3);
      case DveOp::kMax8: return std::max<uint32_t>(8, n);
      default: return n;
    }
  }
  CoreConfig cfg;
  tb::RtlDve<Model> rtl;
  VectorEngine golden;
};

using Models = ::testing::Types<Vtern_dve_tiny, Vtern_dve_small>;
TYPED_TEST_SUITE(DveTest, Models);

TYPED_TEST(DveTest, EveryOpEveryDtypeInAndOut) {
  // Every instruction with every (in, out) dtype pair, RNE and SR; the element-wise ones with
  // every ALU op (bitwise ones on the integer dtypes only).
  auto rng = test::make_rng();
  this->rtl.seed(99);
  this->golden.seed(99);
  std::vector<tb::DveItem> items;
  uint64_t commands = 0;
  for (int op = 0; op < kNumDveOps; ++op) {
    for (Dtype in : tb::kAllDtypes) {
      for (Dtype out : tb::kAllDtypes) {
        for (Rounding rd : {Rounding::kNearestEven, Rounding::kStochastic}) {
          const DveOp o = static_cast<DveOp>(op);
          std::vector<DveAlu> alus = {DveAlu::kAdd};
          if (o == DveOp::kTensorTensor || o == DveOp::kTensorScalar || o == DveOp::kScalarTensorTensor) {
            alus.clear();
            for (int a = 0; a < kNumDveAlus; ++a) {
              if (!dve_alu_is_bitwise(static_cast<DveAlu>(a)) || (is_int(in) && is_int(out))) alus.push_back(static_cast<DveAlu>(a));
            }
          }
          if (o == DveOp::kTensorReduce) alus = {DveAlu::kAdd, DveAlu::kMax, DveAlu::kMin};
          for (DveAlu a : alus) {
            DveCommand c = this->cmd(o, a, in, out, this->fit(o, 5));
            c.rounding = rd;
            c.in1 = tb::kAllDtypes[rng() % 9];
            if (dve_alu_is_bitwise(a)) c.in1 = tb::kIntDtypes[rng() % 3];
            c.alu1 = o == DveOp::kTensorScalarReduce ? DveAlu::kMax : dve_alu_is_bitwise(a) ? DveAlu::kBitwiseOr : DveAlu::kMultiply;
            c.imm0 = 0x3FC00000u;  // 1.5 (int32: a bit pattern)
            c.imm1 = 0xC0000000u;  // -2
            c.imm2 = 3;
            c.scalar0_per_partition = a == DveAlu::kSubtract;
            for (uint32_t p = 0; p < this->P(); ++p) c.scalar0.push_back(p * 0x01010101u);
            c.negate = rd == Rounding::kStochastic;
            if (o == DveOp::kTranspose && in != out) continue;
            if ((o == DveOp::kBnStats || o == DveOp::kBnAggr) && out != Dtype::kFp32) continue;
            if (o == DveOp::kBnAggr && in != Dtype::kFp32) continue;
            items.push_back(tb::make_item(c, this->P(), rng));
            ++commands;
          }
        }
      }
    }
  }
  const tb::DveCheck r = this->check(items);
  EXPECT_TRUE(r.errors.empty()) << "first rejected: command " << r.errors[0].first;
  fmt::print("{} commands, {} elements compared, {} cycles\n", commands, r.elements, r.cycles);
}

TYPED_TEST(DveTest, EdgeSizes) {
  // n = 1 (or the smallest legal size) and n = the largest, every instruction.
  auto rng = test::make_rng();
  std::vector<tb::DveItem> items;
  for (int op = 0; op < kNumDveOps; ++op) {
    const DveOp o = static_cast<DveOp>(op);
    for (uint32_t n : {1u, kDveMaxN}) {
      DveCommand c = this->cmd(o, o == DveOp::kTensorReduce ? DveAlu::kAdd : DveAlu::kSubtract, Dtype::kBf16,
                               Dtype::kBf16, this->fit(o, n));
      if (o == DveOp::kBnStats || o == DveOp::kBnAggr) c.in0 = c.out = Dtype::kFp32;
      c.alu1 = o == DveOp::kTensorScalarReduce ? DveAlu::kAdd : DveAlu::kMax;
      c.imm0 = 0x3F800000u;
      c.imm1 = 1;
      c.imm2 = 7;
      items.push_back(tb::make_item(c, this->P(), rng));
    }
  }
  const tb::DveCheck r = this->check(items);
  EXPECT_TRUE(r.errors.empty());
}

// The add reductions (tensor_reduce add; tensor_scalar_reduce with op1 add, over x * 1.5) at
// every count through the first rounds of their slots and fold (1 .. 40), negated or not, from
// random inputs: bit-exact and on the golden model's cycle.
TYPED_TEST(DveTest, AddReductionEveryCount) {
  auto rng = test::make_rng();
  for (const DveOp op : {DveOp::kTensorReduce, DveOp::kTensorScalarReduce}) {
    for (uint32_t n = 1; n <= 40; ++n) {
      DveCommand c = this->cmd(op, DveAlu::kAdd, Dtype::kFp32, Dtype::kFp32, n);
      if (op == DveOp::kTensorScalarReduce) {
        c.alu0 = DveAlu::kMultiply;
        c.imm0 = 0x3FC00000u;
        c.alu1 = DveAlu::kAdd;
      }
      c.negate = n % 2 == 0;
      const tb::DveCheck r = this->check({tb::make_item(c, this->P(), rng)});
      EXPECT_EQ(r.cycles, dve_cycles(c)) << dve_op_name(op) << " n = " << n;
    }
  }
}

// One command alone takes tern::dve_cycles (docs/vector-engine.md "Pipeline"): the pipeline's
// latency once, one element a cycle, the loops through the accumulator and the micro-programs
// at their rates. The golden core model's estimates use the same function.
TYPED_TEST(DveTest, CyclesAreTheEnginesTiming) {
  auto rng = test::make_rng();
  for (int op = 0; op < kNumDveOps; ++op) {
    for (DveAlu a0 : {DveAlu::kAdd, DveAlu::kMax}) {
      for (uint32_t n : {1u, 8u, 45u}) {
        const DveOp o = static_cast<DveOp>(op);
        DveCommand c = this->cmd(o, a0, Dtype::kFp32, Dtype::kBf16, this->fit(o, n));
        if (o == DveOp::kBnStats || o == DveOp::kBnAggr || o == DveOp::kTranspose) c.out = Dtype::kFp32;
        c.alu1 = DveAlu::kAdd;
        const tb::DveCheck r = this->check({tb::make_item(c, this->P(), rng)});
        EXPECT_EQ(r.cycles, dve_cycles(c)) << dve_op_name(o) << " " << dve_alu_name(a0) << " n = " << c.n;
      }
    }
  }
}

// Back to back, an element-wise command follows the last one's beats into the pipeline and
// the latency is paid once (tern::dve_cycles of a sequence); the rest wait for an empty
// pipeline. Eight 64-element tensor_tensor commands, then seeded random mixes of every
// instruction and short sizes (where the engine's two command contexts are the limit), each
// bit-exact and on the golden model's cycle.
TYPED_TEST(DveTest, BackToBackIsTheEnginesTiming) {
  auto rng = test::make_rng();
  std::vector<DveCommand> cmds(8, this->cmd(DveOp::kTensorTensor, DveAlu::kAdd, Dtype::kBf16, Dtype::kBf16, 64));
  std::vector<std::vector<DveCommand>> runs{cmds};
  std::uniform_int_distribution<int> op_of(0, kNumDveOps - 1);
  const uint32_t sizes[] = {1, 2, 8, 33, 45};
  for (int run = 0; run < 6; ++run) {
    std::vector<DveCommand> mix;
    for (int i = 0; i < 10; ++i) {
      // Mostly element-wise commands, so that runs of them stream.
      const DveOp o = rng() % 3 ? DveOp::kTensorScalar : static_cast<DveOp>(op_of(rng));
      DveCommand c = this->cmd(o, DveAlu::kAdd, Dtype::kFp32, Dtype::kBf16, this->fit(o, sizes[rng() % 5]));
      if (o == DveOp::kBnStats || o == DveOp::kBnAggr || o == DveOp::kTranspose) c.out = Dtype::kFp32;
      c.alu1 = o == DveOp::kTensorScalarReduce ? DveAlu::kAdd : DveAlu::kMultiply;
      c.imm0 = 0x3FC00000u;  // 1.5
      c.imm1 = 0xC0000000u;  // -2
      mix.push_back(c);
    }
    runs.push_back(mix);
  }
  for (const auto& run : runs) {
    std::vector<tb::DveItem> items;
    for (const DveCommand& c : run) items.push_back(tb::make_item(c, this->P(), rng));
    const tb::DveCheck r = this->check(items);
    EXPECT_TRUE(r.errors.empty()) << "rejected: command " << r.errors[0].first;
    EXPECT_EQ(r.cycles, dve_cycles(run)) << run.size() << " commands, the first " << dve_op_name(run[0].op);
  }
  // The headline: n + 1 a command once the first has paid the latency.
  EXPECT_EQ(dve_cycles(cmds), 8 * 65 - 1 + kDvePipeCycles);
}

TYPED_TEST(DveTest, SpecialValuesAndOverflow) {
  // NaN, +-Inf, +-0, max/min with signed zeros, comparisons with NaN, fp32 -> int saturation,
  // int32 -> int8 saturation, shift overflow, e4m3 overflow with and without saturate.
  const uint32_t P = this->P();
  const std::vector<uint32_t> specials = {0x00000000u, 0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u,
                                          0xFFC12345u, 0x7F7FFFFFu, 0x00000001u, 0x3F800000u, 0xBF800000u,
                                          0x4F000000u, 0xCF000001u, 0x43FF8000u, 0x447A0000u};
  auto lanes_from = [&](size_t shift) {
    const uint32_t n = static_cast<uint32_t>(specials.size());
    DveLanes l(P, std::vector<uint32_t>(n));
    for (uint32_t p = 0; p < P; ++p)
      for (uint32_t i = 0; i < n; ++i) l[p][i] = specials[(i + p + shift) % n];
    return l;
  };
  std::vector<tb::DveItem> items;
  const uint32_t n = static_cast<uint32_t>(specials.size());
  for (int a = 0; a <= static_cast<int>(DveAlu::kLessEqual); ++a) {
    for (Dtype out : {Dtype::kFp32, Dtype::kFp8E4M3, Dtype::kInt8, Dtype::kUint8, Dtype::kInt32}) {
      for (bool sat : {false, true}) {
        DveCommand c = this->cmd(DveOp::kTensorTensor, static_cast<DveAlu>(a), Dtype::kFp32, out, n);
        c.saturate = sat;
        items.push_back({c, lanes_from(0), lanes_from(static_cast<size_t>(a) + 1)});
      }
    }
  }
  // Integer overflow: int32 -> int8 / uint8 copies and shifts saturate.
  for (Dtype out : {Dtype::kInt8, Dtype::kUint8}) {
    DveLanes big(P, {0x7FFFFFFFu, 0x80000000u, 0x00000100u, 0xFFFFFF00u, 0x0000007Fu, 0xFFFFFFFFu});
    items.push_back({this->cmd(DveOp::kTensorCopy, DveAlu::kBypass, Dtype::kInt32, out, 6), big, big});
    DveCommand sh = this->cmd(DveOp::kTensorScalar, DveAlu::kShiftLeft, Dtype::kInt32, out, 6);
    sh.imm0 = 4;
    items.push_back({sh, big, big});
  }
  const tb::DveCheck r = this->check(items);
  // Spot checks against the documented rules (independent of both implementations).
  VectorEngine g(this->cfg);
  auto one = [&](DveAlu a, uint32_t x, uint32_t y, Dtype out = Dtype::kFp32) {
    DveCommand c = this->cmd(DveOp::kTensorTensor, a, Dtype::kFp32, out, 1);
    return g.execute(c, DveLanes(P, {x}), DveLanes(P, {y})).out[0][0];
  };
  EXPECT_EQ(one(DveAlu::kMax, 0x80000000u, 0x00000000u), 0x00000000u);  // max(-0, +0) = +0
  EXPECT_EQ(one(DveAlu::kMin, 0x00000000u, 0x80000000u), 0x80000000u);  // min(+0, -0) = -0
  EXPECT_EQ(one(DveAlu::kMax, 0x7FC00001u, 0x3F800000u), kFp32CanonicalNaN);
  EXPECT_EQ(one(DveAlu::kIsEqual, 0x80000000u, 0x00000000u), 0x3F800000u);
  EXPECT_EQ(one(DveAlu::kNotEqual, 0x7FC00000u, 0x7FC00000u), 0x3F800000u);
  EXPECT_EQ(one(DveAlu::kGreaterEqual, 0x7FC00000u, 0x7F800000u), 0u);
  EXPECT_EQ(one(DveAlu::kAdd, 0x7F7FFFFFu, 0x7F7FFFFFu, Dtype::kInt8), 0x7Fu);  // Inf -> 127
  EXPECT_EQ(one(DveAlu::kAdd, 0x7FC00000u, 0u, Dtype::kInt32), 0u);            // NaN -> 0
  EXPECT_EQ(one(DveAlu::kSubtract, 0x3F800000u, 0x3F800000u), 0u);             // 1 - 1 = +0
}

TYPED_TEST(DveTest, BadCommandsAreRejectedAndEngineContinues) {
  auto rng = test::make_rng();
  std::vector<tb::DveItem> items;
  auto good = [&] { return this->cmd(DveOp::kTensorTensor, DveAlu::kAdd, Dtype::kBf16, Dtype::kFp32, 4); };
  std::vector<std::pair<DveCommand, DveError>> bad;
  DveCommand c = good(); c.op = static_cast<DveOp>(14); bad.push_back({c, DveError::kOpcode});
  c = good(); c.op = static_cast<DveOp>(15); bad.push_back({c, DveError::kOpcode});
  c = good(); c.alu0 = static_cast<DveAlu>(17); bad.push_back({c, DveError::kAluOp});
  c = good(); c.op = DveOp::kTensorReduce; c.alu0 = DveAlu::kMultiply; bad.push_back({c, DveError::kAluOp});
  c = good(); c.op = DveOp::kTensorTensorScan; c.alu1 = DveAlu::kBitwiseAnd; bad.push_back({c, DveError::kAluOp});
  c = good(); c.in1 = static_cast<Dtype>(9); bad.push_back({c, DveError::kDtype});
  c = good(); c.out = static_cast<Dtype>(15); bad.push_back({c, DveError::kDtype});
  c = good(); c.op = DveOp::kTranspose; c.n = this->golden.block(); bad.push_back({c, DveError::kDtype});
  c = good(); c.op = DveOp::kBnStats; c.out = Dtype::kBf16; bad.push_back({c, DveError::kDtype});
  c = good(); c.alu0 = DveAlu::kBitwiseAnd; bad.push_back({c, DveError::kBitwiseFloat});
  c = good(); c.alu0 = DveAlu::kBitwiseAnd; c.in0 = c.in1 = Dtype::kInt8; c.out = Dtype::kFp16;
  bad.push_back({c, DveError::kBitwiseFloat});
  c = good(); c.op = DveOp::kTensorScalar; c.alu0 = DveAlu::kShiftLeft; c.alu1 = DveAlu::kAdd;
  c.in0 = c.out = Dtype::kInt32; bad.push_back({c, DveError::kAluMix});
  c = good(); c.n = 0; bad.push_back({c, DveError::kSize});
  c = good(); c.n = kDveMaxN + 1; bad.push_back({c, DveError::kSize});
  c = good(); c.op = DveOp::kMax8; c.n = 7; bad.push_back({c, DveError::kSize});
  c = good(); c.op = DveOp::kBnAggr; c.in0 = Dtype::kFp32; c.n = 4; bad.push_back({c, DveError::kSize});
  c = good(); c.op = DveOp::kTranspose; c.in0 = c.out; c.n = this->golden.block() + 1; bad.push_back({c, DveError::kSize});
  std::vector<std::pair<size_t, DveError>> want;
  for (const auto& [cmd, err] : bad) {
    EXPECT_EQ(this->golden.check(cmd), err) << dve_op_name(cmd.op) << " " << dve_error_name(err);
    want.emplace_back(items.size(), err);
    items.push_back(tb::make_item(cmd, this->P(), rng));
    items.push_back(tb::make_item(good(), this->P(), rng));  // the engine keeps working
  }
  const tb::DveCheck r = this->check(items);
  EXPECT_EQ(r.errors, want);
}

TYPED_TEST(DveTest, RandomProgramsWithStreamStalls) {
  auto rng = test::make_rng();
  this->rtl.set_stalls(static_cast<uint32_t>(rng()));
  for (int prog = 0; prog < 10; ++prog) {
    const uint32_t seed = static_cast<uint32_t>(rng());
    this->rtl.seed(seed);
    this->golden.seed(seed);
    std::vector<tb::DveItem> items;
    for (int i = 0; i < 100; ++i) items.push_back(tb::make_item(tb::random_command(this->P(), rng, {}), this->P(), rng));
    this->check(items);
  }
}

template <typename T>
void random_half(T* t, int half) {
  auto rng = test::make_rng();
  const uint64_t total = random_instructions(t->P());
  uint64_t done = 0, elements = 0, rejected = 0;
  uint32_t prog = 0;
  while (done < total) {
    const uint32_t seed = static_cast<uint32_t>(rng());
    t->rtl.seed(seed);
    t->golden.seed(seed);
    if (++prog % 4 == 0) t->rtl.set_stalls(seed); 
    std::vector<tb::DveItem> items;
    for (int i = 0; i < 500 && done < total; ++i, ++done) {
      items.push_back(tb::make_item(tb::random_command(t->P(), rng, {}), t->P(), rng));
    }
    const tb::DveCheck r = t->check(items);
    elements += r.elements;
    rejected += r.errors.size();
    if (r.mismatches) break;
  }
  fmt::print("part {}: {} random instructions ({} rejected), {} elements compared\n", half, done, rejected, elements);
}

TYPED_TEST(DveTest, RandomInstructionsPart1) { random_half(this, 1); }
TYPED_TEST(DveTest, RandomInstructionsPart2) { random_half(this, 2); }
TYPED_TEST(DveTest, RandomInstructionsPart3) { random_half(this, 3); }
TYPED_TEST(DveTest, RandomInstructionsPart4) { random_half(this, 4); }
TYPED_TEST(DveTest, RandomInstructionsPart5) { random_half(this, 5); }
TYPED_TEST(DveTest, RandomInstructionsPart6) { random_half(this, 6); }
TYPED_TEST(DveTest, RandomInstructionsPart7) { random_half(this, 7); }
TYPED_TEST(DveTest, RandomInstructionsPart8) { random_half(this, 8); }

}  // namespace
}  // namespace tern
