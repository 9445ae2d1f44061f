#!/usr/bin/env bash
# The CSR map's SystemVerilog package and docs tables are generated from model/core/csr_map.cc and
# checked in: regenerate both and fail if either checked-in copy differs.
set -euo pipefail
tern=$1; src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
"$tern" csr sv -o "$tmp/tern_csr_pkg.sv"
if ! diff -u "$src/rtl/core/tern_csr_pkg.sv" "$tmp/tern_csr_pkg.sv"; then
  echo "FAIL rtl/core/tern_csr_pkg.sv is out of date: run '$tern csr sv -o rtl/core/tern_csr_pkg.sv' in the repository"
  fail=1
fi
cp "$src/docs/csr.md" "$tmp/csr.md"
"$tern" csr md --update "$tmp/csr.md"
if ! diff -u "$src/docs/csr.md" "$tmp/csr.md"; then
  echo "FAIL docs/csr.md is out of date: run '$tern csr md --update docs/csr.md' in the repository"
  fail=1
fi
[[ $fail == 0 ]] && echo "CSR map package and docs tables in sync with model/core/csr_map.cc"
exit $fail
