// The GPSIMD library operators (sw/gpsimd/device/tern_gpsimd_ops.h) run by tests/gpsimd/
// ops_program.c on the golden ISS, against plain C++ references written from the operators'
// statements, on seeded random blocks (every partition count to 16, lengths, strides wider than
// a row, the fp32 specials); and the same jobs on the RTL core in lock-step with the ISS. Bad
// indices, k > n and a length that is no power of two give their status codes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "gpsimd/bare_metal.h"
#include "gpsimd/elf_image.h"
#include "gpsimd/ops_job_host.h"
#include "gpsimd/rtl_backend.h"
#include "numerics/numerics.h"
#include "test_util.h"

namespace tern {
namespace {

using test::gpsimd_ops::Job;
using test::gpsimd_ops::at;
using test::gpsimd_ops::job_writes;

struct Ran {
  uint32_t status = 0;
  std::vector<uint32_t> out, out2, in;  // in: sort works in place
};

class GpsimdOps : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    image_ = new gpsimd::ElfImage(gpsimd::load_elf_file(std::string(TERN_GPSIMD_PROGRAMS) + "/ops_program_rv32im.elf"));
  }
  static void TearDownTestSuite() { delete image_; }

  uint32_t io() const { return *image_->symbol("tern_io"); }

  // The job on the ISS: the program must pass; the blocks as it left them.
  Ran run_golden(const Job& j) {
    gpsimd::Core iss(gpsimd::CoreConfig{});
    const gpsimd::BareMetalResult r = gpsimd::run_bare_metal(iss, *image_, 50'000'000, {}, job_writes(j, io()));
    EXPECT_TRUE(r.passed()) << r.summary();
    Ran ran;
    ran.status = iss.read_word(io() + 4 * TERN_JOB_STATUS);
    auto block = [&](uint32_t offset) {
      std::vector<uint32_t> words(j.out.size());
      for (size_t w = 0; w < words.size(); ++w) words[w] = iss.read_word(io() + 4 * (offset + uint32_t(w)));
      return words;
    };
    ran.out = block(TERN_JOB_OUT);
    ran.out2 = block(TERN_JOB_OUT2);
    ran.in = block(TERN_JOB_IN);
    return ran;
  }

  // The job on the RTL in lock-step with the ISS (a difference throws).
  void run_cross(const Job& j) {
    const gpsimd::BareMetalResult r =
        gpsimd::run_bare_metal_rtl(*image_, gpsimd::RtlMode::kCross, 50'000'000, {}, job_writes(j, io()));
    EXPECT_TRUE(r.passed()) << "op " << j.op << ": " << r.summary();
  }

  static gpsimd::ElfImage* image_;
};
gpsimd::ElfImage* GpsimdOps::image_ = nullptr;

// A block shape: 1-16 partitions, n elements, a row stride of n words or a few more.
Job random_shape(std::mt19937_64& rng, uint32_t op, uint32_t max_n = 48) {
  Job j;
  j.op = op;
  j.partitions = 1 + uint32_t(rng() % 16);
  j.n = 1 + uint32_t(rng() % max_n);
  j.stride = 4 * (j.n + (rng() % 2 ? uint32_t(rng() % 8) : 0));
  while (j.partitions * j.stride / 4 > TERN_JOB_BLOCK_WORDS) j.partitions--;
  const size_t words = j.partitions * j.stride / 4;
  j.in.resize(words);
  j.idx.resize(words);
  j.out.resize(words);
  for (auto* v : {&j.in, &j.out}) {
    for (uint32_t& w : *v) w = test::random_fp32_for(Dtype::kFp32, rng);
  }
  return j;
}

constexpr uint32_t key(uint32_t bits) { return (bits & 0x80000000u) ? ~bits : (bits | 0x80000000u); }

TEST_F(GpsimdOps, IotaAndAffineSelectMatchTheirDefinitions) {
  auto rng = test::make_rng();
  for (int trial = 0; trial < 6; ++trial) {
    Job j = random_shape(rng, trial % 2 ? TERN_OP_AFFINE_SELECT : TERN_OP_IOTA);
    j.a = int32_t(rng() % 64) - 32;
    j.b = int32_t(rng() % 5) - 2;
    j.c = trial == 1 ? -1 : int32_t(rng() % 5) - 2;  // trial 1: the causal mask i <= p + a
    j.fill = 0xFF800000u;                             // -inf
    const Ran got = run_golden(j);
    std::vector<uint32_t> want = j.out;
    for (uint32_t p = 0; p < j.partitions; ++p) {
      for (uint32_t i = 0; i < j.n; ++i) {
        const int64_t e = int64_t(j.a) + int64_t(j.b) * p + int64_t(j.c) * i;  // no wrap at these sizes
        want[at(j, p, i)] = j.op == TERN_OP_IOTA ? uint32_t(e) : (e >= 0 ? j.in[at(j, p, i)] : j.fill);
      }
    }
    EXPECT_EQ(got.out, want) << "op " << j.op << " trial " << trial;
    run_cross(j);
  }
}

TEST_F(GpsimdOps, GatherAndScatterMatchTheirDefinitions) {
  auto rng = test::make_rng();
  for (int trial = 0; trial < 6; ++trial) {
    Job j = random_shape(rng, trial % 2 ? TERN_OP_SCATTER : TERN_OP_GATHER);
    j.k = 1 + uint32_t(rng() % (j.stride / 4));  // the source (gather) or destination (scatter) length
    for (uint32_t p = 0; p < j.partitions; ++p) {
      for (uint32_t i = 0; i < j.n; ++i) j.idx[at(j, p, i)] = uint32_t(rng() % j.k);
    }
    const Ran got = run_golden(j);
    EXPECT_EQ(got.status, 0u);
    std::vector<uint32_t> want = j.out;
    for (uint32_t p = 0; p < j.partitions; ++p) {
      for (uint32_t i = 0; i < j.n; ++i) {
        const uint32_t x = j.idx[at(j, p, i)];
        if (j.op == TERN_OP_GATHER) want[at(j, p, i)] = j.in[at(j, p, x)];
        else want[at(j, p, x)] = j.in[at(j, p, i)];
      }
    }
    EXPECT_EQ(got.out, want) << "op " << j.op << " trial " << trial;
    run_cross(j);
  }
}

TEST_F(GpsimdOps, AnIndexOutOfRangeIsNamedAndStopsTheOperator) {
  auto rng = test::make_rng();
  for (uint32_t op : {TERN_OP_GATHER, TERN_OP_SCATTER}) {
    Job j = random_shape(rng, op);
    j.partitions = std::max<uint32_t>(j.partitions, 2);
    j.k = j.n;
    const uint32_t p = 1, i = j.n - 1;
    j.idx[at(j, p, i)] = j.k;  // one past the end
    const Ran got = run_golden(j);
    EXPECT_EQ(got.status, 1 + p * j.n + i) << "op " << op;
    EXPECT_EQ(got.out[at(j, p, i)], j.out[at(j, p, i)]) << "nothing written from the bad element on";
  }
}

TEST_F(GpsimdOps, TopKMatchesAStableRanking) {
  auto rng = test::make_rng();
  for (int trial = 0; trial < 6; ++trial) {
    Job j = random_shape(rng, TERN_OP_TOPK, 32);
    j.k = 1 + uint32_t(rng() % j.n);
    if (trial == 0) {  // ties: equal values must keep their order
      for (uint32_t w = 0; w < j.in.size(); ++w) j.in[w] = 0x3F800000u + uint32_t(rng() % 3);
    }
    const Ran got = run_golden(j);
    EXPECT_EQ(got.status, 0u);
    for (uint32_t p = 0; p < j.partitions; ++p) {
      std::vector<uint32_t> order(j.n);
      std::iota(order.begin(), order.end(), 0u);
      std::stable_sort(order.begin(), order.end(),
                       [&](uint32_t x, uint32_t y) { return key(j.in[at(j, p, x)]) > key(j.in[at(j, p, y)]); });
      for (uint32_t r = 0; r < j.k; ++r) {
        EXPECT_EQ(got.out2[at(j, p, r)], order[r]) << "partition " << p << " rank " << r;
        EXPECT_EQ(got.out[at(j, p, r)], j.in[at(j, p, order[r])]) << "partition " << p << " rank " << r;
      }
    }
    run_cross(j);
  }
  Job bad = random_shape(rng, TERN_OP_TOPK, 8);
  bad.k = bad.n + 1;
  EXPECT_EQ(run_golden(bad).status, 1u) << "k > n";
}

TEST_F(GpsimdOps, SortOrdersEveryPartitionByTheFp32Order) {
  auto rng = test::make_rng();
  for (int trial = 0; trial < 6; ++trial) {
    Job j = random_shape(rng, TERN_OP_SORT);
    j.n = 1u << (rng() % 6);  // 1 .. 32
    j.stride = std::max(j.stride, 4 * j.n);
    while (j.partitions * j.stride / 4 > TERN_JOB_BLOCK_WORDS) j.partitions--;
    j.in.resize(j.partitions * j.stride / 4);
    for (uint32_t& w : j.in) w = test::random_fp32_for(Dtype::kFp32, rng);
    j.out.resize(j.in.size());
    j.idx.resize(j.in.size());
    const Ran got = run_golden(j);
    EXPECT_EQ(got.status, 0u);
    std::vector<uint32_t> want = j.in;
    for (uint32_t p = 0; p < j.partitions; ++p) {
      std::sort(want.begin() + long(at(j, p, 0)), want.begin() + long(at(j, p, j.n)),
                [](uint32_t x, uint32_t y) { return key(x) < key(y); });
    }
    EXPECT_EQ(got.in, want) << "trial " << trial << " n " << j.n;
    run_cross(j);
  }
  Job bad = random_shape(rng, TERN_OP_SORT, 8);
  bad.n = 3;
  EXPECT_EQ(run_golden(bad).status, 1u) << "n not a power of two";
}

// A user-style operator (ops_program.c's cumsum, plain C float): each running sum is one
// round-to-nearest-even add, so the project's fp32 add (model/numerics) is its reference, bit
// for bit; NaN results compare as NaN (soft-float keeps a payload the engines make canonical).
TEST_F(GpsimdOps, AUserCumulativeSumMatchesTheProjectsFp32Add) {
  auto rng = test::make_rng();
  for (int trial = 0; trial < 6; ++trial) {
    Job j = random_shape(rng, TERN_OP_CUMSUM);
    const Ran got = run_golden(j);
    for (uint32_t p = 0; p < j.partitions; ++p) {
      uint32_t sum = 0;
      for (uint32_t i = 0; i < j.n; ++i) {
        sum = i == 0 ? j.in[at(j, p, 0)] : fp32_add(sum, j.in[at(j, p, i)]);
        const uint32_t g = got.out[at(j, p, i)];
        const bool both_nan = std::isnan(test::fp32_value(g)) && std::isnan(test::fp32_value(sum));
        ASSERT_TRUE(g == sum || both_nan) << "partition " << p << " element " << i << std::hex << ": " << g
                                          << ", fp32_add " << sum;
      }
    }
    run_cross(j);
  }
}

}  // namespace
}  // namespace tern
