// The kernel API (docs/programming-guide.md): write a kernel in C++ against HBM tensors and
// SBUF/PSUM tiles, get an isa::Program. Like NKI, tiles come from pools (bufs > 1 gives double
// buffering); unlike NKI, loops stay loops (they lower to sequencer loops with register-
// relative operands) and synchronisation is automatic: finish() analyses every read and write
// and gives each engine exactly the semaphore waits it needs.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "act/act_functions.h"
#include "act/scalar_engine.h"
#include "common/config.h"
#include "dve/vector_engine.h"
#include "isa/isa.h"
#include "isa/program_image.h"

namespace tern::kernel {

// An affine index over the enclosing loops' variables: c + sum(coef[l] * var_l).
class Index {
 public:
  Index(int64_t c = 0) : c_(c) {}  // NOLINT: plain integers are indices
  static Index var(int loop) {
    Index i;
    i.coef_[loop] = 1;
    return i;
  }
  Index operator+(const Index& o) const;
  Index operator-(const Index& o) const { return *this + o * -1; }
  Index operator*(int64_t k) const;
  int64_t constant() const { return c_; }
  const std::map<int, int64_t>& coefs() const { return coef_; }
  // The value for loop variables `vars[loop]`.
  int64_t eval(const std::vector<int64_t>& vars) const;
  bool is_constant() const { return coef_.empty(); }

 private:
  int64_t c_ = 0;
  std::map<int, int64_t> coef_;
};
inline Index operator*(int64_t k, const Index& i) { return i * k; }
inline Index operator+(int64_t k, const Index& i) { return i + Index(k); }

// A row-major HBM tensor [rows, cols] at an address the kernel assigns.
struct HbmTensor {
  int id = -1;
  std::string name;
  Dtype dtype = Dtype::kFp32;
  uint32_t rows = 0, cols = 0;
  uint64_t address = 0;
  bool output = false;
  uint32_t trip_max = 0;  // a trip count (trip_count()): the largest value the kernel takes
  uint64_t bytes() const { return uint64_t(rows) * cols * (dtype_bits(dtype) / 8); }
};

// A window of an HBM tensor: rows [row0, row0 + nrows) x cols [col0, col0 + ncols). With
// `transposed`, the window is read or written as its transpose (cols on partitions).
struct HbmView {
  const HbmTensor* tensor = nullptr;
  Index row0, col0;
  uint32_t nrows = 0, ncols = 0;
  bool transposed = false;
  bool broadcast = false;  // one row, repeated on every partition of the tile side
  HbmView t() const {
    HbmView v = *this;
    v.transposed = !v.transposed;
    return v;
  }
};

struct Pool;

// A loop trip count read at run time (Kernel::trip_count): a 1 x 1 int32 input tensor the
// program loads, and the largest value the kernel is built, checked and synchronised for.
struct TripCount {
  const HbmTensor* tensor = nullptr;
  uint32_t max = 0;
};

// A tile allocated from a pool: `partitions` x `free` elements of `dtype`.
struct Tile {
  int id = -1;
  std::string name;
  isa::Mem mem = isa::Mem::kSbuf;
  Dtype dtype = Dtype::kFp32;
  uint32_t partitions = 0, free = 0;
};

// A rectangular view of a tile: partitions [p0, p0 + np) x elements [col0, col0 + ncols) with
// element step `step`, in the tile's dtype or, when `as` is set, in dtype `as` (col0, ncols and
// step then count elements of `as`).
struct View {
  int tile = -1;
  uint32_t p0 = 0, np = 0;
  Index col0;
  uint32_t ncols = 0;
  int32_t step = 1;
  std::optional<Dtype> as;
};

class Kernel;

// A tile pool: `bufs` rotating slots, each sized for the largest tile it hands out.
class PoolRef {
 public:
  PoolRef(Kernel* k, int id) : k_(k), id_(id) {}
  Tile tile(uint32_t partitions, uint32_t free, Dtype dtype, const std::string& name);

 private:
  Kernel* k_;
  int id_;
};

// Whether a matmul adds into PSUM or overwrites it: a constant (`true`, `false`), or decided at
// run time, `Accumulate::when_nonzero(kt)`: it adds when the index is nonzero, so the first
// iteration of a K loop overwrites and the others add, and the loop stays a sequencer loop
// (the matmul's acc_reg, docs/isa.md). The index must not decrease with any loop variable
// (a nonnegative constant, positive coefficients): it is zero exactly when every variable it
// names is. Anything else is a tern::Error.
class Accumulate {
 public:
  Accumulate(bool always) : when_(always ? 1 : 0) {}  // NOLINT(google-explicit-constructor)
  static Accumulate when_nonzero(const Index& i);
  // Adds when this index is nonzero.
  const Index& index() const { return when_; }

 private:
  explicit Accumulate(const Index& i) : when_(i) {}
  Index when_;
};

struct ActArgs {
  act::ActFunc func = act::ActFunc::kCopy;
  std::optional<View> scale_vec, bias_vec;  // one value per partition
  float scale = 1.0f, bias = 0.0f;
  act::ReduceCmd reduce = act::ReduceCmd::kIdle;
  act::ReduceOp reduce_op = act::ReduceOp::kAdd;
  std::optional<View> acc_out;  // the accumulators after the instruction, [P, 1]
};

uint32_t fbits(float f);

// The SBUF bytes per partition of one pool slot holding a tile of `bytes` per partition: slots
// are 64-byte aligned (a PSUM slot is a whole bank). What a kernel adds up to plan its pools.
constexpr uint64_t kSbufSlotAlign = 64;
constexpr uint64_t sbuf_slot_bytes(uint64_t bytes) {
  return (bytes + kSbufSlotAlign - 1) / kSbufSlotAlign * kSbufSlotAlign;
}
// The PSUM banks of one pool slot holding a tile of `bytes` per partition (a matmul's result
// never crosses a bank).
constexpr uint64_t psum_slot_banks(uint64_t bytes, uint64_t bank_bytes) {
  return (bytes + bank_bytes - 1) / bank_bytes;
}

// A Vector Engine immediate: 32 bits, said as what they are. A float is its binary32 pattern
// (`imm0 = 0.125f`); an integer for the bitwise and integer ops is `Imm::int32(-7)`; a pattern
// is `Imm::bits(0xFF800000)`. There is no conversion from a plain integer, so `memset(v, 1)`
// does not compile rather than writing the pattern 1 (a denormal) where 1.0f was meant.
class Imm {
 public:
  Imm() = default;
  Imm(float f) : bits_(fbits(f)) {}  // NOLINT(google-explicit-constructor): as a float literal
  Imm(double d) : Imm(float(d)) {}   // NOLINT(google-explicit-constructor)
  template <typename T, typename = std::enable_if_t<std::is_integral_v<T>>>
  Imm(T) = delete;  // an integer: say Imm::int32 or Imm::bits
  static Imm int32(int32_t v) { return from_bits(uint32_t(v)); }
  static Imm bits(uint32_t pattern) { return from_bits(pattern); }
  uint32_t pattern() const { return bits_; }

 private:
  static Imm from_bits(uint32_t b) {
    Imm i;
    i.bits_ = b;
    return i;
  }
  uint32_t bits_ = 0;
};

struct DveArgs {
  DveAlu alu0 = DveAlu::kBypass, alu1 = DveAlu::kBypass;
  std::optional<View> s0_vec, s1_vec;
  Imm imm0, imm1, imm2;
  bool reverse0 = false, reverse1 = false, negate = false;
};

class Kernel {
 public:
  Kernel(const CoreConfig& cfg, const std::string& name);
  ~Kernel();
  Kernel(const Kernel&) = delete;
  Kernel& operator=(const Kernel&) = delete;

  const CoreConfig& config() const { return cfg_; }
  const std::string& name() const { return name_; }

  const HbmTensor& input(const std::string& name, uint32_t rows, uint32_t cols, Dtype dtype);
  const HbmTensor& output(const std::string& name, uint32_t rows, uint32_t cols, Dtype dtype);
  PoolRef sbuf_pool(const std::string& name, uint32_t bufs);
  PoolRef psum_pool(const std::string& name, uint32_t bufs);

  // Whole tile, or a window of it.
  View all(const Tile& t) const;
  View sub(const Tile& t, uint32_t p0, uint32_t np, Index col0, uint32_t ncols) const;
  // The low bits of each 32-bit element of `v`, as dtype `t`: what pe_transpose leaves in PSUM
  // (each element zero-extended in its 32-bit lane).
  View low_bits(const View& v, Dtype t) const;

  // Data movement on a DMA queue, triggered from the SP sequencer.
  void dma_copy(const View& dst, const HbmView& src);
  void dma_copy(const HbmView& dst, const View& src);
  // psum_out[m][n] (+)= sum_k stationary[k][m] * moving[k][n]: LoadStationary + MultiplyMoving.
  void matmul(const View& psum_out, const View& stationary, const View& moving, Accumulate accumulate);
  // The two halves of matmul, so one stationary tile serves several moving tiles:
  // multiply_moving uses the tile of the PE queue's latest load_stationary.
  void load_stationary(const View& stationary);
  void multiply_moving(const View& psum_out, const View& moving, Accumulate accumulate);
  // out (PSUM, M x K) = in^T for in (K x M) through the array.
  void pe_transpose(const View& psum_out, const View& in);
  void activation(const View& out, const View& in, const ActArgs& a);
  void tensor_tensor(const View& out, const View& in0, const View& in1, DveAlu op);
  void tensor_scalar(const View& out, const View& in, const DveArgs& a);
  void scalar_tensor_tensor(const View& out, const View& in0, const View& in1, const DveArgs& a);
  void tensor_reduce(const View& out, const View& in, DveAlu op, bool negate = false);
  void tensor_copy(const View& out, const View& in);
  void transpose(const View& out, const View& in);
  void memset(const View& out, Imm value);
  void iota(const View& out, int32_t base, int32_t partition_step, int32_t element_step,
            isa::Seq on = isa::Seq::kPool);
  void select(const View& out, const View& pred, const View& on_true, Imm on_false);
  void bn_stats(const View& out, const View& in);
  void bn_aggr(const View& out, const View& in);
  // Any Vector Engine op, on the DVE or the POOL sequencer.
  void vector_op(isa::Opcode op, const View& out, const std::optional<View>& in0,
                 const std::optional<View>& in1, const DveArgs& a, isa::Seq on = isa::Seq::kDve);

  // A loop of `count` iterations; the body receives the loop variable. It lowers to a counted
  // sequencer loop on every engine that has work in it (unrolled by the pools' rotation).
  void loop(uint32_t count, const std::function<void(Index)>& body);
  // A loop whose trip count the program reads at run time: one program serves every count
  // from 0 to count.max (a larger value stops the run with kTripCountNotify). Outermost only.
  TripCount trip_count(const std::string& name, uint32_t max);
  void loop(const TripCount& count, const std::function<void(Index)>& body);

  // Lays out the pools, analyses dependencies, inserts synchronisation, emits the program.
  // Throws tern::Error when the kernel does not fit SBUF/PSUM (naming the pool, tile and
  // sizes) or an operand is malformed.
  isa::Program finish();

  // After finish(): the HBM image size the program needs and the tensors' addresses.
  uint64_t hbm_bytes() const;
  // The self-describing image of `program` (finish()'s): this kernel's name and tensor table.
  isa::ProgramImage image(isa::Program program) const;
  const std::vector<std::unique_ptr<HbmTensor>>& tensors() const { return tensors_; }

  struct Impl;

 private:
  const HbmTensor& add_tensor(const std::string& name, uint32_t rows, uint32_t cols, Dtype dtype,
                              bool output);
  PoolRef add_pool(const std::string& name, isa::Mem mem, uint32_t bufs);
  friend class PoolRef;
  CoreConfig cfg_;
  std::string name_;
  std::vector<std::unique_ptr<HbmTensor>> tensors_;
  std::unique_ptr<Impl> impl_;
};

// Rows [r0, r0 + nrows) x cols [c0, c0 + ncols) of an HBM tensor, for dma_copy.
HbmView window(const HbmTensor& t, Index r0, Index c0, uint32_t nrows, uint32_t ncols);

// body(start, size) over [first, first + total) in tiles of `tile`: a loop over the full tiles
// (Kernel::loop), then the remainder tile, if any, as straight-line code: the usual way to walk
// rows P partitions at a time when P does not divide them.
void tile_loop(Kernel& k, uint32_t first, uint32_t total, uint32_t tile,
               const std::function<void(Index, uint32_t)>& body);

}  // namespace tern::kernel
