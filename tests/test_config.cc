// Config loading: the shipped configs load with the ARCHITECTURE.md sizes, and every kind of
// malformed config is rejected with its file, line and reason.
#include <gtest/gtest.h>

#include <fstream>

#include <string>

#include "common/config.h"
#include "common/error.h"
#include "common/parse.h"
#include "test_util.h"

namespace tern {
namespace {

const std::string kTiny = R"(name: tiny
partitions: 8
pe_rows: 8
pe_cols: 8
sbuf_partition_bytes: 16384
psum_banks: 8
psum_bank_bytes: 2048
dma_engines: 2
dma_queues: 4
axi_data_bits: 512
)";

std::string replace_line(const std::string& text, const std::string& key, const std::string& line) {
  const size_t at = text.find(key + ":");
  const size_t end = text.find('\n', at);
  return text.substr(0, at) + line + text.substr(end);
}

// Expects parse_config to throw with every fragment in the message.
void expect_rejected(const std::string& yaml, std::initializer_list<std::string> fragments) {
  try {
    parse_config(yaml, "bad.yaml");
    FAIL() << "accepted:\n" << yaml;
  } catch (const Error& e) {
    const std::string msg = e.what();
    for (const auto& f : fragments) EXPECT_NE(msg.find(f), std::string::npos) << msg;
  }
}

TEST(Config, ShippedConfigsLoad) {
  const std::string dir = TERN_CONFIG_DIR;
  const CoreConfig tiny = load_config(dir + "/tiny.yaml");
  EXPECT_EQ(tiny.partitions, 8u);
  EXPECT_EQ(tiny.pe_cols, 8u);
  EXPECT_EQ(tiny.sbuf_partition_bytes, 16u * 1024);
  const CoreConfig small = load_config(dir + "/small.yaml");
  EXPECT_EQ(small.partitions, 32u);
  EXPECT_EQ(small.sbuf_partition_bytes, 64u * 1024);
  const CoreConfig trn2 = load_config(dir + "/trn2.yaml");
  EXPECT_EQ(trn2.partitions, 128u);
  EXPECT_EQ(trn2.pe_rows, 128u);
  EXPECT_EQ(uint64_t{trn2.partitions} * trn2.sbuf_partition_bytes, 28ull << 20);  // 28 MiB
  EXPECT_EQ(uint64_t{trn2.partitions} * trn2.psum_banks * trn2.psum_bank_bytes, 2ull << 20);
  EXPECT_EQ(trn2.moving_max_n(), 512u);
  EXPECT_NO_THROW(load_config(dir + "/fpga.yaml"));
}

TEST(Config, RejectsUnknownKeyWithLine) {
  expect_rejected(kTiny + "pe_colums: 8\n", {"bad.yaml:11:1", "unknown key 'pe_colums'"});
}

TEST(Config, RejectsWrongType) {
  expect_rejected(replace_line(kTiny, "partitions", "partitions: eight"),
                  {"bad.yaml:2:13", "'partitions' must be a whole number", "eight"});
  expect_rejected(replace_line(kTiny, "pe_cols", "pe_cols: [8, 8]"),
                  {"bad.yaml:4:10", "'pe_cols' must be an integer"});
  expect_rejected(replace_line(kTiny, "dma_queues", "dma_queues: -4"), {"bad.yaml:9", "must be a whole number"});
  // A leading zero is not octal (0100 was 64): it is refused, as is a number with text after it.
  expect_rejected(replace_line(kTiny, "partitions", "partitions: 010"), {"bad.yaml:2:13", "'010'"});
  expect_rejected(replace_line(kTiny, "partitions", "partitions: 8x"), {"bad.yaml:2:13", "'8x'"});
}

// tern::parse_uint and parse_real: the one rule for numbers a user types (common/parse.h).
// Bit patterns in hex (tern fp's operands): digits only, with or without 0x, and no wider than
// asked. stoull took "+5" as 5 and "-1" as 2^64 - 1.
TEST(Parse, HexPatternsAreDigitsThatFit) {
  EXPECT_EQ(parse_hex("3F80", "x", 16), 0x3F80u);
  EXPECT_EQ(parse_hex("0x3f80", "x", 16), 0x3F80u);
  EXPECT_EQ(parse_hex("000000000000000000000001", "x", 8), 1u);  // leading zeros are no width
  EXPECT_EQ(parse_hex("FFFFFFFFFFFFFFFF", "x", 64), UINT64_MAX);
  for (const char* bad : {"+5", "-1", "0x", "", " 5", "5 ", "3F80000G", "0x-1", "1.5"})
    EXPECT_THROW(parse_hex(bad, "x", 32), Error) << bad;
  EXPECT_THROW(parse_hex("1FF", "x", 8), Error);
  EXPECT_THROW(parse_hex("1FFFFFFFFFFFFFFFF", "x", 64), Error);
  try {
    parse_hex("+5", "line 3", 32);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "line 3: '+5' is not a hex number");
  }
}

TEST(Parse, NumbersAreWholeAndInRange) {
  EXPECT_EQ(parse_uint("0", "n"), 0u);
  EXPECT_EQ(parse_uint("4096", "n"), 4096u);
  EXPECT_EQ(parse_uint("0x1F", "n"), 31u);
  EXPECT_EQ(parse_uint("18446744073709551615", "n"), UINT64_MAX);
  EXPECT_EQ(parse_uint("7", "n", 7, 7), 7u);
  const std::pair<const char*, const char*> bad[] = {
      {"", "must be a whole number"},     {"-5", "got '-5'"},     {"5abc", "got '5abc'"},
      {"1e3", "got '1e3'"},                {"010", "got '010'"},   {"0x", "got '0x'"},
      {" 5", "got ' 5'"},                  {"+5", "got '+5'"},     {"0xG", "got '0xG'"},
      {"18446744073709551616", "= 18446744073709551616 is out of range"},
  };
  for (const auto& [text, words] : bad) {
    try {
      parse_uint(text, "--opt");
      ADD_FAILURE() << "'" << text << "' was accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("--opt"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(parse_uint("0", "n", 1, 5), Error);
  EXPECT_THROW(parse_uint("6", "n", 1, 5), Error);
  EXPECT_DOUBLE_EQ(parse_real("1e-5", "ber", 0, 1), 1e-5);
  EXPECT_DOUBLE_EQ(parse_real("0.25", "ber", 0, 1), 0.25);
  for (const char* text : {"", "nan", "inf", "1x", " 1", "2", "-0.5"})
    EXPECT_THROW(parse_real(text, "ber", 0, 1), Error) << text;
}

TEST(Config, RejectsOutOfRange) {
  expect_rejected(replace_line(kTiny, "psum_banks", "psum_banks: 16"),
                  {"bad.yaml:6:13", "'psum_banks' = 16 is out of range [1, 8]"});
  expect_rejected(replace_line(kTiny, "pe_cols", "pe_cols: 6"), {"bad.yaml:4", "power of two"});
  expect_rejected(replace_line(kTiny, "pe_rows", "pe_rows: 16"),
                  {"bad.yaml:3", "pe_rows (16) must equal partitions (8)"});
  // AXI4's widest data bus is 1024 bits, one instruction per beat.
  expect_rejected(replace_line(kTiny, "axi_data_bits", "axi_data_bits: 2048"),
                  {"bad.yaml:10", "'axi_data_bits' = 2048 is out of range [32, 1024]"});
  EXPECT_EQ(parse_config(replace_line(kTiny, "axi_data_bits", "axi_data_bits: 1024"), "wide")
                .axi_data_bits, 1024u);
}

TEST(Config, RejectsMissingKey) {
  expect_rejected(replace_line(kTiny, "axi_data_bits", ""), {"bad.yaml", "missing key 'axi_data_bits'"});
  expect_rejected(replace_line(kTiny, "name", ""), {"missing key 'name'"});
}

TEST(Config, RejectsMalformedYaml) {
  expect_rejected("name: tiny\npartitions: [8\n", {"bad.yaml:", "malformed YAML"});
  expect_rejected("- 1\n- 2\n", {"bad.yaml", "must be a map"});
  EXPECT_THROW(load_config("/nonexistent/config.yaml"), Error);
}

// A key given twice is an error (yaml-cpp keeps the first silently); a name is one word, since
// it lands in generated SystemVerilog and file names.
TEST(Config, RejectsDuplicateKeysAndBadNames) {
  expect_rejected(kTiny + std::string("partitions: 16\n"), {"bad.yaml:11:1", "key 'partitions' is given twice (first at line 2)"});
  expect_rejected(replace_line(kTiny, "name", "name: \"tiny\\n  localparam int X = 1;\""),
                  {"bad.yaml:1", "'name' may use only letters, digits"});
  expect_rejected(replace_line(kTiny, "name", "name: a b"), {"'name' may use only"});
  EXPECT_EQ(parse_config(replace_line(kTiny, "name", "name: my-cfg_2.v1"), "ok").name, "my-cfg_2.v1");
}

// A YAML complex key (a list or map as a key) is an error with its place, not a yaml-cpp
// exception: found by fuzz_config (fuzz/corpus/config/complex-key.yaml), "?\n-".
TEST(Config, RejectsKeysThatAreNoNames) {
  expect_rejected("?\n-", {"bad.yaml:2:1", "a key must be a plain name"});
  expect_rejected(kTiny + std::string("? [a, b]\n: 1\n"), {"a key must be a plain name"});
}

// A config path that is no regular file, or a huge one, fails at once instead of reading forever.
TEST(Config, RejectsFilesThatAreNoConfig) {
  const auto message = [](const char* path) {
    try {
      load_config(path);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message("/dev/zero"), "/dev/zero: the config file is not a regular file");
  EXPECT_EQ(message("/tmp"), "/tmp: the config file is not a regular file");
  EXPECT_EQ(message("/nonexistent/config.yaml"), "/nonexistent/config.yaml: cannot open config file");
  const std::string big = ::testing::TempDir() + "/big_config.yaml";
  {
    std::ofstream out(big);
    out << kTiny << std::string(70 * 1024, '#') << "\n";
  }
  EXPECT_EQ(message(big.c_str()), big + ": the config file is larger than 65536 bytes, the most tern reads");
}

TEST(Config, SvPackageCarriesEveryValue) {
  const std::string sv = config_sv_package(parse_config(kTiny, "tiny"));
  EXPECT_NE(sv.find("package tern_cfg_pkg;"), std::string::npos);
  EXPECT_NE(sv.find("localparam int unsigned Partitions = 8;"), std::string::npos);
  EXPECT_NE(sv.find("localparam int unsigned SbufPartitionBytes = 16384;"), std::string::npos);
  EXPECT_NE(sv.find("localparam int unsigned AxiDataBits = 512;"), std::string::npos);
}

// The random tests' depth (tests/test_util.h): TERN_DEEP picks the size, a count variable
// overrides it, and a depth that is neither 0 nor 1 is an error, not the quick set.
TEST(TestDepth, DeepPicksTheFullSizeAndABadValueThrows) {
  const char* saved = std::getenv("TERN_DEEP");
  const std::string kept = saved ? saved : "";
  ::unsetenv("TERN_DEPTH_PROBE");
  ::unsetenv("TERN_DEEP");
  EXPECT_EQ(test::random_count("TERN_DEPTH_PROBE", 3, 7), 3u);
  ::setenv("TERN_DEEP", "0", 1);
  EXPECT_EQ(test::random_count("TERN_DEPTH_PROBE", 3, 7), 3u);
  ::setenv("TERN_DEEP", "1", 1);
  EXPECT_EQ(test::random_count("TERN_DEPTH_PROBE", 3, 7), 7u);
  ::setenv("TERN_DEPTH_PROBE", "5", 1);
  EXPECT_EQ(test::random_count("TERN_DEPTH_PROBE", 3, 7), 5u);
  ::unsetenv("TERN_DEPTH_PROBE");
  for (const char* bad : {"yes", "2", ""}) {
    ::setenv("TERN_DEEP", bad, 1);
    try {
      test::random_count("TERN_DEPTH_PROBE", 3, 7);
      ADD_FAILURE() << "TERN_DEEP=" << bad << " was accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("TERN_DEEP"), std::string::npos) << e.what();
    }
  }
  if (saved) ::setenv("TERN_DEEP", kept.c_str(), 1);
  else ::unsetenv("TERN_DEEP");
}

}  // namespace
}  // namespace tern
