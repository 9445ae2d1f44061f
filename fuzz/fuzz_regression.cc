// The regression-list loader (`make sim LIST=...`, tern_regress) on any text.
#include "fuzz_target.h"
#include "regression.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tern;
  fuzz::expect_error_or_success([&] { sim::parse_regression(fuzz::text(data, size), "fuzz.yaml"); });
  return 0;
}
