#!/usr/bin/env bash
# End-to-end test of `tern fp` and `tern config`: vectors whose results follow from IEEE-754
# and the numerics contract by hand, run on both backends; bad input must fail in words.
set -euo pipefail
tern=$1
configs=$2
fail=0
check() {  # check <name> <expected stdout> <command...> (stdin from $input)
  local name=$1 want=$2; shift 2
  local got
  got=$(printf '%s' "$input" | "$@" 2>&1) || { echo "FAIL $name: exit $?: $got"; fail=1; return; }
  if [[ "$got" != "$want" ]]; then
    printf 'FAIL %s\n--- got\n%s\n--- want\n%s\n' "$name" "$got" "$want"; fail=1
  else
    echo "ok   $name"
  fi
}
expect_error() {  # expect_error <name> <message fragment> <command...>
  local name=$1 frag=$2; shift 2
  local out
  if out=$(printf '%s' "$input" | "$@" 2>&1); then
    echo "FAIL $name: succeeded: $out"; fail=1
  elif [[ "$out" != *"$frag"* ]]; then
    echo "FAIL $name: message '$out' lacks '$frag'"; fail=1
  else
    echo "ok   $name"
  fi
}

for backend in golden rtl; do
  # 1+2=3; max+max overflows to Inf; 1 + 2^-24 ties to even (1); 1 + 1.5 ulp rounds up 2 ulp;
  # Inf - Inf is the canonical NaN; -0 + -0 = -0; -0 + +0 = +0; subnormals add exactly.
  input=$'3F800000 40000000\n7F7FFFFF 7F7FFFFF\n3F800000 33800000\n3F800000 34400000\n7F800000 FF800000\n80000000 80000000\n80000000 00000000\n00000001 00000001\n# a comment\n'
  check "add/$backend" $'3F800000 40000000 40400000\n7F7FFFFF 7F7FFFFF 7F800000\n3F800000 33800000 3F800000\n3F800000 34400000 3F800002\n7F800000 FF800000 7FC00000\n80000000 80000000 80000000\n80000000 00000000 00000000\n00000001 00000001 00000002\n# a comment' \
    "$tern" fp add --backend "$backend"

  # bf16 ties: 1+2^-8 -> 1.0 (even), 1+3*2^-8 -> 1+2^-6 (even); NaN -> canonical.
  input=$'3F808000\n3F818000\nFFC12345\n'
  check "to-bf16/$backend" $'3F808000 3F80\n3F818000 3F82\nFFC12345 7FC0' "$tern" fp to-bf16 --backend "$backend"

  # e4m3fn: 464 ties to 448 (0x7E); 512 overflows to NaN (0x7F), or 448 when saturating.
  input=$'43E80000\n44000000\n'
  check "to-fp8e4m3/$backend" $'43E80000 7E\n44000000 7F' "$tern" fp to-fp8e4m3 --backend "$backend"
  check "to-fp8e4m3-sat/$backend" $'43E80000 7E\n44000000 7E' "$tern" fp to-fp8e4m3 --saturate --backend "$backend"

  # fp16 subnormal 2^-24 and max 65504 widen exactly.
  input=$'0001\n7BFF\n'
  check "from-fp16/$backend" $'0001 33800000\n7BFF 477FE000' "$tern" fp from-fp16 --backend "$backend"

  # 1 + 1*2 = 3; 0 + Inf*0 = NaN; e4m3 x e5m2: 2 * 1.5 = 3.
  input=$'3F800000 3F80 4000\n00000000 7F80 0000\n'
  check "mac/$backend" $'3F800000 3F80 4000 40400000\n00000000 7F80 0000 7FC00000' "$tern" fp mac --backend "$backend"
  input=$'00000000 40 3E\n'
  check "mac-fp8/$backend" $'00000000 40 3E 40400000' "$tern" fp mac --types fp8e4m3,fp8e5m2 --backend "$backend"
done

# Stochastic rounding: both backends draw the same generator bits, so they agree line by line.
input=$(for i in $(seq 1 200); do printf '3F8%05X\n' $((i * 977)); done)
golden=$(printf '%s' "$input" | "$tern" fp to-bf16 --round sr --seed 7 --lane 3)
rtl=$(printf '%s' "$input" | "$tern" fp to-bf16 --round sr --seed 7 --lane 3 --backend rtl)
rne=$(printf '%s' "$input" | "$tern" fp to-bf16)
if [[ "$golden" == "$rtl" && "$golden" != "$rne" ]]; then echo "ok   sr golden == rtl, != rne"; else echo "FAIL sr"; fail=1; fi

input=$'3F800000 40000000\n3F80000G 1\n'
expect_error "bad hex" "line 2: '3F80000G' is not a hex number" "$tern" fp add
input=$'3F800000\n'
expect_error "operand count" "line 1: add wants 2 operand(s), got 1" "$tern" fp add
input=$'1FFFF\n'
expect_error "too wide" "does not fit in 16 bits" "$tern" fp from-bf16
expect_error "unknown op" "unknown op 'mul'" "$tern" fp mul
expect_error "unknown dtype" "unknown dtype 'fp4'" "$tern" fp to-fp4
expect_error "bad mac types" "not a Tensor Engine type pair" "$tern" fp mac --types fp32,bf16
expect_error "int on rtl" "float targets only" "$tern" fp to-int8 --backend rtl

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed 's/^psum_banks: 8/psum_banks: 9/' "$configs/tiny.yaml" > "$tmp/bad.yaml"
expect_error "config range" "$tmp/bad.yaml:7:13: 'psum_banks' = 9 is out of range [1, 8]" "$tern" config show "$tmp/bad.yaml"
input=""
check "config show" "$(cat <<'EOT'
name: tiny
partitions: 8
pe_rows: 8
pe_cols: 8
sbuf_partition_bytes: 16384
psum_banks: 8
psum_bank_bytes: 2048
dma_engines: 2
dma_queues: 4
axi_data_bits: 512
EOT
)" "$tern" config show "$configs/tiny.yaml"
# `tern fpga rom`: the iCE40 top's GEMM package (2 M tiles x 4 K tiles, a load and a matmul each:
# 16 commands; M x N = 10 words); bad values name the option and the text.
input=""
out="$tmp/rom_pkg.sv"
check "fpga rom" "tern fpga rom: 1x1 slice, GEMM 2x4x5 bf16, 16 commands, 10 words checked, seed 1 -> $out" \
  "$tern" fpga rom "$configs/fpga.yaml" --rows 1 --cols 1 -o "$out"
grep -q "package tern_fpga_rom_pkg;" "$out" || { echo "FAIL fpga rom: no package in $out"; fail=1; }
expect_error "fpga rom zero" "--rows = 0 is out of range [1, 2]" "$tern" fpga rom "$configs/fpga.yaml" --rows 0 --cols 1 -o "$out"
expect_error "fpga rom text" "--cols must be a whole number" "$tern" fpga rom "$configs/fpga.yaml" --rows 1 --cols 1x -o "$out"
expect_error "fpga rom too big" "--rows = 3 is out of range [1, 2]" "$tern" fpga rom "$configs/fpga.yaml" --rows 3 --cols 1 -o "$out"
expect_error "fpga rom negative seed" "--seed must be a whole number" "$tern" fpga rom "$configs/fpga.yaml" --rows 1 --cols 1 --seed -5 -o "$out"
expect_error "fpga rom no output" "-o is required" "$tern" fpga rom "$configs/fpga.yaml" --rows 1 --cols 1
expect_error "fpga rom unknown option" "--depth" "$tern" fpga rom "$configs/fpga.yaml" --rows 1 --cols 1 -o "$out" --depth 4
exit $fail
