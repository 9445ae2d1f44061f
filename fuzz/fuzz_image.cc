// The program-image loader (.tbin, `tern disasm`, `tern run`) on any bytes. An image it accepts
// is one the encoder writes back unchanged.
#include <cstdlib>

#include "fuzz_target.h"
#include "isa/isa.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tern;
  fuzz::expect_error_or_success([&] {
    const std::vector<uint8_t> image(data, data + size);
    const isa::Program p = isa::from_binary(image, "fuzz.tbin");
    if (isa::to_binary(p) != image) std::abort();
  });
  return 0;
}
