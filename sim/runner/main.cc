// tern_regress: runs a regression list (what `make sim` calls).
#include <fmt/format.h>

#include <string>

#include "common/error.h"
#include "common/parse.h"
#include "regression.h"

int main(int argc, char** argv) {
  using namespace tern::sim;
  try {
    RunOptions o;
    std::string list;
    for (int i = 1; i < argc; ++i) {
      const std::string k = argv[i];
      auto value = [&]() -> std::string {
        if (i + 1 >= argc) throw tern::Error(fmt::format("option {} needs a value", k));
        return argv[++i];
      };
      if (k == "--out") o.out_dir = value();
      else if (k == "--bin-dir") o.bin_dir = value();
      else if (k == "--config-dir") o.config_dir = value();
      else if (k == "--test") o.test = value();
      else if (k == "--tags") o.tags = value();
      else if (k == "--seed") o.seed = tern::parse_uint(value(), "--seed");
      else if (k == "--waves") o.waves = tern::parse_uint(value(), "--waves", 0, 1) != 0;
      else if (!k.empty() && k[0] != '-' && list.empty()) list = k;
      else throw tern::Error(fmt::format("unknown argument '{}'", k));
    }
    if (list.empty() || o.out_dir.empty() || o.bin_dir.empty() || o.config_dir.empty()) {
      throw tern::Error("usage: tern_regress <list.yaml> --out DIR --bin-dir DIR --config-dir DIR "
                        "[--test NAME] [--tags TAG] [--seed N] [--waves 0|1]");
    }
    clear_reports(o.out_dir);
    return run_regression(load_regression(list), o) == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    fmt::print(stderr, "tern_regress: error: {}\n", e.what());
    return 2;
  }
}
