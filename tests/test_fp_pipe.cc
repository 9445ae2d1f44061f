// The pipelined numerics units of rtl/fp (*_pipe.sv) against the golden library, bit for bit,
// each at its full latency and at a shorter one, streamed with random bubbles and stalls
// (tb/fp_pipe.h also checks order and latency). The combinational blocks' tests
// (test_rtl_fp.cc) cover the same steps unregistered.
#include "Vtern_fp32_add_pipe.h"
#include "Vtern_fp32_add_pipe_l3.h"
#include "Vtern_fp_downconvert_pipe.h"
#include "Vtern_fp_downconvert_pipe_l2.h"
#include "fp_pipe.h"
#include "numerics/numerics.h"
#include "test_util.h"

namespace tern {
namespace {

using test::Mismatches;


// Corner values of fp32: zeros, subnormal edges, normal edges, Inf, NaNs, ties around 1.
const std::vector<uint32_t>& corners() {
  static const std::vector<uint32_t> v = {
      0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x00800000,
      0x80800000, 0x3F800000, 0xBF800000, 0x3F800001, 0x3F7FFFFF, 0x3F808000, 0x3F818000,
      0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001,
      0x43E80000, 0x477FF000, 0x47800000, 0x33800000, 0x33000000, 0x4B000001, 0xCB7FFFFF};
  return v;
}

struct Pair {
  uint32_t a, b;
};

// Corner pairs, then random pairs half of which have nearby exponents (cancellation, carries).
std::vector<Pair> add_operands(std::mt19937_64& rng) {
  std::vector<Pair> v;
  for (uint32_t a : corners()) {
    for (uint32_t b : corners()) v.push_back({a, b});
  }
  for (uint64_t i = 0; i < test::vector_count(); ++i) {
    uint32_t a = static_cast<uint32_t>(rng()), b = static_cast<uint32_t>(rng());
    if (i % 2) b = (b & 0x807FFFFFu) | ((((a >> 23) & 0xFF) + static_cast<uint32_t>(rng() % 5) - 2) % 256) << 23;
    if (i % 8 == 1) a &= 0x807FFFFFu;
    v.push_back({a, b});
  }
  return v;
}

template <class Model>
void check_add(unsigned latency) {
  auto rng = test::make_rng();
  const auto in = add_operands(rng);
  tb::FpPipe<Model> pipe(latency, test::test_seed());
  const auto out = pipe.run(
      in, [](Model& m, const Pair& p) { m.a_i = p.a; m.b_i = p.b; },
      [](Model& m) { return static_cast<uint32_t>(m.sum_o); });
  Mismatches bad(fmt::format("fp32_add pipe, latency {}", latency));
  for (size_t i = 0; i < in.size(); ++i) {
    const uint32_t want = fp32_add(in[i].a, in[i].b);
    if (out[i] != want) {
      bad.add("{:#010x} + {:#010x}: rtl {:#010x} golden {:#010x}", in[i].a, in[i].b, out[i], want);
    }
  }
  EXPECT_EQ(bad.count(), 0u);
  EXPECT_FALSE(pipe.assertion_failed());
}

TEST(FpPipe, Fp32AddFullLatency) { check_add<Vtern_fp32_add_pipe>(10); }
TEST(FpPipe, Fp32AddLatency3) { check_add<Vtern_fp32_add_pipe_l3>(3); }

struct Conversion {
  Dtype to;
  uint32_t x;
  ConvertMode mode;
  uint32_t random;
};

constexpr Dtype kFloatTargets[] = {Dtype::kFp32, Dtype::kTf32, Dtype::kBf16, Dtype::kFp16,
                                   Dtype::kFp8E4M3, Dtype::kFp8E5M2};

// Every target, rounding mode and saturation over the corners and random values.
std::vector<Conversion> conversions(std::mt19937_64& rng) {
  std::vector<Conversion> v;
  for (Dtype to : kFloatTargets) {
    for (int mode = 0; mode < 4; ++mode) {
      const ConvertMode m{mode & 1 ? Rounding::kStochastic : Rounding::kNearestEven, (mode & 2) != 0};
      for (uint32_t x : corners()) v.push_back({to, x, m, static_cast<uint32_t>(rng())});
      for (uint64_t i = 0; i < test::vector_count() / 24; ++i) {
        v.push_back({to, test::random_fp32_for(to, rng), m, static_cast<uint32_t>(rng())});
      }
    }
  }
  std::shuffle(v.begin(), v.end(), rng);
  return v;
}

template <class Model>
void check_downconvert(unsigned latency) {
  auto rng = test::make_rng();
  const auto in = conversions(rng);
  tb::FpPipe<Model> pipe(latency, test::test_seed());
  bool all_float = true;
  const auto out = pipe.run(
      in,
      [](Model& m, const Conversion& c) {
        m.dtype_i = static_cast<uint8_t>(c.to);
        m.fp32_i = c.x;
        m.round_mode_i = c.mode.rounding == Rounding::kStochastic;
        m.saturate_i = c.mode.saturate;
        m.random_i = c.random;
      },
      [&](Model& m) {
        all_float = all_float && m.dtype_ok_o;
        return static_cast<uint32_t>(m.bits_o);
      });
  Mismatches bad(fmt::format("downconvert pipe, latency {}", latency));
  for (size_t i = 0; i < in.size(); ++i) {
    const Conversion& c = in[i];
    const uint32_t want = convert_from_fp32(c.to, c.x, c.mode, c.random);
    if (out[i] != want) {
      bad.add("{} {:#010x} (sr {}, sat {}, draw {:#010x}): rtl {:#x} golden {:#x}", dtype_name(c.to), c.x,
              c.mode.rounding == Rounding::kStochastic, c.mode.saturate, c.random, out[i], want);
    }
  }
  EXPECT_EQ(bad.count(), 0u);
  EXPECT_TRUE(all_float) << "dtype_ok_o fell for a float target";
  EXPECT_FALSE(pipe.assertion_failed());
}

TEST(FpPipe, DownconvertFullLatency) { check_downconvert<Vtern_fp_downconvert_pipe>(5); }
TEST(FpPipe, DownconvertLatency2) { check_downconvert<Vtern_fp_downconvert_pipe_l2>(2); }

}  // namespace
}  // namespace tern
