#include "psum/psum.h"

#include <fmt/format.h>

#include "common/error.h"
#include "numerics/numerics.h"

namespace tern {

Psum::Psum(const CoreConfig& cfg) : Psum(cfg.partitions, cfg.psum_banks, cfg.psum_bank_bytes / 4) {}

Psum::Psum(uint32_t partitions, uint32_t banks, uint32_t entries)
    : partitions_(partitions), banks_(banks), entries_(entries),
      words_(size_t{partitions} * banks * entries, 0) {}

size_t Psum::index(uint32_t partition, uint32_t addr) const {
  if (partition >= partitions_ || addr >= words()) {
    throw Error(fmt::format("PSUM access out of range: partition {} (of {}), word {} (of {})",
                            partition, partitions_, addr, words()));
  }
  return size_t{partition} * words() + addr;
}

uint32_t Psum::read(uint32_t partition, uint32_t addr) const { return words_[index(partition, addr)]; }

void Psum::write(uint32_t partition, uint32_t addr, uint32_t value) {
  words_[index(partition, addr)] = value;
}

void Psum::accumulate(uint32_t partition, uint32_t addr, uint32_t value, bool acc) {
  uint32_t& word = words_[index(partition, addr)];
  word = acc ? fp32_add(word, value) : value;
}

}  // namespace tern
