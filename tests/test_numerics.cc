// The golden numerics library against independent oracles: exhaustive enumeration of the
// small formats, MPFR for every rounding decision, host IEEE arithmetic for fp32 add, and a
// statistical test of stochastic rounding.
#include <cfenv>
#include <cmath>
#include <cstring>
#include <vector>

#include "common/error.h"
#include "numerics/mac_fold.h"
#include "numerics/numerics.h"
#include "numerics/sr_rng.h"
#include "oracle.h"
#include "pe/tensor_engine.h"
#include "test_util.h"

namespace tern {
namespace {

using test::Mismatches;

float as_float(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint32_t as_bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

constexpr Dtype kSmallFloats[] = {Dtype::kBf16, Dtype::kFp16, Dtype::kFp8E4M3, Dtype::kFp8E5M2};
constexpr Dtype kFloatTargets[] = {Dtype::kTf32, Dtype::kBf16, Dtype::kFp16, Dtype::kFp8E4M3,
                                   Dtype::kFp8E5M2};

TEST(Numerics, UpConversionExhaustiveAgainstSpecDecode) {
  for (Dtype t : kSmallFloats) {
    Mismatches bad(fmt::format("to_fp32 from {}", dtype_name(t)));
    for (uint32_t x = 0; x < (1u << dtype_bits(t)); ++x) {
      const uint32_t got = convert_to_fp32(t, x);
      const double want = oracle::value_of(t, x);
      if (std::isnan(want) ? got != kFp32CanonicalNaN : !oracle::same(Dtype::kFp32, got, want)) {
        bad.add("{:#x} -> {:#010x}, want {}", x, got, want);
      }
    }
    EXPECT_EQ(bad.count(), 0u);
  }
}

TEST(Numerics, RoundTripExhaustive) {
  for (Dtype t : kSmallFloats) {
    const FloatFormat& f = float_format(t);
    Mismatches bad(fmt::format("round trip {}", dtype_name(t)));
    for (uint32_t x = 0; x < (1u << dtype_bits(t)); ++x) {
      const uint32_t wide = convert_to_fp32(t, x);
      for (bool sat : {false, true}) {
        const uint32_t back = convert_from_fp32(t, wide, {Rounding::kNearestEven, sat}, 0);
        const bool is_nan = std::isnan(oracle::value_of(t, x));
        const bool is_inf = std::isinf(oracle::value_of(t, x));
        uint32_t want = x;
        if (is_nan) want = f.canonical_nan();
        if (is_inf && sat) want = f.max_finite(x >> (f.width() - 1));
        if (back != want) bad.add("{:#x} -> {:#x} -> {:#x} (sat={})", x, wide, back, sat);
        // Stochastic rounding of a representable value is exact whatever the draw.
        if (!is_nan && !is_inf &&
            convert_from_fp32(t, wide, {Rounding::kStochastic, sat}, 0xFFFFFFFFu) != x) {
          bad.add("SR moved representable {:#x}", x);
        }
      }
    }
    EXPECT_EQ(bad.count(), 0u);
  }
}

TEST(Numerics, DownConversionAgainstMpfr) {
  auto rng = test::make_rng();
  const uint64_t n = test::vector_count();
  for (Dtype t : kFloatTargets) {
    Mismatches bad(fmt::format("to {}", dtype_name(t)));
    for (uint64_t i = 0; i < n / 5; ++i) {
      const uint32_t x = test::random_fp32_for(t, rng);
      const bool sr = rng() & 1;
      const bool sat = rng() & 1;
      const uint32_t random = static_cast<uint32_t>(rng());
      const uint32_t got = convert_from_fp32(
          t, x, {sr ? Rounding::kStochastic : Rounding::kNearestEven, sat}, random);
      const double want = oracle::convert(t, as_float(x), sr, sat, random);
      if (!oracle::same(t, got, want)) {
        bad.add("{:#010x} sr={} sat={} rnd={:#x} -> {:#x}, want {}", x, sr, sat, random, got, want);
      }
    }
    EXPECT_EQ(bad.count(), 0u);
  }
}

TEST(Numerics, OverflowRules) {
  // e4m3fn: 464 is the tie between 448 and 480 (not representable): ties to 448.
  const ConvertMode rne{Rounding::kNearestEven, false};
  const ConvertMode sat{Rounding::kNearestEven, true};
  EXPECT_EQ(convert_from_fp32(Dtype::kFp8E4M3, as_bits(464.0f), rne, 0), 0x7Eu);
  EXPECT_EQ(convert_from_fp32(Dtype::kFp8E4M3, as_bits(465.0f), rne, 0), 0x7Fu);  // NaN
  EXPECT_EQ(convert_from_fp32(Dtype::kFp8E4M3, as_bits(465.0f), sat, 0), 0x7Eu);
  EXPECT_EQ(convert_from_fp32(Dtype::kFp8E4M3, as_bits(-INFINITY), sat, 0), 0xFEu);
  EXPECT_EQ(convert_from_fp32(Dtype::kFp8E4M3, as_bits(-INFINITY), rne, 0), 0x7Fu);
  EXPECT_EQ(convert_from_fp32(Dtype::kFp8E5M2, as_bits(61440.0f), rne, 0), 0x7Cu);  // tie -> Inf
  EXPECT_EQ(convert_from_fp32(Dtype::kFp8E5M2, as_bits(61440.0f), sat, 0), 0x7Bu);
  EXPECT_EQ(convert_from_fp32(Dtype::kFp16, as_bits(65520.0f), rne, 0), 0x7C00u);
  EXPECT_EQ(convert_from_fp32(Dtype::kFp16, as_bits(65519.0f), rne, 0), 0x7BFFu);
  EXPECT_EQ(convert_from_fp32(Dtype::kBf16, as_bits(NAN), rne, 0), 0x7FC0u);
  EXPECT_EQ(convert_from_fp32(Dtype::kBf16, 0xFFFFFFFFu, sat, 0), 0x7FC0u);
  // The smallest fp16 subnormal is 2^-24; half of it ties to zero, a bit more rounds up.
  EXPECT_EQ(convert_from_fp32(Dtype::kFp16, as_bits(std::ldexp(1.0f, -25)), rne, 0), 0x0000u);
  EXPECT_EQ(convert_from_fp32(Dtype::kFp16, as_bits(std::ldexp(1.5f, -25)), rne, 0), 0x0001u);
  EXPECT_EQ(convert_from_fp32(Dtype::kFp16, as_bits(-std::ldexp(1.0f, -26)), rne, 0), 0x8000u);
}

TEST(Numerics, IntegerConversionsAgainstHost) {
  auto rng = test::make_rng();
  ASSERT_EQ(std::fegetround(), FE_TONEAREST);
  Mismatches bad("fp32 -> int");
  for (uint64_t i = 0; i < test::vector_count() / 4; ++i) {
    const int e = static_cast<int>(rng() % 40) - 8;
    const float x = std::ldexp(static_cast<float>(static_cast<int32_t>(rng() & 0xFFFFFF) - 0x800000), e - 23);
    for (Dtype t : {Dtype::kInt8, Dtype::kUint8, Dtype::kInt32}) {
      const double lo = t == Dtype::kInt8 ? -128 : t == Dtype::kUint8 ? 0 : -2147483648.0;
      const double hi = t == Dtype::kInt8 ? 127 : t == Dtype::kUint8 ? 255 : 2147483647.0;
      const double want = std::clamp(std::nearbyint(static_cast<double>(x)), lo, hi);
      const uint32_t got = convert_from_fp32(t, as_bits(x), {}, 0);
      const double got_v = t == Dtype::kInt8    ? static_cast<int8_t>(got)
                           : t == Dtype::kUint8 ? static_cast<double>(got)
                                                : static_cast<int32_t>(got);
      if (got_v != want) bad.add("{} -> {} = {}, want {}", x, dtype_name(t), got_v, want);
    }
  }
  EXPECT_EQ(bad.count(), 0u);
  EXPECT_EQ(convert_from_fp32(Dtype::kInt8, kFp32CanonicalNaN, {}, 0), 0u);
  EXPECT_EQ(convert_from_fp32(Dtype::kUint8, as_bits(-INFINITY), {}, 0), 0u);
  EXPECT_EQ(convert_to_fp32(Dtype::kInt32, 0x7FFFFFFFu), as_bits(2147483648.0f));
  EXPECT_EQ(convert_to_fp32(Dtype::kInt8, 0x80u), as_bits(-128.0f));
  for (uint32_t i = 0; i < 20000; ++i) {
    const auto v = static_cast<int32_t>(rng());
    ASSERT_EQ(convert_to_fp32(Dtype::kInt32, static_cast<uint32_t>(v)), as_bits(static_cast<float>(v)));
  }
}

// The model's fp32_add/mul/div/sqrt (the host's binary32 arithmetic, as tern_model is compiled)
// are bit for bit the exact ones: random patterns, exponents brought together (cancellation,
// ties) and subnormal operands, NaN results canonical.
TEST(Numerics, HostFp32OpsMatchTheExactOnes) {
  auto rng = test::make_rng();
  Mismatches bad("host fp32 ops");
  for (uint64_t i = 0; i < test::vector_count() / 4; ++i) {
    uint32_t a = static_cast<uint32_t>(rng()), b = static_cast<uint32_t>(rng());
    if (i % 3 == 0) b = (b & 0x807FFFFFu) | (a & 0x7F800000u);
    if (i % 7 == 0) a &= 0x807FFFFFu;
    if (fp32_add(a, b) != fp32_add_exact(a, b)) bad.add("add {:#x} {:#x}", a, b);
    if (fp32_mul(a, b) != fp32_mul_exact(a, b)) bad.add("mul {:#x} {:#x}", a, b);
    if (fp32_div(a, b) != fp32_div_exact(a, b)) bad.add("div {:#x} {:#x}", a, b);
    if (fp32_sqrt(a) != fp32_sqrt_exact(a)) bad.add("sqrt {:#x}", a);
  }
  EXPECT_EQ(bad.count(), 0u);
}

TEST(Numerics, Fp32AddAgainstHostIeee) {
  auto rng = test::make_rng();
  ASSERT_EQ(std::fegetround(), FE_TONEAREST);
  Mismatches bad("fp32_add");
  auto check = [&](uint32_t a, uint32_t b) {
    const float want = as_float(a) + as_float(b);  // host SSE: IEEE binary32, no FTZ/DAZ
    const uint32_t got = fp32_add_exact(a, b);
    const bool ok = std::isnan(want) ? got == kFp32CanonicalNaN : got == as_bits(want);
    if (!ok) bad.add("{:#010x} + {:#010x} = {:#010x}, want {:#010x}", a, b, got, as_bits(want));
  };
  const uint32_t specials[] = {0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007FFFFF,
                               0x00800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000, 0xFF800000,
                               0x7FC00000, 0xFFFFFFFF, 0x3F800000, 0xBF800000, 0x33800000,
                               0x4B000000, 0x4B000001, 0xCB000000};
  for (uint32_t a : specials) {
    for (uint32_t b : specials) check(a, b);
  }
  for (uint64_t i = 0; i < test::vector_count(); ++i) {
    uint32_t a = static_cast<uint32_t>(rng());
    uint32_t b = static_cast<uint32_t>(rng());
    if (i % 2) {  // nearby exponents: cancellation and ties
      b = (b & 0x807FFFFFu) | (((a >> 23) & 0xFF) + static_cast<uint32_t>(rng() % 5) - 2) % 256 << 23;
    }
    if (i % 8 == 1) a &= 0x807FFFFFu;  // subnormal operands
    check(a, b);
  }
  EXPECT_EQ(bad.count(), 0u);
}

// The operations written from the definition (fp32_*_exact) against the host's IEEE binary32
// arithmetic in this test (the oracle); the model's host-speed fp32_* against them below.
TEST(Numerics, Fp32MulDivSqrtAgainstHostIeee) {
  auto rng = test::make_rng();
  ASSERT_EQ(std::fegetround(), FE_TONEAREST);
  Mismatches bad("fp32 mul/div/sqrt");
  auto same = [](float want, uint32_t got) {
    return std::isnan(want) ? got == kFp32CanonicalNaN : got == as_bits(want);
  };
  auto check = [&](uint32_t a, uint32_t b) {
    const float x = as_float(a), y = as_float(b);
    if (!same(x * y, fp32_mul_exact(a, b))) bad.add("{:#010x} * {:#010x} = {:#010x}", a, b, fp32_mul_exact(a, b));
    if (!same(x / y, fp32_div_exact(a, b))) bad.add("{:#010x} / {:#010x} = {:#010x}", a, b, fp32_div_exact(a, b));
    if (!same(std::sqrt(x), fp32_sqrt_exact(a))) bad.add("sqrt({:#010x}) = {:#010x}", a, fp32_sqrt_exact(a));
  };
  const uint32_t specials[] = {0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007FFFFF,
                               0x00800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000, 0xFF800000,
                               0x7FC00000, 0xFFFFFFFF, 0x3F800000, 0xBF800000, 0x33800000,
                               0x3F7FFFFF, 0x3F800001, 0x40000000, 0x3F000000, 0x1F800000};
  for (uint32_t a : specials) {
    for (uint32_t b : specials) check(a, b);
  }
  for (uint64_t i = 0; i < test::vector_count() / 2; ++i) {
    uint32_t a = static_cast<uint32_t>(rng()), b = static_cast<uint32_t>(rng());
    if (i % 4 == 1) {  // results near the subnormal range and the overflow threshold
      b = (b & 0x807FFFFFu) | ((254u - ((a >> 23) & 0xFF) + static_cast<uint32_t>(rng() % 9)) % 256) << 23;
    }
    if (i % 8 == 3) a &= 0x807FFFFFu;  // subnormal operands
    check(a, b);
  }
  EXPECT_EQ(bad.count(), 0u);
}

// max/min against the host's comparisons, with the IEEE 754-2019 rules for NaN and zeros.
TEST(Numerics, Fp32MaxMinAgainstHost) {
  auto rng = test::make_rng();
  Mismatches bad("fp32 max/min");
  const uint32_t specials[] = {0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x7F800000, 0xFF800000,
                               0x7FC00000, 0xFFC12345, 0x3F800000, 0xBF800000, 0x7F7FFFFF};
  auto check = [&](uint32_t a, uint32_t b) {
    const float x = as_float(a), y = as_float(b);
    uint32_t want_max, want_min;
    if (std::isnan(x) || std::isnan(y)) {
      want_max = want_min = kFp32CanonicalNaN;
    } else if (x == 0 && y == 0) {  // -0 < +0
      want_max = (a & b) & 0x80000000u;
      want_min = (a | b) & 0x80000000u;
    } else {
      want_max = x < y ? b : a;
      want_min = y < x ? b : a;
    }
    if (fp32_max(a, b) != want_max) bad.add("max({:#x}, {:#x}) = {:#x}", a, b, fp32_max(a, b));
    if (fp32_min(a, b) != want_min) bad.add("min({:#x}, {:#x}) = {:#x}", a, b, fp32_min(a, b));
  };
  for (uint32_t a : specials) {
    for (uint32_t b : specials) check(a, b);
  }
  for (int i = 0; i < 100000; ++i) {
    const uint32_t a = static_cast<uint32_t>(rng());
    check(a, i % 2 ? static_cast<uint32_t>(rng()) : a ^ static_cast<uint32_t>(rng() % 4));
  }
  EXPECT_EQ(bad.count(), 0u);
}

TEST(Numerics, MacStepAgainstMpfr) {
  auto rng = test::make_rng();
  using test::kMacTypes;
  Mismatches bad("mac_step");
  for (uint64_t i = 0; i < test::vector_count(); ++i) {
    const Dtype ta = kMacTypes[rng() % 5];
    const Dtype tb = kMacTypes[rng() % 5];
    const uint32_t a = static_cast<uint32_t>(rng()) & test::operand_mask(ta);
    const uint32_t b = static_cast<uint32_t>(rng()) & test::operand_mask(tb);
    // An accumulator near the product's magnitude half of the time, so sums cancel and tie.
    uint32_t acc = static_cast<uint32_t>(rng());
    const double p = oracle::value_of(ta, a) * oracle::value_of(tb, b);
    if ((i & 1) && std::isfinite(p) && p != 0) {
      int e;
      std::frexp(p, &e);
      const int field = std::clamp(e - 1 + 127 + static_cast<int>(rng() % 7) - 3, 0, 254);
      acc = (acc & 0x807FFFFFu) | (static_cast<uint32_t>(field) << 23);
    }
    const uint32_t got = mac_step(acc, ta, a, tb, b);
    const double want = oracle::mac(oracle::value_of(Dtype::kFp32, acc), oracle::value_of(ta, a),
                                    oracle::value_of(tb, b));
    const bool ok = std::isnan(want) ? got == kFp32CanonicalNaN : oracle::same(Dtype::kFp32, got, want);
    if (!ok) {
      bad.add("{:#010x} + {}:{:#x} * {}:{:#x} = {:#010x}, want {}", acc, dtype_name(ta), a,
              dtype_name(tb), b, got, want);
    }
  }
  EXPECT_EQ(bad.count(), 0u);
  EXPECT_THROW(mac_step(0, Dtype::kFp32, 0, Dtype::kBf16, 0), Error);
  EXPECT_THROW(mac_step(0, Dtype::kBf16, 0, Dtype::kInt8, 0), Error);
}

// mac_fold (the golden Tensor Engine's fast column fold) against mac_step applied in order, for
// every type pair. Half the operands are random patterns (NaN, Inf, zeros, subnormals); the
// rest are built near the ends of binary32's range (products that overflow or underflow it
// take mac_step's path inside the fold) or as pairs that cancel the running sum (ties, exact
// zeros).
TEST(Numerics, MacFoldIsMacStepInOrder) {
  auto rng = test::make_rng();
  using test::kMacTypes;
  Mismatches bad("mac_fold");
  auto operand = [&](Dtype t) {
    uint32_t x = static_cast<uint32_t>(rng()) & test::operand_mask(t);
    if (t == Dtype::kTf32 && rng() % 2) {  // a binary32 exponent near either end
      const uint32_t field = rng() % 2 ? 1 + rng() % 12 : 242 + rng() % 12;
      x = (x & 0x807FE000u) | (field << 23);
    }
    return x;
  };
  for (int trial = 0; trial < 3000; ++trial) {
    const Dtype ta = kMacTypes[rng() % 5], tb = kMacTypes[rng() % 5];
    const size_t n = 1 + rng() % 200;
    std::vector<uint32_t> a(n), b(n);
    for (size_t k = 0; k < n; ++k) {
      a[k] = operand(ta);
      b[k] = operand(tb);
      if (k > 0 && rng() % 8 == 0) {  // the last product again, negated: the sum cancels
        a[k] = a[k - 1] ^ (1u << (dtype_bits(ta) - 1));
        b[k] = b[k - 1];
      }
    }
    uint32_t want = 0;
    for (size_t k = 0; k < n; ++k) want = mac_step(want, ta, a[k], tb, b[k]);
    MacOperands fa, fb;
    fa.assign(ta, a.data(), n);
    fb.assign(tb, b.data(), n);
    const uint32_t got = mac_fold(fa, 0, fb, 0, n);
    if (got != want)
      bad.add("{} x {}, n {}: fold {:#010x}, steps {:#010x}", dtype_name(ta), dtype_name(tb), n, got, want);
  }
  EXPECT_EQ(bad.count(), 0u);
  MacOperands f;
  EXPECT_THROW(f.assign(Dtype::kFp32, nullptr, 0), Error);
}

// Stochastic rounding is unbiased: over 10^6 draws of the per-lane generator the mean result
// is within 5 standard errors (plus the 2^-32 ulp truncation bias) of the exact input.
TEST(Numerics, StochasticRoundingIsUnbiased) {
  constexpr int kDraws = 1000000;
  const float inputs[] = {1.0f + 0x1.0p-9f, 3.14159265f, -2.7182818f, 1e-3f, 0x1.8p-135f};
  for (Dtype t : {Dtype::kBf16, Dtype::kFp16, Dtype::kFp8E4M3}) {
    for (float x : inputs) {
      const double lo = oracle::round_value(x, t, oracle::Mode::kTowardZero);
      const double hi = oracle::round_value(x, t, oracle::Mode::kAwayFromZero);
      const double ulp = std::fabs(hi - lo);
      if (ulp == 0) continue;
      SrRng rng(static_cast<uint32_t>(test::test_seed()), 3);
      double sum = 0;
      for (int i = 0; i < kDraws; ++i) {
        sum += oracle::value_of(
            t, convert_from_fp32(t, as_bits(x), {Rounding::kStochastic, false}, rng.draw()));
      }
      const double mean_err = (sum / kDraws - x) / ulp;     // in ulps
      const double bound = 5 * 0.5 / std::sqrt(kDraws) + std::ldexp(1.0, -32);
      EXPECT_LT(std::fabs(mean_err), bound) << dtype_name(t) << " x=" << x;
    }
  }
}

TEST(SrRng, SeedingAndSequence) {
  // xorshift32 (13,17,5) restated from the spec: an independent reference of the step.
  auto step = [](uint32_t x) {
    x ^= x << 13;
    x ^= x >> 17;
    return x ^ (x << 5);
  };
  SrRng a(42, 0), b(42, 1), c(43, 0);
  EXPECT_NE(a.state(), b.state());
  EXPECT_NE(a.state(), c.state());
  uint32_t s = a.state();
  for (int i = 0; i < 1000; ++i) {
    s = step(s);
    ASSERT_EQ(a.draw(), s);
    ASSERT_NE(s, 0u);
  }
  EXPECT_EQ(mix32(0), 0u);  // hence the zero-state replacement
  EXPECT_EQ(SrRng::initial_state(mix32(1) /* seed ^ mix32(lane+1) == 0 */, 0),
            SrRng::kZeroStateReplacement);
}

}  // namespace
}  // namespace tern

namespace tern {
namespace {

// The fp32 matmul's three passes against the exact (fp64) dot product: far more accurate than a
// single TF32 pass, as the decomposition promises (docs/numerics.md, "fp32 on the Tensor Engine").
TEST(Numerics, Fp32ThreePassAccuracy) {
  auto rng = test::make_rng();
  const CoreConfig cfg = load_config(std::string(TERN_CONFIG_DIR) + "/small.yaml");
  const uint32_t K = cfg.pe_rows;
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  double err3 = 0, err1 = 0;
  for (int trial = 0; trial < 200; ++trial) {
    Tile st(K, std::vector<uint32_t>(1)), mv(K, std::vector<uint32_t>(1));
    double exact = 0;
    for (uint32_t k = 0; k < K; ++k) {
      const float a = dist(rng), b = dist(rng);
      st[k][0] = as_bits(a);
      mv[k][0] = as_bits(b);
      exact += static_cast<double>(a) * b;  // exact: 48-bit products, small sums
    }
    Psum psum(cfg);
    TensorEngine pe(cfg);
    ASSERT_EQ(pe.load_stationary({PeOp::kLoadStationary, Dtype::kFp32, K, 1}, st), PeError::kNone);
    ASSERT_EQ(pe.multiply_moving({PeOp::kMultiplyMoving, Dtype::kFp32, 0, 0, 1}, mv, psum), PeError::kNone);
    ASSERT_EQ(pe.load_stationary({PeOp::kLoadStationary, Dtype::kTf32, K, 1}, st), PeError::kNone);
    ASSERT_EQ(pe.multiply_moving({PeOp::kMultiplyMoving, Dtype::kTf32, 0, 0, 1, 1}, mv, psum), PeError::kNone);
    const double scale = std::max(std::fabs(exact), 1e-3);
    err3 += std::fabs(as_float(psum.read(0, 0)) - exact) / scale;
    err1 += std::fabs(as_float(psum.read(0, psum.entries())) - exact) / scale;
  }
  err3 /= 200;
  err1 /= 200;
  fmt::print("[ fp32     ] mean relative error: three passes {:.3g}, one TF32 pass {:.3g}\n", err3, err1);
  EXPECT_LT(err3, std::ldexp(1.0, -16));  // fp32 accumulation of 32 terms: ~2^-19 seen
  EXPECT_LT(err3 * 100, err1);
}

}  // namespace
}  // namespace tern
