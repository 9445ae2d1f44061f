// tern-rtl: `tern run` with the RTL backends linked in (the verilated NeuronCore in the SystemC
// platform). `tern run --backend rtl|cross` hands over to it with the same arguments; it can
// also be called directly: tern-rtl <kernel> [tern run options].
#include <fmt/format.h>

#include <iostream>
#include <string>
#include <systemc>
#include <vector>

#include "runtime/rtl_backend.h"
#include "run_command.h"

int sc_main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  try {
    return tern::run_run_command(args, std::cout, tern::rtl_runner());
  } catch (const std::exception& e) {
    fmt::print(stderr, "tern: error: {}\n", e.what());
    return 1;
  }
}
