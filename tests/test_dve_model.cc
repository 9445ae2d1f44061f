// The Vector Engine's golden model against independent oracles (host float arithmetic and
// plain double loops), the RTL integer conversions (tern_fp_int and the pipelined
// tern_int_to_fp32_pipe and tern_fp32_to_int_pipe) against the golden numerics.
#include <cmath>
#include <cstring>
#include <memory>

#include "dut.h"
#include "owned_context.h"
#include "Vtern_fp32_to_int_pipe.h"
#include "Vtern_fp32_to_int_pipe_l2.h"
#include "Vtern_fp_int.h"
#include "Vtern_int_to_fp32_pipe.h"
#include "Vtern_int_to_fp32_pipe_l3.h"
#include "fp_pipe.h"
#include "common/config.h"
#include "dve/vector_engine.h"
#include "numerics/sr_rng.h"
#include "test_util.h"

namespace tern {
namespace {

uint32_t bits_of(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
float float_of(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

// One integer conversion case: `x` is the integer's encoding going in and the fp32 value
// coming out.
struct IntCase {
  Dtype t;
  uint32_t x;
  Rounding rounding;
  uint32_t random;
};

// Edges (every type, both roundings, four draws), every 8-bit input, then random values half
// of which lie near the integer ranges, with fractions and ties.
std::vector<IntCase> int_cases(std::mt19937_64& rng) {
  const Dtype types[] = {Dtype::kInt8, Dtype::kUint8, Dtype::kInt32};
  const uint32_t edges[] = {0x00000000u, 0x80000000u, 0x3F000000u, 0xBF000000u, 0x3FC00000u, 0xC0200000u,
                            0x42FE0000u, 0x42FF0000u, 0x43000000u, 0xC3000000u, 0xC3010000u, 0x437F0000u,
                            0x437F8000u, 0x4F000000u, 0xCF000000u, 0xCF000001u, 0x4EFFFFFFu, 0x7F800000u,
                            0xFF800000u, 0x7FC00000u, 0xFFFFFFFFu, 0x00000001u, 0x2F800000u, 0x3EFFFFFFu,
                            0x4B000001u, 0xCB7FFFFFu, 0x4E800001u, 0x007FFFFFu};
  std::vector<IntCase> v;
  for (Dtype t : types) {
    for (uint32_t e : edges) {
      for (uint32_t r : {1u, 0x80000000u, 0xFFFFFFFFu, 0x12345678u}) {
        v.push_back({t, e, Rounding::kNearestEven, r});
        v.push_back({t, e, Rounding::kStochastic, r});
      }
    }
    for (uint32_t x = 0; x < 256; ++x) v.push_back({t, x, Rounding::kNearestEven, 0});
  }
  const uint64_t count = test::vector_count() / 4;
  for (uint64_t i = 0; i < count; ++i) {
    const Dtype t = types[rng() % 3];
    uint32_t x = static_cast<uint32_t>(rng());
    if (rng() % 2) {
      const int e = static_cast<int>(rng() % 40) - 4;
      x = (x & 0x807FFFFFu) | (static_cast<uint32_t>(127 + e) << 23);
    }
    v.push_back({t, x, rng() % 2 ? Rounding::kStochastic : Rounding::kNearestEven, static_cast<uint32_t>(rng())});
  }
  return v;
}

std::string describe(const IntCase& c) {
  return fmt::format("{} {:08X} {} r={:08X}", dtype_name(c.t), c.x,
                     c.rounding == Rounding::kStochastic ? "sr" : "rne", c.random);
}
uint32_t want_fp(const IntCase& c) { return convert_to_fp32(c.t, c.x); }
uint32_t want_int(const IntCase& c) { return convert_from_fp32(c.t, c.x, {c.rounding, false}, c.random); }

// The integer conversions in RTL (tern_fp_int_pkg) against the golden numerics.
TEST(DveIntConversions, RtlMatchesGolden) {
  tb::OwnedContext ctx;
  tb::Dut<Vtern_fp_int> dut = std::make_unique<Vtern_fp_int>(ctx.get(), "fp_int");
  auto rng = test::make_rng();
  test::Mismatches to_fp("int -> fp32"), to_int("fp32 -> int");
  for (const IntCase& c : int_cases(rng)) {
    dut->dt_i = static_cast<uint8_t>(c.t);
    dut->int_i = c.x;
    dut->fp32_i = c.x;
    dut->mode_i = c.rounding == Rounding::kStochastic;
    dut->random_i = c.random;
    dut->eval();
    if (dut->fp32_o != want_fp(c)) to_fp.add("{}: rtl {:08X} golden {:08X}", describe(c), dut->fp32_o, want_fp(c));
    if (dut->int_o != want_int(c)) to_int.add("{}: rtl {:08X} golden {:08X}", describe(c), dut->int_o, want_int(c));
  }
  EXPECT_EQ(to_fp.count(), 0u);
  EXPECT_EQ(to_int.count(), 0u);
}

// The pipelined conversions (tern_int_to_fp32_pipe, tern_fp32_to_int_pipe) streamed with
// bubbles and stalls (tb/fp_pipe.h checks order and latency), at full and a shorter latency.
template <class Model, class Set, class Get, class Want>
void expect_int_pipe(const std::string& what, unsigned latency, Set set, Get get, Want want) {
  auto rng = test::make_rng();
  const std::vector<IntCase> in = int_cases(rng);
  tb::FpPipe<Model> pipe(latency, test::test_seed());
  const auto out = pipe.run(in, set, get);
  test::Mismatches bad(fmt::format("{}, latency {}", what, latency));
  for (size_t i = 0; i < in.size(); ++i) {
    if (out[i] != want(in[i])) bad.add("{}: rtl {:08X} golden {:08X}", describe(in[i]), out[i], want(in[i]));
  }
  EXPECT_EQ(bad.count(), 0u);
  EXPECT_FALSE(pipe.assertion_failed());
}

template <class Model>
void check_int_to_fp32(unsigned latency) {
  expect_int_pipe<Model>(
      "int -> fp32 pipe", latency,
      [](Model& m, const IntCase& c) {
        m.dtype_i = static_cast<uint8_t>(c.t);
        m.bits_i = c.x;
      },
      [](Model& m) { return static_cast<uint32_t>(m.fp32_o); }, want_fp);
}

template <class Model>
void check_fp32_to_int(unsigned latency) {
  expect_int_pipe<Model>(
      "fp32 -> int pipe", latency,
      [](Model& m, const IntCase& c) {
        m.dtype_i = static_cast<uint8_t>(c.t);
        m.fp32_i = c.x;
        m.round_mode_i = c.rounding == Rounding::kStochastic;
        m.random_i = c.random;
      },
      [](Model& m) { return static_cast<uint32_t>(m.int_o); }, want_int);
}

TEST(DveIntConversions, IntToFp32PipeFullLatency) { check_int_to_fp32<Vtern_int_to_fp32_pipe>(6); }
TEST(DveIntConversions, IntToFp32PipeLatency3) { check_int_to_fp32<Vtern_int_to_fp32_pipe_l3>(3); }
TEST(DveIntConversions, Fp32ToIntPipeFullLatency) { check_fp32_to_int<Vtern_fp32_to_int_pipe>(4); }
TEST(DveIntConversions, Fp32ToIntPipeLatency2) { check_fp32_to_int<Vtern_fp32_to_int_pipe_l2>(2); }

class DveModelTest : public ::testing::Test {
 public:
  DveModelTest() : cfg(load_config(std::string(TERN_CONFIG_DIR) + "/tiny.yaml")), dve(cfg) {}
  CoreConfig cfg;
  VectorEngine dve;
};

TEST_F(DveModelTest, ElementOpsMatchHostFloat) {
  // add, subtract, multiply and the comparisons against the host's IEEE fp32 (finite operands
  // and results: NaN payloads are the documented difference).
  auto rng = test::make_rng();
  test::Mismatches m("dve_alu vs host");
  for (int i = 0; i < 200000; ++i) {
    const float a = float_of(test::random_fp32_for(Dtype::kFp32, rng));
    const float b = float_of(test::random_fp32_for(Dtype::kFp32, rng));
    if (std::isnan(a) || std::isnan(b)) continue;
    const std::pair<DveAlu, float> want[] = {{DveAlu::kAdd, a + b}, {DveAlu::kSubtract, a - b},
                                             {DveAlu::kMultiply, a * b}};
    for (const auto& [op, w] : want) {
      if (std::isnan(w)) continue;
      const uint32_t got = dve_alu(op, bits_of(a), bits_of(b));
      if (got != bits_of(w)) m.add("{} {} {}: {:08X} vs {:08X}", dve_alu_name(op), a, b, got, bits_of(w));
    }
    const std::pair<DveAlu, bool> cmp[] = {{DveAlu::kIsEqual, a == b}, {DveAlu::kNotEqual, a != b},
                                           {DveAlu::kGreater, a > b}, {DveAlu::kGreaterEqual, a >= b},
                                           {DveAlu::kLess, a < b}, {DveAlu::kLessEqual, a <= b}};
    for (const auto& [op, w] : cmp) {
      if (dve_alu(op, bits_of(a), bits_of(b)) != (w ? 0x3F800000u : 0u)) m.add("{} {} {}", dve_alu_name(op), a, b);
    }
    const float mx = dve_alu(DveAlu::kMax, bits_of(a), bits_of(b)) == bits_of(a) ? a : b;
    if (mx != std::fmax(a, b)) m.add("max {} {}", a, b);
  }
  EXPECT_EQ(m.count(), 0u);
}

TEST_F(DveModelTest, BnStatsAndAggrMatchDoubleMeanAndVariance) {
  // Per-partition mean and variance of normal-ish data through bn_stats on chunks and bn_aggr
  // over the chunks, against a two-pass double computation: relative error of the mean
  // within 1e-5 of the data's scale, of the variance within 1e-4 (fp32 Welford/Chan over a
  // few thousand elements is good to a few ulps per step; documented in vector-engine.md).
  auto rng = test::make_rng();
  std::normal_distribution<double> dist(3.0, 2.0);
  const uint32_t P = dve.partitions(), chunk = 512, chunks = 8;
  DveLanes data(P, std::vector<uint32_t>(chunk * chunks));
  for (auto& lane : data)
    for (auto& x : lane) x = bits_of(static_cast<float>(dist(rng)));
  DveLanes stats(P);
  for (uint32_t c = 0; c < chunks; ++c) {
    DveLanes part(P);
    for (uint32_t p = 0; p < P; ++p) part[p].assign(data[p].begin() + c * chunk, data[p].begin() + (c + 1) * chunk);
    DveCommand cmd;
    cmd.op = DveOp::kBnStats;
    cmd.n = chunk;
    const auto r = dve.execute(cmd, part, {});
    ASSERT_EQ(r.error, DveError::kNone);
    for (uint32_t p = 0; p < P; ++p) stats[p].insert(stats[p].end(), r.out[p].begin(), r.out[p].end());
  }
  DveCommand agg;
  agg.op = DveOp::kBnAggr;
  agg.n = 3 * chunks;
  const auto r = dve.execute(agg, stats, {});
  ASSERT_EQ(r.error, DveError::kNone);
  for (uint32_t p = 0; p < P; ++p) {
    double mean = 0, var = 0;
    for (uint32_t x : data[p]) mean += float_of(x);
    mean /= data[p].size();
    for (uint32_t x : data[p]) var += (float_of(x) - mean) * (float_of(x) - mean);
    var /= data[p].size();
    EXPECT_NEAR(float_of(r.out[p][0]), mean, 1e-5 * 4.0) << "partition " << p;
    EXPECT_NEAR(float_of(r.out[p][1]), var, 1e-4 * var) << "partition " << p;
  }
}

// The add reductions in their documented order (docs/vector-engine.md "Add reductions"): element
// i into slot i mod 16, then the upper slots folded onto the lower, in host floats (values of
// mixed magnitudes, so the order shows in the last bits; none is NaN, none overflows).
TEST_F(DveModelTest, AddReductionAgainstHostFold) {
  auto rng = test::make_rng();
  std::uniform_real_distribution<float> mant(-1.0f, 1.0f);
  std::uniform_int_distribution<int> scale(-20, 20);
  uint32_t differs_from_sequential = 0;
  for (uint32_t n = 1; n <= 70; ++n) {
    DveLanes in(dve.partitions(), std::vector<uint32_t>(n));
    for (auto& lane : in)
      for (auto& x : lane) x = bits_of(std::ldexp(mant(rng), scale(rng)));
    DveCommand c;
    c.op = DveOp::kTensorReduce;
    c.alu0 = DveAlu::kAdd;
    c.n = n;
    const auto r = dve.execute(c, in, {});
    // tensor_scalar_reduce with op0 bypass and op1 add sums the same values the same way.
    DveCommand tsr = c;
    tsr.op = DveOp::kTensorScalarReduce;
    tsr.alu0 = DveAlu::kBypass;
    tsr.alu1 = DveAlu::kAdd;
    const auto rt = dve.execute(tsr, in, {});
    for (uint32_t p = 0; p < dve.partitions(); ++p) {
      std::vector<float> slot;
      float sequential = 0;
      for (uint32_t i = 0; i < n; ++i) {
        const float x = float_of(in[p][i]);
        sequential = i == 0 ? x : sequential + x;
        if (i % 16 == slot.size()) slot.push_back(x);
        else slot[i % 16] += x;
      }
      for (size_t m = slot.size(); m > 1; m = (m + 1) / 2)
        for (size_t k = 0; k + (m + 1) / 2 < m; ++k) slot[k] += slot[k + (m + 1) / 2];
      EXPECT_EQ(r.out[p][0], bits_of(slot[0])) << "n = " << n << ", partition " << p;
      EXPECT_EQ(rt.out[p][n], bits_of(slot[0])) << "tensor_scalar_reduce n = " << n << ", partition " << p;
      differs_from_sequential += bits_of(sequential) != bits_of(slot[0]);
    }
  }
  EXPECT_GT(differs_from_sequential, 0u) << "the inputs never tell the order from the sequential one";
}

TEST_F(DveModelTest, ReduceMax8TransposeIotaAgainstPlainLoops) {
  auto rng = test::make_rng();
  const uint32_t P = dve.partitions(), n = 40;
  DveLanes in(P, std::vector<uint32_t>(n));
  for (auto& lane : in)
    for (auto& x : lane) x = bits_of(static_cast<float>(static_cast<int>(rng() % 2001) - 1000) / 8.0f);
  DveCommand c;
  c.n = n;
  c.op = DveOp::kTensorReduce;
  c.alu0 = DveAlu::kAdd;
  c.negate = true;
  auto r = dve.execute(c, in, {});
  for (uint32_t p = 0; p < P; ++p) {
    double sum = 0;  // multiples of 1/8 below 2^20: exact in fp32 in any order
    for (uint32_t x : in[p]) sum += float_of(x);
    EXPECT_EQ(float_of(r.out[p][0]), static_cast<float>(-sum));
  }
  c.op = DveOp::kMax8;
  c.negate = false;
  r = dve.execute(c, in, {});
  for (uint32_t p = 0; p < P; ++p) {
    std::vector<float> v;
    for (uint32_t x : in[p]) v.push_back(float_of(x));
    std::sort(v.begin(), v.end(), std::greater<float>());
    for (int k = 0; k < 8; ++k) EXPECT_EQ(float_of(r.out[p][k]), v[k]);
  }
  c.op = DveOp::kTranspose;
  c.n = P;  // tiny: one 8 x 8 block
  r = dve.execute(c, in, {});
  for (uint32_t p = 0; p < P; ++p)
    for (uint32_t i = 0; i < P; ++i) EXPECT_EQ(r.out[p][i], in[i][p]);
  c.op = DveOp::kIota;
  c.out = Dtype::kInt32;
  c.n = 5;
  c.imm0 = static_cast<uint32_t>(-7);
  c.imm1 = 100;
  c.imm2 = 3;
  r = dve.execute(c, {}, {});
  for (uint32_t p = 0; p < P; ++p)
    for (uint32_t i = 0; i < 5; ++i) EXPECT_EQ(static_cast<int32_t>(r.out[p][i]), -7 + 100 * static_cast<int>(p) + 3 * static_cast<int>(i));
}

}  // namespace
}  // namespace tern
