#!/usr/bin/env bash
# The installable package (issue 25 item 3): `cmake --install` puts tern's headers, libraries,
# configs and ternConfig.cmake in a fresh prefix; examples/scale_rows, configured against that
# prefix alone, builds with find_package(tern) (tern::kernel, tern::runtime, tern::rtl), runs
# its kernel on the golden model, the RTL and both (cross) and writes .npy files that NumPy
# reads as 2x + 1 of the inputs.
set -euo pipefail
build=$1
src=$2
python=$3
source "$(dirname "$0")/lib.sh"

cmake --install "$build" --prefix "$tmp/prefix" > "$tmp/install.log" 2>&1 && ok "install" \
  || { bad "install: $(tail -5 "$tmp/install.log")"; exit 1; }
for f in lib/cmake/tern/ternConfig.cmake lib/cmake/tern/ternConfigVersion.cmake lib/libtern_model.a \
         lib/libtern_host.a include/tern/kernel/kernel.h include/tern/runtime/device.h \
         include/tern/host/npy.h include/tern/runtime/rtl_backend.h lib/libtern_rtl_neuroncore.a \
         share/tern/src/systemc_quiet.cc share/tern/configs/tiny.yaml; do
  [[ -f "$tmp/prefix/$f" ]] && ok "installed $f" || bad "not installed: $f"
done
cmake -S "$src/examples/scale_rows" -B "$tmp/ex" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$tmp/prefix" > "$tmp/configure.log" 2>&1 && ok "find_package(tern)" \
  || bad "configure: $(tail -20 "$tmp/configure.log")"
cmake --build "$tmp/ex" > "$tmp/build.log" 2>&1 && ok "the example builds" \
  || bad "build: $(tail -20 "$tmp/build.log")"
grep -q -- "-I$src/" "$tmp/ex/build.ninja" && bad "the example compiles with the source tree's headers"
for backend in golden rtl cross; do
  out=$("$tmp/ex/scale_rows" "$tmp/y_$backend.npy" $backend 2>&1) && [[ "$out" == *": PASS" ]] \
    && ok "the example runs on $backend: $out" || bad "the example on $backend: $out"
  "$python" -c "
import sys, numpy as np
y = np.load(sys.argv[1]); x = (np.arange(200 * 96) % 97 - 48).reshape(200, 96) / 8
sys.exit(0 if y.dtype == np.dtype('<f4') and np.array_equal(y, (2 * x + 1).astype('<f4')) else 1)" "$tmp/y_$backend.npy" \
    && ok "NumPy reads 2x + 1 ($backend)" || bad "y_$backend.npy is not 2x + 1"
done
[[ "$(grep -c "SystemC" <<< "$out")" == 0 ]] && ok "no SystemC banner" || bad "the SystemC banner is printed: $out"
out=$("$tmp/ex/scale_rows" "$tmp/y.npy" fpga 2>&1) && bad "an unknown backend runs: $out" \
  || { [[ "$out" == *"unknown backend 'fpga'"* ]] && ok "an unknown backend: $out" || bad "an unknown backend: $out"; }

# The CLI from the prefix: its config names are the package's, tern-rtl is beside it.
out=$("$tmp/prefix/bin/tern" run softmax --config tiny --backend cross 2>&1) && [[ "$out" == *"PASS"* ]] \
  && ok "bin/tern run softmax --backend cross: $(tail -1 <<< "$out")" || bad "bin/tern run softmax: $out"
out=$("$tmp/prefix/bin/tern" run softmax --config nosuch 2>&1) && bad "an unknown config runs: $out" \
  || { [[ "$out" == *"$tmp/prefix/share/tern/configs/nosuch.yaml"* ]] && ok "an unknown config names the package's file: $out" \
       || bad "an unknown config: $out"; }

# The Python module from the prefix alone (NKI's matmul tutorial, examples/python), every backend.
pydir="$tmp/prefix/lib/python3/dist-packages"
where=$(PYTHONPATH="$pydir" "$python" -c "import tern; print(tern.__file__)" 2>&1)
[[ "$where" == "$pydir/tern/__init__.py" ]] && ok "import tern from the prefix" || bad "import tern: $where"
for backend in golden rtl cross; do
  out=$(cd "$tmp" && PYTHONPATH="$pydir" "$python" "$src/examples/python/matmul.py" --backend $backend 2>&1) \
    && [[ "$out" == *": PASS" ]] && ok "matmul.py on $backend: ${out//$'\n'/; }" || bad "matmul.py on $backend: $out"
done
exit $fail
