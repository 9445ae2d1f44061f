/* The GPSIMD device library (docs/gpsimd.md): what a program on a GPSIMD core needs to talk to
 * the machine. Header-only C (usable from C++), for riscv64-unknown-elf-gcc -march=rv32imf
 * -mabi=ilp32f; programs link tern_gpsimd_rt.c (tohost, _exit) through tern_gpsimd_program(). */
#ifndef TERN_GPSIMD_H
#define TERN_GPSIMD_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The exit-code word the host watches (riscv-tests convention): 1 is pass, (n << 1) | 1 is
 * "test n failed". Defined in tern_gpsimd_rt.c; exit(status) writes it. */
extern volatile uint32_t tohost;

/* The host's I/O window: the top 16 KiB of local memory, which start-up code leaves alone, so
 * the host can place a program's inputs there after loading it and read its outputs after the
 * run (its address is the linker's, cmake/gpsimd.cmake). */
extern uint32_t tern_io[];

/* Ends the program: status 0 passes, status n reports test n as failed. */
static inline __attribute__((noreturn)) void tern_exit(uint32_t status) {
  tohost = (status << 1) | 1u;
  for (;;) {
  }
}

/* A failed check reports `test`'s number. */
static inline void tern_check(int ok, uint32_t test) {
  if (!ok) tern_exit(test);
}

/* The value of the CSR named `csr` (its assembler name). Zicsr is named for the assembler,
 * which an RV32IM build (-march=rv32im: the RTL cores today) does not imply. */
#define TERN_CSR_READ(csr)                                                        \
  ({                                                                              \
    uint32_t tern_csr_value_;                                                     \
    __asm__ volatile(".option push\n.option arch, +zicsr\ncsrr %0, " #csr "\n.option pop" \
                     : "=r"(tern_csr_value_));                                    \
    tern_csr_value_;                                                              \
  })

/* The core's number (mhartid), cycles and instructions retired so far. */
static inline uint32_t tern_core_id(void) { return TERN_CSR_READ(mhartid); }
static inline uint32_t tern_cycles(void) { return TERN_CSR_READ(cycle); }
static inline uint32_t tern_instret(void) { return TERN_CSR_READ(instret); }

/* The F extension's accrued exception flags (fflags), read and cleared. */
static inline uint32_t tern_fflags_take(void) {
  uint32_t v;
  __asm__ volatile("csrrw %0, fflags, zero" : "=r"(v));
  return v;
}

#ifdef __cplusplus
}
#endif

#endif /* TERN_GPSIMD_H */
