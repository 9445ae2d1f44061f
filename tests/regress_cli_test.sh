#!/usr/bin/env bash
# tern_regress end to end: a passing run leaves waves, log, summary.json and junit.xml; an
# unknown test lists the known ones; a failing bench, a bench that exits 0 without PASS, a
# hanging bench and one whose CYCLES line is not a number all fail the run.
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
# A malformed CYCLES line fails its test with the reason; the run still writes its reports.
rm -f "$tmp/out/summary.json"
if ! run --tags broken >/dev/null 2>&1 && grep -q "bad log line: CYCLES must be a whole number" "$tmp/out/summary.json"; then
  ok "bad CYCLES line fails its test, the run reports"
else bad "bad CYCLES line"; fi
grep -q '<failure message="exit 3"' "$tmp/out/junit.xml" || true
run --test badexit >/dev/null 2>&1 || true
grep -q '<failure message="exit 3"' "$tmp/out/junit.xml" && ok "junit failure" || bad "junit failure"
exit $fail
