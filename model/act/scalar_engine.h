// Golden Scalar Engine, ACT (docs/scalar-engine.md): the command of rtl/act/tern_act.sv,
// executed on a [partition][element] tile, bit-exact with the RTL.
//   out[p][j] = convert(func(convert_to_fp32(in[p][j]) * scale_p + bias_p))
// with an optional reduction of the fp32 results along the free axis into one accumulator
// per partition.
#pragma once

#include <cstdint>
#include <vector>

#include "act/act_functions.h"
#include "numerics/numerics.h"
#include "numerics/sr_rng.h"

namespace tern::act {

// Codes shared with rtl/act/tern_act_pkg.sv.
enum class ReduceCmd : uint8_t {
  kIdle = 0,         // the accumulators are left alone
  kReset = 1,        // accumulators := identity; the results are not reduced
  kReduce = 2,       // accumulators := fold(accumulators, results)
  kResetReduce = 3,  // accumulators := fold(identity, results)
  kLoadReduce = 4,   // accumulators := fold(acc_load, results)
};
enum class ReduceOp : uint8_t { kAdd = 0, kMax = 1 };
enum class ActError : uint8_t { kNone = 0, kBadFunc = 1, kBadDtype = 2, kBadSize = 3, kBadReduce = 4 };

constexpr uint32_t kActMaxN = 65535;  // elements per partition of one command

// Raw codes, so that illegal values can be expressed (and rejected).
struct ActCommand {
  uint8_t func = 0;
  uint8_t in_dtype = 0;
  uint8_t out_dtype = 0;
  Rounding rounding = Rounding::kNearestEven;
  uint32_t n = 1;  // elements per partition, 1..kActMaxN
  bool scale_per_partition = false;
  uint32_t scale = 0x3F800000u;  // fp32 immediate
  bool bias_per_partition = false;
  uint32_t bias = 0;             // fp32 immediate
  std::vector<uint32_t> scale_vec, bias_vec, acc_load;  // one fp32 per partition when used
  uint8_t reduce_op = 0;
  uint8_t reduce_cmd = 0;
};

using ActTile = std::vector<std::vector<uint32_t>>;  // [partition][element], raw dtype bits

class ScalarEngine {
 public:
  ScalarEngine(uint32_t partitions, uint32_t sr_seed);

  // (Re)seeds every lane's stochastic-rounding generator.
  void seed(uint32_t sr_seed);
  // The error the command would raise, in the RTL's order of checks.
  ActError check(const ActCommand& cmd) const;
  // Executes one command; a rejected command changes nothing and `out` is left empty.
  ActError run(const ActCommand& cmd, const ActTile& in, ActTile& out);

  const std::vector<uint32_t>& accumulators() const { return acc_; }
  uint32_t partitions() const { return partitions_; }

 private:
  uint32_t partitions_;
  std::vector<SrRng> rng_;
  std::vector<uint32_t> acc_;
};

// The fp32 reduction steps: add is binary32 addition, max is tern::fp32_max.
uint32_t reduce_step(ReduceOp op, uint32_t acc, uint32_t value);
uint32_t reduce_identity(ReduceOp op);  // +0 for add, -Inf for max

// An add reduction's order (docs/scalar-engine.md "Reductions"): a command's results go to
// kActReduceSlots partial sums in turn (result j to slot j mod kActReduceSlots; slot 0 starts
// from the accumulator, another slot from its first result; each later result is added to
// its slot's sum), so consecutive results never wait for each other's addition. At the end
// the slots combine pairwise (slot 2k + slot 2k + 1 into slot k; an unpaired last slot kept)
// until one is left: the new accumulator. A max reduction folds in order (max is exact).
constexpr uint32_t kActReduceSlots = 16;
uint32_t add_reduce(uint32_t acc, const std::vector<uint32_t>& results);

// Dtypes the engine reads and writes: the float formats (integer formats are rejected).
bool is_act_dtype(uint8_t code);

// The engine's timing, as docs/scalar-engine.md "Pipeline" states it (the RTL's tests hold it
// to these): the cycles from an element entering the engine to its result, for each function,
// with no stall.
uint32_t act_latency(ActFunc f);
constexpr uint32_t kActDownLatency = 5;        // the output conversion, after the bus register
constexpr uint32_t kActReduceAddLatency = 11;  // a reduction's add: operands registered, the
                                               // adder's 10 (tern_act_pkg::RedAddLat, generated)
// The cycles an add reduction takes past the command's last output: its last sum and the
// slots' combine (0 for any other command).
uint64_t act_reduce_tail(const ActCommand& c);
// The cycles of one command from its acceptance to its last output, alone in the engine: n
// elements a cycle each and the function's latency; an add reduction ends when its slots are
// combined into the accumulator (act_reduce_tail later).
uint64_t act_cycles(const ActCommand& c);

}  // namespace tern::act
