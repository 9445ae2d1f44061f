#!/usr/bin/env bash
# The layered tree (docs/decisions.md, "Issue 25: the layered tree"): the golden model (model/)
# and the testbench (tb/) never use the software above them (sw/). Fails when a file of model/
# or tb/ includes a header that lives in sw/, or when a CMakeLists.txt there links a sw library.
# Usage: layers_test.sh SOURCE_DIR
set -euo pipefail
src=$1
source "$(dirname "$0")/lib.sh"
cd "$src"
sw_libs=$(sed -n 's/^add_library(\([a-z_]*\) .*/\1/p' sw/CMakeLists.txt | sort -u)
[[ -n "$sw_libs" ]] || { echo "FAIL no libraries found in sw/CMakeLists.txt"; exit 1; }
for layer in model tb; do
  includes=0
  while IFS=: read -r file _ header; do
    includes=$((includes + 1))
    [[ -f "sw/$header" ]] && bad "$file includes \"$header\", which is sw/$header"
  done < <(grep -rnoE '^#include "[^"]+"' --include='*.h' --include='*.cc' "$layer" | sed 's/#include "\(.*\)"/\1/')
  [[ $includes -gt 100 ]] || bad "$layer: only $includes includes seen (is the pattern right?)"
  for lib in $sw_libs; do
    if grep -rqw --include=CMakeLists.txt "$lib" "$layer"; then bad "$layer links $lib, a sw/ library"; fi
  done
  [[ $fail -eq 0 ]] && ok "$layer/ uses nothing of sw/ ($includes includes; libraries: $(echo $sw_libs))"
done
exit $fail
