// Accuracy of the Scalar Engine's functions against double-precision references
// (docs/act-accuracy.md): errors in fp32 ulps over a dense sweep of each function's valid
// range, and BF16 faithfulness over every BF16 input in it. The references are the host's
// double functions (glibc: well under 1 double ulp, i.e. below 2^-28 fp32 ulp), written from
// the functions' definitions, not from the engine's algorithms.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "act/act_functions.h"

namespace tern::oracle {

// f(x) in double.
double act_reference(act::ActFunc f, double x);

struct ActAccuracy {
  act::ActFunc func;
  uint64_t points = 0;          // dense fp32 sweep
  double max_ulp = 0;           // max |got - ref| in fp32 ulps of ref
  double mean_ulp = 0;
  float worst_input = 0;
  // Error divided by max(1, condition number |x f'(x) / f(x)|): what the algorithm adds
  // beyond what rounding the input alone would cause.
  double max_ulp_conditioned = 0;
  uint64_t bf16_inputs = 0;     // every BF16 value in the valid range
  uint64_t bf16_unfaithful = 0; // BF16 outputs that are not a neighbour of the true value
  double bf16_max_ulp = 0;      // in BF16 ulps
};

// Measures one function; `eval` is the implementation under test (fp32 bits -> fp32 bits).
ActAccuracy measure_act(act::ActFunc f, uint64_t dense_points,
                        const std::function<uint32_t(uint32_t)>& eval);

}  // namespace tern::oracle
