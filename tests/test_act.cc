// The Scalar Engine: the golden model's arithmetic and accuracy against independent
// references, and the RTL against the golden model bit for bit on the tiny config (and small,
// when the build has it: TERN_SMALL_CORE)
// (every function over every BF16 input, every dtype in and out, RNE and SR, reductions,
// illegal commands, seeded random programs under stream stalls).
#include <cmath>

#include "Vtern_act_tiny.h"
#include "core_models.h"
#if TERN_SMALL_CORE
#include "Vtern_act_small.h"
#endif
#include "act_accuracy.h"
#include "act_check.h"
#include "common/config.h"
#include "test_util.h"

namespace tern {
namespace {

using act::ActCommand;
using act::ActError;
using act::ActFunc;
using test::Mismatches;

// --- The golden model --------------------------------------------------------------------

// The published bounds of docs/act-accuracy.md: max fp32 ulps over the valid range, and the
// same divided by the function's condition number. BF16 outputs must all be faithful.
struct Bound {
  ActFunc f;
  double max_ulp;
  double max_conditioned;
};
constexpr Bound kBounds[] = {
    {ActFunc::kCopy, 0, 0},          {ActFunc::kRelu, 0, 0},
    {ActFunc::kGelu, 190, 4.5},      {ActFunc::kGeluApprxTanh, 180, 4.0},
    {ActFunc::kSilu, 3.0, 3.0},      {ActFunc::kSigmoid, 2.5, 2.5},
    {ActFunc::kTanh, 2.5, 2.5},      {ActFunc::kExp, 1.0, 1.0},
    {ActFunc::kLog, 1.0, 1.0},       {ActFunc::kSqrt, 0.5, 0.5},
    {ActFunc::kRsqrt, 1.5, 1.5},     {ActFunc::kReciprocal, 0.5, 0.5},
    {ActFunc::kSquare, 0.5, 0.5},    {ActFunc::kAbs, 0, 0},
    {ActFunc::kSign, 0, 0},          {ActFunc::kSoftplus, 3.0, 3.0},
    {ActFunc::kMish, 4.5, 3.5},      {ActFunc::kErf, 3.0, 3.0},
};

TEST(ActModel, AccuracyWithinPublishedBounds) {
  for (const Bound& b : kBounds) {
    const auto acc = oracle::measure_act(b.f, 200000, [&](uint32_t x) { return act::act_function(b.f, x); });
    const char* name = act::act_func_name(b.f);
    EXPECT_LE(acc.max_ulp, b.max_ulp) << name << " worst input " << acc.worst_input;
    EXPECT_LE(acc.max_ulp_conditioned, b.max_conditioned) << name;
    EXPECT_EQ(acc.bf16_unfaithful, 0u) << name;
    EXPECT_GT(acc.bf16_inputs, 10000u) << name;
  }
}

// Special values follow docs/scalar-engine.md.
TEST(ActModel, SpecialValues) {
  const uint32_t nan = 0x7FC00000u, pinf = 0x7F800000u, ninf = 0xFF800000u, pz = 0, nz = 0x80000000u, one = 0x3F800000u;
  for (int i = 0; i < act::kNumActFuncs; ++i) {
    EXPECT_EQ(act::act_function(static_cast<ActFunc>(i), 0xFFC12345u), nan) << i;  // NaN in, canonical out
  }
  auto f = [](ActFunc fn, uint32_t x) { return act::act_function(fn, x); };
  EXPECT_EQ(f(ActFunc::kExp, pinf), pinf);
  EXPECT_EQ(f(ActFunc::kExp, ninf), pz);
  EXPECT_EQ(f(ActFunc::kLog, pz), ninf);
  EXPECT_EQ(f(ActFunc::kLog, nz), ninf);
  EXPECT_EQ(f(ActFunc::kLog, 0xBF800000u), nan);
  EXPECT_EQ(f(ActFunc::kRsqrt, pz), pinf);
  EXPECT_EQ(f(ActFunc::kReciprocal, nz), ninf);
  EXPECT_EQ(f(ActFunc::kSqrt, nz), nz);
  EXPECT_EQ(f(ActFunc::kTanh, ninf), 0xBF800000u);
  EXPECT_EQ(f(ActFunc::kTanh, nz), nz);
  EXPECT_EQ(f(ActFunc::kSigmoid, ninf), pz);
  EXPECT_EQ(f(ActFunc::kSigmoid, pinf), one);
  EXPECT_EQ(f(ActFunc::kGelu, ninf), nz);
  EXPECT_EQ(f(ActFunc::kSilu, ninf), nz);
  EXPECT_EQ(f(ActFunc::kMish, ninf), nz);
  EXPECT_EQ(f(ActFunc::kSoftplus, ninf), pz);
  EXPECT_EQ(f(ActFunc::kRelu, nz), pz);
  EXPECT_EQ(f(ActFunc::kSign, nz), nz);
  EXPECT_EQ(f(ActFunc::kSign, 0x00000001u), one);
  EXPECT_EQ(f(ActFunc::kErf, pinf), one);
}

// Reductions against a plain host-float fold (add) and std::fmax semantics (max).
// The reductions in host floats, from the order docs/scalar-engine.md "Reductions" states:
// max folds in order; add puts result j into slot j mod 16 (slot 0 starts from the
// accumulator, +0 after a reset; another slot from its first result), then adds slot 2k and
// 2k + 1 into slot k until one is left. Inputs whose sums round, so an order that differs
// shows.
TEST(ActModel, ReductionsAgainstHostFold) {
  auto rng = test::make_rng();
  act::ScalarEngine eng(4, 1);
  for (int trial = 0; trial < 200; ++trial) {
    ActCommand c;
    c.func = static_cast<uint8_t>(ActFunc::kSquare);
    c.in_dtype = c.out_dtype = static_cast<uint8_t>(Dtype::kFp32);
    c.n = 1 + static_cast<uint32_t>(rng() % 40);
    c.reduce_op = static_cast<uint8_t>(trial % 2);
    c.reduce_cmd = static_cast<uint8_t>(act::ReduceCmd::kResetReduce);
    act::ActTile in(4, std::vector<uint32_t>(c.n)), out;
    for (auto& row : in) {
      for (auto& e : row) e = test::fp32_bits(std::ldexp(float(rng() % 200001) - 100000.0f, int(rng() % 17) - 8));
    }
    ASSERT_EQ(eng.run(c, in, out), ActError::kNone);
    for (uint32_t p = 0; p < 4; ++p) {
      float want = -INFINITY;
      std::vector<float> slot{0.0f};
      for (uint32_t j = 0; j < c.n; ++j) {
        const float x = test::fp32_value(in[p][j]), sq = x * x;
        if (c.reduce_op != 0) want = std::fmax(want, sq);
        else if (j % 16 < slot.size()) slot[j % 16] += sq;
        else slot.push_back(sq);
      }
      for (; slot.size() > 1; slot.resize((slot.size() + 1) / 2))
        for (size_t k = 0; 2 * k < slot.size(); ++k)
          slot[k] = 2 * k + 1 < slot.size() ? slot[2 * k] + slot[2 * k + 1] : slot[2 * k];
      if (c.reduce_op == 0) want = slot[0];
      EXPECT_EQ(eng.accumulators()[p], test::fp32_bits(want)) << "trial " << trial << " lane " << p;
    }
  }
}

// --- The RTL against the golden model --------------------------------------------------------

template <typename Model>
struct ConfigOf;
template <>
struct ConfigOf<Vtern_act_tiny> {
  static constexpr const char* kName = "tiny";
};
#if TERN_SMALL_CORE
template <>
struct ConfigOf<Vtern_act_small> {
  static constexpr const char* kName = "small";
};
#endif

template <typename Model>
class ActRtlTest : public ::testing::Test {
 public:
  static constexpr uint32_t kSeed = 0x5EED0AC7u;
  ActRtlTest()
      : cfg(load_config(std::string(TERN_CONFIG_DIR) + "/" + ConfigOf<Model>::kName + ".yaml")),
        rtl(cfg.partitions, kSeed), golden(cfg.partitions, kSeed) {}
  tb::ActCheck check(const std::vector<tb::ActOp>& ops) {
    tb::ActCheck r = tb::run_and_check_act(rtl, golden, ops, 100'000'000);
    EXPECT_EQ(r.mismatch_count, 0u) << (r.mismatches.empty() ? "" : r.mismatches.front())
                                    << " (TERN_SEED=" << test::test_seed() << ")";
    return r;
  }
  tb::ActOp op(ActFunc f, Dtype in_t, Dtype out_t, uint32_t n) {
    tb::ActOp o;
    o.cmd.func = static_cast<uint8_t>(f);
    o.cmd.in_dtype = static_cast<uint8_t>(in_t);
    o.cmd.out_dtype = static_cast<uint8_t>(out_t);
    o.cmd.n = n;
    o.cmd.scale_vec = o.cmd.bias_vec = o.cmd.acc_load = std::vector<uint32_t>(cfg.partitions, 0);
    o.in.assign(cfg.partitions, std::vector<uint32_t>(n, 0));
    return o;
  }
  CoreConfig cfg;
  tb::RtlActUnit<Model> rtl;
  act::ScalarEngine golden;
};

#if TERN_SMALL_CORE
using Models = ::testing::Types<Vtern_act_tiny, Vtern_act_small>;
#else
using Models = ::testing::Types<Vtern_act_tiny>;
#endif
TYPED_TEST_SUITE(ActRtlTest, Models);

// Every function over every BF16 bit pattern (NaNs, Infs, subnormals included), fp32 out.
TYPED_TEST(ActRtlTest, EveryFunctionEveryBf16Input) {
  const uint32_t lanes = this->cfg.partitions, n = 0x10000 / lanes;
  std::vector<tb::ActOp> ops;
  for (int f = 0; f < act::kNumActFuncs; ++f) {
    tb::ActOp o = this->op(static_cast<ActFunc>(f), Dtype::kBf16, Dtype::kFp32, n);
    o.cmd.scale = 0x3F800000u;
    for (uint32_t p = 0; p < lanes; ++p) {
      for (uint32_t j = 0; j < n; ++j) o.in[p][j] = p * n + j;
    }
    ops.push_back(std::move(o));
  }
  const tb::ActCheck r = this->check(ops);
  EXPECT_EQ(r.elements * lanes, 0x10000ull * act::kNumActFuncs);
}

// Every input dtype x output dtype, RNE and SR, scale and bias per lane, each reduce command.
TYPED_TEST(ActRtlTest, EveryDtypePairRoundingAndReduceCommand) {
  auto rng = test::make_rng();
  std::vector<tb::ActOp> ops;
  for (Dtype in_t : tb::kActDtypes) {
    for (Dtype out_t : tb::kActDtypes) {
      for (int sr = 0; sr < 2; ++sr) {
        tb::ActOp o = tb::random_act_op(this->cfg.partitions, 24, rng);
        o.cmd.in_dtype = static_cast<uint8_t>(in_t);
        o.cmd.out_dtype = static_cast<uint8_t>(out_t);
        o.cmd.rounding = sr ? Rounding::kStochastic : Rounding::kNearestEven;
        o.cmd.func = static_cast<uint8_t>(ops.size() % act::kNumActFuncs);
        o.cmd.reduce_cmd = static_cast<uint8_t>(ops.size() % 5);
        o.cmd.n = 1 + static_cast<uint32_t>(rng() % 24);
        for (auto& row : o.in) {
          row.resize(o.cmd.n);
          for (auto& e : row) e = tb::random_act_element(in_t, rng);
        }
        ops.push_back(std::move(o));
      }
    }
  }
  const tb::ActCheck r = this->check(ops);
  EXPECT_EQ(r.rejected, 0u);
}

// Illegal commands are reported with their code, consume no input, and the engine goes on.
TYPED_TEST(ActRtlTest, IllegalCommandsRejectedAndEngineRecovers) {
  std::vector<tb::ActOp> ops;
  auto good = [&] { return this->op(ActFunc::kExp, Dtype::kFp32, Dtype::kBf16, 3); };
  ops.push_back(good());
  ops.push_back(good()); ops.back().cmd.func = 18;                      // unknown function
  ops.push_back(good()); ops.back().cmd.func = 31;
  ops.push_back(good()); ops.back().cmd.in_dtype = static_cast<uint8_t>(Dtype::kInt8);  // integer in
  ops.push_back(good()); ops.back().cmd.out_dtype = static_cast<uint8_t>(Dtype::kInt32);
  ops.push_back(good()); ops.back().cmd.in_dtype = 12;                  // no such dtype
  ops.push_back(good()); ops.back().cmd.n = 0;                          // empty
  ops.push_back(good()); ops.back().cmd.reduce_cmd = 6;                 // no such reduce command
  ops.push_back(good());
  std::vector<ActError> want;
  for (auto& o : ops) {
    if (o.cmd.n == 0) o.in.assign(this->cfg.partitions, {});
    want.push_back(this->golden.check(o.cmd));
  }
  EXPECT_EQ(want, (std::vector<ActError>{ActError::kNone, ActError::kBadFunc, ActError::kBadFunc,
                                         ActError::kBadDtype, ActError::kBadDtype, ActError::kBadDtype,
                                         ActError::kBadSize, ActError::kBadReduce, ActError::kNone}));
  const tb::ActCheck r = this->check(ops);
  EXPECT_EQ(r.rejected, 7u);
  EXPECT_EQ(this->rtl.reported_errors().size(), 7u);
}

// Throughput: one element per lane per cycle once streaming; each function's latency
// (act::act_latency, docs/scalar-engine.md "Pipeline") once per command: a command of n elements
// takes n + latency + 1 cycles from its acceptance to idle.
TYPED_TEST(ActRtlTest, OneElementPerCycleAndLatency) {
  for (int f = 0; f < act::kNumActFuncs; ++f) {
    const auto func = static_cast<ActFunc>(f);
    for (uint32_t n : {1u, 64u}) {
      const tb::ActOp op = this->op(func, Dtype::kBf16, Dtype::kBf16, n);
      const tb::ActCheck r = this->check({op});
      EXPECT_EQ(r.cycles, n + act::act_latency(func) + 1) << act::act_func_name(func) << ", n = " << n;
      EXPECT_EQ(r.cycles, act::act_cycles(op.cmd)) << "the golden core model's estimate";
    }
  }
  // Back to back, each further command costs one cycle more than its elements: the pipeline's
  // latency is paid once.
  std::vector<tb::ActOp> ops(10, this->op(ActFunc::kTanh, Dtype::kFp32, Dtype::kFp32, 100));
  EXPECT_EQ(this->check(ops).cycles, 10u * (100 + 1) + act::act_latency(ActFunc::kTanh));
  // A function with a shorter pipeline after a longer one waits until it leaves after it.
  std::vector<tb::ActOp> mixed = {this->op(ActFunc::kSoftplus, Dtype::kFp32, Dtype::kFp32, 10),
                                  this->op(ActFunc::kCopy, Dtype::kFp32, Dtype::kFp32, 10)};
  const uint32_t soft = act::act_latency(ActFunc::kSoftplus), copy = act::act_latency(ActFunc::kCopy);
  // The softplus's last element enters in cycle 10; the copy's first once it leaves after it,
  // soft - copy + 1 cycles later; the copy's last 9 cycles after that.
  EXPECT_EQ(this->check(mixed).cycles, 10u + (soft - copy + 1) + 9 + copy + 1);
}

// An add reduction streams: a result a cycle goes to its slot's partial sum (the adder takes
// 11 cycles: its operand register and tern_fp32_add_pipe's 10). The last sum is written 11
// cycles after the last result reaches the reduction, five before its output; then the 16
// slots combine in rounds of 8, 4, 2 and 1 adds, a pair a cycle, each round the cycle after
// the one before has written its sums. A max reduction streams and folds at once.
TYPED_TEST(ActRtlTest, ReductionRates) {
  const uint32_t n = 20, lat = act::act_latency(ActFunc::kExp), last_out = n + lat + 1;
  tb::ActOp add = this->op(ActFunc::kExp, Dtype::kFp32, Dtype::kFp32, n);
  add.cmd.reduce_cmd = static_cast<uint8_t>(act::ReduceCmd::kResetReduce);
  tb::ActOp max = add;
  max.cmd.reduce_op = static_cast<uint8_t>(act::ReduceOp::kMax);
  uint32_t written = last_out - 5 + 11;
  for (uint32_t adds : {8u, 4u, 2u, 1u}) written += 1 + (adds - 1) + 11;
  EXPECT_EQ(this->check({add}).cycles, written);
  EXPECT_EQ(this->check({max}).cycles, n + lat + 1);
  EXPECT_EQ(this->check({add}).cycles, act::act_cycles(add.cmd)) << "the golden core model's estimate";
  EXPECT_EQ(this->check({max}).cycles, act::act_cycles(max.cmd)) << "the golden core model's estimate";
}

// Every count of results from 1 to 40 (slots partly filled, odd rounds, slots reused), each
// command continuing the last one's accumulator or loading one, with stalls on both streams:
// the accumulators bit for bit against the golden order (act::add_reduce), and the cycles
// alone against the estimate.
TYPED_TEST(ActRtlTest, AddReductionEveryCount) {
  auto rng = test::make_rng();
  std::vector<tb::ActOp> ops;
  for (uint32_t n = 1; n <= 40; ++n) {
    tb::ActOp o = tb::random_act_op(this->cfg.partitions, n, rng);
    o.cmd.n = n;
    o.in.assign(this->cfg.partitions, std::vector<uint32_t>(n));
    for (auto& row : o.in)
      for (uint32_t& v : row) v = test::fp32_bits(std::ldexp(float(rng() % 2001) - 1000.0f, int(rng() % 9) - 4));
    o.cmd.in_dtype = o.cmd.out_dtype = static_cast<uint8_t>(Dtype::kFp32);
    o.cmd.func = static_cast<uint8_t>(ActFunc::kCopy);
    o.cmd.reduce_op = static_cast<uint8_t>(act::ReduceOp::kAdd);
    o.cmd.reduce_cmd = static_cast<uint8_t>(n % 5 == 0 ? act::ReduceCmd::kResetReduce : act::ReduceCmd::kReduce);
    EXPECT_EQ(this->check({o}).cycles, act::act_cycles(o.cmd)) << "n = " << n;
    ops.push_back(std::move(o));
  }
  this->rtl.set_stalls(static_cast<uint32_t>(rng()));
  const tb::ActCheck r = this->check(ops);
  EXPECT_EQ(r.mismatch_count, 0u);
  EXPECT_EQ(r.rejected, 0u);
}

// Random commands per half: 600 on tiny and 150 on small in `make test`, 2,000 and 500 in `make
// test-deep` (TERN_ACT_COMMANDS overrides).
uint64_t random_commands(const std::string& cfg) {
  return test::random_count("TERN_ACT_COMMANDS", cfg == "tiny" ? 600 : 150, cfg == "tiny" ? 2000 : 500);
}

// Seeded random programs with stalls on both streams: the bulk of the >= 10^5 instructions.
template <typename Model>
void random_programs(ActRtlTest<Model>& t, uint64_t commands, uint32_t max_n) {
  auto rng = test::make_rng();
  t.rtl.set_stalls(static_cast<uint32_t>(rng()));
  uint64_t done = 0, rejected = 0;
  while (done < commands) {
    std::vector<tb::ActOp> ops;
    for (int i = 0; i < 64; ++i) ops.push_back(tb::random_act_op(t.cfg.partitions, max_n, rng));
    const tb::ActCheck r = t.check(ops);
    done += r.commands;
    rejected += r.rejected;
    if (r.mismatch_count) break;
  }
  fmt::print("[ act      ] {} random commands ({} rejected) on {}\n", done, rejected, t.cfg.name);
}

TYPED_TEST(ActRtlTest, RandomProgramsFirstHalf) {
  random_programs(*this, random_commands(ConfigOf<TypeParam>::kName), 8);
}
TYPED_TEST(ActRtlTest, RandomProgramsSecondHalf) {
  random_programs(*this, random_commands(ConfigOf<TypeParam>::kName), 8);
}

}  // namespace
}  // namespace tern
