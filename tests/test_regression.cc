// The regression-list schema: good lists parse, malformed ones fail with file, line and reason.
// The junit escaper: any bytes give well-formed XML.
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

// Expected texts written from the XML 1.0 and UTF-8 rules: the five markup characters become
// entities; a byte that starts no well-formed UTF-8 sequence, an overlong form, a surrogate, a
// control character other than tab/newline and U+FFFF each become one U+FFFD per byte dropped.
TEST(JunitEscape, AnyBytesGiveWellFormedXml) {
  const std::string fffd = "\xEF\xBF\xBD";
  EXPECT_EQ(xml_escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&apos;");
  EXPECT_EQ(xml_escape("line\n\ttab\r"), "line\n\ttab&#13;");
  EXPECT_EQ(xml_escape("caf\xC3\xA9 \xF0\x9F\x99\x82"), "caf\xC3\xA9 \xF0\x9F\x99\x82");  // 2- and 4-byte forms kept
  EXPECT_EQ(xml_escape("\xFF\xFE"), fffd + fffd);
  EXPECT_EQ(xml_escape("x\x01y\x1Fz"), "x" + fffd + "y" + fffd + "z");
  EXPECT_EQ(xml_escape("\xC0\xAF"), fffd + fffd);            // overlong '/'
  EXPECT_EQ(xml_escape("\xED\xA0\x80"), fffd + fffd + fffd);  // surrogate U+D800
  EXPECT_EQ(xml_escape("\xEF\xBF\xBF"), fffd);                // U+FFFF, not an XML character
  EXPECT_EQ(xml_escape("\xF4\x90\x80\x80"), fffd + fffd + fffd + fffd);  // past U+10FFFF
  EXPECT_EQ(xml_escape("cut \xE2\x82"), "cut " + fffd + fffd);  // a sequence the text ends inside
}

}  // namespace
}  // namespace tern::sim
