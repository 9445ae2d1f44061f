// Independent oracles for the numerics tests. Nothing here uses the golden model's code: the
// formats are restated from the spec (docs/numerics.md) and rounding is done by MPFR.
#pragma once

#include <cstdint>
#include <optional>

#include "numerics/dtype.h"

namespace tern::oracle {

// The spec's parameters of a float format, restated independently of model/numerics.
struct Spec {
  int width;
  int exp_bits;
  int man_bits;
  int tail_bits;
  bool ieee_specials;  // false: e4m3fn (no Inf, NaN only S.1111.111)
  double max_finite;
};
Spec spec(Dtype t);

// The value of a bit pattern as a double (exact for every tern float format); NaN for NaN.
double value_of(Dtype t, uint32_t bits);

enum class Mode { kNearestEven, kTowardZero, kAwayFromZero };

// Rounds an exact double to format `t` with MPFR, honouring subnormals and ignoring the
// format's largest value (the caller applies the overflow rule).
double round_value(double exact, Dtype t, Mode mode);

// The contract's conversion result for an fp32 input, as a double: overflow handled by the
// saturate/Inf/NaN rules, stochastic rounding by the contract's 32-bit comparison.
double convert(Dtype t, float x, bool stochastic, bool saturate, uint32_t random);

// acc + a*b rounded once to fp32 (MPFR: exact product and sum, then one rounding).
double mac(double acc, double a, double b);

// Compares a result bit pattern with an oracle value: same value, same zero sign, NaN = NaN.
bool same(Dtype t, uint32_t bits, double expected);

}  // namespace tern::oracle
