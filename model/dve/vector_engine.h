// The Vector Engine (DVE) golden model: one call per command, on per-partition vectors of raw
// dtype bits. Written from docs/vector-engine.md, never from the RTL (rtl/dve/tern_dve.sv),
// which must agree with it bit for bit on every output element and every error code.
#pragma once

#include <cstdint>
#include <vector>

#include "common/config.h"
#include "numerics/numerics.h"
#include "numerics/sr_rng.h"

namespace tern {

// Instruction codes (rtl/dve/tern_dve_pkg.sv DveOp*). Codes 14 and 15 are unknown.
enum class DveOp : uint8_t {
  kTensorTensor = 0,
  kTensorScalar = 1,
  kScalarTensorTensor = 2,
  kTensorReduce = 3,
  kTensorScalarReduce = 4,
  kTensorTensorScan = 5,
  kTensorCopy = 6,
  kMemset = 7,
  kSelect = 8,
  kIota = 9,
  kBnStats = 10,
  kBnAggr = 11,
  kMax8 = 12,
  kTranspose = 13,
};
constexpr int kNumDveOps = 14;

// Element operations (DveAlu*). Codes 17..31 are unknown.
enum class DveAlu : uint8_t {
  kBypass = 0,
  kAdd = 1,
  kSubtract = 2,
  kMultiply = 3,
  kMax = 4,
  kMin = 5,
  kIsEqual = 6,
  kNotEqual = 7,
  kGreater = 8,
  kGreaterEqual = 9,
  kLess = 10,
  kLessEqual = 11,
  kBitwiseAnd = 12,
  kBitwiseOr = 13,
  kBitwiseXor = 14,
  kShiftLeft = 15,
  kShiftRight = 16,
};
constexpr int kNumDveAlus = 17;

enum class DveError : uint8_t {
  kNone = 0,
  kOpcode = 1,
  kAluOp = 2,
  kDtype = 3,
  kBitwiseFloat = 4,
  kAluMix = 5,
  kSize = 6,
};

constexpr uint32_t kDveMaxN = 4096;

const char* dve_op_name(DveOp op);
const char* dve_alu_name(DveAlu alu);
const char* dve_error_name(DveError e);

bool dve_alu_is_bitwise(DveAlu alu);

// One command. Fields an instruction does not use are ignored (and not checked).
struct DveCommand {
  DveOp op = DveOp::kTensorTensor;
  DveAlu alu0 = DveAlu::kAdd;
  DveAlu alu1 = DveAlu::kBypass;
  Dtype in0 = Dtype::kFp32;
  Dtype in1 = Dtype::kFp32;
  Dtype out = Dtype::kFp32;
  Rounding rounding = Rounding::kNearestEven;
  bool saturate = false;
  uint32_t n = 1;                           // free size: elements per lane
  uint32_t imm0 = 0, imm1 = 0, imm2 = 0;   // fp32 bits (int32 for bitwise ops and iota)
  bool scalar0_per_partition = false;       // scalar 0 from scalar0[p] instead of imm0
  bool scalar1_per_partition = false;
  bool reverse0 = false;                    // op0 takes (scalar, x) instead of (x, scalar)
  bool reverse1 = false;
  bool negate = false;                      // reductions: negate the result
  std::vector<uint32_t> scalar0, scalar1;   // one word per partition (empty: zeros)
};

// The engine's timing (docs/vector-engine.md "Pipeline"): cycles from an accepted command to
// the engine idle, its results taken as they come. Every beat (element or drain beat) leaves
// kDvePipeCycles after it entered; beats enter at most one a cycle, an element of a loop
// through the accumulator kDveAluLoop (tensor_scalar_reduce max and min) or twice that
// (tensor_tensor_scan) cycles after the one before (add reductions stream into slots, below), and a bn_stats / bn_aggr element runs its
// micro-program (ALU A: kDveAluLoop cycles an operation; the divider: kDveDivCycles) alone,
// except bn_stats' second program (its M2 update), which runs beside the next element's first.
// A beat's path: its raw elements registered (1), converted to fp32 (6), ALU A and ALU B
// (kDveAluCycles each: the operands registered, then the adder's 10 steps), the output
// conversion (5), the result register and the output (2).
constexpr uint32_t kDveAluCycles = 11;
constexpr uint32_t kDvePipeCycles = 1 + 6 + 2 * kDveAluCycles + 5 + 2;
constexpr uint32_t kDveOperandStage = 7;  // ALU A's position: an element reads the scratch there
constexpr uint32_t kDveAluLoop = kDveAluCycles + 1;  // an operation and the scratch's write
constexpr uint32_t kDveDivCycles = 38;
uint64_t dve_cycles(const DveCommand& c);

// An add reduction (tensor_reduce add; tensor_scalar_reduce with op1 add, over its op0
// results) keeps kDveReduceSlots partial sums (docs/vector-engine.md "Add reductions"), so its
// elements stream: element i goes to slot i mod kDveReduceSlots (a slot
// starts from its first element, then adds each later one: slot + x); then, while m > 1 slots
// hold sums, the upper ones fold onto the lower: slot k = slot k + slot (k + h) for
// k < m - h, h = ceil(m / 2), and m becomes h. The sum is slot 0. A power of two above
// kDveAluLoop, so an element reads its slot after the one before it there was written.
constexpr uint32_t kDveReduceSlots = 16;
uint32_t dve_add_reduce(const std::vector<uint32_t>& x);  // fp32 bits, x not empty

// Commands back to back (docs/vector-engine.md "Back to back"): the engine holds two commands.
// An element-wise command (dve_streams) is taken the cycle after the last command's last beat
// entered, once the beats of the command before that have left the pipeline (a beat is in it
// kDveLine cycles); any other command waits for an empty pipeline. Cycles from the first
// command's acceptance until the engine is idle with every result taken.
constexpr uint32_t kDveLine = kDvePipeCycles - 2;
bool dve_streams(DveOp op);
uint64_t dve_cycles(const std::vector<DveCommand>& cmds);

using DveLanes = std::vector<std::vector<uint32_t>>;  // [partition][element], raw dtype bits

// Element operation on fp32 words (arithmetic ops) or int32 values (bitwise ops).
uint32_t dve_alu(DveAlu alu, uint32_t a, uint32_t b);

class VectorEngine {
 public:
  explicit VectorEngine(const CoreConfig& cfg);

  uint32_t partitions() const { return partitions_; }
  // Transpose block edge: min(32, P).
  uint32_t block() const { return partitions_ < 32 ? partitions_ : 32; }

  // (Re)seeds every lane's stochastic-rounding generator; after construction: seed 0.
  void seed(uint32_t seed);

  DveError check(const DveCommand& cmd) const;
  // Beats the command reads from in0 / in1 and writes to out (0 when rejected).
  uint32_t in0_beats(const DveCommand& cmd) const;
  uint32_t in1_beats(const DveCommand& cmd) const;
  uint32_t out_beats(const DveCommand& cmd) const;

  struct Result {
    DveError error = DveError::kNone;
    DveLanes out;  // [partition][beat]
  };
  // Executes one command. in0/in1 hold in0_beats/in1_beats elements per partition.
  Result execute(const DveCommand& cmd, const DveLanes& in0, const DveLanes& in1);

 private:
  uint32_t partitions_;
  std::vector<SrRng> rng_;
};

}  // namespace tern
