// `tern fpga rom`: the self-checking GEMM that the iCE40 bitstream runs (docs/fpga.md, "The
// Tensor Engine on the iCE40"): its commands, operand streams and the PSUM words it must leave,
// computed by the golden Tensor Engine, as $readmemh files for fpga/tern_fpga_top.sv.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace tern {

// Runs `tern fpga <args>` writing messages to `out`; returns the process exit code.
int run_fpga_command(const std::vector<std::string>& args, std::ostream& out);

}  // namespace tern
