#!/usr/bin/env bash
# Every shipped config's generated tern_cfg_pkg is valid SystemVerilog for Verilator (-Wall)
# and Yosys, the values Yosys elaborates are the values `tern config show` prints, and the RTL's
# derived values (tern_pkg functions) equal the C++ model's (the package's derived localparams).
set -euo pipefail
tern=$1; configs=$2; probe=$3; pkg=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for yaml in "$configs"/*.yaml; do
  name=$(basename "$yaml" .yaml)
  "$tern" config sv "$yaml" -o "$tmp/tern_cfg_pkg.sv"
  if ! verilator --lint-only -Wall "$pkg" "$tmp/tern_cfg_pkg.sv" "$probe" --top-module tern_cfg_probe > "$tmp/lint.log" 2>&1; then
    echo "FAIL $name: verilator"; cat "$tmp/lint.log"; fail=1; continue
  fi
  # Yosys folds each output to a constant: compare them with the loaded config.
  yosys -q -p "read_verilog -sv $pkg $tmp/tern_cfg_pkg.sv $probe; hierarchy -top tern_cfg_probe; proc; opt; write_json $tmp/probe.json" > "$tmp/yosys.log" 2>&1 \
    || { echo "FAIL $name: yosys"; cat "$tmp/yosys.log"; fail=1; continue; }
  # The constant Yosys folded output port $1 to.
  port_value() {
    local bits got=0 i=0
    bits=$(tr -d ' \n' < "$tmp/probe.json" | grep -o "\"$1\":{[^}]*\"bits\":\[[^]]*\]" | head -n 1 | grep -o '\[.*\]' | tr -d '[]"' | tr ',' '\n')
    for b in $bits; do got=$((got | (b << i))); i=$((i + 1)); done
    echo "$got"
  }
  bad=0
  while IFS=': ' read -r key value; do
    [[ "$key" == name ]] && continue
    got=$(port_value "${key}_o")
    if [[ "$got" != "$value" ]]; then echo "FAIL $name: $key rtl=$got config=$value"; bad=1; fi
  done < <("$tern" config show "$yaml")
  rtl=$(port_value sbuf_row_bytes_rtl_o); model=$(port_value sbuf_row_bytes_model_o)
  if [[ "$rtl" != "$model" || "$rtl" == 0 ]]; then
    echo "FAIL $name: sbuf_row_bytes rtl=$rtl model=$model"; bad=1
  fi
  if [[ $bad == 0 ]]; then echo "ok   $name: every value reaches the RTL"; else fail=1; fi
done
exit $fail
