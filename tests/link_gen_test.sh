#!/usr/bin/env bash
# The NeuronLink format's SystemVerilog package and docs tables are generated from model/link/link_format.cc and
# checked in: regenerate both and fail if either checked-in copy differs.
set -euo pipefail
tern=$1; src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
"$tern" link sv -o "$tmp/tern_link_pkg.sv"
if ! diff -u "$src/rtl/link/tern_link_pkg.sv" "$tmp/tern_link_pkg.sv"; then
  echo "FAIL rtl/link/tern_link_pkg.sv is out of date: run '$tern link sv -o rtl/link/tern_link_pkg.sv' in the repository"
  fail=1
fi
cp "$src/docs/link.md" "$tmp/link.md"
"$tern" link md --update "$tmp/link.md"
if ! diff -u "$src/docs/link.md" "$tmp/link.md"; then
  echo "FAIL docs/link.md is out of date: run '$tern link md --update docs/link.md' in the repository"
  fail=1
fi
# Bad usage is refused in words.
if "$tern" link bogus >"$tmp/bad.out" 2>&1 || ! grep -q "A subcommand is required" "$tmp/bad.out"; then
  echo "FAIL 'tern link bogus' should fail in words"; cat "$tmp/bad.out"
  fail=1
fi
if "$tern" link md --update "$tmp/none.md" >"$tmp/bad2.out" 2>&1; then
  echo "FAIL 'tern link md --update' of a missing file should fail"
  fail=1
fi
[[ $fail == 0 ]] && echo "NeuronLink format package and docs tables in sync with model/link/link_format.cc"
exit $fail
