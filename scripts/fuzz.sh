#!/usr/bin/env bash
# Runs every libFuzzer target of fuzz/ for a fixed time, starting from its checked-in seed
# corpus (fuzz/corpus/<target>) plus what earlier runs found (build/fuzz/run/<target>/corpus).
# A crash, a sanitizer report, an exception other than tern::Error, a 10 s input or 2 GB of
# memory fails the run; the input that did it is kept as build/fuzz/run/<target>/crash-*.
#
#   scripts/fuzz.sh [SECONDS]     seconds per target (default 10); FUZZ_SEED (default 1)
#
# Writes build/fuzz/summary.json: per target, seconds, inputs run, corpus size, result.
set -euo pipefail
cd "$(dirname "$0")/.."

secs=${1:-10}
seed=${FUZZ_SEED:-1}
root=${BUILD:-build}/fuzz
bin=$root/bin
out=$root/run
targets=(asm image config regression numbers)
echo "[ seed     ] FUZZ_SEED=$seed, $secs s per target"

failed=()
records=()
for t in "${targets[@]}"; do
  dir="$out/$t"
  mkdir -p "$dir/corpus"
  log="$dir/log"
  result=pass
  "$bin/fuzz_$t" -seed="$seed" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$dir/" -print_final_stats=1 "$dir/corpus" "fuzz/corpus/$t" >"$log" 2>&1 \
    || { result=fail; failed+=("$t: $log"); }
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  corpus=$(find "$dir/corpus" -type f | wc -l)
  printf '%-4s  fuzz_%-12s %10s inputs in %s s, corpus %s\n' "${result^^}" "$t" "${runs:-?}" "$secs" "$corpus"
  records+=("{\"target\": \"$t\", \"seconds\": $secs, \"seed\": $seed, \"inputs\": ${runs:-0}, \"corpus\": $corpus, \"result\": \"$result\"}")
done

summary=$root/summary.json
{
  echo "["
  for i in "${!records[@]}"; do
    sep=$([ "$i" -lt $((${#records[@]} - 1)) ] && echo "," || echo "")
    echo "  ${records[$i]}$sep"
  done
  echo "]"
} >"$summary.tmp"
mv "$summary.tmp" "$summary"

if [ "${#failed[@]}" -ne 0 ]; then
  printf 'fuzz: FAIL %s\n' "${failed[@]}"
  exit 1
fi
echo "fuzz: ${#targets[@]} targets passed, $summary"
