# Shared set-up of the flow scripts (lint.sh, fpga.sh, timing.sh): sourced, not run.
# Sets TERN, BUILD and CFG (absolute paths, defaults build/bin/tern, build, fpga), ROOT (the
# repository) and changes to ROOT; `require <flow> <tool>...` stops when a tool is missing.

abspath() {  # a path relative to the caller's directory, made absolute
  case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$PWD/$1" ;; esac
}

TERN=$(abspath "${TERN:-build/bin/tern}")
BUILD=$(abspath "${BUILD:-build}")
CFG=${CFG:-fpga}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

require() {
  local flow=$1 tool
  shift
  for tool in "$@"; do
    command -v "$tool" >/dev/null || { echo "$flow: $tool not found (scripts/bootstrap.sh)"; exit 2; }
  done
  [[ -x "$TERN" ]] || { echo "$flow: tern binary not found at $TERN (build it, or set TERN=)"; exit 2; }
}

# The config's generated SV packages in $BUILD/gen/$CFG/: tern_cfg_pkg, and tern_fpga_rom_pkg
# (the iCE40 top's GEMM and its golden results, for a FPGA_ROWS x FPGA_COLS engine slice,
# default 1 x 1: docs/fpga.md). Each is written through SCRATCH and replaced only when it
# changed, so a build that depends on the same file is not made out of date.
# `cfg_package SCRATCH FLOW` sets cfg_pkg and rom_pkg; stops on a bad config.
FPGA_ROWS=${FPGA_ROWS:-1}
FPGA_COLS=${FPGA_COLS:-1}
cfg_package() {
  local scratch=$1 flow=$2
  cfg_pkg="$BUILD/gen/$CFG/tern_cfg_pkg.sv"
  rom_pkg="$BUILD/gen/$CFG/tern_fpga_rom_pkg.sv"
  mkdir -p "$BUILD/gen/$CFG"
  "$TERN" config sv "configs/$CFG.yaml" -o "$scratch/tern_cfg_pkg.sv" >"$scratch/tern_config.log" 2>&1 || {
    echo "FAIL  $flow: tern config sv configs/$CFG.yaml (see $scratch/tern_config.log)"; exit 1; }
  cmp -s "$scratch/tern_cfg_pkg.sv" "$cfg_pkg" || cp "$scratch/tern_cfg_pkg.sv" "$cfg_pkg"
  "$TERN" fpga rom "configs/$CFG.yaml" --rows "$FPGA_ROWS" --cols "$FPGA_COLS" \
    -o "$scratch/tern_fpga_rom_pkg.sv" >"$scratch/tern_fpga_rom.log" 2>&1 || {
    echo "FAIL  $flow: tern fpga rom configs/$CFG.yaml (see $scratch/tern_fpga_rom.log)"; exit 1; }
  cmp -s "$scratch/tern_fpga_rom_pkg.sv" "$rom_pkg" || cp "$scratch/tern_fpga_rom_pkg.sv" "$rom_pkg"
}

modules_in() {  # the module names declared in the given files
  sed -nE 's/^[[:space:]]*module[[:space:]]+(static[[:space:]]+|automatic[[:space:]]+)?([A-Za-z_][A-Za-z0-9_$]*).*/\2/p' "$@"
}

# `rtl_index SCRATCH FLOW` indexes rtl/ and fpga/ (after cfg_package) and sets:
#   pkgs       the packages in dependency order, the config's generated ones first;
#   rtl_srcs, fpga_srcs  the module files; tops  every module, in file order;
#   mod_file   module -> its file; file_deps  file -> the module names it mentions;
#   used       module -> 1 when another module instantiates it (the rest are roots).
# `srcs_for TOP` then prints the packages and the files of TOP and of every module it uses.
rtl_index() {
  local scratch=$1 flow=$2 f m dep ready own left unplaced placed
  # Packages in dependency order: a package is placed once every package it names is placed.
  mapfile -t unplaced < <(find rtl -name '*_pkg.sv' | LC_ALL=C sort)
  pkgs=("$cfg_pkg" "$rom_pkg")
  placed=" tern_cfg_pkg tern_fpga_rom_pkg "
  while [[ ${#unplaced[@]} -gt 0 ]]; do
    left=()
    for f in "${unplaced[@]}"; do
      ready=1
      for dep in $(sed 's://.*$::' "$f" | grep -oE '\b[a-z_0-9]+_pkg\b' | sort -u); do
        [[ "$dep" == "$(basename "$f" .sv)" || "$placed" == *" $dep "* ]] || ready=0
      done
      if [[ $ready -eq 1 ]]; then pkgs+=("$f"); placed+="$(basename "$f" .sv) "; else left+=("$f"); fi
    done
    [[ ${#left[@]} -lt ${#unplaced[@]} ]] || { echo "$flow: package dependency cycle among ${left[*]}"; exit 1; }
    unplaced=("${left[@]}")
  done
  mapfile -t rtl_srcs < <(find rtl -name '*.sv' ! -name '*_pkg.sv' | LC_ALL=C sort)
  mapfile -t fpga_srcs < <(find fpga -maxdepth 1 -name '*.sv' 2>/dev/null | LC_ALL=C sort)

  # Each module file is read only with the files it needs (every module whose name it mentions,
  # transitively), so one broken file fails only the tops that use it.
  tops=()
  declare -gA mod_file   # module -> its file
  for f in "${rtl_srcs[@]}" "${fpga_srcs[@]}"; do
    for m in $(modules_in "$f"); do tops+=("$m"); mod_file[$m]=$f; done
  done
  [[ ${#tops[@]} -gt 0 ]] || { echo "$flow: no modules found under rtl/ or fpga/"; exit 1; }
  printf '%s\n' "${tops[@]}" >"$scratch/modules.txt"
  declare -gA file_deps  # file -> the module names it mentions
  for f in "${rtl_srcs[@]}" "${fpga_srcs[@]}"; do
    file_deps[$f]=$(sed 's://.*$::' "$f" | grep -ohwF -f "$scratch/modules.txt" | LC_ALL=C sort -u | tr '\n' ' ')
  done

  # Roots: modules no other module instantiates. Yosys elaborates and synthesises each root once,
  # with everything below it, at the parameters the design really uses (the config's); a
  # module inside a root is synthesised as part of it rather than alone at its default sizes,
  # which for the PE mesh would only repeat the same work.
  declare -gA used
  for f in "${rtl_srcs[@]}" "${fpga_srcs[@]}"; do
    own=" $(modules_in "$f" | tr '\n' ' ') "
    for m in ${file_deps[$f]}; do
      [[ "$own" == *" $m "* ]] || used[$m]=1
    done
  done
}

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


# `run_jobs CMD ARG...` runs `CMD ARG` for each ARG, one job per core, and waits for all. Each
# job reports through the files it writes and returns 0: a job that fails otherwise (a crash of
# the script itself) stops the flow.
run_jobs() {
  local cmd=$1 arg jobs_max
  shift
  jobs_max=$(nproc 2>/dev/null || echo 2)
  for arg in "$@"; do
    while [[ $(jobs -rp | wc -l) -ge $jobs_max ]]; do wait -n; done
    # shellcheck disable=SC2086  # an ARG may be several words ("kind top cfg")
    $cmd $arg &
  done
  wait
}
