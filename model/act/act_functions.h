// The Scalar Engine's functions (docs/scalar-engine.md): one fixed algorithm per function, as a
// sequence of IEEE binary32 operations (add, multiply, divide, square root, each rounded once
// with RNE) and exact bit operations. rtl/act/tern_act_fn_pkg.sv implements the same
// sequences; the two agree bit for bit. Constants: act_coeffs.h (generated).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace tern::act {

// Function codes: part of the ISA and of rtl/act/tern_act_pkg.sv (a test checks both agree).
enum class ActFunc : uint8_t {
  kCopy = 0,
  kRelu = 1,
  kGelu = 2,
  kGeluApprxTanh = 3,
  kSilu = 4,
  kSigmoid = 5,
  kTanh = 6,
  kExp = 7,
  kLog = 8,
  kSqrt = 9,
  kRsqrt = 10,
  kReciprocal = 11,
  kSquare = 12,
  kAbs = 13,
  kSign = 14,
  kSoftplus = 15,
  kMish = 16,
  kErf = 17,
};
constexpr int kNumActFuncs = 18;

const char* act_func_name(ActFunc f);
std::optional<ActFunc> act_func_from_name(const std::string& name);

// The documented valid input range of a function: results inside it are held to the
// published accuracy; outside it the algorithm still returns its defined result.
struct ValidRange {
  float lo;
  float hi;
};
ValidRange valid_range(ActFunc f);

// func(x) on an fp32 bit pattern; NaN results are the canonical NaN.
uint32_t act_function(ActFunc f, uint32_t x);

}  // namespace tern::act
