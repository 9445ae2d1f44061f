// Random Tensor Engine programs and their check against the golden model: shared by the block
// tests, the waveform regression and the benchmark.
#pragma once

#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "random_operands.h"
#include "tensor_unit.h"

namespace tern::tb {

constexpr Dtype kPeDtypes[] = {Dtype::kBf16,    Dtype::kFp16, Dtype::kFp8E4M3,
                               Dtype::kFp8E5M2, Dtype::kTf32, Dtype::kFp32};

// A moving dtype for a stationary one: legal (is_pe_pair) except now and then.
inline Dtype random_moving_dtype(Dtype stationary, std::mt19937_64& rng) {
  for (int i = 0; i < 32; ++i) {
    const Dtype t = kPeDtypes[rng() % 6];
    if (is_pe_pair(stationary, t) || rng() % 20 == 0) return t;
  }
  return stationary;
}

struct ProgramShape {
  uint32_t max_n = 8;         // moving size cap for most matmuls (full 512 appears at the edges)
  bool errors = true;         // sprinkle illegal commands
  bool transposes = true;
  uint32_t banks = 0;         // PSUM banks the program may use (0: all)
};

// A random program of `matmuls` MultiplyMovings with their LoadStationarys, accumulate chains,
// transposes and (optionally) illegal commands.
inline std::vector<PeOpItem> random_program(const CoreConfig& cfg, uint32_t matmuls,
                                            std::mt19937_64& rng, const ProgramShape& shape = {}) {
  const uint32_t entries = cfg.psum_bank_bytes / 4;
  std::vector<PeOpItem> ops;
  uint32_t k = 0, m = 0;
  Dtype ls_dtype = Dtype::kBf16;
  for (uint32_t i = 0; i < matmuls; ++i) {
    if (k == 0 || rng() % 3 == 0) {  // a new stationary tile
      PeCommand ls;
      ls.op = PeOp::kLoadStationary;
      ls.dtype = ls_dtype = kPeDtypes[rng() % 6];
      ls.k = k = random_size(cfg.pe_rows, rng);
      ls.m = m = random_size(cfg.pe_cols, rng);
      ops.push_back({ls, random_tile(ls.dtype, k, m, rng)});
    }
    if (shape.errors && rng() % 25 == 0) {  // an illegal command: rejected, nothing changes
      PeCommand bad;
      switch (rng() % 6) {
        case 0: bad = {PeOp::kLoadStationary, Dtype::kBf16, cfg.pe_rows + 1, 1}; break;
        case 1: bad = {PeOp::kLoadStationary, Dtype::kBf16, 1, cfg.pe_cols + 1}; break;
        case 2: bad = {PeOp::kMultiplyMoving, Dtype::kBf16, 0, 0, entries + 1}; break;
        case 3: bad = {PeOp::kMultiplyMoving, Dtype::kBf16, 0, 0, 1, cfg.psum_banks}; break;
        case 4: bad = {PeOp::kMultiplyMoving, Dtype::kInt8, 0, 0, 1}; break;
        default: bad = {PeOp::kReserved}; break;
      }
      ops.push_back({bad, {}});
    }
    PeCommand mm;
    mm.bank = static_cast<uint32_t>(rng() % (shape.banks ? shape.banks : cfg.psum_banks));
    if (shape.transposes && rng() % 20 == 0 && k <= entries) {
      mm.op = PeOp::kTranspose;
      mm.offset = static_cast<uint32_t>(rng() % (entries - k + 1));
      ops.push_back({mm, {}});
      continue;
    }
    mm.op = PeOp::kMultiplyMoving;
    mm.dtype = random_moving_dtype(ls_dtype, rng);
    mm.n = rng() % 50 == 0 ? random_size(entries, rng) : random_size(std::min(shape.max_n, entries), rng);
    // Accumulation groups: a few offsets reused, so chains of += build up.
    mm.offset = static_cast<uint32_t>((rng() % 4) * 4 % (entries - mm.n + 1));
    mm.accumulate = rng() % 2;
    ops.push_back({mm, random_tile(mm.dtype, k, mm.n, rng)});
  }
  return ops;
}

struct CheckResult {
  uint64_t cycles = 0;
  uint64_t estimate = 0;
  uint64_t words_checked = 0;
  uint64_t mismatches = 0;
  std::string first_mismatch;
  uint64_t matmuls = 0;
  uint64_t macs = 0;  // useful multiply-accumulates
};

// Runs `ops` on the golden engine and on the RTL, then compares the reported errors and every
// PSUM word the program touched. Golden state carries over between calls.
template <typename Model>
CheckResult run_and_check(const CoreConfig& cfg, RtlTensorUnit<Model>& rtl, TensorEngine& golden,
                          Psum& golden_psum, const std::vector<PeOpItem>& ops, uint64_t max_cycles) {
  CheckResult res;
  std::vector<PeError> expected;
  std::vector<PeError> expected_reported;
  std::set<uint32_t> touched;
  const uint32_t entries = cfg.psum_bank_bytes / 4;
  std::vector<PeCommand> cmds;
  for (const PeOpItem& op : ops) {
    PeError e = PeError::kNone;
    switch (op.cmd.op) {
      case PeOp::kLoadStationary: e = golden.load_stationary(op.cmd, op.tile); break;
      case PeOp::kMultiplyMoving: {
        e = golden.multiply_moving(op.cmd, op.tile, golden_psum);
        if (e == PeError::kNone) {
          ++res.matmuls;
          res.macs += uint64_t{golden.loaded_k()} * golden.loaded_m() * op.cmd.n;  // fp32: 3 passes, counted once
          for (uint32_t n = 0; n < op.cmd.n; ++n) touched.insert(op.cmd.bank * entries + op.cmd.offset + n);
        }
        break;
      }
      case PeOp::kTranspose:
        e = golden.transpose(op.cmd, golden_psum);
        if (e == PeError::kNone) {
          for (uint32_t k = 0; k < golden.loaded_k(); ++k) touched.insert(op.cmd.bank * entries + op.cmd.offset + k);
        }
        break;
      default: e = golden.check(op.cmd); break;
    }
    expected.push_back(e);
    if (e != PeError::kNone) expected_reported.push_back(e);
    cmds.push_back(op.cmd);
  }
  const size_t errors_before = rtl.reported_errors().size();
  res.cycles = rtl.run(ops, expected, max_cycles);
  res.estimate = estimate_cycles(cmds, cfg);
  const std::vector<PeError> reported(rtl.reported_errors().begin() + static_cast<long>(errors_before),
                                      rtl.reported_errors().end());
  if (reported != expected_reported) {
    ++res.mismatches;
    res.first_mismatch = fmt::format("error reports differ: rtl {} golden {}", reported.size(), expected_reported.size());
  }
  for (uint32_t addr : touched) {
    const std::vector<uint32_t> row = rtl.read_psum(addr);
    for (uint32_t p = 0; p < cfg.partitions; ++p) {
      ++res.words_checked;
      const uint32_t want = golden_psum.read(p, addr);
      if (row[p] != want) {
        if (res.mismatches++ == 0) {
          res.first_mismatch = fmt::format("PSUM partition {} word {} (bank {}, offset {}): rtl {:08X} golden {:08X}",
                                           p, addr, addr / entries, addr % entries, row[p], want);
        }
      }
    }
  }
  return res;
}

}  // namespace tern::tb
