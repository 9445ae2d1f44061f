// RISC-V instruction encoders for the GPSIMD tests, written from the base formats' figures of
// the unprivileged manual (R, I, S, B, U, J).
#pragma once

#include <cstdint>

namespace tern::rv {

inline uint32_t r_type(uint32_t f7, uint32_t rs2, uint32_t rs1, uint32_t f3, uint32_t rd, uint32_t op) {
  return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}
inline uint32_t i_type(int32_t imm, uint32_t rs1, uint32_t f3, uint32_t rd, uint32_t op) {
  return uint32_t(imm & 0xFFF) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}
inline uint32_t s_type(int32_t imm, uint32_t rs2, uint32_t rs1, uint32_t f3, uint32_t op) {
  const uint32_t u = uint32_t(imm) & 0xFFF;
  return (u >> 5) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | (u & 0x1F) << 7 | op;
}
inline uint32_t b_type(int32_t imm, uint32_t rs2, uint32_t rs1, uint32_t f3) {
  const uint32_t u = uint32_t(imm) & 0x1FFE;
  return ((u >> 12) & 1) << 31 | ((u >> 5) & 0x3F) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 |
         ((u >> 1) & 0xF) << 8 | ((u >> 11) & 1) << 7 | 0x63;
}
inline uint32_t j_type(int32_t imm, uint32_t rd) {
  const uint32_t u = uint32_t(imm) & 0x1FFFFE;
  return ((u >> 20) & 1) << 31 | ((u >> 1) & 0x3FF) << 21 | ((u >> 11) & 1) << 20 | ((u >> 12) & 0xFF) << 12 |
         rd << 7 | 0x6F;
}
inline uint32_t u_type(uint32_t imm20, uint32_t rd, uint32_t op) { return imm20 << 12 | rd << 7 | op; }
inline uint32_t addi(uint32_t rd, uint32_t rs1, int32_t imm) { return i_type(imm, rs1, 0, rd, 0x13); }
inline uint32_t lui(uint32_t rd, uint32_t imm20) { return u_type(imm20, rd, 0x37); }
inline uint32_t op(uint32_t f7, uint32_t f3, uint32_t rd, uint32_t rs1, uint32_t rs2) {
  return r_type(f7, rs2, rs1, f3, rd, 0x33);
}

}  // namespace tern::rv
