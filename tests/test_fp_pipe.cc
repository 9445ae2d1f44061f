// The pipelined numerics units of rtl/fp (*_pipe.sv) against the golden library, bit for bit,
// each at its full latency and at a shorter one, streamed with random bubbles and stalls
// (tb/fp_pipe.h also checks order and latency); the iterative divide/square-root unit one
// operation at a time, with its fixed latency and a held result. The combinational blocks' tests
// (test_rtl_fp.cc) cover the same steps unregistered.
#include <algorithm>
#include <string>

#include "Vtern_fp32_add_pipe.h"
#include "Vtern_fp32_add_pipe_l3.h"
#include "Vtern_fp32_mul_pipe.h"
#include "Vtern_fp32_mul_pipe_l2.h"
#include "Vtern_fp32_mul_pipe_dsp.h"
#include "Vtern_fp_downconvert_pipe.h"
#include "Vtern_fp_downconvert_pipe_l2.h"
#include "Vtern_fp32_divsqrt.h"
#include "Vtern_fp32_divsqrt_pipe.h"
#include "Vtern_fp32_divsqrt_pipe_l9.h"
#include "Vtern_fp_mac_pipe.h"
#include "Vtern_fp_mac_pipe_l4.h"
#include "Vtern_fp_upconvert_pipe.h"
#include "Vtern_fp_upconvert_pipe_l2.h"
#include "clocked_unit.h"
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

// Streams `in` through the pipelined unit at `latency` (set writes an input's ports, get reads
// a result) and compares every result with want(input); describe names a mismatching input.
template <class Model, class In, class Set, class Get, class Want, class Describe>
void expect_stream_matches(const std::string& what, unsigned latency, const std::vector<In>& in, Set set,
                           Get get, Want want, Describe describe) {
  tb::FpPipe<Model> pipe(latency, test::test_seed());
  const auto out = pipe.run(in, set, get);
  Mismatches bad(fmt::format("{}, latency {}", what, latency));
  for (size_t i = 0; i < in.size(); ++i) {
    const uint32_t golden = want(in[i]);
    if (out[i] != golden) bad.add("{}: rtl {:#010x} golden {:#010x}", describe(in[i]), out[i], golden);
  }
  EXPECT_EQ(bad.count(), 0u);
  EXPECT_FALSE(pipe.assertion_failed());
}

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

// Corner pairs, random pairs, and products near the subnormal and overflow edges and of
// all-ones significands (the longest carries through the carry-save rows).
std::vector<Pair> mul_operands(std::mt19937_64& rng) {
  std::vector<Pair> v = add_operands(rng);
  for (uint64_t i = 0; i < test::vector_count() / 4; ++i) {
    const uint32_t ea = static_cast<uint32_t>(rng() % 256), eb = (254u - ea + static_cast<uint32_t>(rng() % 9)) % 256;
    const uint32_t ma = i % 3 ? static_cast<uint32_t>(rng()) : 0xFFFFFFFFu;
    const uint32_t mb = i % 5 ? static_cast<uint32_t>(rng()) : 0xFFFFFFFFu;
    v.push_back({(ma & 0x807FFFFFu) | ea << 23, (mb & 0x807FFFFFu) | eb << 23});
  }
  return v;
}

template <class Model>
void check_add(unsigned latency) {
  auto rng = test::make_rng();
  expect_stream_matches<Model>(
      "fp32_add pipe", latency, add_operands(rng), [](Model& m, const Pair& p) { m.a_i = p.a; m.b_i = p.b; },
      [](Model& m) { return static_cast<uint32_t>(m.sum_o); }, [](const Pair& p) { return fp32_add(p.a, p.b); },
      [](const Pair& p) { return fmt::format("{:#010x} + {:#010x}", p.a, p.b); });
}

template <class Model>
void check_mul(unsigned latency) {
  auto rng = test::make_rng();
  expect_stream_matches<Model>(
      "fp32_mul pipe", latency, mul_operands(rng), [](Model& m, const Pair& p) { m.a_i = p.a; m.b_i = p.b; },
      [](Model& m) { return static_cast<uint32_t>(m.product_o); }, [](const Pair& p) { return fp32_mul(p.a, p.b); },
      [](const Pair& p) { return fmt::format("{:#010x} * {:#010x}", p.a, p.b); });
}

TEST(FpPipe, Fp32AddFullLatency) { check_add<Vtern_fp32_add_pipe>(10); }
TEST(FpPipe, Fp32AddLatency3) { check_add<Vtern_fp32_add_pipe_l3>(3); }
TEST(FpPipe, Fp32MulFullLatency) { check_mul<Vtern_fp32_mul_pipe>(7); }
TEST(FpPipe, Fp32MulLatency2) { check_mul<Vtern_fp32_mul_pipe_l2>(2); }
// The form an FPGA's area is measured in (TERN_DSP_PRODUCT): the product at once.
TEST(FpPipe, Fp32MulDspProduct) { check_mul<Vtern_fp32_mul_pipe_dsp>(7); }

// One MAC step's operands: the parts (tern_fp_pkg: 0 whole, 1 hi, 2 lo of the fp32
// decomposition) and the accumulator.
struct MacOperands {
  uint32_t acc;
  Dtype ta, tb;
  uint32_t a, b;
  uint8_t pa, pb;
};

ExactValue part_value(Dtype t, uint32_t x, uint8_t part) {
  return part == 1 ? fp32_hi(t, x) : part == 2 ? fp32_lo(t, x) : decode(t, x);
}

uint32_t golden_mac(const MacOperands& o) {
  return o.pa == 0 && o.pb == 0 ? mac_step(o.acc, o.ta, o.a, o.tb, o.b)
                                 : mac_step_exact(o.acc, part_value(o.ta, o.a, o.pa), part_value(o.tb, o.b, o.pb));
}

// Whole operands of every Tensor Engine type, and fp32/tf32 operands in parts; accumulators
// near the product's magnitude half of the time (cancellation, ties).
std::vector<MacOperands> mac_operands(std::mt19937_64& rng) {
  std::vector<MacOperands> v;
  for (uint64_t i = 0; i < test::vector_count() / 2; ++i) {
    MacOperands m{static_cast<uint32_t>(rng()), test::kMacTypes[rng() % 5], test::kMacTypes[rng() % 5], 0, 0, 0, 0};
    if (i % 3 == 2) {  // the fp32 decomposition
      m.ta = rng() % 4 ? Dtype::kFp32 : Dtype::kTf32;
      m.tb = rng() % 4 ? Dtype::kFp32 : Dtype::kTf32;
      m.pa = static_cast<uint8_t>(1 + rng() % 2);
      m.pb = static_cast<uint8_t>(1 + rng() % 2);
    }
    m.a = static_cast<uint32_t>(rng()) & test::operand_mask(m.ta);
    m.b = static_cast<uint32_t>(rng()) & test::operand_mask(m.tb);
    if (i & 1) {
      const uint32_t e = (golden_mac({0, m.ta, m.tb, m.a, m.b, m.pa, m.pb}) >> 23) & 0xFF;
      m.acc = (m.acc & 0x807FFFFFu) | (std::clamp<uint32_t>(e + static_cast<uint32_t>(rng() % 5) - 2, 0, 254) << 23);
    }
    v.push_back(m);
  }
  return v;
}

template <class Model>
void check_mac(unsigned latency) {
  auto rng = test::make_rng();
  expect_stream_matches<Model>(
      "MAC pipe", latency, mac_operands(rng),
      [](Model& m, const MacOperands& o) {
        m.acc_i = o.acc;
        m.a_dtype_i = static_cast<uint8_t>(o.ta);
        m.a_i = o.a;
        m.a_part_i = o.pa;
        m.b_dtype_i = static_cast<uint8_t>(o.tb);
        m.b_i = o.b;
        m.b_part_i = o.pb;
      },
      [](Model& m) { return static_cast<uint32_t>(m.acc_o); }, golden_mac,
      [](const MacOperands& o) {
        return fmt::format("{:#010x} + {}:{:#x}/{} * {}:{:#x}/{}", o.acc, dtype_name(o.ta), o.a, o.pa,
                           dtype_name(o.tb), o.b, o.pb);
      });
}

TEST(FpPipe, MacFullLatency) { check_mac<Vtern_fp_mac_pipe>(13); }
TEST(FpPipe, MacLatency4) { check_mac<Vtern_fp_mac_pipe_l4>(4); }

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
  bool all_float = true;
  expect_stream_matches<Model>(
      "downconvert pipe", latency, conversions(rng),
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
      },
      [](const Conversion& c) { return convert_from_fp32(c.to, c.x, c.mode, c.random); },
      [](const Conversion& c) {
        return fmt::format("{} {:#010x} (sr {}, sat {}, draw {:#010x})", dtype_name(c.to), c.x,
                           c.mode.rounding == Rounding::kStochastic, c.mode.saturate, c.random);
      });
  EXPECT_TRUE(all_float) << "dtype_ok_o fell for a float target";
}

TEST(FpPipe, DownconvertFullLatency) { check_downconvert<Vtern_fp_downconvert_pipe>(5); }
TEST(FpPipe, DownconvertLatency2) { check_downconvert<Vtern_fp_downconvert_pipe_l2>(2); }

struct Encoding {
  Dtype from;
  uint32_t bits;
};

// Every encoding of the 8- and 16-bit float dtypes, random tf32 and fp32 patterns.
std::vector<Encoding> encodings(std::mt19937_64& rng) {
  std::vector<Encoding> v;
  for (Dtype t : {Dtype::kFp8E4M3, Dtype::kFp8E5M2, Dtype::kBf16, Dtype::kFp16}) {
    for (uint32_t x = 0; x < (1u << dtype_bits(t)); ++x) v.push_back({t, x});
  }
  for (uint64_t i = 0; i < test::vector_count() / 4; ++i) {
    const Dtype t = i % 2 ? Dtype::kTf32 : Dtype::kFp32;
    v.push_back({t, static_cast<uint32_t>(rng()) & test::operand_mask(t)});
  }
  std::shuffle(v.begin(), v.end(), rng);
  return v;
}

template <class Model>
void check_upconvert(unsigned latency) {
  auto rng = test::make_rng();
  bool all_float = true;
  expect_stream_matches<Model>(
      "upconvert pipe", latency, encodings(rng),
      [](Model& m, const Encoding& e) {
        m.dtype_i = static_cast<uint8_t>(e.from);
        m.bits_i = e.bits;
      },
      [&](Model& m) {
        all_float = all_float && m.dtype_ok_o;
        return static_cast<uint32_t>(m.fp32_o);
      },
      [](const Encoding& e) { return convert_to_fp32(e.from, e.bits); },
      [](const Encoding& e) { return fmt::format("{} {:#x}", dtype_name(e.from), e.bits); });
  EXPECT_TRUE(all_float) << "dtype_ok_o fell for a float source";
}

TEST(FpPipe, UpconvertFullLatency) { check_upconvert<Vtern_fp_upconvert_pipe>(6); }
TEST(FpPipe, UpconvertLatency2) { check_upconvert<Vtern_fp_upconvert_pipe_l2>(2); }

// One operation of tern_fp32_divsqrt: offer it (after a random idle gap), count the cycles to
// out_valid_o, hold out_ready_i low for a random few cycles. Returns {result, cycles}.
struct IterResult {
  uint32_t bits;
  unsigned cycles;
};

constexpr unsigned kDivSqrtLatency = 37;  // docs/numerics.md "FP32 multiply, divide, square root"

IterResult run_divsqrt(tb::ClockedUnit<Vtern_fp32_divsqrt>& u, bool sqrt, Pair p, std::mt19937_64& rng) {
  for (unsigned gap = rng() % 3; gap > 0; --gap) u.tick();
  u->in_valid_i = 1;
  u->sqrt_i = sqrt;
  u->a_i = p.a;
  u->b_i = p.b;
  u->eval();
  EXPECT_TRUE(u->in_ready_o) << "busy with no operation in flight";
  u.tick();
  u->in_valid_i = 0;
  u->a_i = static_cast<uint32_t>(rng());  // the unit must have taken its operands
  u->b_i = static_cast<uint32_t>(rng());
  unsigned cycles = 1;
  for (; !u->out_valid_o; ++cycles) {
    if (cycles > 2 * kDivSqrtLatency) return {0, cycles};  // hung: the caller reports it
    u.tick();
  }
  const uint32_t bits = u->result_o;
  for (unsigned stall = rng() % 3; stall > 0; --stall) {
    u.tick();
    EXPECT_TRUE(u->out_valid_o && u->result_o == bits) << "result not held while out_ready_i is low";
  }
  u->out_ready_i = 1;
  u.tick();
  u->out_ready_i = 0;
  return {bits, cycles};
}

// Quotients over the corner pairs and random pairs (a quarter with subnormal or nearby
// operands), square roots over the corners and random values of both signs.
struct DivSqrtOp {
  bool sqrt;
  Pair p;
};

std::vector<DivSqrtOp> divsqrt_operands(std::mt19937_64& rng) {
  std::vector<DivSqrtOp> v;
  for (uint32_t a : corners()) {
    v.push_back({true, {a, 0}});
    for (uint32_t b : corners()) v.push_back({false, {a, b}});
  }
  const uint64_t n = test::vector_count() / 8;
  for (uint64_t i = 0; i < n; ++i) {
    uint32_t a = static_cast<uint32_t>(rng()), b = static_cast<uint32_t>(rng());
    if (i % 4 == 1) a &= 0x807FFFFFu;
    if (i % 4 == 2) b = (b & 0x807FFFFFu) | (a & 0x7F800000u);
    v.push_back({false, {a, b}});
    v.push_back({true, {i % 2 ? a : a & 0x7FFFFFFFu, 0}});
  }
  return v;
}

uint32_t divsqrt_golden(const DivSqrtOp& op) { return op.sqrt ? fp32_sqrt(op.p.a) : fp32_div(op.p.a, op.p.b); }

std::string describe_divsqrt(const DivSqrtOp& op) {
  return fmt::format("{} {:#010x}, {:#010x}", op.sqrt ? "sqrt" : "div", op.p.a, op.p.b);
}

TEST(FpIter, Fp32DivSqrt) {
  auto rng = test::make_rng();
  tb::ClockedUnit<Vtern_fp32_divsqrt> unit;
  Mismatches bad("fp32 divide/sqrt unit");
  unsigned wrong_latency = 0;
  for (const DivSqrtOp& op : divsqrt_operands(rng)) {
    const IterResult r = run_divsqrt(unit, op.sqrt, op.p, rng);
    const uint32_t want = divsqrt_golden(op);
    if (r.cycles != kDivSqrtLatency) ++wrong_latency;
    if (r.bits != want) bad.add("{}: rtl {:#010x} golden {:#010x} ({} cycles)", describe_divsqrt(op), r.bits, want, r.cycles);
  }
  EXPECT_EQ(bad.count(), 0u);
  EXPECT_EQ(wrong_latency, 0u) << "operations not finishing in " << kDivSqrtLatency << " cycles";
  EXPECT_FALSE(unit.assertion_failed());
}

// The pipelined unit: divides and square roots interleaved in one stream, one a cycle.
template <class Model>
void check_divsqrt_pipe(unsigned latency) {
  auto rng = test::make_rng();
  std::vector<DivSqrtOp> ops = divsqrt_operands(rng);
  std::shuffle(ops.begin(), ops.end(), rng);
  expect_stream_matches<Model>(
      "divide/sqrt pipe", latency, ops,
      [](Model& m, const DivSqrtOp& op) {
        m.sqrt_i = op.sqrt;
        m.a_i = op.p.a;
        m.b_i = op.p.b;
      },
      [](Model& m) { return static_cast<uint32_t>(m.result_o); }, divsqrt_golden, describe_divsqrt);
}

TEST(FpPipe, Fp32DivSqrtFullLatency) { check_divsqrt_pipe<Vtern_fp32_divsqrt_pipe>(35); }
TEST(FpPipe, Fp32DivSqrtLatency9) { check_divsqrt_pipe<Vtern_fp32_divsqrt_pipe_l9>(9); }

}  // namespace
}  // namespace tern
