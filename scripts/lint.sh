#!/usr/bin/env bash
# Lints and synthesises every RTL module: each module in rtl/**/*.sv and fpga/*.sv.
#   1. verilator --lint-only -Wall with the module as top (warnings are fatal; waivers are
#      scoped /* verilator lint_off RULE */ comments in the RTL, never flags here);
#   2. yosys `synth -noshare -top <root> -run :fine` (elaboration, processes to netlists, no latches,
#      coarse word-level synthesis and memory inference) + `check -assert` for every root (a
#      module nothing else instantiates), at the config's sizes; the modules below a root are
#      synthesised inside it. The gate-level half of synth (techmap, abc) is `make fpga`'s job:
#      on the PE mesh it took a minute and proves nothing more about synthesizability, and
#      the SAT-based resource sharing (`share`) alone took many minutes.
# A top is read with the packages and the files of the modules it uses (found by name).
# Packages (*_pkg.sv, plus the generated tern_cfg_pkg) are read first in every run, and are
# first checked on their own (verilator -Wall, yosys read), so one no top uses yet is linted.
# Prints one PASS/FAIL line for the packages and one per top, and exits non-zero on any failure. Logs: $BUILD/lint/.
# A top that passed before with the same sources (by content, the generated config package
# included), the same tools and the same role is not checked again: $BUILD/lint-passed/ keeps
# one key per config and top. A clean build directory checks everything.
#
# Environment: TERN  tern binary (default build/bin/tern)
#              BUILD build directory (default build)
#              CFG   config whose tern_cfg_pkg the tops see (default fpga)
#              TOPS  space-separated module names: check only these tops (default: all), e.g.
#                    TOPS="tern_link_port tern_link_tx tern_link_rx tern_link_crc" scripts/lint.sh
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
LOG="$BUILD/lint"
require lint verilator yosys

rm -rf "$LOG"
PASSED="$BUILD/lint-passed"
mkdir -p "$LOG" "$BUILD/gen/$CFG" "$PASSED"
tools=$( { verilator --version; yosys -V; sha256sum "${BASH_SOURCE[0]}" scripts/lib.sh; } 2>&1 | tr '\n' ' ')
start=$SECONDS

# --- Sources ------------------------------------------------------------------------------
cfg_package "$LOG" lint

# Yosys' own warnings start a line with "Warning:"; ABC's notes are prefixed "ABC:".
yosys_clean() { ! grep -qE '^Warning:|Latch inferred' "$1"; }

rtl_index "$LOG" lint

# The packages on their own, before any top: a package no module uses yet (tern_isa_pkg) is
# linted too, and a broken package is reported as itself. Verilator checks every function
# body; Yosys only parses a function until a module calls it.
pkg_why=()
verilator --lint-only -Wall "${pkgs[@]}" >"$LOG/packages.verilator.log" 2>&1 \
  || pkg_why+=("verilator: $LOG/packages.verilator.log")
{ yosys -q -l "$LOG/packages.yosys.log" -p "read_verilog -sv ${pkgs[*]}" >/dev/null 2>&1 \
    && yosys_clean "$LOG/packages.yosys.log"; } || pkg_why+=("yosys read: $LOG/packages.yosys.log")

# --- Per top: Verilator lint and Yosys elaboration, one job per core ----------------------
# Each job writes $LOG/<top>.result: the failure reasons (empty when it passed) and, on its
# first line, how Yosys saw it (synth, or inside a parent).
check_top() {
  local top=$1 why=() elab=synth key
  mapfile -t srcs < <(srcs_for "$top")
  [[ -n ${used[$top]:-} ]] && elab=inside
  key=$( { echo "$tools $top $elab"; cat "${srcs[@]}"; } | sha256sum | cut -d' ' -f1)
  if [[ -f "$PASSED/$CFG.$top" && $(<"$PASSED/$CFG.$top") == "$key" ]]; then
    printf '%s\n\n' "$elab" >"$LOG/$top.result"
    : >"$LOG/$top.unchanged"
    return 0
  fi
  rm -f "$PASSED/$CFG.$top"
  if ! verilator --lint-only -Wall --top-module "$top" "${srcs[@]}" \
       >"$LOG/$top.verilator.log" 2>&1; then
    why+=("verilator: $LOG/$top.verilator.log")
  fi
  if [[ $elab == synth ]] && ! { yosys -q -l "$LOG/$top.yosys.log" \
             -p "read_verilog -defer -sv ${srcs[*]}; synth -noshare -top $top -run :fine; check -assert" \
             >/dev/null 2>&1 && yosys_clean "$LOG/$top.yosys.log"; }; then
    why+=("yosys synth: $LOG/$top.yosys.log")
  fi
  { echo "$elab"; (IFS=';'; echo "${why[*]}"); } >"$LOG/$top.result"
  [[ ${#why[@]} -eq 0 ]] && echo "$key" >"$PASSED/$CFG.$top"
  return 0
}
if [[ -n ${TOPS:-} ]]; then
  chosen=()
  for t in $TOPS; do
    [[ -n ${mod_file[$t]:-} ]] || { echo "lint: TOPS names '$t', which is no module under rtl/ or fpga/"; exit 1; }
    chosen+=("$t")
  done
  tops=("${chosen[@]}")
fi
# Roots first: their Yosys runs are the long jobs, so they start while the quick lints fill in.
order=()
for top in "${tops[@]}"; do [[ -z ${used[$top]:-} ]] && order+=("$top"); done
for top in "${tops[@]}"; do [[ -n ${used[$top]:-} ]] && order+=("$top"); done
run_jobs check_top "${order[@]}"
declare -A result elab_ok
for top in "${tops[@]}"; do
  if [[ -f "$LOG/$top.result" ]]; then
    elab_ok[$top]=$(sed -n 1p "$LOG/$top.result")
    result[$top]=$(sed -n 2p "$LOG/$top.result")
  else
    result[$top]="no result (the check crashed)"
  fi
done

fails=0
if [[ ${#pkg_why[@]} -eq 0 ]]; then
  printf 'PASS  %-24s verilator -Wall, yosys read\n' "${#pkgs[@]} packages"
else
  why=$(IFS=';'; echo "${pkg_why[*]}")
  printf 'FAIL  %-24s %s\n' "${#pkgs[@]} packages" "${why//;/, }"
  fails=$((fails + 1))
fi
for top in "${tops[@]}"; do
  if [[ -z ${result[$top]} ]]; then
    if [[ ${elab_ok[$top]:-} == inside ]]; then
      printf 'PASS  %-24s verilator -Wall; synthesised inside its parent\n' "$top"
    else
      printf 'PASS  %-24s verilator -Wall, yosys synth\n' "$top"
    fi
  else
    printf 'FAIL  %-24s %s\n' "$top" "${result[$top]//;/, }"
    fails=$((fails + 1))
  fi
done

unchanged=$(find "$LOG" -name '*.unchanged' | wc -l)
echo "lint: ${#pkgs[@]} packages and ${#tops[@]} tops ($unchanged unchanged since they passed), $fails failed, $((SECONDS - start)) s (config $CFG, logs in $LOG)"
[[ $fails -eq 0 ]]
