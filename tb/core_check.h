// Checks of the core RTL against the golden core model, shared by the tests and the waveform
// bench: random Vector Engine programs with random access patterns, and the comparison of a
// program's run on both (SBUF, PSUM, faults) from the same random memory contents.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "common/config.h"
#include "core/core_model.h"
#include "core_compute.h"
#include "dve/vector_engine.h"
#include "act_check.h"
#include "dve_check.h"
#include "fault_check.h"
#include "pe/tensor_engine.h"
#include "pe_check.h"

namespace tern::tb {

constexpr uint64_t kCoreHbmBytes = 1 << 20;
constexpr uint32_t kCoreProgramBase = 0x10000;

// A legal start partition for `count` partitions (the quadrant rule of docs/isa.md).
inline uint32_t random_start(uint32_t count, uint32_t P, std::mt19937_64& rng) {
  std::vector<uint32_t> ok;
  for (uint32_t s = 0; s + count <= P; ++s)
    if (core::start_partition_allowed(s, count, P)) ok.push_back(s);
  return ok[rng() % ok.size()];
}

// A pattern of `elements` elements of `dt`: contiguous, or 2 to 4 rows with a gap between them.
inline isa::AccessPattern random_ap(isa::Mem mem, Dtype dt, uint32_t start, uint32_t count,
                                    uint32_t elements, std::mt19937_64& rng, uint32_t* bytes_used) {
  isa::AccessPattern ap;
  ap.mem = mem;
  ap.dtype = dt;
  ap.start_partition = start;
  ap.partitions = count;
  const uint32_t eb = core::dtype_bytes(dt);
  uint32_t rows = 1;
  for (uint32_t r = 2; r <= 4; ++r)
    if (elements % r == 0 && rng() % 2) rows = r;
  const uint32_t cols = elements / rows, gap = uint32_t(rng() % 3);
  if (rows > 1) ap.dims[2] = {int32_t(cols + gap), rows};
  ap.dims[3] = {1, cols};
  *bytes_used = ((rows - 1) * (cols + gap) + cols) * eb;
  return ap;
}

// 1 to 4 random legal Vector Engine instructions on DVE or POOL, each operand in its own SBUF
// region (inputs in PSUM now and then); `span` receives the SBUF bytes per partition they touch.
inline isa::Program random_vec_program(const CoreConfig& cfg, std::mt19937_64& rng, uint32_t* span) {
  const uint32_t P = cfg.partitions;
  VectorEngine shapes(cfg);
  const isa::Seq seq = rng() % 2 ? isa::Seq::kDve : isa::Seq::kPool;
  isa::Program p;
  auto& stream = p.streams[size_t(seq)];
  *span = 0;
  const int count = 1 + int(rng() % 4);
  for (int k = 0; k < count; ++k) {
    RandomOptions ro;
    ro.illegal = false;
    ro.max_n = 40;
    DveCommand c = random_command(P, rng, ro);
    c.n = std::min<uint32_t>(c.n, 160);
    if (c.op == DveOp::kTranspose) c.n = shapes.block() * (1 + uint32_t(rng() % 2));
    const uint32_t lanes = c.op == DveOp::kTranspose ? P : 1 + uint32_t(rng() % P);
    const bool tsr = c.op == DveOp::kTensorScalarReduce;
    isa::Instruction in;
    in.op = isa::Opcode(isa::kDveOpcodeBase + uint8_t(c.op));
    in.alu0 = uint32_t(c.alu0);
    in.alu1 = uint32_t(c.alu1);
    in.stochastic = c.rounding == Rounding::kStochastic;
    in.saturate = c.saturate;
    in.reverse0 = c.reverse0;
    in.reverse1 = c.reverse1;
    in.negate = c.negate;
    in.imm2 = c.imm2;
    uint32_t at = 0;  // the next free SBUF byte, 64-byte aligned
    auto place = [&](Dtype dt, uint32_t elements, bool may_psum) {
      const uint32_t eb = core::dtype_bytes(dt);
      const isa::Mem mem = may_psum && rng() % 4 == 0 ? isa::Mem::kPsum : isa::Mem::kSbuf;
      uint32_t used = 0;
      isa::AccessPattern ap = random_ap(mem, dt, random_start(lanes, P, rng), lanes, elements, rng, &used);
      ap.offset = mem == isa::Mem::kPsum ? 0 : (at + eb - 1) / eb * eb;
      if (mem == isa::Mem::kSbuf) at = (ap.offset + used + 63) / 64 * 64;
      *span = std::max(*span, at);
      return ap;
    };
    in.ap[0] = place(c.out, shapes.out_beats(c) - (tsr ? 1 : 0), false);
    if (shapes.in0_beats(c)) in.ap[1] = place(c.in0, shapes.in0_beats(c), true);
    if (shapes.in1_beats(c)) in.ap[2] = place(c.in1, shapes.in1_beats(c), true);
    if (tsr) in.ap[2] = place(Dtype::kFp32, 1, false);
    for (int s = 0; s < 2; ++s) {
      isa::ScalarOperand& sc = in.scalar[size_t(s)];
      sc.imm = s == 0 ? c.imm0 : c.imm1;
      if (!(s == 0 ? c.scalar0_per_partition : c.scalar1_per_partition)) continue;
      sc.per_partition = true;
      sc.dtype = rng() % 2 ? Dtype::kFp32 : Dtype::kInt32;
      sc.start_partition = random_start(in.ap[0].partitions, P, rng);
      sc.imm = at;
      at += 64;
      *span = std::max(*span, at);
    }
    stream.push_back(in);
  }
  isa::Instruction halt;
  halt.op = isa::Opcode::kHalt;
  stream.push_back(halt);
  *span = std::min(*span + 64, cfg.sbuf_partition_bytes);
  return p;
}

// Places operands in SBUF regions of their own, 64-byte aligned, from byte 0 up; `span` is
// the bytes per partition used so far.
class SbufPlacer {
 public:
  uint32_t take(uint32_t bytes) {
    const uint32_t at = at_;
    at_ = (at_ + bytes + 63) / 64 * 64;
    return at;
  }
  uint32_t span() const { return at_; }

 private:
  uint32_t at_ = 0;
};

// A Tensor Engine program on PE: a stationary tile (ldstat), one to three matmuls against it
// into PSUM (random bank and offset; overwrite, accumulate, or acc_reg: r1 = random, zero half
// the time, or r2 = 0), sometimes a pe_transpose; then another round now and then. `span`
// receives the SBUF bytes per partition the tiles use, `psum_rows` the byte offsets of the PSUM
// words the program writes.
inline isa::Program random_pe_program(const CoreConfig& cfg, std::mt19937_64& rng, uint32_t* span,
                                      std::set<uint32_t>* psum_rows) {
  const uint32_t P = cfg.partitions, entries = cfg.psum_bank_bytes / 4;
  isa::Program p;
  auto& stream = p.streams[size_t(isa::Seq::kPe)];
  SbufPlacer sbuf;
  auto psum_out = [&](uint32_t m, uint32_t n) {
    isa::AccessPattern ap;
    ap.mem = isa::Mem::kPsum;
    ap.dtype = Dtype::kFp32;
    ap.partitions = m;
    const uint32_t bank = uint32_t(rng() % cfg.psum_banks), off = uint32_t(rng() % (entries - n + 1));
    ap.offset = 4 * (bank * entries + off);
    ap.dims[3] = {1, n};
    for (uint32_t j = 0; psum_rows && j < n; ++j) psum_rows->insert(ap.offset + 4 * j);
    return ap;
  };
  // Run-time accumulate: r1 holds a random value (zero half the time), r2 stays zero.
  isa::Instruction set_r1;
  set_r1.op = isa::Opcode::kAdd;
  set_r1.rd = 1;
  set_r1.use_imm = true;
  set_r1.imm = rng() % 2 ? uint32_t(rng()) | 1u : 0u;
  stream.push_back(set_r1);
  const int rounds = 1 + int(rng() % 2);
  for (int round = 0; round < rounds; ++round) {
    const uint32_t k = 1 + uint32_t(rng() % std::min(P, cfg.pe_rows));
    const uint32_t m = 1 + uint32_t(rng() % cfg.pe_cols);
    const Dtype st = kPeDtypes[rng() % 6];
    uint32_t used = 0;
    isa::Instruction ld;
    ld.op = isa::Opcode::kLdStat;
    ld.ap[1] = random_ap(isa::Mem::kSbuf, st, random_start(k, P, rng), k, m, rng, &used);
    ld.ap[1].offset = sbuf.take(used);
    stream.push_back(ld);
    const int matmuls = 1 + int(rng() % 3);
    for (int i = 0; i < matmuls; ++i) {
      Dtype mv = st;
      for (int tries = 0; tries < 16; ++tries) {
        mv = kPeDtypes[rng() % 6];
        if (is_pe_pair(st, mv)) break;
      }
      if (!is_pe_pair(st, mv)) mv = st;
      const uint32_t n = 1 + uint32_t(rng() % 24);
      isa::Instruction mm;
      mm.op = isa::Opcode::kMatmul;
      mm.accumulate = rng() % 2;
      mm.acc_reg = uint32_t(rng() % 3);  // none, r1 or r2
      mm.ap[0] = psum_out(m, n);
      mm.ap[1] = random_ap(isa::Mem::kSbuf, mv, random_start(k, P, rng), k, n, rng, &used);
      mm.ap[1].offset = sbuf.take(used);
      stream.push_back(mm);
    }
    if (rng() % 3 == 0) {
      isa::Instruction tr;
      tr.op = isa::Opcode::kPeTranspose;
      tr.ap[0] = psum_out(m, k);
      stream.push_back(tr);
    }
  }
  isa::Instruction halt;
  halt.op = isa::Opcode::kHalt;
  stream.push_back(halt);
  *span = std::min(sbuf.span() + 64, cfg.sbuf_partition_bytes);
  return p;
}
inline isa::Program random_pe_program(const CoreConfig& cfg, std::mt19937_64& rng, uint32_t* span) {
  return random_pe_program(cfg, rng, span, nullptr);
}

// Scalar Engine instructions on ACT: random function, dtypes, rounding, immediate or
// per-partition scale and bias, reduce commands (load_reduce with its acc_load), sometimes
// acc_out; input from SBUF or PSUM, sometimes where the last instruction wrote.
inline isa::Program random_act_program(const CoreConfig& cfg, std::mt19937_64& rng, uint32_t* span) {
  const uint32_t P = cfg.partitions;
  isa::Program p;
  auto& stream = p.streams[size_t(isa::Seq::kAct)];
  SbufPlacer sbuf;
  const int count = 1 + int(rng() % 4);
  for (int i = 0; i < count; ++i) {
    const uint32_t lanes = 1 + uint32_t(rng() % P), n = 1 + uint32_t(rng() % 40);
    isa::Instruction in;
    in.op = isa::Opcode::kActivate;
    in.func = uint32_t(rng() % act::kNumActFuncs);
    in.stochastic = rng() % 2;
    in.reduce_op = uint32_t(rng() % 2);
    in.reduce_cmd = uint32_t(rng() % 5);
    const uint32_t start = random_start(lanes, P, rng);
    uint32_t used = 0;
    in.ap[0] = random_ap(isa::Mem::kSbuf, kActDtypes[rng() % 6], start, lanes, n, rng, &used);
    in.ap[0].offset = sbuf.take(used);
    const bool from_psum = rng() % 4 == 0;
    // Now and then the input starts where the last instruction's output does: the read waits
    // for those writes (a read-after-write hazard, tern_act_adapter).
    const bool chained = i > 0 && !from_psum && rng() % 3 == 0;
    in.ap[1] = random_ap(from_psum ? isa::Mem::kPsum : isa::Mem::kSbuf, kActDtypes[rng() % 6],
                         random_start(lanes, P, rng), lanes, n, rng, &used);
    const uint32_t eb = core::dtype_bytes(in.ap[1].dtype);
    in.ap[1].offset = from_psum ? eb * uint32_t(rng() % 8) : sbuf.take(used);
    if (chained) in.ap[1].offset = stream.back().ap[0].offset;
    auto one_per_lane = [&]() {
      isa::AccessPattern ap;
      ap.mem = isa::Mem::kSbuf;
      ap.dtype = kActDtypes[rng() % 6];
      ap.start_partition = random_start(lanes, P, rng);
      ap.partitions = lanes;
      ap.offset = sbuf.take(4);
      ap.dims[3] = {1, 1};
      return ap;
    };
    if (in.reduce_cmd == uint32_t(act::ReduceCmd::kLoadReduce)) in.ap[2] = one_per_lane();
    if (rng() % 2) in.ap[3] = one_per_lane();
    for (int s = 0; s < 2; ++s) {
      isa::ScalarOperand& sc = in.scalar[size_t(s)];
      if (rng() % 3 == 0) {
        sc.per_partition = true;
        sc.dtype = rng() % 2 ? Dtype::kFp32 : Dtype::kBf16;
        sc.start_partition = random_start(lanes, P, rng);
        sc.imm = sbuf.take(4);
      } else {
        sc.imm = s == 0 ? (rng() % 2 ? 0x3F800000u : random_act_fp32(rng))
                        : (rng() % 2 ? 0u : random_act_fp32(rng));
      }
    }
    stream.push_back(in);
  }
  isa::Instruction halt;
  halt.op = isa::Opcode::kHalt;
  stream.push_back(halt);
  *span = std::min(sbuf.span() + 64, cfg.sbuf_partition_bytes);
  return p;
}

// Runs `p` on the RTL and the golden model from the same random SBUF/PSUM contents in
// [0, span) of every partition, and in the PSUM words at the byte offsets `psum_rows` (where a
// generator's matmuls write, anywhere in PSUM: an accumulate differs from an overwrite only on
// a nonzero word). Returns what differs (empty: nothing): the faulting sequencer, its pc and
// code, and, when the golden run completes, every SBUF and PSUM word there.
template <typename Harness>
std::vector<std::string> compare_with_golden(const CoreConfig& cfg, Harness& rtl,
                                             const isa::Program& p, uint32_t span,
                                             std::mt19937_64& rng, uint64_t* cycles = nullptr,
                                             const std::set<uint32_t>& psum_rows = {}) {
  std::vector<std::string> errors;
  core::CoreOptions gopt;
  gopt.hbm_bytes = kCoreHbmBytes;
  core::CoreModel golden(cfg, gopt);
  const uint32_t psum_span = std::min(span, cfg.psum_banks * cfg.psum_bank_bytes);
  // Row by row: the word at one offset of every partition.
  auto each_row = [&](auto&& fn) {
    for (isa::Mem m : {isa::Mem::kSbuf, isa::Mem::kPsum})
      for (uint32_t a = 0; a < (m == isa::Mem::kSbuf ? span : psum_span); a += 4) fn(m, a);
    for (uint32_t a : psum_rows)
      if (a >= psum_span) fn(isa::Mem::kPsum, a);
  };
  auto mem_of = [&](isa::Mem m) -> core::OnChipMemory& {
    return m == isa::Mem::kSbuf ? golden.sbuf() : golden.psum();
  };
  each_row([&](isa::Mem m, uint32_t a) {
    std::vector<uint32_t> words(cfg.partitions);
    for (uint32_t part = 0; part < cfg.partitions; ++part) {
      words[part] = uint32_t(rng());
      mem_of(m).store(part, a, 4, words[part]);
    }
    write_onchip_row(rtl, m, a, words);
  });
  GoldenFault fault;
  try {
    golden.run(p);
  } catch (const core::CoreFault& f) {
    fault = GoldenFault(f);
  }
  const SeqRunResult r = rtl.run(p, kCoreProgramBase);
  if (cycles) *cycles = r.cycles;
  if (r.timed_out) errors.push_back("the RTL did not finish");
  for (std::string& e : seq_fault_mismatches(fault, r.err_code, r.err_pc)) errors.push_back(std::move(e));
  if (fault.kind) return errors;  // the golden model stops everything; the RTL one engine
  each_row([&](isa::Mem m, uint32_t a) {
    const std::vector<uint32_t> got = read_onchip_row(rtl, m, a, cfg.partitions);
    for (uint32_t part = 0; part < cfg.partitions && errors.size() <= 8; ++part) {
      const uint32_t want = mem_of(m).load(part, a, 4);
      if (got[part] != want)
        errors.push_back(fmt::format("{} partition {} byte {}: RTL {:08x}, golden {:08x}",
                                     isa::mem_name(m), part, a, got[part], want));
    }
  });
  return errors;
}

}  // namespace tern::tb
