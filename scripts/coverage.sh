#!/usr/bin/env bash
# Code coverage of the RTL (`make coverage`, docs/verification.md "Coverage"): runs make test's
# CTest suite and the smoke regression on the coverage build (every model verilated with
# --coverage, TERN_COVERAGE=ON), merges what every model wrote and reports it.
#
#   scripts/coverage.sh BUILD_DIR     the coverage build, already built (the Makefile does it)
#
# A whole run is longer than one working session on two cores, so it can be taken in parts:
# TESTS=<regex> runs only the CTest tests it matches (and no smoke regression unless SIM=1),
# KEEP=1 keeps the counters earlier parts wrote (BUILD_DIR/data), and every part merges and
# reports everything written so far. A part's data is only valid for the sources it was built
# from: rebuilding the coverage models after an RTL change needs a fresh start (no KEEP).
#
# Writes BUILD_DIR/summary.json (per RTL unit: line, toggle and branch coverage in percent, the
# goals and the waived units), BUILD_DIR/coverage.info (lcov) and BUILD_DIR/html/index.html.
# Exits 1 when a test failed or a unit misses its goal without a waiver (sim/coverage.yaml).
set -euo pipefail
cd "$(dirname "$0")/.."

build=${1:?usage: scripts/coverage.sh BUILD_DIR}
data=$build/data
[[ "${KEEP:-0}" == 1 ]] || rm -rf "$data"
rm -rf "$build/html" "$build/summary.json" "$build/coverage.info"
mkdir -p "$data"
export TERN_COVERAGE_DIR=$(realpath "$data")
export TERN=$(realpath "$build/bin/tern")

# The random tests' counts, cut for the coverage models (4-6 times slower): the points they
# reach saturate well before make test's counts (docs/verification.md "Code coverage"). Set
# any of them to run more.
export TERN_PE_MATMULS=${TERN_PE_MATMULS:-20000} TERN_DVE_INSTRS=${TERN_DVE_INSTRS:-3000}
export TERN_CORE_PROGRAMS=${TERN_CORE_PROGRAMS:-60} TERN_RANDOM_PROGRAMS=${TERN_RANDOM_PROGRAMS:-2000}
echo "[ coverage ] random counts: TERN_PE_MATMULS=$TERN_PE_MATMULS TERN_DVE_INSTRS=$TERN_DVE_INSTRS" \
  "TERN_CORE_PROGRAMS=$TERN_CORE_PROGRAMS TERN_RANDOM_PROGRAMS=$TERN_RANDOM_PROGRAMS"

# The coverage models are 4-6 times slower: the scripts' own time limits (tests/*.sh) and the
# regression's scale by this, as CTest's do (tests/CMakeLists.txt).
export TERN_TIMEOUT_SCALE=8

status=0
echo "[ coverage ] make test's suite on the coverage models ($build)${TESTS:+, tests matching $TESTS}"
ctest --test-dir "$build" -j "${JOBS:-2}" --output-on-failure ${TESTS:+-R "$TESTS"} >"$build/ctest.log" 2>&1 \
  || { status=1; echo "FAIL  ctest: $build/ctest.log"; }
tail -n 3 "$build/ctest.log"
if [[ -n "${TESTS:-}" && "${SIM:-0}" != 1 ]]; then
  echo "[ coverage ] the smoke regression: not in this part (TESTS without SIM=1)"
else
  echo "[ coverage ] the smoke regression"
  "$build/bin/tern_regress" sim/regressions/default.yaml --out "$build/sim" --bin-dir "$build/bin" \
    --config-dir configs --seed 1 --waves 0 --tags smoke --timeout-scale "$TERN_TIMEOUT_SCALE" >"$build/sim.log" 2>&1 \
    || { status=1; echo "FAIL  smoke regression: $build/sim.log"; }
  tail -n 2 "$build/sim.log"
fi

files=$(find "$data" -name '*.dat' | wc -l)
echo "[ coverage ] merging $files coverage files"
find "$data" -name '*.dat' -print0 | xargs -0 verilator_coverage --write "$build/merged.dat"
verilator_coverage --write-info "$build/coverage.info" "$build/merged.dat"
genhtml --quiet --output-directory "$build/html" --title "tern RTL coverage" \
  --ignore-errors source "$build/coverage.info" >"$build/genhtml.log" 2>&1 \
  || { status=1; echo "FAIL  genhtml: $build/genhtml.log"; }
python3 scripts/coverage_report.py "$build/merged.dat" sim/coverage.yaml "$build/summary.json" \
  || status=1
echo "[ coverage ] $build/summary.json, $build/html/index.html"
exit $status
