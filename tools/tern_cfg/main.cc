// tern-cfg <config.yaml> <out.sv>: writes a config's SystemVerilog package. CMake builds and
// runs this at configure time (cmake/config_packages.cmake), before any verilation, so every
// verilated model is sized by the same YAML parser as the golden model.
#include <fmt/format.h>

#include <fstream>

#include "common/config.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    fmt::print(stderr, "usage: tern-cfg <config.yaml> <out.sv>\n");
    return 2;
  }
  try {
    const std::string text = tern::config_sv_package(tern::load_config(argv[1]));
    std::ofstream out(argv[2]);
    out << text;
    if (!out) throw std::runtime_error(fmt::format("{}: cannot write", argv[2]));
    return 0;
  } catch (const std::exception& e) {
    fmt::print(stderr, "tern-cfg: error: {}\n", e.what());
    return 1;
  }
}
