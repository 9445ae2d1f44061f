// tern_regress: runs a regression list (what `make sim` calls).
#include <fmt/format.h>

#include <string>

#include "regression.h"
#include "cmdline.h"

int main(int argc, char** argv) {
  using namespace tern::sim;
  try {
    RunOptions o;
    std::string list;
    CLI::App app{"tern_regress: runs the tests of a regression list (docs/verification.md, "
                 "\"Waveform regression\") and writes summary.json and junit.xml"};
    app.add_option("list", list, "the regression list, a YAML file")->required();
    app.add_option("--out", o.out_dir, "where each test's log and waves and the reports go")->required();
    app.add_option("--bin-dir", o.bin_dir, "the directory of the tern_sim_<bench> executables")->required();
    app.add_option("--config-dir", o.config_dir, "the configs' directory")->required();
    app.add_option("--test", o.test, "run this test only");
    app.add_option("--tags", o.tags, "run the tests with this tag");
    tern::cli::add_uint(app, "--seed", o.seed, "the base seed");
    unsigned waves = o.waves ? 1 : 0;
    tern::cli::add_uint(app, "--waves", waves, "1: each test writes waves.fst; 0: none", 0, 1);
    tern::cli::add_uint(app, "--timeout-scale", o.timeout_scale,
                        "multiplies every test's timeout (models built for coverage run slower)", 1, 100);
    if (int status = 0; !tern::cli::parse(app, argc, argv, status)) return status;
    o.waves = waves != 0;
    clear_reports(o.out_dir);
    return run_regression(load_regression(list), o) == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    fmt::print(stderr, "tern_regress: error: {}\n", e.what());
    return 2;
  }
}
