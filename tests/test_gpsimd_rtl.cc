// The GPSIMD core's RTL (rtl/gpsimd) in lock-step with the golden ISS (model/gpsimd, F off as
// the RTL is today): every retired instruction's pc, word, register write, memory write and EX
// cycle, and every exception's cause, pc and tval, on the toolchain-built programs and on
// seeded random instruction streams that reach every instruction class, x0, the M unit's corner
// operands, CSRs (present, absent, read-only), misaligned and out-of-range accesses, jumps and
// reserved encodings. Assertions in the RTL run throughout and must stay silent.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpsimd/elf_image.h"
#include "gpsimd_rtl.h"
#include "rv_encode.h"
#include "test_util.h"

namespace tern {
namespace {

using namespace test::rv;  // NOLINT(google-build-using-namespace): the encoders

constexpr uint32_t kBase = tb::GpsimdRtl::kMemBase;

gpsimd::CoreConfig rtl_config() {
  gpsimd::CoreConfig c;
  c.has_f = false;
  return c;
}

std::vector<uint8_t> bytes_of(const std::vector<uint32_t>& words) {
  std::vector<uint8_t> bytes;
  for (uint32_t w : words) {
    for (int k = 0; k < 4; ++k) bytes.push_back(uint8_t(w >> (8 * k)));
  }
  return bytes;
}

// The ISS and the RTL with the same program at the base of local memory, started there.
struct Pair {
  explicit Pair(const std::vector<uint32_t>& words) {
    iss.write_memory(kBase, bytes_of(words));
    rtl.write_memory(kBase, bytes_of(words));
    iss.set_pc(kBase);
    rtl.start(kBase);
  }
  tb::LockstepEnd run(uint64_t max_instructions) { return tb::run_lockstep(iss, rtl, max_instructions); }

  gpsimd::Core iss{rtl_config()};
  tb::GpsimdRtl rtl;
};

// A program ELF of tests/gpsimd, built for RV32IM, in lock-step until it writes tohost.
void run_program(const std::string& name) {
  const gpsimd::ElfImage image = gpsimd::load_elf_file(std::string(TERN_GPSIMD_PROGRAMS) + "/" + name + ".elf");
  gpsimd::Core iss(rtl_config());
  tb::GpsimdRtl rtl;
  for (const gpsimd::ElfSegment& s : image.segments) {
    iss.write_memory(s.addr, s.bytes);
    rtl.write_memory(s.addr, s.bytes);
  }
  iss.set_pc(image.entry);
  rtl.start(image.entry);
  const uint32_t tohost = *image.symbol("tohost");
  const tb::LockstepEnd end = tb::run_lockstep(iss, rtl, 5'000'000, [&](const gpsimd::Retire& r) {
    return r.mem_write && r.mem_addr == tohost && iss.read_word(tohost) != 0;
  });
  EXPECT_EQ(end.mismatch, "") << name;
  EXPECT_FALSE(end.exception) << name << ": " << (end.exception ? gpsimd::describe(*end.exception) : "");
  EXPECT_EQ(iss.read_word(tohost), 1u) << name << " did not pass (tohost " << iss.read_word(tohost) << ")";
  EXPECT_FALSE(rtl.assertion_failed()) << name;
  fmt::print("{}: {} instructions, {} cycles in lock-step\n", name, end.retired, rtl.cycles());
}

TEST(GpsimdRtl, EveryInstructionClassInLockStep) { run_program("classes_rv32im"); }
TEST(GpsimdRtl, CProgramInLockStep) { run_program("c_program_rv32im"); }

// Random instruction streams: a prologue puts interesting values in registers, then a mix of
// every class with fields drawn over their whole range (with a bias towards ones that run on).
class StreamGen {
 public:
  explicit StreamGen(std::mt19937_64& rng) : rng_(rng) {}

  std::vector<uint32_t> program(unsigned n) {
    std::vector<uint32_t> p = {lui(1, 0x80008),  // x1: the data half of local memory
                               lui(2, 0x80000),  // x2: INT_MIN, and the code's base
                               addi(3, 0, -1),   // x3: -1
                               lui(4, 0x80000), addi(4, 4, -1)};  // x4: INT_MAX
    for (int r = 5; r < 12; ++r) p.push_back(lui(uint32_t(r), uint32_t(rng_()) & 0xFFFFF));
    while (p.size() < n) p.push_back(instruction(unsigned(p.size()), n));
    return p;
  }

 private:
  uint32_t reg() { return rng_() % 4 == 0 ? uint32_t(rng_() % 32) : uint32_t(rng_() % 12); }
  int32_t imm12() { return rng_() % 2 ? int32_t(rng_() % 4096) - 2048 : int32_t(rng_() % 64) - 32; }
  // A branch or jump offset to an instruction of the program (or, rarely, a misaligned one).
  int32_t offset(unsigned at, unsigned n) {
    const int32_t to = int32_t(rng_() % n);
    return (to - int32_t(at)) * 4 + (rng_() % 64 == 0 ? 2 : 0);
  }

  uint32_t instruction(unsigned at, unsigned n) {
    static constexpr uint32_t kCsrs[] = {0x300, 0x301, 0x305, 0x340, 0x341, 0x342, 0x343, 0xB00, 0xB80,
                                         0xB02, 0xB82, 0xC00, 0xC80, 0xC02, 0xC82, 0xF11, 0xF12, 0xF13,
                                         0xF14, 0x001, 0x003, 0x7C0, 0x344};
    const uint32_t f3 = uint32_t(rng_() % 8);
    switch (rng_() % 16) {
      case 0: case 1: case 2: {  // OP-IMM: shifts with every shamt, and sometimes a bad funct7
        int32_t imm = imm12();
        if (f3 == 1 || f3 == 5) imm = int32_t(rng_() % 32) | (rng_() % 2 ? 0x400 : 0) | (rng_() % 32 == 0 ? 0x800 : 0);
        return i_type(imm, reg(), f3, reg(), 0x13);
      }
      case 3: case 4: {  // OP: base, with sub/sra and sometimes a reserved funct7
        const uint32_t f7 = rng_() % 3 == 0 ? 0x20 : rng_() % 32 == 0 ? uint32_t(rng_() % 128) : 0;
        return op(f7, f3, reg(), reg(), reg());
      }
      case 5: return op(1, f3, reg(), reg(), reg());  // M
      case 6: return rng_() % 2 ? lui(reg(), uint32_t(rng_()) & 0xFFFFF) : u_type(uint32_t(rng_()) & 0xFFFFF, reg(), 0x17);
      case 7: {  // loads from the data half, mostly aligned
        const uint32_t sizes[] = {0, 1, 2, 4, 5};
        const uint32_t lf3 = rng_() % 16 == 0 ? f3 : sizes[rng_() % 5];
        const int32_t off = int32_t(rng_() % 512) * (rng_() % 8 == 0 ? 1 : 4) - 1024;
        return i_type(off, rng_() % 8 == 0 ? reg() : 1, lf3, reg(), 0x03);
      }
      case 8: {  // stores into the data half
        const uint32_t sf3 = rng_() % 16 == 0 ? f3 : uint32_t(rng_() % 3);
        const int32_t off = int32_t(rng_() % 512) * (rng_() % 8 == 0 ? 1 : 4) - 1024;
        return s_type(off, reg(), rng_() % 8 == 0 ? reg() : 1, sf3, 0x23);
      }
      case 9: return b_type(offset(at, n), reg(), reg(), f3);
      case 10: return rng_() % 2 ? j_type(offset(at, n), reg())
                                 : i_type(int32_t(rng_() % n) * 4 + (rng_() % 32 == 0 ? 2 : 0), 2, 0, reg(), 0x67);
      case 11: {  // CSRs: present, absent and read-only ones, every operation
        const uint32_t csr = kCsrs[rng_() % std::size(kCsrs)];
        return uint32_t(csr) << 20 | reg() << 15 | (f3 == 0 || f3 == 4 ? 1 : f3) << 12 | reg() << 7 | 0x73;
      }
      case 12: return rng_() % 4 == 0 ? 0x0FF0000Fu | (rng_() % 2) << 12 : addi(reg(), reg(), imm12());  // fence(.i)
      case 13: {  // rare: ecall, ebreak, a word with random fields
        const uint32_t pick = uint32_t(rng_() % 16);
        if (pick == 0) return 0x00000073u;
        if (pick == 1) return 0x00100073u;
        if (pick == 2) return uint32_t(rng_());
        return addi(reg(), reg(), imm12());
      }
      default: return addi(reg(), reg(), imm12());
    }
  }

  std::mt19937_64& rng_;
};

TEST(GpsimdRtl, RandomInstructionStreamsInLockStep) {
  auto rng = test::make_rng();
  const uint64_t programs = test::random_count("TERN_GPSIMD_PROGRAMS", 300, 5000);
  StreamGen gen(rng);
  uint64_t retired = 0, faults = 0;
  for (uint64_t i = 0; i < programs; ++i) {
    Pair p(gen.program(64 + unsigned(rng() % 192)));
    const tb::LockstepEnd end = p.run(2000);
    ASSERT_EQ(end.mismatch, "") << "program " << i << " (TERN_SEED=" << test::test_seed() << ")";
    ASSERT_FALSE(p.rtl.assertion_failed()) << "program " << i;
    retired += end.retired;
    faults += end.exception ? 1 : 0;
  }
  fmt::print("{} programs, {} instructions in lock-step, {} ended in an exception\n", programs, retired, faults);
  EXPECT_GT(retired, programs * 20) << "the streams should run on, not fault at once";
}

TEST(GpsimdRtl, CodeWrittenJustAheadIsTheCodeThatRuns) {
  // x1 = the base; x6 = `addi x5, x0, 2`; sw x6 over the instruction after the store, which
  // says `addi x5, x0, 1`: both run the new one (the RTL refetches what it had in flight).
  const uint32_t new_insn = addi(5, 0, 2);
  const std::vector<uint32_t> words = {lui(1, 0x80000), lui(6, new_insn >> 12), addi(6, 6, int32_t(new_insn & 0xFFF)),
                                       s_type(16, 6, 1, 2, 0x23), addi(5, 0, 1), addi(7, 5, 0)};
  ASSERT_EQ(new_insn & 0x800u, 0u) << "the lui/addi pair assumes a positive low part";
  Pair p(words);
  EXPECT_EQ(p.run(words.size()).mismatch, "");
  EXPECT_EQ(p.iss.x(7), 2u);
  EXPECT_FALSE(p.rtl.assertion_failed());
}

TEST(GpsimdRtl, ExceptionsMatchTheIss) {
  // Each program's last instruction faults: the same cause, pc and tval on both.
  const std::vector<std::vector<uint32_t>> programs = {
      {0x00000000u},                                         // illegal
      {lui(1, 0x80000), i_type(2, 1, 2, 2, 0x03)},           // misaligned lw
      {lui(1, 0x90000), s_type(0, 0, 1, 0, 0x23)},           // sb outside memory
      {j_type(6, 0)},                                        // jump to a misaligned target
      {i_type(0xC00, 1, 1, 1, 0x73)},                        // csrrw of read-only cycle
      {0x00000073u},                                         // ecall
      {lui(1, 0x80010), i_type(0, 1, 0, 0, 0x67)},           // jalr past the end of memory
  };
  for (size_t i = 0; i < programs.size(); ++i) {
    Pair p(programs[i]);
    const tb::LockstepEnd end = p.run(100);
    EXPECT_EQ(end.mismatch, "") << "program " << i;
    ASSERT_TRUE(end.exception) << "program " << i;
    EXPECT_FALSE(p.rtl.assertion_failed());
  }
}

}  // namespace
}  // namespace tern
