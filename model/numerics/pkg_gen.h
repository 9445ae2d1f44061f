// The project-wide SystemVerilog package tern_pkg (rtl/common/tern_pkg.sv), generated from the
// numerics' definitions (dtype.h, numerics.h): the dtype codes and float layouts, the canonical
// NaN and the rounding codes, written once here. `tern numerics sv` prints it;
// tests/numerics_gen_test.sh checks the checked-in copy.
#pragma once

#include <string>

namespace tern {

std::string tern_sv_package();

}  // namespace tern
