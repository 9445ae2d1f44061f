/* Programs that end in each way `tern gpsimd run` reports, chosen by -DOUTCOME: a failing test
 * number through exit(), an illegal instruction, a misaligned store, a spin loop (the cycle
 * limit) and an even tohost value (a host call, which tern does not provide). */
  .text
  .globl main
main:
#if OUTCOME == 1
  li a0, 3
  call exit
#elif OUTCOME == 2
  nop
  .word 0
#elif OUTCOME == 3
  la t0, tohost
  sw zero, 2(t0)
#elif OUTCOME == 4
1: j 1b
#elif OUTCOME == 5
  la t0, tohost
  li t1, 2
  sw t1, 0(t0)
  j fail
#endif
fail:
  li a0, 99
  call exit
