// AXI response codes (AMBA AXI and AXI4-Lite, xRESP): defined once here; `tern numerics sv`
// writes them into tern_pkg (AxiResp*) for the RTL, and the testbench's memories and masters
// use this enum. And the signals of the RTL's AXI4 and AXI4-Lite ports, defined once (the
// X-macro lists below): `tern axi sv --update FILE` writes each module's port block from them,
// the testbench copies a verilated top's pins with them (tb/axi_mem.h), and `tern axi md`
// writes docs/core-rtl.md's table.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

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

// X(name, driver, width, meaning) for every signal of a port, channel by channel. driver: the
// side that drives it (Master or Slave). width: a number of bits, or the bundle's parameter
// Id, Data or Strb (the RTL module names its own for each, docs/core-rtl.md "AXI ports").
#define TERN_AXI4_SIGNALS(X)                                        \
  X(awid, Master, "Id", "write address: the transaction ID")      \
  X(awaddr, Master, "32", "byte address")                          \
  X(awlen, Master, "8", "beats - 1")                               \
  X(awsize, Master, "3", "log2 of the bytes a beat")               \
  X(awburst, Master, "2", "INCR (1)")                              \
  X(awvalid, Master, "1", "")                                      \
  X(awready, Slave, "1", "")                                       \
  X(wdata, Master, "Data", "write data")                           \
  X(wstrb, Master, "Strb", "byte enables")                         \
  X(wlast, Master, "1", "the burst's last beat")                   \
  X(wvalid, Master, "1", "")                                       \
  X(wready, Slave, "1", "")                                        \
  X(bid, Slave, "Id", "write response: the transaction ID")        \
  X(bresp, Slave, "2", "AxiResp")                                  \
  X(bvalid, Slave, "1", "")                                        \
  X(bready, Master, "1", "")                                       \
  X(arid, Master, "Id", "read address: the transaction ID")        \
  X(araddr, Master, "32", "byte address")                          \
  X(arlen, Master, "8", "beats - 1")                               \
  X(arsize, Master, "3", "log2 of the bytes a beat")               \
  X(arburst, Master, "2", "INCR (1)")                              \
  X(arvalid, Master, "1", "")                                      \
  X(arready, Slave, "1", "")                                       \
  X(rid, Slave, "Id", "read data: the transaction ID")             \
  X(rdata, Slave, "Data", "read data")                             \
  X(rresp, Slave, "2", "AxiResp")                                  \
  X(rlast, Slave, "1", "the burst's last beat")                    \
  X(rvalid, Slave, "1", "")                                        \
  X(rready, Master, "1", "")

#define TERN_AXI4_LITE_SIGNALS(X)                                   \
  X(awvalid, Master, "1", "write address")                         \
  X(awready, Slave, "1", "")                                       \
  X(awaddr, Master, "16", "byte address (the CSR space)")          \
  X(awprot, Master, "3", "ignored")                                \
  X(wvalid, Master, "1", "write data")                             \
  X(wready, Slave, "1", "")                                        \
  X(wdata, Master, "32", "")                                       \
  X(wstrb, Master, "4", "")                                        \
  X(bvalid, Slave, "1", "write response")                          \
  X(bready, Master, "1", "")                                       \
  X(bresp, Slave, "2", "AxiResp")                                  \
  X(arvalid, Master, "1", "read address")                          \
  X(arready, Slave, "1", "")                                       \
  X(araddr, Master, "16", "byte address")                          \
  X(arprot, Master, "3", "ignored")                                \
  X(rvalid, Slave, "1", "read data")                               \
  X(rready, Master, "1", "")                                       \
  X(rdata, Slave, "32", "")                                        \
  X(rresp, Slave, "2", "AxiResp")

enum class AxiDriver : uint8_t { kMaster, kSlave };
struct AxiSignal {
  std::string name;
  AxiDriver driver;
  std::string width;  // bits, or the bundle parameter Id, Data or Strb
  std::string meaning;
};
enum class AxiKind : uint8_t { kAxi4, kAxi4Lite };
const std::vector<AxiSignal>& axi_signals(AxiKind kind);

// The port block of one bundle: `logic` ports named <prefix>_<signal>_i/_o, inputs and outputs
// as `role` (the module is the bundle's master or slave) sees them, widths from `params` (the
// module's name for Id, Data and Strb), each line ending in a comma unless `last`.
struct AxiBundle {
  AxiKind kind = AxiKind::kAxi4;
  AxiDriver role = AxiDriver::kMaster;
  std::string prefix;
  std::string id, data, strb;  // SV expressions
  bool last = false;
};
std::string axi_port_block(const AxiBundle& b);

// `text` (an SV source named `source`) with every generated AXI port block rewritten from its
// marker line, `// BEGIN GENERATED: tern axi <axi4|axi4lite> <master|slave> <prefix> [Id=..]
// [Data=..] [Strb=..] [last]`, to the next `// END GENERATED: tern axi`; throws tern::Error
// for a malformed marker or a missing end.
std::string update_axi_ports(const std::string& text, const std::string& source);
// The modules with generated AXI ports (paths under the repository).
const std::vector<std::string>& axi_port_files();
// docs/core-rtl.md's tables of both bundles' signals, and that file with them replaced.
std::string axi_markdown_tables();
std::string update_axi_markdown(const std::string& text, const std::string& source);

}  // namespace tern
