// tern-cfg CONFIG.yaml OUT.sv: writes a config's SystemVerilog package. CMake builds and runs
// this at configure time (cmake/config_packages.cmake), before any verilation, so every
// verilated model is sized by the same YAML parser as the golden model.
#include <fmt/format.h>

#include <fstream>
#include <string>

#include "cmdline.h"
#include "common/config.h"
#include "common/error.h"
#include "common/input.h"

int main(int argc, char** argv) {
  std::string config, out;
  CLI::App app{"tern-cfg: writes a config's SystemVerilog package (tern_cfg_pkg) for verilation"};
  app.add_option("config", config, "the config, a YAML file (configs/*.yaml)")->required();
  app.add_option("out", out, "the package to write (.sv)")->required();
  if (int status = 0; !tern::cli::parse(app, argc, argv, status)) return status;
  try {
    tern::check_output_path(out, "tern-cfg OUT", {config});
    const std::string text = tern::config_sv_package(tern::load_config(config));
    std::ofstream file(out, std::ios::binary);
    file << text;
    file.close();
    if (!file) throw tern::Error(fmt::format("{}: cannot write", out));
    return 0;
  } catch (const std::exception& e) {
    fmt::print(stderr, "tern-cfg: error: {}\n", e.what());
    return 1;
  }
}
