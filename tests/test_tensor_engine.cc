// The Tensor Engine + PSUM RTL against the golden model, bit for bit, on the tiny and small
// configs: directed shapes at the edges, every dtype pair, accumulation chains over all banks,
// transposes, special values, illegal commands, and seeded random programs. The tiny config runs
// twice: with the PE mesh's whole operations (as every other model simulates it) and step by
// step (Vtern_tensor_unit_tiny_steps, the form synthesis builds).
#include "Vtern_tensor_unit_small.h"
#include "Vtern_tensor_unit_tiny.h"
#include "Vtern_tensor_unit_tiny_steps.h"
#include "pe_check.h"
#include "test_util.h"

namespace tern {
namespace {

template <typename Model>
struct ConfigOf;
template <>
struct ConfigOf<Vtern_tensor_unit_tiny> {
  static constexpr const char* kName = "tiny";
};
template <>
struct ConfigOf<Vtern_tensor_unit_tiny_steps> {
  static constexpr const char* kName = "tiny";
};
template <>
struct ConfigOf<Vtern_tensor_unit_small> {
  static constexpr const char* kName = "small";
};

template <typename Model>
class TensorEngineTest : public ::testing::Test {
 public:
  TensorEngineTest()
      : cfg(load_config(std::string(TERN_CONFIG_DIR) + "/" + ConfigOf<Model>::kName + ".yaml")),
        rtl(cfg), golden(cfg), psum(cfg) {
    rtl.fill_psum(0);
  }
  tb::CheckResult check(const std::vector<tb::PeOpItem>& ops) {
    tb::CheckResult r = tb::run_and_check(cfg, rtl, golden, psum, ops, 50'000'000);
    EXPECT_EQ(r.mismatches, 0u) << r.first_mismatch << " (TERN_SEED=" << test::test_seed() << ")";
    return r;
  }
  PeCommand ls(Dtype t, uint32_t k, uint32_t m) { return {PeOp::kLoadStationary, t, k, m}; }
  PeCommand mm(Dtype t, uint32_t n, uint32_t bank, uint32_t offset, bool acc) {
    return {PeOp::kMultiplyMoving, t, 0, 0, n, bank, offset, acc};
  }
  CoreConfig cfg;
  tb::RtlTensorUnit<Model> rtl;
  TensorEngine golden;
  Psum psum;
};

using Models = ::testing::Types<Vtern_tensor_unit_tiny, Vtern_tensor_unit_tiny_steps, Vtern_tensor_unit_small>;
TYPED_TEST_SUITE(TensorEngineTest, Models);

TYPED_TEST(TensorEngineTest, SingleMatmulEveryDtypePair) {
  // Every stationary x moving pair, legal ones computed and illegal ones rejected.
  auto rng = test::make_rng();
  int legal = 0;
  for (Dtype ts : tb::kPeDtypes) {
    for (Dtype tm : tb::kPeDtypes) {
      const uint32_t k = this->cfg.pe_rows, m = this->cfg.pe_cols, n = 5;
      this->check({{this->ls(ts, k, m), tb::random_tile(ts, k, m, rng)},
                   {this->mm(tm, n, 1, 3, false), tb::random_tile(tm, k, n, rng)}});
      legal += is_pe_pair(ts, tm);
    }
  }
  EXPECT_EQ(legal, 4 * 4 + 2 * 2);
  EXPECT_EQ(this->rtl.reported_errors().size(), 36u - legal);
}

TYPED_TEST(TensorEngineTest, Fp32MatmulThreePasses) {
  // fp32 x fp32 and fp32 x tf32 with full-mantissa values: the three-pass result, bit-exact,
  // and much closer to the fp64 product than a single TF32 pass.
  auto rng = test::make_rng();
  const uint32_t R = this->cfg.pe_rows, C = this->cfg.pe_cols;
  for (Dtype tm : {Dtype::kFp32, Dtype::kTf32}) {
    const Tile st = tb::random_tile(Dtype::kFp32, R, C, rng), mv = tb::random_tile(tm, R, 9, rng);
    const tb::CheckResult r = this->check({{this->ls(Dtype::kFp32, R, C), st},
                                           {this->mm(tm, 9, 4, 100, false), mv},
                                           {this->mm(tm, 9, 4, 100, true), mv}});
    EXPECT_EQ(r.cycles, r.estimate);
  }
}

TYPED_TEST(TensorEngineTest, EdgeShapes) {
  auto rng = test::make_rng();
  const uint32_t R = this->cfg.pe_rows, C = this->cfg.pe_cols, E = this->cfg.psum_bank_bytes / 4;
  const uint32_t ks[] = {1, R, R > 2 ? R - 1 : 1, (R + 1) / 2 | 1};
  const uint32_t ms[] = {1, C, C > 2 ? C - 1 : 1, 3 % C + 1};
  for (uint32_t k : ks) {
    for (uint32_t m : ms) {
      for (uint32_t n : {1u, 7u, E}) {
        this->check({{this->ls(Dtype::kBf16, k, m), tb::random_tile(Dtype::kBf16, k, m, rng)},
                     {this->mm(Dtype::kBf16, n, 0, 0, false), tb::random_tile(Dtype::kBf16, k, n, rng)}});
      }
    }
  }
  // The bank's last word, and N = 512 at offset 0 of the last bank.
  this->check({{this->ls(Dtype::kFp16, R, C), tb::random_tile(Dtype::kFp16, R, C, rng)},
               {this->mm(Dtype::kFp16, 1, this->cfg.psum_banks - 1, E - 1, false), tb::random_tile(Dtype::kFp16, R, 1, rng)},
               {this->mm(Dtype::kFp16, E, this->cfg.psum_banks - 1, 0, true), tb::random_tile(Dtype::kFp16, R, E, rng)}});
}

TYPED_TEST(TensorEngineTest, AccumulateChainsAcrossAllBanks) {
  auto rng = test::make_rng();
  const uint32_t R = this->cfg.pe_rows, C = this->cfg.pe_cols;
  std::vector<tb::PeOpItem> ops;
  for (int round = 0; round < 6; ++round) {
    const Dtype t = tb::kPeDtypes[round % 5];
    ops.push_back({this->ls(t, R, C), tb::random_tile(t, R, C, rng)});
    for (uint32_t bank = 0; bank < this->cfg.psum_banks; ++bank) {
      ops.push_back({this->mm(t, 16, bank, 8, round > 0), tb::random_tile(t, R, 16, rng)});
    }
  }
  this->check(ops);
}

TYPED_TEST(TensorEngineTest, SpecialValues) {
  // Rows of zeros of both signs, subnormals, max, Inf and NaN in both operands.
  const uint32_t R = this->cfg.pe_rows, C = this->cfg.pe_cols;
  const uint32_t bf16[] = {0x0000, 0x8000, 0x0001, 0x8001, 0x7F7F, 0xFF7F, 0x7F80, 0xFF80, 0x7FC0, 0x3F80, 0xBF80};
  Tile stat(R, std::vector<uint32_t>(C)), mov(R, std::vector<uint32_t>(11));
  for (uint32_t k = 0; k < R; ++k) {
    for (uint32_t m = 0; m < C; ++m) stat[k][m] = bf16[(k * 3 + m) % 11];
    for (uint32_t n = 0; n < 11; ++n) mov[k][n] = bf16[(k + n * 5) % 11];
  }
  this->check({{this->ls(Dtype::kBf16, R, C), stat}, {this->mm(Dtype::kBf16, 11, 2, 0, false), mov},
               {this->mm(Dtype::kBf16, 11, 2, 0, true), mov}});
  // Products that overflow fp32 (bf16 max squared) and underflow below its subnormals.
  Tile big(R, std::vector<uint32_t>(C, 0x7F7F)), tiny_(R, std::vector<uint32_t>(3, 0x0001));
  this->check({{this->ls(Dtype::kBf16, R, C), big}, {this->mm(Dtype::kBf16, 3, 3, 0, false), big[0].size() >= 3 ? Tile(R, std::vector<uint32_t>(3, 0x7F7F)) : tiny_},
               {this->ls(Dtype::kBf16, R, C), Tile(R, std::vector<uint32_t>(C, 0x0001))},
               {this->mm(Dtype::kBf16, 3, 3, 4, false), tiny_}});
}

TYPED_TEST(TensorEngineTest, TransposeIsBitExact) {
  auto rng = test::make_rng();
  const uint32_t R = this->cfg.pe_rows, C = this->cfg.pe_cols;
  for (Dtype t : tb::kPeDtypes) {
    Tile tile(R, std::vector<uint32_t>(C));
    for (auto& row : tile) {
      for (auto& e : row) e = t == Dtype::kTf32 ? static_cast<uint32_t>(rng()) & 0xFFFFE000u
                                                : static_cast<uint32_t>(rng()) & ((1u << dtype_bits(t)) - 1);
    }
    tile[0][0] = t == Dtype::kFp8E4M3 ? 0x7F : t == Dtype::kFp8E5M2 ? 0x7D : t == Dtype::kTf32 ? 0x7F802000u : 0x7FFF;  // a NaN payload
    PeCommand tr{PeOp::kTranspose};
    tr.bank = 5;
    tr.offset = 1;
    this->check({{this->ls(t, R, C), tile}, {tr, {}}});
    EXPECT_EQ(this->psum.read(0, 5 * (this->cfg.psum_bank_bytes / 4) + 1), tile[0][0]);
  }
}

TYPED_TEST(TensorEngineTest, IllegalCommandsAreRejectedAndEngineContinues) {
  auto rng = test::make_rng();
  const uint32_t R = this->cfg.pe_rows, C = this->cfg.pe_cols, E = this->cfg.psum_bank_bytes / 4;
  PeCommand reserved{PeOp::kReserved};
  std::vector<tb::PeOpItem> ops = {
      {this->mm(Dtype::kBf16, 4, 0, 0, false), {}},                   // no stationary yet
      {this->ls(Dtype::kBf16, R + 1, C), {}},                          // K > R
      {this->ls(Dtype::kBf16, 0, C), {}},                              // K = 0
      {this->ls(Dtype::kBf16, R, C + 1), {}},                          // M > C
      {this->ls(Dtype::kInt8, R, C), {}},                              // illegal dtype
      {this->ls(Dtype::kFp16, R, C), tb::random_tile(Dtype::kFp16, R, C, rng)},
      {this->mm(Dtype::kFp16, E + 1, 0, 0, false), {}},               // N > bank
      {this->mm(Dtype::kFp16, 4, 0, E - 3, false), {}},               // offset + N past the bank
      {this->mm(Dtype::kFp16, 4, this->cfg.psum_banks, 0, false), {}},// bank out of range
      {this->mm(Dtype::kTf32, 4, 0, 0, false), {}},                   // tf32 pairs only with fp32/tf32
      {this->mm(Dtype::kUint8, 4, 0, 0, false), {}},                  // illegal dtype
      {reserved, {}},                                                  // reserved opcode
      {this->mm(Dtype::kBf16, 4, 0, 0, false), tb::random_tile(Dtype::kBf16, R, 4, rng)},  // still works
  };
  this->check(ops);
  const std::vector<PeError> want = {PeError::kNoStationary, PeError::kK, PeError::kK, PeError::kM,
                                     PeError::kDtype, PeError::kN, PeError::kN, PeError::kBank,
                                     PeError::kDtype, PeError::kDtype, PeError::kOpcode};
  EXPECT_EQ(this->rtl.reported_errors(), want);
  EXPECT_EQ(this->rtl.error_count(), want.size());
}

TYPED_TEST(TensorEngineTest, BackToBackMatmulsMatchCycleEstimate) {
  auto rng = test::make_rng();
  const uint32_t R = this->cfg.pe_rows, C = this->cfg.pe_cols;
  // A load may start into a buffer from the last issue of the matmul that used it, and takes
  // M = C cycles: with N >= C + 1 every next tile is loaded before the current matmul ends.
  const uint32_t n = C + 1;
  std::vector<tb::PeOpItem> ops;
  for (int i = 0; i < 8; ++i) {
    ops.push_back({this->ls(Dtype::kBf16, R, C), tb::random_tile(Dtype::kBf16, R, C, rng)});
    ops.push_back({this->mm(Dtype::kBf16, n, i % 8, 0, false), tb::random_tile(Dtype::kBf16, R, n, rng)});
  }
  const tb::CheckResult r = this->check(ops);
  EXPECT_EQ(r.cycles, r.estimate);
  // The first load, then 8 x N vectors back to back with no bubble, then the pipeline drains:
  // R rows of kPeAccSteps, the kPeProductSteps, the C columns of the bottom edge.
  EXPECT_EQ(r.cycles, uint64_t{C} + 8 * n + uint64_t{R} * kPeAccSteps + kPeProductSteps + C + 1 +
                          kPsumAccLatency);
}

TYPED_TEST(TensorEngineTest, ShortAccumulatingMatmulsWaitForTheirSums) {
  // Four one-vector matmuls into the same PSUM word, the last three adding to it: each must
  // read the sum the one before wrote, which lands kPsumAccLatency cycles after the mesh
  // presents it, so each issues kPsumAccLatency + 1 cycles after the one before.
  auto rng = test::make_rng();
  const uint32_t R = this->cfg.pe_rows, C = this->cfg.pe_cols;
  std::vector<tb::PeOpItem> ops = {{this->ls(Dtype::kBf16, R, C), tb::random_tile(Dtype::kBf16, R, C, rng)}};
  for (int i = 0; i < 4; ++i) {
    ops.push_back({this->mm(Dtype::kBf16, 1, 1, 7, i > 0), tb::random_tile(Dtype::kBf16, R, 1, rng)});
  }
  const tb::CheckResult r = this->check(ops);
  EXPECT_EQ(r.cycles, r.estimate);
  // The load (C cycles), the first vector, three waits of kPsumAccLatency + 1, the drain.
  EXPECT_EQ(r.cycles, uint64_t{C} + 1 + 3 * (kPsumAccLatency + 1) + uint64_t{R} * kPeAccSteps +
                          kPeProductSteps + C + 1 + kPsumAccLatency);
}

TYPED_TEST(TensorEngineTest, RandomProgramsWithStreamStalls) {
  auto rng = test::make_rng();
  this->rtl.set_stream_stalls(static_cast<uint32_t>(test::test_seed()));
  for (int i = 0; i < 20; ++i) this->check(tb::random_program(this->cfg, 20, rng));
}

TYPED_TEST(TensorEngineTest, PsumPlainPortContendsWithoutCorruption) {
  // While random programs write banks 0..6, the plain port writes every word of bank 7. Where
  // both want a partition in the same cycle the plain port waits; both sets of writes land.
  auto rng = test::make_rng();
  const uint32_t entries = this->cfg.psum_bank_bytes / 4, last = this->cfg.psum_banks - 1;
  tb::ProgramShape shape;
  shape.max_n = 64;
  shape.banks = last;
  std::deque<std::pair<uint32_t, uint32_t>> writes;
  for (uint32_t w = 0; w < entries; ++w) writes.push_back({last * entries + w, 0x3F800000u + w});
  this->rtl.queue_side_writes(writes);
  this->check(tb::random_program(this->cfg, 40, rng, shape));
  EXPECT_GT(this->rtl.side_write_stalls(), 0u) << "no conflict happened: the test proves nothing";
  for (uint32_t w = 0; w < entries; w += 37) {
    const std::vector<uint32_t> row = this->rtl.read_psum(last * entries + w);
    for (uint32_t p = 0; p < this->cfg.partitions; ++p) ASSERT_EQ(row[p], 0x3F800000u + w) << p << " " << w;
  }
}

// 3 x 10^4 random matmuls per config in `make test`, 10^5 in `make test-deep` (TERN_PE_MATMULS
// overrides), in programs of 500,
// split in two halves with different random streams so that CTest runs them in parallel.
template <typename Fixture>
void random_matmuls(Fixture& t) {
  auto rng = test::make_rng();
  const uint64_t total = test::random_count("TERN_PE_MATMULS", 30000, 100000) / 2;
  uint64_t done = 0, words = 0, cycles = 0, estimate = 0;
  while (done < total) {
    const tb::CheckResult r = t.check(tb::random_program(t.cfg, 500, rng));
    if (r.mismatches) break;
    done += r.matmuls;
    words += r.words_checked;
    cycles += r.cycles;
    estimate += r.estimate;
  }
  EXPECT_GE(done, total);
  fmt::print("[ pe       ] {} random matmuls, {} PSUM words compared, {} cycles (estimate {})\n", done,
             words, cycles, estimate);
  EXPECT_EQ(cycles, estimate);
}

TYPED_TEST(TensorEngineTest, RandomMatmulsFirstHalf) { random_matmuls(*this); }
TYPED_TEST(TensorEngineTest, RandomMatmulsSecondHalf) { random_matmuls(*this); }

}  // namespace
}  // namespace tern
