#include "core/memory.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "common/error.h"
#include "core/ecc.h"

namespace tern::core {

void Hbm::check(uint64_t addr, uint64_t bytes, const char* what) const {
  if (addr > data_.size() || bytes > data_.size() - addr)
    throw Error(fmt::format("HBM {} of {} bytes at 0x{:x} is outside HBM (0x{:x} bytes)", what,
                            bytes, addr, data_.size()));
}

void Hbm::read(uint64_t addr, void* dst, uint64_t bytes) const {
  check(addr, bytes, "read");
  std::memcpy(dst, data_.data() + addr, bytes);
}

void Hbm::write(uint64_t addr, const void* src, uint64_t bytes) {
  check(addr, bytes, "write");
  std::memcpy(data_.data() + addr, src, bytes);
}

uint32_t Hbm::read_u32(uint64_t addr) const {
  uint8_t b[4];
  read(addr, b, 4);
  return uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24;
}

void Hbm::write_u32(uint64_t addr, uint32_t v) {
  const uint8_t b[4] = {uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)};
  write(addr, b, 4);
}

uint8_t OnChipMemory::read_byte(uint64_t at) const {
  const auto f = flipped_.find(at);
  if (f == flipped_.end()) return data_[at];
  return ecc::decode(ecc::encode(data_[at]) ^ f->second).data;
}

void OnChipMemory::write_byte(uint32_t partition, uint32_t offset, uint8_t value) {
  const uint64_t at = index(partition, offset);
  data_[at] = value;
  flipped_.erase(at);
  if (armed_ && armed_->partition == partition && armed_->offset == offset) {
    flipped_[at] = armed_->flip;
    armed_.reset();
  }
}

uint32_t OnChipMemory::load(uint32_t partition, uint32_t offset, uint32_t bytes) const {
  const uint64_t at = index(partition, offset);
  uint32_t v = 0;
  if (flipped_.empty()) {
    for (uint32_t i = 0; i < bytes; ++i) v |= uint32_t(data_[at + i]) << (8 * i);
    return v;
  }
  for (uint32_t i = 0; i < bytes; ++i) v |= uint32_t(read_byte(at + i)) << (8 * i);
  return v;
}

void OnChipMemory::store(uint32_t partition, uint32_t offset, uint32_t bytes, uint32_t value) {
  if (flipped_.empty() && !armed_) {
    uint8_t* p = &data_[index(partition, offset)];
    for (uint32_t i = 0; i < bytes; ++i) p[i] = uint8_t(value >> (8 * i));
    return;
  }
  for (uint32_t i = 0; i < bytes; ++i) write_byte(partition, offset + i, uint8_t(value >> (8 * i)));
}

void OnChipMemory::arm_injection(uint32_t partition, uint32_t offset, uint16_t flip) {
  if (partition >= partitions_ || offset >= bytes_)
    throw Error(fmt::format("{} ECC injection at partition {} byte {}: outside {} partitions of "
                            "{} bytes", name_, partition, offset, partitions_, bytes_));
  if (flip == 0 || (flip & ~ecc::kCodeMask) != 0)
    throw Error(fmt::format("{} ECC injection mask 0x{:x}: must flip 1 or more of the {} "
                            "codeword bits", name_, flip, ecc::kCodeBits));
  armed_ = Injection{partition, offset, flip};
}

EccScrub OnChipMemory::scrub() const {
  // Each word's worst byte, in scrub order: word address, then partition.
  std::map<std::pair<uint32_t, uint32_t>, bool> words;  // (word offset, partition) -> uncorrectable
  for (const auto& [at, flip] : flipped_) {
    const ecc::Decoded d = ecc::decode(ecc::encode(data_[at]) ^ flip);
    if (!d.corrected && !d.uncorrectable) continue;
    const uint32_t partition = uint32_t(at / bytes_), word = uint32_t(at % bytes_) & ~3u;
    words[{word, partition}] |= d.uncorrectable;
  }
  EccScrub r;
  for (const auto& [where, bad] : words) {
    if (!bad) {
      ++r.corrected;
      continue;
    }
    ++r.uncorrectable;
    if (!r.first_uncorrectable) r.first_uncorrectable = std::make_pair(where.second, where.first);
  }
  return r;
}

uint32_t dtype_bytes(Dtype t) { return uint32_t(dtype_bits(t)) / 8; }

bool Footprint::overlaps(const Footprint& o) const {
  if (space != o.space || pcount == 0 || o.pcount == 0) return false;
  // Partition sets: arithmetic progressions of at most P terms; walk the shorter one.
  const Footprint& a = pcount <= o.pcount ? *this : o;
  const Footprint& b = pcount <= o.pcount ? o : *this;
  bool shared = false;
  for (uint32_t i = 0; i < a.pcount && !shared; ++i) {
    const int64_t p = int64_t(a.pstart) + int64_t(i) * a.pstep;
    const int64_t d = p - int64_t(b.pstart);
    if (b.pstep == 0) shared = d == 0;
    else shared = d >= 0 && d % b.pstep == 0 && d / b.pstep < b.pcount;
  }
  if (!shared) return false;
  size_t i = 0, j = 0;
  while (i < bytes.size() && j < o.bytes.size()) {
    if (bytes[i].second <= o.bytes[j].first) ++i;
    else if (o.bytes[j].second <= bytes[i].first) ++j;
    else return true;
  }
  return false;
}

namespace {

// Sorted, merged [first, second) intervals of elements of `elem_bytes` at `offsets`.
std::vector<std::pair<uint32_t, uint32_t>> merge_intervals(std::vector<uint32_t> offsets,
                                                           uint32_t elem_bytes) {
  std::sort(offsets.begin(), offsets.end());
  std::vector<std::pair<uint32_t, uint32_t>> out;
  for (uint32_t off : offsets) {
    if (!out.empty() && off <= out.back().second)
      out.back().second = std::max(out.back().second, off + elem_bytes);
    else
      out.emplace_back(off, off + elem_bytes);
  }
  return out;
}

// Element offsets (in elements, relative) of a 4-D pattern, d0 outermost.
std::vector<int64_t> pattern_indices(const std::array<isa::Dim, isa::kApDims>& dims,
                                     uint32_t first_dim) {
  std::vector<int64_t> idx = {0};
  for (uint32_t d = first_dim; d < isa::kApDims; ++d) {
    std::vector<int64_t> next;
    next.reserve(idx.size() * dims[d].num);
    for (int64_t base : idx)
      for (uint32_t i = 0; i < dims[d].num; ++i) next.push_back(base + int64_t(i) * dims[d].step);
    idx.swap(next);
  }
  return idx;
}

}  // namespace

Footprint ResolvedAp::footprint() const {
  Footprint f;
  f.space = mem == isa::Mem::kSbuf ? isa::Space::kSbuf : isa::Space::kPsum;
  f.pstart = start;
  f.pcount = partitions;
  f.bytes = merge_intervals(offsets, elem_bytes);
  return f;
}

bool start_partition_allowed(uint32_t start, uint32_t count, uint32_t partitions) {
  const uint32_t q = std::max(1u, partitions / 4);
  if (count > 2 * q) return start == 0;
  if (count > q) return start == 0 || start == 2 * q;
  return start % q == 0;
}

ResolvedAp resolve_ap(const isa::AccessPattern& ap, uint32_t base, const OnChipMemory& mem,
                      uint32_t core_partitions, const std::string& what) {
  ResolvedAp r;
  r.mem = ap.mem;
  r.dtype = ap.dtype;
  r.start = ap.start_partition;
  r.partitions = ap.partitions;
  r.elem_bytes = dtype_bytes(ap.dtype);
  if (ap.partitions == 0 || ap.start_partition + ap.partitions > core_partitions)
    throw Error(fmt::format("{}: partitions {}..{} are outside the core's {} partitions", what,
                            ap.start_partition, ap.start_partition + ap.partitions,
                            core_partitions));
  if (!start_partition_allowed(ap.start_partition, ap.partitions, core_partitions))
    throw Error(fmt::format("{}: start partition {} is misaligned for {} partitions (quadrant "
                            "rule, docs/core-model.md)", what, ap.start_partition, ap.partitions));
  const uint64_t offset = uint64_t(ap.offset) + base;
  if (offset % r.elem_bytes != 0)
    throw Error(fmt::format("{}: byte offset {} is not a multiple of the {} element size {}",
                            what, offset, dtype_name(ap.dtype), r.elem_bytes));
  for (uint32_t d = 0; d < isa::kApDims; ++d)
    if (ap.dims[d].num == 0) throw Error(fmt::format("{}: dimension d{} has size 0", what, d));
  const std::vector<int64_t> idx = pattern_indices(ap.dims, 0);
  r.offsets.reserve(idx.size());
  for (int64_t i : idx) {
    const int64_t byte = int64_t(offset) + i * r.elem_bytes;
    if (byte < 0 || byte + r.elem_bytes > int64_t(mem.partition_bytes()))
      throw Error(fmt::format("{}: element at byte {} is outside the {}-byte {} partition", what,
                              byte, mem.partition_bytes(), mem.name()));
    r.offsets.push_back(uint32_t(byte));
  }
  return r;
}

Footprint ResolvedSide::footprint() const {
  Footprint f;
  f.space = space;
  if (onchip.empty()) return f;
  // Partitions in pattern order form a progression by construction (dims[0] steps them).
  std::vector<uint32_t> parts, offsets;
  for (const auto& [p, off] : onchip) {
    if (parts.empty() || parts.back() != p) parts.push_back(p);
    if (p == onchip.front().first) offsets.push_back(off);
  }
  f.pstart = parts.front();
  f.pstep = parts.size() > 1 ? parts[1] - parts[0] : 1;
  f.pcount = uint32_t(parts.size());
  f.bytes = merge_intervals(offsets, elem_bytes);
  return f;
}

ResolvedSide resolve_side(const isa::DescSide& side, uint64_t add, const Hbm& hbm,
                          const OnChipMemory* mem, const std::string& what) {
  ResolvedSide r;
  r.space = side.space;
  r.dtype = side.dtype;
  r.elem_bytes = dtype_bytes(side.dtype);
  for (uint32_t d = 0; d < isa::kApDims; ++d)
    if (side.dims[d].num == 0) throw DmaSideError(DmaDetail::kSrcZeroDim, fmt::format("{}: dimension d{} has size 0", what, d));
  const uint64_t address = side.address + add;
  // Every element is aligned to its size: the address and every byte step (on-chip: d1..d3;
  // d0 steps partitions there) are multiples of the element bytes.
  if (address % r.elem_bytes != 0)
    throw DmaSideError(DmaDetail::kSrcAlign, fmt::format("{}: address 0x{:x} is not a multiple of the {} element size {}",
                            what, address, dtype_name(side.dtype), r.elem_bytes));
  for (uint32_t d = side.space == isa::Space::kHbm ? 0 : 1; d < isa::kApDims; ++d)
    if (side.dims[d].step % int64_t(r.elem_bytes) != 0)
      throw DmaSideError(DmaDetail::kSrcAlign, fmt::format("{}: d{} step {} bytes is not a multiple of the {} element size {}",
                              what, d, side.dims[d].step, dtype_name(side.dtype), r.elem_bytes));
  if (side.space == isa::Space::kHbm) {
    for (int64_t i : pattern_indices(side.dims, 0)) {
      const int64_t a = int64_t(address) + i;
      if (a < 0 || uint64_t(a) + r.elem_bytes > hbm.size())
        throw DmaSideError(DmaDetail::kSrcHbm, fmt::format("{}: HBM byte 0x{:x} is outside HBM (0x{:x} bytes)", what, a,
                                hbm.size()));
      r.hbm.push_back(uint64_t(a));
    }
    return r;
  }
  // On-chip: dims[0] steps partitions, dims[1..3] step bytes.
  if (side.dims[0].step < 0)
    throw DmaSideError(DmaDetail::kSrcPStep, fmt::format("{}: the partition step must not be negative", what));
  const uint64_t last_partition =
      side.start_partition + uint64_t(side.dims[0].step) * (side.dims[0].num - 1);
  if (last_partition >= mem->partitions())
    throw DmaSideError(DmaDetail::kSrcPart, fmt::format("{}: partition {} is outside the core's {} partitions", what,
                            last_partition, mem->partitions()));
  const std::vector<int64_t> free = pattern_indices(side.dims, 1);
  for (uint32_t i = 0; i < side.dims[0].num; ++i) {
    const uint32_t p = side.start_partition + i * uint32_t(side.dims[0].step);
    for (int64_t f : free) {
      const int64_t b = int64_t(address) + f;
      if (b < 0 || b + r.elem_bytes > int64_t(mem->partition_bytes()))
        throw DmaSideError(DmaDetail::kSrcOffset, fmt::format("{}: byte {} is outside the {}-byte {} partition", what, b,
                                mem->partition_bytes(), mem->name()));
      r.onchip.emplace_back(p, uint32_t(b));
    }
  }
  return r;
}

}  // namespace tern::core
