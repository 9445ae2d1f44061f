#!/usr/bin/env bash
# tern-cfg, the configure-time package generator: its package is `tern config sv`'s; a missing
# argument is a usage error (2); an output it cannot write or its own input is refused (1),
# naming the path, before anything is written.
set -euo pipefail
cfg=$1; tern=$2; configs=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }

"$cfg" "$configs/tiny.yaml" "$tmp/a.sv" && "$tern" config sv "$configs/tiny.yaml" -o "$tmp/b.sv" \
  && cmp -s "$tmp/a.sv" "$tmp/b.sv" && ok "the package is tern config sv's" || bad "packages differ"
"$cfg" --help | grep -q "config" && ok "--help" || bad "--help"
set +e
out=$("$cfg" "$configs/tiny.yaml" 2>&1); rc=$?
[[ $rc == 2 && "$out" == *"out is required"* ]] && ok "missing output: usage error" || bad "missing output: $rc $out"
out=$("$cfg" "$configs/tiny.yaml" /nonexistent/x.sv 2>&1); rc=$?
[[ $rc == 1 && "$out" == *"/nonexistent"*"does not exist"* ]] && ok "unwritable output named" || bad "unwritable: $rc $out"
cp "$configs/tiny.yaml" "$tmp/tiny.yaml"
out=$("$cfg" "$tmp/tiny.yaml" "$tmp/tiny.yaml" 2>&1); rc=$?
[[ $rc == 1 && "$out" == *"is the input file"* ]] && cmp -s "$tmp/tiny.yaml" "$configs/tiny.yaml" \
  && ok "its own input refused, untouched" || bad "input as output: $rc $out"
exit $fail
