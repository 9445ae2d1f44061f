#include "act_accuracy.h"

#include <cfloat>
#include <cmath>
#include <limits>

#include "numerics/numerics.h"

namespace tern::oracle {
namespace {

using act::ActFunc;

// Floats in increasing order <-> consecutive integers (-0 just below +0).
int64_t order_key(float f) {
  const uint32_t b = fp32_to_bits(f);
  return (b >> 31) ? -static_cast<int64_t>(b & 0x7FFFFFFFu) - 1 : static_cast<int64_t>(b);
}
float from_key(int64_t k) {
  return k < 0 ? fp32_from_bits(static_cast<uint32_t>(-(k + 1)) | 0x80000000u) : fp32_from_bits(static_cast<uint32_t>(k));
}

double sigmoid(double z) { return z >= 0 ? 1 / (1 + std::exp(-z)) : std::exp(z) / (1 + std::exp(z)); }

// The size of one unit in the last place of a format with `man_bits` fraction bits and
// exponent range down to `emin`, at value v.
double ulp_at(double v, int man_bits, int emin) {
  const int e = v == 0 ? emin : std::max(static_cast<int>(std::floor(std::log2(std::fabs(v)))), emin);
  return std::ldexp(1.0, e - man_bits);
}

// |got - ref| in fp32 ulps; infinite when a special value disagrees.
double ulp_error(float got, double ref) {
  if (std::isnan(ref) || std::isnan(got)) return std::isnan(ref) && std::isnan(got) ? 0 : INFINITY;
  const double fmax = FLT_MAX;
  if (std::fabs(ref) > fmax * (1 + 0x1p-25)) {  // the true value rounds to Inf
    return std::isinf(got) && std::signbit(got) == std::signbit(ref) ? 0 : INFINITY;
  }
  if (std::isinf(got)) return INFINITY;
  return std::fabs(static_cast<double>(got) - ref) / ulp_at(ref, 23, -126);
}

double condition(ActFunc f, double x, double fx) {
  if (fx == 0 || !std::isfinite(fx)) return 1;
  const double h = x == 0 ? 1e-30 : std::fabs(x) * 1e-7;
  const double d = (act_reference(f, x + h) - act_reference(f, x - h)) / (2 * h);
  return std::fabs(x * d / fx);
}

// The engine's fp32 result rounded to BF16 with RNE (its output conversion), as a float;
// restated here from the rounding rule rather than taken from the model.
float to_bf16(float x) {
  if (std::isnan(x)) return x;
  const uint32_t b = fp32_to_bits(x);
  return fp32_from_bits((b + 0x7FFFu + ((b >> 16) & 1)) & 0xFFFF0000u);
}

// Whether the BF16 result is one of the two BF16 neighbours of the true value.
bool bf16_faithful(float got_fp32, double ref) {
  if (std::isnan(ref)) return std::isnan(got_fp32);
  const double got = to_bf16(got_fp32);
  const double bmax = 0x1.FEp127;
  if (std::fabs(ref) > bmax) return std::isinf(got) ? std::signbit(got) == std::signbit(ref) : std::fabs(got) == bmax;
  const double u = ulp_at(ref, 7, -126);
  const double lo = std::floor(ref / u) * u, hi = std::ceil(ref / u) * u;
  return got == lo || got == hi;
}

}  // namespace

double act_reference(ActFunc f, double x) {
  switch (f) {
    case ActFunc::kCopy: return x;
    case ActFunc::kRelu: return x > 0 ? x : 0.0;
    case ActFunc::kGelu: return 0.5 * x * std::erfc(-x / std::sqrt(2.0));
    case ActFunc::kGeluApprxTanh: return x * sigmoid(2 * std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x));
    case ActFunc::kSilu: return x * sigmoid(x);
    case ActFunc::kSigmoid: return sigmoid(x);
    case ActFunc::kTanh: return std::tanh(x);
    case ActFunc::kExp: return std::exp(x);
    case ActFunc::kLog: return std::log(x);
    case ActFunc::kSqrt: return std::sqrt(x);
    case ActFunc::kRsqrt: return 1 / std::sqrt(x);
    case ActFunc::kReciprocal: return 1 / x;
    case ActFunc::kSquare: return x * x;
    case ActFunc::kAbs: return std::fabs(x);
    case ActFunc::kSign: return x > 0 ? 1.0 : x < 0 ? -1.0 : x;
    case ActFunc::kSoftplus: return std::max(x, 0.0) + std::log1p(std::exp(-std::fabs(x)));
    case ActFunc::kMish: return x * std::tanh(std::max(x, 0.0) + std::log1p(std::exp(-std::fabs(x))));
    case ActFunc::kErf: return std::erf(x);
  }
  return NAN;
}

ActAccuracy measure_act(ActFunc f, uint64_t dense_points, const std::function<uint32_t(uint32_t)>& eval) {
  ActAccuracy acc;
  acc.func = f;
  const act::ValidRange range = act::valid_range(f);
  // Reciprocal's range is +-[lo, hi]: sweep both halves.
  const bool mirrored = f == ActFunc::kReciprocal;
  double sum = 0;
  auto sample = [&](float x) {
    const double ref = act_reference(f, x);
    const float got = fp32_from_bits(eval(fp32_to_bits(x)));
    const double err = ulp_error(got, ref);
    sum += err;
    ++acc.points;
    if (err > acc.max_ulp) {
      acc.max_ulp = err;
      acc.worst_input = x;
    }
    acc.max_ulp_conditioned = std::max(acc.max_ulp_conditioned, err / std::max(1.0, condition(f, x, ref)));
  };
  const int64_t k0 = order_key(range.lo), k1 = order_key(range.hi);
  const uint64_t n = mirrored ? dense_points / 2 : dense_points;
  for (uint64_t i = 0; i < n; ++i) {
    const float x = from_key(k0 + static_cast<int64_t>((k1 - k0) * static_cast<double>(i) / (n - 1)));
    sample(x);
    if (mirrored) sample(-x);
  }
  acc.mean_ulp = sum / static_cast<double>(acc.points);
  for (uint32_t b = 0; b < 0x10000; ++b) {
    const float x = fp32_from_bits(b << 16);
    if (std::isnan(x)) continue;
    const float ax = mirrored ? std::fabs(x) : x;
    if (!(ax >= range.lo && ax <= range.hi)) continue;
    const double ref = act_reference(f, x);
    const float got = fp32_from_bits(eval(fp32_to_bits(x)));
    ++acc.bf16_inputs;
    if (!bf16_faithful(got, ref)) ++acc.bf16_unfaithful;
    const double g16 = to_bf16(got);
    if (std::isfinite(ref) && std::isfinite(g16)) {
      acc.bf16_max_ulp = std::max(acc.bf16_max_ulp, std::fabs(g16 - ref) / ulp_at(ref, 7, -126));
    }
  }
  return acc;
}

}  // namespace tern::oracle
