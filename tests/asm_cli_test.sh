#!/usr/bin/env bash
# End-to-end test of `tern asm` and `tern disasm`: a small program in free form assembles, and
# its image disassembles to the canonical text written here by hand; bad text fails in words.
set -euo pipefail
tern=$1
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat > "$tmp/in.s" <<'ASM'
# a DMA in, a matmul, a signal; comments and free spacing are not kept
.seq sp
  dma   q1, d0 $S[0]++@complete
.seq pe
  ldstat sbuf.bf16[0:8, 0x0][[0,1],[1,8]] $S[0]>=1
again: matmul psum.fp32[0:8, 0][[1,8]], sbuf.bf16[0:8, 16][[1,8]]
  loop r1, again
  halt
.desc 0 dst=sbuf.bf16[0, 0][[1,8],[2,8]] src=hbm.bf16[0x1000][[16,8],[2,8]]
ASM

cat > "$tmp/want.s" <<'ASM'
.seq pe
  ldstat sbuf.bf16[0:8, 0][[1,8]] $S[0]>=1
L1:
  matmul psum.fp32[0:8, 0][[1,8]], sbuf.bf16[0:8, 16][[1,8]]
  loop r1, L1
  halt

.seq sp
  dma q1, d0 $S[0]++@complete

.desc 0 src=hbm.bf16[4096][[16,8],[2,8]] dst=sbuf.bf16[0, 0][[1,8],[2,8]]
ASM

step() {  # step <name> <command...>: the command must succeed
  local name=$1; shift
  local out
  if out=$("$@" 2>&1); then echo "ok   $name"; else echo "FAIL $name: exit $?: $out"; fail=1; fi
}
step "asm" "$tern" asm "$tmp/in.s" -o "$tmp/prog.tbin"
step "disasm to stdout" bash -c '"$0" disasm "$1" > "$2"' "$tern" "$tmp/prog.tbin" "$tmp/got.s"
step "canonical text" diff -u "$tmp/want.s" "$tmp/got.s"
step "disasm -o" "$tern" disasm "$tmp/prog.tbin" -o "$tmp/got2.s"
step "same file" cmp "$tmp/got.s" "$tmp/got2.s"
step "reassemble" "$tern" asm "$tmp/got.s" -o "$tmp/again.tbin"
step "same image" cmp "$tmp/prog.tbin" "$tmp/again.tbin"

expect_error() {  # expect_error <name> <message fragment> <command...>: exit 1 and the message
  local name=$1 frag=$2; shift 2
  local out rc=0
  out=$("$@" 2>&1) || rc=$?
  if [[ $rc -ne 1 ]]; then
    echo "FAIL $name: exit $rc: $out"; fail=1
  elif [[ "$out" != *"$frag"* ]]; then
    echo "FAIL $name: message '$out' lacks '$frag'"; fail=1
  else
    echo "ok   $name"
  fi
}
printf '.seq pe\n  nop\n  matmull psum.fp32[0:8, 0][[1,8]], -\n' > "$tmp/bad.s"
expect_error "bad mnemonic" "$tmp/bad.s:3:3: unknown mnemonic 'matmull'" "$tern" asm "$tmp/bad.s" -o "$tmp/bad.tbin"
[[ ! -e "$tmp/bad.tbin" ]] || { echo "FAIL bad.tbin was written"; fail=1; }
head -c 40 "$tmp/prog.tbin" > "$tmp/short.tbin"
expect_error "truncated image" "truncated program image" "$tern" disasm "$tmp/short.tbin"
expect_error "no output" "-o is required" "$tern" asm "$tmp/in.s"
expect_error "missing file" "$tmp/none.s: cannot open input file" "$tern" asm "$tmp/none.s" -o "$tmp/x.tbin"
exit $fail
