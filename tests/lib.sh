# Shared by the shell tests (source it after `set -euo pipefail`): `ok NAME` and `bad NAME`
# report a check (bad sets fail=1, which the test exits with), and $tmp is a scratch directory
# removed on exit.
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }
