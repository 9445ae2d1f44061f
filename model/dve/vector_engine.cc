#include "dve/vector_engine.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "common/error.h"

namespace tern {
namespace {

bool is_nan32(uint32_t x) { return std::isnan(fp32_from_bits(x)); }
uint32_t canonical(uint32_t x) { return is_nan32(x) ? kFp32CanonicalNaN : x; }
uint32_t negated(uint32_t x) { return is_nan32(x) ? kFp32CanonicalNaN : x ^ 0x80000000u; }

constexpr uint32_t kOne = 0x3F800000u;

uint32_t sub32(uint32_t a, uint32_t b) { return fp32_add(a, b ^ 0x80000000u); }

// The integer value of an integer dtype's encoding.
int32_t int_value(Dtype t, uint32_t bits) {
  switch (t) {
    case Dtype::kInt8: return static_cast<int8_t>(bits & 0xFF);
    case Dtype::kUint8: return static_cast<int32_t>(bits & 0xFF);
    default: return static_cast<int32_t>(bits);
  }
}

uint32_t saturate_to(Dtype t, int64_t v) {
  switch (t) {
    case Dtype::kInt8: return static_cast<uint32_t>(std::clamp<int64_t>(v, -128, 127)) & 0xFF;
    case Dtype::kUint8: return static_cast<uint32_t>(std::clamp<int64_t>(v, 0, 255));
    case Dtype::kInt32: return static_cast<uint32_t>(std::clamp<int64_t>(v, INT32_MIN, INT32_MAX));
    default: throw Error(fmt::format("saturate_to: {} is not an integer type", dtype_name(t)));
  }
}

uint32_t dtype_mask(Dtype t) { return dtype_bits(t) == 32 ? 0xFFFFFFFFu : (1u << dtype_bits(t)) - 1; }

// How an output element reaches the out dtype (docs/vector-engine.md, "Output conversion").
enum class Kind { kFp, kInt, kCopy, kWord };

// IEEE totalOrder "a above b" after NaN canonicalisation (NaN above +Inf, +0 above -0).
bool total_greater(uint32_t a, uint32_t b) {
  const bool na = is_nan32(a), nb = is_nan32(b);
  if (na || nb) return na && !nb;
  const float fa = fp32_from_bits(a), fb = fp32_from_bits(b);
  if (fa != fb) return fa > fb;
  return !(a >> 31) && (b >> 31);  // equal values: only +0 vs -0 differ
}

bool uses_in0(DveOp op) { return op != DveOp::kMemset && op != DveOp::kIota; }
bool uses_in1(DveOp op) {
  return op == DveOp::kTensorTensor || op == DveOp::kScalarTensorTensor ||
         op == DveOp::kTensorTensorScan || op == DveOp::kSelect;
}
bool uses_alu0(DveOp op) { return static_cast<int>(op) <= static_cast<int>(DveOp::kTensorTensorScan); }
bool uses_alu1(DveOp op) {
  return op == DveOp::kTensorScalar || op == DveOp::kScalarTensorTensor ||
         op == DveOp::kTensorScalarReduce || op == DveOp::kTensorTensorScan;
}
bool is_reduce_alu(DveAlu a) { return a == DveAlu::kAdd || a == DveAlu::kMax || a == DveAlu::kMin; }
bool known_dtype(Dtype t) { return static_cast<int>(t) < kNumDtypes; }
bool int_domain(const DveCommand& c) {
  return (uses_alu0(c.op) && dve_alu_is_bitwise(c.alu0)) || (uses_alu1(c.op) && dve_alu_is_bitwise(c.alu1));
}

}  // namespace

const char* dve_op_name(DveOp op) {
  static const char* const kNames[] = {"tensor_tensor", "tensor_scalar", "scalar_tensor_tensor",
                                       "tensor_reduce", "tensor_scalar_reduce", "tensor_tensor_scan",
                                       "tensor_copy", "memset", "select", "iota", "bn_stats", "bn_aggr",
                                       "max8", "transpose"};
  const int i = static_cast<int>(op);
  return i < kNumDveOps ? kNames[i] : "unknown";
}

const char* dve_alu_name(DveAlu alu) {
  static const char* const kNames[] = {"bypass", "add", "subtract", "multiply", "max", "min",
                                       "is_equal", "not_equal", "greater", "greater_equal", "less",
                                       "less_equal", "bitwise_and", "bitwise_or", "bitwise_xor",
                                       "shift_left", "shift_right"};
  const int i = static_cast<int>(alu);
  return i < kNumDveAlus ? kNames[i] : "unknown";
}

const char* dve_error_name(DveError e) {
  static const char* const kNames[] = {"none", "opcode", "alu_op", "dtype", "bitwise_float", "alu_mix", "size"};
  const int i = static_cast<int>(e);
  return i < 7 ? kNames[i] : "unknown";
}

bool dve_alu_is_bitwise(DveAlu alu) {
  return alu >= DveAlu::kBitwiseAnd && alu <= DveAlu::kShiftRight;
}

uint32_t dve_alu(DveAlu alu, uint32_t a, uint32_t b) {
  const float fa = fp32_from_bits(a), fb = fp32_from_bits(b);
  switch (alu) {
    case DveAlu::kBypass: return a;
    case DveAlu::kAdd: return fp32_add(a, b);
    case DveAlu::kSubtract: return sub32(a, b);
    case DveAlu::kMultiply: return fp32_mul(a, b);
    case DveAlu::kMax: return fp32_max(a, b);
    case DveAlu::kMin: return fp32_min(a, b);
    case DveAlu::kIsEqual: return fa == fb ? kOne : 0;
    case DveAlu::kNotEqual: return fa != fb ? kOne : 0;
    case DveAlu::kGreater: return fa > fb ? kOne : 0;
    case DveAlu::kGreaterEqual: return fa >= fb ? kOne : 0;
    case DveAlu::kLess: return fa < fb ? kOne : 0;
    case DveAlu::kLessEqual: return fa <= fb ? kOne : 0;
    case DveAlu::kBitwiseAnd: return a & b;
    case DveAlu::kBitwiseOr: return a | b;
    case DveAlu::kBitwiseXor: return a ^ b;
    case DveAlu::kShiftLeft: return a << (b & 31);
    case DveAlu::kShiftRight: {  // arithmetic
      const int32_t s = static_cast<int32_t>(a);
      const uint32_t n = b & 31;
      return static_cast<uint32_t>(s < 0 ? ~(~s >> n) : s >> n);
    }
  }
  throw Error(fmt::format("dve_alu: unknown op code {}", static_cast<int>(alu)));
}

VectorEngine::VectorEngine(const CoreConfig& cfg) : partitions_(cfg.partitions) {
  if (partitions_ == 0) throw Error("VectorEngine: config has no partitions");
  seed(0);
}

void VectorEngine::seed(uint32_t seed) {
  rng_.clear();
  for (uint32_t p = 0; p < partitions_; ++p) rng_.emplace_back(seed, p);
}

DveError VectorEngine::check(const DveCommand& c) const {
  if (static_cast<int>(c.op) >= kNumDveOps) return DveError::kOpcode;
  const bool bw0 = dve_alu_is_bitwise(c.alu0), bw1 = dve_alu_is_bitwise(c.alu1);
  bool bad_alu = (uses_alu0(c.op) && static_cast<int>(c.alu0) >= kNumDveAlus) ||
                 (uses_alu1(c.op) && static_cast<int>(c.alu1) >= kNumDveAlus);
  if (c.op == DveOp::kTensorReduce) bad_alu = bad_alu || !is_reduce_alu(c.alu0);
  if (c.op == DveOp::kTensorScalarReduce) bad_alu = bad_alu || bw0 || !is_reduce_alu(c.alu1);
  if (c.op == DveOp::kTensorTensorScan) bad_alu = bad_alu || bw0 || bw1;
  if (bad_alu) return DveError::kAluOp;
  bool bad_dt = (uses_in0(c.op) && !known_dtype(c.in0)) || (uses_in1(c.op) && !known_dtype(c.in1)) ||
                !known_dtype(c.out);
  if (c.op == DveOp::kTranspose) bad_dt = bad_dt || c.in0 != c.out;
  if (c.op == DveOp::kBnStats) bad_dt = bad_dt || c.out != Dtype::kFp32;
  if (c.op == DveOp::kBnAggr) bad_dt = bad_dt || c.out != Dtype::kFp32 || c.in0 != Dtype::kFp32;
  if (bad_dt) return DveError::kDtype;
  if (c.op == DveOp::kTensorScalar || c.op == DveOp::kScalarTensorTensor) {
    if ((bw0 && !bw1 && c.alu1 != DveAlu::kBypass) || (bw1 && !bw0 && c.alu0 != DveAlu::kBypass)) {
      return DveError::kAluMix;
    }
  }
  if (int_domain(c)) {
    if ((uses_in0(c.op) && is_float(c.in0)) || (uses_in1(c.op) && is_float(c.in1)) || is_float(c.out)) {
      return DveError::kBitwiseFloat;
    }
  }
  if (c.n == 0 || c.n > kDveMaxN || (c.op == DveOp::kTranspose && c.n % block() != 0) ||
      (c.op == DveOp::kBnAggr && c.n % 3 != 0) || (c.op == DveOp::kMax8 && c.n < 8)) {
    return DveError::kSize;
  }
  return DveError::kNone;
}

uint32_t VectorEngine::in0_beats(const DveCommand& c) const {
  return check(c) == DveError::kNone && uses_in0(c.op) ? c.n : 0;
}

uint32_t VectorEngine::in1_beats(const DveCommand& c) const {
  return check(c) == DveError::kNone && uses_in1(c.op) ? c.n : 0;
}

uint32_t VectorEngine::out_beats(const DveCommand& c) const {
  if (check(c) != DveError::kNone) return 0;
  switch (c.op) {
    case DveOp::kTensorReduce: return 1;
    case DveOp::kTensorScalarReduce: return c.n + 1;
    case DveOp::kBnStats: return 3;
    case DveOp::kBnAggr: return 2;
    case DveOp::kMax8: return 8;
    default: return c.n;
  }
}

VectorEngine::Result VectorEngine::execute(const DveCommand& c, const DveLanes& in0, const DveLanes& in1) {
  Result r;
  r.error = check(c);
  if (r.error != DveError::kNone) return r;
  const uint32_t P = partitions_;
  const uint32_t n = c.n;
  auto need = [&](const DveLanes& in, const char* name) {
    if (in.size() != P) throw Error(fmt::format("VectorEngine::execute({}): {} has {} partitions, want {}",
                                                 dve_op_name(c.op), name, in.size(), P));
    for (const auto& lane : in) {
      if (lane.size() < n) throw Error(fmt::format("VectorEngine::execute({}): {} lane has {} elements, want {}",
                                                   dve_op_name(c.op), name, lane.size(), n));
    }
  };
  if (uses_in0(c.op)) need(in0, "in0");
  if (uses_in1(c.op)) need(in1, "in1");
  const bool ints = int_domain(c);
  const ConvertMode mode{c.rounding, c.saturate};
  const bool sr = c.rounding == Rounding::kStochastic;
  r.out.assign(P, {});

  for (uint32_t p = 0; p < P; ++p) {
    auto& out = r.out[p];
    SrRng& rng = rng_[p];
    auto emit = [&](Kind kind, uint32_t v) {
      switch (kind) {
        case Kind::kFp: out.push_back(convert_from_fp32(c.out, v, mode, sr ? rng.draw() : 0)); break;
        case Kind::kInt:
          if (is_float(c.out)) {
            out.push_back(convert_from_fp32(c.out, convert_to_fp32(Dtype::kInt32, v), mode, sr ? rng.draw() : 0));
          } else {
            out.push_back(saturate_to(c.out, static_cast<int32_t>(v)));
          }
          break;
        case Kind::kCopy: out.push_back(v & dtype_mask(c.out)); break;
        case Kind::kWord: out.push_back(canonical(v)); break;
      }
    };
    const uint32_t s0 = c.scalar0_per_partition ? (p < c.scalar0.size() ? c.scalar0[p] : 0) : c.imm0;
    const uint32_t s1 = c.scalar1_per_partition ? (p < c.scalar1.size() ? c.scalar1[p] : 0) : c.imm1;
    // Operand i of lane p as the command's domain sees it.
    auto x = [&](uint32_t i) {
      return ints ? static_cast<uint32_t>(int_value(c.in0, in0[p][i])) : convert_to_fp32(c.in0, in0[p][i]);
    };
    auto y = [&](uint32_t i) {
      return ints ? static_cast<uint32_t>(int_value(c.in1, in1[p][i])) : convert_to_fp32(c.in1, in1[p][i]);
    };
    auto op0 = [&](uint32_t v) { return c.reverse0 ? dve_alu(c.alu0, s0, v) : dve_alu(c.alu0, v, s0); };
    const Kind elem_kind = ints ? Kind::kInt : Kind::kFp;

    switch (c.op) {
      case DveOp::kTensorTensor:
        for (uint32_t i = 0; i < n; ++i) emit(elem_kind, dve_alu(c.alu0, x(i), y(i)));
        break;
      case DveOp::kTensorScalar:
        for (uint32_t i = 0; i < n; ++i) {
          const uint32_t t = op0(x(i));
          emit(elem_kind, c.reverse1 ? dve_alu(c.alu1, s1, t) : dve_alu(c.alu1, t, s1));
        }
        break;
      case DveOp::kScalarTensorTensor:
        for (uint32_t i = 0; i < n; ++i) {
          const uint32_t t = op0(x(i));
          emit(elem_kind, c.reverse1 ? dve_alu(c.alu1, y(i), t) : dve_alu(c.alu1, t, y(i)));
        }
        break;
      case DveOp::kTensorReduce: {
        uint32_t acc = x(0);
        if (c.alu0 == DveAlu::kAdd) {
          std::vector<uint32_t> xs(n);
          for (uint32_t i = 0; i < n; ++i) xs[i] = x(i);
          acc = dve_add_reduce(xs);
        } else {
          for (uint32_t i = 1; i < n; ++i) acc = dve_alu(c.alu0, acc, x(i));
        }
        emit(Kind::kFp, c.negate ? negated(acc) : acc);
        break;
      }
      case DveOp::kTensorScalarReduce: {
        std::vector<uint32_t> t(n);
        for (uint32_t i = 0; i < n; ++i) {
          t[i] = op0(x(i));
          emit(Kind::kFp, t[i]);
        }
        uint32_t acc = t[0];
        if (c.alu1 == DveAlu::kAdd) acc = dve_add_reduce(t);
        else
          for (uint32_t i = 1; i < n; ++i) acc = dve_alu(c.alu1, acc, t[i]);
        emit(Kind::kWord, c.negate ? negated(acc) : acc);
        break;
      }
      case DveOp::kTensorTensorScan: {
        uint32_t acc = s0;
        for (uint32_t i = 0; i < n; ++i) {
          acc = dve_alu(c.alu1, dve_alu(c.alu0, acc, x(i)), y(i));
          emit(Kind::kFp, acc);
        }
        break;
      }
      case DveOp::kTensorCopy:
        for (uint32_t i = 0; i < n; ++i) {
          const uint32_t bits = in0[p][i];
          if (c.in0 == c.out) {
            emit(Kind::kCopy, bits);
          } else if (is_int(c.in0) && is_int(c.out)) {
            emit(Kind::kInt, static_cast<uint32_t>(int_value(c.in0, bits)));
          } else {
            emit(Kind::kFp, convert_to_fp32(c.in0, bits));
          }
        }
        break;
      case DveOp::kMemset:
        for (uint32_t i = 0; i < n; ++i) emit(Kind::kFp, c.imm0);
        break;
      case DveOp::kSelect:
        for (uint32_t i = 0; i < n; ++i) emit(Kind::kFp, fp32_from_bits(x(i)) != 0.0f ? y(i) : s0);
        break;
      case DveOp::kIota:
        for (uint32_t i = 0; i < n; ++i) emit(Kind::kInt, s0 + p * c.imm1 + c.imm2 * i);
        break;
      case DveOp::kBnStats: {
        // Welford, element order: d = x - mean; mean += d / k; M2 += d * (x - mean).
        uint32_t mean = 0, m2 = 0;
        for (uint32_t i = 0; i < n; ++i) {
          const uint32_t xi = x(i);
          const uint32_t k = convert_to_fp32(Dtype::kInt32, i + 1);
          const uint32_t d = sub32(xi, mean);
          mean = fp32_add(mean, fp32_div(d, k));
          m2 = fp32_add(m2, fp32_mul(d, sub32(xi, mean)));
        }
        emit(Kind::kWord, convert_to_fp32(Dtype::kInt32, n));
        emit(Kind::kWord, mean);
        emit(Kind::kWord, m2);
        break;
      }
      case DveOp::kBnAggr: {
        // Chan's combination of (count, mean, M2) triples, in order.
        uint32_t na = x(0), ma = x(1), m2a = x(2);
        for (uint32_t i = 3; i < n; i += 3) {
          const uint32_t nb = x(i), mb = x(i + 1), m2b = x(i + 2);
          const uint32_t nn = fp32_add(na, nb);
          const uint32_t delta = sub32(mb, ma);
          const uint32_t f = fp32_div(nb, nn);
          ma = fp32_add(ma, fp32_mul(delta, f));
          m2a = fp32_add(fp32_add(m2a, m2b), fp32_mul(fp32_mul(delta, delta), fp32_mul(na, f)));
          na = nn;
        }
        emit(Kind::kWord, ma);
        emit(Kind::kWord, fp32_div(m2a, na));
        break;
      }
      case DveOp::kMax8: {
        std::vector<uint32_t> v;
        for (uint32_t i = 0; i < n; ++i) v.push_back(canonical(x(i)));
        std::stable_sort(v.begin(), v.end(), total_greater);
        for (uint32_t i = 0; i < 8; ++i) emit(Kind::kFp, v[i]);
        break;
      }
      case DveOp::kTranspose: {
        // out[q*B + r][j*B + c] = in[q*B + c][j*B + r], within 32-partition quadrants.
        const uint32_t B = block(), q = p / B, row = p % B;
        for (uint32_t i = 0; i < n; ++i) {
          const uint32_t j = i / B, col = i % B;
          emit(Kind::kCopy, in0[q * B + col][j * B + row]);
        }
        break;
      }
    }
  }
  return r;
}

uint32_t dve_add_reduce(const std::vector<uint32_t>& x) {
  std::vector<uint32_t> slot;
  for (size_t i = 0; i < x.size(); ++i) {
    const size_t s = i % kDveReduceSlots;
    if (s == slot.size()) slot.push_back(x[i]);
    else slot[s] = dve_alu(DveAlu::kAdd, slot[s], x[i]);
  }
  for (size_t m = slot.size(); m > 1; m = (m + 1) / 2) {
    const size_t h = (m + 1) / 2;
    for (size_t k = 0; k + h < m; ++k) slot[k] = dve_alu(DveAlu::kAdd, slot[k], slot[k + h]);
  }
  return slot.at(0);
}

namespace {

// An add reduction's last beat (its drain) enters: the n elements stream into their slots, the
// fold's first round `first` cycles after the last element (its sum written), each round's
// beats a cycle apart, the next round and the drain L cycles after the last beat they read.
uint64_t add_reduce_last_entry(uint64_t n, uint64_t first) {
  const uint64_t L = kDveAluLoop;
  uint64_t last_entry = n, wait = first;
  for (uint64_t m = std::min<uint64_t>(n, kDveReduceSlots); m > 1; m = (m + 1) / 2) {
    last_entry += wait + (m / 2 - 1);
    wait = L;
  }
  return last_entry + wait;
}

// The cycle the last beat of c enters, counted from its acceptance (its first beat enters one
// cycle after).
uint64_t dve_last_entry(const DveCommand& c) {
  const uint64_t n = c.n, L = kDveAluLoop;
  // A micro-program element: it reaches ALU A (7 cycles after it entered), its micro-ops run
  // one after the other, the commit, then the next beat enters
  // (tern_dve_pkg::uop_at's programs: bn_stats 2 ALU operations and a divide, then vop_at's 3
  // ALU operations beside the next element's; a bn_aggr triple 9 and 2, its first one divide).
  // The element reaches ALU A, the first micro-op issues the cycle after, the commit takes
  // one: the next beat enters kDveOperandStage + 2 + the program.
  const uint64_t ta = kDveOperandStage;
  auto program = [&](uint64_t alu_ops, uint64_t divides) { return ta + 2 + alu_ops * L + divides * kDveDivCycles; };
  uint64_t last_entry = n;  // the cycle the last beat enters; the first enters at cycle 1
  switch (c.op) {
    case DveOp::kTensorReduce:
      // max and min fold each element in one step, one stage after ALU A's operands (TM);
      // the drain beat reads the result at ALU A's stage, so it enters one cycle late.
      last_entry = c.alu0 == DveAlu::kAdd ? add_reduce_last_entry(n, L) : n + 2;
      break;
    case DveOp::kTensorScalarReduce:
      // The loop is ALU B's (read at TB, written at TO): max and min wait for each sum; an add
      // streams into the slots, whose fold (through ALU A) waits 2L - 1 for the last sum.
      last_entry = c.alu1 == DveAlu::kAdd ? add_reduce_last_entry(n, 2 * L - 1) : 1 + L * (n - 1) + 2 * L - 1;
      break;
    case DveOp::kTensorTensorScan: last_entry = 1 + (2 * L - 1) * (n - 1); break;
    case DveOp::kBnStats:
      // Each element's first program (delta, delta / k, mean') alone; its second (x - mean',
      // the product, M2': three ALU operations) beside the next element's first. The drain
      // waits for the last element's second program.
      last_entry = 1 + n * program(2, 1) + 2 + 3 * L + 1;
      break;
    case DveOp::kBnAggr: {
      const uint64_t triples = n / 3;
      // A triple's first two elements each hold the next back until they reach ALU A.
      last_entry = 1 + 2 * ta + program(0, 1) + (triples - 1) * (2 * ta + program(9, 2)) + 1;
      break;
    }
    case DveOp::kIota: last_entry = n + 1; break;  // the cycle after acceptance adds the start values
    case DveOp::kMax8: last_entry = n + 9; break;  // the list is written at TM, as max's
    case DveOp::kTranspose: last_entry = 2 * n; break;
    default: break;
  }
  return last_entry;
}

}  // namespace

uint64_t dve_cycles(const DveCommand& c) { return dve_last_entry(c) + kDvePipeCycles; }

bool dve_streams(DveOp op) {
  switch (op) {
    case DveOp::kTensorTensor:
    case DveOp::kTensorScalar:
    case DveOp::kScalarTensorTensor:
    case DveOp::kTensorCopy:
    case DveOp::kMemset:
    case DveOp::kSelect:
    case DveOp::kIota: return true;
    default: return false;
  }
}

uint64_t dve_cycles(const std::vector<DveCommand>& cmds) {
  // last[i]: the cycle command i's last beat enters. Its beats are in the pipeline until
  // kDveLine cycles later; the result register and the output take the last two cycles.
  std::vector<uint64_t> last;
  for (size_t i = 0; i < cmds.size(); ++i) {
    uint64_t accept = 0;
    if (i > 0) {
      accept = last[i - 1] + 1;
      const size_t clear = dve_streams(cmds[i].op) ? 2 : 1;  // the command whose beats must have left
      if (i >= clear) accept = std::max(accept, last[i - clear] + kDveLine + 1);
    }
    last.push_back(accept + dve_last_entry(cmds[i]));
  }
  return last.empty() ? 0 : last.back() + kDvePipeCycles;
}

}  // namespace tern
