#!/usr/bin/env bash
# Every bench, sim bench and the regression runner parse their command lines with CLI11
# (tools/cmdline/cmdline.h): --help lists the options and exits 0; an unknown option, a missing
# value or a number that is not one is an error naming it, never ignored or truncated.
set -euo pipefail
bin=$1
fail=0
# Each run's limit: 60 s, times TERN_TIMEOUT_SCALE on slower models (coverage: scripts/coverage.sh).
limit=$((60 * ${TERN_TIMEOUT_SCALE:-1}))
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }
# expect_ok NAME PATTERN CMD...: exits 0 and prints PATTERN.
expect_ok() {
  local name=$1 pattern=$2 out; shift 2
  if out=$(timeout "$limit" "$@" 2>&1) && [[ "$out" == *"$pattern"* ]]; then ok "$name"; else bad "$name: $out"; fi
}
# expect_error NAME PATTERN CMD...: exits non-zero within seconds and prints PATTERN.
expect_error() {
  local name=$1 pattern=$2 out; shift 2
  if out=$(timeout "$limit" "$@" 2>&1); then bad "$name accepted: $out"
  elif [[ "$out" == *"$pattern"* ]]; then ok "$name"
  else bad "$name message: $out"; fi
}

expect_ok "sim bench --help" "--vectors" "$bin/tern_sim_fp" --help
expect_ok "sim bench --help lists --seed" "--seed" "$bin/tern_sim_fp" --help
expect_error "sim bench number" "--vectors" "$bin/tern_sim_fp" --scenario fp32_add --vectors 5abc
expect_error "sim bench negative seed" "--seed" "$bin/tern_sim_fp" --scenario fp32_add --seed -5
expect_error "sim bench unknown option" "--nosuch" "$bin/tern_sim_fp" --scenario fp32_add --nosuch 1
expect_error "sim bench missing value" "--vectors" "$bin/tern_sim_fp" --scenario fp32_add --vectors
expect_ok "bench --help" "--out" "$bin/tern_bench_mac_lane" --help
expect_error "bench unknown option" "--oot" "$bin/tern_bench_mac_lane" --oot /nonexistent
expect_ok "link bench --help" "--quick" "$bin/tern_bench_link" --help
expect_error "e2e bench section" "nosuch" "$bin/tern_bench_e2e" --sections gemm,nosuch
# The workload suite (bench/workloads.yaml): a small one on tiny, golden and RTL, writes every
# record's keys; a bad suite is an error naming the file and the place.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
configs=$(cd "$(dirname "${BASH_SOURCE[0]}")/../configs" && pwd)
cat >"$tmp/suite.yaml" <<'EOF'
gemm_kernels:
  bf16: gemm_at_bf16
  fp8: gemm_at_fp8
models:
  toy:
    tokens: [16]
    hidden: 32
    head_dim: 8
    norm: rmsnorm
    gemm:
      up: [32, 64]
square: [24]
EOF
expect_ok "workloads on tiny" "workloads.json" "$bin/tern_bench_e2e" --configs "$configs" --config tiny \
  --sections workloads --suite "$tmp/suite.yaml" --out "$tmp/out" --rtl-max-cycles 100000
for key in '"kernel"' '"config"' '"backend":"rtl"' '"backend":"golden"' '"M"' '"K"' '"N"' '"dtype"' \
           '"cycles"' '"golden_cycles"' '"pe_utilization"' '"hbm_utilization"' '"roofline_fraction"'; do
  if grep -q "$key" "$tmp/out/workloads.json"; then ok "workloads.json has $key"; else bad "workloads.json lacks $key"; fi
done
expect_ok "workloads golden only" "golden estimate" "$bin/tern_bench_e2e" --configs "$configs" --config tiny --sections workloads \
  --suite "$tmp/suite.yaml" --out "$tmp/out2" --golden-only
if grep -q '"dtype":"fp8"' "$tmp/out/workloads.json"; then ok "workloads.json has fp8 GEMMs"; else bad "no fp8 GEMM records"; fi
sed 's/  fp8: gemm_at_fp8/  int8: gemm_at_fp8/' "$tmp/suite.yaml" >"$tmp/int8.yaml"
expect_error "workloads dtype" "int8.yaml:3:" "$bin/tern_bench_e2e" --configs "$configs" --config tiny --sections workloads \
  --suite "$tmp/int8.yaml" --out "$tmp/out3" --golden-only
sed 's/  fp8: gemm_at_fp8/  fp8: nosuch/' "$tmp/suite.yaml" >"$tmp/kern.yaml"
expect_error "workloads kernel" "kern.yaml:3:" "$bin/tern_bench_e2e" --configs "$configs" --config tiny --sections workloads \
  --suite "$tmp/kern.yaml" --out "$tmp/out3" --golden-only
sed 's/hidden: 32/hidden: -32/' "$tmp/suite.yaml" >"$tmp/neg.yaml"
expect_error "workloads negative size" "hidden" "$bin/tern_bench_e2e" --configs "$configs" --config tiny --sections workloads \
  --suite "$tmp/neg.yaml" --out "$tmp/out3" --golden-only
sed '/head_dim/d' "$tmp/suite.yaml" >"$tmp/nohead.yaml"
expect_error "workloads missing key" "'head_dim' is missing" "$bin/tern_bench_e2e" --configs "$configs" --config tiny \
  --sections workloads --suite "$tmp/nohead.yaml" --out "$tmp/out3" --golden-only
expect_error "workloads no file" "/nonexistent.yaml" "$bin/tern_bench_e2e" --configs "$configs" --config tiny --sections workloads \
  --suite /nonexistent.yaml --out "$tmp/out3" --golden-only
expect_error "golden only, other sections" "--golden-only" "$bin/tern_bench_e2e" --configs "$configs" --config tiny --golden-only
# A config named like a built one but of other sizes (here tiny's AXI width) is refused before
# any run, naming the size; so is a waves file that cannot be written.
sed 's/^axi_data_bits: 512/axi_data_bits: 256/' "$configs/tiny.yaml" >"$tmp/tiny.yaml"
grep -q '^axi_data_bits: 256' "$tmp/tiny.yaml" || bad "the test's config edit did not apply"
for b in core control dve pe act neuroncore platform; do
  expect_error "sim bench $b: config of other sizes" "axi_data_bits" "$bin/tern_sim_$b" --config "$tmp/tiny.yaml"
  expect_error "sim bench $b: unwritable waves" "--waves /nonexistent/w.fst" "$bin/tern_sim_$b" \
    --config "$configs/tiny.yaml" --waves /nonexistent/w.fst
done
mkdir -p "$tmp/cfgdir" && cp "$tmp/tiny.yaml" "$tmp/cfgdir/tiny.yaml"
expect_error "e2e bench: config of other sizes" "axi_data_bits" "$bin/tern_bench_e2e" --configs "$tmp/cfgdir" \
  --config tiny --sections gemm --out "$tmp/out4"
expect_ok "runner --help" "--tags" "$bin/tern_regress" --help
expect_error "runner seed" "--seed" "$bin/tern_regress" list.yaml --out o --bin-dir b --config-dir c --seed 1e3
expect_error "runner waves" "--waves" "$bin/tern_regress" list.yaml --out o --bin-dir b --config-dir c --waves 2
expect_error "runner without --out" "--out" "$bin/tern_regress" list.yaml --bin-dir b --config-dir c
exit $fail
