// The .npy reader (sw/host/npy.h) on any bytes. An accepted file's tensor writes back as a
// file that reads as the same tensor.
#include <cstdlib>

#include "fuzz_target.h"
#include "host/npy.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tern;
  fuzz::expect_error_or_success([&] {
    const host::HostTensor t = host::parse_npy(std::vector<uint8_t>(data, data + size), "f.npy");
    const host::HostTensor back = host::parse_npy(host::format_npy(t), "again.npy");
    if (back.dtype != t.dtype || back.shape != t.shape || back.bits != t.bits) std::abort();
  });
  return 0;
}
