#!/usr/bin/env bash
# The checked-in tern_isa_pkg is valid SystemVerilog for Verilator (-Wall) and Yosys inside a
# module that uses it like a decoder, and op_seq_mask() as Yosys elaborates it gives, for every
# byte, the sequencers of the opcode table (`tern isa md`; none for an illegal opcode).
set -euo pipefail
tern=$1; pkg=$2; probe=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! verilator --lint-only -Wall "$pkg" "$probe" --top-module tern_isa_probe >"$tmp/lint.log" 2>&1; then
  echo "FAIL verilator"; cat "$tmp/lint.log"; exit 1
fi

# The expected mask of every byte, from the docs table and the package's sequencer codes.
declare -A seq_bit want
while read -r name code; do seq_bit[${name,,}]=$code; done \
  < <(sed -nE "s/.*localparam logic \[[0-9]+:0\] Seq([A-Za-z]+) *= *[0-9]+'d([0-9]+);.*/\1 \2/p" "$pkg")
all=0
for b in "${seq_bit[@]}"; do all=$((all | 1 << b)); done
while IFS='|' read -r _ code _ _ seqs _; do
  code=$(echo "$code" | tr -d ' `'); mask=0
  for s in ${seqs//,/ }; do
    if [[ $s == all ]]; then mask=$all; else mask=$((mask | 1 << ${seq_bit[$s]})); fi
  done
  want[$((code))]=$mask
done < <("$tern" isa md | grep -E '^\| `0x')
[[ ${#want[@]} -gt 0 ]] || { echo "FAIL no opcode rows in 'tern isa md'"; exit 1; }

script="read_verilog -sv $pkg $probe; hierarchy -top tern_isa_probe; proc; memory_map; opt; check -assert"
for op in $(seq 0 255); do script+="; eval -set instr_i $op -show seq_mask_o"; done
if ! yosys -p "$script" >"$tmp/yosys.log" 2>&1 || grep -qE '^Warning:' "$tmp/yosys.log"; then
  echo "FAIL yosys"; grep -E '^(Warning|ERROR)' "$tmp/yosys.log" || tail -n 30 "$tmp/yosys.log"; exit 1
fi
mapfile -t got < <(sed -nE "s/^ *Eval result: .seq_mask_o = [0-9]+'([01]+)\..*/\1/p" "$tmp/yosys.log")
[[ ${#got[@]} -eq 256 ]] || { echo "FAIL yosys evaluated ${#got[@]} of 256 opcodes"; exit 1; }
fail=0
for op in $(seq 0 255); do
  if [[ $((2#${got[$op]})) -ne ${want[$op]:-0} ]]; then
    printf 'FAIL op_seq_mask(8%sh%02x) = %s, the opcode table says %d\n' "'" "$op" "${got[$op]}" "${want[$op]:-0}"
    fail=1
  fi
done
[[ $fail == 0 ]] && echo "tern_isa_pkg: verilator -Wall and yosys clean; op_seq_mask matches ${#want[@]} opcodes"
exit $fail
