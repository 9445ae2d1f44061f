// The reference kernels (docs/kernels.md): each is written against the kernel API, has a plain
// fp64 C++ reference, and a stated tolerance with its reason. `tern run` and the tests run them
// on every config with shapes scaled to it.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "common/config.h"
#include "kernel/kernel.h"
#include "runtime/device.h"

namespace tern::kernels {

using Shape = std::map<std::string, uint32_t>;
using Tensors = std::map<std::string, TensorBits>;

// How one output compares with the fp64 reference.
struct CheckResult {
  size_t elements = 0;
  size_t failures = 0;
  double worst = 0;        // max |got - ref| / tolerance over all elements (<= 1 passes)
  std::string first_failure;
  bool ok() const { return failures == 0; }
};

struct RefKernel {
  std::string name;
  std::string summary;
  std::string tolerance;  // the bound each element must meet, and why
  std::vector<std::string> dims;                      // shape keys, e.g. m, k, n
  std::function<Shape(const CoreConfig&)> default_shape;  // scaled to the config
  std::function<void(kernel::Kernel&, const Shape&)> build;
  std::function<Tensors(const Shape&, uint32_t seed)> inputs;
  std::function<CheckResult(const Shape&, const Tensors& in, const Tensors& out)> check;
};

const std::vector<RefKernel>& reference_kernels();
const RefKernel& find_kernel(const std::string& name);  // throws, listing the kernels

// "m=100,k=70" -> shape, over the kernel's dims (missing ones from the default shape).
Shape parse_shape(const RefKernel& k, const std::string& text, const CoreConfig& cfg);
std::string shape_text(const Shape& s);

}  // namespace tern::kernels
