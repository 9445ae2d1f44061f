#!/usr/bin/env bash
# tern_regress end to end: a passing run leaves waves, log, summary.json and junit.xml; an
# unknown test lists the known ones; a failing bench, a bench that exits 0 without PASS, a
# hanging bench and one whose CYCLES line is not a number all fail the run; a run that stops
# early leaves no earlier report; a log of any bytes gives valid junit.xml and summary.json; a
# bench killed at its timeout keeps what it printed.
set -euo pipefail
regress=$1
bin_dir=$2
configs=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }

# Fake benches, to drive the runner's verdicts.
mkdir -p "$tmp/bin"
printf '#!/bin/sh\necho "all good"\nexit 0\n' > "$tmp/bin/tern_sim_nopass"
printf '#!/bin/sh\necho PASS\nexit 3\n' > "$tmp/bin/tern_sim_badexit"
printf '#!/bin/sh\nsleep 30\n' > "$tmp/bin/tern_sim_hang"
printf '#!/bin/sh\necho "CYCLES lots"\necho PASS\nexit 0\n' > "$tmp/bin/tern_sim_badcycles"
printf '#!/bin/sh\nprintf "bytes \\377\\376 \\001 <a> & \\"q\\" \\342\\202\\n"\necho FAIL\nexit 1\n' > "$tmp/bin/tern_sim_binary"
ln -s "$bin_dir/tern_sim_fp" "$tmp/bin/tern_sim_fp"
chmod +x "$tmp/bin"/tern_sim_*
cat > "$tmp/list.yaml" <<'EOT'
tests:
  - {name: good, bench: fp, args: [--scenario, fp32_add, --vectors, "200"], tags: [smoke]}
  - {name: nopass, bench: nopass, tags: [broken]}
  - {name: badexit, bench: badexit, tags: [broken]}
  - {name: hang, bench: hang, tags: [broken], timeout: 1}
  - {name: badscenario, bench: fp, args: [--scenario, nosuch], tags: [broken]}
  - {name: badcycles, bench: badcycles, tags: [broken]}
  - {name: binary, bench: binary, tags: [broken]}
  - {name: slow, bench: fp, args: [--scenario, fp32_add, --vectors, "4000000000"], tags: [slow], timeout: 2}
EOT
run() { "$regress" "$tmp/list.yaml" --out "$tmp/out" --bin-dir "$tmp/bin" --config-dir "$configs" "$@"; }

if out=$(run --tags smoke 2>&1) && [[ -s "$tmp/out/good/waves.fst" && -s "$tmp/out/good/log.txt" ]] \
   && grep -q '"failed": 0' "$tmp/out/summary.json" && grep -q 'failures="0"' "$tmp/out/junit.xml"; then
  ok "passing run leaves waves, log, summary, junit"
else bad "passing run: $out"; fi

if out=$(run --tags smoke --waves 0 2>&1) && [[ ! -e "$tmp/out/good/waves.fst" ]]; then ok "WAVES=0 writes no waves"; else bad "waves 0: $out"; fi

if out=$(run --test nosuch 2>&1); then bad "unknown test accepted"
elif [[ "$out" == *"unknown test 'nosuch'; known tests:"*"good"*"hang"* ]]; then ok "unknown test lists known tests"
else bad "unknown test message: $out"; fi

for t in nopass badexit hang badscenario badcycles; do
  if out=$(run --test $t 2>&1); then bad "$t passed"; else ok "$t fails the run"; fi
done
grep -q 'exit 0 but no PASS line' <(run --test nopass 2>&1 || true) && ok "no-PASS reason" || bad "no-PASS reason"
grep -q 'timeout after 1 s' <(run --test hang 2>&1 || true) && ok "timeout reason" || bad "timeout reason"
# --timeout-scale multiplies a test's timeout (coverage models); 0 or a word is refused.
if out=$(run --test hang --timeout-scale 2 2>&1); then bad "a hanging bench passed with --timeout-scale 2"
elif [[ "$out" == *"timeout after 2 s"* ]]; then ok "timeout scaled"
else bad "timeout scaled: $out"; fi
for v in 0 x 101; do
  if out=$(run --test good --timeout-scale $v 2>&1); then bad "--timeout-scale $v accepted"
  elif [[ "$out" == *"--timeout-scale"* ]]; then ok "--timeout-scale $v refused by name"
  else bad "--timeout-scale $v message: $out"; fi
done
# A malformed CYCLES line fails its test with the reason; the run still writes its reports.
rm -f "$tmp/out/summary.json"
if ! run --tags broken >/dev/null 2>&1 && grep -q "bad log line: CYCLES must be a whole number" "$tmp/out/summary.json"; then
  ok "bad CYCLES line fails its test, the run reports"
else bad "bad CYCLES line"; fi
if ! run --test badexit >/dev/null 2>&1 && grep -q '<failure message="exit 3"' "$tmp/out/junit.xml"; then
  ok "junit failure"
else bad "junit failure"; fi
# A run that stops before running anything (here an unknown test) removes the last run's reports.
run --tags smoke >/dev/null 2>&1 || bad "the smoke run before the early stop failed"
[[ -e "$tmp/out/summary.json" ]] || bad "the smoke run wrote no summary.json"
if ! run --test nosuch >/dev/null 2>&1 && [[ ! -e "$tmp/out/summary.json" && ! -e "$tmp/out/junit.xml" ]]; then
  ok "an early stop leaves no stale report"
else bad "stale reports after an early stop"; fi

# Bytes that are not UTF-8, controls and markup in a log and a reason: both reports stay valid.
if run --test binary >/dev/null 2>&1; then bad "the binary bench passed"; fi
if python3 -c 'import json, sys, xml.dom.minidom as m; json.load(open(sys.argv[1])); m.parse(sys.argv[2])' \
     "$tmp/out/summary.json" "$tmp/out/junit.xml" 2>"$tmp/parse.err" && grep -q 'bytes' "$tmp/out/junit.xml"; then
  ok "non-UTF-8 log gives valid junit.xml and summary.json"
else bad "reports of a binary log: $(cat "$tmp/parse.err")"; fi

# A real bench killed at its timeout: the line it printed first is in its log.
if ! run --test slow --waves 0 >/dev/null 2>&1 && grep -q '^scenario fp32_add seed' "$tmp/out/slow/log.txt"; then
  ok "a killed bench's log keeps its output"
else bad "killed bench log: $(head -c 300 "$tmp/out/slow/log.txt")"; fi
exit $fail
