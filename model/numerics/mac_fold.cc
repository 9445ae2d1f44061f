#include "numerics/mac_fold.h"

#include <fmt/format.h>

#include <array>
#include <cfloat>
#include <cmath>

#include "common/error.h"
#include "numerics/numerics.h"

namespace tern {

namespace {

// The host float of every pattern of a type of at most 16 bits, decoded by the numerics'
// own rules once (its value is exact: at most 11 significant bits, in binary32's range).
std::vector<float> value_table(Dtype t) {
  const uint32_t count = 1u << dtype_bits(t);
  std::vector<float> table(count);
  for (uint32_t x = 0; x < count; ++x)
    table[x] = fp32_from_bits(round_to_float(decode(t, x), Dtype::kFp32, {}, 0));
  return table;
}

const std::vector<float>& values_of(Dtype t) {
  static const std::array<std::vector<float>, 4> tables{
      value_table(Dtype::kBf16), value_table(Dtype::kFp16), value_table(Dtype::kFp8E4M3),
      value_table(Dtype::kFp8E5M2)};
  switch (t) {
    case Dtype::kBf16: return tables[0];
    case Dtype::kFp16: return tables[1];
    case Dtype::kFp8E4M3: return tables[2];
    default: return tables[3];
  }
}

}  // namespace

void MacOperands::assign(Dtype t, const uint32_t* patterns, size_t n) {
  if (!is_mac_dtype(t))
    throw Error(fmt::format("mac_fold: {} is not a Tensor Engine input type", dtype_name(t)));
  type = t;
  bits.assign(patterns, patterns + n);
  value.resize(n);
  if (t == Dtype::kTf32) {  // the top 19 bits of a binary32 pattern: exactly that float
    for (size_t i = 0; i < n; ++i) value[i] = fp32_from_bits(patterns[i] & 0xFFFFE000u);
    return;
  }
  const std::vector<float>& table = values_of(t);
  const uint32_t mask = uint32_t(table.size() - 1);
  for (size_t i = 0; i < n; ++i) value[i] = table[patterns[i] & mask];
}

uint32_t mac_fold(const MacOperands& a, size_t a_first, const MacOperands& b, size_t b_first,
                  size_t n) {
  const float* x = a.value.data() + a_first;
  const float* y = b.value.data() + b_first;
  float acc = 0.0f;
  for (size_t k = 0; k < n; ++k) {
    const float p = x[k] * y[k];
    const float mag = std::fabs(p);
    // Exact: a normal product, a NaN (sticky), or a zero or infinity that an operand made.
    if ((mag >= FLT_MIN && mag <= FLT_MAX) || p != p || x[k] == 0.0f || y[k] == 0.0f ||
        std::isinf(x[k]) || std::isinf(y[k])) {
      acc += p;
      continue;
    }
    acc = fp32_from_bits(mac_step(fp32_to_bits(acc), a.type, a.bits[a_first + k], b.type, b.bits[b_first + k]));
  }
  return fp32_result_bits(acc);
}

}  // namespace tern
