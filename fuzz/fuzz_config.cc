// The YAML config loader (--config) on any text.
#include "common/config.h"
#include "fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tern;
  fuzz::expect_error_or_success([&] { parse_config(fuzz::text(data, size), "fuzz.yaml"); });
  return 0;
}
