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
tools=$( { verilator --version; yosys -V; sha256sum "${BASH_SOURCE[0]}"; } 2>&1 | tr '\n' ' ')
start=$SECONDS

# --- Sources ------------------------------------------------------------------------------
# Written to a temporary file and replaced only when it changed, so a build that depends on
# the same file is not made out of date.
cfg_pkg="$BUILD/gen/$CFG/tern_cfg_pkg.sv"
"$TERN" config sv "configs/$CFG.yaml" -o "$LOG/tern_cfg_pkg.sv" >"$LOG/tern_config.log" 2>&1 || {
  echo "FAIL  tern config sv configs/$CFG.yaml (see $LOG/tern_config.log)"; exit 1; }
cmp -s "$LOG/tern_cfg_pkg.sv" "$cfg_pkg" || cp "$LOG/tern_cfg_pkg.sv" "$cfg_pkg"

# Yosys' own warnings start a line with "Warning:"; ABC's notes are prefixed "ABC:".
yosys_clean() { ! grep -qE '^Warning:|Latch inferred' "$1"; }

# Packages in dependency order: a package is placed once every package it names is placed.
mapfile -t unplaced < <(find rtl -name '*_pkg.sv' | LC_ALL=C sort)
pkgs=("$cfg_pkg")
placed=" tern_cfg_pkg "
while [[ ${#unplaced[@]} -gt 0 ]]; do
  left=()
  for f in "${unplaced[@]}"; do
    ready=1
    for dep in $(sed 's://.*$::' "$f" | grep -oE '\b[a-z_0-9]+_pkg\b' | sort -u); do
      [[ "$dep" == "$(basename "$f" .sv)" || "$placed" == *" $dep "* ]] || ready=0
    done
    if [[ $ready -eq 1 ]]; then pkgs+=("$f"); placed+="$(basename "$f" .sv) "; else left+=("$f"); fi
  done
  [[ ${#left[@]} -lt ${#unplaced[@]} ]] || { echo "lint: package dependency cycle among ${left[*]}"; exit 1; }
  unplaced=("${left[@]}")
done
# The packages on their own, before any top: a package no module uses yet (tern_isa_pkg) is
# linted too, and a broken package is reported as itself. Verilator checks every function
# body; Yosys only parses a function until a module calls it.
pkg_why=()
verilator --lint-only -Wall "${pkgs[@]}" >"$LOG/packages.verilator.log" 2>&1 \
  || pkg_why+=("verilator: $LOG/packages.verilator.log")
{ yosys -q -l "$LOG/packages.yosys.log" -p "read_verilog -sv ${pkgs[*]}" >/dev/null 2>&1 \
    && yosys_clean "$LOG/packages.yosys.log"; } || pkg_why+=("yosys read: $LOG/packages.yosys.log")
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
  file_deps[$f]=$(sed 's://.*$::' "$f" | grep -ohwF -f "$LOG/modules.txt" | LC_ALL=C sort -u | tr '\n' ' ')
done

# Roots: modules no other module instantiates. Yosys elaborates and synthesises each root once,
# with everything below it, at the parameters the design really uses (the config's); a
# module inside a root is synthesised as part of it rather than alone at its default sizes,
# which for the PE mesh would only repeat the same work.
declare -A used
for f in "${rtl_srcs[@]}" "${fpga_srcs[@]}"; do
  own=" $(modules_in "$f" | tr '\n' ' ') "
  for m in ${file_deps[$f]}; do
    [[ "$own" == *" $m "* ]] || used[$m]=1
  done
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
jobs_max=$(nproc 2>/dev/null || echo 2)
# Roots first: their Yosys runs are the long jobs, so they start while the quick lints fill in.
order=()
for top in "${tops[@]}"; do [[ -z ${used[$top]:-} ]] && order+=("$top"); done
for top in "${tops[@]}"; do [[ -n ${used[$top]:-} ]] && order+=("$top"); done
for top in "${order[@]}"; do
  while [[ $(jobs -rp | wc -l) -ge $jobs_max ]]; do wait -n || true; done
  check_top "$top" &
done
wait
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
