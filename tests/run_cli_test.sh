#!/usr/bin/env bash
# End-to-end test of `tern run`: every reference kernel runs on the golden model from the command
# line and passes its check; the program it writes reassembles to the same image; the trace is
# written; bad arguments fail with exit code 1 and a message in words.
set -euo pipefail
tern=$1
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for k in gemm gemm_at gemm_at_bf16 gemm_at_fp8 softmax layernorm rmsnorm mlp attention; do
  if ! "$tern" run "$k" --config tiny --trace "$tmp/$k.json" --asm "$tmp/$k.s" --bin "$tmp/$k.tbin" \
      > "$tmp/$k.out" 2>&1; then
    echo "FAIL: tern run $k"; cat "$tmp/$k.out"; fail=1; continue
  fi
  grep -q ": PASS$" "$tmp/$k.out" || { echo "FAIL: $k printed no PASS"; fail=1; }
  grep -q "^estimated cycles: [1-9]" "$tmp/$k.out" || { echo "FAIL: $k printed no cycles"; fail=1; }
  grep -q '"traceEvents"' "$tmp/$k.json" || { echo "FAIL: $k trace has no traceEvents"; fail=1; }
  "$tern" asm "$tmp/$k.s" -o "$tmp/$k.again.tbin"
  cmp -s "$tmp/$k.tbin" "$tmp/$k.again.tbin" || { echo "FAIL: $k: --asm text does not reassemble to --bin"; fail=1; }
done

"$tern" run gemm --config small --shape m=40,k=33,n=17 > "$tmp/shape.out"
grep -q "k=33,m=40,n=17" "$tmp/shape.out" || { echo "FAIL: --shape not applied"; fail=1; }

expect_error() {  # expect_error "words" args...
  local words=$1; shift
  if "$tern" "$@" > "$tmp/err.out" 2>&1; then
    echo "FAIL: tern $* succeeded"; fail=1; return
  fi
  grep -q -- "$words" "$tmp/err.out" || { echo "FAIL: tern $*: no '$words' in:"; cat "$tmp/err.out"; fail=1; }
}
"$tern" run --help > "$tmp/help.out" 2>&1 || { echo "FAIL: tern run --help exits non-zero"; fail=1; }
grep -q -- "--hbm-latency UINT=200" "$tmp/help.out" || { echo "FAIL: tern run --help lists no --hbm-latency"; fail=1; }
expect_error "not expected: .*--nope" run gemm --nope 3
expect_error "which kernel?" run --seed 3
expect_error "unknown kernel 'nope' (kernels: gemm" run nope
expect_error "'q=3' is not KEY=VALUE with KEY one of m, k, n" run gemm --shape q=3
expect_error "--shape m = 0 is out of range" run gemm --shape m=0
expect_error "--shape m must be a whole number" run gemm --shape m=1e3
expect_error "got '5abc'" run gemm --shape m=5abc
expect_error "--hbm-latency must be a whole number" run gemm --backend rtl --hbm-latency -5
expect_error "--seed = 4294967296 is out of range" run gemm --seed 4294967296
expect_error "unknown backend 'nope'" run gemm --backend nope
expect_error "waveforms come from the RTL" run gemm --trace "$tmp/w.fst"
expect_error "the depths are end, transfer and lockstep" run gemm --backend cross --check deep
expect_error "this build has no verilated model for config 'trn2'" run gemm --backend rtl --config trn2
expect_error "cannot open config file" run gemm --config /nonexistent.yaml
expect_error "kernel does not fit SBUF" run softmax --config tiny --shape d=4000
# A config named like a built one but of other sizes does not run on that model.
sed 's/^axi_data_bits: .*/axi_data_bits: 256/' "$(dirname "$0")/../configs/tiny.yaml" > "$tmp/tiny256.yaml"
expect_error "is not the one the models were built with (axi_data_bits = 256, not 512)" \
  run gemm --backend rtl --config "$tmp/tiny256.yaml"
# Output paths are checked before any work: a missing directory, a directory, the input itself.
expect_error "directory '/nonexistent' does not exist" run gemm --backend rtl --trace /nonexistent/w.fst
expect_error "--profile $tmp: cannot write: it is a directory" run gemm --profile "$tmp"
expect_error "directory '/nonexistent' does not exist" run gemm --asm /nonexistent/g.s
expect_error "/dev/zero: the input file is not a regular file" asm /dev/zero -o "$tmp/z.tbin"
printf 'nop\n' > "$tmp/src.s"
expect_error "is the input file" asm "$tmp/src.s" -o "$tmp/src.s"
grep -q '^nop$' "$tmp/src.s" || { echo "FAIL: tern asm -o overwrote its source"; fail=1; }

# The RTL backends (tern hands over to tern-rtl): waves, the profile, the counters; cross in
# lock-step.
if ! "$tern" run gemm --backend rtl --trace "$tmp/gemm.fst" --profile "$tmp/gemm_rtl.json" \
    > "$tmp/rtl.out" 2>&1; then
  echo "FAIL: tern run gemm --backend rtl"; cat "$tmp/rtl.out"; fail=1
fi
grep -q ": PASS$" "$tmp/rtl.out" || { echo "FAIL: rtl printed no PASS"; cat "$tmp/rtl.out"; fail=1; }
grep -q "^simulated cycles: [1-9]" "$tmp/rtl.out" || { echo "FAIL: rtl printed no cycles"; fail=1; }
grep -q "^profile: busiest engine" "$tmp/rtl.out" || { echo "FAIL: rtl printed no profile summary"; fail=1; }
[[ -s "$tmp/gemm.fst" ]] || { echo "FAIL: rtl wrote no waves"; fail=1; }
grep -q '"time_unit":"RTL cycles"' "$tmp/gemm_rtl.json" || { echo "FAIL: rtl profile is not in RTL cycles"; fail=1; }
if ! "$tern" run layernorm --backend cross --check lockstep > "$tmp/cross.out" 2>&1; then
  echo "FAIL: tern run layernorm --backend cross --check lockstep"; cat "$tmp/cross.out"; fail=1
fi
grep -q "check lockstep: PASS" "$tmp/cross.out" || { echo "FAIL: cross printed no lock-step PASS"; fail=1; }
grep -q "instructions in lock-step" "$tmp/cross.out" || { echo "FAIL: cross printed no lock-step count"; fail=1; }

exit $fail
