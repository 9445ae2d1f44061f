// The host's side of tests/gpsimd/ops_program.c: a job (an operator, its block shape and
// parameters, its input blocks) as the writes into the I/O window the program reads. Shared by
// tests/test_gpsimd_ops.cc and bench/gpsimd_bench.cc.
#pragma once

#include <cstdint>
#include <vector>

#include "gpsimd/bare_metal.h"
#include "ops_job.h"

namespace tern::test::gpsimd_ops {

struct Job {
  uint32_t op = 0, partitions = 1, n = 1, k = 0, stride = 4, fill = 0;
  int32_t a = 0, b = 0, c = 0;
  std::vector<uint32_t> in, idx, out;  // blocks of partitions * stride / 4 words
};

// The block words of partition p, element i.
inline size_t at(const Job& j, uint32_t p, uint32_t i) { return p * (j.stride / 4) + i; }

inline std::vector<uint8_t> bytes_of(const std::vector<uint32_t>& words) {
  std::vector<uint8_t> bytes;
  for (uint32_t w : words) {
    for (int k = 0; k < 4; ++k) bytes.push_back(uint8_t(w >> (8 * k)));
  }
  return bytes;
}

// The job's words at the start of the I/O window, and its blocks at their offsets.
inline gpsimd::HostWrites job_writes(const Job& j, uint32_t io) {
  std::vector<uint32_t> head(TERN_JOB_IN, 0);
  head[TERN_JOB_OP] = j.op;
  head[TERN_JOB_PARTITIONS] = j.partitions;
  head[TERN_JOB_N] = j.n;
  head[TERN_JOB_K] = j.k;
  head[TERN_JOB_STRIDE] = j.stride;
  head[TERN_JOB_A] = uint32_t(j.a);
  head[TERN_JOB_B] = uint32_t(j.b);
  head[TERN_JOB_C] = uint32_t(j.c);
  head[TERN_JOB_FILL] = j.fill;
  return {{io, bytes_of(head)},
          {io + 4 * TERN_JOB_IN, bytes_of(j.in)},
          {io + 4 * TERN_JOB_IDX, bytes_of(j.idx)},
          {io + 4 * TERN_JOB_OUT, bytes_of(j.out)},
          {io + 4 * TERN_JOB_OUT2, bytes_of(j.out)}};
}

}  // namespace tern::test::gpsimd_ops
