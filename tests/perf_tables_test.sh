#!/usr/bin/env bash
# docs/performance.md's generated tables equal what scripts/perf_tables.py renders from the
# recorded bench JSON (bench/results), and the checker fails on a drifted table and on bad
# markers or data, naming what and where.
set -euo pipefail
src=$1
tool="python3 $src/scripts/perf_tables.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$src"
$tool check

fail=0
expect_fail() {  # expect_fail <what> <message part> <args...>
  local what=$1 msg=$2; shift 2
  if $tool "$@" > "$tmp/out" 2>&1; then echo "FAIL $what: accepted"; fail=1; return; fi
  if ! grep -qF -- "$msg" "$tmp/out"; then echo "FAIL $what: no '$msg' in:"; cat "$tmp/out"; fail=1; return; fi
  echo "ok   $what"
}

# A figure edited by hand in a generated table.
sed '0,/^| bert-base | qkv | gemm_at_bf16 |/s/| \*\*0\.\([0-9]\)/| **0.9/' docs/performance.md > "$tmp/drift.md"
cmp -s docs/performance.md "$tmp/drift.md" && { echo "FAIL: the mutation changed nothing"; exit 1; }
expect_fail "a hand-edited figure" "differs from" check --doc "$tmp/drift.md"

printf '# t\n<!-- table: nosuch config=x -->\n<!-- end table -->\n' > "$tmp/kind.md"
expect_fail "an unknown kind" "unknown table kind 'nosuch'" check --doc "$tmp/kind.md"
printf '# t\n<!-- table: workloads config=trn2 -->\n| x |\n' > "$tmp/end.md"
expect_fail "a table with no end" "$tmp/end.md:2: table 'workloads' has no" check --doc "$tmp/end.md"
printf '# t\n<!-- table: workloads config=nosuch -->\n<!-- end table -->\n' > "$tmp/none.md"
expect_fail "a filter nothing matches" "no 'workloads' record matches" check --doc "$tmp/none.md"
mkdir "$tmp/res"
expect_fail "no JSON" "workloads.json" check --doc docs/performance.md --results "$tmp/res"
echo '{"a": 1}' > "$tmp/res/workloads.json"
expect_fail "JSON that is no list" "not a list of records" check --doc docs/performance.md --results "$tmp/res"
echo '[{"config": "trn2", "backend": "golden"}]' > "$tmp/res/workloads.json"
expect_fail "a record without its fields" "lacks or mistypes a field" check --doc docs/performance.md --results "$tmp/res"

# update --from merges config by config: a new small record replaces small's, trn2's stay.
cp bench/results/*.json "$tmp/res/"
mkdir "$tmp/new"
python3 - "$tmp/res/workloads.json" "$tmp/new/workloads.json" <<'PY'
import json, sys
old = json.load(open(sys.argv[1]))
small = [r for r in old if r["config"] == "small" and r["backend"] == "rtl"][:1]
json.dump(small, open(sys.argv[2], "w"))
PY
cp docs/performance.md "$tmp/doc.md"
$tool update --doc "$tmp/doc.md" --results "$tmp/res" --from "$tmp/new" > "$tmp/out"
python3 - "$tmp/res/workloads.json" <<'PY'
import json, sys
recs = json.load(open(sys.argv[1]))
configs = [r["config"] for r in recs]
assert configs.count("small") == 1 and configs.count("trn2") > 1, configs
PY
echo "ok   update --from merges by config"
exit $fail
