// NumPy .npy files for host tensors (docs/programming-guide.md, "Host tensors as .npy files").
// A dtype NumPy has is stored as itself: fp32 '<f4', fp16 '<f2', int8 '|i1', uint8 '|u1',
// int32 '<i4'. One it lacks is stored as its bit patterns in a one-field structured array
// whose field is the dtype's name, so the header says what the patterns are and NumPy still
// loads the file: bf16 [('bf16', '<u2')], tf32 [('tf32', '<u4')], fp8e4m3 [('fp8e4m3', '|u1')],
// fp8e5m2 [('fp8e5m2', '|u1')] (`np.load(f)['bf16']` gives the uint16 patterns).
// Elements are C-order; Fortran order, big-endian data and any other descr are errors.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "numerics/dtype.h"

namespace tern::host {

// A host tensor: its dtype, its shape (C order) and each element's bit pattern (the dtype's
// storage bits, zero-extended: int8 -1 is 0xFF), as the runtime's TensorBits holds them.
struct HostTensor {
  Dtype dtype = Dtype::kFp32;
  std::vector<uint64_t> shape;
  std::vector<uint32_t> bits;
  uint64_t elements() const;  // the product of shape (1 for a 0-d array)
};

// The header's descr for a dtype, as write_npy writes it ("'<f4'", "[('bf16', '<u2')]").
std::string npy_descr(Dtype t);

// The file's bytes as a tensor; `where` (the file name) starts every error, which says what is
// wrong: the magic, the version, the header (its keys, descr, shape, order), the data's length
// or an element that is no pattern of its dtype (a tf32 with low bits set).
HostTensor parse_npy(const std::vector<uint8_t>& bytes, const std::string& where);
std::vector<uint8_t> format_npy(const HostTensor& t);  // version 1.0, header padded to 64 bytes

HostTensor read_npy(const std::string& path);
// Writes `t` to `path` (its directory must exist); a shape whose product is not the number of
// patterns, or a pattern wider than the dtype, is an error naming `path`.
void write_npy(const std::string& path, const HostTensor& t);

}  // namespace tern::host
