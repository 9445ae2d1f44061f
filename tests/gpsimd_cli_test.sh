#!/usr/bin/env bash
# End-to-end test of `tern gpsimd run`: the self-checking RV32IMF programs (tests/gpsimd) pass on
# the golden core; each other ending (a failing test number, a fault, the cycle limit) gives its
# message and exit status; and every file a core cannot run is refused in words.
# Usage: gpsimd_cli_test.sh TERN PROGRAM_DIR RISCV_GCC DEVICE_DIR
set -euo pipefail
tern=$1 progs=$2 gcc=$3 device=$4
source "$(dirname "$0")/lib.sh"

# expect NAME STATUS PATTERN ARGS...: `tern gpsimd run ARGS` exits with STATUS and prints PATTERN.
expect() {
  local name=$1 want=$2 pattern=$3
  shift 3
  local status=0
  "$tern" gpsimd run "$@" > "$tmp/out" 2>&1 || status=$?
  if [[ $status -eq $want ]] && grep -qE -- "$pattern" "$tmp/out"; then ok "$name"; else
    bad "$name (status $status, want $want; output: $(cat "$tmp/out"))"
  fi
}

expect "every instruction class passes" 0 "PASS \(tohost 1\); cycles [0-9]+, instructions retired [0-9]+" "$progs/classes.elf"
expect "a C program with picolibc passes" 0 "PASS" "$progs/c_program.elf"
expect "a failing test's number is the exit status" 3 "FAIL: test 3 \(tohost 7\)" "$progs/outcome_fail.elf"
expect "an illegal instruction stops with its pc" 1 "FAULT: illegal instruction \(mcause 2\) at pc 0x800000[0-9a-f]{2}: instruction 0x00000000" "$progs/outcome_illegal.elf"
expect "a misaligned store names its address" 1 "FAULT: misaligned store \(mcause 6\) at pc 0x[0-9a-f]{8}: address 0x[0-9a-f]{7}2" "$progs/outcome_misaligned.elf"
expect "a spin loop ends at the cycle limit" 1 "TIMEOUT: no tohost write within the cycle limit; cycles 100[0-9]," "$progs/outcome_spin.elf" --max-cycles 1000
expect "an even tohost value is refused" 1 "tohost written with the even value 2" "$progs/outcome_even.elf"

# The retire trace: one line per instruction, with register and memory writes.
expect "--trace writes the retire trace" 0 "PASS" "$progs/classes.elf" --trace "$tmp/trace.txt"
retired=$("$tern" gpsimd run "$progs/classes.elf" | sed -E 's/.*instructions retired ([0-9]+).*/\1/')
if [[ $(wc -l < "$tmp/trace.txt") -eq $retired ]] && grep -qE '^80000000 [0-9a-f]{8} x2=' "$tmp/trace.txt" \
   && grep -qE ' mem\[[0-9a-f]{8}\]4=1$' "$tmp/trace.txt"; then ok "the trace has every retired instruction"
else bad "the trace has every retired instruction ($(wc -l < "$tmp/trace.txt") lines, $retired retired)"; fi

# Files a core cannot run, and bad options.
flags=(-march=rv32imf -mabi=ilp32f -O2 --specs=picolibc.specs --crt0=hosted -I"$device")
printf 'not an elf at all\n' > "$tmp/text.elf"
"$gcc" "${flags[@]}" -c -o "$tmp/object.o" "$device/tern_gpsimd_rt.c"
"$gcc" "${flags[@]/rv32imf/rv32imafc}" -o "$tmp/rvc.elf" "$(dirname "$0")/gpsimd/c_program.c" "$device/tern_gpsimd_rt.c"
"$gcc" -march=rv32imfd -mabi=ilp32d -O2 --specs=picolibc.specs --crt0=hosted -I"$device" -o "$tmp/double.elf" \
  "$(dirname "$0")/gpsimd/c_program.c" "$device/tern_gpsimd_rt.c"
printf '  .globl main\nmain: ret\n' > "$tmp/no_tohost.S"
"$gcc" "${flags[@]}" -o "$tmp/no_tohost.elf" "$tmp/no_tohost.S" -Wl,--defsym=_exit=main
head -c 100 "$progs/classes.elf" > "$tmp/truncated.elf"
expect "a missing file is named" 1 "/nonexistent.elf" /nonexistent.elf
expect "a text file has no ELF magic" 1 "text.elf: not a GPSIMD program: .*shorter than an ELF header|no ELF magic" "$tmp/text.elf"
expect "a truncated ELF is refused" 1 "truncated.elf: not a GPSIMD program: .*past the end of the file" "$tmp/truncated.elf"
expect "a 64-bit ELF is refused" 1 "a 64-bit ELF; GPSIMD cores are RV32" "$tern"
expect "an object file is refused" 1 "not an executable" "$tmp/object.o"
expect "the C extension is refused" 1 "C \(compressed\) extension" "$tmp/rvc.elf"
expect "the double-float ABI is refused" 1 "double- or quad-precision float ABI" "$tmp/double.elf"
expect "a program without tohost is refused" 1 "no \`tohost\` symbol" "$tmp/no_tohost.elf"
# A local `tohost` in another object comes first in the symbol table: the global one counts.
map=(-Wl,--defsym=__flash=0x80000000,--defsym=__flash_size=0x8000,--defsym=__ram=0x80008000,--defsym=__ram_size=0x4000)
printf '  .data\ntohost: .word 0\n  .text\n  .globl main\nmain: li a0, 0\n  ret\n' > "$tmp/local_tohost.S"
"$gcc" "${flags[@]}" "${map[@]}" -o "$tmp/local_tohost.elf" "$tmp/local_tohost.S" "$device/tern_gpsimd_rt.c"
expect "the global tohost wins over a local one" 0 "PASS" "$tmp/local_tohost.elf" --max-cycles 100000
# The RTL backends (tern-rtl): the RTL core alone, and in lock-step with the ISS.
expect "the RTL core runs every integer class" 0 "PASS \(tohost 1\)" "$progs/classes_rv32im.elf" --backend rtl
expect "RTL and ISS agree in lock-step" 0 "RTL and ISS agree; PASS" "$progs/classes_rv32im.elf" --backend cross
expect "a C program in lock-step" 0 "RTL and ISS agree; PASS" "$progs/c_program_rv32im.elf" --backend cross
expect "a failing test's number on the RTL" 3 "FAIL: test 3" "$progs/outcome_fail_rv32im.elf" --backend rtl
expect "a fault on the RTL names cause and pc" 1 "FAULT: illegal instruction \(mcause 2\) at pc 0x" "$progs/outcome_illegal_rv32im.elf" --backend cross
expect "an F-ABI program is refused by the RTL" 1 "built for the F extension's ABI \(ilp32f\).*no F unit" "$progs/classes.elf" --backend rtl
golden_line=$("$tern" gpsimd run "$progs/classes_rv32im.elf" | sed 's/.*PASS/PASS/')
rtl_line=$("$tern" gpsimd run "$progs/classes_rv32im.elf" --backend rtl | sed 's/.*PASS/PASS/')
if [[ "$golden_line" == "$rtl_line" ]]; then ok "golden and RTL count the same cycles ($rtl_line)"
else bad "golden and RTL count the same cycles (golden: $golden_line; rtl: $rtl_line)"; fi
expect "a fault on golden (RV32IM)" 1 "FAULT: illegal instruction" "$progs/outcome_illegal_rv32im.elf"
golden_fault=$(sed 's/.*FAULT/FAULT/' "$tmp/out")
expect "the same fault on the RTL" 1 "FAULT: illegal instruction" "$progs/outcome_illegal_rv32im.elf" --backend rtl
rtl_fault=$(sed 's/.*FAULT/FAULT/' "$tmp/out")
if [[ "$golden_fault" == "$rtl_fault" ]]; then ok "golden and RTL report a fault alike ($rtl_fault)"
else bad "golden and RTL report a fault alike (golden: $golden_fault; rtl: $rtl_fault)"; fi
expect "--trace on the RTL" 0 "PASS" "$progs/classes_rv32im.elf" --backend rtl --trace "$tmp/rtl_trace.txt"
"$tern" gpsimd run "$progs/classes_rv32im.elf" --trace "$tmp/golden_trace.txt" > /dev/null
if cmp -s "$tmp/rtl_trace.txt" "$tmp/golden_trace.txt"; then ok "the RTL's trace is the ISS's"
else bad "the RTL's trace is the ISS's ($(diff "$tmp/rtl_trace.txt" "$tmp/golden_trace.txt" | head -3))"; fi
expect "an unknown backend is refused" 1 "--backend" "$progs/classes.elf" --backend fpga
expect "a negative cycle limit is refused" 1 "max-cycles" "$progs/classes.elf" --max-cycles -5
expect "a zero cycle limit is refused" 1 "max-cycles" "$progs/classes.elf" --max-cycles 0
expect "a trace into a missing directory is refused before the run" 1 "trace.*/nonexistent/t.txt" "$progs/classes.elf" --trace /nonexistent/t.txt
expect "a trace over the program is refused" 1 "trace" "$progs/classes.elf" --trace "$progs/classes.elf"
exit $fail
