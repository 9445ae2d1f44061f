// The GPSIMD ELF reader (sw/gpsimd/elf_image.h) on any bytes, and an accepted program run on
// the golden ISS for a bounded number of cycles: every refusal is a tern::Error, and any
// program ends in a tohost write, an exception or the cycle limit.
#include "fuzz_target.h"
#include "gpsimd/bare_metal.h"
#include "gpsimd/elf_image.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tern;
  fuzz::expect_error_or_success([&] {
    const gpsimd::ElfImage image = gpsimd::parse_elf(std::string(reinterpret_cast<const char*>(data), size), "f.elf");
    gpsimd::Core core(gpsimd::CoreConfig{});
    gpsimd::run_bare_metal(core, image, 20'000);
  });
  return 0;
}
