// ELF32 reading with the system's <elf.h> layouts; every offset and size is checked against the
// file before it is used.
#include "gpsimd/elf_image.h"

#include <elf.h>
#include <fmt/format.h>

#include <cstring>

#include "common/error.h"
#include "common/input.h"

namespace tern::gpsimd {
namespace {

constexpr size_t kMaxElfBytes = size_t(64) << 20;  // far above any local-memory image

class Reader {
 public:
  Reader(const std::string& bytes, const std::string& path) : bytes_(bytes), path_(path) {}

  [[noreturn]] void fail(const std::string& why) const {
    throw Error(fmt::format("{}: not a GPSIMD program: {}", path_, why));
  }

  template <typename T>
  T at(uint64_t offset, const char* what) const {
    if (offset + sizeof(T) > bytes_.size()) {
      fail(fmt::format("the {} at byte {} lies past the end of the file ({} bytes)", what, offset, bytes_.size()));
    }
    T v;
    std::memcpy(&v, bytes_.data() + offset, sizeof v);
    return v;
  }

  void check_range(uint64_t offset, uint64_t size, const std::string& what) const {
    if (offset + size > bytes_.size()) {
      fail(fmt::format("{} (bytes {}..{}) lies past the end of the file ({} bytes)", what, offset,
                       offset + size, bytes_.size()));
    }
  }

  std::string c_string(uint64_t table, uint64_t table_size, uint64_t index) const {
    if (index >= table_size) fail(fmt::format("a symbol name at {} lies outside its string table", index));
    const char* start = bytes_.data() + table + index;
    const size_t n = strnlen(start, size_t(table_size - index));
    if (n == table_size - index) fail("a symbol name is not terminated inside its string table");
    return std::string(start, n);
  }

  const std::string& bytes() const { return bytes_; }

 private:
  const std::string& bytes_;
  const std::string& path_;
};

void check_header(const Reader& r, const Elf32_Ehdr& h) {
  if (std::memcmp(h.e_ident, ELFMAG, SELFMAG) != 0) r.fail("no ELF magic number");
  if (h.e_ident[EI_CLASS] != ELFCLASS32) {
    r.fail("a 64-bit ELF; GPSIMD cores are RV32 (compile with -march=rv32imf -mabi=ilp32f)");
  }
  if (h.e_ident[EI_DATA] != ELFDATA2LSB) r.fail("a big-endian ELF; RISC-V is little-endian");
  if (h.e_machine != EM_RISCV) r.fail(fmt::format("ELF machine {} is not RISC-V ({})", h.e_machine, EM_RISCV));
  if (h.e_type != ET_EXEC) r.fail("not an executable (a relocatable object or shared library?): link it first");
  if ((h.e_flags & EF_RISCV_RVC) != 0) {
    r.fail("built for the C (compressed) extension, which the cores do not have (use -march=rv32imf)");
  }
  const uint32_t float_abi = h.e_flags & EF_RISCV_FLOAT_ABI;
  if (float_abi == EF_RISCV_FLOAT_ABI_DOUBLE || float_abi == EF_RISCV_FLOAT_ABI_QUAD) {
    r.fail("built for a double- or quad-precision float ABI; the cores have F only (use -mabi=ilp32f)");
  }
  if (h.e_phnum != 0 && h.e_phentsize != sizeof(Elf32_Phdr)) r.fail("program headers of an unexpected size");
  if (h.e_shnum != 0 && h.e_shentsize != sizeof(Elf32_Shdr)) r.fail("section headers of an unexpected size");
}

std::vector<ElfSegment> read_segments(const Reader& r, const Elf32_Ehdr& h) {
  std::vector<ElfSegment> segments;
  uint64_t total = 0;
  for (unsigned i = 0; i < h.e_phnum; ++i) {
    const auto ph = r.at<Elf32_Phdr>(uint64_t(h.e_phoff) + uint64_t(i) * sizeof(Elf32_Phdr), "program header");
    if (ph.p_type != PT_LOAD || ph.p_memsz == 0) continue;
    if (ph.p_filesz > ph.p_memsz) r.fail(fmt::format("segment {} has more file bytes than memory bytes", i));
    r.check_range(ph.p_offset, ph.p_filesz, fmt::format("segment {}", i));
    total += ph.p_memsz;
    if (total > kMaxElfBytes) {
      r.fail(fmt::format("segments 0..{} hold {} bytes, more than any local memory", i, total));
    }
    ElfSegment s;
    s.addr = ph.p_paddr;
    s.bytes.assign(r.bytes().begin() + ph.p_offset, r.bytes().begin() + ph.p_offset + ph.p_filesz);
    s.bytes.resize(ph.p_memsz, 0);
    segments.push_back(std::move(s));
  }
  if (segments.empty()) r.fail("no loadable segment");
  return segments;
}

std::map<std::string, uint32_t> read_symbols(const Reader& r, const Elf32_Ehdr& h) {
  std::map<std::string, uint32_t> symbols;
  for (unsigned i = 0; i < h.e_shnum; ++i) {
    const auto sh = r.at<Elf32_Shdr>(uint64_t(h.e_shoff) + uint64_t(i) * sizeof(Elf32_Shdr), "section header");
    if (sh.sh_type != SHT_SYMTAB) continue;
    if (sh.sh_link >= h.e_shnum) r.fail("the symbol table names no string table");
    const auto strtab = r.at<Elf32_Shdr>(uint64_t(h.e_shoff) + uint64_t(sh.sh_link) * sizeof(Elf32_Shdr),
                                         "section header");
    if (strtab.sh_type != SHT_STRTAB) r.fail("the symbol table's string table is no string table");
    r.check_range(sh.sh_offset, sh.sh_size, "the symbol table");
    r.check_range(strtab.sh_offset, strtab.sh_size, "the symbol string table");
    for (uint64_t off = 0; off + sizeof(Elf32_Sym) <= sh.sh_size; off += sizeof(Elf32_Sym)) {
      const auto sym = r.at<Elf32_Sym>(sh.sh_offset + off, "symbol");
      const unsigned type = ELF32_ST_TYPE(sym.st_info);
      if (sym.st_shndx == SHN_UNDEF || sym.st_name == 0 || type == STT_SECTION || type == STT_FILE) continue;
      // A global definition wins over a local one of the same name (a `static tohost`).
      const std::string name = r.c_string(strtab.sh_offset, strtab.sh_size, sym.st_name);
      if (ELF32_ST_BIND(sym.st_info) == STB_GLOBAL) symbols[name] = sym.st_value;
      else symbols.emplace(name, sym.st_value);
    }
  }
  return symbols;
}

}  // namespace

std::optional<uint32_t> ElfImage::symbol(const std::string& name) const {
  const auto it = symbols.find(name);
  if (it == symbols.end()) return std::nullopt;
  return it->second;
}

ElfImage parse_elf(const std::string& bytes, const std::string& path) {
  const Reader r(bytes, path);
  if (bytes.size() < sizeof(Elf32_Ehdr)) r.fail(fmt::format("{} bytes is shorter than an ELF header", bytes.size()));
  const auto h = r.at<Elf32_Ehdr>(0, "ELF header");
  check_header(r, h);
  ElfImage image;
  image.path = path;
  image.entry = h.e_entry;
  image.single_float_abi = (h.e_flags & EF_RISCV_FLOAT_ABI) == EF_RISCV_FLOAT_ABI_SINGLE;
  image.segments = read_segments(r, h);
  image.symbols = read_symbols(r, h);
  return image;
}

ElfImage load_elf_file(const std::string& path) {
  return parse_elf(read_input_file(path, "GPSIMD program", kMaxElfBytes), path);
}

}  // namespace tern::gpsimd
