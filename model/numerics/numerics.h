// The numerics contract of tern (docs/numerics.md): conversions, FP32 add and the Tensor
// Engine's multiply-accumulate step. Written from the contract, never from the RTL; the RTL
// blocks in rtl/fp/ must agree with these functions bit for bit.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "numerics/dtype.h"

namespace tern {

enum class Rounding : uint8_t { kNearestEven = 0, kStochastic = 1 };

struct ConvertMode {
  Rounding rounding = Rounding::kNearestEven;
  bool saturate = false;  // float targets: results that would be +-Inf become +-max finite
};

// An exact finite value (-1)^sign * mant * 2^exp, or a special. Used to state rules exactly.
struct ExactValue {
  enum class Kind : uint8_t { kZero, kFinite, kInf, kNaN };
  Kind kind = Kind::kZero;
  bool sign = false;
  unsigned __int128 mant = 0;
  int exp = 0;
};

// Decodes any dtype's bit pattern (low dtype_bits(t) bits of `bits`) into its exact value.
ExactValue decode(Dtype t, uint32_t bits);

// Rounds an exact value to a float format; `random` is the SR draw (ignored for RNE).
uint32_t round_to_float(const ExactValue& v, Dtype t, ConvertMode mode, uint32_t random);

// Down-conversion of an fp32 value to any dtype (RNE or SR, saturate flag for floats).
// Integer targets round as the mode says, always saturate, and map NaN to 0.
uint32_t convert_from_fp32(Dtype to, uint32_t fp32_bits, ConvertMode mode, uint32_t random);

// Up-conversion of any dtype to fp32: exact for all float formats, INT8 and UINT8; INT32 rounds
// to nearest even. NaN becomes the canonical fp32 NaN.
uint32_t convert_to_fp32(Dtype from, uint32_t bits);

// IEEE-754 binary32 addition, multiplication, division and square root, each rounded once
// (RNE), subnormals honoured, NaN results canonical: the arithmetic of the Scalar and Vector
// Engines and of PSUM's accumulation. These use the host's IEEE binary32 arithmetic (SSE: round
// to nearest even, gradual underflow, no FTZ/DAZ; model/ is built with -ffp-contract=off), which
// is exactly these operations; `Numerics.HostFp32OpsMatchTheExactOnes` holds them to the
// _exact versions below.
uint32_t fp32_add(uint32_t a, uint32_t b);
uint32_t fp32_mul(uint32_t a, uint32_t b);
uint32_t fp32_div(uint32_t a, uint32_t b);
uint32_t fp32_sqrt(uint32_t a);

// The same operations written from the definition: the exact result in integer arithmetic,
// rounded once by round_to_float. The reference the oracle tests check against host IEEE and
// MPFR, and the host-speed versions against.
uint32_t fp32_add_exact(uint32_t a, uint32_t b);
uint32_t fp32_mul_exact(uint32_t a, uint32_t b);
uint32_t fp32_div_exact(uint32_t a, uint32_t b);
uint32_t fp32_sqrt_exact(uint32_t a);

// IEEE 754-2019 maximum / minimum on binary32: a NaN operand gives the canonical NaN,
// max(-0, +0) = +0 and min(-0, +0) = -0. The max/min of the Vector Engine's ALU and of the
// Scalar Engine's reduction.
uint32_t fp32_max(uint32_t a, uint32_t b);
uint32_t fp32_min(uint32_t a, uint32_t b);

// The Tensor Engine's MAC step: acc + a*b, the product exact, one RNE rounding to fp32.
// a and b are BF16, FP16, FP8-E4M3, FP8-E5M2 or TF32 (any mix); others throw tern::Error.
uint32_t mac_step(uint32_t acc_fp32, Dtype ta, uint32_t a, Dtype tb, uint32_t b);
bool is_mac_dtype(Dtype t);

// The same step on exact operand values of at most 11 significant bits each (the parts of
// the fp32 decomposition below).
uint32_t mac_step_exact(uint32_t acc_fp32, const ExactValue& a, const ExactValue& b);

// The fp32 decomposition of the Tensor Engine's reduced-rate fp32 matmul (docs/numerics.md):
// hi(x) is x with its 13 low fraction bits cleared (a TF32 value; NaN, Inf and zeros are
// their own hi); lo(x) = x - hi(x) truncated toward zero to 11 significant bits (+0 when x is
// NaN, Inf, zero or already a TF32 value). For a TF32 operand, hi is the value and lo is +0.
ExactValue fp32_hi(Dtype t, uint32_t x);
ExactValue fp32_lo(Dtype t, uint32_t x);

constexpr uint32_t kFp32CanonicalNaN = 0x7FC00000u;

// A binary32 pattern as the host's float and back, bit for bit (NaN payloads kept).
inline float fp32_from_bits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}
inline uint32_t fp32_to_bits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}
// The pattern of a host binary32 result as the engines give it: a NaN is the canonical NaN.
inline uint32_t fp32_result_bits(float f) { return std::isnan(f) ? kFp32CanonicalNaN : fp32_to_bits(f); }

}  // namespace tern
