#!/usr/bin/env bash
# Installs every Debian package tern builds, tests, synthesises and proves (make formal) with.
# Idempotent: when all packages are present it only asks dpkg and exits (well under a second).
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config zlib1g-dev clang libclang-rt-14-dev
  verilator libsystemc-dev
  libgtest-dev libgmock-dev libfmt-dev libyaml-cpp-dev libmpfr-dev libgmp-dev nlohmann-json3-dev libcli11-dev
  yosys z3 nextpnr-ice40 fpga-icestorm python3 python3-dev pybind11-dev python3-yaml python3-numpy lcov
  gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf
)

missing=()
for pkg in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$pkg")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "bootstrap: installing ${missing[*]}"
sudo=""
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "bootstrap: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
# Refresh the package lists only when they are absent or older than a day.
if [[ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*Packages*' -mtime -1 2>/dev/null | head -n 1)" ]]; then
  $sudo apt-get update -q
fi
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
