/* Every RV32IMF instruction class on a GPSIMD core (built for RV32IM: the F checks left out),
 * self-checking: each check compares a result
 * with the value the RISC-V manual defines for it (worked out by hand in the comment) and exits
 * with its number on a mismatch (tern gpsimd run's status). */
#define CHECK(n, reg, value) li t6, value; li a0, n; bne reg, t6, fail
#define CHECKR(n, reg, reg2) li a0, n; bne reg, reg2, fail
#define CHECKF(n, freg, bits) fmv.x.w t5, freg; CHECK(n, t5, bits)

  .option arch, +zicsr       /* named: an RV32IM build does not imply it */
  .text
  .globl main
main:
  /* 1-12: the integer ALU */
  li t0, 100
  li t1, -7
  add t2, t0, t1;   CHECK(1, t2, 93)
  sub t2, t0, t1;   CHECK(2, t2, 107)
  and t2, t0, t1;   CHECK(3, t2, 96)            /* 0x64 & 0xfffffff9 */
  or t2, t0, t1;    CHECK(4, t2, -3)            /* 0x64 | 0xfffffff9 = 0xfffffffd */
  xor t2, t0, t1;   CHECK(5, t2, -99)
  slt t2, t1, t0;   CHECK(6, t2, 1)
  sltu t2, t1, t0;  CHECK(7, t2, 0)             /* 0xfffffff9 is large unsigned */
  sll t2, t0, t0;   CHECK(8, t2, 1600)          /* shift by 100 & 31 = 4 */
  srl t2, t1, t0;   CHECK(9, t2, 0x0fffffff)
  sra t2, t1, t0;   CHECK(10, t2, -1)
  srai t2, t1, 1;   CHECK(11, t2, -4)
  sltiu t2, zero, 1; CHECK(12, t2, 1)

  /* 13-16: upper immediates, jumps and their links */
  lui t2, 0xabcde;  CHECK(13, t2, 0xabcde000)
1: auipc t2, 0
  la t3, 1b;        CHECKR(14, t2, t3)
  jal t3, 2f
2: la t4, 2b;       CHECKR(15, t3, t4)
  la t4, 3f
  jalr t3, 0(t4)
  j fail
3: addi t3, t3, 4;  CHECKR(16, t3, t4)         /* jalr linked the address of the `j fail` */

  /* 17-22: branches, taken and not */
  li a0, 17; blt t1, t0, 4f; j fail
4: li a0, 18; bge t1, t0, fail
  li a0, 19; bltu t0, t1, 5f; j fail
5: li a0, 20; bgeu t0, t1, fail
  li a0, 21; beq t0, t0, 6f; j fail
6: li a0, 22; bne t0, t0, fail

  /* 23-29: loads and stores, sign and zero extension */
  la t3, scratch
  li t2, 0x8081f0f1
  sw t2, 0(t3)
  lb t4, 0(t3);     CHECK(23, t4, 0xfffffff1)
  lbu t4, 1(t3);    CHECK(24, t4, 0xf0)
  lh t4, 2(t3);     CHECK(25, t4, 0xffff8081)
  lhu t4, 2(t3);    CHECK(26, t4, 0x8081)
  sb zero, 3(t3)
  lw t4, 0(t3);     CHECK(27, t4, 0x0081f0f1)
  sh t0, 0(t3)
  lw t4, 0(t3);     CHECK(28, t4, 0x00810064)
  lw t4, 4(t3);     CHECK(29, t4, 0x12345678)  /* initialised data, copied by crt0 */

  /* 30-35: the M extension */
  mul t2, t0, t1;   CHECK(30, t2, -700)
  mulh t2, t0, t1;  CHECK(31, t2, -1)
  mulhu t2, t0, t1; CHECK(32, t2, 99)          /* 100 * (2^32 - 7) >> 32 */
  div t2, t0, t1;   CHECK(33, t2, -14)         /* rounds toward zero */
  rem t2, t0, t1;   CHECK(34, t2, 2)           /* sign of the dividend */
  remu t2, t1, t0;  CHECK(35, t2, 89)          /* (2^32 - 7) mod 100 */

  /* 36-38: counters and CSRs */
  csrr t2, instret
  csrr t3, instret
  sub t3, t3, t2;   CHECK(36, t3, 1)
  csrr t2, cycle
  nop
  csrr t3, cycle
  sub t3, t3, t2;   CHECK(37, t3, 2)           /* no stalls between: one cycle each */
  csrw mscratch, t0
  csrr t2, mscratch; CHECK(38, t2, 100)

#ifdef __riscv_flen
  /* 39-55: the F extension */
  csrw fflags, zero
  li t2, 0x40400000          /* 3.0 */
  fmv.w.x ft0, t2
  li t2, 0x3f800000          /* 1.0 */
  fmv.w.x ft1, t2
  fadd.s ft2, ft0, ft1;      CHECKF(39, ft2, 0x40800000)   /* 4.0 */
  fsqrt.s ft3, ft2;          CHECKF(40, ft3, 0x40000000)   /* 2.0 */
  fmul.s ft3, ft0, ft0;      CHECKF(41, ft3, 0x41100000)   /* 9.0 */
  fdiv.s ft3, ft1, ft0, rne; CHECKF(42, ft3, 0x3eaaaaab)   /* 1/3 to nearest */
  fdiv.s ft3, ft1, ft0, rtz; CHECKF(43, ft3, 0x3eaaaaaa)   /* 1/3 toward zero */
  csrr t2, fflags;           CHECK(44, t2, 1)              /* NX only */
  fmadd.s ft3, ft0, ft0, ft1; CHECKF(45, ft3, 0x41200000)  /* 3*3+1 = 10 */
  fnmsub.s ft3, ft0, ft0, ft1; CHECKF(46, ft3, 0xc1000000) /* -(3*3)+1 = -8 */
  fsgnjn.s ft3, ft0, ft0;    CHECKF(47, ft3, 0xc0400000)
  fcvt.w.s t2, ft3, rtz;     CHECK(48, t2, -3)
  fcvt.s.w ft3, t1;          CHECKF(49, ft3, 0xc0e00000)   /* -7.0 */
  flt.s t2, ft3, ft1;        CHECK(50, t2, 1)
  fclass.s t2, ft3;          CHECK(51, t2, 2)              /* negative normal */
  la t3, scratch
  fsw ft0, 8(t3)
  flw ft4, 8(t3);            CHECKF(52, ft4, 0x40400000)
  fmv.w.x ft5, zero
  csrw fflags, zero
  fdiv.s ft3, ft1, ft5;      CHECKF(53, ft3, 0x7f800000)   /* 1/0 = +inf */
  csrr t2, fflags;           CHECK(54, t2, 8)              /* DZ */
  li t2, 0x7fc00000
  fmv.w.x ft6, t2
  fmin.s ft3, ft6, ft0;      CHECKF(55, ft3, 0x40400000)   /* minimumNumber(qNaN, 3) = 3 */
#endif

  li a0, 0
  ret
fail:
  call exit                  /* a0: the failing check's number */

  .data
  .balign 4
scratch:
  .word 0, 0x12345678, 0
