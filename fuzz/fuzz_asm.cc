// The assembler on any text. An image it accepts must survive its own binary form (encoded,
// loaded back and encoded again, the bytes are the same) and its own text (disassembled and
// assembled again, the same image).
#include <cstdlib>

#include "fuzz_target.h"
#include "isa/asm.h"
#include "isa/isa.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tern;
  fuzz::expect_error_or_success([&] {
    const isa::ProgramImage img = isa::assemble_image(fuzz::text(data, size), "fuzz.s");
    const std::vector<uint8_t> image = isa::image_to_binary(img);
    if (isa::image_to_binary(isa::image_from_binary(image, "fuzz.tbin")) != image) std::abort();
    if (!(isa::assemble_image(isa::disassemble_image(img), "again.s") == img)) std::abort();
  });
  return 0;
}
