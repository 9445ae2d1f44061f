// A self-describing program image (docs/isa.md "Program files"): the program, the tensors it
// reads and writes in HBM (name, dtype, shape, address, input or output) and the MACs its
// matmuls do, so that any backend can run it with no kernel object beside it (`tern run
// prog.tbin --inputs ...`). Written as a .tbin file ("TERNIMG1") or in assembly (`.kernel`,
// `.tensor`, `.macs`); a bare program ("TERNPRG1") reads as an image with no tensors.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "isa/isa.h"
#include "numerics/dtype.h"

namespace tern::isa {

struct TensorEntry {
  std::string name;
  Dtype dtype = Dtype::kFp32;
  uint32_t rows = 0, cols = 0;  // row-major
  uint64_t address = 0;         // in HBM, from a 4 KiB boundary (isa/image.h)
  bool output = false;
  uint32_t trip_max = 0;        // a run-time trip count (int32, 1 x 1): its largest value
  uint64_t bytes() const { return uint64_t(rows) * cols * uint64_t(dtype_bits(dtype) / 8); }
  bool operator==(const TensorEntry& o) const;
};

struct ProgramImage {
  std::string name;  // the kernel's name, for messages
  Program program;
  std::vector<TensorEntry> tensors;
  uint64_t macs = 0;  // the matmuls' multiply-accumulates (0: not stated)
  // The HBM the tensors take: the end of the last one (0 without tensors).
  uint64_t data_bytes() const;
  const TensorEntry* find(const std::string& tensor) const;  // nullptr when absent
  bool operator==(const ProgramImage& o) const;
};

// Throws tern::Error (prefixed by `where`) for what no backend could run: a kernel name with
// spaces or control bytes, a tensor name that is no identifier or is given twice, a dtype code past the table, a zero dimension, an address off a
// 4 KiB boundary, tensors that overlap or end past the 4 GiB a core addresses, a trip count that
// is not an int32 1 x 1 input.
void check_image(const ProgramImage& image, const std::string& where);

// The .tbin bytes ("TERNIMG1": name, tensor table, MACs, then the program's TERNPRG1 bytes).
std::vector<uint8_t> image_to_binary(const ProgramImage& image);
// Reads TERNIMG1 or a bare TERNPRG1 program; every error names `source` and the byte.
ProgramImage image_from_binary(const std::vector<uint8_t>& bytes, const std::string& source);

}  // namespace tern::isa
