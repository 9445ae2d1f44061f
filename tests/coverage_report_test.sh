#!/usr/bin/env bash
# scripts/coverage_report.py on a made-up merged coverage file: a unit at its goals passes, a
# unit under them fails unless waived, an exclusion takes its points out of the count (and
# is reported), and an exclusion that matches nothing or has an unknown key is an error.
set -euo pipefail
repo=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }

# A point: C '<key>' count, the key's fields separated by \001, name and value by \002.
point() {  # page file line signal count
  printf "C '\001page\002%s\001f\002%s\001l\002%s\001n\0020\001o\002%s' %s\n" "$1" "$repo/$2" "$3" "$4" "$5"
}
{
  echo "# SystemC::Coverage-3"
  for i in $(seq 1 20); do point v_line/tern_fifo rtl/prim/tern_fifo.sv "$i" "" 1; done
  for i in $(seq 1 10); do point v_toggle/tern_fifo rtl/prim/tern_fifo.sv 5 "data_q[$i]" 1; done
  point v_line/tern_dma rtl/dma/tern_dma.sv 10 "" 1
  point v_line/tern_dma rtl/dma/tern_dma.sv 11 "" 0
  point v_toggle/tern_dma rtl/dma/tern_dma.sv 3 "addr_q[0]" 1
  point v_toggle/tern_dma rtl/dma/tern_dma.sv 3 "addr_q[31]" 0
} >"$tmp/merged.dat"
goals() { printf 'goals:\n  line: 95\n  toggle: 90\n%s\n' "$1" >"$tmp/goals.yaml"; }
report() { python3 "$repo/scripts/coverage_report.py" "$tmp/merged.dat" "$tmp/goals.yaml" "$tmp/summary.json"; }

goals ""
if out=$(report 2>&1); then bad "dma under its goals passed: $out"
elif [[ "$out" == *"FAIL  under the goals"*"dma (line, toggle)"* && "$out" != *"prim ("* ]]; then ok "a unit under its goals fails, by name"
else bad "under-goal message: $out"; fi

goals $'waivers:\n  dma: a reason'
if report >/dev/null 2>&1 && grep -q '"goal": "waived"' "$tmp/summary.json"; then ok "a waiver lets it pass as waived"
else bad "waiver"; fi

goals $'exclusions:\n  - {file: rtl/dma/tern_dma.sv, kind: line, lines: [11, 11], reason: r}\n  - {file: rtl/dma/tern_dma.sv, kind: toggle, signal: "addr_q\\\\[(1[6-9]|2[0-9]|3[01])\\\\]", reason: r}'
if report >/dev/null 2>&1 && python3 - "$tmp/summary.json" <<'PY'
import json, sys
dma = next(r for r in json.load(open(sys.argv[1])) if r["unit"] == "dma")
assert dma["line"] == 100.0 and dma["line_excluded"] == 1 and dma["line_points"] == 1, dma
assert dma["toggle"] == 100.0 and dma["toggle_excluded"] == 1 and dma["goal"] == "met", dma
PY
then ok "exclusions leave the count and are reported"; else bad "exclusions: $(report 2>&1)"; fi

goals $'exclusions:\n  - {file: rtl/dma/tern_dma.sv, kind: line, lines: [40, 50], reason: r}'
out=$(report 2>&1) && bad "a stale exclusion passed" || [[ "$out" == *"matches no point"* ]] && ok "a stale exclusion is an error" || bad "stale: $out"
goals $'exclusions:\n  - {file: rtl/dma/tern_dma.sv, kind: line, reason: r, line: 4}'
out=$(report 2>&1) && bad "an unknown key passed" || [[ "$out" == *"unknown key(s) line"* ]] && ok "an unknown key is an error" || bad "unknown key: $out"
goals $'exclusions:\n  - {file: rtl/dma/tern_dma.sv, kind: line}'
out=$(report 2>&1) && bad "no reason passed" || [[ "$out" == *"'reason' is missing"* ]] && ok "an exclusion needs a reason" || bad "no reason: $out"
exit $fail
