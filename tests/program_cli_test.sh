#!/usr/bin/env bash
# `tern run PROG.s|PROG.tbin --inputs ... --outputs ...` (issue 25): a reference kernel's
# program file, written by `tern run --bin/--asm`, runs again on inputs made by NumPy, on the
# golden model and on the RTL; NumPy checks the result against its own fp64 matmul; bad files
# and bindings are errors in words.
set -euo pipefail
tern=$1
python=$2
source "$(dirname "$0")/lib.sh"

# The program of c = a_t^T @ b at M = 24, K = 40, N = 20 (bf16 in, fp32 out).
"$tern" run gemm_at --config tiny --shape m=24,k=40,n=20 --bin "$tmp/g.tbin" --asm "$tmp/g.s" >/dev/null
grep -q '^.tensor a_t input bf16 rows=40 cols=24 addr=0x0$' "$tmp/g.s" && ok "tensor table in the text" \
  || bad "no a_t entry in: $(head -5 "$tmp/g.s")"

# Inputs as NumPy would hold them: bf16 as named uint16 patterns (values exact in bf16).
"$python" - "$tmp" <<'PY'
import sys, numpy as np
d = sys.argv[1]
rng = np.random.default_rng(7)
def bf16(shape):
    x = (rng.integers(-64, 64, size=shape) / 16).astype('<f4')
    a = np.zeros(shape, dtype=[('bf16', '<u2')])
    a['bf16'] = x.view('<u4') >> 16
    return a, x.astype(np.float64)
a, av = bf16((40, 24)); b, bv = bf16((40, 20))
np.save(d + '/a.npy', a); np.save(d + '/b.npy', b); np.save(d + '/ref.npy', av.T @ bv)
np.save(d + '/wrong_dtype.npy', np.zeros((40, 24), dtype='<f4'))
np.save(d + '/wrong_shape.npy', a[:20])
PY

check() {  # check NAME FILE: FILE.npy equals the fp64 reference (sums of 40 exact products of
           # sixteenths, exact in fp32 too: so equal, not within a tolerance)
  if "$python" -c "import sys, numpy as np; c = np.load(sys.argv[1]); r = np.load(sys.argv[2]);
sys.exit(0 if c.dtype == np.dtype('<f4') and c.shape == (24, 20) and np.array_equal(c.astype(np.float64), r) else 1)" \
      "$2" "$tmp/ref.npy"; then ok "$1"; else bad "$1: $2 differs from NumPy's product"; fi
}
"$tern" run "$tmp/g.tbin" --inputs "$tmp/a.npy,$tmp/b.npy" --outputs "$tmp/c_bin.npy" > "$tmp/run.out" 2>&1 \
  && ok "run .tbin" || bad "run .tbin: $(cat "$tmp/run.out")"
check "golden .tbin result" "$tmp/c_bin.npy"
"$tern" run "$tmp/g.s" --inputs "b=$tmp/b.npy,a_t=$tmp/a.npy" --outputs "c=$tmp/c_asm.npy" > "$tmp/run2.out" 2>&1 \
  && ok "run .s, named" || bad "run .s: $(cat "$tmp/run2.out")"
check "golden .s result" "$tmp/c_asm.npy"
"$tern" run "$tmp/g.tbin" --backend rtl --inputs "$tmp/a.npy,$tmp/b.npy" --outputs "$tmp/c_rtl.npy" \
  > "$tmp/run3.out" 2>&1 && ok "run on the RTL" || bad "run on the RTL: $(cat "$tmp/run3.out")"
check "RTL result" "$tmp/c_rtl.npy"
grep -q "^simulated cycles: [1-9]" "$tmp/run3.out" && ok "RTL cycles printed" || bad "no RTL cycles: $(cat "$tmp/run3.out")"
# SystemC's banner stays out of the output (tb/platform/systemc_quiet.cc), and --help explains
# the RTL's columns.
! grep -q "Copyright\|SystemC 2" "$tmp/run3.out" && ok "no SystemC banner" || bad "SystemC banner in: $(head -5 "$tmp/run3.out")"
"$tern" run --help > "$tmp/help.out"
grep -q "port conflict  its SBUF/PSUM access lost the port" "$tmp/help.out" && grep -q "fetch wait " "$tmp/help.out" \
  && ok "--help explains the RTL columns" || bad "--help lacks the RTL columns"

expect_error() {  # expect_error NAME WORDS ARGS...: exit 1, WORDS in the message
  local name=$1 words=$2 out rc=0; shift 2
  out=$("$tern" "$@" 2>&1) || rc=$?
  if [[ $rc -ne 1 ]]; then bad "$name: exit $rc: $out"
  elif [[ "$out" != *"$words"* ]]; then bad "$name: '$out' lacks '$words'"
  else ok "$name"; fi
}
g=$tmp/g.tbin
expect_error "input missing" "input 'b' (40 x 20 bf16) has no file" run "$g" --inputs "$tmp/a.npy"
expect_error "unknown tensor" "the program has no tensor 'x'" run "$g" --inputs "x=$tmp/a.npy,$tmp/b.npy"
expect_error "output as input" "'c' is an output" run "$g" --inputs "c=$tmp/a.npy,$tmp/b.npy"
expect_error "twice" "'a_t' is given twice" run "$g" --inputs "a_t=$tmp/a.npy,a_t=$tmp/b.npy"
expect_error "too many files" "3 unnamed file(s) for 2 inputs" run "$g" --inputs "$tmp/a.npy,$tmp/b.npy,$tmp/b.npy"
expect_error "wrong dtype" "a fp32 array of shape (40, 24), and tensor 'a_t' is 40 x 24 bf16" \
  run "$g" --inputs "$tmp/wrong_dtype.npy,$tmp/b.npy"
expect_error "wrong shape" "shape (20, 24), and tensor 'a_t' is 40 x 24 bf16" run "$g" --inputs "$tmp/wrong_shape.npy,$tmp/b.npy"
expect_error "output over an input" "is the input file" run "$g" --inputs "$tmp/a.npy,$tmp/b.npy" --outputs "$tmp/a.npy"
expect_error "no .npy" "not an .npy file" run "$g" --inputs "$g,$tmp/b.npy"
expect_error "--shape on a file" "its shapes are its tensor table's" run "$g" --shape m=3
expect_error "--inputs on a kernel" "are a program file's" run gemm --inputs "$tmp/a.npy"
head -c 40 "$g" > "$tmp/cut.tbin"
expect_error "truncated image" "cut.tbin: byte" run "$tmp/cut.tbin"
printf '.tensor a input fp32 rows=2 cols=2 addr=0x10\n' > "$tmp/bad.s"
expect_error "misplaced tensor" "bad.s:1:9: this tensor: tensor 'a': address 0x10 is not on a 4096-byte boundary" run "$tmp/bad.s"
printf '.tensor a input fp32 rows=2 cols=2 addr=0x0\n.tensor b input fp32 rows=2 cols=2 addr=0x0\n' > "$tmp/ov.s"
expect_error "overlap" "overlaps tensor 'a'" run "$tmp/ov.s"
exit $fail
