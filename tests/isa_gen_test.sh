#!/usr/bin/env bash
# The ISA's SystemVerilog package and docs tables are generated from model/isa/isa.cc and
# checked in: regenerate both and fail if either checked-in copy differs.
set -euo pipefail
tern=$1; src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
"$tern" isa sv -o "$tmp/tern_isa_pkg.sv"
if ! diff -u "$src/rtl/core/tern_isa_pkg.sv" "$tmp/tern_isa_pkg.sv"; then
  echo "FAIL rtl/core/tern_isa_pkg.sv is out of date: run '$tern isa sv -o rtl/core/tern_isa_pkg.sv' in the repository"
  fail=1
fi
cp "$src/docs/isa.md" "$tmp/isa.md"
"$tern" isa md --update "$tmp/isa.md"
if ! diff -u "$src/docs/isa.md" "$tmp/isa.md"; then
  echo "FAIL docs/isa.md is out of date: run '$tern isa md --update docs/isa.md' in the repository"
  fail=1
fi
[[ $fail == 0 ]] && echo "ISA package and docs tables in sync with model/isa/isa.cc"
exit $fail
