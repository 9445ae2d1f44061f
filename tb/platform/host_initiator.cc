#include "host_initiator.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "common/error.h"

namespace tern::tb {
namespace {

void transact(tlm_utils::simple_initiator_socket<HostInitiator>& socket, tlm::tlm_command cmd,
              uint64_t addr, uint8_t* data, uint32_t bytes, const char* what) {
  tlm::tlm_generic_payload gp;
  gp.set_command(cmd);
  gp.set_address(addr);
  gp.set_data_ptr(data);
  gp.set_data_length(bytes);
  gp.set_streaming_width(bytes);
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  socket->b_transport(gp, delay);
  if (gp.is_response_error())
    throw Error(fmt::format("host: {} {} of {} bytes at 0x{:x}: {}", what,
                            cmd == tlm::TLM_READ_COMMAND ? "read" : "write", bytes, addr,
                            gp.get_response_string()));
  sc_core::wait(delay);
}

}  // namespace

HostInitiator::HostInitiator(sc_core::sc_module_name name)
    : sc_module(name), csr("csr"), hbm("hbm") {}

void HostInitiator::hbm_write(uint64_t addr, const void* src, uint64_t bytes) {
  const auto* p = static_cast<const uint8_t*>(src);
  std::vector<uint8_t> chunk;
  while (bytes > 0) {
    const uint32_t n = uint32_t(std::min<uint64_t>(bytes, 4096 - addr % 4096));
    chunk.assign(p, p + n);
    transact(hbm, tlm::TLM_WRITE_COMMAND, addr, chunk.data(), n, "HBM");
    addr += n;
    p += n;
    bytes -= n;
  }
}

void HostInitiator::csr_write(uint32_t addr, uint32_t value) {
  transact(csr, tlm::TLM_WRITE_COMMAND, addr, reinterpret_cast<uint8_t*>(&value), 4, "CSR");
}

uint32_t HostInitiator::csr_read(uint32_t addr) {
  uint32_t value = 0;
  transact(csr, tlm::TLM_READ_COMMAND, addr, reinterpret_cast<uint8_t*>(&value), 4, "CSR");
  return value;
}

}  // namespace tern::tb
