/* The job block of tests/gpsimd/ops_program.c at the start of the I/O window, in 32-bit words:
 * shared by the program and its hosts (tests/test_gpsimd_ops.cc, bench/gpsimd_bench.cc). Each
 * block holds up to TERN_JOB_BLOCK_WORDS words (partitions * stride / 4). */
#ifndef TERN_OPS_JOB_H
#define TERN_OPS_JOB_H

enum {
  TERN_OP_IOTA = 1, TERN_OP_AFFINE_SELECT, TERN_OP_GATHER, TERN_OP_SCATTER, TERN_OP_TOPK, TERN_OP_SORT,
  TERN_OP_CUMSUM  /* a user's operator, written in ops_program.c itself */
};
enum {
  TERN_JOB_OP = 0, TERN_JOB_PARTITIONS, TERN_JOB_N, TERN_JOB_K, TERN_JOB_STRIDE, TERN_JOB_A, TERN_JOB_B,
  TERN_JOB_C, TERN_JOB_FILL, TERN_JOB_STATUS = 16, TERN_JOB_CYCLES = 17,
  TERN_JOB_BLOCK_WORDS = 1000,
  TERN_JOB_IN = 64, TERN_JOB_IDX = TERN_JOB_IN + TERN_JOB_BLOCK_WORDS, TERN_JOB_OUT = TERN_JOB_IDX + TERN_JOB_BLOCK_WORDS,
  TERN_JOB_OUT2 = TERN_JOB_OUT + TERN_JOB_BLOCK_WORDS
};

#endif
