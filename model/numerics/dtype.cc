#include "numerics/dtype.h"

#include <fmt/format.h>

#include "common/error.h"

namespace tern {
namespace {

struct DtypeInfo {
  Dtype type;
  const char* name;
  int bits;
  FloatFormat format;  // meaningful for float types only
};

constexpr DtypeInfo kInfo[kNumDtypes] = {
    {Dtype::kFp32, "fp32", 32, {8, 23, 0, true}},
    {Dtype::kTf32, "tf32", 32, {8, 10, 13, true}},
    {Dtype::kBf16, "bf16", 16, {8, 7, 0, true}},
    {Dtype::kFp16, "fp16", 16, {5, 10, 0, true}},
    {Dtype::kFp8E4M3, "fp8e4m3", 8, {4, 3, 0, false}},
    {Dtype::kFp8E5M2, "fp8e5m2", 8, {5, 2, 0, true}},
    {Dtype::kInt8, "int8", 8, {}},
    {Dtype::kUint8, "uint8", 8, {}},
    {Dtype::kInt32, "int32", 32, {}},
};

const DtypeInfo& info(Dtype t) {
  const auto i = static_cast<size_t>(t);
  if (i >= kNumDtypes) throw Error(fmt::format("invalid dtype code {}", i));
  return kInfo[i];
}

}  // namespace

bool is_float(Dtype t) { return static_cast<int>(t) <= static_cast<int>(Dtype::kFp8E5M2); }
bool is_int(Dtype t) { return !is_float(t); }
int dtype_bits(Dtype t) { return info(t).bits; }
const char* dtype_name(Dtype t) { return info(t).name; }

const FloatFormat& float_format(Dtype t) {
  if (!is_float(t)) throw Error(fmt::format("dtype {} is not a float format", dtype_name(t)));
  return info(t).format;
}

std::optional<Dtype> dtype_from_name(const std::string& name) {
  for (const auto& i : kInfo) {
    if (name == i.name) return i.type;
  }
  return std::nullopt;
}

}  // namespace tern
