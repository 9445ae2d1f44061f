// The GPSIMD cores' F extension (model/gpsimd/rv_fp.h) against two independent references:
// the host's IEEE binary32 unit (SSE: the four directed and nearest modes through fesetround,
// the five flags through fetestexcept, tininess detected after rounding as on RISC-V), and the
// project's numerics (model/numerics) under round-to-nearest-even. Round-to-nearest-max-
// magnitude, which the host lacks, is checked at the exact ties an fp64 computation finds.
// Expected results for NaNs, conversions out of range and fmin/fmax are the ISA manual's rules,
// stated in the directed tests.
#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
#include <functional>

#include "gpsimd/rv_fp.h"
#include "numerics/numerics.h"
#include "test_util.h"

namespace tern::gpsimd {
namespace {

using test::fp32_bits;
using test::fp32_value;

constexpr RoundingMode kHostModes[] = {RoundingMode::kRne, RoundingMode::kRtz, RoundingMode::kRdn,
                                       RoundingMode::kRup};

int host_mode(RoundingMode rm) {
  switch (rm) {
    case RoundingMode::kRtz: return FE_TOWARDZERO;
    case RoundingMode::kRdn: return FE_DOWNWARD;
    case RoundingMode::kRup: return FE_UPWARD;
    default: return FE_TONEAREST;
  }
}

uint8_t host_flags(int ex) {
  uint8_t f = 0;
  if (ex & FE_INEXACT) f |= fflags::kInexact;
  if (ex & FE_UNDERFLOW) f |= fflags::kUnderflow;
  if (ex & FE_OVERFLOW) f |= fflags::kOverflow;
  if (ex & FE_DIVBYZERO) f |= fflags::kDivByZero;
  if (ex & FE_INVALID) f |= fflags::kInvalid;
  return f;
}

bool is_nan_bits(uint32_t b) { return (b & 0x7FFFFFFFu) > 0x7F800000u; }

// The host's result of `op` under rm: its bits (a NaN made canonical) and flags.
FpResult on_host(RoundingMode rm, const std::function<float()>& op) {
  std::fesetround(host_mode(rm));
  std::feclearexcept(FE_ALL_EXCEPT);
  volatile float r = op();
  const int ex = std::fetestexcept(FE_ALL_EXCEPT);
  std::fesetround(FE_TONEAREST);
  const uint32_t bits = fp32_bits(r);
  return {is_nan_bits(bits) ? kCanonicalNaN : bits, host_flags(ex)};
}

// Operands that reach every rounding case: specials, subnormals, values near overflow, pairs
// with close exponents (cancellation, ties) and uniform patterns.
uint32_t random_operand(std::mt19937_64& rng) {
  static constexpr uint32_t kSpecials[] = {0x00000000u, 0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u,
                                           0x7FA00000u, 0x00000001u, 0x007FFFFFu, 0x00800000u, 0x7F7FFFFFu,
                                           0x3F800000u, 0xBF800000u, 0x33800000u, 0x4B800000u};
  const uint32_t bits = uint32_t(rng());
  switch (rng() % 6) {
    case 0: return kSpecials[rng() % std::size(kSpecials)];
    case 1: return bits & 0x807FFFFFu;                                  // subnormal
    case 2: return (bits & 0x807FFFFFu) | uint32_t(120 + rng() % 16) << 23;  // near 1
    case 3: return (bits & 0x807FFFFFu) | uint32_t(rng() % 2 ? 250 + rng() % 5 : 1 + rng() % 5) << 23;
    default: return bits;
  }
}

struct BinaryOp {
  const char* name;
  FpResult (*ours)(uint32_t, uint32_t, RoundingMode);
  float (*host)(float, float);
  uint32_t (*numerics)(uint32_t, uint32_t);  // the project's RNE operation, or null
  double (*wide)(double, double);
};

const BinaryOp kBinaryOps[] = {
    {"fadd", fadd, [](float a, float b) { return a + b; }, fp32_add, [](double a, double b) { return a + b; }},
    {"fsub", fsub, [](float a, float b) { return a - b; }, nullptr, [](double a, double b) { return a - b; }},
    {"fmul", fmul, [](float a, float b) { return a * b; }, fp32_mul, [](double a, double b) { return a * b; }},
    {"fdiv", fdiv, [](float a, float b) { return a / b; }, fp32_div, [](double a, double b) { return a / b; }},
};

// The RMM result predicted from RNE: they differ only when the exact value (found in fp64,
// exact whenever it can be a binary32 tie) lies halfway between two binary32 neighbours.
std::optional<uint32_t> rmm_reference(uint32_t rne_bits, double exact_value, bool exact) {
  if (!exact) return rne_bits;  // not representable in fp64, so not a binary32 tie: RMM is RNE
  if (is_nan_bits(rne_bits) || std::isinf(fp32_value(rne_bits))) return rne_bits;
  const float nearest = fp32_value(rne_bits);
  if (double(nearest) == exact_value) return rne_bits;
  const float other = std::nextafter(nearest, float(exact_value > double(nearest) ? INFINITY : -INFINITY));
  if ((double(nearest) + double(other)) / 2 != exact_value) return rne_bits;
  return fp32_bits(std::fabs(other) > std::fabs(nearest) ? other : nearest);
}

// exact: fp64 computed `wide` with no rounding error.
double wide_exact(double (*wide)(double, double), float a, float b, bool& exact) {
  std::feclearexcept(FE_ALL_EXCEPT);
  volatile double r = wide(a, b);
  exact = std::fetestexcept(FE_INEXACT) == 0;
  return r;
}

TEST(GpsimdFp, BinaryOpsMatchTheHostInEveryModeWithFlags) {
  auto rng = test::make_rng();
  const uint64_t n = test::random_count("TERN_VECTORS", 200000, 2000000);
  for (const BinaryOp& op : kBinaryOps) {
    test::Mismatches bad(op.name);
    for (uint64_t i = 0; i < n; ++i) {
      const uint32_t a = random_operand(rng), b = random_operand(rng);
      for (RoundingMode rm : kHostModes) {
        const FpResult ours = op.ours(a, b, rm);
        const FpResult host = on_host(rm, [&] {
          volatile float x = fp32_value(a), y = fp32_value(b);
          return op.host(x, y);
        });
        if (ours.bits != host.bits || ours.flags != host.flags) {
          bad.add("{}({:08x}, {:08x}) rm {}: {:08x} flags {:02x}, host {:08x} flags {:02x}", op.name, a, b,
                  int(rm), ours.bits, ours.flags, host.bits, host.flags);
        }
      }
      if (op.numerics && op.ours(a, b, RoundingMode::kRne).bits != op.numerics(a, b)) {
        bad.add("{}({:08x}, {:08x}) RNE differs from model/numerics {:08x}", op.name, a, b, op.numerics(a, b));
      }
      bool exact = false;
      const double w = wide_exact(op.wide, fp32_value(a), fp32_value(b), exact);
      const std::optional<uint32_t> rmm = rmm_reference(op.ours(a, b, RoundingMode::kRne).bits, w, exact);
      if (rmm && op.ours(a, b, RoundingMode::kRmm).bits != *rmm) {
        bad.add("{}({:08x}, {:08x}) RMM {:08x}, expected {:08x}", op.name, a, b,
                op.ours(a, b, RoundingMode::kRmm).bits, *rmm);
      }
    }
    EXPECT_EQ(bad.count(), 0u) << op.name;
  }
}

TEST(GpsimdFp, SqrtAndFusedMultiplyAddMatchTheHost) {
  auto rng = test::make_rng();
  const uint64_t n = test::random_count("TERN_VECTORS", 200000, 2000000);
  test::Mismatches bad("fsqrt/fmadd");
  for (uint64_t i = 0; i < n; ++i) {
    const uint32_t a = random_operand(rng), b = random_operand(rng), c = random_operand(rng);
    for (RoundingMode rm : kHostModes) {
      const FpResult s = fsqrt(a, rm);
      const FpResult hs = on_host(rm, [&] {
        volatile float x = fp32_value(a);
        return std::sqrt(float(x));
      });
      if (s.bits != hs.bits || s.flags != hs.flags) {
        bad.add("fsqrt({:08x}) rm {}: {:08x}/{:02x}, host {:08x}/{:02x}", a, int(rm), s.bits, s.flags, hs.bits, hs.flags);
      }
      const FpResult f = fmadd(a, b, c, rm);
      const FpResult hf = on_host(rm, [&] {
        volatile float x = fp32_value(a), y = fp32_value(b), z = fp32_value(c);
        return std::fmaf(x, y, z);
      });
      // inf * 0 + qNaN: the manual requires NV, IEEE leaves it open (the host raises none).
      const bool inf_zero_qnan = is_nan_bits(c) && (c & 0x400000u) != 0 &&
                                 ((std::isinf(fp32_value(a)) && fp32_value(b) == 0) ||
                                  (fp32_value(a) == 0 && std::isinf(fp32_value(b))));
      const uint8_t want = inf_zero_qnan ? uint8_t(hf.flags | fflags::kInvalid) : hf.flags;
      if (f.bits != hf.bits || f.flags != want) {
        bad.add("fmadd({:08x}, {:08x}, {:08x}) rm {}: {:08x}/{:02x}, host {:08x}/{:02x}", a, b, c, int(rm), f.bits,
                f.flags, hf.bits, want);
      }
    }
    if (fsqrt(a, RoundingMode::kRne).bits != fp32_sqrt(a)) bad.add("fsqrt({:08x}) differs from model/numerics", a);
  }
  EXPECT_EQ(bad.count(), 0u);
}

// The manual's fcvt.w[u].s: rounded by rm, and out of range (or NaN, infinite) the saturated
// value with NV only. The rounded integer itself comes from the host (lrintf, exact in int64).
FpResult expected_to_int(uint32_t a, RoundingMode rm, bool is_signed) {
  const float v = fp32_value(a);
  const int64_t hi = is_signed ? INT32_MAX : int64_t(UINT32_MAX);
  const int64_t lo = is_signed ? INT32_MIN : 0;
  if (std::isnan(v)) return {uint32_t(hi), fflags::kInvalid};
  if (std::fabs(v) >= 0x1p40f) return {uint32_t(v > 0 ? hi : lo), fflags::kInvalid};
  std::fesetround(host_mode(rm));
  std::feclearexcept(FE_ALL_EXCEPT);
  const long r = std::lrint(double(v));  // v is exact in fp64; lrint rounds in the host mode
  const bool inexact = std::fetestexcept(FE_INEXACT) != 0;
  std::fesetround(FE_TONEAREST);
  if (r > hi) return {uint32_t(hi), fflags::kInvalid};
  if (r < lo) return {uint32_t(lo), fflags::kInvalid};
  return {uint32_t(r), inexact ? fflags::kInexact : uint8_t(0)};
}

TEST(GpsimdFp, ConversionsFollowTheManual) {
  auto rng = test::make_rng();
  const uint64_t n = test::random_count("TERN_VECTORS", 200000, 2000000);
  test::Mismatches bad("fcvt");
  for (uint64_t i = 0; i < n; ++i) {
    const uint32_t a = rng() % 2 ? random_operand(rng) : (uint32_t(rng()) & 0x807FFFFFu) | uint32_t(110 + rng() % 50) << 23;
    const uint32_t x = uint32_t(rng()) >> (rng() % 32);
    for (RoundingMode rm : kHostModes) {
      for (bool is_signed : {true, false}) {
        const FpResult ours = is_signed ? fcvt_w_s(a, rm) : fcvt_wu_s(a, rm);
        const FpResult want = expected_to_int(a, rm, is_signed);
        if (ours.bits != want.bits || ours.flags != want.flags) {
          bad.add("fcvt.w{}.s({:08x}) rm {}: {:08x}/{:02x}, expected {:08x}/{:02x}", is_signed ? "" : "u", a, int(rm),
                  ours.bits, ours.flags, want.bits, want.flags);
        }
      }
      const FpResult sw = fcvt_s_w(x, rm);
      const FpResult hsw = on_host(rm, [&] {
        volatile int32_t v = int32_t(x);
        return float(v);
      });
      const FpResult swu = fcvt_s_wu(x, rm);
      const FpResult hswu = on_host(rm, [&] {
        volatile uint32_t v = x;
        return float(v);
      });
      if (sw.bits != hsw.bits || sw.flags != hsw.flags) bad.add("fcvt.s.w({:08x}) rm {}", x, int(rm));
      if (swu.bits != hswu.bits || swu.flags != hswu.flags) bad.add("fcvt.s.wu({:08x}) rm {}", x, int(rm));
    }
  }
  EXPECT_EQ(bad.count(), 0u);
}

constexpr uint32_t kQNaN = 0x7FC00001u, kSNaN = 0x7F800001u, kOne = 0x3F800000u, kTwo = 0x40000000u;
constexpr uint32_t kPlusZero = 0, kMinusZero = 0x80000000u;

TEST(GpsimdFp, MinMaxAreMinimumNumberAndMaximumNumber) {
  EXPECT_EQ(fmin(kQNaN, kOne).bits, kOne);
  EXPECT_EQ(fmax(kOne, kQNaN).bits, kOne);
  EXPECT_EQ(fmin(kQNaN, kQNaN).bits, kCanonicalNaN);
  EXPECT_EQ(fmin(kSNaN, kOne).flags, fflags::kInvalid);
  EXPECT_EQ(fmin(kSNaN, kOne).bits, kOne);
  EXPECT_EQ(fmin(kQNaN, kOne).flags, 0);
  EXPECT_EQ(fmin(kPlusZero, kMinusZero).bits, kMinusZero);
  EXPECT_EQ(fmin(kMinusZero, kPlusZero).bits, kMinusZero);
  EXPECT_EQ(fmax(kMinusZero, kPlusZero).bits, kPlusZero);
  EXPECT_EQ(fmax(kPlusZero, kMinusZero).bits, kPlusZero);
  EXPECT_EQ(fmax(kOne, kTwo).bits, kTwo);
  EXPECT_EQ(fmin(0xC0000000u, kOne).bits, 0xC0000000u);
}

TEST(GpsimdFp, ComparesSignalAsTheManualSays) {
  EXPECT_EQ(feq(kQNaN, kOne).bits, 0u);
  EXPECT_EQ(feq(kQNaN, kOne).flags, 0);  // quiet
  EXPECT_EQ(feq(kSNaN, kOne).flags, fflags::kInvalid);
  EXPECT_EQ(flt(kQNaN, kOne).flags, fflags::kInvalid);  // signalling
  EXPECT_EQ(fle(kOne, kQNaN).flags, fflags::kInvalid);
  EXPECT_EQ(feq(kPlusZero, kMinusZero).bits, 1u);
  EXPECT_EQ(flt(kMinusZero, kPlusZero).bits, 0u);
  EXPECT_EQ(fle(kMinusZero, kPlusZero).bits, 1u);
  EXPECT_EQ(flt(0xC0000000u, 0xBF800000u).bits, 1u);  // -2 < -1
  EXPECT_EQ(flt(0xFF800000u, 0xFF7FFFFFu).bits, 1u);  // -inf < -max
}

TEST(GpsimdFp, ClassifiesEveryKind) {
  EXPECT_EQ(fclass(0xFF800000u), 1u << 0);
  EXPECT_EQ(fclass(0xBF800000u), 1u << 1);
  EXPECT_EQ(fclass(0x80000001u), 1u << 2);
  EXPECT_EQ(fclass(kMinusZero), 1u << 3);
  EXPECT_EQ(fclass(kPlusZero), 1u << 4);
  EXPECT_EQ(fclass(0x007FFFFFu), 1u << 5);
  EXPECT_EQ(fclass(kOne), 1u << 6);
  EXPECT_EQ(fclass(0x7F800000u), 1u << 7);
  EXPECT_EQ(fclass(kSNaN), 1u << 8);
  EXPECT_EQ(fclass(kQNaN), 1u << 9);
}

TEST(GpsimdFp, RoundToNearestMaxMagnitudeBreaksTiesAway) {
  const uint32_t one_and_half_ulp = 0x33800000u;  // 2^-24: half an ulp of 1.0
  EXPECT_EQ(fadd(kOne, one_and_half_ulp, RoundingMode::kRne).bits, kOne);           // tie to even
  EXPECT_EQ(fadd(kOne, one_and_half_ulp, RoundingMode::kRmm).bits, 0x3F800001u);    // tie away
  EXPECT_EQ(fadd(0xBF800000u, 0xB3800000u, RoundingMode::kRmm).bits, 0xBF800001u);  // away from zero
  EXPECT_EQ(fadd(kOne, one_and_half_ulp, RoundingMode::kRmm).flags, fflags::kInexact);
  EXPECT_EQ(fcvt_w_s(0x40200000u /* 2.5 */, RoundingMode::kRmm).bits, 3u);
  EXPECT_EQ(fcvt_w_s(0x40200000u, RoundingMode::kRne).bits, 2u);
  EXPECT_EQ(fcvt_w_s(0xC0200000u /* -2.5 */, RoundingMode::kRmm).bits, uint32_t(-3));
}

TEST(GpsimdFp, FusedMultiplyAddRoundsOnce) {
  // (1 + 2^-23)^2 - 1 = 2^-22 + 2^-46: one rounding keeps 2^-46, a separate multiply loses it.
  const uint32_t x = 0x3F800001u;
  EXPECT_EQ(fmadd(x, x, 0xBF800000u, RoundingMode::kRne).bits, fp32_bits(0x1p-22f + 0x1p-46f));
  EXPECT_EQ(fadd(fmul(x, x, RoundingMode::kRne).bits, 0xBF800000u, RoundingMode::kRne).bits, fp32_bits(0x1p-22f));
  // inf * 0 + qNaN raises NV (the manual), with the canonical NaN.
  EXPECT_EQ(fmadd(0x7F800000u, kPlusZero, kQNaN, RoundingMode::kRne).flags, fflags::kInvalid);
  EXPECT_EQ(fmadd(0x7F800000u, kPlusZero, kQNaN, RoundingMode::kRne).bits, kCanonicalNaN);
  // fnmadd: -(a*b) - c; x*0 - 0 with both zeros positive gives -0 in fnmadd.
  EXPECT_EQ(fmadd(kOne, kPlusZero, kPlusZero, RoundingMode::kRne, true, true).bits, kMinusZero);
}

}  // namespace
}  // namespace tern::gpsimd
