# Shared set-up of the flow scripts (lint.sh, fpga.sh): sourced, not run.
# Sets TERN, BUILD and CFG (absolute paths, defaults build/bin/tern, build, fpga), ROOT (the
# repository) and changes to ROOT; `require <flow> <tool>...` stops when a tool is missing.

abspath() {  # a path relative to the caller's directory, made absolute
  case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$PWD/$1" ;; esac
}

TERN=$(abspath "${TERN:-build/bin/tern}")
BUILD=$(abspath "${BUILD:-build}")
CFG=${CFG:-fpga}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

require() {
  local flow=$1 tool
  shift
  for tool in "$@"; do
    command -v "$tool" >/dev/null || { echo "$flow: $tool not found (scripts/bootstrap.sh)"; exit 2; }
  done
  [[ -x "$TERN" ]] || { echo "$flow: tern binary not found at $TERN (build it, or set TERN=)"; exit 2; }
}
