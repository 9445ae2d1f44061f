// The runtime's RTL backends (tern::Device with Backend::kRtl / kCross, docs/platform.md):
// register_rtl_backend() plugs the SystemC platform into tern::Device. The verilated core
// exists for the tiny and small configs; SystemC elaborates once per process, so a process
// runs one config on the RTL (a second one is a tern::Error).
#pragma once

namespace tern::tb {

void register_rtl_backend();

}  // namespace tern::tb
