// The program-image loaders (.tbin, `tern disasm`, `tern run`) on any bytes: a bare program
// (TERNPRG1) and a self-describing image (TERNIMG1). An image either accepts is one its encoder
// writes back unchanged.
#include <cstdlib>
#include <cstring>

#include "fuzz_target.h"
#include "isa/isa.h"
#include "isa/program_image.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tern;
  const std::vector<uint8_t> bytes(data, data + size);
  fuzz::expect_error_or_success([&] {
    const isa::Program p = isa::from_binary(bytes, "fuzz.tbin");
    if (isa::to_binary(p) != bytes) std::abort();
  });
  fuzz::expect_error_or_success([&] {
    const isa::ProgramImage img = isa::image_from_binary(bytes, "fuzz.tbin");
    const bool bare = size >= 8 && std::memcmp(data, "TERNPRG1", 8) == 0;
    if ((bare ? isa::to_binary(img.program) : isa::image_to_binary(img)) != bytes) std::abort();
  });
  return 0;
}
