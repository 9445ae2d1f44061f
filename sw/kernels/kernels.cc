// Reference kernels. Each builder is what a user would write; each reference is plain fp64
// C++ over the exact input values. Tolerances are derived in docs/kernels.md.
#include "kernels/kernels.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <random>
#include <sstream>

#include "common/error.h"
#include "common/parse.h"
#include "numerics/numerics.h"

namespace tern::kernels {

using kernel::ActArgs;
using kernel::DveArgs;
using kernel::HbmView;
using kernel::Index;
using kernel::Kernel;
using kernel::Tile;
using kernel::tile_loop;
using kernel::View;
using kernel::window;

namespace {

constexpr double kU = 1.0 / 16777216.0;  // 2^-24, the fp32 unit roundoff
const uint32_t kNegInf = 0xFF800000u;

double value(Dtype t, uint32_t bits) {
  const uint32_t f = convert_to_fp32(t, bits);
  float x;
  std::memcpy(&x, &f, 4);
  return x;
}

TensorBits random_tensor(size_t n, Dtype t, double lo, double hi, std::mt19937& rng) {
  std::uniform_real_distribution<float> d{float(lo), float(hi)};
  TensorBits v(n);
  for (auto& x : v) x = convert_from_fp32(t, kernel::fbits(d(rng)), {}, 0);
  return v;
}

std::vector<double> values(const TensorBits& bits, Dtype t) {
  std::vector<double> v(bits.size());
  for (size_t i = 0; i < v.size(); ++i) v[i] = value(t, bits[i]);
  return v;
}

// Compares an output (fp32 unless `dtype` says otherwise) with its reference under a
// per-element tolerance.
CheckResult compare(const std::string& name, const TensorBits& got, uint32_t cols,
                    const std::function<std::pair<double, double>(size_t)>& ref_tol,
                    Dtype dtype = Dtype::kFp32) {
  CheckResult r;
  r.elements = got.size();
  for (size_t i = 0; i < got.size(); ++i) {
    const auto [ref, tol] = ref_tol(i);
    const double g = value(dtype, got[i]);
    const double err = std::fabs(g - ref);
    const double ratio = tol > 0 ? err / tol : (err == 0 ? 0 : INFINITY);
    if (!(ratio <= 1.0)) {
      if (r.failures++ == 0)
        r.first_failure = fmt::format("{}[{}][{}] = {:.9g}, reference {:.9g}, |error| {:.3g} > "
                                      "tolerance {:.3g}", name, i / cols, i % cols, g, ref, err, tol);
    }
    if (std::isfinite(ratio)) r.worst = std::max(r.worst, ratio);
    else r.worst = INFINITY;
  }
  return r;
}

// Runs body(j, size) over the slices j = first, first + 1, .. of [0, total) cut every `tile`:
// a hardware loop over the full slices, `unroll` of them an iteration, then the full slices
// left and the remainder slice as straight-line code.
void slice_loop(Kernel& k, uint32_t first, uint32_t total, uint32_t tile,
                const std::function<void(Index, uint32_t)>& body, uint32_t unroll = 1) {
  const uint64_t begin = uint64_t(first) * tile;
  if (begin >= total) return;
  const uint32_t full = uint32_t((total - begin) / tile), rest = uint32_t((total - begin) % tile);
  const uint32_t looped = full / unroll * unroll;
  if (looped > 0) {
    k.loop(looped / unroll, [&](Index i) {
      for (uint32_t u = 0; u < unroll; ++u) body(Index(first + u) + i * int64_t(unroll), tile);
    });
  }
  for (uint32_t j = first + looped; j < first + full; ++j) body(Index(j), tile);
  if (rest > 0) body(Index(first + full), rest);
}

// out = exp(in + bias[p]) (bias per partition), sums[p] = the sum of each row's results.
void exp_with_row_sums(Kernel& k, const View& out, const View& in, const View& bias,
                       const View& sums) {
  ActArgs exp;
  exp.func = act::ActFunc::kExp;
  exp.bias_vec = bias;
  exp.reduce = act::ReduceCmd::kResetReduce;
  exp.acc_out = sums;
  k.activation(out, in, exp);
}

void act_function(Kernel& k, const View& out, const View& in, act::ActFunc f) {
  ActArgs a;
  a.func = f;
  k.activation(out, in, a);
}

// out = in * s[p], s one value per partition.
void scale_rows(Kernel& k, const View& out, const View& in, const View& s) {
  DveArgs mul;
  mul.alu0 = DveAlu::kMultiply;
  mul.s0_vec = s;
  k.tensor_scalar(out, in, mul);
}

// out (SBUF, bf16, c x r) = in^T for in (SBUF, bf16, r x c): through the PE array into PSUM, then
// back as bf16 on POOL (a Vector Engine of its own, so DVE's work runs alongside). A transposing
// DMA would move one element per AXI burst instead.
void transpose_bf16(Kernel& k, const View& out, const View& in, kernel::PoolRef& psum) {
  const Tile tp = psum.tile(in.ncols, in.np, Dtype::kFp32, "transpose_psum");
  k.pe_transpose(k.all(tp), in);
  k.vector_op(isa::Opcode::kTensorCopy, out, k.low_bits(k.all(tp), Dtype::kBf16), std::nullopt, {},
              isa::Seq::kPool);
}

// Runs copy(p, n) over `rows` partitions cut into `pieces` consecutive ranges [p, p + n). Each
// dma_copy call takes the next DMA engine, and an engine moves one transfer at a time, so on a
// config with many engines the pieces run side by side (a call inside a hardware loop keeps its
// engine every iteration: splitting is how a loop's copies use more than one).
void for_each_piece(uint32_t rows, uint32_t pieces,
                    const std::function<void(uint32_t, uint32_t)>& copy) {
  const uint32_t per = (rows + pieces - 1) / pieces;
  for (uint32_t p = 0; p < rows; p += per) copy(p, std::min(per, rows - p));
}

void load_spread(Kernel& k, const Tile& dst, Index dst_col0, const kernel::HbmTensor& src,
                 Index row0, Index src_col0, uint32_t rows, uint32_t cols, uint32_t pieces) {
  for_each_piece(rows, pieces, [&](uint32_t p, uint32_t n) {
    k.dma_copy(k.sub(dst, p, n, dst_col0, cols), window(src, row0 + p, src_col0, n, cols));
  });
}

// The pieces for the big copies of a kernel: one per four DMA engines (4 on trn2, 1 on small).
uint32_t copy_pieces(const CoreConfig& cfg) { return std::max(1u, cfg.dma_engines / 4); }

// c[m0 .., n0 ..] = the PSUM accumulator acc (mm x nn), through an SBUF tile of `pool` (the
// copy out rounds to C's dtype).
void store_result(Kernel& k, kernel::PoolRef& pool, const kernel::HbmTensor& C, Index m0,
                  Index n0, const Tile& acc, uint32_t mm, uint32_t nn, uint32_t pieces = 1) {
  const Tile c = pool.tile(mm, nn, C.dtype, "c");
  k.tensor_copy(k.all(c), k.all(acc));
  for_each_piece(mm, pieces, [&](uint32_t p, uint32_t n) {
    k.dma_copy(window(C, m0 + p, n0, n, nn), k.sub(c, p, n, 0, nn));
  });
}

// The moving tile of k slice j, columns [n0, n0 + nn): in b_all when b is resident, else
// loaded from B into a tile of `pool` in `pieces` transfers (ranges of partitions).
View moving_slice(Kernel& k, const std::optional<Tile>& b_all, kernel::PoolRef& pool,
                  const kernel::HbmTensor& B, Index j, uint32_t tk, uint32_t kk, Index n0,
                  uint32_t nn, uint32_t pieces = 1) {
  if (b_all) return k.sub(*b_all, 0, kk, j * B.cols + n0, nn);
  const Tile b = pool.tile(kk, nn, B.dtype, "b");
  load_spread(k, b, Index(0), B, j * tk, n0, kk, nn, pieces);
  return k.all(b);
}

// Random operands of a GEMM (bf16 unless `in` says): `first` (rows x cols) and b (k x n).
Tensors gemm_operands(const Shape& s, uint32_t seed, const std::string& first, uint32_t rows,
                      uint32_t cols, Dtype in = Dtype::kBf16) {
  std::mt19937 rng(seed);
  return {{first, random_tensor(size_t(rows) * cols, in, -2, 2, rng)},
          {"b", random_tensor(size_t(s.at("k")) * s.at("n"), in, -2, 2, rng)}};
}

// gemm for a K too long to keep a^T per m tile: every (m, n) tile runs its k steps with a's
// slice loaded and transposed in the step, b's slice streamed.
void build_gemm_k_stream(Kernel& k, const kernel::HbmTensor& A, const kernel::HbmTensor& B,
                         const kernel::HbmTensor& C, uint32_t t, uint32_t tn) {
  const uint32_t M = A.rows, K = A.cols, N = B.cols;
  auto a_pool = k.sbuf_pool("a", 2), at_pool = k.sbuf_pool("a_t", 2);
  auto b_pool = k.sbuf_pool("b", 2), c_pool = k.sbuf_pool("c", 2);
  auto tp_pool = k.psum_pool("a_t_psum", 2), acc_pool = k.psum_pool("acc", 2);
  tile_loop(k, 0, M, t, [&](Index m0, uint32_t mm) {
    tile_loop(k, 0, N, tn, [&](Index n0, uint32_t nn) {
      const Tile acc = acc_pool.tile(mm, nn, Dtype::kFp32, "acc");
      auto step = [&](Index j, uint32_t kk, bool accumulate) {
        const Tile a = a_pool.tile(mm, t, Dtype::kBf16, "a");
        k.dma_copy(k.sub(a, 0, mm, 0, kk), window(A, m0, j * t, mm, kk));
        const Tile at = at_pool.tile(t, t, Dtype::kBf16, "a_t");
        transpose_bf16(k, k.sub(at, 0, kk, 0, mm), k.sub(a, 0, mm, 0, kk), tp_pool);
        const View moving = moving_slice(k, std::nullopt, b_pool, B, j, t, kk, n0, nn);
        k.matmul(k.all(acc), k.sub(at, 0, kk, 0, mm), moving, accumulate);
      };
      step(0, std::min(K, t), false);
      slice_loop(k, 1, K, t, [&](Index j, uint32_t kk) { step(j, kk, true); });
      store_result(k, c_pool, C, m0, n0, acc, mm, nn);
    });
  });
}

// --- gemm: c[M,N] = a[M,K] @ b[K,N], bf16 in, fp32 out ---------------------------------------
// The stationary operand wants k on partitions (a^T), but a transposing DMA moves one element
// per AXI burst (docs/performance.md). So per m tile, a's rows load contiguously and turn into
// a^T slices on the Tensor Engine, kept for every n tile; b stays resident when it fits in a
// quarter of SBUF, else each k step loads its slice once for a block of m tiles (as many as
// PSUM holds accumulators for beside the transposes), so b moves once per block.
void build_gemm(Kernel& k, const Shape& s) {
  const CoreConfig& cfg = k.config();
  const uint32_t M = s.at("m"), K = s.at("k"), N = s.at("n");
  const auto& A = k.input("a", M, K, Dtype::kBf16);
  const auto& B = k.input("b", K, N, Dtype::kBf16);
  const auto& C = k.output("c", M, N, Dtype::kFp32);
  // Square tiles: a slice [tm, tk] transposes through the array into [tk, tm].
  const uint32_t t = std::min({cfg.partitions, cfg.pe_rows, cfg.pe_cols}), tn = cfg.moving_max_n();
  const uint32_t kt = (K + t - 1) / t, mt = (M + t - 1) / t;
  using kernel::sbuf_slot_bytes;
  // PSUM banks: the accumulators of a block (and one more, so the next n tile starts while this
  // one's results are copied out) beside two transposes; a PSUM slot is whole banks.
  const uint64_t acc_banks = kernel::psum_slot_banks(uint64_t(std::min(tn, N)) * 4, cfg.psum_bank_bytes);
  const uint64_t tp_banks = kernel::psum_slot_banks(uint64_t(t) * 4, cfg.psum_bank_bytes);
  // SBUF per partition: b when resident, a's rows (two m tiles) and a^T for all of K (two per
  // block m tile), b's slices when streamed, the results. When that does not fit, b streams, then
  // the block shrinks; then a streams too, a slice per k step, transposed again for every n tile
  // (a long K on a narrow SBUF).
  bool b_resident = uint64_t(kt) * N * 2 <= cfg.sbuf_partition_bytes / 4;
  uint32_t block = 1;
  const auto sbuf = [&] {
    return (b_resident ? sbuf_slot_bytes(uint64_t(kt) * N * 2) : 2 * sbuf_slot_bytes(uint64_t(tn) * 2)) +
           2 * sbuf_slot_bytes(uint64_t(K) * 2) + 2 * block * sbuf_slot_bytes(uint64_t(kt) * t * 2) +
           2 * sbuf_slot_bytes(uint64_t(tn) * 4);
  };
  if (sbuf() > cfg.sbuf_partition_bytes) b_resident = false;
  if (!b_resident) {
    const uint64_t accs = (cfg.psum_banks - std::min<uint64_t>(cfg.psum_banks, 2 * tp_banks)) / acc_banks;
    block = uint32_t(std::clamp<uint64_t>(accs > 1 ? accs - 1 : 1, 1, mt));
    while (block > 1 && sbuf() > cfg.sbuf_partition_bytes) block /= 2;
  }
  if (sbuf() > cfg.sbuf_partition_bytes) return build_gemm_k_stream(k, A, B, C, t, tn);
  auto b_all_pool = k.sbuf_pool("b_all", 1), a_pool = k.sbuf_pool("a", 2);
  auto at_pool = k.sbuf_pool("a_t", 2 * block), b_pool = k.sbuf_pool("b", 2), c_pool = k.sbuf_pool("c", 2);
  auto tp_pool = k.psum_pool("a_t_psum", 2), acc_pool = k.psum_pool("acc", block + 1);
  std::optional<Tile> b_all;  // k slice j at columns [j N, j N + N)
  if (b_resident) {
    b_all = b_all_pool.tile(t, kt * N, Dtype::kBf16, "b_all");
    slice_loop(k, 0, K, t, [&](Index j, uint32_t kk) {
      k.dma_copy(k.sub(*b_all, 0, kk, j * N, N), window(B, j * t, 0, kk, N));
    });
  }
  // A block of m tiles: each one's a^T for all of K, then per n tile every k step's slice of b
  // serves the whole block.
  auto m_block = [&](const std::vector<std::pair<Index, uint32_t>>& ms) {
    std::vector<Tile> ats;
    for (const auto& [m0, mm] : ms) {
      const Tile a = a_pool.tile(mm, K, Dtype::kBf16, "a");
      k.dma_copy(k.all(a), window(A, m0, 0, mm, K));
      ats.push_back(at_pool.tile(t, kt * t, Dtype::kBf16, "a_t"));  // slice j at columns j t
      const Tile& at = ats.back();
      slice_loop(k, 0, K, t, [&, mm = mm](Index j, uint32_t kk) {
        transpose_bf16(k, k.sub(at, 0, kk, j * t, mm), k.sub(a, 0, mm, j * t, kk), tp_pool);
      });
    }
    tile_loop(k, 0, N, tn, [&](Index n0, uint32_t nn) {
      std::vector<Tile> accs;
      for (const auto& m : ms) accs.push_back(acc_pool.tile(m.second, nn, Dtype::kFp32, "acc"));
      auto step = [&](Index j, uint32_t kk, bool accumulate) {
        const View moving = moving_slice(k, b_all, b_pool, B, j, t, kk, n0, nn);
        for (size_t i = 0; i < ms.size(); ++i)
          k.matmul(k.all(accs[i]), k.sub(ats[i], 0, kk, j * t, ms[i].second), moving, accumulate);
      };
      step(0, std::min(K, t), false);
      slice_loop(k, 1, K, t, [&](Index j, uint32_t kk) { step(j, kk, true); });
      for (size_t i = 0; i < ms.size(); ++i) store_result(k, c_pool, C, ms[i].first, n0, accs[i], ms[i].second, nn);
    });
  };
  // Whole blocks in a hardware loop, then the rest (the last m tile perhaps short).
  const uint32_t rows = block * t, full = M / rows;
  if (full > 0) {
    k.loop(full, [&](Index i) {
      std::vector<std::pair<Index, uint32_t>> ms;
      for (uint32_t b = 0; b < block; ++b) ms.emplace_back(i * rows + Index(int64_t(b) * t), t);
      m_block(ms);
    });
  }
  std::vector<std::pair<Index, uint32_t>> rest;
  for (uint32_t m0 = full * rows; m0 < M; m0 += t) rest.emplace_back(Index(m0), std::min(t, M - m0));
  if (!rest.empty()) m_block(rest);
}

Tensors gemm_inputs(const Shape& s, uint32_t seed) {
  return gemm_operands(s, seed, "a", s.at("m"), s.at("k"));
}

CheckResult gemm_check(const Shape& s, const Tensors& in, const Tensors& out,
                       Dtype out_dtype = Dtype::kFp32, Dtype in_dtype = Dtype::kBf16) {
  const uint32_t K = s.at("k"), N = s.at("n");
  const auto a = values(in.at("a"), in_dtype), b = values(in.at("b"), in_dtype);
  // bf16 x bf16 (and fp8 x fp8) products are exact in fp32; K fp32 additions in any order err by at most
  // gamma_K * sum |a||b|, gamma_K = K u / (1 - K u). A bf16 result then rounds once more (RNE,
  // u_bf16 = 2^-8): |bf16(x) - ref| <= u_bf16 |x| + |x - ref| <= u_bf16 |ref| + (1 + u_bf16)
  // gamma_K sum |a||b|.
  const double gamma = K * kU / (1 - K * kU);
  const double out_u = out_dtype == Dtype::kBf16 ? std::ldexp(1.0, -8) : 0.0;
  std::vector<double> b_cols(b.size());  // b column by column: the k loop reads in order
  for (size_t kk = 0; kk < K; ++kk)
    for (size_t n = 0; n < N; ++n) b_cols[n * K + kk] = b[kk * N + n];
  return compare("c", out.at("c"), N, [&](size_t i) {
    const double* a_row = &a[i / N * K];
    const double* b_col = &b_cols[i % N * K];
    double ref = 0, mag = 0;
    for (uint32_t kk = 0; kk < K; ++kk) {
      ref += a_row[kk] * b_col[kk];
      mag += std::fabs(a_row[kk] * b_col[kk]);
    }
    return std::make_pair(ref, out_u * std::fabs(ref) + (1 + out_u) * gamma * mag + 1e-300);
  }, out_dtype);
}

// --- gemm_at: c[M,N] = a_t[K,M]^T @ b[K,N], bf16 in, fp32 out -------------------------------
// The stationary operand arrives with k on partitions, as NKI's matmul takes it (lhsT), so
// nothing is transposed. Per m tile, each k step loads its a_t slice as the stationary tile
// once and multiplies every n tile of a group with it: one LoadStationary per `group` moving
// tiles. A group's accumulators fill at most a quarter of PSUM, double-buffered, so the next
// group's matmuls run while this one's results are copied out.
// How gemm_at uses SBUF at a shape. Whole operands stay resident when each fits a quarter of
// SBUF (loaded per k slice with long rows, in the order the k steps use them, so the first step
// starts early); else a_t is kept per m tile for all of K, and b streams per k step, once per
// block of m tiles (the block's LoadStationary and matmuls share each slice of b, so b moves
// ceil(M tiles / block) times, not once per m tile). When the pools do not fit a partition (a
// long K, a narrow SBUF), the plan gives up, in order: lead block m tiles, b's residency,
// a_t's, then either a_t's whole-K tile (a_t streams per k step too, read once per n tile) or
// the block's m tiles (b read once more per extra block), whichever moves fewer bytes from HBM,
// and last the group's width.
constexpr uint32_t kLoopSteps = 8;  // k steps per iteration of gemm_at's k loop

struct GemmAtPlan {
  uint32_t tk = 0, tm = 0, tn = 0, kt = 0, nt = 0, mt = 0;
  uint32_t in_bytes = 2;    // bytes of an operand element (bf16 2, fp8 1)
  uint32_t group = 1;       // n tiles per LoadStationary
  bool b_resident = false, at_resident = false;
  bool at_stream = false;   // a_t loaded per k step, not kept per m tile for all of K
  uint32_t lead = 1;        // m tiles of the lead block (at_resident only)
  uint32_t block = 1;       // m tiles of a looped block (b streamed): one n tile at a time
  // The lead block takes one n tile at a time to hold the most m tiles; with one m tile, a
  // group (and its b slices in one transfer).
  uint32_t lead_group() const { return at_resident && lead > 1 ? 1 : group; }
  uint32_t block_group() const { return block > 1 ? 1 : group; }
  uint32_t accs() const {
    return std::max({(lead + 1) * lead_group(), 2 * group, (block + 1) * block_group()});
  }
  // a_t tiles of the blocks: a streamed slice double-buffered per block; a whole-K tile per m
  // tile, double-buffered across blocks when there is more than one.
  uint32_t at_bufs() const { return at_stream ? 2 * block : std::min(2 * block, mt); }
  // m tiles in the lead block (run before the looped blocks, while the operands arrive).
  uint32_t lead_tiles() const { return b_resident || at_resident ? std::min(lead, mt) : 0; }
  // Bytes moved from and to HBM: a_t once, or once per n tile when streamed per k step; b once
  // when resident, else once for the lead block and once per looped block.
  uint64_t hbm_bytes(uint32_t M, uint32_t K, uint32_t N, uint32_t out_bytes) const {
    const uint64_t at_reads = at_stream ? (nt + block_group() - 1) / block_group() : 1;
    const uint32_t rest = mt - lead_tiles();
    const uint64_t b_reads = b_resident ? 1 : (lead_tiles() > 0) + (rest + block - 1) / block;
    return (uint64_t(K) * M * at_reads + uint64_t(K) * N * b_reads) * in_bytes + uint64_t(M) * N * out_bytes;
  }
};

// SBUF bytes per partition of a plan's pools (each slot sized for its pool's largest tile).
uint64_t gemm_at_sbuf(const GemmAtPlan& p, uint32_t M, uint32_t N, uint32_t out_bytes) {
  const uint64_t b_all = uint64_t(p.kt) * N * p.in_bytes, at_all = uint64_t(p.kt) * M * p.in_bytes;
  uint64_t bytes = 2 * kernel::sbuf_slot_bytes(std::max(p.b_resident ? b_all : 0, p.at_resident ? at_all : 0));
  if (!p.at_resident)
    bytes += p.at_bufs() * kernel::sbuf_slot_bytes(uint64_t(p.at_stream ? 1 : p.kt) * p.tm * p.in_bytes);
  if (!p.b_resident) bytes += 2 * p.group * kernel::sbuf_slot_bytes(uint64_t(p.group) * p.tn * p.in_bytes);
  return bytes + p.accs() * kernel::sbuf_slot_bytes(uint64_t(p.tn) * out_bytes);
}

GemmAtPlan plan_gemm_at(const CoreConfig& cfg, uint32_t M, uint32_t K, uint32_t N, Dtype in, Dtype out) {
  GemmAtPlan p;
  p.in_bytes = uint32_t(dtype_bits(in)) / 8;
  p.tk = std::min(cfg.partitions, cfg.pe_rows);
  p.tm = std::min(cfg.partitions, cfg.pe_cols);
  p.tn = cfg.moving_max_n();
  p.kt = (K + p.tk - 1) / p.tk;
  p.nt = (N + p.tn - 1) / p.tn;
  p.mt = (M + p.tm - 1) / p.tm;
  p.group = std::max(1u, std::min(p.nt, cfg.psum_banks / 4));
  p.b_resident = uint64_t(p.kt) * N * p.in_bytes <= cfg.sbuf_partition_bytes / 4;
  p.at_resident = uint64_t(p.kt) * M * p.in_bytes <= cfg.sbuf_partition_bytes / 4;
  // The lead block: as many m tiles as leave one more tile's accumulators free in PSUM, so
  // the next m tile starts while the block's results are copied out.
  if (p.at_resident) p.lead = std::clamp(cfg.psum_banks - 1, 1u, std::max(1u, p.mt));
  // A streamed b is read once per looped block: as many m tiles as leave one accumulator free.
  if (!p.b_resident) p.block = std::clamp(cfg.psum_banks - 1, 1u, std::max(1u, p.mt));
  const uint32_t out_bytes = uint32_t(dtype_bits(out)) / 8;
  using GiveUp = std::function<bool(GemmAtPlan&)>;
  const GiveUp lead = [](GemmAtPlan& q) { return q.lead > 1 && (q.lead = q.lead / 2, true); };
  const GiveUp b_res = [](GemmAtPlan& q) { return q.b_resident && !(q.b_resident = false); };
  const GiveUp at_res = [](GemmAtPlan& q) {
    return q.at_resident && (q.at_resident = false, q.lead = 1, true);
  };
  const GiveUp at_stream = [](GemmAtPlan& q) { return !q.at_stream && (q.at_stream = true); };
  const GiveUp block = [](GemmAtPlan& q) { return q.block > 1 && (q.block = q.block / 2, true); };
  const GiveUp group = [](GemmAtPlan& q) { return q.group > 1 && (q.group = 1, true); };
  const auto fits = [&](const GemmAtPlan& q) {
    return gemm_at_sbuf(q, M, N, out_bytes) <= cfg.sbuf_partition_bytes;
  };
  const auto shrink = [&](GemmAtPlan q, const std::vector<GiveUp>& order) {
    for (const GiveUp& give_up : order)
      while (!fits(q) && give_up(q)) {
      }
    return q;
  };
  const GemmAtPlan streamed = shrink(p, {lead, b_res, at_res, at_stream, block, group});
  const GemmAtPlan blocked = shrink(p, {lead, b_res, at_res, block, at_stream, group});
  if (!fits(streamed) && !fits(blocked))
    throw Error(fmt::format("gemm_at: no tiling of m={}, k={}, n={} fits a {}-byte SBUF partition",
                            M, K, N, cfg.sbuf_partition_bytes));
  if (!fits(streamed)) return blocked;
  if (!fits(blocked)) return streamed;
  return blocked.hbm_bytes(M, K, N, out_bytes) < streamed.hbm_bytes(M, K, N, out_bytes) ? blocked
                                                                                         : streamed;
}

void build_gemm_at(Kernel& k, const Shape& s, Dtype out_dtype, Dtype in = Dtype::kBf16) {
  const CoreConfig& cfg = k.config();
  const uint32_t M = s.at("m"), K = s.at("k"), N = s.at("n");
  const auto& AT = k.input("a_t", K, M, in);
  const auto& B = k.input("b", K, N, in);
  const auto& C = k.output("c", M, N, out_dtype);
  const GemmAtPlan plan = plan_gemm_at(cfg, M, K, N, in, out_dtype);
  const uint32_t tk = plan.tk, tm = plan.tm, tn = plan.tn, kt = plan.kt, nt = plan.nt;
  const uint32_t lead = plan.lead, accs = plan.accs();
  const bool b_resident = plan.b_resident, at_resident = plan.at_resident;
  // The lead block multiplies one n tile at a time, so it holds the most m tiles: while the
  // operands stream in, each byte loaded then feeds the most matmul cycles.
  const uint32_t lead_group = plan.lead_group();
  auto whole_pool = k.sbuf_pool("whole", 2);
  // b's slices: two k steps' worth of tiles in flight (a group's slices are one tile).
  auto at_pool = k.sbuf_pool("a_t", plan.at_bufs()), b_pool = k.sbuf_pool("b", 2 * plan.group);
  // One SBUF result tile per accumulator: an accumulator is free again once copied out, without
  // waiting for an older result's store to HBM.
  auto acc_pool = k.psum_pool("acc", accs), c_pool = k.sbuf_pool("c", accs);
  std::optional<Tile> b_all, at_all;  // k slice j at columns [j N, j N + N) / [j M, j M + M)
  if (b_resident) b_all = whole_pool.tile(tk, kt * N, in, "b_all");
  if (at_resident) at_all = whole_pool.tile(tk, kt * M, in, "a_t_all");
  // The lead block's first n tile needs only its own columns of a_t and b's first n tile:
  // those load first, slice by slice, and the rest of b and of a_t after -- when a tile's
  // columns make rows of two AXI beats or more (on small they are one beat, and the extra
  // short-row transfers cost more than the early start gains).
  const bool split = uint64_t(tm) * plan.in_bytes >= 2 * (cfg.axi_data_bits / 8);
  const uint32_t pieces = copy_pieces(cfg);
  const uint32_t first_m = split ? std::min(M, lead * tm) : M;
  const uint32_t first_n = split ? std::min(N, lead_group * tn) : N;
  // These loads and the lead block's K steps are straight-line code, so each step waits only
  // for its own slices (the builder orders a hardware loop against every iteration of another).
  auto each_slice = [&](const std::function<void(Index, uint32_t)>& body) {
    for (uint32_t j = 0; j < kt; ++j) body(Index(j), std::min(tk, K - j * tk));
  };
  // With the split, each slice goes over every DMA engine, half for its a_t columns and half
  // for b: an engine takes slice j + 1 only after its part of slice j, so the first k step's
  // data arrive at the port's full rate instead of sharing it with the next slices.
  const uint32_t slice_pieces =
      split && at_all && b_all ? std::max(pieces, cfg.dma_engines / 2) : pieces;
  if (b_resident || at_resident) {
    each_slice([&](Index j, uint32_t kk) {
      if (at_all) load_spread(k, *at_all, j * M, AT, j * tk, Index(0), kk, first_m, slice_pieces);
      if (b_all) load_spread(k, *b_all, j * N, B, j * tk, Index(0), kk, first_n, slice_pieces);
    });
  }
  if (b_all && N > first_n) {
    slice_loop(k, 0, K, tk, [&](Index j, uint32_t kk) {
      load_spread(k, *b_all, j * N + first_n, B, j * tk, Index(first_n), kk, N - first_n, pieces);
    });
  }
  if (at_all && M > first_m) {
    slice_loop(k, 0, K, tk, [&](Index j, uint32_t kk) {
      load_spread(k, *at_all, j * M + first_m, AT, j * tk, Index(first_m), kk, M - first_m, pieces);
    });
  }
  // A block of m tiles [m0, m0 + mm) shares each k step: every tile's LoadStationary and
  // matmuls for slice j before any tile's slice j + 1, so the block's first step needs only
  // slice 0 of b and of its a_t columns.
  using MTile = std::pair<Index, uint32_t>;
  auto m_block = [&](const std::vector<MTile>& block, bool unrolled, uint32_t grp,
                     uint32_t width, uint32_t store_pieces) {
    // The stationary slice of k step j for m tile t: in a_t_all, or loaded per m tile.
    std::vector<std::function<View(Index, uint32_t)>> stationary;
    std::vector<Tile> ats;
    for (const auto& [m0, mm] : block) {
      if (at_all) {
        stationary.push_back([&, m0 = m0, mm = mm](Index j, uint32_t kk) {
          return k.sub(*at_all, 0, kk, j * M + m0, mm);
        });
        continue;
      }
      if (plan.at_stream) {  // the k step's slice, loaded for this step
        stationary.push_back([&, m0 = m0, mm = mm](Index j, uint32_t kk) {
          const Tile at = at_pool.tile(tk, tm, in, "a_t");
          k.dma_copy(k.sub(at, 0, kk, 0, mm), window(AT, j * tk, m0, kk, mm));
          return k.sub(at, 0, kk, 0, mm);
        });
        continue;
      }
      ats.push_back(at_pool.tile(tk, kt * tm, in, "a_t"));  // slice j at columns j tm
      const Tile& at = ats.back();
      slice_loop(k, 0, K, tk, [&, m0 = m0, mm = mm](Index j, uint32_t kk) {
        k.dma_copy(k.sub(at, 0, kk, j * tm, mm), window(AT, j * tk, m0, kk, mm));
      });
      stationary.push_back([&k, at, tm, mm = mm](Index j, uint32_t kk) {
        return k.sub(at, 0, kk, j * tm, mm);
      });
    }
    // n tiles of `width` columns in groups of grp, the group's first column at n_first; a group
    // is straight-line code inside the k loop.
    auto n_group = [&](Index n_first, const std::vector<uint32_t>& widths) {
      std::vector<std::vector<Tile>> accs(block.size());  // [m tile][n tile]
      for (size_t b = 0; b < block.size(); ++b)
        for (uint32_t nn : widths) accs[b].push_back(acc_pool.tile(block[b].second, nn, Dtype::kFp32, "acc"));
      // Each k step's slices of b serve every m tile of the block. A streamed b loads the
      // group's slices (adjacent columns) as one tile, in as many transfers as the group has
      // tiles, each a range of partitions: rows of the group's width (a transfer's fixed start
      // and end paid over more bytes), the same engines busy.
      const uint32_t group_cols = uint32_t(widths.size() - 1) * width + widths.back();
      auto step = [&](Index j, uint32_t kk, bool accumulate) {
        const View slices = moving_slice(k, b_all, b_pool, B, j, tk, kk, n_first, group_cols,
                                         uint32_t(widths.size()));
        std::vector<View> moving;
        for (size_t t = 0; t < widths.size(); ++t) {
          View v = slices;
          v.col0 = v.col0 + Index(int64_t(t * width));
          v.ncols = widths[t];
          moving.push_back(v);
        }
        for (size_t b = 0; b < block.size(); ++b) {
          k.load_stationary(stationary[b](j, kk));
          for (size_t t = 0; t < widths.size(); ++t) k.multiply_moving(k.all(accs[b][t]), moving[t], accumulate);
        }
      };
      if (unrolled) {
        each_slice([&](Index j, uint32_t kk) { step(j, kk, j.constant() != 0); });
      } else {
        step(0, std::min(K, tk), false);
        slice_loop(k, 1, K, tk, [&](Index j, uint32_t kk) { step(j, kk, true); }, kLoopSteps);
      }
      for (size_t b = 0; b < block.size(); ++b)
        for (size_t t = 0; t < widths.size(); ++t)
          store_result(k, c_pool, C, block[b].first, n_first + Index(int64_t(t * width)), accs[b][t],
                       block[b].second, widths[t], store_pieces);
    };
    // With a k loop, whole groups go in a hardware loop too: written out, each group's k loop
    // would hold its own index registers for addresses that also step with an enclosing block
    // loop, until that loop ends (55 a sequencer: Llama's 28 n tiles on small ran out).
    const uint32_t n_tiles = (N + width - 1) / width, full_groups = N / width / grp;
    uint32_t g0 = 0;
    if (!unrolled && full_groups > 1) {
      k.loop(full_groups, [&](Index i) {
        n_group(i * int64_t(grp * width), std::vector<uint32_t>(grp, width));
      });
      g0 = full_groups * grp;
    }
    for (; g0 < n_tiles; g0 += grp) {
      std::vector<uint32_t> widths;
      for (uint32_t t = g0; t < std::min(n_tiles, g0 + grp); ++t) widths.push_back(std::min(width, N - t * width));
      n_group(Index(int64_t(g0 * width)), widths);
    }
  };
  // With the operands loaded up front, the first `lead` m tiles run their k steps as the
  // slices arrive.
  const bool early = (b_resident || at_resident) && M > 0;
  uint32_t m_first = 0;
  if (early) {
    std::vector<MTile> block;
    for (; m_first < M && block.size() < lead; m_first += tm)
      block.emplace_back(Index(m_first), std::min(tm, M - m_first));
    m_first = std::min(m_first, M);
    m_block(block, true, lead_group, tn, pieces);
  }
  // The other m tiles run in a hardware loop. Their k steps are straight-line code too while
  // there are few: the sequencer holds a loop's branch until the pending matmul retires, so in
  // a k loop each LoadStationary would wait for the previous step's last matmul instead of
  // streaming under it (docs/performance.md). Past 16 steps a k loop keeps the program small.
  const bool unroll_k = kt <= 16;
  // Past that, each iteration of the k loop runs kLoopSteps steps, so the wait at its branch
  // (the last matmul's drain, about 1,400 cycles on trn2) is paid once per eight steps.
  // The last m tile takes its n tiles one at a time, so each one's results are copied out and
  // stored while the next computes: the run's tail is one tile's copy and store, not a group's.
  // With several n tiles they are also half as wide (not narrower than the tk rows of the
  // LoadStationary each must hide); with one (small), the extra LoadStationary cost more than
  // the shorter tail saves (measured: 39,731 against 38,781 cycles at 256 x 256 x 512).
  // When b streams, the last m tile stays in its block: on its own it would read b once more.
  const uint32_t m_last =
      M > m_first && b_resident ? m_first + (M - m_first - 1) / tm * tm : M;
  // They go in blocks of plan.block m tiles, a hardware loop over the whole blocks and the
  // rest as one block of straight-line code.
  if (m_last > m_first) {
    const uint32_t rows = plan.block * tm, span = m_last - m_first;
    if (span / rows > 0) {
      k.loop(span / rows, [&](Index i) {
        std::vector<MTile> block;
        for (uint32_t t = 0; t < plan.block; ++t)
          block.emplace_back(Index(m_first) + i * rows + Index(int64_t(t) * tm), tm);
        m_block(block, unroll_k, plan.block_group(), tn, pieces);
      });
    }
    if (span % rows > 0) {  // the rest, the last m tile perhaps short
      std::vector<MTile> block;
      for (uint32_t m0 = m_first + span / rows * rows; m0 < m_last; m0 += tm)
        block.emplace_back(Index(m0), std::min(tm, m_last - m0));
      m_block(block, unroll_k, plan.block_group(), tn, pieces);
    }
  }
  const uint32_t last_width = nt > 1 ? std::max(tn / 2, std::min(tn, tk)) : tn;
  // Its stores go over every DMA engine: the last one is the run's tail (a store of 128 rows
  // over four engines took about 1,450 cycles on trn2, over sixteen about 600).
  if (M > m_last) m_block({{Index(m_last), M - m_last}}, unroll_k, 1, last_width, cfg.dma_engines);
}

// Three n tiles: a group of two and a group of one (8 PSUM banks).
Shape gemm_at_default_shape(const CoreConfig& c) {
  return Shape{{"m", 2 * std::min(c.partitions, c.pe_cols) + 3}, {"k", 2 * c.pe_rows + 5},
               {"n", 2 * c.moving_max_n() + 9}};
}

Tensors gemm_at_inputs(const Shape& s, uint32_t seed, Dtype in = Dtype::kBf16) {
  return gemm_operands(s, seed, "a_t", s.at("k"), s.at("m"), in);
}

CheckResult gemm_at_check(const Shape& s, const Tensors& in, const Tensors& out,
                          Dtype out_dtype, Dtype in_dtype = Dtype::kBf16) {
  const uint32_t M = s.at("m"), K = s.at("k");
  // The same check as gemm's, with a[m][k] = a_t[k][m].
  const TensorBits& at = in.at("a_t");
  Tensors as_gemm = in;
  TensorBits& a = as_gemm["a"];
  a.resize(at.size());
  for (uint32_t kk = 0; kk < K; ++kk)
    for (uint32_t m = 0; m < M; ++m) a[size_t(m) * K + kk] = at[size_t(kk) * M + m];
  return gemm_check(s, as_gemm, out, out_dtype, in_dtype);
}

// --- softmax along rows: y = exp(x - max) / sum ----------------------------------------------

void build_softmax(Kernel& k, const Shape& s) {
  const uint32_t R = s.at("rows"), D = s.at("d"), P = k.config().partitions;
  const auto& X = k.input("x", R, D, Dtype::kFp32);
  const auto& Y = k.output("y", R, D, Dtype::kFp32);
  // x (loaded, then scaled in place and stored) in three buffers, so the next row tiles load
  // while this one computes and stores; one e suffices, since the next tile's exp follows this
  // tile's scale on the Vector Engine's queue anyway. Where four rows do not fit a partition,
  // two x, and where three do not (a long row on a small SBUF), one: a load then waits for
  // the previous tile's store.
  const uint64_t row = kernel::sbuf_slot_bytes(uint64_t(D) * 4);
  const uint64_t stats = 2 * kernel::sbuf_slot_bytes(4);
  const uint64_t sbuf = k.config().sbuf_partition_bytes;
  const uint32_t x_bufs = 4 * row + stats <= sbuf ? 3 : 3 * row + stats <= sbuf ? 2 : 1;
  auto x_pool = k.sbuf_pool("x", x_bufs), e_pool = k.sbuf_pool("e", 1);
  auto small = k.sbuf_pool("stats", 2);
  tile_loop(k, 0, R, P, [&](Index r0, uint32_t rr) {
    const Tile x = x_pool.tile(rr, D, Dtype::kFp32, "x");
    k.dma_copy(k.all(x), window(X, r0, 0, rr, D));
    const Tile negmax = small.tile(rr, 1, Dtype::kFp32, "negmax");
    k.tensor_reduce(k.all(negmax), k.all(x), DveAlu::kMax, /*negate=*/true);
    const Tile e = e_pool.tile(rr, D, Dtype::kFp32, "e");
    const Tile sum = small.tile(rr, 1, Dtype::kFp32, "sum");
    exp_with_row_sums(k, k.all(e), k.all(x), k.all(negmax), k.all(sum));
    const Tile rsum = small.tile(rr, 1, Dtype::kFp32, "rsum");
    act_function(k, k.all(rsum), k.all(sum), act::ActFunc::kReciprocal);
    scale_rows(k, k.all(x), k.all(e), k.all(rsum));
    k.dma_copy(window(Y, r0, 0, rr, D), k.all(x));
  });
}

Tensors softmax_inputs(const Shape& s, uint32_t seed) {
  std::mt19937 rng(seed);
  return {{"x", random_tensor(size_t(s.at("rows")) * s.at("d"), Dtype::kFp32, -4, 4, rng)}};
}

CheckResult softmax_check(const Shape& s, const Tensors& in, const Tensors& out) {
  const uint32_t R = s.at("rows"), D = s.at("d");
  const auto x = values(in.at("x"), Dtype::kFp32);
  std::vector<double> ref(x.size());
  for (uint32_t r = 0; r < R; ++r) {
    double mx = -INFINITY, sum = 0;
    for (uint32_t j = 0; j < D; ++j) mx = std::max(mx, x[r * D + j]);
    for (uint32_t j = 0; j < D; ++j) sum += std::exp(x[r * D + j] - mx);
    for (uint32_t j = 0; j < D; ++j) ref[r * D + j] = std::exp(x[r * D + j] - mx) / sum;
  }
  // exp's argument is exact (a difference of fp32 values within 2x), exp and reciprocal are
  // within 2 ulp, the sum of D positive terms within D u, the product 0.5 ulp.
  return compare("y", out.at("y"), D, [&](size_t i) {
    return std::make_pair(ref[i], (D + 8) * kU * ref[i] + 1e-38);
  });
}

// --- layer norm and RMS norm ------------------------------------------------------------------

// gamma and beta (or gamma alone) broadcast to the first P partitions once, before the row loop.
Tile load_row(Kernel& k, kernel::PoolRef& pool, const kernel::HbmTensor& t, uint32_t P, uint32_t D,
              const std::string& name) {
  const Tile tile = pool.tile(P, D, Dtype::kFp32, name);
  HbmView v = window(t, 0, 0, 1, D);
  v.broadcast = true;
  k.dma_copy(k.all(tile), v);
  return tile;
}

void build_norm(Kernel& k, const Shape& s, bool rms) {
  const uint32_t R = s.at("rows"), D = s.at("d"), P = k.config().partitions;
  const auto& X = k.input("x", R, D, Dtype::kFp32);
  const auto& G = k.input("gamma", 1, D, Dtype::kFp32);
  const kernel::HbmTensor* Bt = rms ? nullptr : &k.input("beta", 1, D, Dtype::kFp32);
  const auto& Y = k.output("y", R, D, Dtype::kFp32);
  auto consts = k.sbuf_pool("consts", rms ? 1 : 2);
  Tile gamma, beta;  // loaded after the first row tile's x, which the first passes need
  // Per row tile: x, y and 3 small tiles; two of each so that loads overlap compute, unless
  // two rows of x and y do not fit a partition beside the constants (a long row on a small
  // SBUF): then one, and a row tile's load waits for the previous one's store.
  const uint64_t row = kernel::sbuf_slot_bytes(uint64_t(D) * 4);
  const uint64_t fixed = (rms ? 1 : 2) * row + 6 * kernel::sbuf_slot_bytes(3 * 4);
  const uint32_t bufs = fixed + 4 * row <= k.config().sbuf_partition_bytes ? 2 : 1;
  auto x_pool = k.sbuf_pool("x", bufs), y_pool = k.sbuf_pool("y", bufs);
  auto small = k.sbuf_pool("stats", 6);
  const float eps = 1e-5f;
  auto row_tile = [&](Index r0, uint32_t rr, bool first) {
    const Tile x = x_pool.tile(rr, D, Dtype::kFp32, "x");
    k.dma_copy(k.all(x), window(X, r0, 0, rr, D));
    if (first) {  // the broadcasts share SBUF's DMA port: the statistics start while they land
      // Each partition reads its own copy, from HBM: only the partitions a row tile uses.
      const uint32_t parts = std::min(R, P);
      gamma = load_row(k, consts, G, parts, D, "gamma");
      if (!rms) beta = load_row(k, consts, *Bt, parts, D, "beta");
    }
    const Tile rstd = small.tile(rr, 1, Dtype::kFp32, "rstd");
    const Tile y = y_pool.tile(rr, D, Dtype::kFp32, "y");
    if (rms) {
      const Tile& sq = y;  // the squares are only summed: y holds them until it is written
      const Tile ss = small.tile(rr, 1, Dtype::kFp32, "sumsq");
      ActArgs square;
      square.func = act::ActFunc::kSquare;
      square.reduce = act::ReduceCmd::kResetReduce;
      square.acc_out = k.all(ss);
      k.activation(k.all(sq), k.all(x), square);
      ActArgs rsqrt;
      rsqrt.func = act::ActFunc::kRsqrt;
      rsqrt.scale = 1.0f / float(D);
      rsqrt.bias = eps;
      k.activation(k.all(rstd), k.all(ss), rsqrt);
      DveArgs norm;  // (x * rstd) * gamma in one pass
      norm.alu0 = DveAlu::kMultiply;
      norm.s0_vec = k.all(rstd);
      norm.alu1 = DveAlu::kMultiply;
      k.scalar_tensor_tensor(k.all(y), k.all(x), k.sub(gamma, 0, rr, 0, D), norm);
    } else {
      // Two passes on the Scalar Engine, whose add reductions stream: -mean as the sum of
      // -x / D, then the sum of (x - mean)^2 (the bias is -mean). The y tile holds both
      // passes' element outputs until it is written. bn_stats would keep Welford's order but
      // costs 71 cycles an element (docs/kernels.md).
      const Tile& scratch = y;
      const Tile negmean = small.tile(rr, 1, Dtype::kFp32, "negmean");
      ActArgs sum;
      sum.scale = -1.0f / float(D);
      sum.reduce = act::ReduceCmd::kResetReduce;
      sum.acc_out = k.all(negmean);
      k.activation(k.all(scratch), k.all(x), sum);
      const Tile ss = small.tile(rr, 1, Dtype::kFp32, "sumsq");
      ActArgs dev;
      dev.func = act::ActFunc::kSquare;
      dev.bias_vec = k.all(negmean);
      dev.reduce = act::ReduceCmd::kResetReduce;
      dev.acc_out = k.all(ss);
      k.activation(k.all(scratch), k.all(x), dev);
      ActArgs rsqrt;
      rsqrt.func = act::ActFunc::kRsqrt;
      rsqrt.scale = 1.0f / float(D);
      rsqrt.bias = eps;
      k.activation(k.all(rstd), k.all(ss), rsqrt);
      // Two Vector Engine passes: ((x + -mean) * gamma), then (that * rstd) + beta.
      DveArgs centre;
      centre.alu0 = DveAlu::kAdd;
      centre.s0_vec = k.all(negmean);
      centre.alu1 = DveAlu::kMultiply;
      k.scalar_tensor_tensor(k.all(y), k.all(x), k.sub(gamma, 0, rr, 0, D), centre);
      DveArgs scale;
      scale.alu0 = DveAlu::kMultiply;
      scale.s0_vec = k.all(rstd);
      scale.alu1 = DveAlu::kAdd;
      k.scalar_tensor_tensor(k.all(y), k.all(y), k.sub(beta, 0, rr, 0, D), scale);
    }
    k.dma_copy(window(Y, r0, 0, rr, D), k.all(y));
  };
  // The first row tile is written out, so its x loads ahead of gamma and beta; the rest loop.
  if (R > 0) row_tile(Index(0), std::min(R, P), true);
  if (R > P) tile_loop(k, P, R - P, P, [&](Index r0, uint32_t rr) { row_tile(r0, rr, false); });
}

Tensors norm_inputs(const Shape& s, uint32_t seed, bool rms) {
  std::mt19937 rng(seed);
  const size_t D = s.at("d");
  Tensors t = {{"x", random_tensor(size_t(s.at("rows")) * D, Dtype::kFp32, -3, 5, rng)},
               {"gamma", random_tensor(D, Dtype::kFp32, 0.5, 1.5, rng)}};
  if (!rms) t["beta"] = random_tensor(D, Dtype::kFp32, -1, 1, rng);
  return t;
}

CheckResult norm_check(const Shape& s, const Tensors& in, const Tensors& out, bool rms) {
  const uint32_t R = s.at("rows"), D = s.at("d");
  const auto x = values(in.at("x"), Dtype::kFp32), g = values(in.at("gamma"), Dtype::kFp32);
  const auto b = rms ? std::vector<double>(D, 0) : values(in.at("beta"), Dtype::kFp32);
  std::vector<double> ref(x.size()), mag(x.size());
  for (uint32_t r = 0; r < R; ++r) {
    double mean = 0, ms = 0;
    for (uint32_t j = 0; j < D; ++j) mean += x[r * D + j];
    mean /= D;
    for (uint32_t j = 0; j < D; ++j) {
      const double c = rms ? x[r * D + j] : x[r * D + j] - mean;
      ms += c * c;
    }
    ms /= D;
    const double rstd = 1 / std::sqrt(ms + 1e-5);
    for (uint32_t j = 0; j < D; ++j) {
      const double c = rms ? x[r * D + j] : x[r * D + j] - mean;
      ref[r * D + j] = c * rstd * g[j] + b[j];
      mag[r * D + j] = (std::fabs(x[r * D + j]) + std::fabs(mean)) * rstd * std::fabs(g[j]) + std::fabs(b[j]);
    }
  }
  // Mean and variance (Welford, or the sum of squares) err by O(D u) relative to the row's
  // magnitude; rsqrt by 2 ulp; the rest by a few roundings.
  return compare("y", out.at("y"), D, [&](size_t i) {
    return std::make_pair(ref[i], (2.0 * D + 16) * kU * mag[i] + 1e-30);
  });
}

// --- GELU MLP block: y = gelu(x @ w1 + b1) @ w2 -----------------------------------------------

void build_mlp(Kernel& k, const Shape& s) {
  const CoreConfig& cfg = k.config();
  const uint32_t T = s.at("t"), Dm = s.at("dm"), F = s.at("f");
  if (T > cfg.moving_max_n())
    throw Error(fmt::format("mlp: t = {} tokens exceed one PSUM bank ({})", T, cfg.moving_max_n()));
  const auto& X = k.input("x", T, Dm, Dtype::kBf16);
  const auto& W1 = k.input("w1", Dm, F, Dtype::kBf16);
  const auto& B1 = k.input("b1", F, 1, Dtype::kFp32);
  const auto& W2 = k.input("w2", F, Dm, Dtype::kBf16);
  const auto& Y = k.output("y", T, Dm, Dtype::kFp32);
  const uint32_t tile = std::min(cfg.partitions, cfg.pe_cols);
  const uint32_t fc = (F + tile - 1) / tile, dc = (Dm + tile - 1) / tile;
  auto xt_pool = k.sbuf_pool("x_t", dc), h_pool = k.sbuf_pool("h_t", fc);
  auto w_pool = k.sbuf_pool("w", 2), b_pool = k.sbuf_pool("b1", 2), y_pool = k.sbuf_pool("y_t", 2);
  auto ps = k.psum_pool("acc", 2);
  // x^T, one tile per Dm chunk: [dm, T].
  std::vector<Tile> xt;
  for (uint32_t d = 0; d < dc; ++d) {
    const uint32_t dd = std::min(tile, Dm - d * tile);
    xt.push_back(xt_pool.tile(dd, T, Dtype::kBf16, "x_t"));
    k.dma_copy(k.all(xt.back()), window(X, 0, d * tile, T, dd).t());
  }
  // acc[out chunk o] = sum over in chunks i of w[i, o]^T @ moving[i], w's chunks loaded in turn.
  auto project = [&](const kernel::HbmTensor& w_t, uint32_t in_size, uint32_t o, uint32_t oo,
                     const std::vector<Tile>& moving, const char* name) {
    const Tile acc = ps.tile(oo, T, Dtype::kFp32, std::string(name) + "_acc");
    for (uint32_t i = 0; i * tile < in_size; ++i) {
      const uint32_t ii = std::min(tile, in_size - i * tile);
      const Tile w = w_pool.tile(ii, oo, Dtype::kBf16, name);
      k.dma_copy(k.all(w), window(w_t, i * tile, o * tile, ii, oo));
      k.matmul(k.all(acc), k.all(w), k.all(moving[i]), i > 0);
    }
    return acc;
  };
  // h^T chunk f = gelu(sum_d w1[d, f]^T x^T[d] + b1[f]), kept in bf16 for the second matmul.
  std::vector<Tile> ht;
  for (uint32_t f = 0; f < fc; ++f) {
    const uint32_t ff = std::min(tile, F - f * tile);
    const Tile acc = project(W1, Dm, f, ff, xt, "w1");
    const Tile bias = b_pool.tile(ff, 1, Dtype::kFp32, "b1");
    k.dma_copy(k.all(bias), window(B1, f * tile, 0, ff, 1));
    ht.push_back(h_pool.tile(ff, T, Dtype::kBf16, "h_t"));
    ActArgs gelu;
    gelu.func = act::ActFunc::kGelu;
    gelu.bias_vec = k.all(bias);
    k.activation(k.all(ht.back()), k.all(acc), gelu);
  }
  // y^T chunk d = sum_f w2[f, d]^T h^T[f].
  for (uint32_t d = 0; d < dc; ++d) {
    const uint32_t dd = std::min(tile, Dm - d * tile);
    const Tile acc = project(W2, F, d, dd, ht, "w2");
    const Tile y = y_pool.tile(dd, T, Dtype::kFp32, "y_t");
    k.tensor_copy(k.all(y), k.all(acc));
    k.dma_copy(window(Y, 0, d * tile, T, dd).t(), k.all(y));
  }
}

Tensors mlp_inputs(const Shape& s, uint32_t seed) {
  std::mt19937 rng(seed);
  const size_t T = s.at("t"), Dm = s.at("dm"), F = s.at("f");
  return {{"x", random_tensor(T * Dm, Dtype::kBf16, -1, 1, rng)},
          {"w1", random_tensor(Dm * F, Dtype::kBf16, -0.5, 0.5, rng)},
          {"b1", random_tensor(F, Dtype::kFp32, -0.5, 0.5, rng)},
          {"w2", random_tensor(F * Dm, Dtype::kBf16, -0.5, 0.5, rng)}};
}

double gelu64(double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); }

CheckResult mlp_check(const Shape& s, const Tensors& in, const Tensors& out) {
  const uint32_t T = s.at("t"), Dm = s.at("dm"), F = s.at("f");
  const auto x = values(in.at("x"), Dtype::kBf16), w1 = values(in.at("w1"), Dtype::kBf16);
  const auto b1 = values(in.at("b1"), Dtype::kFp32), w2 = values(in.at("w2"), Dtype::kBf16);
  std::vector<double> h(size_t(T) * F);
  for (uint32_t t = 0; t < T; ++t)
    for (uint32_t f = 0; f < F; ++f) {
      double a = b1[f];
      for (uint32_t d = 0; d < Dm; ++d) a += x[t * Dm + d] * w1[d * F + f];
      h[t * F + f] = gelu64(a);
    }
  // h is rounded to bf16 (relative 2^-9) before the second matmul; gelu adds at most ~4 ulp
  // times its condition number, and the first matmul's fp32 error is far below bf16's.
  return compare("y", out.at("y"), Dm, [&](size_t i) {
    const size_t t = i / Dm, d = i % Dm;
    double ref = 0, mag = 0;
    for (uint32_t f = 0; f < F; ++f) {
      ref += h[t * F + f] * w2[f * Dm + d];
      mag += std::fabs(h[t * F + f] * w2[f * Dm + d]);
    }
    return std::make_pair(ref, 0.004 * mag + 1e-6);
  });
}

// --- causal attention, one head, flash style ---------------------------------------------------

// Attention's SBUF pools for query groups of g tiles: (name, buffers, largest tile's bytes).
struct AttnPool {
  const char* name;
  uint32_t bufs;
  uint64_t bytes;
};
std::vector<AttnPool> attention_pools(uint32_t B, uint32_t D, uint32_t chunks, uint32_t g) {
  return {{"mask", 2, 4ull * B},
          {"q_t", 2 * g * chunks, 2ull * B},
          {"rows", 2, 2ull * D},
          {"kv", 2 * (chunks + 1), 2ull * std::max(B, D)},
          {"work", 2 * g, 4ull * std::max(B, D)},
          {"p", 2 * g, 2ull * B},
          {"state", 3 * g, 4ull * D},
          {"vec", 10 * g, 4}};
}

void build_attention(Kernel& k, const Shape& s) {
  const CoreConfig& cfg = k.config();
  const uint32_t S = s.at("s"), D = s.at("d");
  const uint32_t B = std::min({cfg.partitions, cfg.pe_cols, cfg.moving_max_n()});
  if (D > cfg.moving_max_n())
    throw Error(fmt::format("attention: head dim {} exceeds a matmul's moving free size ({})", D,
                            cfg.moving_max_n()));
  // q k^T contracts over the head dim: past the partitions it goes in chunks of P rows of q^T
  // and k^T, accumulated in the scores' PSUM bank.
  const uint32_t P = std::min(cfg.partitions, cfg.pe_rows), chunks = (D + P - 1) / P;
  const auto& Q = k.input("q", S, D, Dtype::kBf16);
  const auto& Kt = k.input("k", S, D, Dtype::kBf16);
  const auto& V = k.input("v", S, D, Dtype::kBf16);
  const auto& O = k.output("o", S, D, Dtype::kFp32);
  const float scale = float(1.0 / std::sqrt(double(D)));
  // Query tiles in pairs while the pair's buffers fit a partition (a long head dim on a small
  // SBUF: one at a time). A third would need more PSUM banks than the 8 that the scores, P^T,
  // P V and the transposes take two each of.
  auto sbuf_bytes = [&](uint32_t g) {
    uint64_t bytes = 0;
    for (const AttnPool& pool : attention_pools(B, D, chunks, g))
      bytes += pool.bufs * kernel::sbuf_slot_bytes(pool.bytes);
    return bytes;
  };
  const uint32_t group_tiles = sbuf_bytes(2) <= cfg.sbuf_partition_bytes ? 2 : 1;
  std::map<std::string, kernel::PoolRef> pools;
  for (const AttnPool& pool : attention_pools(B, D, chunks, group_tiles))
    pools.emplace(pool.name, k.sbuf_pool(pool.name, pool.bufs));
  auto &consts = pools.at("mask"), &q_pool = pools.at("q_t"), &rows = pools.at("rows");
  auto &kv_pool = pools.at("kv"), &work = pools.at("work"), &p_pool = pools.at("p");
  auto &state = pools.at("state"), &vec = pools.at("vec");
  auto ps = k.psum_pool("scores", 2), pt_ps = k.psum_pool("p_t", 2), pv_ps = k.psum_pool("pv", 2);
  auto tr_ps = k.psum_pool("qk_t", 2);  // q^T and k^T: rows load contiguously, transpose on PE
  // Causal mask of a diagonal block: 1 where column <= row, else 0.
  const Tile diff = consts.tile(B, B, Dtype::kInt32, "diff");
  k.iota(k.all(diff), 0, 1, -1);
  const Tile mask = consts.tile(B, B, Dtype::kFp32, "mask");
  DveArgs ge;
  ge.alu0 = DveAlu::kGreaterEqual;
  ge.imm0 = 0.0f;
  k.tensor_scalar(k.all(mask), k.all(diff), ge);
  // q^T (or its chunks of head dims): the stationary operands of the scores; k^T the moving.
  auto transposed = [&](kernel::PoolRef& pool, const Tile& r, uint32_t n, const char* name) {
    std::vector<Tile> t;
    for (uint32_t c = 0; c < chunks; ++c) {
      const uint32_t dc = std::min(P, D - c * P);
      t.push_back(pool.tile(dc, n, Dtype::kBf16, name));
      transpose_bf16(k, k.all(t.back()), k.sub(r, 0, n, c * P, dc), tr_ps);
    }
    return t;
  };
  // A query tile's state: q^T, the running max m, the row sums l and the output acc.
  struct QTile {
    uint32_t q0, qn;
    std::vector<Tile> qt;
    Tile m, l, acc;
  };
  // One K/V tile (k^T and v, loaded once for every query tile of a group).
  struct KvTile {
    uint32_t kn;
    std::vector<Tile> kt;
    Tile v;
  };
  auto load_kv = [&](Index k0, uint32_t kn) {
    const Tile kr = rows.tile(kn, D, Dtype::kBf16, "k");
    k.dma_copy(k.all(kr), window(Kt, k0, 0, kn, D));
    KvTile kv{kn, transposed(kv_pool, kr, kn, "k_t"), kv_pool.tile(kn, D, Dtype::kBf16, "v")};
    k.dma_copy(k.all(kv.v), window(V, k0, 0, kn, D));
    return kv;
  };
  // The scores of the group's query tiles against one K/V tile, the online softmax update and
  // P @ V, one step at a time for every query tile: each engine's queue runs in order, so the
  // steps of one tile's chain alternate with the other's instead of waiting behind them.
  struct Step {  // the tiles of one query tile's update
    Tile sc, s2, cur, mnew, negm, p, rowsum, alpha, ptp, pt, pv;
  };
  auto blocks = [&](const std::vector<const QTile*>& qs, const KvTile& kv, const QTile* diagonal) {
    const uint32_t kn = kv.kn;
    std::vector<Step> st(qs.size());
    auto each = [&](const std::function<void(const QTile&, Step&)>& f) {
      for (size_t i = 0; i < qs.size(); ++i) f(*qs[i], st[i]);
    };
    DveArgs neg;
    neg.alu0 = DveAlu::kMultiply;
    neg.imm0 = -1.0f;
    ActArgs scl;
    scl.scale = scale;
    const auto rescale = [&](const Step& x) {
      DveArgs a;
      a.alu0 = DveAlu::kMultiply;
      a.s0_vec = k.all(x.alpha);
      a.alu1 = DveAlu::kAdd;
      return a;
    };
    each([&](const QTile& q, Step& x) {
      x.sc = ps.tile(q.qn, kn, Dtype::kFp32, "scores");
      for (uint32_t c = 0; c < chunks; ++c) k.matmul(k.all(x.sc), k.all(q.qt[c]), k.all(kv.kt[c]), c > 0);
    });
    each([&](const QTile& q, Step& x) {
      x.s2 = work.tile(q.qn, kn, Dtype::kFp32, "scaled");
      k.activation(k.all(x.s2), k.all(x.sc), scl);
      if (&q == diagonal)
        k.select(k.all(x.s2), k.sub(mask, 0, q.qn, 0, kn), k.all(x.s2), kernel::Imm::bits(kNegInf));
    });
    each([&](const QTile& q, Step& x) {
      x.cur = vec.tile(q.qn, 1, Dtype::kFp32, "rowmax");
      k.tensor_reduce(k.all(x.cur), k.all(x.s2), DveAlu::kMax);
      x.mnew = vec.tile(q.qn, 1, Dtype::kFp32, "m_new");
      k.tensor_tensor(k.all(x.mnew), k.all(q.m), k.all(x.cur), DveAlu::kMax);
      x.negm = vec.tile(q.qn, 1, Dtype::kFp32, "neg_m");
      k.tensor_scalar(k.all(x.negm), k.all(x.mnew), neg);
    });
    each([&](const QTile& q, Step& x) {
      x.p = p_pool.tile(q.qn, kn, Dtype::kBf16, "p");
      x.rowsum = vec.tile(q.qn, 1, Dtype::kFp32, "rowsum");
      exp_with_row_sums(k, k.all(x.p), k.all(x.s2), k.all(x.negm), k.all(x.rowsum));
      x.alpha = vec.tile(q.qn, 1, Dtype::kFp32, "alpha");
      ActArgs ea;
      ea.func = act::ActFunc::kExp;
      ea.bias_vec = k.all(x.negm);
      k.activation(k.all(x.alpha), k.all(q.m), ea);
    });
    each([&](const QTile& q, Step& x) {
      k.scalar_tensor_tensor(k.all(q.l), k.all(q.l), k.all(x.rowsum), rescale(x));
      x.ptp = pt_ps.tile(kn, q.qn, Dtype::kFp32, "p_t_psum");
      k.pe_transpose(k.all(x.ptp), k.all(x.p));
    });
    each([&](const QTile& q, Step& x) {
      x.pt = p_pool.tile(kn, q.qn, Dtype::kBf16, "p_t");
      k.tensor_copy(k.all(x.pt), k.low_bits(k.all(x.ptp), Dtype::kBf16));
      x.pv = pv_ps.tile(q.qn, D, Dtype::kFp32, "pv");
      k.matmul(k.all(x.pv), k.all(x.pt), k.all(kv.v), false);
    });
    each([&](const QTile& q, Step& x) {
      k.scalar_tensor_tensor(k.all(q.acc), k.all(q.acc), k.all(x.pv), rescale(x));
      k.tensor_copy(k.all(q.m), k.all(x.mnew));
    });
  };
  // Query tiles go in groups of group_tiles: each K/V tile is loaded and transposed once for the
  // group, and the group's update chains (each a run of small dependent instructions on the
  // PE, ACT and DVE) interleave, so one chain's wait is another's work.
  const uint32_t tiles = (S + B - 1) / B;
  for (uint32_t g0 = 0; g0 < tiles; g0 += group_tiles) {  // a static loop over query groups
    std::vector<QTile> group;
    for (uint32_t qi = g0; qi < std::min(tiles, g0 + group_tiles); ++qi) {
      QTile q{qi * B, std::min(B, S - qi * B), {}, {}, {}, {}};
      const Tile qr = rows.tile(q.qn, D, Dtype::kBf16, "q");
      k.dma_copy(k.all(qr), window(Q, q.q0, 0, q.qn, D));
      q.qt = transposed(q_pool, qr, q.qn, "q_t");
      q.m = state.tile(q.qn, 1, Dtype::kFp32, "m");
      q.l = state.tile(q.qn, 1, Dtype::kFp32, "l");
      q.acc = state.tile(q.qn, D, Dtype::kFp32, "o");
      k.memset(k.all(q.m), kernel::Imm::bits(kNegInf));
      k.memset(k.all(q.l), 0.0f);
      k.memset(k.all(q.acc), 0.0f);
      group.push_back(std::move(q));
    }
    // The K/V tiles before the group's first query tile serve every tile of it off the diagonal.
    if (g0 > 0) {
      k.loop(g0, [&](Index j) {
        const KvTile kv = load_kv(j * B, B);
        std::vector<const QTile*> qs;
        for (const QTile& q : group) qs.push_back(&q);
        blocks(qs, kv, nullptr);
      });
    }
    // The group's own K/V tiles: the diagonal for one query tile, behind it for the later ones.
    for (size_t t = 0; t < group.size(); ++t) {
      const KvTile kv = load_kv(Index(group[t].q0), group[t].qn);
      std::vector<const QTile*> qs;
      for (size_t u = t; u < group.size(); ++u) qs.push_back(&group[u]);
      blocks(qs, kv, &group[t]);
    }
    for (const QTile& q : group) {
      const Tile rl = vec.tile(q.qn, 1, Dtype::kFp32, "1/l");
      act_function(k, k.all(rl), k.all(q.l), act::ActFunc::kReciprocal);
      const Tile o = work.tile(q.qn, D, Dtype::kFp32, "out");
      scale_rows(k, k.all(o), k.all(q.acc), k.all(rl));
      k.dma_copy(window(O, q.q0, 0, q.qn, D), k.all(o));
    }
  }
}

Tensors attention_inputs(const Shape& s, uint32_t seed) {
  std::mt19937 rng(seed);
  const size_t n = size_t(s.at("s")) * s.at("d");
  return {{"q", random_tensor(n, Dtype::kBf16, -1, 1, rng)},
          {"k", random_tensor(n, Dtype::kBf16, -1, 1, rng)},
          {"v", random_tensor(n, Dtype::kBf16, -1, 1, rng)}};
}

CheckResult attention_check(const Shape& s, const Tensors& in, const Tensors& out) {
  const uint32_t S = s.at("s"), D = s.at("d");
  const auto q = values(in.at("q"), Dtype::kBf16), kk = values(in.at("k"), Dtype::kBf16),
             v = values(in.at("v"), Dtype::kBf16);
  std::vector<double> ref(size_t(S) * D), mag(size_t(S) * D);
  const double scale = 1 / std::sqrt(double(D));
  for (uint32_t i = 0; i < S; ++i) {
    std::vector<double> w(i + 1);
    double mx = -INFINITY, sum = 0;
    for (uint32_t j = 0; j <= i; ++j) {
      double dot = 0;
      for (uint32_t d = 0; d < D; ++d) dot += q[i * D + d] * kk[j * D + d];
      w[j] = dot * scale;
      mx = std::max(mx, w[j]);
    }
    for (uint32_t j = 0; j <= i; ++j) sum += (w[j] = std::exp(w[j] - mx));
    for (uint32_t d = 0; d < D; ++d) {
      double o = 0, a = 0;
      for (uint32_t j = 0; j <= i; ++j) {
        o += w[j] * v[j * D + d];
        a += w[j] * std::fabs(v[j * D + d]);
      }
      ref[i * D + d] = o / sum;
      mag[i * D + d] = a / sum;
    }
  }
  // The probabilities go through bf16 (relative 2^-9) for the P @ V matmul; the scores and
  // sums stay fp32.
  return compare("o", out.at("o"), D, [&](size_t i) {
    return std::make_pair(ref[i], 0.006 * mag[i] + 1e-6);
  });
}

uint32_t scaled(const CoreConfig& c, double per_partition) {
  return std::max<uint32_t>(1, uint32_t(per_partition * c.partitions));
}

}  // namespace

const std::vector<RefKernel>& reference_kernels() {
  static const std::vector<RefKernel> kKernels = {
      {"gemm", "c = a @ b, bf16 in, fp32 out, any M, K, N",
       "|err| <= gamma_K * sum_k |a_mk b_kn|, gamma_K = K u / (1 - K u), u = 2^-24",
       {"m", "k", "n"},
       [](const CoreConfig& c) {
         return Shape{{"m", 4 * std::min(c.partitions, c.pe_cols) + 3}, {"k", 2 * c.pe_rows + 5},
                      {"n", std::min(c.moving_max_n(), scaled(c, 2.5)) + 7}};
       },
       build_gemm, gemm_inputs,
       [](const Shape& s, const Tensors& in, const Tensors& out) { return gemm_check(s, in, out); }},
      {"gemm_at", "c = a_t^T @ b (a given transposed, K x M, as NKI's lhsT), bf16 in, fp32 out",
       "as gemm", {"m", "k", "n"}, gemm_at_default_shape,
       [](Kernel& k, const Shape& s) { build_gemm_at(k, s, Dtype::kFp32); },
       [](const Shape& s, uint32_t seed) { return gemm_at_inputs(s, seed); },
       [](const Shape& s, const Tensors& in, const Tensors& out) {
         return gemm_at_check(s, in, out, Dtype::kFp32);
       }},
      {"gemm_at_bf16",
       "gemm_at with a bf16 result (fp32 accumulation, rounded once on the copy out of PSUM), as "
       "NKI's tuned matmul stores it",
       "as gemm, plus the result's rounding: |err| <= 2^-8 |ref| + (1 + 2^-8) gamma_K sum_k "
       "|a_mk b_kn|",
       {"m", "k", "n"}, gemm_at_default_shape,
       [](Kernel& k, const Shape& s) { build_gemm_at(k, s, Dtype::kBf16); },
       [](const Shape& s, uint32_t seed) { return gemm_at_inputs(s, seed); },
       [](const Shape& s, const Tensors& in, const Tensors& out) {
         return gemm_at_check(s, in, out, Dtype::kBf16);
       }},
      {"gemm_at_fp8",
       "gemm_at_bf16 with fp8 (e4m3) operands: half the bytes from HBM, the same MACs a cycle",
       "as gemm_at_bf16 (fp8 x fp8 products are exact in fp32 too)",
       {"m", "k", "n"}, gemm_at_default_shape,
       [](Kernel& k, const Shape& s) { build_gemm_at(k, s, Dtype::kBf16, Dtype::kFp8E4M3); },
       [](const Shape& s, uint32_t seed) { return gemm_at_inputs(s, seed, Dtype::kFp8E4M3); },
       [](const Shape& s, const Tensors& in, const Tensors& out) {
         return gemm_at_check(s, in, out, Dtype::kBf16, Dtype::kFp8E4M3);
       }},
      {"softmax", "y = softmax(x) along rows, fp32",
       "|err| <= (D + 8) u |ref|", {"rows", "d"},
       [](const CoreConfig& c) { return Shape{{"rows", 4 * c.partitions + 3}, {"d", 100}}; },
       build_softmax, softmax_inputs, softmax_check},
      {"layernorm", "y = (x - mean) / sqrt(var + 1e-5) * gamma + beta, fp32",
       "|err| <= (2D + 16) u (|x| + |mean|) rstd |gamma| + |beta|", {"rows", "d"},
       [](const CoreConfig& c) { return Shape{{"rows", 4 * c.partitions + 3}, {"d", 96}}; },
       [](Kernel& k, const Shape& s) { build_norm(k, s, false); },
       [](const Shape& s, uint32_t seed) { return norm_inputs(s, seed, false); },
       [](const Shape& s, const Tensors& in, const Tensors& out) { return norm_check(s, in, out, false); }},
      {"rmsnorm", "y = x / sqrt(mean(x^2) + 1e-5) * gamma, fp32",
       "|err| <= (2D + 16) u |x| rstd |gamma|", {"rows", "d"},
       [](const CoreConfig& c) { return Shape{{"rows", 4 * c.partitions + 3}, {"d", 96}}; },
       [](Kernel& k, const Shape& s) { build_norm(k, s, true); },
       [](const Shape& s, uint32_t seed) { return norm_inputs(s, seed, true); },
       [](const Shape& s, const Tensors& in, const Tensors& out) { return norm_check(s, in, out, true); }},
      {"mlp", "y = gelu(x @ w1 + b1) @ w2: bf16 weights, fp32 accumulation",
       "|err| <= 0.004 sum_f |h_tf w2_fd| + 1e-6 (h is rounded to bf16)", {"t", "dm", "f"},
       [](const CoreConfig& c) {
         return Shape{{"t", std::min(c.moving_max_n(), 2 * c.partitions + 1)},
                      {"dm", c.partitions + 3}, {"f", 2 * c.partitions + 5}};
       },
       build_mlp, mlp_inputs, mlp_check},
      {"attention", "causal attention, one head, flash style (K/V tiles streamed)",
       "|err| <= 0.006 sum_j p_ij |v_jd| + 1e-6 (P goes through bf16)", {"s", "d"},
       [](const CoreConfig& c) {
         const uint32_t b = std::min({c.partitions, c.pe_cols, c.moving_max_n()});
         // Five query tiles on tiny and small, so the K/V loops run 1..4 times.
         return Shape{{"s", (c.partitions >= 128 ? 3 : 5) * b + 5}, {"d", std::min(c.partitions, 64u)}};
       },
       build_attention, attention_inputs, attention_check},
  };
  return kKernels;
}

const RefKernel& find_kernel(const std::string& name) {
  std::string names;
  for (const RefKernel& k : reference_kernels()) {
    if (k.name == name) return k;
    names += (names.empty() ? "" : ", ") + k.name;
  }
  throw Error(fmt::format("unknown kernel '{}' (kernels: {})", name, names));
}

Shape parse_shape(const RefKernel& k, const std::string& text, const CoreConfig& cfg) {
  Shape s = k.default_shape(cfg);
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item.empty()) continue;
    const size_t eq = item.find('=');
    const std::string key = item.substr(0, eq);
    if (eq == std::string::npos || std::find(k.dims.begin(), k.dims.end(), key) == k.dims.end())
      throw Error(fmt::format("--shape: '{}' is not KEY=VALUE with KEY one of {}", item,
                              fmt::join(k.dims, ", ")));
    s[key] = uint32_t(parse_uint(item.substr(eq + 1), "--shape " + key, 1, 1u << 20));
  }
  return s;
}

std::string shape_text(const Shape& s) {
  std::string out;
  for (const auto& [k, v] : s) out += fmt::format("{}{}={}", out.empty() ? "" : ",", k, v);
  return out;
}

}  // namespace tern::kernels
