/* The GPSIMD library operators (docs/gpsimd.md "Library operators"): the operations no
 * fixed-function engine does, on a block of partitions of 32-bit elements. Header-only C for
 * the cores (RV32IM is enough: fp32 values are ordered by their bit patterns, with no F
 * instruction). Each operator's definition is stated above it; tests/test_gpsimd_ops.cc holds
 * them to C++ references written from these statements.
 *
 * A block is `partitions` rows of `n` elements, row p at base + p * stride bytes. Today the
 * rows live in local memory; with the SBUF port a block will be the core's 16 partitions.
 * An operator's output blocks must not overlap its inputs (sort works in place on its one). */
#ifndef TERN_GPSIMD_OPS_H
#define TERN_GPSIMD_OPS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  uint32_t* base;
  uint32_t partitions;
  uint32_t n;       /* elements per partition */
  uint32_t stride;  /* bytes from one partition's row to the next */
} tern_block_t;

static inline uint32_t* tern_row(const tern_block_t* b, uint32_t p) {
  return (uint32_t*)((uint8_t*)b->base + p * b->stride);
}

/* The total order of fp32 patterns as unsigned keys: -NaN < -inf < ... < -0 < +0 < ... < +inf
 * < +NaN (a negative pattern's bits inverted, a positive one's sign bit set). */
static inline uint32_t tern_fp32_key(uint32_t bits) {
  return (bits & 0x80000000u) ? ~bits : (bits | 0x80000000u);
}

/* iota: out[p][i] = base + p * partition_step + i * step (int32, wrapping). */
static inline void tern_iota(const tern_block_t* out, int32_t base, int32_t partition_step, int32_t step) {
  for (uint32_t p = 0; p < out->partitions; ++p) {
    uint32_t* row = tern_row(out, p);
    uint32_t v = (uint32_t)base + p * (uint32_t)partition_step;
    for (uint32_t i = 0; i < out->n; ++i, v += (uint32_t)step) row[i] = v;
  }
}

/* affine_select: out[p][i] = in[p][i] where c + pc * p + ic * i >= 0 (int32, wrapping), else
 * `fill` (a causal mask: c = 0, pc = 1, ic = -1 keeps i <= p). out and in have one shape. */
static inline void tern_affine_select(const tern_block_t* out, const tern_block_t* in, int32_t c, int32_t pc,
                                      int32_t ic, uint32_t fill) {
  for (uint32_t p = 0; p < out->partitions; ++p) {
    const uint32_t* src = tern_row(in, p);
    uint32_t* dst = tern_row(out, p);
    for (uint32_t i = 0; i < out->n; ++i) {
      const int32_t e = (int32_t)((uint32_t)c + (uint32_t)pc * p + (uint32_t)ic * i);
      dst[i] = e >= 0 ? src[i] : fill;
    }
  }
}

/* The result of the indexed operators: 0, or 1 + p * n + i of the first index (partition p,
 * position i of the index block) outside [0, source or destination n). Nothing is written from
 * that element on. */

/* gather: out[p][i] = in[p][idx[p][i]]; out and idx have one shape. */
static inline uint32_t tern_gather(const tern_block_t* out, const tern_block_t* in, const tern_block_t* idx) {
  for (uint32_t p = 0; p < out->partitions; ++p) {
    const uint32_t* src = tern_row(in, p);
    const uint32_t* ix = tern_row(idx, p);
    uint32_t* dst = tern_row(out, p);
    for (uint32_t i = 0; i < out->n; ++i) {
      if (ix[i] >= in->n) return 1 + p * out->n + i;
      dst[i] = src[ix[i]];
    }
  }
  return 0;
}

/* scatter: out[p][idx[p][i]] = in[p][i] for i in order (a later i wins); in and idx have one
 * shape; elements of out no index names keep their values. */
static inline uint32_t tern_scatter(const tern_block_t* out, const tern_block_t* in, const tern_block_t* idx) {
  for (uint32_t p = 0; p < in->partitions; ++p) {
    const uint32_t* src = tern_row(in, p);
    const uint32_t* ix = tern_row(idx, p);
    uint32_t* dst = tern_row(out, p);
    for (uint32_t i = 0; i < in->n; ++i) {
      if (ix[i] >= out->n) return 1 + p * in->n + i;
      dst[ix[i]] = src[i];
    }
  }
  return 0;
}

/* top-k: per partition, the k largest fp32 values of `in` in tern_fp32_key order, largest
 * first, into values[p][0..k) and their positions into indices[p][0..k); equal keys keep the
 * lower position first. Needs k <= in->n (else returns 1, nothing written). O(n k). */
static inline uint32_t tern_topk(const tern_block_t* values, const tern_block_t* indices, const tern_block_t* in,
                                 uint32_t k) {
  if (k > in->n) return 1;
  for (uint32_t p = 0; p < in->partitions; ++p) {
    const uint32_t* src = tern_row(in, p);
    uint32_t* val = tern_row(values, p);
    uint32_t* pos = tern_row(indices, p);
    for (uint32_t j = 0; j < k; ++j) {
      /* the largest key not taken: ranked below the (j-1)-th pick by (key desc, position asc) */
      int found = 0;
      uint32_t best = 0;
      for (uint32_t i = 0; i < in->n; ++i) {
        const uint32_t key = tern_fp32_key(src[i]);
        if (j > 0) {
          const uint32_t last = tern_fp32_key(val[j - 1]);
          if (key > last || (key == last && i <= pos[j - 1])) continue;
        }
        if (!found || key > tern_fp32_key(src[best])) {
          best = i;
          found = 1;
        }
      }
      val[j] = src[best];
      pos[j] = best;
    }
  }
  return 0;
}

/* sort: each partition of `block` in ascending tern_fp32_key order, in place, by a bitonic
 * network; n must be a power of two (else returns 1, nothing changed). Equal keys may move
 * among themselves (their patterns are equal, so the result is unique). */
static inline uint32_t tern_sort(const tern_block_t* block) {
  const uint32_t n = block->n;
  if (n == 0 || (n & (n - 1)) != 0) return 1;
  for (uint32_t p = 0; p < block->partitions; ++p) {
    uint32_t* row = tern_row(block, p);
    for (uint32_t size = 2; size <= n; size <<= 1) {
      for (uint32_t half = size >> 1; half > 0; half >>= 1) {
        for (uint32_t i = 0; i < n; ++i) {
          const uint32_t j = i ^ half;
          if (j <= i) continue;
          const int ascending = (i & size) == 0;
          const uint32_t a = tern_fp32_key(row[i]), b = tern_fp32_key(row[j]);
          if ((a > b) == ascending) {
            const uint32_t t = row[i];
            row[i] = row[j];
            row[j] = t;
          }
        }
      }
    }
  }
  return 0;
}

#ifdef __cplusplus
}
#endif

#endif /* TERN_GPSIMD_OPS_H */
