// `tern fp` without its command line: the operations over a numerics backend and the filter
// that reads lines of hex operands. Free of the verilated blocks, so the fuzz target
// fuzz/fuzz_fp.cc drives the same code as the command.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "numerics/numerics.h"

namespace tern::fpcmd {

// The blocks an operation runs on: the golden numerics or the verilated RTL (fp_command.cc).
class Backend {
 public:
  virtual ~Backend() = default;
  virtual uint32_t add(uint32_t a, uint32_t b) = 0;
  virtual uint32_t mac(uint32_t acc, Dtype ta, uint32_t a, Dtype tb, uint32_t b) = 0;
  virtual uint32_t from_fp32(Dtype to, uint32_t x, ConvertMode mode, uint32_t random) = 0;
  virtual uint32_t to_fp32(Dtype from, uint32_t x) = 0;
  // Whether the converters take integer dtypes (the RTL's have float ones only).
  virtual bool converts_integers() const = 0;
  virtual const char* name() const = 0;
};

class GoldenBackend final : public Backend {
 public:
  uint32_t add(uint32_t a, uint32_t b) override { return fp32_add(a, b); }
  uint32_t mac(uint32_t acc, Dtype ta, uint32_t a, Dtype tb, uint32_t b) override {
    return mac_step(acc, ta, a, tb, b);
  }
  uint32_t from_fp32(Dtype to, uint32_t x, ConvertMode mode, uint32_t random) override {
    return convert_from_fp32(to, x, mode, random);
  }
  uint32_t to_fp32(Dtype from, uint32_t x) override { return convert_to_fp32(from, x); }
  bool converts_integers() const override { return true; }
  const char* name() const override { return "golden"; }
};

// What an operation's name leaves open: the conversion mode and the mac operand types.
struct OpOptions {
  ConvertMode mode;
  Dtype ta = Dtype::kBf16;
  Dtype tb = Dtype::kBf16;
  uint32_t seed = 0;  // the stochastic-rounding generator's seed and lane
  uint32_t lane = 0;
};

// One operation: the operand widths it reads, its result's width and the function.
struct Operation {
  std::string name;
  std::vector<int> operand_bits;
  int result_bits = 32;
  std::function<uint32_t(const std::vector<uint32_t>&, uint32_t random)> apply;
};

// The dtype a name stands for; an unknown name is an error naming it.
Dtype parse_dtype(const std::string& name);

// `add`, `mac`, `to-<dtype>` or `from-<dtype>` on `backend` (which must outlive the result);
// an unknown name, a mac type pair the Tensor Engine lacks or a conversion the backend lacks
// is an error.
Operation make_operation(const std::string& op, const OpOptions& options, Backend& backend);

// Reads `in` line by line: a blank or comment-only line passes through, every other line
// is written back with the result appended in hex. A line with the wrong operand count or an
// operand that is no hex pattern of its width is an error naming the line.
void filter(const Operation& op, const OpOptions& options, std::istream& in, std::ostream& out);

}  // namespace tern::fpcmd
