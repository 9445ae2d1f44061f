#!/usr/bin/env bash
# The Scalar Engine's constants are generated into the golden model and the RTL: regenerate
# them and fail if either checked-in copy differs.
set -euo pipefail
src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$src/scripts/act_coeffs.py" "$tmp/act_coeffs.h" "$tmp/tern_act_coeff_pkg.sv"
cmp "$tmp/act_coeffs.h" "$src/model/act/act_coeffs.h"
cmp "$tmp/tern_act_coeff_pkg.sv" "$src/rtl/act/tern_act_coeff_pkg.sv"
echo "act coefficients in sync"
