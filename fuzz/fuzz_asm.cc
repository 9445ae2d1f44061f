// The assembler on any text. A program it accepts must survive its own binary image: encoded,
// loaded back and encoded again, the bytes are the same.
#include <cstdlib>

#include "fuzz_target.h"
#include "isa/asm.h"
#include "isa/isa.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tern;
  fuzz::expect_error_or_success([&] {
    const isa::Program p = isa::assemble(fuzz::text(data, size), "fuzz.s");
    const std::vector<uint8_t> image = isa::to_binary(p);
    if (isa::to_binary(isa::from_binary(image, "fuzz.tbin")) != image) std::abort();
  });
  return 0;
}
