// The F extension's arithmetic in exact integer arithmetic (rv_fp.h). Every finite operation
// forms its result as sig * 2^exp, exact or with a sticky ("jam") bit at least two places below
// the rounding position, and rounds it once in round_pack.
#include "gpsimd/rv_fp.h"

#include <algorithm>

namespace tern::gpsimd {
namespace {

using u128 = unsigned __int128;

constexpr int kFracBits = 23;
constexpr int kMinExp = -126;           // exponent of the smallest normal
constexpr int kSubnormalLsb = -149;     // weight of the smallest subnormal's unit
constexpr uint32_t kSignBit = 0x80000000u;
constexpr uint32_t kInfBits = 0x7F800000u;
constexpr uint32_t kMaxFinite = 0x7F7FFFFFu;

struct Unpacked {
  enum class Kind : uint8_t { kZero, kFinite, kInf, kNaN };
  Kind kind = Kind::kZero;
  bool sign = false;
  bool signalling = false;  // NaN only
  uint32_t sig = 0;         // finite: value = sig * 2^exp
  int exp = 0;
};

Unpacked unpack(uint32_t bits) {
  Unpacked u;
  u.sign = (bits & kSignBit) != 0;
  const uint32_t e = (bits >> kFracBits) & 0xFFu;
  const uint32_t f = bits & 0x7FFFFFu;
  if (e == 0xFFu) {
    u.kind = f == 0 ? Unpacked::Kind::kInf : Unpacked::Kind::kNaN;
    u.signalling = f != 0 && (f & 0x400000u) == 0;
  } else if (e == 0) {
    u.kind = f == 0 ? Unpacked::Kind::kZero : Unpacked::Kind::kFinite;
    u.sig = f;
    u.exp = kSubnormalLsb;
  } else {
    u.kind = Unpacked::Kind::kFinite;
    u.sig = f | 0x800000u;
    u.exp = int(e) - 150;
  }
  return u;
}

bool is_nan(const Unpacked& u) { return u.kind == Unpacked::Kind::kNaN; }
bool is_inf(const Unpacked& u) { return u.kind == Unpacked::Kind::kInf; }
bool is_zero(const Unpacked& u) { return u.kind == Unpacked::Kind::kZero; }

int top_bit(u128 v) {
  int n = -1;
  while (v != 0) {
    v >>= 1;
    ++n;
  }
  return n;
}

uint32_t signed_zero(bool sign) { return sign ? kSignBit : 0u; }
uint32_t signed_inf(bool sign) { return signed_zero(sign) | kInfBits; }

// sig * 2^exp rounded to a multiple of 2^lsb by rm: the multiple's count and whether it is inexact.
struct Grid {
  u128 q = 0;
  bool inexact = false;
};

Grid round_to_grid(bool sign, u128 sig, int exp, int lsb, RoundingMode rm) {
  const int shift = lsb - exp;
  if (shift <= 0) return {sig << -shift, false};
  Grid g;
  u128 rem;
  u128 half;
  bool above_half;
  bool at_half;
  if (shift >= 128) {
    g.q = 0;
    rem = sig;
    above_half = false;
    at_half = false;
  } else {
    g.q = sig >> shift;
    rem = sig & ((u128(1) << shift) - 1);
    half = u128(1) << (shift - 1);
    above_half = rem > half;
    at_half = rem == half;
  }
  g.inexact = rem != 0;
  bool up = false;
  switch (rm) {
    case RoundingMode::kRne: up = above_half || (at_half && (g.q & 1) != 0); break;
    case RoundingMode::kRmm: up = above_half || at_half; break;
    case RoundingMode::kRtz: up = false; break;
    case RoundingMode::kRdn: up = sign && g.inexact; break;
    case RoundingMode::kRup: up = !sign && g.inexact; break;
  }
  if (up) ++g.q;
  return g;
}

FpResult overflow(bool sign, RoundingMode rm) {
  bool to_inf = true;
  if (rm == RoundingMode::kRtz) to_inf = false;
  if (rm == RoundingMode::kRdn) to_inf = sign;
  if (rm == RoundingMode::kRup) to_inf = !sign;
  const uint32_t bits = to_inf ? signed_inf(sign) : (signed_zero(sign) | kMaxFinite);
  return {bits, uint8_t(fflags::kOverflow | fflags::kInexact)};
}

// Rounds the nonzero value (-1)^sign * sig * 2^exp to binary32. Tininess is detected after
// rounding (as the ISA manual specifies): the value rounded to 24 bits with an unbounded
// exponent lies below 2^-126.
FpResult round_pack(bool sign, u128 sig, int exp, RoundingMode rm) {
  const int e = exp + top_bit(sig);  // value in [2^e, 2^(e+1))
  const Grid unbounded = round_to_grid(sign, sig, exp, e - kFracBits, rm);
  const int e_rounded = unbounded.q >> (kFracBits + 1) != 0 ? e + 1 : e;
  const bool tiny = e_rounded < kMinExp;

  int lsb = std::max(e - kFracBits, kSubnormalLsb);
  Grid g = round_to_grid(sign, sig, exp, lsb, rm);
  if (g.q >> (kFracBits + 1) != 0) {  // rounded up to 2^24 units: renormalise (exact)
    g.q >>= 1;
    ++lsb;
  }
  FpResult r;
  if (g.inexact) r.flags |= fflags::kInexact;
  if (tiny && g.inexact) r.flags |= fflags::kUnderflow;
  if (g.q >> kFracBits == 0) {  // subnormal or zero: lsb is the subnormal unit
    r.bits = signed_zero(sign) | uint32_t(g.q);
    return r;
  }
  const int biased = lsb + 150;
  if (biased >= 0xFF) return overflow(sign, rm);
  r.bits = signed_zero(sign) | (uint32_t(biased) << kFracBits) | (uint32_t(g.q) & 0x7FFFFFu);
  return r;
}

FpResult invalid() { return {kCanonicalNaN, fflags::kInvalid}; }

uint8_t nan_flags(const Unpacked& a, const Unpacked& b) {
  return (a.signalling || b.signalling) ? fflags::kInvalid : 0;
}

// The exact sum of two finite-or-zero values, each sig * 2^exp (sig may be 128-bit wide).
struct Term {
  bool sign = false;
  u128 sig = 0;
  int exp = 0;
};

FpResult add_terms(Term a, Term b, RoundingMode rm) {
  if (a.sig == 0 && b.sig == 0) {
    const bool sign = a.sign == b.sign ? a.sign : rm == RoundingMode::kRdn;
    return {signed_zero(sign), 0};
  }
  if (a.sig == 0) return round_pack(b.sign, b.sig, b.exp, rm);
  if (b.sig == 0) return round_pack(a.sign, a.sig, a.exp, rm);
  // Align both to a common unit 2^base. A term entirely below 2^(top - 72) only matters as
  // "a little more or less than the other term": it is replaced by one unit (a sticky bit),
  // far below the result's rounding position.
  const int top = std::max(a.exp + top_bit(a.sig), b.exp + top_bit(b.sig));
  const int base = std::max(std::min(a.exp, b.exp), top - 72);
  auto aligned = [base](const Term& t) -> u128 {
    if (t.exp + top_bit(t.sig) < base) return 1;
    if (t.exp < base) {
      const int shift = base - t.exp;
      const bool sticky = (t.sig & ((u128(1) << shift) - 1)) != 0;
      return (t.sig >> shift) | (sticky ? 1 : 0);
    }
    return t.sig << (t.exp - base);
  };
  const u128 ma = aligned(a);
  const u128 mb = aligned(b);
  if (a.sign == b.sign) return round_pack(a.sign, ma + mb, base, rm);
  if (ma == mb) return {signed_zero(rm == RoundingMode::kRdn), 0};
  return ma > mb ? round_pack(a.sign, ma - mb, base, rm) : round_pack(b.sign, mb - ma, base, rm);
}

Term term_of(const Unpacked& u) { return {u.sign, u.sig, u.exp}; }

FpResult add_signed(uint32_t a_bits, uint32_t b_bits, bool negate_b, RoundingMode rm) {
  const Unpacked a = unpack(a_bits);
  Unpacked b = unpack(b_bits);
  if (negate_b) b.sign = !b.sign;
  if (is_nan(a) || is_nan(b)) return {kCanonicalNaN, nan_flags(a, b)};
  if (is_inf(a) && is_inf(b) && a.sign != b.sign) return invalid();
  if (is_inf(a)) return {signed_inf(a.sign), 0};
  if (is_inf(b)) return {signed_inf(b.sign), 0};
  return add_terms(term_of(a), term_of(b), rm);
}

// sig normalised so that its top bit is bit 23 (subnormals made normal), exponent adjusted.
Unpacked normalised(Unpacked u) {
  while ((u.sig & 0x800000u) == 0) {
    u.sig <<= 1;
    --u.exp;
  }
  return u;
}

u128 isqrt(u128 v, u128& rem) {
  u128 root = 0;
  u128 bit = u128(1) << 126;
  while (bit > v) bit >>= 2;
  while (bit != 0) {
    if (v >= root + bit) {
      v -= root + bit;
      root = (root >> 1) + bit;
    } else {
      root >>= 1;
    }
    bit >>= 2;
  }
  rem = v;
  return root;
}

// Orders non-NaN binary32 patterns as the reals they denote (-0 == +0).
int32_t order_key(uint32_t v) {
  if ((v & 0x7FFFFFFFu) == 0) return 0;
  return (v & kSignBit) != 0 ? -int32_t(v & 0x7FFFFFFFu) : int32_t(v);
}

FpResult min_max(uint32_t a_bits, uint32_t b_bits, bool want_max) {
  const Unpacked a = unpack(a_bits);
  const Unpacked b = unpack(b_bits);
  const uint8_t flags = nan_flags(a, b);
  if (is_nan(a) && is_nan(b)) return {kCanonicalNaN, flags};
  if (is_nan(a)) return {b_bits, flags};
  if (is_nan(b)) return {a_bits, flags};
  const int32_t ka = order_key(a_bits);
  const int32_t kb = order_key(b_bits);
  if (ka == kb) {  // equal reals; only the zeros' signs can differ
    const bool a_neg = (a_bits & kSignBit) != 0;
    return {want_max ? (a_neg ? b_bits : a_bits) : (a_neg ? a_bits : b_bits), flags};
  }
  return {(ka > kb) == want_max ? a_bits : b_bits, flags};
}

FpResult to_int(uint32_t a_bits, RoundingMode rm, bool is_signed) {
  const Unpacked a = unpack(a_bits);
  const uint32_t pos_max = is_signed ? 0x7FFFFFFFu : 0xFFFFFFFFu;
  const uint32_t neg_max = is_signed ? 0x80000000u : 0u;
  if (is_nan(a)) return {pos_max, fflags::kInvalid};
  if (is_inf(a)) return {a.sign ? neg_max : pos_max, fflags::kInvalid};
  if (is_zero(a)) return {0, 0};
  const Grid g = round_to_grid(a.sign, a.sig, a.exp, 0, rm);
  const uint8_t nx = g.inexact ? fflags::kInexact : 0;
  if (a.sign) {
    const u128 limit = is_signed ? (u128(1) << 31) : 0;
    if (g.q > limit) return {neg_max, fflags::kInvalid};
    return {uint32_t(0u - uint32_t(g.q)), nx};
  }
  if (g.q > pos_max) return {pos_max, fflags::kInvalid};
  return {uint32_t(g.q), nx};
}

FpResult from_int(bool sign, uint32_t magnitude, RoundingMode rm) {
  if (magnitude == 0) return {0, 0};
  return round_pack(sign, magnitude, 0, rm);
}

}  // namespace

FpResult fadd(uint32_t a, uint32_t b, RoundingMode rm) { return add_signed(a, b, false, rm); }
FpResult fsub(uint32_t a, uint32_t b, RoundingMode rm) { return add_signed(a, b, true, rm); }

FpResult fmul(uint32_t a_bits, uint32_t b_bits, RoundingMode rm) {
  const Unpacked a = unpack(a_bits);
  const Unpacked b = unpack(b_bits);
  const bool sign = a.sign != b.sign;
  if (is_nan(a) || is_nan(b)) return {kCanonicalNaN, nan_flags(a, b)};
  if ((is_inf(a) && is_zero(b)) || (is_zero(a) && is_inf(b))) return invalid();
  if (is_inf(a) || is_inf(b)) return {signed_inf(sign), 0};
  if (is_zero(a) || is_zero(b)) return {signed_zero(sign), 0};
  return round_pack(sign, u128(a.sig) * b.sig, a.exp + b.exp, rm);
}

FpResult fmadd(uint32_t a_bits, uint32_t b_bits, uint32_t c_bits, RoundingMode rm, bool negate_product,
               bool negate_addend) {
  const Unpacked a = unpack(a_bits);
  const Unpacked b = unpack(b_bits);
  Unpacked c = unpack(c_bits);
  if (negate_addend) c.sign = !c.sign;
  const bool psign = (a.sign != b.sign) != negate_product;
  const bool inf_times_zero = (is_inf(a) && is_zero(b)) || (is_zero(a) && is_inf(b));
  if (is_nan(a) || is_nan(b) || is_nan(c)) {
    const bool nv = inf_times_zero || a.signalling || b.signalling || c.signalling;
    return {kCanonicalNaN, nv ? fflags::kInvalid : uint8_t(0)};
  }
  if (inf_times_zero) return invalid();
  const bool pinf = is_inf(a) || is_inf(b);
  if (pinf && is_inf(c) && psign != c.sign) return invalid();
  if (pinf) return {signed_inf(psign), 0};
  if (is_inf(c)) return {signed_inf(c.sign), 0};
  const Term product{psign, u128(a.sig) * b.sig, a.exp + b.exp};
  return add_terms(product, term_of(c), rm);
}

FpResult fdiv(uint32_t a_bits, uint32_t b_bits, RoundingMode rm) {
  const Unpacked a = unpack(a_bits);
  const Unpacked b = unpack(b_bits);
  const bool sign = a.sign != b.sign;
  if (is_nan(a) || is_nan(b)) return {kCanonicalNaN, nan_flags(a, b)};
  if ((is_inf(a) && is_inf(b)) || (is_zero(a) && is_zero(b))) return invalid();
  if (is_inf(a) || is_zero(b)) {
    const uint8_t flags = is_zero(b) && !is_inf(a) ? fflags::kDivByZero : 0;
    return {signed_inf(sign), flags};
  }
  if (is_inf(b) || is_zero(a)) return {signed_zero(sign), 0};
  const Unpacked na = normalised(a);
  const Unpacked nb = normalised(b);
  constexpr int kExtra = 64;  // quotient bits beyond the operands' scale: 40 more than needed
  const u128 num = u128(na.sig) << kExtra;
  u128 q = num / nb.sig;
  if (num % nb.sig != 0) q |= 1;  // sticky: far below the rounding position
  return round_pack(sign, q, na.exp - nb.exp - kExtra, rm);
}

FpResult fsqrt(uint32_t a_bits, RoundingMode rm) {
  const Unpacked a = unpack(a_bits);
  if (is_nan(a)) return {kCanonicalNaN, a.signalling ? fflags::kInvalid : uint8_t(0)};
  if (is_zero(a)) return {a_bits, 0};
  if (a.sign) return invalid();
  if (is_inf(a)) return {a_bits, 0};
  Unpacked n = normalised(a);
  u128 sig = n.sig;
  int exp = n.exp;
  if ((exp & 1) != 0) {
    sig <<= 1;
    --exp;
  }
  constexpr int kExtra = 64;  // sqrt(sig * 2^64) carries 32 bits beyond sqrt(sig)
  u128 rem;
  u128 root = isqrt(sig << kExtra, rem);
  if (rem != 0) root |= 1;
  return round_pack(false, root, (exp - kExtra) / 2, rm);
}

FpResult fmin(uint32_t a, uint32_t b) { return min_max(a, b, false); }
FpResult fmax(uint32_t a, uint32_t b) { return min_max(a, b, true); }

FpResult feq(uint32_t a_bits, uint32_t b_bits) {
  const Unpacked a = unpack(a_bits);
  const Unpacked b = unpack(b_bits);
  if (is_nan(a) || is_nan(b)) return {0, nan_flags(a, b)};
  return {order_key(a_bits) == order_key(b_bits) ? 1u : 0u, 0};
}

FpResult flt(uint32_t a_bits, uint32_t b_bits) {
  if (is_nan(unpack(a_bits)) || is_nan(unpack(b_bits))) return {0, fflags::kInvalid};
  return {order_key(a_bits) < order_key(b_bits) ? 1u : 0u, 0};
}

FpResult fle(uint32_t a_bits, uint32_t b_bits) {
  if (is_nan(unpack(a_bits)) || is_nan(unpack(b_bits))) return {0, fflags::kInvalid};
  return {order_key(a_bits) <= order_key(b_bits) ? 1u : 0u, 0};
}

FpResult fcvt_w_s(uint32_t a, RoundingMode rm) { return to_int(a, rm, true); }
FpResult fcvt_wu_s(uint32_t a, RoundingMode rm) { return to_int(a, rm, false); }

FpResult fcvt_s_w(uint32_t x, RoundingMode rm) {
  const bool neg = (x & kSignBit) != 0;
  return from_int(neg, neg ? 0u - x : x, rm);
}
FpResult fcvt_s_wu(uint32_t x, RoundingMode rm) { return from_int(false, x, rm); }

uint32_t fclass(uint32_t a_bits) {
  const Unpacked a = unpack(a_bits);
  const bool subnormal = a.kind == Unpacked::Kind::kFinite && (a_bits & kInfBits) == 0;
  int bit = 0;
  switch (a.kind) {
    case Unpacked::Kind::kInf: bit = a.sign ? 0 : 7; break;
    case Unpacked::Kind::kZero: bit = a.sign ? 3 : 4; break;
    case Unpacked::Kind::kNaN: bit = a.signalling ? 8 : 9; break;
    case Unpacked::Kind::kFinite: bit = subnormal ? (a.sign ? 2 : 5) : (a.sign ? 1 : 6); break;
  }
  return 1u << bit;
}

}  // namespace tern::gpsimd
