// Regression lists are data (sim/regressions/*.yaml): test name, bench, arguments, tags,
// config, seed count and timeout. This is the list's schema and the runner that executes it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tern::sim {

struct RegressionTest {
  std::string name;
  std::string bench;              // runs <bin-dir>/tern_sim_<bench>
  std::vector<std::string> args;  // passed to the bench as is
  std::vector<std::string> tags;  // e.g. smoke, nightly
  std::string config = "tiny";    // configs/<config>.yaml
  uint32_t seeds = 1;             // runs with seeds base .. base + seeds - 1
  uint32_t timeout_s = 120;
};

// Parses and validates a regression list; throws tern::Error with file, line and reason.
std::vector<RegressionTest> parse_regression(const std::string& yaml_text, const std::string& source);
std::vector<RegressionTest> load_regression(const std::string& path);

struct RunOptions {
  std::string out_dir;      // build/sim
  std::string bin_dir;      // where tern_sim_<bench> live
  std::string config_dir;   // configs/
  std::string test;         // only this test (empty: all selected by tags)
  std::string tags;         // only tests with this tag ("all" or empty: every test)
  uint64_t seed = 1;        // base seed
  bool waves = true;
  uint32_t timeout_scale = 1;  // every test's timeout times this (slow models: coverage)
};

// Runs the selected tests, prints progress and a summary table, writes summary.json and
// junit.xml under out_dir; returns the number of failed runs.
int run_regression(const std::vector<RegressionTest>& tests, const RunOptions& options);

// Removes the last run's summary.json and junit.xml, so a run that stops early (a bad list, an
// unknown test) leaves no report of an earlier run behind. The runner calls it first.
void clear_reports(const std::string& out_dir);

// Text made safe for an XML 1.0 document (junit.xml): markup characters escaped, and bytes that
// are not UTF-8 or characters XML does not allow (controls other than tab, newline and carriage
// return; U+FFFE, U+FFFF) replaced by U+FFFD.
std::string xml_escape(std::string_view s);

}  // namespace tern::sim
