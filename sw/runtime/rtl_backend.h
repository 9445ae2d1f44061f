// The runtime's RTL backends (tern::Device with Backend::kRtl / kCross, docs/platform.md), in
// library tern_runtime_rtl (the package's tern::rtl): rtl_runner() is the SystemC platform of
// tb/platform as tern::Device's DeviceOptions::rtl. The verilated core
// exists for the tiny and small configs; SystemC elaborates once per process, so a process
// runs one config on the RTL (a second one is a tern::Error).
//
// A program linking it starts at sc_main instead of main: SystemC's library holds main, which
// calls sc_main (declared here as SystemC declares it, so a program need not include SystemC).
#pragma once

#include "runtime/device.h"

extern "C" int sc_main(int argc, char* argv[]);

namespace tern {

RtlRunner rtl_runner();

}  // namespace tern
