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
#include "gpsimd_streams.h"
#include "rv_encode.h"
#include "test_util.h"

namespace tern {
namespace {

using namespace rv;  // NOLINT(google-build-using-namespace): the encoders

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

TEST(GpsimdRtl, RandomInstructionStreamsInLockStep) {
  auto rng = test::make_rng();
  const uint64_t programs = test::random_count("TERN_GPSIMD_PROGRAMS", 300, 5000);
  tb::GpsimdStreams gen(rng);
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
