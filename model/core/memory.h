// The golden core's memories (docs/core-model.md): HBM as a byte store, SBUF as P partitions of
// S bytes, PSUM as P partitions of banks x bank bytes; and the address generation of access
// patterns and DMA descriptor sides, with the range and alignment rules that make an operand
// legal.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/config.h"
#include "common/error.h"
#include "core/fault.h"
#include "isa/isa.h"

namespace tern::core {

class Hbm {
 public:
  explicit Hbm(uint64_t bytes) : data_(bytes, 0) {}
  uint64_t size() const { return data_.size(); }
  // Throw tern::Error naming the first byte outside HBM.
  void read(uint64_t addr, void* dst, uint64_t bytes) const;
  void write(uint64_t addr, const void* src, uint64_t bytes);
  uint32_t read_u32(uint64_t addr) const;
  void write_u32(uint64_t addr, uint32_t v);

 private:
  void check(uint64_t addr, uint64_t bytes, const char* what) const;
  std::vector<uint8_t> data_;
};

// What one scrub of an on-chip memory finds (docs/ecc.md "Scrub"): the words (4 aligned bytes of
// a partition) with a corrected error and no uncorrectable one, the words with an uncorrectable
// one, and the first of those in scrub order (word address, then partition).
struct EccScrub {
  uint32_t corrected = 0, uncorrectable = 0;
  std::optional<std::pair<uint32_t, uint32_t>> first_uncorrectable;  // (partition, byte offset)
};

// One on-chip memory: partitions x bytes_per_partition, little-endian elements. Each byte is
// stored as a SECDED codeword (docs/ecc.md): the model keeps the data and, for the bytes whose
// stored codeword differs from the data's (an injected error), the bits that differ; a load
// returns what the RTL's decoder returns for them.
class OnChipMemory {
 public:
  OnChipMemory(const char* name, uint32_t partitions, uint32_t bytes_per_partition)
      : name_(name), partitions_(partitions), bytes_(bytes_per_partition),
        data_(uint64_t(partitions) * bytes_per_partition, 0) {}
  const char* name() const { return name_; }
  uint32_t partitions() const { return partitions_; }
  uint32_t partition_bytes() const { return bytes_; }
  // Element of `bytes` bytes (1, 2 or 4) at (partition, offset); the caller has range-checked.
  uint32_t load(uint32_t partition, uint32_t offset, uint32_t bytes) const;
  void store(uint32_t partition, uint32_t offset, uint32_t bytes, uint32_t value);
  // ECC_CTRL.arm (docs/csr.md): the next store to byte `offset` of `partition` stores its
  // codeword with the bits of `flip` inverted. Throws tern::Error naming a partition, offset or
  // flip mask out of range.
  void arm_injection(uint32_t partition, uint32_t offset, uint16_t flip);
  bool injection_armed() const { return armed_.has_value(); }
  // ECC_CTRL.scrub on an idle core: every word checked, nothing changed.
  EccScrub scrub() const;

 private:
  struct Injection {
    uint32_t partition, offset;
    uint16_t flip;
  };
  uint64_t index(uint32_t partition, uint32_t offset) const {
    return uint64_t(partition) * bytes_ + offset;
  }
  uint8_t read_byte(uint64_t at) const;
  void write_byte(uint32_t partition, uint32_t offset, uint8_t value);

  const char* name_;
  uint32_t partitions_, bytes_;
  std::vector<uint8_t> data_;
  std::map<uint64_t, uint16_t> flipped_;  // byte index -> inverted codeword bits
  std::optional<Injection> armed_;
};

uint32_t dtype_bytes(Dtype t);

// Where an operand's bytes lie: partitions start + i * step (i < count), and in each of them
// the same sorted, merged byte intervals [first, second).
struct Footprint {
  isa::Space space = isa::Space::kSbuf;
  uint32_t pstart = 0, pstep = 1, pcount = 0;
  std::vector<std::pair<uint32_t, uint32_t>> bytes;
  bool overlaps(const Footprint& o) const;
};

// A resolved access pattern: its element offsets in free-pattern order (d0 outermost).
struct ResolvedAp {
  isa::Mem mem = isa::Mem::kSbuf;
  Dtype dtype = Dtype::kFp32;
  uint32_t start = 0, partitions = 0;
  uint32_t elem_bytes = 4;
  std::vector<uint32_t> offsets;  // byte offset of each free element inside a partition
  Footprint footprint() const;
};

// NKI's start-partition rule scaled to P (quadrant q = P / 4, at least 1): a range of more
// than 2q partitions starts at 0; more than q starts at 0 or 2q; else at a multiple of q.
bool start_partition_allowed(uint32_t start, uint32_t count, uint32_t partitions);

// Resolves an engine operand; `base` is the value of its base register. Throws tern::Error
// with `what` ("ap1") and the rule broken: partitions past P, misaligned start partition or
// byte offset, a dimension of size 0, an element outside the partition.
ResolvedAp resolve_ap(const isa::AccessPattern& ap, uint32_t base, const OnChipMemory& mem,
                      uint32_t core_partitions, const std::string& what);

// A resolved DMA descriptor side: element addresses (HBM byte addresses, or partition and
// byte offset) in pattern order.
struct ResolvedSide {
  isa::Space space = isa::Space::kHbm;
  Dtype dtype = Dtype::kFp32;
  uint32_t elem_bytes = 4;
  std::vector<uint64_t> hbm;                          // HBM side
  std::vector<std::pair<uint32_t, uint32_t>> onchip;  // (partition, byte offset)
  Footprint footprint() const;                        // on-chip sides only
};
// A descriptor side that fails a check: which one, as the source side's detail
// (DmaDetail::kSrcZeroDim .. kSrcOffset; a destination's is the same check shifted).
class DmaSideError : public Error {
 public:
  DmaSideError(DmaDetail check, const std::string& what) : Error(what), check_(check) {}
  DmaDetail check() const { return check_; }

 private:
  DmaDetail check_;
};

// Throws DmaSideError for the first check the side fails, in DmaDetail's order.
ResolvedSide resolve_side(const isa::DescSide& side, uint64_t add, const Hbm& hbm,
                          const OnChipMemory* mem, const std::string& what);

}  // namespace tern::core
