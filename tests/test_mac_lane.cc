// The clocked MAC lane streams dot products through valid/ready and must equal the golden fold
// of mac_step, under random back-pressure on its result port.
#include "mac_lane.h"
#include "test_util.h"

namespace tern {
namespace {

TEST(MacLane, RandomDotProductsWithBackpressure) {
  auto rng = test::make_rng();
  constexpr Dtype kTypes[] = {Dtype::kBf16, Dtype::kFp16, Dtype::kFp8E4M3, Dtype::kFp8E5M2};
  std::vector<std::vector<tb::MacElement>> vectors(2000);
  for (auto& v : vectors) {
    const Dtype ta = kTypes[rng() % 4], tb = kTypes[rng() % 4];
    v.resize(1 + rng() % 64);
    for (auto& e : v) {
      // Moderate exponents keep most sums finite so the accumulation itself is exercised.
      e = {ta, static_cast<uint32_t>(rng()) & ((1u << dtype_bits(ta)) - 1) & (dtype_bits(ta) == 16 ? 0xBFFFu : 0xBFu),
           tb, static_cast<uint32_t>(rng()) & ((1u << dtype_bits(tb)) - 1)};
    }
  }
  tb::RtlMacLane lane;
  lane.set_backpressure(static_cast<uint32_t>(test::test_seed()));
  const std::vector<uint32_t> got = lane.run(vectors, 4000000);
  ASSERT_EQ(got.size(), vectors.size());
  size_t elements = 0;
  for (size_t i = 0; i < vectors.size(); ++i) {
    elements += vectors[i].size();
    ASSERT_EQ(got[i], tb::golden_dot(vectors[i])) << "vector " << i << " (TERN_SEED=" << test::test_seed() << ")";
  }
  EXPECT_FALSE(lane.dtype_error());
  // An element every kMacLaneElementCycles; a stalled result port delays a vector's last
  // element only, while the result before it waits.
  EXPECT_GE(lane.cycles(), elements * tb::kMacLaneElementCycles);
  EXPECT_LT(lane.cycles(), elements * tb::kMacLaneElementCycles + vectors.size() * 8);
}

TEST(MacLane, IllegalDtypeRaisesErrorAndPoisons) {
  tb::RtlMacLane lane;
  const std::vector<std::vector<tb::MacElement>> vectors = {
      {{Dtype::kBf16, 0x3F80, Dtype::kBf16, 0x4000}, {Dtype::kInt8, 1, Dtype::kBf16, 0x3F80}}};
  const auto got = lane.run(vectors, 100);
  EXPECT_TRUE(lane.dtype_error());
  EXPECT_EQ(got.at(0), kFp32CanonicalNaN);
}

}  // namespace
}  // namespace tern
