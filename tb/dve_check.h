// Random Vector Engine programs and their bit-exact check against the golden model, shared by
// the tests, the regression bench and the benchmark.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "dve/vector_engine.h"
#include "dve_unit.h"
#include "numerics/numerics.h"

namespace tern::tb {

constexpr Dtype kAllDtypes[] = {Dtype::kFp32, Dtype::kTf32, Dtype::kBf16, Dtype::kFp16, Dtype::kFp8E4M3,
                                Dtype::kFp8E5M2, Dtype::kInt8, Dtype::kUint8, Dtype::kInt32};
constexpr Dtype kIntDtypes[] = {Dtype::kInt8, Dtype::kUint8, Dtype::kInt32};

inline uint32_t dtype_mask_of(Dtype t) {
  return dtype_bits(t) == 32 ? 0xFFFFFFFFu : (1u << dtype_bits(t)) - 1;
}

// A random element of dtype t: half random bit patterns, a quarter small integers and simple
// fractions (so comparisons meet equal values and integer results stay in range), a quarter
// specials (+-0, +-Inf, NaN, max, tiny, large).
inline uint32_t random_dve_element(Dtype t, std::mt19937_64& rng) {
  const uint32_t kind = static_cast<uint32_t>(rng() % 4);
  const uint32_t bits = static_cast<uint32_t>(rng());
  if (kind <= 1) {
    uint32_t b = bits & dtype_mask_of(t);
    if (t == Dtype::kTf32) b &= ~0x1FFFu;
    return b;
  }
  static const float kSpecials[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 3.4e38f, -3.4e38f, 1e-40f,
                                    -1e-45f, 65504.0f, 448.0f, 1e9f, -3e9f, 300.0f, -129.0f, 0.5f};
  float f;
  if (kind == 2) {
    f = static_cast<float>(static_cast<int>(rng() % 17) - 8) * (rng() % 2 ? 1.0f : 0.25f);
  } else {
    f = kSpecials[rng() % (sizeof kSpecials / sizeof kSpecials[0])];
  }
  uint32_t fb;
  std::memcpy(&fb, &f, sizeof fb);
  return convert_from_fp32(t, fb, {}, 0);
}

inline DveLanes random_lanes(Dtype t, uint32_t partitions, uint32_t n, std::mt19937_64& rng) {
  DveLanes lanes(partitions, std::vector<uint32_t>(n));
  for (auto& lane : lanes) {
    for (auto& e : lane) e = random_dve_element(t, rng);
  }
  return lanes;
}

// Operands sized for the command (in0 and in1 always n elements; unused ones are ignored).
inline DveItem make_item(const DveCommand& cmd, uint32_t partitions, std::mt19937_64& rng) {
  const uint32_t n = std::min<uint32_t>(cmd.n, kDveMaxN);
  const Dtype t0 = static_cast<int>(cmd.in0) < kNumDtypes ? cmd.in0 : Dtype::kFp32;
  const Dtype t1 = static_cast<int>(cmd.in1) < kNumDtypes ? cmd.in1 : Dtype::kFp32;
  DveItem it{cmd, random_lanes(t0, partitions, n, rng), random_lanes(t1, partitions, n, rng)};
  if (cmd.op == DveOp::kBnAggr) {  // (count, mean, M2) triples with positive counts and M2
    for (auto& lane : it.in0) {
      for (uint32_t i = 0; i + 2 < n; i += 3) {
        const float cnt = static_cast<float>(1 + rng() % 64);
        const float mean = static_cast<float>(static_cast<int>(rng() % 2001) - 1000) / 64.0f;
        const float m2 = static_cast<float>(rng() % 100000) / 16.0f;
        std::memcpy(&lane[i], &cnt, 4);
        std::memcpy(&lane[i + 1], &mean, 4);
        std::memcpy(&lane[i + 2], &m2, 4);
      }
    }
  }
  return it;
}

struct RandomOptions {
  uint32_t max_n = 24;       // typical free sizes 1..max_n; now and then up to kDveMaxN / 8
  bool illegal = true;       // mix in rejected commands (about 1 in 20)
};

// A random command of a random instruction, legal unless `illegal` picks a bad one.
inline DveCommand random_command(uint32_t partitions, std::mt19937_64& rng, const RandomOptions& o) {
  DveCommand c;
  auto pick_dt = [&] { return kAllDtypes[rng() % 9]; };
  auto pick_int = [&] { return kIntDtypes[rng() % 3]; };
  c.op = static_cast<DveOp>(rng() % kNumDveOps);
  const bool bitwise = (rng() % 4 == 0) &&
                       (c.op == DveOp::kTensorTensor || c.op == DveOp::kTensorScalar || c.op == DveOp::kScalarTensorTensor);
  auto arith = [&] { return static_cast<DveAlu>(rng() % 12); };
  auto bit = [&] { return static_cast<DveAlu>(12 + rng() % 5); };
  auto reduce = [&] { const DveAlu r[] = {DveAlu::kAdd, DveAlu::kMax, DveAlu::kMin}; return r[rng() % 3]; };
  if (bitwise) {
    c.alu0 = bit();
    c.alu1 = rng() % 3 == 0 ? DveAlu::kBypass : bit();
    c.in0 = pick_int(); c.in1 = pick_int(); c.out = pick_int();
  } else {
    c.alu0 = c.op == DveOp::kTensorReduce ? reduce() : arith();
    c.alu1 = c.op == DveOp::kTensorScalarReduce ? reduce() : arith();
    c.in0 = pick_dt(); c.in1 = pick_dt(); c.out = pick_dt();
  }
  c.rounding = rng() % 2 ? Rounding::kStochastic : Rounding::kNearestEven;
  c.saturate = rng() % 4 == 0;
  const uint32_t r = static_cast<uint32_t>(rng() % 16);
  c.n = r == 0 ? 1 : r == 1 ? 1 + static_cast<uint32_t>(rng() % (kDveMaxN / 8)) : 1 + static_cast<uint32_t>(rng() % o.max_n);
  const uint32_t B = partitions < 32 ? partitions : 32;
  switch (c.op) {
    case DveOp::kTranspose: c.out = c.in0; c.n = B * (1 + static_cast<uint32_t>(rng() % 3)); break;
    case DveOp::kBnStats: c.out = Dtype::kFp32; break;
    case DveOp::kBnAggr: c.in0 = c.out = Dtype::kFp32; c.n = 3 * (1 + static_cast<uint32_t>(rng() % 8)); break;
    case DveOp::kMax8: c.n = std::max<uint32_t>(c.n, 8); break;
    default: break;
  }
  auto imm = [&] {
    if (bitwise || c.op == DveOp::kIota) return static_cast<uint32_t>(static_cast<int32_t>(rng() % 64) - 32);
    uint32_t b;
    const float f = static_cast<float>(static_cast<int>(rng() % 33) - 16) / 4.0f;
    std::memcpy(&b, &f, 4);
    return rng() % 8 == 0 ? static_cast<uint32_t>(rng()) : b;
  };
  c.imm0 = imm(); c.imm1 = imm(); c.imm2 = imm();
  c.scalar0_per_partition = rng() % 2;
  c.scalar1_per_partition = rng() % 2;
  for (uint32_t p = 0; p < partitions; ++p) {
    c.scalar0.push_back(imm());
    c.scalar1.push_back(imm());
  }
  c.reverse0 = rng() % 2;
  c.reverse1 = rng() % 2;
  c.negate = rng() % 2;
  if (o.illegal && rng() % 20 == 0) {
    switch (rng() % 6) {
      case 0: c.op = static_cast<DveOp>(14 + rng() % 2); break;
      case 1: c.op = DveOp::kTensorTensor; c.alu0 = static_cast<DveAlu>(17 + rng() % 15); break;
      case 2: c.out = static_cast<Dtype>(9 + rng() % 7); break;
      case 3: c.op = DveOp::kTensorTensor; c.alu0 = DveAlu::kBitwiseXor; c.in0 = Dtype::kBf16; break;
      case 4: c.op = DveOp::kTensorScalar; c.alu0 = DveAlu::kBitwiseAnd; c.alu1 = DveAlu::kAdd; break;
      default: c.n = rng() % 2 ? 0 : kDveMaxN + 1 + static_cast<uint32_t>(rng() % 100); break;
    }
  }
  return c;
}

struct DveCheck {
  uint64_t commands = 0, elements = 0, mismatches = 0, cycles = 0, first_out_cycle = 0;
  std::vector<std::pair<size_t, DveError>> errors;  // as the RTL reported them
  std::string first_mismatch;
};

// Runs the items on the RTL and the golden model (both already seeded alike) and compares every
// result element and every error code.
template <typename Model>
DveCheck run_and_check(RtlDve<Model>& rtl, VectorEngine& golden, const std::vector<DveItem>& items,
                       uint64_t max_cycles) {
  DveCheck chk;
  const auto rep = rtl.run(items, golden, max_cycles);
  chk.cycles = rep.cycles;
  chk.first_out_cycle = rep.first_out_cycle;
  chk.errors = rep.errors;
  std::vector<std::pair<size_t, DveError>> want_errors;
  auto miss = [&](const std::string& what) {
    if (chk.mismatches++ == 0) chk.first_mismatch = what;
  };
  for (size_t i = 0; i < items.size(); ++i) {
    const DveCommand& c = items[i].cmd;
    const auto g = golden.execute(c, items[i].in0, items[i].in1);
    ++chk.commands;
    if (g.error != DveError::kNone) {
      want_errors.emplace_back(i, g.error);
      continue;
    }
    for (uint32_t p = 0; p < golden.partitions(); ++p) {
      for (size_t k = 0; k < g.out[p].size(); ++k) {
        ++chk.elements;
        const uint32_t got = rep.outs[i][p][k], want = g.out[p][k];
        if (got != want) {
          const uint32_t a = k < items[i].in0[p].size() ? items[i].in0[p][k] : 0;
          const uint32_t b = k < items[i].in1[p].size() ? items[i].in1[p][k] : 0;
          miss(fmt::format("command {} {} alu {}/{} dt {}->{} (in1 {}) {} n {}: partition {} beat {}: rtl {:08X} golden {:08X} "
                           "(in0 {:08X} in1 {:08X} imm {:08X}/{:08X})",
                           i, dve_op_name(c.op), dve_alu_name(c.alu0), dve_alu_name(c.alu1), dtype_name(c.in0),
                           dtype_name(c.out), dtype_name(c.in1), c.rounding == Rounding::kStochastic ? "sr" : "rne",
                           c.n, p, k, got, want, a, b, c.imm0, c.imm1));
        }
      }
    }
  }
  if (want_errors != rep.errors) {
    miss(fmt::format("error reports differ: rtl {} errors, golden {} (first golden: command {} code {})",
                     rep.errors.size(), want_errors.size(), want_errors.empty() ? 0 : want_errors[0].first,
                     want_errors.empty() ? "-" : dve_error_name(want_errors[0].second)));
  }
  return chk;
}

}  // namespace tern::tb
