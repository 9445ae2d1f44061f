// Golden Tensor Engine (docs/tensor-engine.md): the same commands as rtl/pe/tern_pe_engine.sv,
// the same accumulation order, bit-exact; and a cycle estimate for a command sequence.
#pragma once

#include <cstdint>
#include <vector>

#include "common/config.h"
#include "pe/pe_types.h"
#include "psum/psum.h"

namespace tern {

// A tile of raw element bits, tile[row][col], each element in the low bits of a 32-bit lane.
using Tile = std::vector<std::vector<uint32_t>>;

// Legal stationary x moving dtype pairs: bf16, fp16, fp8e4m3, fp8e5m2 and tf32 mix freely,
// except that fp32 and tf32 pair only with fp32 or tf32.
bool is_pe_dtype(Dtype t);
bool is_pe_pair(Dtype stationary, Dtype moving);
// An fp32 matmul (either operand fp32) runs as three passes over the moving tile.
bool is_fp32_pass_pair(Dtype stationary, Dtype moving);

class TensorEngine {
 public:
  explicit TensorEngine(const CoreConfig& cfg);

  // The error a command would raise, in the RTL's order of checks; kNone if it is legal.
  PeError check(const PeCommand& cmd) const;

  // Each executes one command and returns its error; a rejected command changes nothing.
  // LoadStationary: `stationary` is K x M. MultiplyMoving: `moving` is K x N (K of the loaded
  // tile). out[m][n] = fold over k = 0..K-1 of mac_step from +0, then written or added to
  // PSUM[m][bank * entries + offset + n]. With fp32, three such passes (lo x hi, hi x lo,
  // hi x hi), the first written or added as the command says, the others added.
  // Transpose: PSUM[m][... + offset + k] = stat[k][m].
  PeError load_stationary(const PeCommand& cmd, const Tile& stationary);
  PeError multiply_moving(const PeCommand& cmd, const Tile& moving, Psum& psum);
  PeError transpose(const PeCommand& cmd, Psum& psum);

  uint32_t loaded_k() const { return stat_k_; }
  uint32_t loaded_m() const { return stat_m_; }
  Dtype loaded_dtype() const { return stat_dtype_; }

 private:
  CoreConfig cfg_;
  bool have_stat_ = false;
  Dtype stat_dtype_ = Dtype::kBf16;
  uint32_t stat_k_ = 0;
  uint32_t stat_m_ = 0;
  Tile stat_;
};

// Cycles from the first command's acceptance until the engine is idle, when both operand
// streams deliver one vector per cycle and commands are always offered: the timing rules of
// docs/tensor-engine.md, which the RTL's measured cycles are compared with.
uint64_t estimate_cycles(const std::vector<PeCommand>& cmds, const CoreConfig& cfg);
// The cycles from a vector's issue until its column's sum leaves the mesh (rows' accumulate
// steps and the product steps), and until the last column's result lands in PSUM.
inline uint64_t pe_mesh_drain(const CoreConfig& cfg) {
  return uint64_t(cfg.pe_rows) * kPeAccSteps + kPeProductSteps;
}
inline uint64_t pe_result_latency(const CoreConfig& cfg) {
  return pe_mesh_drain(cfg) + cfg.pe_cols + 1 + kPsumAccLatency;
}

}  // namespace tern
