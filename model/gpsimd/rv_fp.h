// The F extension's arithmetic (RISC-V unprivileged ISA, chapter "F"): binary32 operations
// under the five rounding modes with the five exception flags. Written from the ISA manual and
// IEEE 754-2019 in exact integer arithmetic; under round-to-nearest-even every result equals the
// project's fp32 numerics (model/numerics), which tests/test_gpsimd_fp.cc holds it to, together
// with the host's IEEE unit for the directed modes and the flags.
#pragma once

#include <cstdint>

namespace tern::gpsimd {

// The rm field / frm CSR encoding of the ISA manual; 5 and 6 are reserved, 7 is "dynamic".
enum class RoundingMode : uint8_t { kRne = 0, kRtz = 1, kRdn = 2, kRup = 3, kRmm = 4 };

// fflags bits (fcsr[4:0]).
namespace fflags {
constexpr uint8_t kInexact = 1u << 0;    // NX
constexpr uint8_t kUnderflow = 1u << 1;  // UF: tiny after rounding and inexact
constexpr uint8_t kOverflow = 1u << 2;   // OF
constexpr uint8_t kDivByZero = 1u << 3;  // DZ
constexpr uint8_t kInvalid = 1u << 4;    // NV
}  // namespace fflags

// A result: binary32 bits (or the integer result of a compare or conversion) and the flags raised.
struct FpResult {
  uint32_t bits = 0;
  uint8_t flags = 0;
};

constexpr uint32_t kCanonicalNaN = 0x7FC00000u;

FpResult fadd(uint32_t a, uint32_t b, RoundingMode rm);
FpResult fsub(uint32_t a, uint32_t b, RoundingMode rm);
FpResult fmul(uint32_t a, uint32_t b, RoundingMode rm);
FpResult fdiv(uint32_t a, uint32_t b, RoundingMode rm);
FpResult fsqrt(uint32_t a, RoundingMode rm);
// (a * b) + c with one rounding; negate_product and negate_addend give fmsub, fnmsub, fnmadd.
// inf * 0 is invalid even when c is a quiet NaN (as the manual requires).
FpResult fmadd(uint32_t a, uint32_t b, uint32_t c, RoundingMode rm, bool negate_product = false,
               bool negate_addend = false);

// minimumNumber / maximumNumber: a NaN operand yields the other operand, two NaNs the canonical
// NaN, a signalling NaN raises NV; -0 < +0.
FpResult fmin(uint32_t a, uint32_t b);
FpResult fmax(uint32_t a, uint32_t b);

// Compares (bits = 0 or 1): feq is quiet (NV only on a signalling NaN), flt and fle signal NV
// on any NaN.
FpResult feq(uint32_t a, uint32_t b);
FpResult flt(uint32_t a, uint32_t b);
FpResult fle(uint32_t a, uint32_t b);

// fcvt.w.s / fcvt.wu.s: rounded by rm; NaN, infinities and out-of-range values give the
// manual's saturated result with NV (and no NX).
FpResult fcvt_w_s(uint32_t a, RoundingMode rm);
FpResult fcvt_wu_s(uint32_t a, RoundingMode rm);
// fcvt.s.w / fcvt.s.wu.
FpResult fcvt_s_w(uint32_t x, RoundingMode rm);
FpResult fcvt_s_wu(uint32_t x, RoundingMode rm);

// fclass.s: one of the ten class bits.
uint32_t fclass(uint32_t a);

}  // namespace tern::gpsimd
