// A kernel with a run-time trip count, for the golden (test_kernels) and RTL (test_platform)
// tests of kernel::TripCount: for the first n row tiles of x, y's tile = 2 x's tile, and after
// the loop s = the sum of those tiles; rows of y past n tiles stay zero. Its pools hold two
// tiles, so the loop body is two copies and an odd n leaves after the first. s is the Scalar
// Engine's copy of the sum, after the loop: it waits on the loop's signals, so the program's
// bumps for the iterations that did not run are needed.
// The expected outputs are computed here from the inputs (integers, so every sum is exact).
#pragma once

#include <memory>
#include <string>

#include "kernel/kernel.h"
#include "runtime/device.h"
#include "test_util.h"

namespace tern::test {

struct TripKernel {
  std::unique_ptr<kernel::Kernel> k;
  isa::Program program;
  uint32_t rows = 0, cols = 0, max = 0;  // a tile is rows x cols; at most max tiles

  // x[r][c] = (r + 3 c) mod 17, and n.
  std::map<std::string, TensorBits> inputs(uint32_t n) const {
    TensorBits x(size_t(max) * rows * cols);
    for (size_t i = 0; i < x.size(); ++i) x[i] = fp32_bits(float((i / cols + 3 * (i % cols)) % 17));
    return {{"x", x}, {"n", TensorBits{n}}};
  }
  std::map<std::string, TensorBits> expected(uint32_t n) const {
    const TensorBits x = inputs(n).at("x");
    TensorBits y(x.size(), 0), s(size_t(rows) * cols, 0);
    for (size_t i = 0; i < size_t(n) * rows * cols; ++i) {
      y[i] = fp32_bits(2 * fp32_value(x[i]));
      s[i % s.size()] = fp32_bits(fp32_value(s[i % s.size()]) + fp32_value(x[i]));
    }
    return {{"s", s}, {"y", y}};
  }
};

inline TripKernel trip_kernel(const CoreConfig& cfg, uint32_t max) {
  TripKernel t{std::make_unique<kernel::Kernel>(cfg, "scale_rows"), {}, cfg.partitions, 32, max};
  kernel::Kernel& k = *t.k;
  const kernel::TripCount n = k.trip_count("n", max);
  const auto& X = k.input("x", max * t.rows, t.cols, Dtype::kFp32);
  const auto& Y = k.output("y", max * t.rows, t.cols, Dtype::kFp32);
  const auto& S = k.output("s", t.rows, t.cols, Dtype::kFp32);
  auto acc_pool = k.sbuf_pool("acc", 2), in = k.sbuf_pool("in", 2), out = k.sbuf_pool("out", 2);
  const kernel::Tile acc = acc_pool.tile(t.rows, t.cols, Dtype::kFp32, "acc");
  k.memset(k.all(acc), 0.0f);
  k.loop(n, [&](kernel::Index i) {
    const kernel::Tile a = in.tile(t.rows, t.cols, Dtype::kFp32, "a");
    k.dma_copy(k.all(a), kernel::HbmView{&X, i * t.rows, 0, t.rows, t.cols});
    const kernel::Tile y = out.tile(t.rows, t.cols, Dtype::kFp32, "y");
    kernel::DveArgs twice;
    twice.alu0 = DveAlu::kMultiply;
    twice.imm0 = 2.0f;
    k.tensor_scalar(k.all(y), k.all(a), twice);
    k.dma_copy(kernel::HbmView{&Y, i * t.rows, 0, t.rows, t.cols}, k.all(y));
    k.tensor_tensor(k.all(acc), k.all(acc), k.all(a), DveAlu::kAdd);
  });
  // On the Scalar Engine, which waits for the Vector Engine's last add of the loop.
  const kernel::Tile sum = acc_pool.tile(t.rows, t.cols, Dtype::kFp32, "sum");
  k.activation(k.all(sum), k.all(acc), kernel::ActArgs{});
  k.dma_copy(kernel::HbmView{&S, 0, 0, t.rows, t.cols}, k.all(sum));
  t.program = k.finish();
  return t;
}

}  // namespace tern::test
