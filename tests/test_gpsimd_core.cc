// One GPSIMD core's instruction-set simulator (model/gpsimd/rv_core.h) on hand-encoded
// instructions: results the RISC-V manuals define (M-extension corner cases, x0, CSRs), every
// kind of exception with its cause, pc and address, reserved encodings as illegal instructions,
// and the cycle estimate's stalls (docs/gpsimd.md). Whole programs built with the RISC-V
// toolchain run in tests/gpsimd_cli_test.sh.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <regex>
#include <string>

#include "common/error.h"
#include "gpsimd/rv_core.h"
#include "rv_encode.h"

namespace tern::gpsimd {
namespace {

using namespace rv;  // NOLINT(google-build-using-namespace): the encoders
constexpr uint32_t kBase = 0x80000000u;

class GpsimdCore : public ::testing::Test {
 protected:
  // Places the program at the base and runs it to its end (or the first exception).
  Core::Step run(std::initializer_list<uint32_t> words) {
    std::vector<uint8_t> bytes;
    for (uint32_t w : words) {
      for (int k = 0; k < 4; ++k) bytes.push_back(uint8_t(w >> (8 * k)));
    }
    core.write_memory(kBase, bytes);
    core.set_pc(kBase);
    Core::Step s;
    for (size_t i = 0; i < words.size(); ++i) {
      s = core.step();
      if (s.exception) break;
    }
    return s;
  }
  Core core{CoreConfig{}};
};

TEST_F(GpsimdCore, RegisterZeroStaysZero) {
  const Core::Step s = run({addi(0, 0, 5)});
  EXPECT_EQ(core.x(0), 0u);
  EXPECT_EQ(s.retired->dest, Retire::Dest::kNone);  // no register write retires
}

TEST_F(GpsimdCore, DivisionCornerCasesAreTheManuals) {
  // x1 = 7, x2 = 0, x3 = INT_MIN, x4 = -1
  run({addi(1, 0, 7), addi(2, 0, 0), lui(3, 0x80000), addi(4, 0, -1),
       op(1, 4, 5, 1, 2),    // div x5 = 7 / 0 = -1
       op(1, 5, 6, 1, 2),    // divu x6 = 2^32 - 1
       op(1, 6, 7, 1, 2),    // rem x7 = 7
       op(1, 4, 8, 3, 4),    // div INT_MIN / -1 = INT_MIN
       op(1, 6, 9, 3, 4),    // rem INT_MIN % -1 = 0
       op(1, 1, 10, 3, 4),   // mulh INT_MIN * -1 = 2^31: high word 0
       op(1, 3, 11, 4, 4),   // mulhu (2^32-1)^2: high word 2^32 - 2
       op(1, 2, 12, 4, 3)}); // mulhsu -1 * 2^31 (unsigned): high word -1
  EXPECT_EQ(core.x(5), 0xFFFFFFFFu);
  EXPECT_EQ(core.x(6), 0xFFFFFFFFu);
  EXPECT_EQ(core.x(7), 7u);
  EXPECT_EQ(core.x(8), 0x80000000u);
  EXPECT_EQ(core.x(9), 0u);
  EXPECT_EQ(core.x(10), 0u);
  EXPECT_EQ(core.x(11), 0xFFFFFFFEu);
  EXPECT_EQ(core.x(12), 0xFFFFFFFFu);
}

TEST_F(GpsimdCore, ReservedEncodingsAreIllegal) {
  const uint32_t bad[] = {
      0x00000000u,                       // all zeros (defined illegal)
      op(0x01 << 1, 0, 1, 2, 3),         // add with an undefined funct7
      op(0x20, 1, 1, 2, 3),              // "sub" form of sll
      i_type(0x400 | 3, 2, 1, 1, 0x13),  // slli with shamt[5] set (RV64's encoding)
      i_type(0, 2, 3, 1, 0x03),          // ld: RV64 only
      s_type(0, 2, 1, 3, 0x23),          // sd: RV64 only
      r_type(0x01, 2, 1, 0, 3, 0x53),    // fadd.d: no D extension
      r_type(0x00, 2, 1, 5, 3, 0x53),    // fadd.s with the reserved rm 5
      r_type(0x2C, 1, 1, 0, 3, 0x53),    // fsqrt.s with rs2 != 0
      i_type(0x7C0, 0, 1, 1, 0x73),      // csrrw of an absent CSR
      i_type(0xC00, 1, 1, 1, 0x73),      // csrrw of the read-only cycle CSR
      0x30200073u,                       // mret: a core takes no traps
      0x10500073u | (1u << 7),           // wfi with rd != 0
      i_type(0xC01, 0, 2, 1, 0x73),      // csrr of time: no timer
      i_type(0xF15, 1, 1, 1, 0x73),      // csrrw of the read-only mconfigptr
  };
  for (uint32_t insn : bad) {
    Core c{CoreConfig{}};
    std::vector<uint8_t> bytes{uint8_t(insn), uint8_t(insn >> 8), uint8_t(insn >> 16), uint8_t(insn >> 24)};
    c.write_memory(kBase, bytes);
    c.set_pc(kBase);
    const Core::Step s = c.step();
    ASSERT_TRUE(s.exception) << std::hex << insn;
    EXPECT_EQ(s.exception->cause, Cause::kIllegalInstruction) << std::hex << insn;
    EXPECT_EQ(s.exception->tval, insn);
    EXPECT_EQ(s.exception->pc, kBase);
  }
}

TEST_F(GpsimdCore, ExceptionsNameCausePcAndAddress) {
  // x1 = base + 2: a misaligned word load
  Core::Step s = run({lui(1, 0x80000), addi(1, 1, 2), i_type(0, 1, 2, 2, 0x03)});
  ASSERT_TRUE(s.exception);
  EXPECT_EQ(s.exception->cause, Cause::kMisalignedLoad);
  EXPECT_EQ(s.exception->pc, kBase + 8);
  EXPECT_EQ(s.exception->tval, kBase + 2);
  EXPECT_NE(describe(*s.exception).find("misaligned load (mcause 4) at pc 0x80000008: address 0x80000002"),
            std::string::npos) << describe(*s.exception);
  EXPECT_TRUE(core.step().exception) << "a stopped core stays stopped";

  Core c2{CoreConfig{}};
  std::swap(core, c2);
  s = run({lui(1, 0x80010), s_type(0, 0, 1, 2, 0x23)});  // sw x0, 0(base + 64 KiB)
  ASSERT_TRUE(s.exception);
  EXPECT_EQ(s.exception->cause, Cause::kStoreAccess);
  EXPECT_EQ(s.exception->tval, 0x80010000u);
}

TEST_F(GpsimdCore, EcallEbreakAndFetchOutsideMemoryStop) {
  EXPECT_EQ(run({0x00000073u}).exception->cause, Cause::kEcall);
  Core c{CoreConfig{}};
  c.set_pc(0x1000);
  EXPECT_EQ(c.step().exception->cause, Cause::kFetchAccess);
  Core d{CoreConfig{}};
  std::swap(core, d);
  EXPECT_EQ(run({0x00100073u}).exception->cause, Cause::kBreakpoint);
}

TEST_F(GpsimdCore, CsrsReadAndWriteAsSpecified) {
  run({addi(1, 0, 0x55), i_type(0x340, 1, 1, 2, 0x73),  // csrrw x2, mscratch, x1
       i_type(0x340, 0, 2, 3, 0x73),                     // csrrs x3, mscratch, x0 (read)
       i_type(0x301, 0, 2, 4, 0x73),                     // misa
       i_type(0xF14, 0, 2, 5, 0x73),                     // mhartid
       i_type(0xC02, 0, 2, 6, 0x73),                     // instret (counts before this one)
       i_type(0x002, 1, 5, 0, 0x73)});                   // csrrwi frm, 1 (uimm in rs1)
  EXPECT_EQ(core.x(2), 0u);
  EXPECT_EQ(core.x(3), 0x55u);
  EXPECT_EQ(core.x(4), 0x40001120u);  // RV32, I, M, F
  EXPECT_EQ(core.x(5), 0u);
  EXPECT_EQ(core.x(6), 5u);
  EXPECT_EQ(core.fcsr(), 1u << 5);
}

TEST_F(GpsimdCore, RequiredZeroCsrsReadZeroAndWfiIsANop) {
  // mip, mie, mstatush, mcountinhibit, mhpmcounter3, mhpmevent31, hpmcounter4, mconfigptr; a
  // write to the writable ones is ignored; wfi retires.
  run({addi(9, 0, -1), i_type(0x344, 9, 1, 1, 0x73), i_type(0x344, 0, 2, 2, 0x73), i_type(0x304, 0, 2, 3, 0x73),
       i_type(0x310, 0, 2, 4, 0x73), i_type(0x320, 9, 1, 0, 0x73), i_type(0xB03, 0, 2, 5, 0x73),
       i_type(0x33F, 0, 2, 6, 0x73), i_type(0xC04, 0, 2, 7, 0x73), i_type(0xF15, 0, 2, 8, 0x73), 0x10500073u});
  for (unsigned r = 1; r <= 8; ++r) EXPECT_EQ(core.x(r), 0u) << "x" << r;
  EXPECT_EQ(core.instret(), 11u);
}

TEST_F(GpsimdCore, FlagsAccrueAndDynamicRoundingUsesFrm) {
  // f1 = 1.0 (lui 0x3f800 -> fmv.w.x), f2 = 3.0; fdiv.s f3 = f1 / f2 with rm = dyn
  run({lui(1, 0x3F800), r_type(0x78, 0, 1, 0, 1, 0x53), lui(2, 0x40400), r_type(0x78, 0, 2, 0, 2, 0x53),
       i_type(0x002, 1, 5, 0, 0x73),              // frm = RTZ
       r_type(0x0C, 2, 1, 7, 3, 0x53)});          // fdiv.s f3, f1, f2, dyn
  EXPECT_EQ(core.f(3), 0x3EAAAAAAu);              // 1/3 toward zero (RNE gives ...AB)
  EXPECT_EQ(core.fcsr() & 0x1F, fflags::kInexact);
}

TEST_F(GpsimdCore, CycleEstimateIsTheRtlPipelines) {
  // Two cycles to the first EX, then lui, lw (one more: the memory port), add.
  EXPECT_EQ(core.cycles(), 2u);
  run({lui(1, 0x80000), i_type(0, 1, 2, 2, 0x03), op(0, 0, 3, 2, 2)});
  EXPECT_EQ(core.instret(), 3u);
  EXPECT_EQ(core.cycles(), 2u + 3u + 1u);
  Core c{CoreConfig{}};
  std::swap(core, c);
  run({addi(1, 0, 9), addi(2, 0, 2), op(1, 4, 3, 1, 2)});  // div: the M unit's 36 more
  EXPECT_EQ(core.cycles(), 2u + 3u + 36u);
  EXPECT_EQ(core.x(3), 4u);
  Core d{CoreConfig{}};
  std::swap(core, d);
  run({0x0080006Fu /* jal x0, +8 */, addi(1, 0, 1), addi(2, 0, 2)});  // a jump: 1 more
  EXPECT_EQ(core.cycles(), 2u + 2u + 1u);
  EXPECT_EQ(core.x(1), 0u);
}

TEST(GpsimdCoreConfig, WithoutFTheFpInstructionsAndCsrsAreIllegal) {
  CoreConfig cfg;
  cfg.has_f = false;
  for (uint32_t insn : {0x00000053u /* fadd.s f0,f0,f0 */, 0x00002007u /* flw f0,0(x0) */,
                        0x003020F3u /* csrr x1, fcsr */}) {
    Core c{cfg};
    c.write_memory(kBase, {uint8_t(insn), uint8_t(insn >> 8), uint8_t(insn >> 16), uint8_t(insn >> 24)});
    c.set_pc(kBase);
    const Core::Step s = c.step();
    ASSERT_TRUE(s.exception) << std::hex << insn;
    EXPECT_EQ(s.exception->cause, Cause::kIllegalInstruction) << std::hex << insn;
  }
}

// The RTL package's codes are checked against the ISS's definitions (rv_core.h), the one place
// they are written for C++: every cause's value, and the M unit's cycles.
TEST(GpsimdRtlPackage, HasTheIssCodes) {
  std::ifstream in(std::string(TERN_SOURCE_DIR) + "/rtl/gpsimd/tern_gpsimd_pkg.sv");
  ASSERT_TRUE(in) << "rtl/gpsimd/tern_gpsimd_pkg.sv";
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::smatch m;
  size_t found = 0;
  const std::regex cause(R"(Cause(\w+)\s*=\s*4'd(\d+))");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), cause);
       it != std::sregex_iterator(); ++it, ++found) {
    const std::string name = (*it)[1];
    const auto c = std::find_if(std::begin(kCauseNames), std::end(kCauseNames),
                                [&](const CauseName& n) { return name == n.name; });
    ASSERT_NE(c, std::end(kCauseNames)) << "the package's Cause" << name << " is no ISS cause";
    EXPECT_EQ(unsigned(c->cause), unsigned(std::stoul((*it)[2]))) << "Cause" << name;
  }
  EXPECT_EQ(found, std::size(kCauseNames)) << "every ISS cause in the package";
  ASSERT_TRUE(std::regex_search(text, m, std::regex(R"(MulDivSteps\s*=\s*(\d+);)")));
  const unsigned steps = unsigned(std::stoul(m[1]));
  ASSERT_TRUE(std::regex_search(text, m, std::regex(R"(MulDivCycles\s*=\s*MulDivSteps\s*\+\s*(\d+);)")));
  EXPECT_EQ(steps + unsigned(std::stoul(m[1])), kMulDivCycles);
}

TEST(GpsimdCoreConfig, LocalMemoryOutsideTheAddressSpaceIsAnError) {
  EXPECT_THROW(Core(CoreConfig{0xFFFF0000u, 0x20000u, 0}), Error);
  Core c{CoreConfig{}};
  EXPECT_THROW(c.write_memory(0x8000FFFEu, {1, 2, 3, 4}), Error);
}

}  // namespace
}  // namespace tern::gpsimd
