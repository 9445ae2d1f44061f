// Random Scalar Engine programs and their check against the golden model: shared by the block
// tests, the waveform regression and the benchmark.
#pragma once

#include <random>
#include <string>
#include <vector>

#include "act_unit.h"
#include "random_operands.h"

namespace tern::tb {

constexpr Dtype kActDtypes[] = {Dtype::kFp32,    Dtype::kTf32,    Dtype::kBf16,
                                Dtype::kFp16,    Dtype::kFp8E4M3, Dtype::kFp8E5M2};

// An fp32 input for the functions: mostly magnitudes in [2^-12, 2^7] (where the functions
// bend), sometimes any pattern (subnormals, Inf, NaN, huge values), sometimes exact zeros.
inline uint32_t random_act_fp32(std::mt19937_64& rng) {
  const auto r = static_cast<uint32_t>(rng());
  switch (rng() % 16) {
    case 0: return r;
    case 1: return r & 0x80000000u;
    default: return (r & 0x807FFFFFu) | static_cast<uint32_t>(115 + rng() % 20) << 23;
  }
}

// An element of dtype t: an fp32 from random_act_fp32 rounded down to t's width, or any pattern.
inline uint32_t random_act_element(Dtype t, std::mt19937_64& rng) {
  if (t == Dtype::kFp32) return random_act_fp32(rng);
  if (rng() % 8 == 0) return random_element(t, rng);
  return convert_from_fp32(t, random_act_fp32(rng), {Rounding::kNearestEven, true}, 0);
}

// A random command with its input tile; now and then an illegal one.
inline ActOp random_act_op(uint32_t partitions, uint32_t max_n, std::mt19937_64& rng) {
  ActOp op;
  act::ActCommand& c = op.cmd;
  c.func = static_cast<uint8_t>(rng() % act::kNumActFuncs);
  c.in_dtype = static_cast<uint8_t>(kActDtypes[rng() % 6]);
  c.out_dtype = static_cast<uint8_t>(kActDtypes[rng() % 6]);
  c.rounding = rng() % 2 ? Rounding::kStochastic : Rounding::kNearestEven;
  c.n = random_size(max_n, rng);
  c.scale_per_partition = rng() % 3 == 0;
  c.bias_per_partition = rng() % 3 == 0;
  c.scale = rng() % 2 ? 0x3F800000u : random_act_fp32(rng);
  c.bias = rng() % 2 ? 0u : random_act_fp32(rng);
  c.reduce_op = static_cast<uint8_t>(rng() % 2);
  c.reduce_cmd = static_cast<uint8_t>(rng() % 5);
  for (uint32_t p = 0; p < partitions; ++p) {
    c.scale_vec.push_back(rng() % 4 ? random_act_fp32(rng) : 0x3F800000u);
    c.bias_vec.push_back(random_act_fp32(rng));
    c.acc_load.push_back(random_act_fp32(rng));
  }
  switch (rng() % 64) {  // an illegal field now and then
    case 0: c.func = static_cast<uint8_t>(act::kNumActFuncs + rng() % (32 - act::kNumActFuncs)); break;
    case 1: c.in_dtype = static_cast<uint8_t>(6 + rng() % 10); break;
    case 2: c.out_dtype = static_cast<uint8_t>(6 + rng() % 10); break;
    case 3: c.n = 0; break;
    case 4: c.reduce_cmd = static_cast<uint8_t>(5 + rng() % 3); break;
    default: break;
  }
  const Dtype in_t = c.in_dtype < kNumDtypes && is_float(static_cast<Dtype>(c.in_dtype))
                         ? static_cast<Dtype>(c.in_dtype) : Dtype::kFp32;
  op.in.assign(partitions, std::vector<uint32_t>(c.n));
  for (auto& row : op.in) {
    for (auto& e : row) e = random_act_element(in_t, rng);
  }
  return op;
}

struct ActCheck {
  uint64_t commands = 0;
  uint64_t rejected = 0;
  uint64_t elements = 0;  // per lane
  uint64_t cycles = 0;
  std::vector<std::string> mismatches;  // the first few, in words
  uint64_t mismatch_count = 0;
};

// Runs `ops` on the RTL and on the golden engine (both seeded with sr_seed) and compares every
// output element, every accumulator after the run, and the reported error codes.
template <typename Model>
ActCheck run_and_check_act(RtlActUnit<Model>& rtl, act::ScalarEngine& golden, const std::vector<ActOp>& ops,
                           uint64_t max_cycles) {
  ActCheck r;
  auto bad = [&](std::string what) {
    if (r.mismatches.size() < 10) r.mismatches.push_back(std::move(what));
    ++r.mismatch_count;
  };
  std::vector<act::ActError> expected(ops.size());
  std::vector<act::ActTile> want(ops.size());
  std::vector<act::ActError> want_errors;
  for (size_t i = 0; i < ops.size(); ++i) {
    expected[i] = golden.run(ops[i].cmd, ops[i].in, want[i]);
    if (expected[i] != act::ActError::kNone) {
      want_errors.push_back(expected[i]);
      ++r.rejected;
    } else {
      r.elements += ops[i].cmd.n;
    }
  }
  const size_t errors_before = rtl.reported_errors().size();
  r.cycles = rtl.run(ops, expected, max_cycles);
  r.commands = ops.size();
  const std::vector<act::ActError> got_errors(rtl.reported_errors().begin() + static_cast<long>(errors_before),
                                              rtl.reported_errors().end());
  if (got_errors != want_errors) bad(fmt::format("{} errors reported, {} expected", got_errors.size(), want_errors.size()));
  for (size_t i = 0; i < ops.size(); ++i) {
    const act::ActTile& got = rtl.outputs()[i];
    if (got.size() != want[i].size()) {
      bad(fmt::format("command {}: {} result rows, want {}", i, got.size(), want[i].size()));
      continue;
    }
    for (size_t p = 0; p < got.size(); ++p) {
      for (size_t j = 0; j < got[p].size() && j < want[i][p].size(); ++j) {
        if (got[p][j] != want[i][p][j]) {
          const auto& c = ops[i].cmd;
          bad(fmt::format("command {} ({} {}->{}) lane {} element {}: in {:#x}, rtl {:#x}, golden {:#x}", i,
                          act::act_func_name(static_cast<act::ActFunc>(c.func)), c.in_dtype, c.out_dtype, p, j,
                          ops[i].in[p][j], got[p][j], want[i][p][j]));
        }
      }
      if (got[p].size() != want[i][p].size()) bad(fmt::format("command {} lane {}: result count differs", i, p));
    }
  }
  const std::vector<uint32_t> acc = rtl.accumulators();
  for (size_t p = 0; p < acc.size(); ++p) {
    if (acc[p] != golden.accumulators()[p]) {
      bad(fmt::format("accumulator {}: rtl {:#x}, golden {:#x}", p, acc[p], golden.accumulators()[p]));
    }
  }
  return r;
}

}  // namespace tern::tb
