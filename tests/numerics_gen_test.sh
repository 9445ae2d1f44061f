#!/usr/bin/env bash
# The project-wide package tern_pkg is generated from model/numerics (dtype codes and layouts,
# the canonical NaN, the rounding codes) and checked in: regenerate it and fail on any difference.
set -euo pipefail
tern=$1; src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$tern" numerics sv -o "$tmp/tern_pkg.sv"
if ! diff -u "$src/rtl/common/tern_pkg.sv" "$tmp/tern_pkg.sv"; then
  echo "FAIL rtl/common/tern_pkg.sv is out of date: run '$tern numerics sv -o rtl/common/tern_pkg.sv' in the repository"
  exit 1
fi
echo "tern_pkg in sync with model/numerics"
