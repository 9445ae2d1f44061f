#!/usr/bin/env bash
# Measures logic depth and area of the RTL (`make timing`; `make lint` runs it too) and checks the
# per-stage budget of rtl/timing.yaml (docs/fpga.md "Timing and area"):
#   timing  every root module (one nothing else instantiates) and every top rtl/timing.yaml
#           lists (engines, pipelined units, their building blocks): Yosys `synth -flatten`
#           (or, for the tops it lists `hierarchical`, each module mapped on its own), then
#           `ltp -noff` (the longest flop-to-flop path, in cells) after ABC's mapping to
#           2-input gates and, separately, to LUT6 (two mappings, the shallower counts);
#   area    every root: Yosys `synth_xilinx -family xcup` up to its LUT mapping, ABC's LUT
#           mapping and a hierarchical `stat` (the VU9P estimate: LUTs, flip-flops, DSP48E2,
#           block RAM), per module; read with TERN_DSP_PRODUCT, so fp32 multipliers form their
#           significand products in DSP48E2s as an FPGA build would (the levels measure the
#           carry-save form an ASIC would build).
# Writes $BUILD/timing/timing.json and area.json, prints a table, and exits non-zero when a
# checked top misses the budget (or a measurement fails). A measurement whose sources, tools and
# script are unchanged is reused from $BUILD/timing-cache/.
#
# Environment: TERN  tern binary (default build/bin/tern)
#              BUILD build directory (default build)
#              CFG   config (default fpga)
#              TOPS  space-separated modules to measure (default: as above)
#              QUICK=1  leaves out the tops rtl/timing.yaml calls long, and measures only the
#                       levels the budget checks, not the area (`make lint` sets it: CI's time)
#              AREA_SMALL=1  adds tern_core's area at the `small` config (long: docs/fpga.md)
#              ONLY=area|timing  measures only that kind (e.g. ONLY=area TOPS=tern_core)
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
OUT="$BUILD/timing"
CACHE="$BUILD/timing-cache"
require timing yosys python3
case ${ONLY:-} in ''|area|timing) ;; *) echo "timing: ONLY is '$ONLY'; it takes area or timing"; exit 1 ;; esac
[[ ${QUICK:-0} != 0 && -z ${ONLY:-} ]] && ONLY=timing

rm -rf "$OUT"
mkdir -p "$OUT" "$CACHE"
start=$SECONDS
tools=$( { yosys -V; sha256sum "${BASH_SOURCE[0]}" scripts/lib.sh; } 2>&1 | tr '\n' ' ')
report() { python3 scripts/timing_report.py "$@"; }

cfg_package "$OUT" timing
rtl_index "$OUT" timing

roots=()
for top in "${tops[@]}"; do [[ -z ${used[$top]:-} ]] && roots+=("$top"); done
hier=$(report hierarchical rtl/timing.yaml | tr '\n' ' ')
if [[ -n ${TOPS:-} ]]; then
  read -r -a timed <<<"$TOPS"
  for top in "${timed[@]}"; do
    [[ -n ${mod_file[$top]:-} ]] || { echo "timing: TOPS names '$top', which is no module under rtl/ or fpga/"; exit 1; }
  done
  area=("${timed[@]}")
else
  scope=all
  [[ ${QUICK:-0} != 0 ]] && scope=quick
  mapfile -t timed < <(report tops rtl/timing.yaml "$scope" "${roots[@]}")
  for top in "${timed[@]}"; do
    [[ -n ${mod_file[$top]:-} ]] || { echo "timing: rtl/timing.yaml names '$top', which is no module under rtl/ or fpga/"; exit 1; }
  done
  mapfile -t area < <(report tops rtl/timing.yaml "$scope" "${roots[@]}" | grep -Fxf <(printf '%s\n' "${roots[@]}"))
fi

# measure KIND TOP CFG: one Yosys run, its log and output under $OUT/<cfg>.<top>.<kind>.*,
# reused from the cache when the key matches. The sources are the config's.
measure() {
  local kind=$1 top=$2 cfg=$3 key script base="$OUT/$3.$2.$1"
  mapfile -t srcs < <(srcs_for "$top" | sed "s:/gen/$CFG/tern_cfg_pkg.sv:/gen/$cfg/tern_cfg_pkg.sv:")
  key=$( { echo "$tools $kind $top $cfg"; cat "${srcs[@]}"; } | sha256sum | cut -d' ' -f1)
  if [[ -f "$CACHE/$cfg.$top.$kind.key" && $(<"$CACHE/$cfg.$top.$kind.key") == "$key" ]]; then
    cp "$CACHE/$cfg.$top.$kind.txt" "$base.txt"
    return 0
  fi
  rm -f "$CACHE/$cfg.$top.$kind.key"
  local read="read_verilog -defer -sv -DTERN_FPGA"
  # The levels: ltp after the gate mapping, then after two LUT6 mappings, ABC's default (depth
  # first, then area recovery) and a depth-only one (structural choices, no area recovery); a
  # top's LUT6 figure is the shallower of the two, each being a netlist one could build. A top
  # too large to flatten (rtl/timing.yaml's `hierarchical`) is mapped module by module, each
  # unique module once, then flattened with its constants propagated through the mapped cells:
  # no LUT merges across a module boundary, so its figure bounds the flattened one from above
  # (docs/fpga.md "How it is measured").
  local gates="abc -g AND,NAND,OR,NOR,XOR,XNOR" depth="abc -lut 6 -script +strash;dch,-f;if,-K,6,-F,0,-A,0"
  local synth="synth -flatten -noshare -top $top" after="opt_clean" lut_after="opt_clean" lut="abc -lut 6"
  if [[ " $hier " == *" $top "* ]]; then
    # ABC's full scripts ran past 6 minutes on one DMA module: the fast ones, for a bound.
    gates="abc -fast -g AND,NAND,OR,NOR,XOR,XNOR" lut="abc -fast -lut 6"
    synth="synth -noshare -noabc -top $top"
    after="flatten; opt_expr; opt_clean"
    lut_after="flatten; opt_lut; opt_clean"
  fi
  case $kind in
    timing) script="$read ${srcs[*]}; $synth; design -save mapped;
                    $gates; $after; tee -o $base.txt ltp -noff;
                    design -load mapped; $lut; $lut_after; tee -a $base.txt ltp -noff;
                    design -load mapped; $depth; $lut_after; tee -a $base.txt ltp -noff" ;;
    area)   script="$read -DTERN_DSP_PRODUCT ${srcs[*]}; synth_xilinx -family xcup -top $top -run :map_luts;
                    opt_expr -mux_undef -noclkinv; abc -luts 2:2,3,6:5,10,20; clean;
                    tee -q -o $base.txt stat" ;;
  esac
  local t0=$SECONDS
  if yosys -q -l "$base.log" -p "$script" >/dev/null 2>&1; then
    echo "timing: $kind $top ($cfg) done in $((SECONDS - t0)) s"
    cp "$base.txt" "$CACHE/$cfg.$top.$kind.txt"
    echo "$key" >"$CACHE/$cfg.$top.$kind.key"
  else
    echo "timing: $kind $top ($cfg) FAILED after $((SECONDS - t0)) s (see $base.log)"
    rm -f "$base.txt"
  fi
  return 0
}

jobs=()
[[ ${AREA_SMALL:-0} != 0 ]] && { CFG=small cfg_package "$OUT" timing; jobs+=("area tern_core small"); }
[[ ${ONLY:-area} == area ]] && for top in "${area[@]}"; do jobs+=("area $top $CFG"); done
[[ ${ONLY:-timing} == timing ]] && for top in "${timed[@]}"; do jobs+=("timing $top $CFG"); done
# The whole core's runs are the long ones: they start first, the small ones fill in beside them.
mapfile -t jobs < <(printf '%s\n' "${jobs[@]}" | awk '{print ($2 == "tern_core" ? 0 : 1) "\t" $0}' \
                    | LC_ALL=C sort -s -k1,1 | cut -f2)
run_jobs measure "${jobs[@]}"

printf '%s\n' "${jobs[@]}" >"$OUT/jobs.txt"
report json rtl/timing.yaml "$OUT" "$((SECONDS - start))"
