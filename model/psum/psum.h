// Golden PSUM: partitions x banks x entries fp32 words (docs/tensor-engine.md).
#pragma once

#include <cstdint>
#include <vector>

#include "common/config.h"

namespace tern {

class Psum {
 public:
  explicit Psum(const CoreConfig& cfg);
  Psum(uint32_t partitions, uint32_t banks, uint32_t entries);

  uint32_t partitions() const { return partitions_; }
  uint32_t banks() const { return banks_; }
  uint32_t entries() const { return entries_; }
  uint32_t words() const { return banks_ * entries_; }  // per partition

  // addr = bank * entries + offset; throws tern::Error when out of range.
  uint32_t read(uint32_t partition, uint32_t addr) const;
  void write(uint32_t partition, uint32_t addr, uint32_t value);
  // The Tensor Engine's port: overwrite, or fp32 RNE read-add-write.
  void accumulate(uint32_t partition, uint32_t addr, uint32_t value, bool acc);

 private:
  size_t index(uint32_t partition, uint32_t addr) const;
  uint32_t partitions_, banks_, entries_;
  std::vector<uint32_t> words_;
};

}  // namespace tern
