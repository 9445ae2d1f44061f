// Directed tests of the golden NeuronCore model (model/core/): programs written as assembly
// text on the tiny config, expected results worked out by hand or by plain loops written from
// the ISA rules (docs/isa.md), never copied from the model. Covers the scalar sequencers
// (ALU, branches, loop, ld/st, notify, halt), semaphores, DMA patterns and casts, one of each
// engine, the race and deadlock detectors, the instruction budget and every fault rule; and
// the operand rules of model/core/memory.h directly.
#include <sys/resource.h>

#include <chrono>
#include <memory>
#include <optional>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "common/config.h"
#include "core/core_model.h"
#include "core/memory.h"
#include "isa/asm.h"
#include "numerics/numerics.h"
#include "test_util.h"

namespace tern::core {
namespace {

using isa::Seq;
using test::fp32_bits;
using test::fp32_value;

const CoreConfig& tiny() {  // P = 8, 16 KiB SBUF partitions, 8 PSUM banks of 2 KiB, 8 queues
  static const CoreConfig cfg = load_config(std::string(TERN_CONFIG_DIR) + "/tiny.yaml");
  return cfg;
}

constexpr uint64_t kHbmBytes = 64 << 10;  // small, so "outside HBM" is a short address

// bf16 bits of a float whose low 16 bits are zero (small integers): exact truncation.
uint32_t bf16(float f) { return fp32_bits(f) >> 16; }

class CoreTest : public ::testing::Test {
 protected:
  CoreTest() { reset(); }
  void reset() {
    opt = CoreOptions{};
    opt.hbm_bytes = kHbmBytes;
  }

  void set_reg(Seq s, uint32_t r, uint32_t v) { opt.regs[size_t(s)][r] = v; }

  static isa::Program assemble(const std::string& text) {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    return isa::assemble(text, std::string(info->name()) + ".s");
  }

  // A fresh model with the current options, for loading memory before run().
  CoreModel& make() {
    model = std::make_unique<CoreModel>(tiny(), opt);
    return *model;
  }

  RunStats run(const std::string& text) { return model->run(assemble(text)); }

  // The run faults with `kind` and a message holding every word of `words`.
  ::testing::AssertionResult faults(const isa::Program& p, FaultKind kind,
                                    const std::vector<std::string>& words) {
    CoreModel m(tiny(), opt);
    try {
      m.run(p);
    } catch (const CoreFault& f) {
      const std::string msg = f.what();
      if (f.kind() != kind)
        return ::testing::AssertionFailure() << "a " << fault_name(f.kind()) << " fault, not "
                                             << fault_name(kind) << ": " << msg;
      for (const std::string& w : words)
        if (msg.find(w) == std::string::npos)
          return ::testing::AssertionFailure() << "the message lacks '" << w << "': " << msg;
      return ::testing::AssertionSuccess() << msg;
    }
    return ::testing::AssertionFailure() << "the program ran without a fault";
  }
  ::testing::AssertionResult faults(const std::string& text, FaultKind kind,
                                    const std::vector<std::string>& words) {
    return faults(assemble(text), kind, words);
  }

  CoreOptions opt;
  std::unique_ptr<CoreModel> model;
};

// ---------------------------------------------------------------------------------------------
// Scalar sequencers.

struct AluCase {
  const char* op;
  uint32_t a, b, want;
};

// rd = rs1 op (rs2 | imm), 32-bit wrapping; shifts by b & 31; slt, min, max signed.
const AluCase kAluCases[] = {
    {"add", 5, 7, 12},
    {"add", 0xFFFFFFFF, 2, 1},                    // wraps
    {"add", 0x7FFFFFFF, 1, 0x80000000},
    {"sub", 3, 5, 0xFFFFFFFE},                    // wraps below zero
    {"sub", 0x80000000, 1, 0x7FFFFFFF},
    {"mul", 0xFFFFFFFD, 7, 0xFFFFFFEB},           // -3 * 7 = -21
    {"mul", 0x10000, 0x10001, 0x10000},           // low 32 bits of 0x1_0001_0000
    {"and", 0xF0F0, 0xFF00, 0xF000},
    {"or", 0xF0F0, 0x0F00, 0xFFF0},
    {"xor", 0xFF00, 0x0FF0, 0xF0F0},
    {"shl", 1, 33, 2},                            // 33 & 31 = 1
    {"shl", 0x80000001, 1, 2},
    {"shl", 3, 32, 3},                            // 32 & 31 = 0
    {"shr", 0x80000000, 33, 0x40000000},          // logical
    {"shr", 0x80000000, 31, 1},
    {"sra", 0x80000000, 33, 0xC0000000},          // arithmetic
    {"sra", 0x80000000, 31, 0xFFFFFFFF},
    {"sra", 0x40000000, 30, 1},
    {"slt", 0xFFFFFFFF, 1, 1},                    // -1 < 1
    {"slt", 1, 0xFFFFFFFF, 0},
    {"slt", 4, 4, 0},
    {"sltu", 0xFFFFFFFF, 1, 0},
    {"sltu", 1, 0xFFFFFFFF, 1},
    {"min", 0xFFFFFFFB, 3, 0xFFFFFFFB},           // min(-5, 3)
    {"min", 0x7FFFFFFF, 0x80000000, 0x80000000},
    {"max", 0xFFFFFFFB, 3, 3},
    {"max", 0x7FFFFFFF, 0x80000000, 0x7FFFFFFF},
};

TEST_F(CoreTest, AluOpsWithRegisterAndImmediate) {
  int i = 0;
  for (const AluCase& c : kAluCases) {
    const Seq seq = Seq(i++ % isa::kNumSeqs);  // every sequencer runs some of them
    SCOPED_TRACE(fmt::format("{} 0x{:x}, 0x{:x} on {}", c.op, c.a, c.b, isa::seq_name(seq)));
    reset();
    set_reg(seq, 1, c.a);
    set_reg(seq, 2, c.b);
    make();
    run(fmt::format(".seq {}\n  {} r3, r1, r2\n  {} r4, r1, {}\n  halt\n", isa::seq_name(seq),
                    c.op, c.op, c.b));
    EXPECT_EQ(model->reg(seq, 3), c.want) << "register form";
    EXPECT_EQ(model->reg(seq, 4), c.want) << "immediate form";
  }
}

TEST_F(CoreTest, RegisterZeroReadsZero) {
  set_reg(Seq::kSp, 0, 99);  // a preset of r0 is ignored
  set_reg(Seq::kSp, 5, 7);
  make();
  run(R"(.seq sp
  add r1, r0, 0
  add r0, r5, 5     # the write is dropped
  add r2, r0, 0
  halt
)");
  EXPECT_EQ(model->reg(Seq::kSp, 0), 0u);
  EXPECT_EQ(model->reg(Seq::kSp, 1), 0u);
  EXPECT_EQ(model->reg(Seq::kSp, 2), 0u);
  EXPECT_EQ(model->reg(Seq::kSp, 5), 7u);
}

struct BranchCase {
  const char* op;
  uint32_t a, b;
  bool taken;
};

const BranchCase kBranchCases[] = {
    {"beq", 3, 3, true},           {"beq", 3, 4, false},
    {"bne", 3, 4, true},           {"bne", 3, 3, false},
    {"blt", 0xFFFFFFFF, 0, true},  {"blt", 0, 0xFFFFFFFF, false},  // signed: -1 < 0
    {"blt", 2, 2, false},
    {"bge", 0, 0xFFFFFFFF, true},  {"bge", 0xFFFFFFFF, 0, false},
    {"bge", 2, 2, true},
    {"bltu", 0, 0xFFFFFFFF, true}, {"bltu", 0xFFFFFFFF, 0, false},  // unsigned
    {"bgeu", 0xFFFFFFFF, 0, true}, {"bgeu", 0, 0xFFFFFFFF, false},
    {"bgeu", 2, 2, true},
};

TEST_F(CoreTest, BranchesTakenAndNotTaken) {
  for (const BranchCase& c : kBranchCases) {
    for (const bool imm : {false, true}) {
      SCOPED_TRACE(fmt::format("{} 0x{:x}, 0x{:x}{}", c.op, c.a, c.b, imm ? " (imm)" : ""));
      reset();
      set_reg(Seq::kPool, 1, c.a);
      set_reg(Seq::kPool, 2, c.b);
      make();
      const std::string b = imm ? std::to_string(c.b) : "r2";
      // r5 counts the fall-through path, r6 the join; r7 proves the target is the label.
      run(fmt::format(R"(.seq pool
  {} r1, {}, skip
  add r5, r5, 1
  add r7, r7, 1
skip:
  add r6, r6, 1
  halt
)",
                      c.op, b));
      EXPECT_EQ(model->reg(Seq::kPool, 5), c.taken ? 0u : 1u);
      EXPECT_EQ(model->reg(Seq::kPool, 7), c.taken ? 0u : 1u);
      EXPECT_EQ(model->reg(Seq::kPool, 6), 1u);
    }
  }
}

TEST_F(CoreTest, CountedLoopSumsOneToTen) {
  uint32_t want = 0;
  for (uint32_t i = 1; i <= 10; ++i) want += i;
  CoreModel& m = make();
  const RunStats st = run(R"(.seq act
  add r1, r0, 10     # counter
  add r2, r0, 0      # sum
body:
  add r2, r2, r1
  loop r1, body
  st r2, [r0+64]
  halt
)");
  EXPECT_EQ(m.hbm().read_u32(64), want);
  EXPECT_EQ(m.reg(Seq::kAct, 1), 0u);
  EXPECT_EQ(st.seq[size_t(Seq::kAct)].instructions, 2u + 2 * 10 + 2);
}

TEST_F(CoreTest, LoadStoreRoundTripLittleEndian) {
  set_reg(Seq::kDve, 2, 120);
  CoreModel& m = make();
  m.hbm().write_u32(128, 0xDEADBEEF);
  run(R"(.seq dve
  ld r1, [r2+8]
  add r1, r1, 1
  st r1, [r2+16]
  ld r3, [r0+65532]   # the last word of HBM
  halt
)");
  EXPECT_EQ(m.reg(Seq::kDve, 1), 0xDEADBEF0u);
  uint8_t b[4];
  m.hbm().read(136, b, 4);
  EXPECT_EQ(b[0], 0xF0);
  EXPECT_EQ(b[1], 0xBE);
  EXPECT_EQ(b[2], 0xAD);
  EXPECT_EQ(b[3], 0xDE);
  EXPECT_EQ(m.reg(Seq::kDve, 3), 0u);
}

TEST_F(CoreTest, NotifyCodesInOrder) {
  make();
  const RunStats st = run(R"(.seq sp
  notify 7
  notify 3
  notify 0
  notify 4294967295
  halt
)");
  EXPECT_EQ(st.notifications, (std::vector<uint32_t>{7, 3, 0, 0xFFFFFFFF}));
}

TEST_F(CoreTest, HaltedSequencerLetsOthersRun) {
  CoreModel& m = make();
  const RunStats st = run(R"(.seq pe
  halt
  add r1, r0, 1     # never reached
.seq pool
  add r1, r0, 20
  add r2, r0, 0
again:
  add r2, r2, 3
  loop r1, again
  st r2, [r0+0]
  halt
)");
  EXPECT_EQ(m.hbm().read_u32(0), 60u);
  EXPECT_EQ(m.reg(Seq::kPe, 1), 0u);
  EXPECT_EQ(st.seq[size_t(Seq::kPe)].instructions, 1u);
  EXPECT_EQ(st.seq[size_t(Seq::kPool)].instructions, 2u + 2 * 20 + 2);
  // Empty streams are halted from the start.
  EXPECT_EQ(st.seq[size_t(Seq::kAct)].instructions, 0u);
  EXPECT_EQ(st.seq[size_t(Seq::kSp)].instructions, 0u);
}

// ---------------------------------------------------------------------------------------------
// Semaphores.

TEST_F(CoreTest, ProducerConsumerAcrossSequencers) {
  CoreModel& m = make();
  // act (agent 1) is scheduled before dve at cycle 0, so it really waits.
  run(R"(.seq dve
  memset sbuf.fp32[0:8, 0][[1,4]], -, -, s0=2.5 $S[1]++@complete
  halt
.seq act
  activate sbuf.fp32[0:8, 64][[1,4]], sbuf.fp32[0:8, 0][[1,4]], func=copy, scale=1.0, bias=0.0 $S[1]>=1
  halt
)");
  for (uint32_t p = 0; p < 8; ++p)
    for (uint32_t j = 0; j < 4; ++j) EXPECT_EQ(m.sbuf().load(p, 64 + 4 * j, 4), fp32_bits(2.5f));
  EXPECT_EQ(m.semaphore(1), 1u);
}

TEST_F(CoreTest, SignedAndRegisterRelativeThresholds) {
  set_reg(Seq::kSp, 5, 0xFFFFFFFF);  // -1
  set_reg(Seq::kSp, 6, 2);
  make();
  // Nothing ever updates $S[3] before the first three waits: thresholds <= 0 pass at once.
  run(R"(.seq sp
  nop $S[3]>=-1
  nop $S[3]>=0
  nop $S[3]>=1+r5              # 1 + (-1) = 0
  nop $S[3]+=4@complete
  nop $S[3]>=2+r6              # 4 >= 4
  halt
)");
  EXPECT_EQ(model->semaphore(3), 4u);
  EXPECT_TRUE(faults(".seq sp\n  nop\n  nop $S[3]>=3+r6\n  halt\n", FaultKind::kDeadlock,
                     {"sp pc 1", "$S[3]>=5", "which is 0"}));
}

TEST_F(CoreTest, SetModeReplacesTheValue) {
  make();
  run(R"(.seq dve
  nop $S[4]+=5@complete
  nop $S[4]>=5 $S[4]=2@complete
  nop $S[4]>=2 $S[4]+=3@complete
  halt
)");
  EXPECT_EQ(model->semaphore(4), 5u);  // 5, set to 2, plus 3
  EXPECT_TRUE(faults(R"(.seq dve
  nop $S[4]+=5@complete
  nop $S[4]=2@complete
  nop $S[4]>=3
  halt
)",
                     FaultKind::kDeadlock, {"dve pc 2", "$S[4]>=3", "which is 2"}));
}

TEST_F(CoreTest, SemaphoresStartAtZeroEachRun) {
  CoreModel& m = make();
  const isa::Program p = assemble(".seq act\n  nop $S[9]++@complete\n  halt\n");
  m.run(p);
  m.run(p);
  EXPECT_EQ(m.semaphore(9), 1u);
  try {
    m.run(assemble(".seq act\n  nop $S[9]>=1\n  halt\n"));
    ADD_FAILURE() << "a wait on a semaphore left from the previous run passed";
  } catch (const CoreFault& f) {
    EXPECT_EQ(f.kind(), FaultKind::kDeadlock) << f.what();
  }
}

// ---------------------------------------------------------------------------------------------
// DMA.

// A distinctive raw word per (a, b): the copies are raw bits, so NaN payloads must survive.
uint32_t word(uint32_t a, uint32_t b) { return 0x7FC00000u | a << 8 | b; }

TEST_F(CoreTest, DmaRoundTripTwoDimensional) {
  CoreModel& m = make();
  // HBM in: 8 rows of 8 fp32 at 256, row stride 48. HBM out: row stride 40 at 4096.
  for (uint32_t r = 0; r < 8; ++r)
    for (uint32_t c = 0; c < 8; ++c) m.hbm().write_u32(256 + 48 * r + 4 * c, word(r, c));
  const RunStats st = run(R"(.seq sp
  dma q0, d0 $S[0]++@complete
  dma q5, d1 $S[0]>=1 $S[1]++@complete
  nop $S[1]>=1
  halt
.desc 0 src=hbm.fp32[256][[48,8],[4,8]] dst=sbuf.fp32[0, 16][[1,8],[0,1],[0,1],[4,8]]
.desc 1 src=sbuf.fp32[0, 16][[1,8],[0,1],[0,1],[4,8]] dst=hbm.fp32[4096][[40,8],[4,8]]
)");
  for (uint32_t r = 0; r < 8; ++r) {
    for (uint32_t c = 0; c < 8; ++c) {
      EXPECT_EQ(m.sbuf().load(r, 16 + 4 * c, 4), word(r, c)) << r << "," << c;
      EXPECT_EQ(m.hbm().read_u32(4096 + 40 * r + 4 * c), word(r, c)) << r << "," << c;
    }
    EXPECT_EQ(m.sbuf().load(r, 12, 4), 0u);
    EXPECT_EQ(m.sbuf().load(r, 48, 4), 0u);
    EXPECT_EQ(m.hbm().read_u32(4096 + 40 * r + 32), 0u);  // the gap between output rows
  }
  EXPECT_EQ(st.dma_transfers, 2u);
  EXPECT_EQ(st.dma_bytes_read, 2u * 64 * 4);
  EXPECT_EQ(st.dma_bytes_written, 2u * 64 * 4);
}

TEST_F(CoreTest, DmaTransposingPattern) {
  CoreModel& m = make();
  // A: 4 x 8 fp32, row-major at 2048. Partition c receives column c: sbuf[c][r] = A[r][c].
  for (uint32_t r = 0; r < 4; ++r)
    for (uint32_t c = 0; c < 8; ++c) m.hbm().write_u32(2048 + 32 * r + 4 * c, word(r, c));
  run(R"(.seq act
  dma q1, d0 $S[0]++@complete
  nop $S[0]>=1
  halt
.desc 0 src=hbm.fp32[2048][[4,8],[32,4]] dst=sbuf.fp32[0, 0][[1,8],[0,1],[0,1],[4,4]]
)");
  for (uint32_t c = 0; c < 8; ++c)
    for (uint32_t r = 0; r < 4; ++r) EXPECT_EQ(m.sbuf().load(c, 4 * r, 4), word(r, c));
}

TEST_F(CoreTest, DmaPartitionStepTwo) {
  CoreModel& m = make();
  for (uint32_t i = 0; i < 8; ++i) m.hbm().write_u32(3072 + 4 * i, word(1, i));
  run(R"(.seq pool
  dma q2, d0 $S[0]++@complete
  nop $S[0]>=1
  halt
.desc 0 src=hbm.fp32[3072][[4,8]] dst=sbuf.fp32[1, 32][[2,4],[0,1],[0,1],[4,2]]
)");
  // Element k = 2i + j lands in partition 1 + 2i at byte 32 + 4j.
  for (uint32_t i = 0; i < 4; ++i) {
    for (uint32_t j = 0; j < 2; ++j) {
      EXPECT_EQ(m.sbuf().load(1 + 2 * i, 32 + 4 * j, 4), word(1, 2 * i + j));
      EXPECT_EQ(m.sbuf().load(2 * i, 32 + 4 * j, 4), 0u) << "even partition " << 2 * i;
    }
  }
}

TEST_F(CoreTest, DmaCastsFp32ToBf16AndBack) {
  // fp32 in, the bf16 RNE result worked by hand: ties go to the even mantissa.
  const std::pair<uint32_t, uint32_t> cases[] = {
      {0x3F800000, 0x3F80},  // 1.0
      {0xC0000000, 0xC000},  // -2.0
      {0x3F808000, 0x3F80},  // tie, even: down
      {0x3F818000, 0x3F82},  // tie, odd: up
      {0x3F808001, 0x3F81},  // above the tie
      {0xBF807FFF, 0xBF80},  // below the tie
      {0x7F7FFFFF, 0x7F80},  // the largest fp32 rounds to +inf
      {0x00000001, 0x0000},  // the smallest subnormal rounds to zero
  };
  CoreModel& m = make();
  for (uint32_t i = 0; i < 8; ++i) m.hbm().write_u32(1024 + 4 * i, cases[i].first);
  run(R"(.seq sp
  dma q0, d0
  dma q0, d1 $S[2]++@complete    # the queue is in order: d1 reads what d0 wrote
  nop $S[2]>=1
  halt
.desc 0 src=hbm.fp32[1024][[4,8]] dst=sbuf.bf16[3, 6][[1,1],[0,1],[0,1],[2,8]]
.desc 1 src=sbuf.bf16[3, 6][[1,1],[0,1],[0,1],[2,8]] dst=hbm.fp32[1536][[4,8]]
)");
  for (uint32_t i = 0; i < 8; ++i) {
    SCOPED_TRACE(fmt::format("fp32 0x{:08x}", cases[i].first));
    const uint32_t got = m.sbuf().load(3, 6 + 2 * i, 2);
    EXPECT_EQ(got, cases[i].second);
    EXPECT_EQ(got, convert_from_fp32(Dtype::kBf16, cases[i].first, ConvertMode{}, 0));
    EXPECT_EQ(m.hbm().read_u32(1536 + 4 * i), cases[i].second << 16);  // widening is exact
  }
}

TEST_F(CoreTest, DmaRegistersAddToIndexAndAddresses) {
  set_reg(Seq::kDve, 1, 64);  // source + 64 bytes
  set_reg(Seq::kDve, 2, 8);   // destination + 8 bytes
  set_reg(Seq::kDve, 3, 1);   // descriptor 0 + 1
  CoreModel& m = make();
  for (uint32_t i = 0; i < 32; ++i) m.hbm().write_u32(1024 + 4 * i, word(2, i));
  run(R"(.seq dve
  dma q3, d0+r3, src+r1, dst+r2 $S[0]++@complete
  nop $S[0]>=1
  halt
.desc 0 src=hbm.fp32[0][[4,4]] dst=sbuf.fp32[0, 0][[1,1],[0,1],[0,1],[4,4]]
.desc 1 src=hbm.fp32[1024][[4,4]] dst=sbuf.fp32[2, 0][[1,1],[0,1],[0,1],[4,4]]
)");
  for (uint32_t j = 0; j < 4; ++j) EXPECT_EQ(m.sbuf().load(2, 8 + 4 * j, 4), word(2, 16 + j));
  EXPECT_EQ(m.sbuf().load(2, 0, 4), 0u);
  EXPECT_EQ(m.sbuf().load(2, 4, 4), 0u);
  EXPECT_EQ(m.sbuf().load(0, 8, 4), 0u);  // descriptor 0 did not run
}

TEST_F(CoreTest, DmaQueueIsInOrder) {
  CoreModel& m = make();
  for (uint32_t i = 0; i < 512; ++i) m.hbm().write_u32(8192 + 4 * i, word(3, i));
  m.hbm().write_u32(12288, 0x12345678);
  // d0 is long (512 elements), d1 one element inside it: d1 must land last.
  run(R"(.seq sp
  dma q2, d0 $S[0]++@complete
  dma q2, d1 $S[0]++@complete
  nop $S[0]>=2
  halt
.desc 0 src=hbm.fp32[8192][[4,512]] dst=sbuf.fp32[0, 0][[1,8],[0,1],[0,1],[4,64]]
.desc 1 src=hbm.fp32[12288][[4,1]] dst=sbuf.fp32[3, 20][[1,1],[0,1],[0,1],[4,1]]
)");
  for (uint32_t p = 0; p < 8; ++p)
    for (uint32_t j = 0; j < 64; ++j)
      EXPECT_EQ(m.sbuf().load(p, 4 * j, 4), p == 3 && j == 5 ? 0x12345678u : word(3, 64 * p + j));
}

// ---------------------------------------------------------------------------------------------
// Engines.

TEST_F(CoreTest, TensorTensorAddOnDveAndPool) {
  CoreModel& m = make();
  float a[8][4], b[8][4], c[8][4];
  for (uint32_t p = 0; p < 8; ++p) {
    for (uint32_t j = 0; j < 4; ++j) {
      a[p][j] = float(4 * p + j);
      b[p][j] = float(100) - float(3 * j) - float(p);
      c[p][j] = float(j) - float(2 * p);
      m.sbuf().store(p, 4 * j, 4, fp32_bits(a[p][j]));
      m.sbuf().store(p, 64 + 4 * j, 4, fp32_bits(b[p][j]));
      m.psum().store(p, 4 * j, 4, fp32_bits(c[p][j]));
    }
  }
  // Both read a concurrently (no race: reads only) and write disjoint tiles.
  run(R"(.seq dve
  tensor_tensor sbuf.fp32[0:8, 256][[1,4]], sbuf.fp32[0:8, 0][[1,4]], sbuf.fp32[0:8, 64][[1,4]], alu0=add
  halt
.seq pool
  tensor_tensor sbuf.fp32[4:8, 512][[1,4]], sbuf.fp32[4:8, 0][[1,4]], psum.fp32[4:8, 0][[1,4]], alu0=add
  halt
)");
  for (uint32_t p = 0; p < 8; ++p) {
    for (uint32_t j = 0; j < 4; ++j) {
      EXPECT_EQ(fp32_value(m.sbuf().load(p, 256 + 4 * j, 4)), a[p][j] + b[p][j]) << p << "," << j;
      if (p >= 4) EXPECT_EQ(fp32_value(m.sbuf().load(p, 512 + 4 * j, 4)), a[p][j] + c[p][j]);
      else EXPECT_EQ(m.sbuf().load(p, 512 + 4 * j, 4), 0u) << "pool wrote partition " << p;
    }
  }
}

TEST_F(CoreTest, ActivateCopyWithPerPartitionBias) {
  CoreModel& m = make();
  for (uint32_t p = 0; p < 8; ++p) {
    for (uint32_t j = 0; j < 4; ++j) m.sbuf().store(p, 4 * j, 4, fp32_bits(float(j) - float(p)));
    m.sbuf().store(p, 128, 4, fp32_bits(10.0f * float(p)));
  }
  run(R"(.seq act
  activate sbuf.fp32[0:8, 512][[1,4]], sbuf.fp32[0:8, 0][[1,4]], func=copy, scale=2.0, bias=sbuf.fp32[0:, 128]
  halt
)");
  for (uint32_t p = 0; p < 8; ++p)
    for (uint32_t j = 0; j < 4; ++j)
      EXPECT_EQ(fp32_value(m.sbuf().load(p, 512 + 4 * j, 4)),
                2.0f * (float(j) - float(p)) + 10.0f * float(p))
          << p << "," << j;
}

TEST_F(CoreTest, LdstatMatmulIntoPsum) {
  constexpr uint32_t K = 4, M = 3, N = 5;
  CoreModel& m = make();
  float s[K][M], x[K][N];
  for (uint32_t k = 0; k < K; ++k) {
    for (uint32_t j = 0; j < M; ++j) {
      s[k][j] = float(k) - float(j) + 1.0f;
      m.sbuf().store(k, 2 * j, 2, bf16(s[k][j]));
    }
    for (uint32_t n = 0; n < N; ++n) {
      x[k][n] = float(n) + 2.0f * float(k) - 3.0f;
      m.sbuf().store(k, 64 + 2 * n, 2, bf16(x[k][n]));
    }
  }
  // out[m][n] = sum_k stat[k][m] * moving[k][n], twice (the second accumulates).
  run(R"(.seq pe
  ldstat sbuf.bf16[0:4, 0][[1,3]]
  matmul psum.fp32[0:3, 2048][[1,5]], sbuf.bf16[0:4, 64][[1,5]]
  matmul psum.fp32[0:3, 2048][[1,5]], sbuf.bf16[0:4, 64][[1,5]], acc
  halt
)");
  for (uint32_t j = 0; j < M; ++j) {
    for (uint32_t n = 0; n < N; ++n) {
      float want = 0;
      for (uint32_t k = 0; k < K; ++k) want += s[k][j] * x[k][n];
      EXPECT_EQ(fp32_value(m.psum().load(j, 2048 + 4 * n, 4)), 2 * want) << j << "," << n;
    }
  }
  for (uint32_t p = M; p < 8; ++p) EXPECT_EQ(m.psum().load(p, 2048, 4), 0u);
}

// ---------------------------------------------------------------------------------------------
// The race detector.

constexpr const char kMemsetThenCopy[] = R"(.seq dve
  memset sbuf.fp32[0:8, 0][[1,4]], -, -, s0=1.0 {}
  halt
.seq act
  activate sbuf.fp32[0:8, 64][[1,4]], sbuf.fp32[0:8, 0][[1,4]], func=copy, scale=1.0, bias=0.0 {}
  halt
)";

TEST_F(CoreTest, EngineRaceWithoutSemaphore) {
  EXPECT_TRUE(faults(fmt::format(kMemsetThenCopy, "", ""), FaultKind::kRace,
                     {"dve pc 0 (memset", "act pc 0 (activate", "sbuf", "semaphore"}));
  // The same with the wait: ordered, no race.
  make();
  run(fmt::format(kMemsetThenCopy, "$S[1]++@complete", "$S[1]>=1"));
  EXPECT_EQ(model->sbuf().load(7, 64 + 12, 4), fp32_bits(1.0f));
}

TEST_F(CoreTest, RaceWhenTheSignalPrecedesTheWrite) {
  // Program order orders the memset after the nop's signal, so the wait does not cover it.
  EXPECT_TRUE(faults(R"(.seq dve
  nop $S[1]++@complete
  memset sbuf.fp32[0:8, 0][[1,4]], -, -, s0=1.0
  halt
.seq act
  activate sbuf.fp32[0:8, 64][[1,4]], sbuf.fp32[0:8, 0][[1,4]], func=copy, scale=1.0, bias=0.0 $S[1]>=1
  halt
)",
                     FaultKind::kRace, {"dve pc 1", "act pc 0", "race"}));
  // Program order before the signal is covered.
  make();
  run(R"(.seq dve
  memset sbuf.fp32[0:8, 0][[1,4]], -, -, s0=1.0
  nop $S[1]++@complete
  halt
.seq act
  activate sbuf.fp32[0:8, 64][[1,4]], sbuf.fp32[0:8, 0][[1,4]], func=copy, scale=1.0, bias=0.0 $S[1]>=1
  halt
)");
}

TEST_F(CoreTest, PsumRaceBetweenMatmulAndCopy) {
  const std::string text = R"(.seq pe
  ldstat sbuf.bf16[0:4, 0][[1,3]]
  matmul psum.fp32[0:3, 0][[1,5]], sbuf.bf16[0:4, 64][[1,5]] {}
  halt
.seq pool
  tensor_copy sbuf.fp32[0:3, 256][[1,5]], psum.fp32[0:3, 0][[1,5]], - {}
  halt
)";
  EXPECT_TRUE(faults(fmt::format(fmt::runtime(text), "", ""), FaultKind::kRace,
                     {"pe pc 1 (matmul", "pool pc 0 (tensor_copy", "psum"}));
  make();
  run(fmt::format(fmt::runtime(text), "$S[3]++@complete", "$S[3]>=1"));
}

TEST_F(CoreTest, NoRaceOnDisjointPartitionsOrBytes) {
  make();
  run(R"(.seq dve
  memset sbuf.fp32[0:4, 0][[1,4]], -, -, s0=1.0
  memset sbuf.fp32[0:8, 16][[1,4]], -, -, s0=1.0
  halt
.seq pool
  memset sbuf.fp32[4:8, 0][[1,4]], -, -, s0=2.0
  memset sbuf.fp32[0:8, 32][[1,4]], -, -, s0=2.0
  halt
)");
  EXPECT_EQ(model->sbuf().load(3, 0, 4), fp32_bits(1.0f));
  EXPECT_EQ(model->sbuf().load(4, 0, 4), fp32_bits(2.0f));
}

constexpr const char kDmaIntoOddPartitions[] = R"(.seq sp
  dma q0, d0
  halt
.seq dve
  memset sbuf.fp32[{}, 0][[1,2]], -, -, s0=1.0
  halt
.desc 0 src=hbm.fp32[0][[4,8]] dst=sbuf.fp32[1, 0][[2,4],[0,1],[0,1],[4,2]]
)";

TEST_F(CoreTest, DmaRaceFollowsThePartitionStep) {
  make();
  run(fmt::format(kDmaIntoOddPartitions, "2:3"));  // partition 2: the DMA writes 1, 3, 5, 7
  EXPECT_TRUE(faults(fmt::format(kDmaIntoOddPartitions, "2:4"), FaultKind::kRace,
                     {"dma.q0", "dve pc 0 (memset", "race"}));
}

constexpr const char kDmaThenCopy[] = R"(.seq sp
  dma q0, d0 {}
  halt
.seq dve
  tensor_copy sbuf.fp32[0:8, 256][[1,4]], sbuf.fp32[0:8, 0][[1,4]], - {}
  halt
.desc 0 src=hbm.fp32[0][[4,32]] dst=sbuf.fp32[0, 0][[1,8],[0,1],[0,1],[4,4]]
)";

TEST_F(CoreTest, DmaVersusEngineRace) {
  EXPECT_TRUE(faults(fmt::format(kDmaThenCopy, "", ""), FaultKind::kRace,
                     {"dma.q0 pc 0", "dve pc 0 (tensor_copy", "sbuf"}));
  // Waiting for the transfer's completion orders it; the copy sees the data.
  CoreModel& m = make();
  for (uint32_t i = 0; i < 32; ++i) m.hbm().write_u32(4 * i, word(4, i));
  run(fmt::format(kDmaThenCopy, "$S[7]++@complete", "$S[7]>=1"));
  for (uint32_t p = 0; p < 8; ++p)
    for (uint32_t j = 0; j < 4; ++j) EXPECT_EQ(m.sbuf().load(p, 256 + 4 * j, 4), word(4, 4 * p + j));
}

TEST_F(CoreTest, DmaIsAsynchronousToItsSequencer) {
  // The triggering sequencer's later instructions are not ordered after the transfer...
  EXPECT_TRUE(faults(R"(.seq dve
  dma q1, d0
  tensor_copy sbuf.fp32[0:8, 256][[1,4]], sbuf.fp32[0:8, 0][[1,4]], -
  halt
.desc 0 src=hbm.fp32[0][[4,32]] dst=sbuf.fp32[0, 0][[1,8],[0,1],[0,1],[4,4]]
)",
                     FaultKind::kRace, {"dma.q1 pc 0 (dma d0 from dve)", "dve pc 1 (tensor_copy"}));
  // ...but its earlier ones are ordered before it: the transfer reads what the memset wrote.
  CoreModel& m = make();
  run(R"(.seq dve
  memset sbuf.fp32[0:8, 0][[1,4]], -, -, s0=3.0
  dma q1, d0 $S[0]++@complete
  nop $S[0]>=1
  halt
.desc 0 src=sbuf.fp32[0, 0][[1,8],[0,1],[0,1],[4,4]] dst=hbm.fp32[0][[4,32]]
)");
  for (uint32_t i = 0; i < 32; ++i) EXPECT_EQ(m.hbm().read_u32(4 * i), fp32_bits(3.0f)) << i;
}

TEST_F(CoreTest, DmaQueuesRaceWithEachOther) {
  EXPECT_TRUE(faults(R"(.seq sp
  dma q2, d0
  dma q5, d0
  halt
.desc 0 src=hbm.fp32[0][[4,4]] dst=sbuf.fp32[0, 0][[1,1],[0,1],[0,1],[4,4]]
)",
                     FaultKind::kRace, {"dma.q2", "dma.q5", "writes"}));
}

// ---------------------------------------------------------------------------------------------
// Deadlock and budget.

TEST_F(CoreTest, DeadlockNamesEveryBlockedSequencer) {
  EXPECT_TRUE(faults(R"(.seq act
  nop
  nop $S[1]>=1 $S[2]++@complete
  halt
.seq dve
  nop $S[2]>=1 $S[1]++@complete
  halt
.seq pe
  halt
)",
                     FaultKind::kDeadlock,
                     {"deadlock", "act pc 1", "$S[1]>=1", "dve pc 0", "$S[2]>=1"}));
}

// The deadlock fault stops every sequencer that waits, each at its waiting instruction: the
// RTL's deadlock detector faults the same ones at the same pcs.
TEST_F(CoreTest, DeadlockFaultListsEveryWaitingSequencer) {
  CoreModel m(tiny(), opt);
  try {
    m.run(assemble(".seq act\n  nop\n  nop $S[1]>=1\n  halt\n.seq dve\n  nop $S[2]>=1\n  halt\n"
                   ".seq pe\n  halt\n"));
    FAIL() << "no deadlock";
  } catch (const CoreFault& f) {
    ASSERT_EQ(f.kind(), FaultKind::kDeadlock);
    ASSERT_EQ(f.sites().size(), 2u) << f.what();
    EXPECT_EQ(f.sites()[0].agent, "act");
    EXPECT_EQ(f.sites()[0].pc, 1u);
    EXPECT_EQ(f.sites()[1].agent, "dve");
    EXPECT_EQ(f.sites()[1].pc, 0u);
  }
}

TEST_F(CoreTest, RunawayLoopHitsTheBudget) {
  opt.instruction_budget = 1000;
  EXPECT_TRUE(faults(R"(.seq sp
  add r1, r0, 0
body:
  loop r1, body      # 0 - 1 wraps: about 2^32 iterations
  halt
)",
                     FaultKind::kBudget, {"sp pc 1", "budget is 1000"}));
}

// With the default budget (GLB.BUDGET's reset value) a spin loop stops by itself: in about
// 1.5 seconds and 0.6 GB here (docs/core-model.md). Held to 20 s and 1 GiB of peak memory (this
// test runs in a process of its own, as CTest runs every test).
TEST_F(CoreTest, DefaultBudgetStopsASpinLoop) {
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(faults(".seq pool\nspin:\n  beq r0, 0, spin\n  halt\n", FaultKind::kBudget,
                     {"pool pc 0", fmt::format("budget is {}", csr::glb::kBudgetReset)}));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  rusage use{};
  getrusage(RUSAGE_SELF, &use);
  const double peak_gib = double(use.ru_maxrss) / (1 << 20);  // ru_maxrss is in KiB
  fmt::print("spin loop stopped in {:.1f} s, peak memory {:.2f} GiB\n", seconds, peak_gib);
  EXPECT_LT(seconds, 20.0);
  EXPECT_LT(peak_gib, 1.0);
}

// The budget is per sequencer (GLB.BUDGET, as in the RTL): two sequencers of two instructions
// each fit a budget of 2; at 1, the second instruction of the first to run faults.
TEST_F(CoreTest, BudgetCountsEachSequencer) {
  const std::string text = ".seq act\n  nop\n  halt\n.seq pool\n  nop\n  halt\n";
  opt.instruction_budget = 2;
  make();
  run(text);
  opt.instruction_budget = 1;
  EXPECT_TRUE(faults(text, FaultKind::kBudget, {"act pc 1", "budget is 1"}));
}

// 0 turns the budget off.
TEST_F(CoreTest, BudgetZeroIsNoLimit) {
  opt.instruction_budget = 0;
  make();
  run(".seq sp\n  add r1, r0, 3000\nL:\n  loop r1, L\n  halt\n");
}

// ---------------------------------------------------------------------------------------------
// Operand faults: a DVE memset after a nop, so the fault is at dve pc 1.

std::string memset_at(const std::string& ap) {
  return fmt::format(".seq dve\n  nop\n  memset {}, -, -, s0=1.0\n  halt\n", ap);
}

TEST_F(CoreTest, OperandFaults) {
  set_reg(Seq::kDve, 5, 16384);
  set_reg(Seq::kDve, 6, 2);
  const std::pair<const char*, const char*> cases[] = {
      {"sbuf.fp32[4:12, 0][[1,4]]", "outside the core's 8 partitions"},
      {"sbuf.fp32[0:9, 0][[1,4]]", "outside the core's 8 partitions"},
      {"sbuf.fp32[1:2, 0][[1,4]]", "misaligned"},   // one partition: start a multiple of 2
      {"sbuf.fp32[2:5, 0][[1,4]]", "misaligned"},   // three: start 0 or 4
      {"sbuf.fp32[2:7, 0][[1,4]]", "misaligned"},   // five: start 0
      {"sbuf.fp32[0:8, 2][[1,4]]", "not a multiple"},
      {"sbuf.bf16[0:8, 1][[1,4]]", "not a multiple"},
      {"sbuf.fp32[0:8, 0+r6][[1,4]]", "not a multiple"},
      {"sbuf.fp32[0:8, 16380][[1,2]]", "outside the 16384-byte SBUF partition"},
      {"psum.fp32[0:8, 16376][[4,1],[1,3]]", "outside the 16384-byte PSUM partition"},
      {"sbuf.fp32[0:8, 0][[-1,2]]", "outside"},
      {"sbuf.fp32[0:8, 0][[1,0]]", "size 0"},
      {"sbuf.fp32[0:8, 0][[0,0],[1,4]]", "size 0"},
      {"sbuf.fp32[0:8, 0+r5][[1,1]]", "outside the 16384-byte SBUF partition"},
  };
  for (const auto& [ap, why] : cases) {
    SCOPED_TRACE(ap);
    EXPECT_TRUE(faults(memset_at(ap), FaultKind::kOperand, {"dve pc 1", why}));
  }
  // The legal neighbours of those cases run.
  for (const char* ap : {"sbuf.fp32[6:8, 0][[1,4]]", "sbuf.fp32[4:7, 0][[1,4]]",
                         "sbuf.fp32[0:8, 16380][[1,1]]", "sbuf.fp32[0:8, 16368+r0][[1,4]]",
                         "sbuf.fp32[0:8, 12][[-1,4]]"}) {
    SCOPED_TRACE(ap);
    make();
    run(memset_at(ap));
  }
}

TEST_F(CoreTest, MatmulFaults) {
  const std::string ld = ".seq pe\n  ldstat sbuf.bf16[0:4, 0][[1,3]]\n";
  // M > pe_cols: the stationary tile is 4 x 9.
  EXPECT_TRUE(faults(".seq pe\n  nop\n  ldstat sbuf.bf16[0:4, 0][[1,9]]\n  halt\n",
                     FaultKind::kEngine, {"pe pc 1", "Tensor Engine rejects"}));
  // The moving tile has a different K from the stationary one.
  EXPECT_TRUE(faults(ld + "  matmul psum.fp32[0:3, 0][[1,5]], sbuf.bf16[0:2, 64][[1,5]]\n  halt\n",
                     FaultKind::kOperand, {"pe pc 1", "K = 4"}));
  // N runs past the end of the bank: word 510 of 512, 4 wide.
  EXPECT_TRUE(faults(ld + "  matmul psum.fp32[0:3, 2040][[1,4]], sbuf.bf16[0:4, 64][[1,4]]\n  halt\n",
                     FaultKind::kEngine, {"pe pc 1", "Tensor Engine rejects"}));
  // The output must be fp32 in PSUM from partition 0.
  EXPECT_TRUE(faults(ld + "  matmul sbuf.fp32[0:3, 0][[1,5]], sbuf.bf16[0:4, 64][[1,5]]\n  halt\n",
                     FaultKind::kOperand, {"pe pc 1", "PSUM"}));
  EXPECT_TRUE(faults(ld + "  matmul psum.bf16[0:3, 0][[1,5]], sbuf.bf16[0:4, 64][[1,5]]\n  halt\n",
                     FaultKind::kOperand, {"pe pc 1", "fp32"}));
  // M output partitions must match the stationary M.
  EXPECT_TRUE(faults(ld + "  matmul psum.fp32[0:4, 0][[1,5]], sbuf.bf16[0:4, 64][[1,5]]\n  halt\n",
                     FaultKind::kOperand, {"pe pc 1", "M = 3"}));
  // No stationary tile loaded.
  EXPECT_TRUE(faults(".seq pe\n  matmul psum.fp32[0:3, 0][[1,5]], sbuf.bf16[0:4, 64][[1,5]]\n  halt\n",
                     FaultKind::kEngine, {"pe pc 0"}));
}

TEST_F(CoreTest, IllegalInstructions) {
  // An opcode with no definition, hand-built.
  isa::Program p;
  isa::Instruction bad;
  bad.op = isa::Opcode(0x07);
  p.streams[size_t(Seq::kPool)] = {isa::Instruction{}, bad};
  EXPECT_TRUE(faults(p, FaultKind::kIllegalInstruction, {"pool pc 1"}));
  // Engine instructions on the wrong sequencer.
  EXPECT_TRUE(faults(".seq act\n  nop\n  matmul psum.fp32[0:3, 0][[1,5]], sbuf.bf16[0:4, 64][[1,5]]\n  halt\n",
                     FaultKind::kIllegalInstruction, {"act pc 1", "matmul", "not an instruction"}));
  EXPECT_TRUE(faults(".seq pe\n  memset sbuf.fp32[0:8, 0][[1,4]], -, -, s0=1.0\n  halt\n",
                     FaultKind::kIllegalInstruction, {"pe pc 0", "memset"}));
  EXPECT_TRUE(faults(".seq dve\n  activate sbuf.fp32[0:8, 64][[1,4]], sbuf.fp32[0:8, 0][[1,4]], "
                     "func=copy, scale=1.0, bias=0.0\n  halt\n",
                     FaultKind::kIllegalInstruction, {"dve pc 0", "activate"}));
  // Undefined function and ALU codes the encoding can hold.
  EXPECT_TRUE(faults(".seq act\n  nop\n  activate sbuf.fp32[0:8, 64][[1,4]], sbuf.fp32[0:8, 0][[1,4]], "
                     "func=20, scale=1.0, bias=0.0\n  halt\n",
                     FaultKind::kIllegalInstruction, {"act pc 1", "function code 20"}));
  EXPECT_TRUE(faults(".seq pool\n  tensor_tensor sbuf.fp32[0:8, 256][[1,4]], sbuf.fp32[0:8, 0][[1,4]], "
                     "sbuf.fp32[0:8, 64][[1,4]], alu0=31\n  halt\n",
                     FaultKind::kIllegalInstruction, {"pool pc 0", "ALU code 31"}));
}

TEST_F(CoreTest, DmaFaults) {
  const std::string desc =
      ".desc 0 src=hbm.fp32[0][[4,4]] dst=sbuf.fp32[0, 0][[1,1],[0,1],[0,1],[4,4]]\n";
  set_reg(Seq::kSp, 1, 1);
  set_reg(Seq::kSp, 2, 65536 - 8);
  // Issue-time faults name the sequencer.
  EXPECT_TRUE(faults(".seq sp\n  nop\n  dma q0, d1\n  halt\n" + desc, FaultKind::kDma,
                     {"sp pc 1", "descriptor 1 does not exist"}));
  EXPECT_TRUE(faults(".seq sp\n  nop\n  dma q0, d0+r1\n  halt\n" + desc, FaultKind::kDma,
                     {"sp pc 1", "descriptor 1 does not exist"}));
  EXPECT_TRUE(faults(".seq sp\n  nop\n  dma q8, d0\n  halt\n" + desc, FaultKind::kDma,
                     {"sp pc 1", "queue 8 does not exist"}));
  // Transfer-time faults name the queue, the triggering pc and sequencer.
  auto transfer = [&](const std::string& d, const std::string& dma = "dma q0, d0") {
    return ".seq sp\n  nop\n  " + dma + "\n  halt\n.desc 0 " + d + "\n";
  };
  EXPECT_TRUE(faults(transfer("src=hbm.fp32[65532][[4,2]] dst=sbuf.fp32[0, 0][[1,1],[0,1],[0,1],[4,2]]"),
                     FaultKind::kDma, {"dma.q0 pc 1", "from sp", "outside HBM"}));
  EXPECT_TRUE(faults(transfer("src=hbm.fp32[0][[4,4]] dst=sbuf.fp32[0, 0][[1,1],[0,1],[0,1],[4,4]]",
                              "dma q6, d0, dst+r2"),
                     FaultKind::kDma, {"dma.q6 pc 1", "outside the 16384-byte SBUF partition"}));
  EXPECT_TRUE(faults(transfer("src=hbm.fp32[0][[4,4]] dst=hbm.fp32[0][[4,4]]", "dma q0, d0, src+r2"),
                     FaultKind::kDma, {"dma.q0 pc 1", "outside HBM"}));
  EXPECT_TRUE(faults(transfer("src=hbm.fp32[0][[4,8]] dst=sbuf.fp32[0, 0][[1,1],[0,1],[0,1],[4,4]]"),
                     FaultKind::kDma, {"dma.q0 pc 1", "source has 8 elements, destination 4"}));
  EXPECT_TRUE(faults(transfer("src=hbm.fp32[0][[4,4]] dst=psum.fp32[4, 0][[2,3],[0,1],[0,1],[4,1]]"),
                     FaultKind::kDma, {"dma.q0 pc 1", "partition 8 is outside"}));
  EXPECT_TRUE(faults(transfer("src=hbm.fp32[0][[4,0]] dst=sbuf.fp32[0, 0][[1,1],[0,1],[0,1],[4,4]]"),
                     FaultKind::kDma, {"dma.q0 pc 1", "size 0"}));
}

// A DMA queue's fault names the check that stopped it (DmaDetail, the RTL's ERR_STATUS.detail),
// the destination's checks shifted from the source's; an issue-time fault has none.
TEST_F(CoreTest, DmaFaultsCarryTheirDetail) {
  set_reg(Seq::kSp, 2, 65536 - 8);
  const std::string sb = "dst=sbuf.fp32[0, 0][[1,1],[0,1],[0,1],[4,4]]";
  const std::vector<std::pair<std::string, std::optional<DmaDetail>>> cases = {
      {"dma q0, d0|src=hbm.fp32[0][[4,0]] " + sb, DmaDetail::kSrcZeroDim},
      {"dma q0, d0|src=hbm.fp32[2][[4,4]] " + sb, DmaDetail::kSrcAlign},
      {"dma q0, d0|src=hbm.fp32[65532][[4,2]] dst=sbuf.fp32[0, 0][[1,1],[0,1],[0,1],[4,2]]", DmaDetail::kSrcHbm},
      {"dma q0, d0|src=hbm.fp32[0][[4,4]] dst=sbuf.fp32[0, 0][[1,1],[0,1],[0,1],[4,0]]", DmaDetail::kDstZeroDim},
      {"dma q0, d0|src=hbm.bf16[0][[2,4]] dst=sbuf.bf16[0, 2][[1,1],[0,1],[0,1],[3,4]]", DmaDetail::kDstAlign},
      {"dma q0, d0|src=hbm.fp32[0][[4,4]] dst=psum.fp32[4, 0][[2,3],[0,1],[0,1],[4,1]]", DmaDetail::kDstPart},
      {"dma q6, d0, dst+r2|src=hbm.fp32[0][[4,4]] " + sb, DmaDetail::kDstOffset},
      {"dma q0, d0|src=hbm.fp32[0][[4,8]] " + sb, DmaDetail::kCount},
      {"dma q0, d1|src=hbm.fp32[0][[4,4]] " + sb, std::nullopt},  // no descriptor 1: the sequencer's
  };
  for (const auto& [text, want] : cases) {
    const size_t bar = text.find('|');
    const std::string prog = ".seq sp\n  nop\n  " + text.substr(0, bar) + "\n  halt\n.desc 0 " +
                             text.substr(bar + 1) + "\n";
    try {
      CoreModel(tiny(), opt).run(assemble(prog));
      ADD_FAILURE() << "no fault: " << text;
    } catch (const CoreFault& f) {
      EXPECT_EQ(f.kind(), FaultKind::kDma) << f.what();
      EXPECT_EQ(f.dma_detail(), want) << text << ": " << f.what();
    }
  }
}

// Every DMA element is aligned to its size: address (plus the register) and byte steps.
TEST_F(CoreTest, DmaElementsMustBeAligned) {
  set_reg(Seq::kSp, 3, 2);
  auto transfer = [&](const std::string& d, const std::string& dma = "dma q0, d0") {
    return ".seq sp\n  nop\n  " + dma + "\n  halt\n.desc 0 " + d + "\n";
  };
  const std::string sb = "dst=sbuf.fp32[0, 0][[1,1],[0,1],[0,1],[4,4]]";
  EXPECT_TRUE(faults(transfer("src=hbm.fp32[2][[4,4]] " + sb), FaultKind::kDma,
                     {"dma.q0 pc 1", "source: address 0x2 is not a multiple", "fp32"}));
  EXPECT_TRUE(faults(transfer("src=hbm.fp32[0][[4,4]] " + sb, "dma q0, d0, src+r3"),
                     FaultKind::kDma, {"source: address 0x2 is not a multiple"}));
  EXPECT_TRUE(faults(transfer("src=hbm.fp32[0][[6,4]] " + sb), FaultKind::kDma,
                     {"source: d3 step 6 bytes is not a multiple"}));
  EXPECT_TRUE(faults(transfer("src=hbm.fp32[0][[4,1],[2,4]] " + sb), FaultKind::kDma,
                     {"source: d3 step 2 bytes is not a multiple"}));
  EXPECT_TRUE(faults(transfer("src=hbm.bf16[0][[2,4]] dst=sbuf.bf16[0, 2][[1,1],[0,1],[0,1],[3,4]]"),
                     FaultKind::kDma, {"destination: d3 step 3 bytes is not a multiple", "bf16"}));
  EXPECT_TRUE(faults(transfer("src=hbm.bf16[0][[2,4]] dst=psum.bf16[0, 1][[1,1],[0,1],[0,1],[2,4]]"),
                     FaultKind::kDma, {"destination: address 0x1 is not a multiple"}));
  // The on-chip d0 steps partitions, not bytes: an odd partition step is fine; one-byte
  // elements are always aligned.
  make();
  EXPECT_NO_THROW(run(transfer("src=hbm.fp32[0][[4,6]] dst=sbuf.fp32[1, 0][[3,2],[0,1],[0,1],[4,3]]")));
  EXPECT_NO_THROW(run(transfer("src=hbm.int8[3][[5,4]] dst=sbuf.uint8[0, 7][[1,1],[0,1],[0,1],[3,4]]")));
  // The dim-0 check comes first.
  EXPECT_TRUE(faults(transfer("src=hbm.fp32[2][[4,0]] " + sb), FaultKind::kDma, {"size 0"}));
}

TEST_F(CoreTest, MemoryFaults) {
  set_reg(Seq::kAct, 2, 65536);
  EXPECT_TRUE(faults(".seq act\n  nop\n  ld r1, [r2+0]\n  halt\n", FaultKind::kMemory,
                     {"act pc 1", "outside HBM"}));
  EXPECT_TRUE(faults(".seq act\n  ld r1, [r0+65534]\n  halt\n", FaultKind::kMemory,
                     {"act pc 0", "not 4-byte aligned"}));
  EXPECT_TRUE(faults(".seq act\n  nop\n  ld r1, [r0+2]\n  halt\n", FaultKind::kMemory,
                     {"act pc 1", "not 4-byte aligned"}));
  // The address adder is 32 bits wide: 0xfffffffc + 8 wraps to 4, inside HBM.
  set_reg(Seq::kPool, 3, 0xFFFFFFFCu);
  CoreModel wrap(tiny(), opt);
  EXPECT_NO_THROW(wrap.run(assemble(".seq pool\n  st r3, [r3+8]\n  halt\n")));
  EXPECT_EQ(wrap.hbm().read_u32(4), 0xFFFFFFFCu);
  EXPECT_TRUE(faults(".seq act\n  nop\n  nop\n  st r1, [r0+6]\n  halt\n", FaultKind::kMemory,
                     {"act pc 2", "not 4-byte aligned"}));
  EXPECT_TRUE(faults(".seq act\n  st r1, [r2+4]\n  halt\n", FaultKind::kMemory,
                     {"act pc 0", "outside HBM"}));
}

TEST_F(CoreTest, PcFaults) {
  EXPECT_TRUE(faults(".seq sp\n  nop\n  beq r0, r0, @5\n  halt\n", FaultKind::kPc,
                     {"sp pc 1", "past the end"}));
  set_reg(Seq::kSp, 1, 2);
  EXPECT_TRUE(faults(".seq sp\n  loop r1, @9\n  halt\n", FaultKind::kPc, {"sp pc 0", "past the end"}));
  EXPECT_TRUE(faults(".seq dve\n  nop\n  add r1, r0, 1\n", FaultKind::kPc, {"dve pc 2", "no halt"}));
  // The index one past the last instruction is past the end too: the branch is at fault.
  EXPECT_TRUE(faults(".seq pool\n  beq r0, r0, @2\n  halt\n", FaultKind::kPc,
                     {"pool pc 0", "branch target 2 is past the end"}));
  // A branch not taken does not go there.
  make();
  run(".seq pool\n  bne r0, r0, @7\n  halt\n");
}

// ---------------------------------------------------------------------------------------------
// model/core/memory.h directly.

struct StartCase {
  uint32_t start, count, partitions;
  bool allowed;
};

// q = max(1, P/4): count > 2q starts at 0; q < count <= 2q at 0 or 2q; else a multiple of q.
const StartCase kStartCases[] = {
    // P = 8, q = 2
    {0, 8, 8, true},   {0, 5, 8, true},  {4, 5, 8, false}, {2, 5, 8, false},
    {0, 4, 8, true},   {4, 4, 8, true},  {2, 4, 8, false}, {0, 3, 8, true},
    {4, 3, 8, true},   {2, 3, 8, false}, {6, 3, 8, false}, {0, 2, 8, true},
    {2, 2, 8, true},   {6, 2, 8, true},  {3, 2, 8, false}, {1, 1, 8, false},
    {6, 1, 8, true},   {7, 1, 8, false},
    // P = 128, q = 32
    {0, 128, 128, true}, {0, 65, 128, true},  {64, 65, 128, false}, {32, 96, 128, false},
    {64, 64, 128, true}, {32, 64, 128, false}, {64, 33, 128, true}, {96, 33, 128, false},
    {96, 32, 128, true}, {32, 1, 128, true},   {16, 1, 128, false}, {127, 1, 128, false},
    // P = 16, q = 4
    {0, 9, 16, true},  {8, 9, 16, false}, {8, 8, 16, true},  {4, 8, 16, false},
    {8, 5, 16, true},  {4, 5, 16, false}, {12, 4, 16, true}, {2, 4, 16, false},
    // P = 4 and P = 2: q = 1 (P = 2 would give 0)
    {0, 3, 4, true},   {1, 3, 4, false},  {2, 2, 4, true},   {1, 2, 4, false},
    {3, 1, 4, true},   {0, 2, 2, true},   {1, 2, 2, false},  {1, 1, 2, true},
    {0, 1, 1, true},
};

TEST(CoreMemory, StartPartitionRuleTable) {
  for (const StartCase& c : kStartCases)
    EXPECT_EQ(start_partition_allowed(c.start, c.count, c.partitions), c.allowed)
        << "start " << c.start << ", count " << c.count << ", P " << c.partitions;
}

// The rule as sets of allowed starts, over every legal (start, count) of a few P.
TEST(CoreMemory, StartPartitionRuleExhaustive) {
  for (const uint32_t P : {1u, 2u, 4u, 8u, 16u, 32u, 128u}) {
    const uint32_t q = P / 4 ? P / 4 : 1;
    for (uint32_t count = 1; count <= P; ++count) {
      std::set<uint32_t> starts;
      for (uint32_t s = 0; s + count <= P; s += q)
        if (count <= q || s == 0 || (count <= 2 * q && s == 2 * q)) starts.insert(s);
      for (uint32_t start = 0; start + count <= P; ++start)
        EXPECT_EQ(start_partition_allowed(start, count, P), starts.count(start) == 1)
            << "start " << start << ", count " << count << ", P " << P;
    }
  }
}

Footprint fp(uint32_t pstart, uint32_t pstep, uint32_t pcount,
             std::vector<std::pair<uint32_t, uint32_t>> bytes,
             isa::Space space = isa::Space::kSbuf) {
  Footprint f;
  f.space = space;
  f.pstart = pstart;
  f.pstep = pstep;
  f.pcount = pcount;
  f.bytes = std::move(bytes);
  return f;
}

TEST(CoreMemory, FootprintOverlaps) {
  struct Case {
    const char* what;
    Footprint a, b;
    bool overlaps;
  };
  const Case cases[] = {
      {"same bytes", fp(0, 1, 8, {{0, 16}}), fp(0, 1, 8, {{0, 16}}), true},
      {"touching intervals", fp(0, 1, 8, {{0, 16}}), fp(0, 1, 8, {{16, 32}}), false},
      {"one byte shared", fp(0, 1, 8, {{0, 16}}), fp(0, 1, 8, {{15, 20}}), true},
      {"other space", fp(0, 1, 8, {{0, 16}}), fp(0, 1, 8, {{0, 16}}, isa::Space::kPsum), false},
      {"disjoint partitions", fp(0, 1, 4, {{0, 16}}), fp(4, 1, 4, {{0, 16}}), false},
      {"one partition shared", fp(0, 1, 4, {{0, 16}}), fp(3, 1, 4, {{8, 12}}), true},
      {"even vs odd", fp(0, 2, 4, {{0, 16}}), fp(1, 2, 4, {{0, 16}}), false},
      {"steps 2 and 3 meet at 6", fp(0, 2, 4, {{0, 4}}), fp(3, 3, 3, {{0, 4}}), true},
      {"steps 2 and 3 miss", fp(0, 2, 3, {{0, 4}}), fp(3, 3, 2, {{0, 4}}), false},
      {"step 4 vs the gap", fp(0, 4, 32, {{0, 4}}), fp(125, 1, 3, {{0, 4}}), false},
      {"step 4 vs its last", fp(0, 4, 32, {{0, 4}}), fp(124, 1, 2, {{0, 4}}), true},
      {"interleaved intervals", fp(0, 1, 1, {{0, 4}, {8, 12}}), fp(0, 1, 1, {{4, 8}, {12, 16}}),
       false},
      {"interval spans a hole", fp(0, 1, 1, {{0, 4}, {8, 12}}), fp(0, 1, 1, {{4, 9}}), true},
      {"late interval", fp(0, 1, 1, {{0, 4}, {100, 104}}), fp(0, 1, 1, {{50, 60}, {103, 110}}),
       true},
      {"step 0 repeats a partition", fp(5, 0, 3, {{0, 4}}), fp(5, 1, 1, {{0, 4}}), true},
      {"step 0 elsewhere", fp(5, 0, 3, {{0, 4}}), fp(4, 1, 1, {{0, 4}}), false},
      {"empty", fp(0, 1, 0, {{0, 4}}), fp(0, 1, 8, {{0, 4}}), false},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(c.a.overlaps(c.b), c.overlaps) << c.what;
    EXPECT_EQ(c.b.overlaps(c.a), c.overlaps) << c.what << " (swapped)";
  }
}

// Random footprints on 16 partitions x 64 bytes against the sets of (partition, byte) cells.
TEST(CoreMemory, FootprintOverlapsRandomAgainstCells) {
  auto rng = test::make_rng();
  auto pick = [&](uint32_t n) { return uint32_t(rng() % n); };
  auto random_fp = [&] {
    Footprint f;
    f.space = pick(8) == 0 ? isa::Space::kPsum : isa::Space::kSbuf;
    f.pstep = pick(4);
    f.pcount = 1 + pick(f.pstep ? 16 / f.pstep : 4);
    f.pstart = pick(16 - (f.pstep ? f.pstep * (f.pcount - 1) : 0));
    for (uint32_t b = 0; b < 64;) {  // runs of bytes in and out
      const uint32_t len = 1 + pick(12);
      if (pick(2)) f.bytes.emplace_back(b, std::min(64u, b + len));
      b += len + 1 + pick(8);
    }
    return f;
  };
  auto cells = [](const Footprint& f) {
    std::set<std::pair<uint32_t, uint32_t>> s;
    for (uint32_t i = 0; i < f.pcount; ++i)
      for (const auto& [lo, hi] : f.bytes)
        for (uint32_t b = lo; b < hi; ++b) s.emplace(f.pstart + i * f.pstep, b);
    return s;
  };
  test::Mismatches bad("Footprint::overlaps");
  for (int n = 0; n < 20000; ++n) {
    const Footprint a = random_fp(), b = random_fp();
    bool want = false;
    if (a.space == b.space) {
      const auto ca = cells(a);
      for (const auto& c : cells(b)) want = want || ca.count(c);
    }
    if (a.overlaps(b) != want)
      bad.add("partitions {}+{}*{} vs {}+{}*{}, {} intervals vs {}: got {}", a.pstart, a.pstep,
              a.pcount, b.pstart, b.pstep, b.pcount, a.bytes.size(), b.bytes.size(), !want);
  }
  EXPECT_EQ(bad.count(), 0u);
}

TEST(CoreMemory, ResolvedFootprints) {
  const CoreConfig& cfg = tiny();
  OnChipMemory sbuf("SBUF", cfg.partitions, cfg.sbuf_partition_bytes);
  isa::AccessPattern ap;
  ap.dtype = Dtype::kBf16;
  ap.start_partition = 4;
  ap.partitions = 4;
  ap.offset = 6;
  ap.dims[2] = {32, 2};  // elements: 0..3 and 32..35, 2 bytes each, from byte 6 + base 4
  ap.dims[3] = {1, 4};
  const ResolvedAp r = resolve_ap(ap, 4, sbuf, cfg.partitions, "ap1");
  EXPECT_EQ(r.offsets, (std::vector<uint32_t>{10, 12, 14, 16, 74, 76, 78, 80}));
  const Footprint f = r.footprint();
  EXPECT_EQ(f.pstart, 4u);
  EXPECT_EQ(f.pstep, 1u);
  EXPECT_EQ(f.pcount, 4u);
  EXPECT_EQ(f.bytes, (std::vector<std::pair<uint32_t, uint32_t>>{{10, 18}, {74, 82}}));

  Hbm hbm(4096);
  isa::DescSide side;
  side.space = isa::Space::kSbuf;
  side.start_partition = 1;
  side.address = 32;
  side.dims[0] = {2, 4};  // partitions 1, 3, 5, 7
  side.dims[3] = {8, 3};  // bytes 32, 40, 48 (+ 4 each)
  const ResolvedSide s = resolve_side(side, 0, hbm, &sbuf, "destination");
  ASSERT_EQ(s.onchip.size(), 12u);
  EXPECT_EQ(s.onchip[4], (std::pair<uint32_t, uint32_t>{3, 40}));
  const Footprint g = s.footprint();
  EXPECT_EQ(g.pstart, 1u);
  EXPECT_EQ(g.pstep, 2u);
  EXPECT_EQ(g.pcount, 4u);
  EXPECT_EQ(g.bytes, (std::vector<std::pair<uint32_t, uint32_t>>{{32, 36}, {40, 44}, {48, 52}}));
}

// ECC (docs/ecc.md): an injection consumed by the next store of its byte, a load that sees what
// the decoder returns (one flip corrected, two as stored), scrubs that count words, and an
// injection outside the memory refused with the memory, partition and byte named.
TEST(CoreMemoryEcc, InjectionLoadAndScrub) {
  OnChipMemory m("SBUF", 4, 64);
  m.arm_injection(2, 9, 1u << 2);  // data bit d0 of byte 9
  EXPECT_TRUE(m.injection_armed());
  m.store(2, 8, 4, 0x44332211);
  EXPECT_FALSE(m.injection_armed());
  EXPECT_EQ(m.load(2, 8, 4), 0x44332211u) << "one flip reads corrected";
  m.arm_injection(1, 40, 0x14);  // d0 and d1 of byte 40
  m.store(1, 40, 1, 0xF0);
  EXPECT_EQ(m.load(1, 40, 1), 0xF3u) << "two flips read as stored";
  EccScrub s = m.scrub();
  EXPECT_EQ(s.corrected, 1u);
  EXPECT_EQ(s.uncorrectable, 1u);
  ASSERT_TRUE(s.first_uncorrectable);
  EXPECT_EQ(*s.first_uncorrectable, std::make_pair(1u, 40u));
  m.store(1, 40, 2, 0x1234);  // a store re-encodes the byte
  s = m.scrub();
  EXPECT_EQ(s.uncorrectable, 0u);
  EXPECT_EQ(s.corrected, 1u);
  for (const auto& [part, byte, flip] : {std::tuple<uint32_t, uint32_t, uint16_t>{4, 0, 1},
                                         {0, 64, 1}, {0, 0, 0}, {0, 0, 0x2000}}) {
    try {
      m.arm_injection(part, byte, flip);
      ADD_FAILURE() << "accepted partition " << part << " byte " << byte << " flip " << flip;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("SBUF ECC injection"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace tern::core
