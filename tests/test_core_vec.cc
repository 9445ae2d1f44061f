// Vector Engine instructions through the core RTL (rtl/core/tern_core_vec.sv: sequencers, SBUF,
// PSUM and the DVE/POOL datapaths) against the golden core model: random instructions with
// random access patterns over random SBUF/PSUM contents must leave both memories identical, and
// bad operands must stop the sequencer at the same pc with the golden code.
#include <gtest/gtest.h>

#include <algorithm>

#include "common/config.h"
#include "core/core_model.h"
#include "core_vec.h"
#include "dve/vector_engine.h"
#include "dve_check.h"
#include "isa/asm.h"
#include "test_util.h"

namespace tern {
namespace {

constexpr uint64_t kHbmBytes = 1 << 20;
constexpr uint32_t kProgramBase = 0x10000;

template <typename Harness>
struct ConfigOf;
template <>
struct ConfigOf<tb::RtlCoreVecTiny> {
  static constexpr const char* kName = "tiny";
};
template <>
struct ConfigOf<tb::RtlCoreVecSmall> {
  static constexpr const char* kName = "small";
};

// A legal start partition for `count` partitions (the quadrant rule of docs/isa.md).
uint32_t random_start(uint32_t count, uint32_t P, std::mt19937_64& rng) {
  std::vector<uint32_t> ok;
  for (uint32_t s = 0; s + count <= P; ++s)
    if (core::start_partition_allowed(s, count, P)) ok.push_back(s);
  return ok[rng() % ok.size()];
}

// A pattern of `elements` elements of `dt` at byte `offset`: contiguous, or rows with a gap.
isa::AccessPattern random_ap(isa::Mem mem, Dtype dt, uint32_t start, uint32_t count,
                             uint32_t offset, uint32_t elements, std::mt19937_64& rng,
                             uint32_t* bytes_used) {
  isa::AccessPattern ap;
  ap.mem = mem;
  ap.dtype = dt;
  ap.start_partition = start;
  ap.partitions = count;
  ap.offset = offset;
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

template <typename Harness>
class CoreVecTest : public ::testing::Test {
 protected:
  CoreConfig cfg = load_config(std::string(TERN_CONFIG_DIR) + "/" + ConfigOf<Harness>::kName + ".yaml");

  // Runs `p` on both with the same random SBUF/PSUM contents in [0, span) of each partition;
  // compares both memories there, and the faults.
  void compare(const isa::Program& p, uint32_t span, std::mt19937_64& rng, const std::string& what) {
    core::CoreOptions gopt;
    gopt.hbm_bytes = kHbmBytes;
    core::CoreModel golden(cfg, gopt);
    Harness rtl(kHbmBytes);
    const uint32_t psum_span = std::min(span, cfg.psum_banks * cfg.psum_bank_bytes);
    for (isa::Mem m : {isa::Mem::kSbuf, isa::Mem::kPsum}) {
      core::OnChipMemory& gm = m == isa::Mem::kSbuf ? golden.sbuf() : golden.psum();
      for (uint32_t part = 0; part < cfg.partitions; ++part)
        for (uint32_t a = 0; a < (m == isa::Mem::kSbuf ? span : psum_span); a += 4) {
          const uint32_t w = uint32_t(rng());
          gm.store(part, a, 4, w);
          tb::write_onchip(rtl, m, part, a, w);
        }
    }
    int fault_seq = -1;
    uint32_t fault_pc = 0, fault_kind = 0;
    try {
      golden.run(p);
    } catch (const core::CoreFault& f) {
      fault_seq = int(*isa::seq_from_name(f.agent()));
      fault_pc = f.pc();
      fault_kind = uint32_t(f.kind());
    }
    const tb::SeqRunResult r = rtl.run(p, kProgramBase);
    ASSERT_FALSE(r.timed_out) << what;
    for (int s = 0; s < isa::kNumSeqs; ++s) {
      if (s == fault_seq) {
        EXPECT_EQ(r.err_code[size_t(s)], fault_kind) << what;
        EXPECT_EQ(r.err_pc[size_t(s)], fault_pc) << what;
      } else {
        EXPECT_EQ(r.err_code[size_t(s)], 0u) << what << ": " << isa::seq_name(isa::Seq(s))
                                              << " pc " << r.err_pc[size_t(s)];
      }
    }
    if (fault_seq >= 0) return;  // the golden model stops everything; the RTL only one engine
    for (isa::Mem m : {isa::Mem::kSbuf, isa::Mem::kPsum}) {
      core::OnChipMemory& gm = m == isa::Mem::kSbuf ? golden.sbuf() : golden.psum();
      for (uint32_t part = 0; part < cfg.partitions; ++part)
        for (uint32_t a = 0; a < (m == isa::Mem::kSbuf ? span : psum_span); a += 4) {
          const uint32_t want = gm.load(part, a, 4), got = tb::read_onchip(rtl, m, part, a);
          ASSERT_EQ(got, want) << what << ": " << isa::mem_name(m) << " partition " << part
                               << " byte " << a;
        }
    }
  }
};

using Harnesses = ::testing::Types<tb::RtlCoreVecTiny, tb::RtlCoreVecSmall>;
TYPED_TEST_SUITE(CoreVecTest, Harnesses);

// Random Vector Engine instructions, on DVE or POOL, each with its own random operands.
TYPED_TEST(CoreVecTest, RandomInstructionsMatchGolden) {
  auto rng = test::make_rng();
  const uint32_t P = this->cfg.partitions;
  VectorEngine shapes(this->cfg);
  const int programs = 30;
  for (int prog = 0; prog < programs; ++prog) {
    const isa::Seq seq = rng() % 2 ? isa::Seq::kDve : isa::Seq::kPool;
    isa::Program p;
    auto& stream = p.streams[size_t(seq)];
    uint32_t span = 0;
    const int count = 1 + int(rng() % 4);
    for (int k = 0; k < count; ++k) {
      tb::RandomOptions ro;
      ro.illegal = false;
      ro.max_n = 40;
      DveCommand c = tb::random_command(P, rng, ro);
      c.n = std::min<uint32_t>(c.n, 160);
      if (c.op == DveOp::kTranspose) c.n = shapes.block() * (1 + uint32_t(rng() % 2));
      const uint32_t lanes = 1 + uint32_t(rng() % P);
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
      // Disjoint byte regions per operand, 64-byte aligned; PSUM now and then for inputs.
      uint32_t at = 0;
      auto place = [&](Dtype dt, uint32_t elements, bool may_psum) {
        const uint32_t eb = core::dtype_bytes(dt);
        const isa::Mem mem = may_psum && rng() % 4 == 0 ? isa::Mem::kPsum : isa::Mem::kSbuf;
        uint32_t used = 0;
        const uint32_t start = c.op == DveOp::kTranspose ? 0 : random_start(lanes, P, rng);
        isa::AccessPattern ap = random_ap(mem, dt, start, lanes, 0, elements, rng, &used);
        const uint32_t base = mem == isa::Mem::kPsum ? 0 : at;
        ap.offset = (base + eb - 1) / eb * eb;
        if (mem == isa::Mem::kSbuf) at = (ap.offset + used + 63) / 64 * 64;
        span = std::max(span, mem == isa::Mem::kSbuf ? at : 0u);
        return ap;
      };
      const uint32_t l = c.op == DveOp::kTranspose ? P : lanes;
      (void)l;
      in.ap[0] = place(c.out, shapes.out_beats(c) - (tsr ? 1 : 0), false);
      if (shapes.in0_beats(c)) in.ap[1] = place(c.in0, shapes.in0_beats(c), true);
      if (shapes.in1_beats(c)) in.ap[2] = place(c.in1, shapes.in1_beats(c), true);
      if (tsr) in.ap[2] = place(Dtype::kFp32, 1, false);
      if (c.op == DveOp::kTranspose)
        for (int s = 0; s < 3; ++s)
          if (in.ap[size_t(s)].present()) in.ap[size_t(s)].partitions = P;
      for (int s = 0; s < 2; ++s) {
        const bool pp = s == 0 ? c.scalar0_per_partition : c.scalar1_per_partition;
        isa::ScalarOperand& sc = in.scalar[size_t(s)];
        sc.imm = s == 0 ? c.imm0 : c.imm1;
        if (!pp) continue;
        sc.per_partition = true;
        sc.dtype = rng() % 2 ? Dtype::kFp32 : Dtype::kInt32;
        sc.start_partition = random_start(in.ap[0].partitions, P, rng);
        sc.imm = at;
        at += 64;
        span = std::max(span, at);
      }
      stream.push_back(in);
    }
    isa::Instruction halt;
    halt.op = isa::Opcode::kHalt;
    stream.push_back(halt);
    span = std::min(span + 64, this->cfg.sbuf_partition_bytes);
    SCOPED_TRACE(isa::disassemble(p));
    this->compare(p, span, rng, fmt::format("program {}", prog));
    if (this->HasFatalFailure()) return;
  }
}

// Bad operands stop the sequencer at the instruction with the golden model's code.
TYPED_TEST(CoreVecTest, BadOperandsFaultLikeGolden) {
  auto rng = test::make_rng();
  const uint32_t P = this->cfg.partitions;
  const std::string bad[] = {
      // partitions past P
      fmt::format(".seq dve\n  nop\n  memset sbuf.fp32[0:{}, 0][[1,4]], -, -\n  halt\n", P + 1),
      // misaligned start partition
      fmt::format(".seq dve\n  memset sbuf.fp32[1:{}, 0][[1,4]], -, -\n  halt\n", P),
      // misaligned byte offset
      ".seq pool\n  nop\n  nop\n  tensor_copy sbuf.fp32[0:1, 2][[1,4]], sbuf.fp32[0:1, 64][[1,4]], -\n  halt\n",
      // element past the partition
      ".seq dve\n  memset sbuf.fp32[0:1, 16380][[1,4]], -, -\n  halt\n",
      // a dim of size 0
      ".seq dve\n  memset sbuf.fp32[0:1, 0][[1,0]], -, -\n  halt\n",
      // shapes that disagree
      ".seq dve\n  tensor_copy sbuf.fp32[0:1, 0][[1,4]], sbuf.fp32[0:1, 64][[1,5]], -\n  halt\n",
      // partition counts that disagree
      ".seq dve\n  tensor_copy sbuf.fp32[0:1, 0][[1,4]], sbuf.fp32[0:2, 64][[1,4]], -\n  halt\n",
      // the engine rejects the command: bitwise op on floats
      ".seq pool\n  tensor_tensor sbuf.fp32[0:1, 0][[1,4]], sbuf.fp32[0:1, 64][[1,4]], "
      "sbuf.fp32[0:1, 128][[1,4]], alu0=bitwise_and\n  halt\n",
      // a per-partition scalar outside SBUF
      ".seq dve\n  tensor_scalar sbuf.fp32[0:1, 0][[1,4]], sbuf.fp32[0:1, 64][[1,4]], -, "
      "alu0=add, s0=sbuf.fp32[0:, 16384]\n  halt\n",
  };
  for (const std::string& text : bad) {
    SCOPED_TRACE(text);
    this->compare(isa::assemble(text, "bad"), 256, rng, text);
  }
}

}  // namespace
}  // namespace tern
