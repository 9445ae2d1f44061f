// The regression-list schema: good lists parse, malformed ones fail with file, line and reason.
#include <gtest/gtest.h>

#include "common/error.h"
#include "regression.h"

namespace tern::sim {
namespace {

void expect_rejected(const std::string& yaml, const std::string& fragment) {
  try {
    parse_regression(yaml, "list.yaml");
    FAIL() << "accepted:\n" << yaml;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(RegressionList, ParsesDefaultsAndFields) {
  const auto tests = parse_regression(R"(tests:
  - name: a
    bench: fp
  - name: b
    bench: fp
    args: [--scenario, mac]
    tags: [smoke, nightly]
    config: small
    seeds: 3
    timeout: 10
)", "list.yaml");
  ASSERT_EQ(tests.size(), 2u);
  EXPECT_EQ(tests[0].config, "tiny");
  EXPECT_EQ(tests[0].seeds, 1u);
  EXPECT_EQ(tests[1].args, (std::vector<std::string>{"--scenario", "mac"}));
  EXPECT_EQ(tests[1].tags.size(), 2u);
  EXPECT_EQ(tests[1].seeds, 3u);
  EXPECT_EQ(tests[1].timeout_s, 10u);
}

TEST(RegressionList, ShippedListsParse) {
  EXPECT_GE(load_regression(std::string(TERN_SOURCE_DIR) + "/sim/regressions/default.yaml").size(), 6u);
}

TEST(RegressionList, RejectsMalformed) {
  expect_rejected("tests:\n  - name: a\n    bench: fp\n    seed: 3\n", "list.yaml:4:5: unknown key 'seed'");
  expect_rejected("tests:\n  - name: a\n", "list.yaml:2:5: test is missing 'bench'");
  expect_rejected("tests:\n  - name: a\n    bench: fp\n    seeds: many\n", "list.yaml:4:12: 'seeds' must be a whole number");
  expect_rejected("tests:\n  - name: a\n    bench: fp\n    timeout: 0\n", "'timeout' = 0 is out of range [1, 36000]");
  expect_rejected("tests:\n  - name: a\n    bench: fp\n    tags: smoke\n", "list.yaml:4:11: 'tags' must be a list");
  expect_rejected("tests:\n  - {name: a, bench: fp}\n  - {name: a, bench: fp}\n", "duplicate test name 'a'");
  expect_rejected("tests:\n  - name: a b\n    bench: fp\n", "may use only letters");
  expect_rejected("tests: [\n", "malformed YAML");
  expect_rejected("test:\n  - name: a\n", "a regression list is a map with a 'tests' list");
}

}  // namespace
}  // namespace tern::sim
