// The Tensor Engine's command encoding and error codes, mirrored by rtl/pe/tern_pe_pkg.sv
// (tests/test_rtl_pkg.cc checks that both agree).
#pragma once

#include <cstdint>

#include "numerics/dtype.h"

namespace tern {

enum class PeOp : uint8_t {
  kLoadStationary = 0,  // K x M stationary tile into the next buffer
  kMultiplyMoving = 1,  // K x N moving tile against it, into PSUM
  kTranspose = 2,       // the stationary tile, transposed, into PSUM
  kReserved = 3,
};

enum class PeError : uint8_t {
  kNone = 0,
  kOpcode = 1,        // reserved opcode
  kK = 2,             // K = 0 or K > rows
  kM = 3,             // M = 0 or M > columns
  kN = 4,             // N = 0, or offset + N past the bank's end
  kBank = 5,          // bank >= PSUM banks
  kDtype = 6,         // not a Tensor Engine input type
  kNoStationary = 7,  // MultiplyMoving/Transpose before any LoadStationary
};

// The PE's pipeline steps (docs/tensor-engine.md "Pipeline"): the product's, outside the
// row-to-row loop, and the accumulation's, in it (each row sees a vector kPeAccSteps cycles
// after the row above).
constexpr uint32_t kPeProductSteps = 4;
constexpr uint32_t kPeAccSteps = 10;
// PSUM's pipelined accumulate: a write reaches PSUM's memory kPsumAccLatency cycles after the
// mesh presents it, so a vector that adds to an address issues at least kPsumAccLatency + 1
// cycles after the last vector that wrote it (docs/tensor-engine.md "PSUM accumulate").
constexpr uint32_t kPsumAccLatency = 11;

const char* pe_error_name(PeError e);

struct PeCommand {
  PeOp op = PeOp::kLoadStationary;
  Dtype dtype = Dtype::kBf16;  // LoadStationary: stationary dtype; MultiplyMoving: moving dtype
  uint32_t k = 0;              // LoadStationary
  uint32_t m = 0;              // LoadStationary
  uint32_t n = 0;              // MultiplyMoving
  uint32_t bank = 0;           // MultiplyMoving, Transpose
  uint32_t offset = 0;         // MultiplyMoving, Transpose: first word in the bank
  bool accumulate = false;     // MultiplyMoving
};

}  // namespace tern
