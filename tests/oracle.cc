#include "oracle.h"

#include <mpfr.h>

#include <cmath>
#include <limits>
#include <stdexcept>

namespace tern::oracle {

Spec spec(Dtype t) {
  switch (t) {
    case Dtype::kFp32: return {32, 8, 23, 0, true, std::ldexp(2.0 - std::ldexp(1.0, -23), 127)};
    case Dtype::kTf32: return {32, 8, 10, 13, true, std::ldexp(2.0 - std::ldexp(1.0, -10), 127)};
    case Dtype::kBf16: return {16, 8, 7, 0, true, std::ldexp(2.0 - std::ldexp(1.0, -7), 127)};
    case Dtype::kFp16: return {16, 5, 10, 0, true, 65504.0};
    case Dtype::kFp8E4M3: return {8, 4, 3, 0, false, 448.0};
    case Dtype::kFp8E5M2: return {8, 5, 2, 0, true, 57344.0};
    default: throw std::invalid_argument("oracle::spec: not a float dtype");
  }
}

double value_of(Dtype t, uint32_t bits) {
  const Spec s = spec(t);
  const int bias = (1 << (s.exp_bits - 1)) - 1;
  const bool neg = (bits >> (s.width - 1)) & 1;
  const int e = static_cast<int>((bits >> (s.man_bits + s.tail_bits)) & ((1u << s.exp_bits) - 1));
  const uint32_t m = (bits >> s.tail_bits) & ((1u << s.man_bits) - 1);
  const int e_max = (1 << s.exp_bits) - 1;
  double v;
  if (s.ieee_specials && e == e_max) {
    v = m == 0 ? std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
  } else if (!s.ieee_specials && e == e_max && m == (1u << s.man_bits) - 1) {
    v = std::numeric_limits<double>::quiet_NaN();
  } else if (e == 0) {
    v = std::ldexp(static_cast<double>(m), 1 - bias - s.man_bits);
  } else {
    v = std::ldexp(1.0 + std::ldexp(static_cast<double>(m), -s.man_bits), e - bias);
  }
  return neg ? -v : v;
}

namespace {

// Rounds an MPFR value to precision p above 2^emin and to multiples of 2^(emin - man_bits)
// below: exactly IEEE rounding with subnormals, with no exponent-range settings involved.
double round_mpfr(const mpfr_t exact, int man_bits, int emin, mpfr_rnd_t rnd) {
  if (mpfr_zero_p(exact)) return mpfr_get_d(exact, MPFR_RNDN);
  mpfr_t r;
  if (mpfr_get_exp(exact) > emin) {  // |exact| >= 2^emin (MPFR: exact = m * 2^exp, m in [1/2, 1))
    mpfr_init2(r, man_bits + 1);
    mpfr_set(r, exact, rnd);
  } else {
    mpfr_init2(r, 2048);
    mpfr_mul_2si(r, exact, man_bits - emin, MPFR_RNDN);  // exact: a power-of-two scale
    mpfr_rint(r, r, rnd);
    mpfr_mul_2si(r, r, emin - man_bits, MPFR_RNDN);
  }
  const double out = mpfr_get_d(r, MPFR_RNDN);  // exact: at most 24 bits
  mpfr_clear(r);
  return out;
}

mpfr_rnd_t to_mpfr(Mode m) {
  switch (m) {
    case Mode::kTowardZero: return MPFR_RNDZ;
    case Mode::kAwayFromZero: return MPFR_RNDA;
    default: return MPFR_RNDN;
  }
}

double overflow_value(const Spec& s, bool neg, bool saturate) {
  double v;
  if (saturate) {
    v = s.max_finite;
  } else {
    v = s.ieee_specials ? std::numeric_limits<double>::infinity()
                        : std::numeric_limits<double>::quiet_NaN();
  }
  return neg ? -v : v;
}

}  // namespace

double round_value(double exact, Dtype t, Mode mode) {
  const Spec s = spec(t);
  mpfr_t x;
  mpfr_init2(x, 64);
  mpfr_set_d(x, exact, MPFR_RNDN);  // exact
  const double out = round_mpfr(x, s.man_bits, 2 - (1 << (s.exp_bits - 1)), to_mpfr(mode));
  mpfr_clear(x);
  return out;
}

double convert(Dtype t, float x, bool stochastic, bool saturate, uint32_t random) {
  const Spec s = spec(t);
  if (std::isnan(x)) return std::numeric_limits<double>::quiet_NaN();
  if (std::isinf(x)) return overflow_value(s, std::signbit(x), saturate);
  double r;
  if (!stochastic) {
    r = round_value(x, t, Mode::kNearestEven);
  } else {
    const double lo = round_value(x, t, Mode::kTowardZero);
    const double hi = round_value(x, t, Mode::kAwayFromZero);
    if (lo == hi) {
      r = lo;
    } else {
      // The discarded fraction of an ulp, truncated to 32 bits (both differences are exact).
      const double frac = (std::fabs(static_cast<double>(x)) - std::fabs(lo)) /
                          (std::fabs(hi) - std::fabs(lo));
      const double frac32 = std::floor(std::ldexp(frac, 32));
      r = frac32 + random >= std::ldexp(1.0, 32) ? hi : lo;
    }
  }
  if (std::fabs(r) > s.max_finite) return overflow_value(s, std::signbit(r), saturate);
  return r;
}

double mac(double acc, double a, double b) {
  const double inf = std::numeric_limits<double>::infinity();
  if (std::isnan(acc) || std::isnan(a) || std::isnan(b)) return std::nan("");
  const double prod = a * b;  // exact: at most 22 significant bits, well inside double range
  if (std::isnan(prod)) return std::nan("");
  if (std::isinf(prod) || std::isinf(acc)) return acc + prod;  // IEEE Inf rules
  if (acc == 0 && prod == 0) return acc + prod;                // IEEE signed-zero rules
  mpfr_t sum;
  mpfr_init2(sum, 1200);
  mpfr_set_d(sum, acc, MPFR_RNDN);
  mpfr_add_d(sum, sum, prod, MPFR_RNDN);  // exact at this precision
  double r;
  if (mpfr_zero_p(sum)) {
    r = 0.0;  // an exact zero sum of non-zero terms is +0 in round to nearest
  } else {
    r = round_mpfr(sum, 23, -126, MPFR_RNDN);
    if (std::fabs(r) > spec(Dtype::kFp32).max_finite) r = std::copysign(inf, r);
  }
  mpfr_clear(sum);
  return r;
}

bool same(Dtype t, uint32_t bits, double expected) {
  const double got = value_of(t, bits);
  if (std::isnan(expected)) return std::isnan(got);
  return got == expected && std::signbit(got) == std::signbit(expected);
}

}  // namespace tern::oracle
