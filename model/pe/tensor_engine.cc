#include "pe/tensor_engine.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/error.h"
#include "numerics/mac_fold.h"
#include "numerics/numerics.h"

namespace tern {

const char* pe_error_name(PeError e) {
  switch (e) {
    case PeError::kNone: return "none";
    case PeError::kOpcode: return "reserved opcode";
    case PeError::kK: return "K out of range";
    case PeError::kM: return "M out of range";
    case PeError::kN: return "N out of range (offset + N past the bank)";
    case PeError::kBank: return "PSUM bank out of range";
    case PeError::kDtype: return "dtype is not a Tensor Engine input type";
    case PeError::kNoStationary: return "no stationary tile loaded";
  }
  return "unknown";
}

bool is_pe_dtype(Dtype t) { return is_mac_dtype(t) || t == Dtype::kFp32; }

bool is_pe_pair(Dtype stationary, Dtype moving) {
  if (!is_pe_dtype(stationary) || !is_pe_dtype(moving)) return false;
  const auto wide = [](Dtype t) { return t == Dtype::kFp32 || t == Dtype::kTf32; };
  return !(wide(stationary) || wide(moving)) || (wide(stationary) && wide(moving));
}

bool is_fp32_pass_pair(Dtype stationary, Dtype moving) {
  return stationary == Dtype::kFp32 || moving == Dtype::kFp32;
}

TensorEngine::TensorEngine(const CoreConfig& cfg) : cfg_(cfg) {}

PeError TensorEngine::check(const PeCommand& cmd) const {
  const uint32_t entries = cfg_.psum_bank_bytes / 4;
  switch (cmd.op) {
    case PeOp::kLoadStationary:
      if (cmd.k == 0 || cmd.k > cfg_.pe_rows) return PeError::kK;
      if (cmd.m == 0 || cmd.m > cfg_.pe_cols) return PeError::kM;
      if (!is_pe_dtype(cmd.dtype)) return PeError::kDtype;
      return PeError::kNone;
    case PeOp::kMultiplyMoving:
      if (!have_stat_) return PeError::kNoStationary;
      if (cmd.n == 0 || uint64_t{cmd.offset} + cmd.n > entries) return PeError::kN;
      if (cmd.bank >= cfg_.psum_banks) return PeError::kBank;
      if (!is_pe_pair(stat_dtype_, cmd.dtype)) return PeError::kDtype;
      return PeError::kNone;
    case PeOp::kTranspose:
      if (!have_stat_) return PeError::kNoStationary;
      if (uint64_t{cmd.offset} + stat_k_ > entries) return PeError::kN;
      if (cmd.bank >= cfg_.psum_banks) return PeError::kBank;
      return PeError::kNone;
    default:
      return PeError::kOpcode;
  }
}

PeError TensorEngine::load_stationary(const PeCommand& cmd, const Tile& stationary) {
  const PeError err = check(cmd);
  if (err != PeError::kNone) return err;
  if (stationary.size() != cmd.k || stationary[0].size() != cmd.m) {
    throw Error(fmt::format("load_stationary: tile is {}x{}, command says {}x{}", stationary.size(),
                            stationary.empty() ? 0 : stationary[0].size(), cmd.k, cmd.m));
  }
  have_stat_ = true;
  stat_dtype_ = cmd.dtype;
  stat_k_ = cmd.k;
  stat_m_ = cmd.m;
  stat_ = stationary;
  return PeError::kNone;
}

PeError TensorEngine::multiply_moving(const PeCommand& cmd, const Tile& moving, Psum& psum) {
  const PeError err = check(cmd);
  if (err != PeError::kNone) return err;
  if (moving.size() != stat_k_ || moving[0].size() != cmd.n) {
    throw Error(fmt::format("multiply_moving: tile is {}x{}, expected {}x{}", moving.size(),
                            moving.empty() ? 0 : moving[0].size(), stat_k_, cmd.n));
  }
  const uint32_t base = cmd.bank * psum.entries() + cmd.offset;
  if (!is_fp32_pass_pair(stat_dtype_, cmd.dtype)) {
    // Each output's fold starts from +0, k ascending: mac_fold, with the k values of one
    // stationary column and of one moving column side by side.
    std::vector<uint32_t> stat_cols(size_t(stat_m_) * stat_k_), moving_cols(size_t(cmd.n) * stat_k_);
    for (uint32_t k = 0; k < stat_k_; ++k) {
      for (uint32_t m = 0; m < stat_m_; ++m) stat_cols[size_t(m) * stat_k_ + k] = stat_[k][m];
      for (uint32_t n = 0; n < cmd.n; ++n) moving_cols[size_t(n) * stat_k_ + k] = moving[k][n];
    }
    MacOperands a, b;
    a.assign(stat_dtype_, stat_cols.data(), stat_cols.size());
    b.assign(cmd.dtype, moving_cols.data(), moving_cols.size());
    for (uint32_t m = 0; m < stat_m_; ++m)
      for (uint32_t n = 0; n < cmd.n; ++n)
        psum.accumulate(m, base + n, mac_fold(a, size_t(m) * stat_k_, b, size_t(n) * stat_k_, stat_k_),
                        cmd.accumulate);
    return PeError::kNone;
  }
  // fp32: the small cross terms first, then the main term; the product lo x lo is dropped.
  enum Part { kHi, kLo };
  const Part passes[3][2] = {{kLo, kHi}, {kHi, kLo}, {kHi, kHi}};
  const auto part = [](Part p, Dtype t, uint32_t x) { return p == kHi ? fp32_hi(t, x) : fp32_lo(t, x); };
  for (int pass = 0; pass < 3; ++pass) {
    for (uint32_t m = 0; m < stat_m_; ++m) {
      for (uint32_t n = 0; n < cmd.n; ++n) {
        uint32_t acc = 0;
        for (uint32_t k = 0; k < stat_k_; ++k) {
          acc = mac_step_exact(acc, part(passes[pass][0], stat_dtype_, stat_[k][m]),
                               part(passes[pass][1], cmd.dtype, moving[k][n]));
        }
        psum.accumulate(m, base + n, acc, pass == 0 ? cmd.accumulate : true);
      }
    }
  }
  return PeError::kNone;
}

PeError TensorEngine::transpose(const PeCommand& cmd, Psum& psum) {
  const PeError err = check(cmd);
  if (err != PeError::kNone) return err;
  const uint32_t base = cmd.bank * psum.entries() + cmd.offset;
  for (uint32_t m = 0; m < stat_m_; ++m) {
    for (uint32_t k = 0; k < stat_k_; ++k) psum.write(m, base + k, stat_[k][m]);
  }
  return PeError::kNone;
}

namespace {

// The issue cycles of one command's vectors (docs/tensor-engine.md "Timing"): one a cycle from
// a + 1, except that a vector adding to a PSUM address waits until kPsumAccLatency + 1 cycles
// have passed since that address's last vector, so it reads the landed sum. Returns the cycle
// of the last vector.
int64_t issue_vectors(int64_t a, int64_t n, uint32_t per_pass, uint32_t base, bool accumulate,
                      std::vector<int64_t>& last_issue) {
  const int64_t gap = int64_t{kPsumAccLatency} + 1;
  int64_t c = a;
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t addr = base + static_cast<uint32_t>(i % per_pass);
    c += 1;
    if (accumulate || i >= per_pass) c = std::max(c, last_issue[addr] + gap);
    last_issue[addr] = c;
  }
  return c;
}

}  // namespace

uint64_t estimate_cycles(const std::vector<PeCommand>& cmds, const CoreConfig& cfg) {
  // Cycle numbers count from 0, the cycle the first command is offered. A command is accepted
  // in cycle a and the next is offered in a + 1. See docs/tensor-engine.md, "Timing".
  // A command's last result lands in PSUM pe_result_latency cycles after its last vector's
  // issue (the mesh's drain, the columns' skew, PSUM's accumulate).
  const uint32_t entries = cfg.psum_bank_bytes / 4;
  TensorEngine checker(cfg);
  int64_t t = 0;
  int64_t end = 0;
  int64_t ls_last_write = -1;              // the loader takes a new tile in its last write cycle
  int64_t mm_last_issue = -1;              // the issuer takes a new command in its last issue cycle
  int64_t buf_done[2] = {-1, -1};          // last column write of each buffer's tile
  int64_t free_at[2] = {0, 0};             // first cycle a load may be accepted into a buffer
  uint32_t buf_k[2] = {0, 0};
  Dtype buf_dtype[2] = {Dtype::kBf16, Dtype::kBf16};
  std::vector<int64_t> last_issue(size_t{cfg.psum_banks} * entries, INT64_MIN / 2);
  bool have = false;
  int cur = 0;
  for (const PeCommand& c : cmds) {
    const PeError err = checker.check(c);
    if (err != PeError::kNone) {
      end = std::max(end, t + 1);
      t += 1;  // rejected at once
      continue;
    }
    if (c.op == PeOp::kLoadStationary) {
      const int nb = have ? 1 - cur : 0;
      const int64_t a = std::max({t, ls_last_write, free_at[nb]});
      ls_last_write = a + c.m;
      buf_done[nb] = a + c.m;
      buf_k[nb] = c.k;
      buf_dtype[nb] = c.dtype;
      cur = nb;
      have = true;
      Tile dummy(c.k, std::vector<uint32_t>(c.m, 0));
      checker.load_stationary(c, dummy);
      end = std::max(end, a + c.m + 1);
      t = a + 1;
    } else {
      const bool transpose = c.op == PeOp::kTranspose;
      const uint32_t per_pass = transpose ? buf_k[cur] : c.n;
      const int64_t n = !transpose && is_fp32_pass_pair(buf_dtype[cur], c.dtype) ? 3 * int64_t{c.n}
                                                                                  : per_pass;
      const int64_t a = std::max({t, mm_last_issue, buf_done[cur]});
      const int64_t last = issue_vectors(a, n, per_pass, c.bank * entries + c.offset,
                                         !transpose && c.accumulate, last_issue);
      mm_last_issue = last;
      free_at[cur] = last;  // loads follow the vectors down the rows: from the last issue on
      end = std::max(end, last + int64_t(pe_result_latency(cfg)));
      t = a + 1;
    }
  }
  return static_cast<uint64_t>(end);
}

}  // namespace tern
