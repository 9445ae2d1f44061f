#!/usr/bin/env bash
# Builds the iCE40 UP5K bitstream of fpga/tern_fpga_top.sv (iCEBreaker pinout): a Tensor Engine
# slice with its PSUM running a self-checking GEMM (docs/fpga.md "The Tensor Engine on the
# iCE40"). First measures whether the config's whole Tensor Engine (tern_tensor_unit) would fit
# the UP5K (yosys synth_ice40: at least max(LUTs, FFs) logic cells); then builds the slice:
# tern config sv + tern fpga rom -> yosys synth_ice40 -dsp -> nextpnr-ice40 --up5k --package
# sg48 -> icepack. Everything goes under $BUILD/fpga/; the summary is $BUILD/fpga/report.json.
# Exits non-zero when a step fails or timing misses the target.
#
# Environment: TERN          tern binary (default build/bin/tern)
#              BUILD         build directory (default build)
#              CFG           config (default fpga)
#              FPGA_ROWS, FPGA_COLS  the slice (default 1 x 1: the largest that fits)
#              FPGA_FREQ_MHZ timing target (default 24, twice the board's 12 MHz; the design runs
#                            on the board clock, so the target is a margin)
#              FPGA_SEED     nextpnr placement seed (default 1)
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
FREQ=${FPGA_FREQ_MHZ:-24}
SEED=${FPGA_SEED:-1}
TOP=tern_fpga_top
OUT="$BUILD/fpga"
require fpga yosys nextpnr-ice40 icepack python3

rm -rf "$OUT"
mkdir -p "$OUT" "$BUILD/gen/$CFG"
start=$SECONDS

step() {  # step NAME LOG CMD...: runs CMD with its output in LOG, timed; stops on failure
  local name=$1 log=$2 t0=$SECONDS
  shift 2
  if ! "$@" >"$log" 2>&1; then
    echo "fpga: $name FAILED after $((SECONDS - t0)) s (see $log)"
    grep -E '^ERROR|^Error|ERROR:' "$log" | tail -5 || true
    exit 1
  fi
  echo "fpga: $name done in $((SECONDS - t0)) s"
}

cfg_package "$OUT" fpga

mapfile -t srcs < <(find rtl -name '*_pkg.sv' | LC_ALL=C sort
                    find rtl -name '*.sv' ! -name '*_pkg.sv' | LC_ALL=C sort
                    find fpga -maxdepth 1 -name '*.sv' | LC_ALL=C sort)
srcs=("$cfg_pkg" "$rom_pkg" "${srcs[@]}")

# Would the config's whole Tensor Engine with its PSUM fit? Synthesis alone, no placement.
step "yosys synth_ice40 tern_tensor_unit ($CFG)" "$OUT/engine.yosys.log" yosys -p \
  "read_verilog -defer -sv -DTERN_FPGA ${srcs[*]}; synth_ice40 -dsp -top tern_tensor_unit; tee -q -o $OUT/engine_stat.txt stat"

step "yosys synth_ice40" "$OUT/yosys.log" yosys -p \
  "read_verilog -defer -sv -DTERN_FPGA ${srcs[*]}; hierarchy -top $TOP; tee -q -o $OUT/hierarchy.txt ls; synth_ice40 -dsp -top $TOP -json $OUT/$TOP.json; tee -q -o $OUT/yosys_stat.txt stat"
step "nextpnr-ice40" "$OUT/nextpnr.log" nextpnr-ice40 --up5k --package sg48 \
  --json "$OUT/$TOP.json" --pcf fpga/tern_fpga.pcf --asc "$OUT/$TOP.asc" \
  --freq "$FREQ" --seed "$SEED" --report "$OUT/nextpnr_report.json"
step "icepack" "$OUT/icepack.log" icepack "$OUT/$TOP.asc" "$OUT/$TOP.bin"

# --- report.json: resources after packing (nextpnr), cell counts after synthesis (yosys) ---
python3 - "$OUT" "$TOP" "$FREQ" "$SEED" "$((SECONDS - start))" "$CFG" "$FPGA_ROWS" "$FPGA_COLS" <<'EOF'
import json, re, sys
out, top, freq, seed, secs = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4], int(sys.argv[5])
cfg, rows, cols = sys.argv[6], int(sys.argv[7]), int(sys.argv[8])
pnr = json.load(open(f"{out}/nextpnr_report.json"))
util = pnr["utilization"]
cells = {}
for c in json.load(open(f"{out}/{top}.json"))["modules"][top]["cells"].values():
    cells[c["type"]] = cells.get(c["type"], 0) + 1

def used(kind):
    return util.get(kind, {}).get("used", 0)

def stat_cells(path):  # cell type -> count, from yosys `stat` of a flattened design
    counts = {}
    for line in open(path):
        m = re.match(r"\s+(SB_\w+)\s+(\d+)$", line)
        if m:
            counts[m.group(1)] = counts.get(m.group(1), 0) + int(m.group(2))
    return counts

# The modules in the bitstream: the design's hierarchy before flattening, parameters stripped.
contains = set()
for line in open(f"{out}/hierarchy.txt"):
    m = re.match(r"\s+(\S+)$", line)
    if m:
        name = re.sub(r"^\$paramod\$\w+\\|^\$paramod\\|^\\", "", m.group(1)).split("\\")[0]
        if name.startswith("tern_"):
            contains.add(name)

available = util.get("ICESTORM_LC", {}).get("available")
eng = stat_cells(f"{out}/engine_stat.txt")
eng_luts = eng.get("SB_LUT4", 0)
eng_ffs = sum(n for t, n in eng.items() if t.startswith("SB_DFF"))
eng_lcs = max(eng_luts, eng_ffs)
engine = {
    "top": "tern_tensor_unit",
    "config": cfg,
    "luts": eng_luts,
    "flip_flops": eng_ffs,
    "carries": eng.get("SB_CARRY", 0),
    "rams": eng.get("SB_RAM40_4K", 0),
    "dsps": eng.get("SB_MAC16", 0),
    "logic_cells_at_least": eng_lcs,
    "fits": eng_lcs <= available,
    "short_by_cells": max(0, eng_lcs - available),
}

# nextpnr also times the DSP's tied-off clock pin as a constant "clock"; the design's own
# clock is the one from the clk_i pad.
clocks = {name: {"fmax_mhz": round(v["achieved"], 2), "target_mhz": v["constraint"]}
          for name, v in pnr["fmax"].items()}
main = [v for n, v in clocks.items() if n.startswith("clk_i")]
fmax = min(v["fmax_mhz"] for v in (main or clocks.values()))
report = {
    "top": top,
    "device": "iCE40 UP5K sg48",
    "contains": sorted(contains),
    "engine_slice": {"rows": rows, "cols": cols, "psum": "tern_psum",
                     "self_check": "bf16 GEMM M=2C K=4R N=5 against golden PSUM words (tern fpga rom)"},
    "full_engine": engine,
    "logic_cells": used("ICESTORM_LC"),
    "logic_cells_available": util.get("ICESTORM_LC", {}).get("available"),
    "luts": cells.get("SB_LUT4", 0),
    "carries": cells.get("SB_CARRY", 0),
    "flip_flops": sum(n for t, n in cells.items() if t.startswith("SB_DFF")),
    "rams": used("ICESTORM_RAM"),
    "sprams": used("ICESTORM_SPRAM"),
    "dsps": used("ICESTORM_DSP"),
    "ios": used("SB_IO"),
    "global_buffers": used("SB_GB"),
    "fmax_mhz": fmax,
    "target_mhz": freq,
    "clocks": clocks,
    "seed": int(seed),
    "seconds": secs,
}
json.dump(report, open(f"{out}/report.json", "w"), indent=2)
print(f"fpga: {report['logic_cells']}/{report['logic_cells_available']} LCs "
      f"({report['luts']} LUT4, {report['carries']} carry), {report['flip_flops']} FFs, "
      f"{report['rams']} RAMs, {report['dsps']} DSPs, Fmax {fmax:.2f} MHz "
      f"(target {freq:g} MHz), {secs} s -> {out}/report.json")
print(f"fpga: {rows}x{cols} engine slice; the {cfg} config's whole Tensor Engine needs at least "
      f"{eng_lcs} logic cells ({eng_luts} LUT4, {eng_ffs} FFs): "
      + ("fits" if engine["fits"] else f"short by {engine['short_by_cells']}"))
EOF

# The whole core's resource estimate for a VU9P is `make timing`'s area.json (docs/fpga.md).
