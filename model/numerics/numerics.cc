#include "numerics/numerics.h"

#include <fmt/format.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>

#include "common/error.h"

namespace tern {
namespace {

using u128 = unsigned __int128;
using Kind = ExactValue::Kind;

int top_bit(u128 v) {
  int n = -1;
  while (v) {
    v >>= 1;
    ++n;
  }
  return n;
}

// Rounds mant * 2^exp to an integer multiple of 2^q; returns that integer.
// Stochastic rounding: the discarded fraction f (in units of 2^q) is truncated to 32 bits and
// the result rounds up in magnitude iff floor(f * 2^32) + random >= 2^32.
u128 round_at(u128 mant, int exp, int q, Rounding rounding, uint32_t random) {
  if (q <= exp) return mant << (exp - q);
  const int shift = q - exp;
  const u128 kept = shift >= 128 ? 0 : mant >> shift;
  const u128 rem = shift >= 128 ? mant : mant & ((u128(1) << shift) - 1);
  bool up = false;
  if (rounding == Rounding::kNearestEven) {
    if (shift <= 128) {
      const u128 half = u128(1) << (shift - 1);
      up = rem > half || (rem == half && (kept & 1));
    }
  } else {
    uint64_t frac32 = 0;
    if (shift <= 32) {
      frac32 = static_cast<uint64_t>(rem << (32 - shift));
    } else if (shift - 32 < 128) {
      frac32 = static_cast<uint64_t>(rem >> (shift - 32));
    }
    up = frac32 + random >= (uint64_t(1) << 32);
  }
  return kept + (up ? 1 : 0);
}

uint32_t overflow_result(const FloatFormat& f, bool sign, bool saturate) {
  if (saturate) return f.max_finite(sign);
  return f.has_inf ? f.infinity(sign) : f.canonical_nan();
}

uint32_t round_to_int(const ExactValue& v, Dtype t, ConvertMode mode, uint32_t random) {
  int64_t lo = 0;
  int64_t hi = 0;
  switch (t) {
    case Dtype::kInt8: lo = -128; hi = 127; break;
    case Dtype::kUint8: lo = 0; hi = 255; break;
    case Dtype::kInt32: lo = INT32_MIN; hi = INT32_MAX; break;
    default: throw Error(fmt::format("round_to_int: {} is not an integer type", dtype_name(t)));
  }
  int64_t value = 0;
  switch (v.kind) {
    case Kind::kNaN: value = 0; break;
    case Kind::kZero: value = 0; break;
    case Kind::kInf: value = v.sign ? lo : hi; break;
    case Kind::kFinite: {
      const u128 mag = round_at(v.mant, v.exp, 0, mode.rounding, random);
      const u128 limit = u128(1) << 40;  // far past every integer range: clamps below
      const int64_t m = static_cast<int64_t>(std::min(mag, limit));
      value = v.sign ? -m : m;
      break;
    }
  }
  value = std::clamp(value, lo, hi);
  const uint32_t mask = dtype_bits(t) == 32 ? 0xFFFFFFFFu : (1u << dtype_bits(t)) - 1;
  return static_cast<uint32_t>(value) & mask;
}

// Exact sum of two finite-or-zero values; the result sign of an exact zero follows RNE
// (-0 only when both operands are -0).
ExactValue add_exact(ExactValue a, ExactValue b) {
  if (a.kind == Kind::kZero && b.kind == Kind::kZero) {
    return {Kind::kZero, a.sign && b.sign, 0, 0};
  }
  if (a.kind == Kind::kZero) return b;
  if (b.kind == Kind::kZero) return a;
  // Make a the operand with the higher top bit. An operand more than 64 binades below the
  // other cannot change a rounding decision of a format with at most 24 bits of precision
  // except as a sticky bit, so it is replaced by a tiny value of the same sign and side.
  if (top_bit(a.mant) + a.exp < top_bit(b.mant) + b.exp) std::swap(a, b);
  const int top_a = top_bit(a.mant) + a.exp;
  if (top_bit(b.mant) + b.exp < top_a - 64) {
    b.mant = 1;
    b.exp = top_a - 66;
  }
  const int base = std::min(a.exp, b.exp);
  const u128 ma = a.mant << (a.exp - base);
  const u128 mb = b.mant << (b.exp - base);
  ExactValue r{Kind::kFinite, a.sign, 0, base};
  if (a.sign == b.sign) {
    r.mant = ma + mb;
  } else if (ma >= mb) {
    r.mant = ma - mb;
  } else {
    r.mant = mb - ma;
    r.sign = b.sign;
  }
  if (r.mant == 0) return {Kind::kZero, false, 0, 0};
  return r;
}

}  // namespace

ExactValue decode(Dtype t, uint32_t bits) {
  if (is_int(t)) {
    int64_t v = 0;
    switch (t) {
      case Dtype::kInt8: v = static_cast<int8_t>(bits & 0xFF); break;
      case Dtype::kUint8: v = bits & 0xFF; break;
      default: v = static_cast<int32_t>(bits); break;
    }
    if (v == 0) return {};
    const bool neg = v < 0;
    return {Kind::kFinite, neg, static_cast<u128>(neg ? -v : v), 0};
  }
  const FloatFormat& f = float_format(t);
  const bool sign = (bits >> (f.width() - 1)) & 1;
  const uint32_t e = (bits >> (f.man_bits + f.tail_bits)) & f.exp_all_ones();
  const uint32_t m = (bits >> f.tail_bits) & f.man_all_ones();
  if (e == f.exp_all_ones()) {
    if (f.has_inf) return {m == 0 ? Kind::kInf : Kind::kNaN, sign, 0, 0};
    if (m == f.man_all_ones()) return {Kind::kNaN, sign, 0, 0};
  }
  if (e == 0) {
    if (m == 0) return {Kind::kZero, sign, 0, 0};
    return {Kind::kFinite, sign, m, f.emin() - f.man_bits};
  }
  return {Kind::kFinite, sign, m | (u128(1) << f.man_bits),
          static_cast<int>(e) - f.bias() - f.man_bits};
}

uint32_t round_to_float(const ExactValue& v, Dtype t, ConvertMode mode, uint32_t random) {
  const FloatFormat& f = float_format(t);
  switch (v.kind) {
    case Kind::kNaN: return f.canonical_nan();
    case Kind::kInf: return overflow_result(f, v.sign, mode.saturate);
    case Kind::kZero: return f.encode(v.sign, 0, 0);
    case Kind::kFinite: break;
  }
  const int top = top_bit(v.mant) + v.exp;
  int q = std::max(top, f.emin()) - f.man_bits;  // weight of the last kept fraction bit
  u128 k = round_at(v.mant, v.exp, q, mode.rounding, random);
  if (k == 0) return f.encode(v.sign, 0, 0);
  if (k >> (f.man_bits + 1)) {  // rounding carried into a new binade
    k >>= 1;
    ++q;
  }
  const bool normal = (k >> f.man_bits) != 0;
  const int exp_field = normal ? q + f.man_bits + f.bias() : 0;
  const auto man_field = static_cast<uint32_t>(k & f.man_all_ones());
  const int max_exp_field = static_cast<int>(f.exp_all_ones()) - (f.has_inf ? 1 : 0);
  if (exp_field > max_exp_field ||
      (!f.has_inf && exp_field == max_exp_field && man_field == f.man_all_ones())) {
    return overflow_result(f, v.sign, mode.saturate);
  }
  return f.encode(v.sign, static_cast<uint32_t>(exp_field), man_field);
}

uint32_t convert_from_fp32(Dtype to, uint32_t fp32_bits, ConvertMode mode, uint32_t random) {
  const ExactValue v = decode(Dtype::kFp32, fp32_bits);
  return is_int(to) ? round_to_int(v, to, mode, random) : round_to_float(v, to, mode, random);
}

uint32_t convert_to_fp32(Dtype from, uint32_t bits) {
  return round_to_float(decode(from, bits), Dtype::kFp32, {}, 0);
}

static_assert(std::numeric_limits<float>::is_iec559 && FLT_EVAL_METHOD == 0,
              "the host's float must be IEEE binary32, evaluated in binary32");
uint32_t fp32_add(uint32_t a, uint32_t b) { return fp32_result_bits(fp32_from_bits(a) + fp32_from_bits(b)); }
uint32_t fp32_mul(uint32_t a, uint32_t b) { return fp32_result_bits(fp32_from_bits(a) * fp32_from_bits(b)); }
uint32_t fp32_div(uint32_t a, uint32_t b) { return fp32_result_bits(fp32_from_bits(a) / fp32_from_bits(b)); }
uint32_t fp32_sqrt(uint32_t a) { return fp32_result_bits(std::sqrt(fp32_from_bits(a))); }

uint32_t fp32_add_exact(uint32_t a, uint32_t b) {
  const ExactValue x = decode(Dtype::kFp32, a);
  const ExactValue y = decode(Dtype::kFp32, b);
  if (x.kind == Kind::kNaN || y.kind == Kind::kNaN) return kFp32CanonicalNaN;
  if (x.kind == Kind::kInf || y.kind == Kind::kInf) {
    if (x.kind == Kind::kInf && y.kind == Kind::kInf && x.sign != y.sign) return kFp32CanonicalNaN;
    return round_to_float(x.kind == Kind::kInf ? x : y, Dtype::kFp32, {}, 0);
  }
  return round_to_float(add_exact(x, y), Dtype::kFp32, {}, 0);
}

bool is_mac_dtype(Dtype t) {
  return t == Dtype::kBf16 || t == Dtype::kFp16 || t == Dtype::kFp8E4M3 ||
         t == Dtype::kFp8E5M2 || t == Dtype::kTf32;
}

namespace {
// Binary32 patterns as unsigned keys in numeric order, with -0 just below +0.
uint32_t order_key(uint32_t v) { return (v >> 31) ? ~v : (v | 0x80000000u); }
bool is_fp32_nan(uint32_t v) { return (v & 0x7FFFFFFFu) > 0x7F800000u; }
}  // namespace

uint32_t fp32_max(uint32_t a, uint32_t b) {
  if (is_fp32_nan(a) || is_fp32_nan(b)) return kFp32CanonicalNaN;
  return order_key(b) > order_key(a) ? b : a;
}

uint32_t fp32_min(uint32_t a, uint32_t b) {
  if (is_fp32_nan(a) || is_fp32_nan(b)) return kFp32CanonicalNaN;
  return order_key(b) < order_key(a) ? b : a;
}

uint32_t fp32_mul_exact(uint32_t a, uint32_t b) {
  const ExactValue x = decode(Dtype::kFp32, a);
  const ExactValue y = decode(Dtype::kFp32, b);
  const bool sign = x.sign != y.sign;
  if (x.kind == Kind::kNaN || y.kind == Kind::kNaN) return kFp32CanonicalNaN;
  if (x.kind == Kind::kInf || y.kind == Kind::kInf) {
    if (x.kind == Kind::kZero || y.kind == Kind::kZero) return kFp32CanonicalNaN;
    return round_to_float({Kind::kInf, sign, 0, 0}, Dtype::kFp32, {}, 0);
  }
  if (x.kind == Kind::kZero || y.kind == Kind::kZero) return round_to_float({Kind::kZero, sign, 0, 0}, Dtype::kFp32, {}, 0);
  return round_to_float({Kind::kFinite, sign, x.mant * y.mant, x.exp + y.exp}, Dtype::kFp32, {}, 0);
}

uint32_t fp32_div_exact(uint32_t a, uint32_t b) {
  const ExactValue x = decode(Dtype::kFp32, a);
  const ExactValue y = decode(Dtype::kFp32, b);
  const bool sign = x.sign != y.sign;
  const auto special = [&](Kind k) { return round_to_float({k, sign, 0, 0}, Dtype::kFp32, {}, 0); };
  if (x.kind == Kind::kNaN || y.kind == Kind::kNaN) return kFp32CanonicalNaN;
  if ((x.kind == Kind::kInf && y.kind == Kind::kInf) || (x.kind == Kind::kZero && y.kind == Kind::kZero)) {
    return kFp32CanonicalNaN;
  }
  if (x.kind == Kind::kInf || y.kind == Kind::kZero) return special(Kind::kInf);
  if (x.kind == Kind::kZero || y.kind == Kind::kInf) return special(Kind::kZero);
  // Scale the dividend so the quotient has far more bits than fp32 keeps; a nonzero remainder
  // becomes a sticky bit below them.
  const int shift = 100 - top_bit(x.mant);
  const u128 dividend = x.mant << shift;
  const u128 quotient = dividend / y.mant;
  const bool sticky = dividend % y.mant != 0;
  return round_to_float({Kind::kFinite, sign, (quotient << 1) | u128(sticky), x.exp - shift - y.exp - 1},
                        Dtype::kFp32, {}, 0);
}

uint32_t fp32_sqrt_exact(uint32_t a) {
  const ExactValue x = decode(Dtype::kFp32, a);
  if (x.kind == Kind::kNaN || (x.sign && x.kind != Kind::kZero)) return kFp32CanonicalNaN;
  if (x.kind != Kind::kFinite) return a;  // +-0, +Inf
  // mant * 2^exp with the mantissa scaled up to about 2^110 and the exponent made even.
  int shift = 110 - top_bit(x.mant);
  if ((x.exp - shift) % 2 != 0) ++shift;
  const u128 radicand = x.mant << shift;
  u128 root = 0, rem = 0;
  for (int i = 63; i >= 0; --i) {  // digit-by-digit integer square root
    rem = (rem << 2) | ((radicand >> (2 * i)) & 3);
    const u128 trial = (root << 2) | 1;
    root <<= 1;
    if (rem >= trial) {
      rem -= trial;
      root |= 1;
    }
  }
  return round_to_float({Kind::kFinite, false, (root << 1) | u128(rem != 0), (x.exp - shift) / 2 - 1},
                        Dtype::kFp32, {}, 0);
}

uint32_t mac_step(uint32_t acc_fp32, Dtype ta, uint32_t a, Dtype tb, uint32_t b) {
  if (!is_mac_dtype(ta) || !is_mac_dtype(tb)) {
    throw Error(fmt::format("mac_step: operand types {} x {} are not Tensor Engine input types",
                            dtype_name(ta), dtype_name(tb)));
  }
  return mac_step_exact(acc_fp32, decode(ta, a), decode(tb, b));
}

ExactValue fp32_hi(Dtype t, uint32_t x) {
  if (t != Dtype::kFp32 && t != Dtype::kTf32) throw Error("fp32_hi: operand is not fp32 or tf32");
  if (t == Dtype::kTf32) return decode(Dtype::kTf32, x);
  const ExactValue v = decode(Dtype::kFp32, x);
  if (v.kind != Kind::kFinite) return v;
  return decode(Dtype::kTf32, x);  // TF32 reads the top 19 bits: exactly x with 13 bits cleared
}

ExactValue fp32_lo(Dtype t, uint32_t x) {
  if (t != Dtype::kFp32 && t != Dtype::kTf32) throw Error("fp32_lo: operand is not fp32 or tf32");
  const ExactValue v = decode(Dtype::kFp32, x);
  const uint32_t low = x & 0x1FFFu;
  if (t == Dtype::kTf32 || v.kind != Kind::kFinite || low == 0) return {};
  // x - hi(x) is the low 13 fraction bits at x's quantum; keep the top 11 significant bits.
  const uint32_t exp_field = (x >> 23) & 0xFF;
  ExactValue lo{Kind::kFinite, v.sign, low, exp_field == 0 ? -149 : static_cast<int>(exp_field) - 150};
  const int excess = top_bit(lo.mant) + 1 - 11;
  if (excess > 0) {
    lo.mant >>= excess;
    lo.exp += excess;
  }
  return lo;
}

uint32_t mac_step_exact(uint32_t acc_fp32, const ExactValue& x, const ExactValue& y) {
  const ExactValue acc = decode(Dtype::kFp32, acc_fp32);
  if (acc.kind == Kind::kNaN || x.kind == Kind::kNaN || y.kind == Kind::kNaN) {
    return kFp32CanonicalNaN;
  }
  const bool prod_sign = x.sign != y.sign;
  const bool x_inf = x.kind == Kind::kInf;
  const bool y_inf = y.kind == Kind::kInf;
  if ((x_inf && y.kind == Kind::kZero) || (y_inf && x.kind == Kind::kZero)) {
    return kFp32CanonicalNaN;  // 0 * Inf
  }
  if (x_inf || y_inf) {
    if (acc.kind == Kind::kInf && acc.sign != prod_sign) return kFp32CanonicalNaN;
    return FloatFormat{8, 23, 0, true}.infinity(prod_sign);
  }
  if (acc.kind == Kind::kInf) return acc_fp32;
  ExactValue prod{Kind::kZero, prod_sign, 0, 0};
  if (x.kind == Kind::kFinite && y.kind == Kind::kFinite) {
    prod = {Kind::kFinite, prod_sign, x.mant * y.mant, x.exp + y.exp};
  }
  return round_to_float(add_exact(acc, prod), Dtype::kFp32, {}, 0);
}

}  // namespace tern
