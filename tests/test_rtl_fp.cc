// The verilated numerics blocks of rtl/fp against the golden library, bit for bit: directed
// corner cases, exhaustive sweeps where the input space is small, and seeded random vectors.
#include "fp_blocks.h"
#include "numerics/sr_rng.h"
#include "test_util.h"

namespace tern {
namespace {

using test::Mismatches;

using test::kMacTypes;
using test::operand_mask;
constexpr Dtype kFloatTargets[] = {Dtype::kFp32, Dtype::kTf32, Dtype::kBf16, Dtype::kFp16,
                                   Dtype::kFp8E4M3, Dtype::kFp8E5M2};

// Corner values of fp32: zeros, subnormal edges, normal edges, Inf, NaNs, ties around 1.
const std::vector<uint32_t>& fp32_corners() {
  static const std::vector<uint32_t> v = {
      0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x00000002, 0x007FFFFF, 0x807FFFFF,
      0x00800000, 0x80800000, 0x00800001, 0x3F800000, 0xBF800000, 0x3F800001, 0x3F7FFFFF,
      0x3F808000, 0x3F818000, 0x3F880000, 0x3F900000, 0x3FC00000, 0x7F7FFFFF, 0xFF7FFFFF,
      0x7F000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001, 0xFFFFFFFF,
      0x43E00000, 0x43E80000, 0x43F00000, 0x477FE000, 0x477FF000, 0x47800000, 0x47600000,
      0x47700000, 0x38800000, 0x33800000, 0x33000000, 0x33C00000, 0x3B800000, 0x3A800000,
      0x36800000, 0x37800000, 0x4B000000, 0x4B000001, 0xCB7FFFFF};
  return v;
}

class RtlFpTest : public ::testing::Test {
 protected:
  tb::RtlFp rtl;
};

TEST_F(RtlFpTest, Fp32AddCornersAndRandom) {
  Mismatches bad("fp32_add");
  auto check = [&](uint32_t a, uint32_t b) {
    const uint32_t got = rtl.fp32_add(a, b), want = fp32_add(a, b);
    if (got != want) bad.add("{:#010x} + {:#010x}: rtl {:#010x} golden {:#010x}", a, b, got, want);
  };
  for (uint32_t a : fp32_corners()) {
    for (uint32_t b : fp32_corners()) check(a, b);
  }
  auto rng = test::make_rng();
  for (uint64_t i = 0; i < test::vector_count(); ++i) {
    uint32_t a = static_cast<uint32_t>(rng()), b = static_cast<uint32_t>(rng());
    if (i % 2) b = (b & 0x807FFFFFu) | ((((a >> 23) & 0xFF) + static_cast<uint32_t>(rng() % 5) - 2) % 256) << 23;
    if (i % 8 == 1) a &= 0x807FFFFFu;
    check(a, b);
  }
  EXPECT_EQ(bad.count(), 0u);
}

TEST_F(RtlFpTest, Fp32MulDivSqrtCornersAndRandom) {
  Mismatches bad("fp32 mul/div/sqrt");
  auto check = [&](uint32_t a, uint32_t b) {
    if (rtl.fp32_mul(a, b) != fp32_mul(a, b)) bad.add("{:#010x} * {:#010x}: rtl {:#010x} golden {:#010x}", a, b, rtl.fp32_mul(a, b), fp32_mul(a, b));
    if (rtl.fp32_div(a, b) != fp32_div(a, b)) bad.add("{:#010x} / {:#010x}: rtl {:#010x} golden {:#010x}", a, b, rtl.fp32_div(a, b), fp32_div(a, b));
    if (rtl.fp32_sqrt(a) != fp32_sqrt(a)) bad.add("sqrt {:#010x}: rtl {:#010x} golden {:#010x}", a, rtl.fp32_sqrt(a), fp32_sqrt(a));
  };
  for (uint32_t a : fp32_corners()) {
    for (uint32_t b : fp32_corners()) check(a, b);
  }
  auto rng = test::make_rng();
  for (uint64_t i = 0; i < test::vector_count() / 4; ++i) {
    uint32_t a = static_cast<uint32_t>(rng()), b = static_cast<uint32_t>(rng());
    if (i % 4 == 1) b = (b & 0x807FFFFFu) | ((254u - ((a >> 23) & 0xFF) + static_cast<uint32_t>(rng() % 9)) % 256) << 23;
    if (i % 8 == 3) a &= 0x807FFFFFu;
    check(a, b);
  }
  EXPECT_EQ(bad.count(), 0u);
}

TEST_F(RtlFpTest, UpConvertExhaustive) {
  for (Dtype t : {Dtype::kBf16, Dtype::kFp16, Dtype::kFp8E4M3, Dtype::kFp8E5M2}) {
    Mismatches bad(fmt::format("upconvert {}", dtype_name(t)));
    for (uint32_t x = 0; x < (1u << dtype_bits(t)); ++x) {
      const uint32_t got = rtl.convert_to_fp32(t, x), want = convert_to_fp32(t, x);
      if (got != want) bad.add("{:#x}: rtl {:#010x} golden {:#010x}", x, got, want);
    }
    EXPECT_EQ(bad.count(), 0u);
  }
  // TF32: every sign/exponent/fraction pattern (2^19), with garbage in the ignored tail.
  Mismatches bad("upconvert tf32");
  auto rng = test::make_rng();
  for (uint32_t x = 0; x < (1u << 19); ++x) {
    const uint32_t bits = (x << 13) | static_cast<uint32_t>(rng() & 0x1FFF);
    const uint32_t got = rtl.convert_to_fp32(Dtype::kTf32, bits);
    const uint32_t want = convert_to_fp32(Dtype::kTf32, bits);
    if (got != want) bad.add("{:#010x}: rtl {:#010x} golden {:#010x}", bits, got, want);
  }
  EXPECT_EQ(bad.count(), 0u);
}

TEST_F(RtlFpTest, DownConvertCornersAndRandom) {
  auto rng = test::make_rng();
  for (Dtype t : kFloatTargets) {
    Mismatches bad(fmt::format("downconvert {}", dtype_name(t)));
    auto check = [&](uint32_t x, ConvertMode mode, uint32_t random) {
      const uint32_t got = rtl.convert_from_fp32(t, x, mode, random);
      const uint32_t want = convert_from_fp32(t, x, mode, random);
      if (got != want) {
        bad.add("{:#010x} sr={} sat={} rnd={:#010x}: rtl {:#x} golden {:#x}", x,
                mode.rounding == Rounding::kStochastic, mode.saturate, random, got, want);
      }
    };
    for (uint32_t x : fp32_corners()) {
      for (bool sat : {false, true}) {
        check(x, {Rounding::kNearestEven, sat}, 0);
        for (uint32_t r : {0u, 1u, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu}) {
          check(x, {Rounding::kStochastic, sat}, r);
        }
      }
    }
    for (uint64_t i = 0; i < test::vector_count(); ++i) {
      const ConvertMode mode{(rng() & 1) ? Rounding::kStochastic : Rounding::kNearestEven,
                             static_cast<bool>(rng() & 2)};
      check(test::random_fp32_for(t, rng), mode, static_cast<uint32_t>(rng()));
    }
    EXPECT_EQ(bad.count(), 0u);
  }
}

TEST_F(RtlFpTest, MacExhaustiveFp8Pairs) {
  // Every pair of FP8 operands (both formats, 4 x 2^16 pairs) onto a random accumulator.
  auto rng = test::make_rng();
  for (Dtype ta : {Dtype::kFp8E4M3, Dtype::kFp8E5M2}) {
    for (Dtype tb : {Dtype::kFp8E4M3, Dtype::kFp8E5M2}) {
      Mismatches bad(fmt::format("mac {} x {}", dtype_name(ta), dtype_name(tb)));
      for (uint32_t a = 0; a < 256; ++a) {
        for (uint32_t b = 0; b < 256; ++b) {
          const uint32_t acc = test::random_fp32_for(Dtype::kFp8E5M2, rng);
          const uint32_t got = rtl.mac_step(acc, ta, a, tb, b);
          const uint32_t want = mac_step(acc, ta, a, tb, b);
          if (got != want) bad.add("{:#010x} + {:#x}*{:#x}: rtl {:#010x} golden {:#010x}", acc, a, b, got, want);
        }
      }
      EXPECT_EQ(bad.count(), 0u);
    }
  }
}

TEST_F(RtlFpTest, MacCornersAndRandom) {
  auto rng = test::make_rng();
  Mismatches bad("mac");
  auto check = [&](uint32_t acc, Dtype ta, uint32_t a, Dtype tb, uint32_t b) {
    const uint32_t got = rtl.mac_step(acc, ta, a, tb, b), want = mac_step(acc, ta, a, tb, b);
    if (got != want) {
      bad.add("{:#010x} + {}:{:#x} * {}:{:#x}: rtl {:#010x} golden {:#010x}", acc, dtype_name(ta),
              a, dtype_name(tb), b, got, want);
    }
  };
  // BF16 corners: zeros, subnormals, max, Inf, NaN; products that overflow and underflow fp32.
  const uint32_t bf16[] = {0x0000, 0x8000, 0x0001, 0x007F, 0x0080, 0x3F80, 0xBF80, 0x7F7F,
                           0xFF7F, 0x7F80, 0xFF80, 0x7FC0, 0x3F81, 0x1F80, 0x5F80};
  for (uint32_t acc : fp32_corners()) {
    for (uint32_t a : bf16) {
      for (uint32_t b : bf16) check(acc, Dtype::kBf16, a, Dtype::kBf16, b);
    }
  }
  for (uint64_t i = 0; i < test::vector_count(); ++i) {
    const Dtype ta = kMacTypes[rng() % 5], tb = kMacTypes[rng() % 5];
    const uint32_t a = static_cast<uint32_t>(rng()) & operand_mask(ta);
    const uint32_t b = static_cast<uint32_t>(rng()) & operand_mask(tb);
    // Accumulators near the product's magnitude half of the time: cancellation and ties.
    uint32_t acc = static_cast<uint32_t>(rng());
    if (i & 1) {
      const uint32_t p = mac_step(0, ta, a, tb, b);
      const uint32_t e = (p >> 23) & 0xFF;
      acc = (acc & 0x807FFFFFu) | (std::clamp<uint32_t>(e + static_cast<uint32_t>(rng() % 5) - 2, 0, 254) << 23);
    }
    check(acc, ta, a, tb, b);
  }
  EXPECT_EQ(bad.count(), 0u);
  EXPECT_THROW(rtl.mac_step(0, Dtype::kFp32, 0, Dtype::kBf16, 0), Error);
}

TEST(RtlSrRngTest, MatchesGoldenGenerator) {
  auto rng = test::make_rng();
  for (int trial = 0; trial < 8; ++trial) {
    const auto seed = static_cast<uint32_t>(rng());
    const auto lane = static_cast<uint32_t>(rng() % 128);
    tb::RtlSrRng rtl(lane);
    rtl.seed(seed);
    SrRng golden(seed, lane);
    const uint64_t draws = trial == 0 ? test::vector_count() : 10000;
    for (uint64_t i = 0; i < draws; ++i) {
      const uint32_t got = rtl.draw(), want = golden.draw();
      ASSERT_EQ(got, want) << "seed=" << seed << " lane=" << lane << " draw " << i
                           << " (TERN_SEED=" << test::test_seed() << ")";
    }
  }
  // The seed that makes the mixed state zero takes the replacement state.
  tb::RtlSrRng rtl(0);
  rtl.seed(mix32(1));
  EXPECT_EQ(rtl.draw(), xorshift32(SrRng::kZeroStateReplacement));
}

}  // namespace
}  // namespace tern
