// Host values and a tensor's bit patterns, converted by tern's numerics (numerics/numerics.h):
// what a host program hands the runtime and reads back when it holds floats, not patterns.
#pragma once

#include <cstdint>
#include <vector>

#include "numerics/dtype.h"

namespace tern::host {

bool is_float_dtype(Dtype t);  // every dtype but int8, uint8 and int32

// Whether `bits` is a pattern of `t`: no wider than its storage (dtype_bits), and for tf32 the
// low 13 bits zero (numerics/dtype.h). The one rule every host input of patterns is held to.
bool is_pattern(Dtype t, uint64_t bits);

// The pattern of float dtype `t` nearest `v` (round to nearest even, no saturation: fp32 is `v`
// itself); an integer dtype is a tern::Error (its values are integers, not rounded floats).
uint32_t encode_float(Dtype t, float v);
std::vector<uint32_t> encode_floats(Dtype t, const std::vector<float>& values);

// The value of float dtype `t`'s pattern `bits`, exactly (every float dtype widens to fp32;
// a NaN is the canonical one); an integer dtype or a pattern wider than `t` is a tern::Error.
float decode_float(Dtype t, uint32_t bits);
std::vector<float> decode_floats(Dtype t, const std::vector<uint32_t>& bits);

}  // namespace tern::host
