#!/usr/bin/env bash
# scripts/timing.sh refuses bad settings before it measures anything, naming the setting:
# ONLY must be area or timing, TOPS must name modules under rtl/ or fpga/.
set -euo pipefail
src=$1 tern=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$src"

fail=0
expect_fail() {  # expect_fail <what> <message part> <env assignments...>
  local what=$1 msg=$2; shift 2
  if env BUILD="$tmp/build" TERN="$tern" "$@" scripts/timing.sh > "$tmp/out" 2>&1; then
    echo "FAIL $what: accepted"; fail=1; return
  fi
  if ! grep -qF -- "$msg" "$tmp/out"; then echo "FAIL $what: no '$msg' in:"; cat "$tmp/out"; fail=1; return; fi
  echo "ok   $what"
}
expect_fail "ONLY=both" "ONLY is 'both'; it takes area or timing" ONLY=both TOPS=tern_spill
expect_fail "a TOPS module that does not exist" "TOPS names 'tern_nosuch'" TOPS=tern_nosuch
exit $fail
