// Random RV32IM + Zicsr instruction streams for a GPSIMD core, for the lock-step of its RTL with
// the ISS (tests/test_gpsimd_rtl.cc, the waveform regression's gpsimd bench): every instruction
// class with fields over their whole range, biased so that programs run on rather than fault at
// once.
#pragma once

#include <cstdint>
#include <iterator>
#include <random>
#include <vector>

#include "rv_encode.h"

namespace tern::tb {

// A prologue puts interesting values in registers, then a mix of every class.
class GpsimdStreams {
 public:
  explicit GpsimdStreams(std::mt19937_64& rng) : rng_(rng) {}

  std::vector<uint32_t> program(unsigned n) {
    std::vector<uint32_t> p = {rv::lui(1, 0x80008),  // x1: the data half of local memory
                               rv::lui(2, 0x80000),  // x2: INT_MIN, and the code's base
                               rv::addi(3, 0, -1),   // x3: -1
                               rv::lui(4, 0x80000), rv::addi(4, 4, -1)};  // x4: INT_MAX
    for (int r = 5; r < 12; ++r) p.push_back(rv::lui(uint32_t(r), uint32_t(rng_()) & 0xFFFFF));
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
        return rv::i_type(imm, reg(), f3, reg(), 0x13);
      }
      case 3: case 4: {  // OP: base, with sub/sra and sometimes a reserved funct7
        const uint32_t f7 = rng_() % 3 == 0 ? 0x20 : rng_() % 32 == 0 ? uint32_t(rng_() % 128) : 0;
        return rv::op(f7, f3, reg(), reg(), reg());
      }
      case 5: return rv::op(1, f3, reg(), reg(), reg());  // M
      case 6: return rng_() % 2 ? rv::lui(reg(), uint32_t(rng_()) & 0xFFFFF) : rv::u_type(uint32_t(rng_()) & 0xFFFFF, reg(), 0x17);
      case 7: {  // loads from the data half, mostly aligned
        const uint32_t sizes[] = {0, 1, 2, 4, 5};
        const uint32_t lf3 = rng_() % 16 == 0 ? f3 : sizes[rng_() % 5];
        const int32_t off = int32_t(rng_() % 512) * (rng_() % 8 == 0 ? 1 : 4) - 1024;
        return rv::i_type(off, rng_() % 8 == 0 ? reg() : 1, lf3, reg(), 0x03);
      }
      case 8: {  // stores into the data half
        const uint32_t sf3 = rng_() % 16 == 0 ? f3 : uint32_t(rng_() % 3);
        const int32_t off = int32_t(rng_() % 512) * (rng_() % 8 == 0 ? 1 : 4) - 1024;
        return rv::s_type(off, reg(), rng_() % 8 == 0 ? reg() : 1, sf3, 0x23);
      }
      case 9: return rv::b_type(offset(at, n), reg(), reg(), f3);
      case 10: return rng_() % 2 ? rv::j_type(offset(at, n), reg())
                                 : rv::i_type(int32_t(rng_() % n) * 4 + (rng_() % 32 == 0 ? 2 : 0), 2, 0, reg(), 0x67);
      case 11: {  // CSRs: present, absent and read-only ones, every operation
        const uint32_t csr = kCsrs[rng_() % std::size(kCsrs)];
        return uint32_t(csr) << 20 | reg() << 15 | (f3 == 0 || f3 == 4 ? 1 : f3) << 12 | reg() << 7 | 0x73;
      }
      case 12: return rng_() % 4 == 0 ? 0x0FF0000Fu | (rng_() % 2) << 12 : rv::addi(reg(), reg(), imm12());  // fence(.i)
      case 13: {  // rare: ecall, ebreak, a word with random fields
        const uint32_t pick = uint32_t(rng_() % 16);
        if (pick == 0) return 0x00000073u;
        if (pick == 1) return 0x00100073u;
        if (pick == 2) return uint32_t(rng_());
        return rv::addi(reg(), reg(), imm12());
      }
      default: return rv::addi(reg(), reg(), imm12());
    }
  }

  std::mt19937_64& rng_;
};

}  // namespace tern::tb
