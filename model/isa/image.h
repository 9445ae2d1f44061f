// Where a program and its data go in HBM, defined once (docs/isa.md "Program image"): the data
// from address 0, each tensor from a 4 KiB boundary; the program from the first 4 KiB boundary
// after the data, its streams one after the other (each instruction 128 bytes), then the
// descriptor table, 64-byte aligned; HBM sized to the 4 KiB boundary after the image.
#pragma once

#include <fmt/format.h>

#include <array>
#include <cstdint>

#include "common/error.h"
#include "isa/isa.h"

namespace tern::isa {

constexpr uint64_t kImageAlign = 4096;
// The HBM a core addresses: its HBM_SIZE register is 32 bits wide (docs/csr.md).
constexpr uint64_t kHbmMaxBytes = uint64_t{1} << 32;

// `bytes` rounded up to the next 4 KiB boundary.
constexpr uint64_t image_align(uint64_t bytes) {
  return (bytes + kImageAlign - 1) / kImageAlign * kImageAlign;
}

struct CoreImage {
  std::array<uint32_t, kNumSeqs> prog_base{};
  uint32_t desc_base = 0;
  uint32_t end = 0;  // first byte after the image
};

inline CoreImage core_image_layout(const Program& p, uint32_t program_base) {
  if (program_base % kInstrBytes != 0)
    throw Error(fmt::format("core image: program base 0x{:x} is not {}-byte aligned", program_base,
                            kInstrBytes));
  CoreImage img;
  uint64_t at = program_base;
  for (int s = 0; s < kNumSeqs; ++s) {
    img.prog_base[size_t(s)] = uint32_t(at);
    at += p.streams[size_t(s)].size() * kInstrBytes;
  }
  const uint64_t desc_base = (at + kDescBytes - 1) / kDescBytes * kDescBytes;
  const uint64_t end = desc_base + p.descriptors.size() * kDescBytes;
  if (end >= kHbmMaxBytes)
    throw Error(fmt::format("core image: the program from 0x{:x} ends at byte {}, past the {} GiB "
                            "of HBM a core addresses", program_base, end, kHbmMaxBytes >> 30));
  img.desc_base = uint32_t(desc_base);
  img.end = uint32_t(end);
  return img;
}

// The program's base after `data_bytes` of data, and the HBM the whole image needs.
inline uint32_t image_program_base(uint64_t data_bytes) {
  if (image_align(data_bytes) >= kHbmMaxBytes)
    throw Error(fmt::format("core image: {} bytes of data leave no room for the program in the "
                            "{} GiB of HBM a core addresses", data_bytes, kHbmMaxBytes >> 30));
  return uint32_t(image_align(data_bytes));
}
inline uint64_t image_hbm_bytes(const Program& p, uint32_t program_base) {
  return image_align(core_image_layout(p, program_base).end);
}

}  // namespace tern::isa
