// The Tensor Engine's column fold at host speed (issue 24, "a fast golden model"): the same
// results as mac_step applied in order, bit for bit. A product of two MAC input types (at most
// 11 significant bits each) is exact in binary32 whenever it lands in binary32's normal range,
// and then the host's IEEE binary32 addition (RNE, gradual underflow, no FTZ/DAZ, no
// contraction: -ffp-contract=off) is mac_step's one rounding of acc + product. A step whose
// product overflows or underflows binary32 is taken by mac_step itself; NaNs leave as the
// canonical NaN.
#pragma once

#include <cstdint>
#include <vector>

#include "numerics/dtype.h"

namespace tern {

// The operands of a fold, decoded once: each element's host float value and its pattern.
struct MacOperands {
  Dtype type = Dtype::kBf16;
  std::vector<float> value;
  std::vector<uint32_t> bits;
  void assign(Dtype t, const uint32_t* patterns, size_t n);  // throws for a non-MAC type
};

// acc = +0, then acc = mac_step(acc, a.type, a.bits[k], b.type, b.bits[k]) for k in
// [a_first, a_first + n) x [b_first, b_first + n), in order; returns acc's pattern.
uint32_t mac_fold(const MacOperands& a, size_t a_first, const MacOperands& b, size_t b_first,
                  size_t n);

}  // namespace tern
