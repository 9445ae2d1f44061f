/* The library operators (tern_gpsimd_ops.h) on a job the host places in the I/O window:
 * tests/test_gpsimd_ops.cc and bench/gpsimd_bench.cc write the job and its blocks, run this
 * program, and read the results, the operator's status and its cycles. */
#include "tern_gpsimd.h"
#include "tern_gpsimd_ops.h"
#include "ops_job.h"

/* A user's operator, as one would write it: the running sum of each partition's fp32 values,
 * out[p][i] = in[p][0] + ... + in[p][i], added left to right in float (each add rounded to
 * nearest even; on RV32IM the compiler's soft-float, on RV32IMF the F unit). */
static void cumsum(const tern_block_t* out, const tern_block_t* in) {
  for (uint32_t p = 0; p < in->partitions; ++p) {
    const float* src = (const float*)tern_row(in, p);
    float* dst = (float*)tern_row(out, p);
    float sum = 0.0f;
    for (uint32_t i = 0; i < in->n; ++i) {
      sum = i == 0 ? src[0] : sum + src[i];
      dst[i] = sum;
    }
  }
}

int main(void) {
  volatile uint32_t* job = tern_io;
  const uint32_t parts = job[TERN_JOB_PARTITIONS], n = job[TERN_JOB_N], k = job[TERN_JOB_K];
  const uint32_t stride = job[TERN_JOB_STRIDE];
  const tern_block_t in = {tern_io + TERN_JOB_IN, parts, n, stride};
  const tern_block_t idx = {tern_io + TERN_JOB_IDX, parts, n, stride};
  const tern_block_t out = {tern_io + TERN_JOB_OUT, parts, n, stride};
  const tern_block_t out_k = {tern_io + TERN_JOB_OUT, parts, k, stride};   /* top-k values */
  const tern_block_t out2_k = {tern_io + TERN_JOB_OUT2, parts, k, stride}; /* top-k indices */
  const tern_block_t in_k = {tern_io + TERN_JOB_IN, parts, k, stride};     /* gather's source */
  const tern_block_t dst_k = {tern_io + TERN_JOB_OUT, parts, k, stride};   /* scatter's destination */
  const int32_t a = (int32_t)job[TERN_JOB_A], b = (int32_t)job[TERN_JOB_B], c = (int32_t)job[TERN_JOB_C];
  uint32_t status = 0;
  const uint32_t start = tern_cycles();
  switch (job[TERN_JOB_OP]) {
    case TERN_OP_IOTA: tern_iota(&out, a, b, c); break;
    case TERN_OP_AFFINE_SELECT: tern_affine_select(&out, &in, a, b, c, job[TERN_JOB_FILL]); break;
    case TERN_OP_GATHER: status = tern_gather(&out, &in_k, &idx); break;
    case TERN_OP_SCATTER: status = tern_scatter(&dst_k, &in, &idx); break;
    case TERN_OP_TOPK: status = tern_topk(&out_k, &out2_k, &in, k); break;
    case TERN_OP_SORT: status = tern_sort(&in); break;
    case TERN_OP_CUMSUM: cumsum(&out, &in); break;
    default: return 2;  /* test 2: no such operator */
  }
  job[TERN_JOB_CYCLES] = tern_cycles() - start;
  job[TERN_JOB_STATUS] = status;
  return 0;
}
