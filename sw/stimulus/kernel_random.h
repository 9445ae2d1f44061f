// Kernels as HBM images for the NeuronCore RTL: the reference kernels, and constrained-random
// kernels written against the kernel API (sw/kernel), for comparing the
// NeuronCore RTL with the golden model end to end: inputs loaded by DMA, a random chain of
// Tensor, Scalar and Vector Engine operations (matmul and pe_transpose through PSUM,
// activations, tensor_tensor and tensor_scalar ops, dtype casts), the result stored by DMA;
// sometimes inside a hardware loop over column blocks, with single or double buffering. The
// kernel API inserts the synchronisation, so every program is race-free by construction.
#pragma once

#include <fmt/format.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "common/config.h"
#include "core/memory.h"
#include "core_compare.h"
#include "kernel/kernel.h"
#include "kernels/kernels.h"

namespace tern::stimulus {

using tb::HbmRegion;

// A kernel ready to run: its program, its HBM image and its tensors.
struct KernelImage {
  std::unique_ptr<kernel::Kernel> k;
  isa::Program program;
  std::vector<uint8_t> hbm;          // the image: inputs at their addresses, outputs zero
  std::vector<HbmRegion> regions;    // every tensor
  std::string recipe;                // what was generated, for failure messages
};

// Each tensor as a region; `fill` gives the raw bits of input `name`'s element i.
template <typename Fill>
void lay_out_tensors(KernelImage& img, Fill&& fill) {
  img.hbm.assign(img.k->hbm_bytes(), 0);
  for (const auto& t : img.k->tensors()) {
    const uint32_t eb = core::dtype_bytes(t->dtype);
    img.regions.push_back({t->name, t->address, t->bytes(), eb});
    if (t->output) continue;
    for (uint64_t i = 0; i < uint64_t(t->rows) * t->cols; ++i) {
      const uint32_t v = fill(*t, i);
      for (uint32_t b = 0; b < eb; ++b) img.hbm[t->address + i * eb + b] = uint8_t(v >> (8 * b));
    }
  }
}

// A reference kernel (sw/kernels) at `shape` with its inputs for `seed`.
inline KernelImage reference_kernel_image(const kernels::RefKernel& ref, const CoreConfig& cfg,
                                          const kernels::Shape& shape, uint32_t seed) {
  KernelImage img;
  img.k = std::make_unique<kernel::Kernel>(cfg, ref.name);
  ref.build(*img.k, shape);
  img.program = img.k->finish();
  const kernels::Tensors in = ref.inputs(shape, seed);
  lay_out_tensors(img, [&](const kernel::HbmTensor& t, uint64_t i) { return in.at(t.name)[i]; });
  img.recipe = fmt::format("{} {}", ref.name, kernels::shape_text(shape));
  return img;
}

inline KernelImage random_kernel(const CoreConfig& cfg, std::mt19937_64& rng) {
  using kernel::HbmView;
  using kernel::Index;
  using kernel::View;
  KernelImage rk;
  rk.k = std::make_unique<kernel::Kernel>(cfg, "random");
  kernel::Kernel& k = *rk.k;
  const uint32_t P = cfg.partitions, R = std::min(cfg.pe_rows, P), C = std::min(cfg.pe_cols, P);
  const uint32_t rows = 1 + uint32_t(rng() % R);
  uint32_t cols = 1 + uint32_t(rng() % std::min<uint32_t>(C, 16));
  const uint32_t blocks = rng() % 3 == 0 ? 2 + uint32_t(rng() % 3) : 1;  // a hardware loop
  const Dtype ydt = rng() % 2 ? Dtype::kFp32 : Dtype::kBf16;
  const auto& x = k.input("x", rows, cols * blocks, Dtype::kFp32);
  const auto& y = k.input("y", rows, cols * blocks, ydt);
  const uint32_t bufs = 1 + uint32_t(rng() % 2);  // single or double buffering of the inputs
  auto in = k.sbuf_pool("in", 2 * bufs);
  auto work = k.sbuf_pool("work", 3);
  auto ps = k.psum_pool("ps", 2);
  rk.recipe = fmt::format("x,y {}x{} ({} block(s), y {}):", rows, cols * blocks, blocks, dtype_name(ydt));

  // The op chain is drawn once and replayed in every block.
  enum Op { kTT, kAct, kTS, kCast, kMatmul, kPeTranspose };
  std::vector<int> ops;
  std::vector<uint32_t> args;
  const int count = 1 + int(rng() % 4);
  uint32_t r = rows, c = cols;
  for (int i = 0; i < count; ++i) {
    int op = int(rng() % 6);
    if ((op == kMatmul || op == kPeTranspose) && (r > R || c > C)) op = kAct;
    if (op == kTT && (r != rows || c != cols)) op = kTS;
    ops.push_back(op);
    args.push_back(uint32_t(rng()));
    if (op == kMatmul) {  // the Gram matrix: [r x c]^T [r x c] -> [c x c]
      r = c;
    } else if (op == kPeTranspose) {
      std::swap(r, c);
    }
  }
  const auto& o = k.output("o", r, c * blocks, Dtype::kFp32);

  auto body = [&](Index blk) {
    kernel::Tile a = in.tile(rows, cols, Dtype::kFp32, "a");
    kernel::Tile b = in.tile(rows, cols, ydt, "b");
    k.dma_copy(k.all(a), HbmView{&x, 0, blk * int64_t(cols), rows, cols});
    k.dma_copy(k.all(b), HbmView{&y, 0, blk * int64_t(cols), rows, cols});
    kernel::Tile cur = a;
    // A PSUM result goes on in SBUF (copied by DVE); the last op's may go to HBM by DMA
    // straight from PSUM instead, so the DMA's PSUM-to-HBM direction is in the random set.
    auto leave_psum = [&](const kernel::Tile& acc, size_t i, uint32_t arg, const char* name) {
      if (i + 1 == ops.size() && (arg >> 1) % 2) return acc;
      kernel::Tile t = work.tile(acc.partitions, acc.free, Dtype::kFp32, name);
      k.tensor_copy(k.all(t), k.all(acc));
      return t;
    };
    for (size_t i = 0; i < ops.size(); ++i) {
      const uint32_t arg = args[i];
      switch (ops[i]) {
        case kTT: {
          const DveAlu alus[] = {DveAlu::kAdd, DveAlu::kSubtract, DveAlu::kMultiply, DveAlu::kMax,
                                 DveAlu::kMin};
          kernel::Tile t = work.tile(cur.partitions, cur.free, Dtype::kFp32, "tt");
          k.tensor_tensor(k.all(t), k.all(cur), k.all(b), alus[arg % 5]);
          cur = t;
          break;
        }
        case kAct: {
          kernel::ActArgs a2;
          a2.func = act::ActFunc(arg % act::kNumActFuncs);
          a2.scale = (arg >> 8) % 2 ? 1.0f : 0.5f + float((arg >> 9) % 8) / 4;
          a2.bias = float(int((arg >> 12) % 5) - 2) / 8;
          kernel::Tile t = work.tile(cur.partitions, cur.free, Dtype::kFp32, "act");
          k.activation(k.all(t), k.all(cur), a2);
          cur = t;
          break;
        }
        case kTS: {
          kernel::DveArgs d;
          d.alu0 = arg % 2 ? DveAlu::kMultiply : DveAlu::kAdd;
          d.imm0 = float(int(arg >> 4) % 17 - 8) / 4;
          kernel::Tile t = work.tile(cur.partitions, cur.free, Dtype::kFp32, "ts");
          k.tensor_scalar(k.all(t), k.all(cur), d);
          cur = t;
          break;
        }
        case kCast: {  // through a narrower float and back
          const Dtype mid = arg % 2 ? Dtype::kBf16 : Dtype::kFp16;
          kernel::Tile n = work.tile(cur.partitions, cur.free, mid, "narrow");
          k.tensor_copy(k.all(n), k.all(cur));
          kernel::Tile w = work.tile(cur.partitions, cur.free, Dtype::kFp32, "wide");
          k.tensor_copy(k.all(w), k.all(n));
          cur = w;
          break;
        }
        case kMatmul: {  // bf16 x bf16, or fp32 x fp32 in three passes
          kernel::Tile m = cur;
          if (arg % 2) {
            m = work.tile(cur.partitions, cur.free, Dtype::kBf16, "mov");
            k.tensor_copy(k.all(m), k.all(cur));
          }
          kernel::Tile acc = ps.tile(cur.free, cur.free, Dtype::kFp32, "acc");
          k.matmul(k.all(acc), k.all(m), k.all(m), false);
          cur = leave_psum(acc, i, arg, "mm");
          break;
        }
        case kPeTranspose: {
          kernel::Tile acc = ps.tile(cur.free, cur.partitions, Dtype::kFp32, "tr");
          k.pe_transpose(k.all(acc), k.all(cur));
          cur = leave_psum(acc, i, arg, "trs");
          break;
        }
        default: break;
      }
    }
    k.dma_copy(HbmView{&o, 0, blk * int64_t(c), r, c}, k.all(cur));
  };
  const char* names[] = {"tensor_tensor", "activation", "tensor_scalar", "cast", "matmul",
                         "pe_transpose"};
  for (int op : ops) rk.recipe += fmt::format(" {}", names[op]);
  if (blocks > 1) k.loop(blocks, body);
  else body(Index(0));
  rk.program = k.finish();

  // Values in [-4, 4): exact in bf16 and fp32 so the cast paths see real data.
  lay_out_tensors(rk, [&](const kernel::HbmTensor& t, uint64_t) {
    const uint32_t v = kernel::fbits(float(int(rng() % 64) - 32) / 8);
    return t.dtype == Dtype::kBf16 ? v >> 16 : v;
  });
  return rk;
}

}  // namespace tern::stimulus
