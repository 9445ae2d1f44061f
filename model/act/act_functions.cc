#include "act/act_functions.h"

#include <cmath>
#include <cstring>

#include "act/act_coeffs.h"
#include "numerics/numerics.h"

namespace tern::act {

namespace {

using namespace coeff;
// The algorithms are sequences of these binary32 operations (model/numerics: host IEEE speed).
uint32_t add(uint32_t a, uint32_t b) { return fp32_add(a, b); }
uint32_t mul(uint32_t a, uint32_t b) { return fp32_mul(a, b); }
uint32_t div(uint32_t a, uint32_t b) { return fp32_div(a, b); }

constexpr uint32_t kSignBit = 0x80000000u;
constexpr uint32_t kPosZero = 0x00000000u;
constexpr uint32_t kNegZero = 0x80000000u;
constexpr uint32_t kOne = 0x3F800000u;
constexpr uint32_t kTwo = 0x40000000u;
constexpr uint32_t kHalf = 0x3F000000u;
constexpr uint32_t kPosInf = 0x7F800000u;
constexpr uint32_t kNegInf = 0xFF800000u;
// Thresholds, as fp32 bit patterns of positive values (compared as integers).
constexpr uint32_t kExpOverflow = 0x42C80000u;   // 100: exp(t) is +Inf beyond
constexpr uint32_t kExpUnderflow = 0x42DC0000u;  // 110: exp(-t) is +0 beyond
constexpr uint32_t kTanhSaturate = 0x41100000u;  // 9: tanh rounds to +-1 from here
constexpr uint32_t kErfSmall = 0x3F400000u;      // 0.75: series below, erfc above
constexpr uint32_t kErfSaturate = 0x40800000u;   // 4: erf rounds to +-1 from here
constexpr uint32_t kErfcZero = 0x41280000u;      // 10.5: erfc underflows to +0 from here
constexpr uint32_t kSqrtHalfUp = 0x3ED413CDu;    // 0.41421356: log1p kernel up to here
constexpr uint32_t kMishLinear = 0x41A00000u;    // 20: mish(x) rounds to x from here

uint32_t sub(uint32_t a, uint32_t b) { return add(a, b ^ kSignBit); }
uint32_t neg(uint32_t a) { return a ^ kSignBit; }
uint32_t mag(uint32_t a) { return a & ~kSignBit; }
bool is_nan(uint32_t a) { return mag(a) > kPosInf; }
bool is_neg(uint32_t a) { return (a & kSignBit) != 0; }
bool is_zero(uint32_t a) { return mag(a) == 0; }

// 2^k for k in [-126, 127], a normal number.
uint32_t pow2(int k) { return static_cast<uint32_t>(k + 127) << 23; }
// The integer k (|k| < 2^22) as fp32: 1.5 * 2^23 + k is exact, less 1.5 * 2^23.
uint32_t int_to_fp32(int k) { return sub(kRoundMagic + static_cast<uint32_t>(k), kRoundMagic); }
// p * 2^n for n in [-252, 254] in two exact-then-rounded steps, so a subnormal result rounds
// once.
uint32_t scale2(uint32_t p, int n) {
  const int n1 = n >> 1;
  return mul(mul(p, pow2(n1)), pow2(n - n1));
}
uint32_t horner(const uint32_t* c, int terms, uint32_t x) {
  uint32_t h = c[terms - 1];
  for (int i = terms - 2; i >= 0; --i) h = add(mul(h, x), c[i]);
  return h;
}

// exp: t = n * ln2 + r, n = round(t / ln2), |r| <= ~ln2/2 (valid for |t| <= 110).
struct ExpReduced {
  int n;
  uint32_t r;
};
ExpReduced exp_reduce(uint32_t t) {
  const uint32_t biased = add(mul(t, kInvLn2), kRoundMagic);  // 1.5 * 2^23 + n
  const uint32_t n_fp = sub(biased, kRoundMagic);
  const int n = static_cast<int>(biased & 0x7FFFFFu) - 0x400000;
  return {n, sub(sub(t, mul(n_fp, kLn2Hi)), mul(n_fp, kLn2Lo))};
}
// e^r - 1 = r + r^2 * (1/2! + r/3! + ... + r^6/8!)
uint32_t expm1_kernel(uint32_t r) { return add(r, mul(mul(r, r), horner(kExpm1Poly, 7, r))); }

uint32_t exp_fn(uint32_t t) {
  if (is_nan(t)) return kFp32CanonicalNaN;
  if (!is_neg(t) && mag(t) > kExpOverflow) return kPosInf;
  if (is_neg(t) && mag(t) > kExpUnderflow) return kPosZero;
  const ExpReduced e = exp_reduce(t);
  return scale2(add(kOne, expm1_kernel(e.r)), e.n);
}

// e^t - 1 for t in [0, 18]: 2^n * expm1(r) + (2^n - 1).
uint32_t expm1_fn(uint32_t t) {
  const ExpReduced e = exp_reduce(t);
  const uint32_t em = expm1_kernel(e.r);
  if (e.n == 0) return em;
  return add(scale2(em, e.n), sub(pow2(e.n), kOne));
}

// log(1 + f) for f in [sqrt(1/2) - 1, sqrt(2) - 1]: s = f / (2 + f), log(1 + f) = f - s(f - R),
// R = s^2 * (2/3 + 2/5 s^2 + ... + 2/11 s^8).
uint32_t log1p_kernel(uint32_t f) {
  const uint32_t s = div(f, add(kTwo, f));
  const uint32_t z = mul(s, s);
  const uint32_t r = mul(z, horner(kLogPoly, 5, z));
  return sub(f, mul(s, sub(f, r)));
}

// log: x = 2^k * m, m in [sqrt(1/2), sqrt(2)]; log x = k ln2 + log1p(m - 1).
uint32_t log_fn(uint32_t x) {
  if (is_nan(x)) return kFp32CanonicalNaN;
  if (is_zero(x)) return kNegInf;
  if (is_neg(x)) return kFp32CanonicalNaN;
  if (x == kPosInf) return kPosInf;
  int k = 0;
  uint32_t m = x;
  if ((x >> 23) == 0) {  // subnormal: scale into the normal range first (exact)
    m = mul(x, pow2(24));
    k = -24;
  }
  k += static_cast<int>(m >> 23) - 127;
  m = (m & 0x7FFFFFu) | kOne;
  if (m > kSqrt2) {
    m = (m & 0x7FFFFFu) | kHalf;
    k += 1;
  }
  const uint32_t lp = log1p_kernel(sub(m, kOne));
  if (k == 0) return lp;
  const uint32_t kf = int_to_fp32(k);
  return add(mul(kf, kLogLn2Hi), add(lp, mul(kf, kLogLn2Lo)));
}

// sigmoid through t = exp(-|z|) in (0, 1], which never overflows: z >= 0: 1 / (1 + t);
// z < 0: t / (1 + t). x_sigmoid(x, z) = x * sigmoid(z) the same way, with one rounding less.
uint32_t sigmoid_fn(uint32_t z) {
  if (is_nan(z)) return kFp32CanonicalNaN;
  const uint32_t t = exp_fn(mag(z) | kSignBit);
  const uint32_t d = add(kOne, t);
  return is_neg(z) ? div(t, d) : div(kOne, d);
}
uint32_t x_sigmoid(uint32_t x, uint32_t z) {
  const uint32_t t = exp_fn(mag(z) | kSignBit);
  const uint32_t d = add(kOne, t);
  return is_neg(z) ? div(mul(x, t), d) : div(x, d);
}

// tanh |x| = expm1(2|x|) / (expm1(2|x|) + 2), sign restored.
uint32_t tanh_fn(uint32_t x) {
  if (is_nan(x)) return kFp32CanonicalNaN;
  const uint32_t sign = x & kSignBit;
  if (mag(x) >= kTanhSaturate) return kOne | sign;
  const uint32_t em = expm1_fn(add(mag(x), mag(x)));
  return div(em, add(em, kTwo)) | sign;
}

// erf near zero: x * sum a_n x^2n.
uint32_t erf_series(uint32_t x) { return mul(x, horner(kErfPoly, 10, mul(x, x))); }

// erfc(z) for z in [0.75, 10.5): exp(-z^2) * g(z), g a polynomial per interval. z^2 is split
// as zh^2 + (z - zh)(z + zh) with zh = z to 12 bits, so exp sees the exact square.
uint32_t erfc_big(uint32_t z) {
  int i = 0;
  while (i + 1 < kErfcIntervals && z >= kErfcEdges[i + 1]) ++i;
  const uint32_t g = horner(&kErfcPoly[i * kErfcTerms], kErfcTerms, sub(z, kErfcMids[i]));
  const uint32_t zh = z & 0xFFFFF000u;
  const uint32_t e1 = exp_fn(neg(mul(zh, zh)));
  const uint32_t e2 = exp_fn(neg(mul(sub(z, zh), add(z, zh))));
  return mul(e1, mul(e2, g));
}

uint32_t erf_fn(uint32_t x) {
  if (is_nan(x)) return kFp32CanonicalNaN;
  const uint32_t ax = mag(x);
  if (ax < kErfSmall) return erf_series(x);
  if (ax >= kErfSaturate) return kOne | (x & kSignBit);
  return sub(kOne, erfc_big(ax)) | (x & kSignBit);
}

// gelu(x) = x * Phi(x), Phi(x) = (1 + erf(w)) / 2 near zero, else from erfc(|w|), w = x/sqrt2.
uint32_t gelu_fn(uint32_t x) {
  const uint32_t w = mul(x, kInvSqrt2);
  const uint32_t aw = mag(w);
  uint32_t phi;
  if (aw < kErfSmall) {
    phi = mul(kHalf, add(kOne, erf_series(w)));
  } else if (aw >= kErfcZero) {
    phi = is_neg(w) ? kPosZero : kOne;
  } else {
    const uint32_t half_erfc = mul(kHalf, erfc_big(aw));
    phi = is_neg(w) ? half_erfc : sub(kOne, half_erfc);
  }
  return mul(x, phi);
}

// gelu_apprx_tanh(x) = x * sigmoid(z), z = 2 sqrt(2/pi) (x + 0.044715 x^3): the tanh form
// 0.5 x (1 + tanh(z/2)) without its cancellation for negative x.
uint32_t gelu_tanh_fn(uint32_t x) {
  const uint32_t z = mul(x, add(kGeluTanhK1, mul(kGeluTanhK2, mul(x, x))));
  return x_sigmoid(x, z);
}

// softplus(x) = max(x, 0) + log1p(exp(-|x|)).
uint32_t softplus_fn(uint32_t x) {
  const uint32_t u = exp_fn(mag(x) | kSignBit);
  const uint32_t l = u <= kSqrtHalfUp ? log1p_kernel(u) : log_fn(add(kOne, u));
  return add(is_neg(x) ? kPosZero : x, l);
}

// mish(x) = x * tanh(softplus(x)) = x * v / (v + 2), v = e^x (e^x + 2).
uint32_t mish_fn(uint32_t x) {
  if (!is_neg(x) && x >= kMishLinear) return x;
  const uint32_t u = exp_fn(x);
  const uint32_t v = mul(u, add(u, kTwo));
  return mul(x, div(v, add(v, kTwo)));
}

}  // namespace

const char* act_func_name(ActFunc f) {
  static const char* const kNames[kNumActFuncs] = {
      "copy", "relu", "gelu", "gelu_apprx_tanh", "silu", "sigmoid", "tanh", "exp", "log",
      "sqrt", "rsqrt", "reciprocal", "square", "abs", "sign", "softplus", "mish", "erf"};
  const auto i = static_cast<int>(f);
  return i < kNumActFuncs ? kNames[i] : "?";
}

std::optional<ActFunc> act_func_from_name(const std::string& name) {
  for (int i = 0; i < kNumActFuncs; ++i) {
    if (name == act_func_name(static_cast<ActFunc>(i))) return static_cast<ActFunc>(i);
  }
  return std::nullopt;
}

ValidRange valid_range(ActFunc f) {
  switch (f) {
    case ActFunc::kExp: return {-87.0f, 88.0f};
    case ActFunc::kLog:
    case ActFunc::kSqrt:
    case ActFunc::kRsqrt: return {0x1p-64f, 0x1p64f};
    case ActFunc::kReciprocal: return {0x1p-42f, 0x1p42f};  // and the same negated
    case ActFunc::kGelu:
    case ActFunc::kGeluApprxTanh:
    case ActFunc::kSilu:
    case ActFunc::kSigmoid:
    case ActFunc::kSoftplus:
    case ActFunc::kMish: return {-80.0f, 80.0f};
    case ActFunc::kTanh:
    case ActFunc::kErf: return {-16.0f, 16.0f};
    default: return {-0x1p63f, 0x1p63f};
  }
}

uint32_t act_function(ActFunc f, uint32_t x) {
  // NaN in, canonical NaN out; infinities take each function's limit.
  if (is_nan(x)) return kFp32CanonicalNaN;
  const bool neg_inf = x == kNegInf, pos_inf = x == kPosInf;
  switch (f) {
    case ActFunc::kCopy: return x;
    case ActFunc::kRelu: return is_neg(x) ? kPosZero : x;
    case ActFunc::kGelu: return pos_inf ? kPosInf : neg_inf ? kNegZero : gelu_fn(x);
    case ActFunc::kGeluApprxTanh: return pos_inf ? kPosInf : neg_inf ? kNegZero : gelu_tanh_fn(x);
    case ActFunc::kSilu: return pos_inf ? kPosInf : neg_inf ? kNegZero : x_sigmoid(x, x);
    case ActFunc::kSigmoid: return sigmoid_fn(x);
    case ActFunc::kTanh: return tanh_fn(x);
    case ActFunc::kExp: return exp_fn(x);
    case ActFunc::kLog: return log_fn(x);
    case ActFunc::kSqrt: return fp32_sqrt(x);
    case ActFunc::kRsqrt: return div(kOne, fp32_sqrt(x));
    case ActFunc::kReciprocal: return div(kOne, x);
    case ActFunc::kSquare: return mul(x, x);
    case ActFunc::kAbs: return mag(x);
    case ActFunc::kSign: return is_zero(x) ? x : (kOne | (x & kSignBit));
    case ActFunc::kSoftplus: return pos_inf ? kPosInf : neg_inf ? kPosZero : softplus_fn(x);
    case ActFunc::kMish: return pos_inf ? kPosInf : neg_inf ? kNegZero : mish_fn(x);
    case ActFunc::kErf: return erf_fn(x);
  }
  return kFp32CanonicalNaN;
}

}  // namespace tern::act
