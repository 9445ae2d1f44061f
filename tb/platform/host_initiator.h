// HostInitiator: the host side of the platform, a TLM-2.0 initiator with a CSR socket (to the
// core's AXI4-Lite bridge) and an HBM socket (its own HBM port). It is the Bus of the driver
// sequence (tb/core_driver.h): call its methods from an SC_THREAD. Loosely timed: each
// transaction's annotated delay is waited for before the next. An error response throws
// tern::Error naming the address.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>

namespace tern::tb {

class HostInitiator : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<HostInitiator> csr;
  tlm_utils::simple_initiator_socket<HostInitiator> hbm;

  explicit HostInitiator(sc_core::sc_module_name name);

  void hbm_write(uint64_t addr, const void* src, uint64_t bytes);  // in 4 KiB transactions
  void csr_write(uint32_t addr, uint32_t value);
  uint32_t csr_read(uint32_t addr);
};

}  // namespace tern::tb
