#!/usr/bin/env bash
# The installable package (issue 25 item 3): `cmake --install` puts tern's headers, libraries,
# configs and ternConfig.cmake in a fresh prefix; examples/scale_rows, configured against that
# prefix alone, builds with find_package(tern), runs its kernel on the golden model and writes
# a .npy file that NumPy reads as 2x + 1 of the inputs.
set -euo pipefail
build=$1
src=$2
python=$3
source "$(dirname "$0")/lib.sh"

cmake --install "$build" --prefix "$tmp/prefix" > "$tmp/install.log" 2>&1 && ok "install" \
  || { bad "install: $(tail -5 "$tmp/install.log")"; exit 1; }
for f in lib/cmake/tern/ternConfig.cmake lib/cmake/tern/ternConfigVersion.cmake lib/libtern_model.a \
         lib/libtern_host.a include/tern/kernel/kernel.h include/tern/runtime/device.h \
         include/tern/host/npy.h share/tern/configs/tiny.yaml; do
  [[ -f "$tmp/prefix/$f" ]] && ok "installed $f" || bad "not installed: $f"
done
cmake -S "$src/examples/scale_rows" -B "$tmp/ex" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$tmp/prefix" > "$tmp/configure.log" 2>&1 && ok "find_package(tern)" \
  || bad "configure: $(tail -20 "$tmp/configure.log")"
cmake --build "$tmp/ex" > "$tmp/build.log" 2>&1 && ok "the example builds" \
  || bad "build: $(tail -20 "$tmp/build.log")"
grep -q -- "-I$src/" "$tmp/ex/build.ninja" && bad "the example compiles with the source tree's headers"
out=$("$tmp/ex/scale_rows" "$tmp/y.npy" 2>&1) && [[ "$out" == *": PASS" ]] && ok "the example runs: $out" \
  || bad "the example: $out"
"$python" -c "
import sys, numpy as np
y = np.load(sys.argv[1]); x = (np.arange(200 * 96) % 97 - 48).reshape(200, 96) / 8
sys.exit(0 if y.dtype == np.dtype('<f4') and np.array_equal(y, (2 * x + 1).astype('<f4')) else 1)" "$tmp/y.npy" \
  && ok "NumPy reads 2x + 1" || bad "y.npy is not 2x + 1"
exit $fail
