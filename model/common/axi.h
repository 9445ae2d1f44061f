// AXI response codes (AMBA AXI and AXI4-Lite, xRESP): defined once here; `tern numerics sv`
// writes them into tern_pkg (AxiResp*) for the RTL, and the testbench's memories and masters
// use this enum.
#pragma once

#include <cstdint>

namespace tern {

enum class AxiResp : uint8_t { kOkay = 0, kExOkay = 1, kSlverr = 2, kDecerr = 3 };

inline const char* axi_resp_name(AxiResp r) {
  switch (r) {
    case AxiResp::kOkay: return "OKAY";
    case AxiResp::kExOkay: return "EXOKAY";
    case AxiResp::kSlverr: return "SLVERR";
    case AxiResp::kDecerr: return "DECERR";
  }
  return "?";
}

}  // namespace tern
