// The regression's contract with a bench, in one place: a bench prints "CYCLES <n>" and ends
// with a line "PASS" only when every check passed; anything else (a failed check, an exception)
// ends with "FAIL" and exit code 1 (docs/verification.md, "Waveform regression").
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <map>
#include <string>
#include <vector>

#include "built_configs.h"
#include "cmdline.h"
#include "common/config.h"
#include "common/error.h"
#include "common/input.h"
#include "common/parse.h"

namespace tern::sim {

struct Verdict {
  uint64_t cycles = 0;
  std::vector<std::string> errors;  // empty: every check passed
};

// Thrown after a bench printed its --help: run_bench exits 0 without a verdict.
struct HelpShown {};

// stdout is line-buffered from here on: the runner logs it to a file, and a bench killed at its
// timeout must leave every line it printed in the log.
template <typename Body>
int run_bench(Body&& body) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  try {
    const Verdict v = body();
    fmt::print("CYCLES {}\n", v.cycles);
    for (const std::string& e : v.errors) fmt::print("ERROR: {}\n", e);
    fmt::print("{}\n", v.errors.empty() ? "PASS" : "FAIL");
    return v.errors.empty() ? 0 : 1;
  } catch (const HelpShown&) {
    return 0;
  } catch (const std::exception& e) {
    fmt::print("ERROR: {}\nFAIL\n", e.what());
    return 1;
  }
}

// A bench's command line (CLI11, tools/cmdline/cmdline.h): --config, --waves and --seed, which
// every bench takes, and the bench's own options, given as option -> default value; --help
// lists them. An unknown option or a missing value is an error (a FAIL verdict), and so is a
// --waves file that cannot be written, before the run.
class BenchArgs {
 public:
  BenchArgs(int argc, char** argv, std::map<std::string, std::string> own) : own_(std::move(own)) {
    CLI::App app{fmt::format("{}: a waveform-regression bench (docs/verification.md); it prints "
                             "CYCLES <n> and PASS or FAIL", argc > 0 ? argv[0] : "bench")};
    app.add_option("--config", config, "the core config, a YAML file");
    app.add_option("--waves", waves, "write FST waves to this file (empty: none)");
    cli::add_uint(app, "--seed", seed, "the random seed");
    for (auto& [name, value] : own_) {
      app.add_option(name, value, "")->default_str(value);
    }
    if (!cli::parse_argv(app, argv[0], std::vector<const char*>(argv, argv + argc), std::cout))
      throw HelpShown{};
    if (!waves.empty()) check_output_path(waves, "--waves");
  }
  std::string config, waves;  // config: a YAML path; waves: an FST path (empty: none)
  uint64_t seed = 1;
  const std::string& text(const std::string& key) const { return own_.at(key); }
  uint32_t number(const std::string& key) const {
    return static_cast<uint32_t>(parse_uint(own_.at(key), key, 0, UINT32_MAX));
  }
  // A probability or rate, in [0, 1].
  double fraction(const std::string& key) const { return parse_real(own_.at(key), key, 0.0, 1.0); }
  std::string require_config() const {
    if (config.empty()) throw Error("--config <yaml> is required");
    return config;
  }
  // The --config file, loaded and required to be the config the models were built with (a file
  // of the same name with other sizes is an error, not a run on hardware of the wrong size).
  CoreConfig built_config() const {
    const CoreConfig cfg = load_config(require_config());
    tb::require_built_config(cfg, fmt::format("--config {}", config));
    return cfg;
  }

 private:
  std::map<std::string, std::string> own_;
};

}  // namespace tern::sim
