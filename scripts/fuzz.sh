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
[[ "$secs" =~ ^[1-9][0-9]{0,6}$ ]] || { echo "fuzz.sh: SECONDS must be a whole number from 1, not '$secs'" >&2; exit 2; }
[[ "$seed" =~ ^[0-9]{1,9}$ ]] || { echo "fuzz.sh: FUZZ_SEED must be a whole number, not '$seed'" >&2; exit 2; }
root=${BUILD:-build}/fuzz
bin=$root/bin
out=$root/run
targets=(asm image config regression numbers fp npy elf)
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
  records+=("$t" "$secs" "$seed" "${runs:-0}" "$corpus" "$result")
done

# The report, written by Python's json (every value quoted and escaped as JSON needs).
summary=$root/summary.json
python3 - "$summary.tmp" "${records[@]}" <<'PY'
import json, sys
out, fields = sys.argv[1], sys.argv[2:]
keys = ("target", "seconds", "seed", "inputs", "corpus", "result")
rows = [dict(zip(keys, fields[i:i + 6])) for i in range(0, len(fields), 6)]
for r in rows:
    for k in ("seconds", "seed", "inputs", "corpus"):
        r[k] = int(r[k]) if r[k].isdigit() else None
with open(out, "w") as f:
    json.dump(rows, f, indent=2)
    f.write("\n")
PY
mv "$summary.tmp" "$summary"

if [ "${#failed[@]}" -ne 0 ]; then
  printf 'fuzz: FAIL %s\n' "${failed[@]}"
  exit 1
fi
echo "fuzz: ${#targets[@]} targets passed, $summary"
