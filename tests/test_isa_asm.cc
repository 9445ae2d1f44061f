// The assembler and disassembler (model/isa/asm.h) and the program image: random programs round
// trip through text and binary; a hand-written program is checked field by field against the
// syntax; bad text and bad images are rejected with the line and column (or byte) and a reason.
#include <set>

#include "common/error.h"
#include "isa/asm.h"
#include "isa/isa.h"
#include "test_util.h"

namespace tern::isa {
namespace {

// ---------------------------------------------------------------------------------------------
// Random programs: every field of every format with legal values, in the normal form decode
// returns (fields a format does not use stay zero).

class RandomProgram {
 public:
  explicit RandomProgram(std::mt19937_64& rng) : rng_(rng) {}

  Program make() {
    Program p;
    for (auto& stream : p.streams) {
      const size_t n = pick(4) == 0 ? 0 : 1 + pick(12);
      for (size_t i = 0; i < n; ++i) stream.push_back(instruction(n));
    }
    const size_t descs = pick(4);
    for (size_t i = 0; i < descs; ++i) p.descriptors.push_back({side(), side()});
    return p;
  }

  std::set<Opcode> seen;

 private:
  uint64_t pick(uint64_t n) { return rng_() % n; }
  bool coin() { return pick(2) != 0; }
  // Zero, all ones, small or uniform: the edges of a field as often as its middle.
  uint64_t bits(uint32_t width) {
    const uint64_t mask = width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
    switch (pick(4)) {
      case 0: return 0;
      case 1: return mask;
      case 2: return pick(4) & mask;
      default: return rng_() & mask;
    }
  }
  uint64_t u(Layout l, const char* name) { return bits(field(l, name).width); }
  int64_t s(Layout l, const char* name) {
    const uint32_t w = field(l, name).width;
    const int64_t lim = int64_t(1) << (w - 1);
    switch (pick(4)) {
      case 0: return -lim;
      case 1: return lim - 1;
      case 2: return int64_t(pick(5)) - 2;
      default: return int64_t(rng_() % uint64_t(2 * lim)) - lim;
    }
  }
  // r0 (no register: the text omits `+rN`) a quarter of the time.
  uint32_t reg() { return pick(4) == 0 ? 0 : uint32_t(pick(kNumRegs)); }

  std::array<Dim, kApDims> dims(Layout l) {
    static const char* const kStep[] = {"d0_step", "d1_step", "d2_step", "d3_step"};
    static const char* const kNum[] = {"d0_num", "d1_num", "d2_num", "d3_num"};
    std::array<Dim, kApDims> d{};
    for (uint32_t i = 0; i < kApDims; ++i)
      if (pick(3) != 0) d[i] = {int32_t(s(l, kStep[i])), uint32_t(u(l, kNum[i]))};
    return d;
  }

  AccessPattern ap() {
    AccessPattern a;
    if (pick(4) == 0) return a;  // absent
    a.mem = Mem(pick(2));
    a.dtype = Dtype(pick(kNumDtypes));
    a.start_partition = uint32_t(u(Layout::kAp, "start"));
    a.partitions = uint32_t(1 + pick(255));
    a.base_reg = reg();
    a.offset = uint32_t(u(Layout::kAp, "offset"));
    a.dims = dims(Layout::kAp);
    return a;
  }

  ScalarOperand scalar() {
    ScalarOperand sc;
    sc.imm = uint32_t(bits(32));
    if (coin()) return sc;
    sc.per_partition = true;
    sc.mem = Mem(pick(2));
    sc.dtype = Dtype(pick(kNumDtypes));
    sc.start_partition = uint32_t(u(Layout::kScalar, "start"));
    sc.base_reg = reg();
    return sc;
  }

  Sync sync() {
    Sync y;
    if (coin()) {
      y.wait = true;
      y.wait_sem = uint32_t(pick(kNumSems));
      y.wait_reg = reg();
      y.wait_value = int32_t(s(Layout::kHeader, "wait_value"));
    }
    y.update = SemUpdate(pick(3));
    if (y.update != SemUpdate::kNone) {
      y.update_sem = uint32_t(pick(kNumSems));
      y.update_value = coin() ? 1 : uint32_t(u(Layout::kHeader, "upd_value"));
    }
    return y;
  }

  Instruction instruction(size_t stream_size) {
    const OpcodeInfo& info = opcodes()[pick(opcodes().size())];
    seen.insert(info.op);
    Instruction in;
    in.op = info.op;
    in.sync = sync();
    const uint32_t target = coin() ? uint32_t(pick(stream_size)) : uint32_t(bits(32));
    auto reg_or_imm = [&] {
      in.use_imm = coin();
      if (in.use_imm) in.imm = uint32_t(bits(32)); else in.rs2 = reg();
    };
    switch (info.format) {
      case Format::kNone: break;
      case Format::kAlu:
        in.rd = reg();
        in.rs1 = reg();
        reg_or_imm();
        break;
      case Format::kLoad:
      case Format::kStore:
        (info.format == Format::kLoad ? in.rd : in.rs2) = reg();
        in.rs1 = reg();
        in.imm = uint32_t(u(Layout::kMem, "imm"));
        break;
      case Format::kBranch:
        in.rs1 = reg();
        reg_or_imm();
        in.target = target;
        break;
      case Format::kLoop:
        in.rd = reg();
        in.target = target;
        break;
      case Format::kNotify: in.imm = uint32_t(u(Layout::kNotify, "imm")); break;
      case Format::kDma:
        in.queue = uint32_t(u(Layout::kDma, "queue"));
        in.imm = uint32_t(u(Layout::kDma, "imm"));
        in.rd = reg();
        in.rs1 = reg();
        in.rs2 = reg();
        break;
      case Format::kPeLoad: in.ap[1] = ap(); break;
      case Format::kPeTranspose: in.ap[0] = ap(); break;
      case Format::kPeMatmul:
        in.ap[0] = ap();
        in.ap[1] = ap();
        in.accumulate = coin();
        in.acc_reg = reg();
        break;
      case Format::kAct:
        for (auto& a : in.ap) a = ap();
        for (auto& sc : in.scalar) sc = scalar();
        in.func = uint32_t(u(Layout::kAct, "func"));
        in.reduce_cmd = uint32_t(u(Layout::kAct, "reduce_cmd"));
        in.reduce_op = uint32_t(u(Layout::kAct, "reduce_op"));
        in.stochastic = coin();
        break;
      case Format::kDve:
        for (int i = 0; i < 3; ++i) in.ap[i] = ap();
        for (auto& sc : in.scalar) sc = pick(3) == 0 ? ScalarOperand{} : scalar();
        in.alu0 = uint32_t(u(Layout::kDve, "alu0"));
        in.alu1 = uint32_t(u(Layout::kDve, "alu1"));
        in.imm2 = uint32_t(u(Layout::kDve, "imm2"));
        in.stochastic = coin();
        in.saturate = coin();
        in.reverse0 = coin();
        in.reverse1 = coin();
        in.negate = coin();
        break;
    }
    return in;
  }

  DescSide side() {
    DescSide d;
    d.space = Space(pick(3));
    d.dtype = Dtype(pick(kNumDtypes));
    if (d.space != Space::kHbm) d.start_partition = uint32_t(u(Layout::kDescSide, "start"));
    d.address = u(Layout::kDescSide, "address");
    d.dims = dims(Layout::kDescSide);
    return d;
  }

  std::mt19937_64& rng_;
};

TEST(IsaAsm, RandomProgramsRoundTrip) {
  auto rng = test::make_rng();
  RandomProgram gen(rng);
  constexpr int kPrograms = 300;
  for (int i = 0; i < kPrograms; ++i) {
    const Program p = gen.make();
    SCOPED_TRACE(fmt::format("program {} (TERN_SEED={})", i, test::test_seed()));
    const std::string text = disassemble(p);
    SCOPED_TRACE(text);
    const Program again = assemble(text, "random.s");
    ASSERT_TRUE(again == p);
    ASSERT_EQ(disassemble(again), text);
    ASSERT_TRUE(from_binary(to_binary(p), "random.tbin") == p);
  }
  EXPECT_EQ(gen.seen.size(), opcodes().size()) << "not every opcode was generated";
}

// ---------------------------------------------------------------------------------------------
// Every syntax form, with the expected values written from the syntax, not from printing.

const char* const kHandWritten = R"(# every form of the syntax
.seq pe                                # sections may repeat; labels are per stream
start:  ldstat sbuf.bf16[0:128, 0x100][[1,64]] $S[3]>=1
  matmul psum.fp32[4:12, 8][[2,3],[1,4]], sbuf.fp8e4m3[0:64, 256+r2][[64,8],[0,1],[-1,64],[1,2]], acc $S[4]++@complete
  pe_transpose psum.fp32[0:32, 0+r63][[1,32]]   $S[63]>=8388607+r7   $S[0]=0@complete
  loop r5, start
  beq r1, r2, end
  bne r1, -1, @3
  blt r0, 4294967295, start
end:
  halt
.seq act
  activate sbuf.fp32[0:64, 0][[1,32]], psum.fp32[0:64, 0][[1,32]], func=gelu, scale=1.5, bias=sbuf.fp32[0:, 16+r1], reduce=reset_reduce:max, acc_load=psum.fp32[0:64, 32][[1,1]], acc_out=sbuf.fp32[0:64, 128][[1,1]], sr
  activate -, -, bias=-2e3, scale=0x3f800000, func=20, reduce=7:add
  activate -,-,func=copy,scale=-1,bias=inf
  add r1, r2, r3
  sub r4, r5, -7
  ld r1, [r2+16]
  st r3, [ r2 + 0x20 ]
  notify 4294967295
  dma q3, d1
  dma q255, d7+r1, src+r2, dst+r3 $S[1]+=2@complete
  dma q0, d0, dst+r4, src+r5 $S[2]+=1@complete
  nop $S[5]>=-8388608 $S[6]+=255@complete
.seq dve
  tensor_tensor sbuf.fp32[0:8, 0][[1,4]], sbuf.fp32[0:8, 0][[1,4]], psum.int32[8:16, 0][[1,4]], alu0=add
  tensor_scalar sbuf.fp32[0:8, 0][[1,4]], sbuf.fp32[0:8, 0][[1,4]], -, neg, rev1, imm2=-1, sr, s1=psum.bf16[3:, 0x10+r9], alu1=31, sat, rev0, alu0=multiply, s0=2.5
.seq pool
  iota sbuf.int32[0:128, 0][[1,16]], -, -, s0=0, s1=1, imm2=0x1
.seq pe
  nop
.desc 0 src=hbm.fp32[4096][[512,16],[4,128]] dst=sbuf.fp32[0, 0][[1,16],[4,128]]
.desc 1 dst=psum.bf16[2, 0x40][[1,2]] src=hbm.int8[0xffffffffffff][[-2147483648,65535]]
)";

AccessPattern ap(Mem mem, Dtype t, uint32_t start, uint32_t parts, uint32_t offset, uint32_t reg,
                 std::array<Dim, kApDims> dims) {
  AccessPattern a;
  a.mem = mem;
  a.dtype = t;
  a.start_partition = start;
  a.partitions = parts;
  a.offset = offset;
  a.base_reg = reg;
  a.dims = dims;
  return a;
}
ScalarOperand imm(uint32_t bits) {
  ScalarOperand s;
  s.imm = bits;
  return s;
}
ScalarOperand per_partition(Mem mem, Dtype t, uint32_t start, uint32_t offset, uint32_t reg) {
  ScalarOperand s;
  s.per_partition = true;
  s.mem = mem;
  s.dtype = t;
  s.start_partition = start;
  s.imm = offset;
  s.base_reg = reg;
  return s;
}
constexpr Dim kNoDim{0, 1};

TEST(IsaAsm, HandWrittenFields) {
  const Program p = assemble(kHandWritten, "hand.s");
  const auto& pe = p.streams[int(Seq::kPe)];
  ASSERT_EQ(pe.size(), 9u);
  EXPECT_EQ(pe[0].op, Opcode::kLdStat);
  EXPECT_TRUE(pe[0].ap[1] == ap(Mem::kSbuf, Dtype::kBf16, 0, 128, 256, 0,
                                {kNoDim, kNoDim, kNoDim, Dim{1, 64}}));
  EXPECT_FALSE(pe[0].ap[0].present());
  EXPECT_TRUE(pe[0].sync.wait);
  EXPECT_EQ(pe[0].sync.wait_sem, 3u);
  EXPECT_EQ(pe[0].sync.wait_value, 1);
  EXPECT_EQ(pe[0].sync.wait_reg, 0u);
  EXPECT_EQ(pe[0].sync.update, SemUpdate::kNone);

  EXPECT_EQ(pe[1].op, Opcode::kMatmul);
  EXPECT_TRUE(pe[1].ap[0] == ap(Mem::kPsum, Dtype::kFp32, 4, 8, 8, 0,
                                {kNoDim, kNoDim, Dim{2, 3}, Dim{1, 4}}));
  EXPECT_TRUE(pe[1].ap[1] == ap(Mem::kSbuf, Dtype::kFp8E4M3, 0, 64, 256, 2,
                                {Dim{64, 8}, Dim{0, 1}, Dim{-1, 64}, Dim{1, 2}}));
  EXPECT_TRUE(pe[1].accumulate);
  EXPECT_FALSE(pe[1].sync.wait);
  EXPECT_EQ(pe[1].sync.update, SemUpdate::kAdd);
  EXPECT_EQ(pe[1].sync.update_sem, 4u);
  EXPECT_EQ(pe[1].sync.update_value, 1u);

  EXPECT_EQ(pe[2].op, Opcode::kPeTranspose);
  EXPECT_TRUE(pe[2].ap[0] == ap(Mem::kPsum, Dtype::kFp32, 0, 32, 0, 63,
                                {kNoDim, kNoDim, kNoDim, Dim{1, 32}}));
  EXPECT_EQ(pe[2].sync.wait_sem, 63u);
  EXPECT_EQ(pe[2].sync.wait_value, 8388607);
  EXPECT_EQ(pe[2].sync.wait_reg, 7u);
  EXPECT_EQ(pe[2].sync.update, SemUpdate::kSet);
  EXPECT_EQ(pe[2].sync.update_sem, 0u);
  EXPECT_EQ(pe[2].sync.update_value, 0u);

  EXPECT_EQ(pe[3].op, Opcode::kLoop);
  EXPECT_EQ(pe[3].rd, 5u);
  EXPECT_EQ(pe[3].target, 0u);  // start:
  EXPECT_EQ(pe[4].op, Opcode::kBeq);
  EXPECT_EQ(pe[4].rs1, 1u);
  EXPECT_EQ(pe[4].rs2, 2u);
  EXPECT_FALSE(pe[4].use_imm);
  EXPECT_EQ(pe[4].target, 7u);  // end: a forward label
  EXPECT_EQ(pe[5].op, Opcode::kBne);
  EXPECT_TRUE(pe[5].use_imm);
  EXPECT_EQ(pe[5].imm, 0xFFFFFFFFu);
  EXPECT_EQ(pe[5].target, 3u);  // @3
  EXPECT_EQ(pe[6].op, Opcode::kBlt);
  EXPECT_EQ(pe[6].rs1, 0u);
  EXPECT_EQ(pe[6].imm, 0xFFFFFFFFu);
  EXPECT_EQ(pe[6].target, 0u);
  EXPECT_EQ(pe[7].op, Opcode::kHalt);
  EXPECT_EQ(pe[8].op, Opcode::kNop);  // the second `.seq pe` appends to the stream

  const auto& act = p.streams[int(Seq::kAct)];
  ASSERT_EQ(act.size(), 12u);
  EXPECT_EQ(act[0].op, Opcode::kActivate);
  EXPECT_TRUE(act[0].ap[0] == ap(Mem::kSbuf, Dtype::kFp32, 0, 64, 0, 0,
                                 {kNoDim, kNoDim, kNoDim, Dim{1, 32}}));
  EXPECT_TRUE(act[0].ap[1] == ap(Mem::kPsum, Dtype::kFp32, 0, 64, 0, 0,
                                 {kNoDim, kNoDim, kNoDim, Dim{1, 32}}));
  EXPECT_EQ(act[0].func, 2u);  // gelu
  EXPECT_TRUE(act[0].scalar[0] == imm(0x3FC00000u));  // 1.5f
  EXPECT_TRUE(act[0].scalar[1] == per_partition(Mem::kSbuf, Dtype::kFp32, 0, 16, 1));
  EXPECT_EQ(act[0].reduce_cmd, 3u);  // reset_reduce
  EXPECT_EQ(act[0].reduce_op, 1u);   // max
  EXPECT_TRUE(act[0].ap[2] == ap(Mem::kPsum, Dtype::kFp32, 0, 64, 32, 0,
                                 {kNoDim, kNoDim, kNoDim, Dim{1, 1}}));
  EXPECT_TRUE(act[0].ap[3] == ap(Mem::kSbuf, Dtype::kFp32, 0, 64, 128, 0,
                                 {kNoDim, kNoDim, kNoDim, Dim{1, 1}}));
  EXPECT_TRUE(act[0].stochastic);

  EXPECT_TRUE(act[1].ap[0] == AccessPattern{});
  EXPECT_TRUE(act[1].ap[1] == AccessPattern{});
  EXPECT_EQ(act[1].func, 20u);
  EXPECT_TRUE(act[1].scalar[0] == imm(0x3F800000u));
  EXPECT_TRUE(act[1].scalar[1] == imm(0xC4FA0000u));  // -2000.0f
  EXPECT_EQ(act[1].reduce_cmd, 7u);
  EXPECT_EQ(act[1].reduce_op, 0u);
  EXPECT_FALSE(act[1].stochastic);
  EXPECT_FALSE(act[1].ap[2].present());

  EXPECT_EQ(act[2].func, 0u);
  EXPECT_TRUE(act[2].scalar[0] == imm(0xFFFFFFFFu));  // decimal -1: two's complement
  EXPECT_TRUE(act[2].scalar[1] == imm(0x7F800000u));  // inf

  EXPECT_EQ(act[3].op, Opcode::kAdd);
  EXPECT_EQ(act[3].rd, 1u);
  EXPECT_EQ(act[3].rs1, 2u);
  EXPECT_EQ(act[3].rs2, 3u);
  EXPECT_FALSE(act[3].use_imm);
  EXPECT_EQ(act[4].op, Opcode::kSub);
  EXPECT_TRUE(act[4].use_imm);
  EXPECT_EQ(act[4].imm, uint32_t(-7));
  EXPECT_EQ(act[4].rs2, 0u);

  EXPECT_EQ(act[5].op, Opcode::kLd);
  EXPECT_EQ(act[5].rd, 1u);
  EXPECT_EQ(act[5].rs1, 2u);
  EXPECT_EQ(act[5].imm, 16u);
  EXPECT_EQ(act[6].op, Opcode::kSt);
  EXPECT_EQ(act[6].rs2, 3u);
  EXPECT_EQ(act[6].rs1, 2u);
  EXPECT_EQ(act[6].imm, 32u);
  EXPECT_EQ(act[7].op, Opcode::kNotify);
  EXPECT_EQ(act[7].imm, 0xFFFFFFFFu);

  EXPECT_EQ(act[8].op, Opcode::kDma);
  EXPECT_EQ(act[8].queue, 3u);
  EXPECT_EQ(act[8].imm, 1u);
  EXPECT_EQ(act[8].rd + act[8].rs1 + act[8].rs2, 0u);
  EXPECT_EQ(act[9].queue, 255u);
  EXPECT_EQ(act[9].imm, 7u);
  EXPECT_EQ(act[9].rd, 1u);
  EXPECT_EQ(act[9].rs1, 2u);
  EXPECT_EQ(act[9].rs2, 3u);
  EXPECT_EQ(act[9].sync.update, SemUpdate::kAdd);
  EXPECT_EQ(act[9].sync.update_sem, 1u);
  EXPECT_EQ(act[9].sync.update_value, 2u);
  EXPECT_EQ(act[10].rs1, 5u);  // src/dst in either order
  EXPECT_EQ(act[10].rs2, 4u);
  EXPECT_EQ(act[10].sync.update_value, 1u);
  EXPECT_EQ(act[11].op, Opcode::kNop);
  EXPECT_TRUE(act[11].sync.wait);
  EXPECT_EQ(act[11].sync.wait_sem, 5u);
  EXPECT_EQ(act[11].sync.wait_value, -8388608);  // signed: a threshold <= 0 is always met
  EXPECT_EQ(act[11].sync.update, SemUpdate::kAdd);
  EXPECT_EQ(act[11].sync.update_sem, 6u);
  EXPECT_EQ(act[11].sync.update_value, 255u);

  const auto& dve = p.streams[int(Seq::kDve)];
  ASSERT_EQ(dve.size(), 2u);
  EXPECT_EQ(dve[0].op, Opcode::kTensorTensor);
  EXPECT_TRUE(dve[0].ap[2] == ap(Mem::kPsum, Dtype::kInt32, 8, 8, 0, 0,
                                 {kNoDim, kNoDim, kNoDim, Dim{1, 4}}));
  EXPECT_EQ(dve[0].alu0, 1u);  // add
  EXPECT_EQ(dve[0].alu1, 0u);
  EXPECT_TRUE(dve[0].scalar[0] == ScalarOperand{});
  EXPECT_FALSE(dve[0].stochastic || dve[0].saturate || dve[0].reverse0 || dve[0].reverse1 ||
               dve[0].negate);
  EXPECT_EQ(dve[1].op, Opcode::kTensorScalar);
  EXPECT_FALSE(dve[1].ap[2].present());
  EXPECT_EQ(dve[1].alu0, 3u);  // multiply
  EXPECT_EQ(dve[1].alu1, 31u);
  EXPECT_TRUE(dve[1].scalar[0] == imm(0x40200000u));  // 2.5f
  EXPECT_TRUE(dve[1].scalar[1] == per_partition(Mem::kPsum, Dtype::kBf16, 3, 16, 9));
  EXPECT_EQ(dve[1].imm2, 0xFFFFFFFFu);
  EXPECT_TRUE(dve[1].stochastic && dve[1].saturate && dve[1].reverse0 && dve[1].reverse1 &&
              dve[1].negate);

  const auto& pool = p.streams[int(Seq::kPool)];
  ASSERT_EQ(pool.size(), 1u);
  EXPECT_EQ(pool[0].op, Opcode::kIota);
  EXPECT_TRUE(pool[0].scalar[0] == imm(0));
  EXPECT_TRUE(pool[0].scalar[1] == imm(1));  // decimal integers are integer bits
  EXPECT_EQ(pool[0].imm2, 1u);
  EXPECT_TRUE(p.streams[int(Seq::kSp)].empty());

  ASSERT_EQ(p.descriptors.size(), 2u);
  const Descriptor& d0 = p.descriptors[0];
  EXPECT_EQ(d0.src.space, Space::kHbm);
  EXPECT_EQ(d0.src.dtype, Dtype::kFp32);
  EXPECT_EQ(d0.src.address, 4096u);
  EXPECT_EQ(d0.src.start_partition, 0u);
  EXPECT_TRUE(d0.src.dims == (std::array<Dim, kApDims>{kNoDim, kNoDim, Dim{512, 16}, Dim{4, 128}}));
  EXPECT_EQ(d0.dst.space, Space::kSbuf);
  EXPECT_EQ(d0.dst.start_partition, 0u);
  EXPECT_EQ(d0.dst.address, 0u);
  EXPECT_TRUE(d0.dst.dims == (std::array<Dim, kApDims>{kNoDim, kNoDim, Dim{1, 16}, Dim{4, 128}}));
  const Descriptor& d1 = p.descriptors[1];
  EXPECT_EQ(d1.src.dtype, Dtype::kInt8);
  EXPECT_EQ(d1.src.address, 0xFFFFFFFFFFFFu);
  EXPECT_TRUE(d1.src.dims ==
              (std::array<Dim, kApDims>{kNoDim, kNoDim, kNoDim, Dim{-2147483647 - 1, 65535}}));
  EXPECT_EQ(d1.dst.space, Space::kPsum);
  EXPECT_EQ(d1.dst.dtype, Dtype::kBf16);
  EXPECT_EQ(d1.dst.start_partition, 2u);
  EXPECT_EQ(d1.dst.address, 64u);

  // And the whole program survives the binary image and the canonical text.
  EXPECT_TRUE(from_binary(to_binary(p), "hand.tbin") == p);
  EXPECT_TRUE(assemble(disassemble(p), "canon.s") == p);
}

// The canonical text, written by hand: sections in order, synthesised labels, defaults omitted.
TEST(IsaAsm, CanonicalTextIsAFixedPoint) {
  const std::string canonical = R"(.seq pe
L0:
  ldstat sbuf.bf16[0:128, 256][[1,64]] $S[3]>=1
  matmul psum.fp32[4:12, 8][[2,3],[1,4]], sbuf.fp8e4m3[0:64, 256+r2][[64,8],[0,1],[-1,64],[1,2]], acc $S[4]++@complete
  loop r5, L0
  bne r1, -1, L4
L4:
  halt $S[63]>=-3+r7 $S[0]=0@complete

.seq act
  activate sbuf.fp32[0:64, 0][[1,32]], psum.fp32[0:64, 0][[1,32]], func=gelu, scale=0x3fc00000, bias=sbuf.fp32[0:, 16+r1], reduce=reset_reduce:max, acc_load=psum.fp32[0:64, 32][[1,1]], acc_out=sbuf.fp32[0:64, 128][[1,1]], sr
  activate -, -, func=20, scale=0x3f800000, bias=0x00000000, reduce=7:add
  sub r4, r5, -7
  ld r1, [r2+16]
  st r3, [r0+0]
  notify 4294967295
  dma q3, d1
  dma q255, d7+r1, src+r2, dst+r3 $S[1]+=2@complete
  dma q0, d0, dst+r4 $S[2]+=0@complete

.seq pool
  tensor_scalar sbuf.fp32[0:8, 0][[1,4]], sbuf.fp32[0:8, 0][[1,4]], -, alu0=multiply, alu1=31, s0=0x40200000, s1=psum.bf16[3:, 16+r9], imm2=0xffffffff, sr, sat, rev0, rev1, neg
  tensor_copy -, -, -

.seq sp
  beq r1, r2, L2
  blt r3, 5, @3
L2:
  nop

.desc 0 src=hbm.fp32[4096][[512,16],[4,128]] dst=sbuf.fp32[0, 0][[1,16],[4,128]]
.desc 1 src=psum.int8[7, 281474976710655][[-2147483648,65535]] dst=hbm.bf16[0][[0,1]]
)";
  const Program p = assemble(canonical, "canon.s");
  EXPECT_EQ(disassemble(p), canonical);
  EXPECT_EQ(p.streams[int(Seq::kPe)][2].target, 0u);
  EXPECT_EQ(p.streams[int(Seq::kPe)][3].target, 4u);
  EXPECT_EQ(p.streams[int(Seq::kSp)][0].target, 2u);
  EXPECT_EQ(p.streams[int(Seq::kSp)][1].target, 3u);  // one past the end: no label
}

// ---------------------------------------------------------------------------------------------
// Errors name the place and the reason.

// Each case: the text, the place the message must name ("src:LINE:COL") and the reason.
struct ErrorCase {
  const char* text;
  const char* where;
  const char* why;
};
const ErrorCase kErrorCases[] = {
    {".seq pe\n  foo r1\n", "src:2:3", "unknown mnemonic 'foo'"},
    {".seq pe\n  ADD r1, r2, r3\n", "src:2:3", "unknown mnemonic 'ADD'"},
    {".seq pe\n  add r1, r64, r2\n", "src:2:11", "unknown register 'r64'"},
    {".seq pe\n  add r1, x2, r2\n", "src:2:11", "unknown register 'x2'"},
    {".seq pe\n  nop\n  loop r1, nowhere\n", "src:3:12", "unknown label 'nowhere'"},
    // Labels are per stream: `top` of pe is not visible from act.
    {".seq pe\ntop: nop\n.seq act\n  loop r1, top\n", "src:4:12", "unknown label 'top'"},
    {".seq pe\na:\n  nop\na: halt\n", "src:4:1", "duplicate label 'a' (first on line 2)"},
    {".seq pe\n  nop $S[1]>=8388608\n", "src:2:14", "does not fit Hdr.wait_value (24 signed bits)"},
    {".seq pe\n  nop $S[1]>=-8388609\n", "src:2:14", "does not fit Hdr.wait_value (24 signed bits)"},
    {".seq pe\n  nop $S[1]+=256@complete\n", "src:2:14", "does not fit Hdr.upd_value (8 bits)"},
    {".seq pe\n  nop $S[64]++@complete\n", "src:2:10", "semaphore 64 out of range"},
    {".seq pe\n  notify 4294967296\n", "src:2:10", "does not fit"},
    {".seq pe\n  dma q256, d0\n", "src:2:7", "does not fit"},
    {".seq pe\n  add r1, r2, 12x\n", "src:2:15", "bad number '12x'"},
    // Malformed access patterns.
    {".seq pe\n  ldstat sbuf.fp32[0:4 0][[1,1]]\n", "src:2:24", "expected ','"},
    {".seq pe\n  ldstat sbuf.fp33[0:4, 0][[1,1]]\n", "src:2:15", "unknown dtype 'fp33'"},
    {".seq pe\n  ldstat hbm.fp32[0:4, 0][[1,1]]\n", "src:2:10", "unknown memory 'hbm'"},
    {".seq pe\n  ldstat sbuf.fp32[4:4, 0][[1,1]]\n", "src:2:22", "empty partition range"},
    {".seq pe\n  ldstat sbuf.fp32[0:4, 0][[1,1],[1,1],[1,1],[1,1],[1,1]]\n", "src:2:52",
     "more than 4 dims"},
    {".seq pe\n  ldstat sbuf.fp32[0:4, 0][[32768,1]]\n", "src:2:29", "does not fit"},
    {".seq pe\n  ldstat sbuf.fp32[0:4, 0]\n", "src:2:27", "missing '['"},
    // Missing operands and commas, trailing garbage.
    {".seq pe\n  add r1, r2\n", "src:2:13", "missing operand"},
    {".seq pe\n  add r1 r2, r3\n", "src:2:10", "missing ','"},
    {".seq pe\n  halt r1\n", "src:2:8", "unexpected 'r1'"},
    {".seq act\n  activate -, -, func=relu, scale=1.0\n", "src:2:38", "missing operand 'bias='"},
    {".seq act\n  activate -, -, func=nope, scale=1, bias=1\n", "src:2:23", "unknown func 'nope'"},
    // Keyed items at most once, known keys only.
    {".seq dve\n  tensor_copy -, -, -, sr, sr\n", "src:2:28", "duplicate item 'sr'"},
    {".seq dve\n  tensor_copy -, -, -, s0=1, s0=2\n", "src:2:30", "duplicate item 's0'"},
    {".seq dve\n  tensor_copy -, -, -, acc\n", "src:2:24", "unknown item 'acc'"},
    {".seq pe\n  matmul psum.fp32[0:4, 0][[1,4]], sbuf.bf16[0:4, 0][[1,4]], acc_reg=r0\n",
     "src:2:70", "acc_reg=r0 never adds"},
    {".seq pe\n  matmul psum.fp32[0:4, 0][[1,4]], sbuf.bf16[0:4, 0][[1,4]], acc_reg=r64\n",
     "src:2:70", "unknown register 'r64'"},
    {".seq pe\n  nop $S[1]>=1 $S[2]>=1\n", "src:2:16", "duplicate semaphore wait"},
    // Structure.
    {".desc 1 src=hbm.fp32[0][[1,1]] dst=hbm.fp32[0][[1,1]]\n", "src:1:7",
     "descriptor 1 out of order: expected 0"},
    {".desc 0 src=hbm.fp32[0][[1,1]]\n", "src:1:31", "missing operand 'dst='"},
    {"  nop\n", "src:1:3", "instruction outside a .seq section"},
    {".seq gpu\n", "src:1:6", "unknown sequencer 'gpu'"},
    {".seq pe\n.text\n", "src:2:1", "unknown directive '.text'"},
    {".seq act\n  activate -, -, func=copy, scale=1e39, bias=0\n", "src:2:35", "overflows fp32"},
};

TEST(IsaAsm, ErrorsNameLineAndColumn) {
  for (const ErrorCase& c : kErrorCases) {
    try {
      assemble(c.text, "src");
      ADD_FAILURE() << "assembled without error:\n" << c.text;
    } catch (const Error& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find(std::string(c.where) + ": "), std::string::npos)
          << msg << "\n(want " << c.where << ")";
      EXPECT_NE(msg.find(c.why), std::string::npos) << msg << "\n(want " << c.why << ")";
    }
  }
}

TEST(IsaAsm, DisassembleRejectsWhatTextCannotSay) {
  Program p;
  Instruction in;
  in.op = Opcode::kLdStat;
  in.ap[1].offset = 4;  // absent (0 partitions) yet not default
  p.streams[int(Seq::kPe)].push_back(in);
  EXPECT_THROW(disassemble(p), Error);
  p.streams[int(Seq::kPe)].clear();
  p.descriptors.push_back({});
  p.descriptors[0].src.start_partition = 1;  // HBM side
  EXPECT_THROW(disassemble(p), Error);
}

// ---------------------------------------------------------------------------------------------
// Bad images: the byte offset and the reason.

void expect_image_error(const std::vector<uint8_t>& image, const std::string& want) {
  try {
    from_binary(image, "img");
    ADD_FAILURE() << "decoded without error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
  }
}

TEST(IsaAsm, ImageErrors) {
  const std::vector<uint8_t> good = to_binary(assemble(".seq act\n  nop\n", "src"));
  // Header: 8 magic bytes and six u32 counts; the instruction follows at byte 32.
  ASSERT_EQ(good.size(), 32u + kInstrBytes);
  std::vector<uint8_t> image = good;
  image[32] = 0x07;  // no opcode 0x07
  expect_image_error(image, "img: byte 32: act instruction 0: illegal opcode 0x07");
  image = good;
  image[32 + kInstrBytes - 1] |= 0x80;  // bit 1023: no field of nop
  expect_image_error(image, "img: byte 32: act instruction 0: nop: reserved bit 1023 is set");
  image = good;
  image.pop_back();
  expect_image_error(image, "truncated program image");
  expect_image_error({'T', 'E', 'R', 'N'}, "img: not a tern program image");
  image = good;
  image.push_back(0);
  expect_image_error(image, "img: 1 trailing bytes");
}

}  // namespace
}  // namespace tern::isa
