#include "host/values.h"

#include <fmt/format.h>

#include <cstring>

#include "common/error.h"
#include "numerics/numerics.h"

namespace tern::host {
namespace {

void check_float(Dtype t, const char* what) {
  if (!is_float_dtype(t))
    throw Error(fmt::format("{}: {} is an integer dtype; its elements are integers, not floats",
                            what, dtype_name(t)));
}

}  // namespace

bool is_float_dtype(Dtype t) { return t != Dtype::kInt8 && t != Dtype::kUint8 && t != Dtype::kInt32; }

bool is_pattern(Dtype t, uint64_t bits) {
  return (bits >> dtype_bits(t)) == 0 && !(t == Dtype::kTf32 && (bits & 0x1FFFu));
}

uint32_t encode_float(Dtype t, float v) {
  check_float(t, "encode_float");
  uint32_t f32;
  std::memcpy(&f32, &v, 4);
  return t == Dtype::kFp32 ? f32 : convert_from_fp32(t, f32, ConvertMode{}, 0);
}

std::vector<uint32_t> encode_floats(Dtype t, const std::vector<float>& values) {
  std::vector<uint32_t> bits(values.size());
  for (size_t i = 0; i < values.size(); ++i) bits[i] = encode_float(t, values[i]);
  return bits;
}

float decode_float(Dtype t, uint32_t bits) {
  check_float(t, "decode_float");
  if (!is_pattern(t, bits))
    throw Error(fmt::format("decode_float: {:#x} is no {} pattern", bits, dtype_name(t)));
  const uint32_t f32 = convert_to_fp32(t, bits);
  float v;
  std::memcpy(&v, &f32, 4);
  return v;
}

std::vector<float> decode_floats(Dtype t, const std::vector<uint32_t>& bits) {
  std::vector<float> values(bits.size());
  for (size_t i = 0; i < bits.size(); ++i) values[i] = decode_float(t, bits[i]);
  return values;
}

}  // namespace tern::host
