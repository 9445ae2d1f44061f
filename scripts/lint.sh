#!/usr/bin/env bash
# Lints and synthesises every RTL top: each module in rtl/**/*.sv and fpga/*.sv is a top.
#   1. verilator --lint-only -Wall, one run per top (warnings are fatal; waivers are scoped
#      /* verilator lint_off RULE */ comments in the RTL, never flags here);
#   2. yosys: per top, read + `hierarchy -check -top` + `proc` + `check -assert` (elaboration
#      in the Yosys SV subset); then one generic `synth` + `check -assert` of all the modules
#      that elaborated (each module synthesised once; when it fails, `synth -top` per top finds
#      the culprit).
# A top is read with the packages and the files of the modules it uses (found by name).
# Packages (*_pkg.sv, plus the generated tern_cfg_pkg) are read first in every run.
# Prints one PASS/FAIL line per top and exits non-zero on any failure. Logs: $BUILD/lint/.
#
# Environment: TERN  tern binary (default build/bin/tern)
#              BUILD build directory (default build)
#              CFG   config whose tern_cfg_pkg the tops see (default fpga)
set -euo pipefail

abspath() {  # a path relative to the caller's directory, made absolute
  case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$PWD/$1" ;; esac
}

TERN=$(abspath "${TERN:-build/bin/tern}")
BUILD=$(abspath "${BUILD:-build}")
CFG=${CFG:-fpga}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LOG="$BUILD/lint"
cd "$ROOT"

for tool in verilator yosys; do
  command -v "$tool" >/dev/null || { echo "lint: $tool not found (scripts/bootstrap.sh)"; exit 2; }
done
[[ -x "$TERN" ]] || { echo "lint: tern binary not found at $TERN (build it, or set TERN=)"; exit 2; }

rm -rf "$LOG"
mkdir -p "$LOG" "$BUILD/gen/$CFG"
start=$SECONDS

# --- Sources ------------------------------------------------------------------------------
# Written to a temporary file and replaced only when it changed, so a build that depends on
# the same file is not made out of date.
cfg_pkg="$BUILD/gen/$CFG/tern_cfg_pkg.sv"
"$TERN" config sv "configs/$CFG.yaml" -o "$LOG/tern_cfg_pkg.sv" >"$LOG/tern_config.log" 2>&1 || {
  echo "FAIL  tern config sv configs/$CFG.yaml (see $LOG/tern_config.log)"; exit 1; }
cmp -s "$LOG/tern_cfg_pkg.sv" "$cfg_pkg" || cp "$LOG/tern_cfg_pkg.sv" "$cfg_pkg"

mapfile -t pkgs < <(find rtl -name '*_pkg.sv' | LC_ALL=C sort)
pkgs=("$cfg_pkg" "${pkgs[@]}")
mapfile -t rtl_srcs < <(find rtl -name '*.sv' ! -name '*_pkg.sv' | LC_ALL=C sort)
mapfile -t fpga_srcs < <(find fpga -maxdepth 1 -name '*.sv' 2>/dev/null | LC_ALL=C sort)

modules_in() {  # the module names declared in the given files
  sed -nE 's/^[[:space:]]*module[[:space:]]+(static[[:space:]]+|automatic[[:space:]]+)?([A-Za-z_][A-Za-z0-9_$]*).*/\2/p' "$@"
}

# Each module file is read only with the files it needs (every module whose name it mentions,
# transitively), so one broken file fails only the tops that use it.
tops=()
declare -A mod_file   # module -> its file
for f in "${rtl_srcs[@]}" "${fpga_srcs[@]}"; do
  for m in $(modules_in "$f"); do tops+=("$m"); mod_file[$m]=$f; done
done
[[ ${#tops[@]} -gt 0 ]] || { echo "lint: no modules found under rtl/ or fpga/"; exit 1; }
printf '%s\n' "${tops[@]}" >"$LOG/modules.txt"
declare -A file_deps  # file -> the module names it mentions
for f in "${rtl_srcs[@]}" "${fpga_srcs[@]}"; do
  file_deps[$f]=$(grep -ohwF -f "$LOG/modules.txt" "$f" | LC_ALL=C sort -u | tr '\n' ' ')
done

srcs_for() {  # the packages, then the files of the top and of every module it uses
  local -A seen=()
  local todo=("$1") m f
  while [[ ${#todo[@]} -gt 0 ]]; do
    m=${todo[0]}; todo=("${todo[@]:1}")
    f=${mod_file[$m]}
    [[ -n ${seen[$f]:-} ]] && continue
    seen[$f]=1
    for m in ${file_deps[$f]}; do todo+=("$m"); done
  done
  printf '%s\n' "${pkgs[@]}"
  for f in "${rtl_srcs[@]}" "${fpga_srcs[@]}"; do
    [[ -n ${seen[$f]:-} ]] && printf '%s\n' "$f"
  done
  return 0
}

# Yosys' own warnings start a line with "Warning:"; ABC's notes are prefixed "ABC:".
yosys_clean() { ! grep -q '^Warning:' "$1"; }

# --- Per top: Verilator lint and Yosys elaboration ----------------------------------------
declare -A result elab_ok
for top in "${tops[@]}"; do
  mapfile -t srcs < <(srcs_for "$top")
  why=()
  if ! verilator --lint-only -Wall --top-module "$top" "${srcs[@]}" \
       >"$LOG/$top.verilator.log" 2>&1; then
    why+=("verilator: $LOG/$top.verilator.log")
  fi
  if yosys -q -l "$LOG/$top.yosys.log" \
       -p "read_verilog -sv ${srcs[*]}; hierarchy -check -top $top; proc; check -assert" \
       >/dev/null 2>&1 && yosys_clean "$LOG/$top.yosys.log"; then
    elab_ok[$top]=1
  else
    why+=("yosys elaboration: $LOG/$top.yosys.log")
  fi
  result[$top]=$(IFS=';'; echo "${why[*]}")
done

# --- Generic synthesis: every module that elaborated, once, in one Yosys run --------------
# (synth -top per top would synthesise the shared blocks again for every top: 4x slower.)
declare -A in_synth
synth_srcs=()
for top in "${tops[@]}"; do
  [[ -n ${elab_ok[$top]:-} ]] || continue
  while read -r f; do
    [[ -n ${in_synth[$f]:-} ]] && continue
    in_synth[$f]=1
    synth_srcs+=("$f")
  done < <(srcs_for "$top")
done
synth_ok=1
if [[ ${#synth_srcs[@]} -gt 0 ]] && ! {
     yosys -q -l "$LOG/synth_all.log" \
       -p "read_verilog -sv ${synth_srcs[*]}; hierarchy -check; synth; check -assert; tee -q -o $LOG/synth_all.stat stat" \
       >/dev/null 2>&1 && yosys_clean "$LOG/synth_all.log"; }; then
  # Find the tops it fails for.
  synth_ok=0
  for top in "${tops[@]}"; do
    [[ -n ${elab_ok[$top]:-} ]] || continue
    mapfile -t srcs < <(srcs_for "$top")
    if ! yosys -q -l "$LOG/$top.synth.log" \
         -p "read_verilog -sv ${srcs[*]}; synth -top $top; check -assert" >/dev/null 2>&1 ||
       ! yosys_clean "$LOG/$top.synth.log"; then
      result[$top]+="${result[$top]:+;}yosys synth: $LOG/$top.synth.log"
    fi
  done
fi

fails=0
for top in "${tops[@]}"; do
  if [[ -z ${result[$top]} ]]; then
    printf 'PASS  %-24s verilator -Wall, yosys elaboration + synth\n' "$top"
  else
    printf 'FAIL  %-24s %s\n' "$top" "${result[$top]//;/, }"
    fails=$((fails + 1))
  fi
done
if [[ $synth_ok -eq 0 && $fails -eq 0 ]]; then
  echo "FAIL  yosys synth of all modules (see $LOG/synth_all.log)"
  fails=1
fi

echo "lint: ${#tops[@]} tops, $fails failed, $((SECONDS - start)) s (config $CFG, logs in $LOG)"
[[ $fails -eq 0 ]]
