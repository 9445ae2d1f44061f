// A bare-metal RV32 ELF executable as a GPSIMD core runs it (docs/gpsimd.md "Programs"): its
// loadable segments, entry point and symbols. Read strictly: anything a core cannot run (another
// machine or class, the C or D extension's ABI, a segment outside local memory, a truncated
// file) is an error naming the file and the reason.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tern::gpsimd {

struct ElfSegment {
  uint32_t addr = 0;
  std::vector<uint8_t> bytes;  // file bytes, then zeros up to the segment's memory size
};

struct ElfImage {
  std::string path;
  uint32_t entry = 0;
  std::vector<ElfSegment> segments;
  std::map<std::string, uint32_t> symbols;  // defined symbols' values
  bool single_float_abi = false;            // built for ilp32f: it expects the F extension

  std::optional<uint32_t> symbol(const std::string& name) const;
};

// Parses an ELF file's bytes (`path` names it in errors).
ElfImage parse_elf(const std::string& bytes, const std::string& path);
ElfImage load_elf_file(const std::string& path);

}  // namespace tern::gpsimd
