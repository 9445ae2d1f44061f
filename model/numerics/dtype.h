// The data types of tern (ARCHITECTURE.md section 3.8) and the bit layout of each float format.
// The numeric codes are part of the ISA and of the RTL (rtl/common/tern_pkg.sv); a test checks
// that both agree.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace tern {

enum class Dtype : uint8_t {
  kFp32 = 0,
  kTf32 = 1,     // fp32 layout; only the top 19 bits (1+8+10) carry value, the low 13 are zero
  kBf16 = 2,
  kFp16 = 3,
  kFp8E4M3 = 4,  // OCP e4m3fn: bias 7, no infinities, NaN = S.1111.111, max 448
  kFp8E5M2 = 5,  // bias 15, IEEE-style infinities and NaNs
  kInt8 = 6,
  kUint8 = 7,
  kInt32 = 8,
};

constexpr int kNumDtypes = 9;

struct FloatFormat {
  int exp_bits;
  int man_bits;     // stored fraction bits (precision is man_bits + 1)
  int tail_bits;    // zero bits below the fraction (13 for TF32, 0 otherwise)
  bool has_inf;     // false: all-ones exponent with all-ones fraction is the only NaN (e4m3fn)
  int bias() const { return (1 << (exp_bits - 1)) - 1; }
  int width() const { return 1 + exp_bits + man_bits + tail_bits; }
  int emin() const { return 1 - bias(); }  // exponent of the smallest normal
  uint32_t exp_all_ones() const { return (1u << exp_bits) - 1; }
  uint32_t man_all_ones() const { return (1u << man_bits) - 1; }
  uint32_t encode(bool sign, uint32_t exp_field, uint32_t man_field) const {
    return (uint32_t(sign) << (width() - 1)) | (exp_field << (man_bits + tail_bits)) |
           (man_field << tail_bits);
  }
  uint32_t max_finite(bool sign) const {
    return has_inf ? encode(sign, exp_all_ones() - 1, man_all_ones())
                   : encode(sign, exp_all_ones(), man_all_ones() - 1);
  }
  uint32_t infinity(bool sign) const { return encode(sign, exp_all_ones(), 0); }
  // The canonical quiet NaN: sign 0, all-ones exponent, top fraction bit (e4m3fn: all ones).
  uint32_t canonical_nan() const {
    return has_inf ? encode(false, exp_all_ones(), 1u << (man_bits - 1))
                   : encode(false, exp_all_ones(), man_all_ones());
  }
};

bool is_float(Dtype t);
bool is_int(Dtype t);
int dtype_bits(Dtype t);               // storage width in bits
const FloatFormat& float_format(Dtype t);  // throws tern::Error for integer types
const char* dtype_name(Dtype t);           // "fp32", "bf16", "fp8e4m3", ...
std::optional<Dtype> dtype_from_name(const std::string& name);

}  // namespace tern
