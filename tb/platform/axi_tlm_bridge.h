// AxiTlmBridge: the slave end of a verilated AXI4 master port, turning each burst into one
// TLM-2.0 transaction on its initiator socket. Cycle-level on the AXI side (the platform's clock
// thread calls cycle() once per clock with the master's pins, and drives out() back), loosely
// timed on the TLM side: an AR is read from the target when it is accepted, and its R beats
// start when the annotated delay says the last byte is ready minus one cycle per remaining beat;
// a write burst goes to the target with its byte enables when its last W beat arrives, and B
// follows the annotated delay. Bursts are served in order of acceptance (so responses of one ID
// are in order). TLM_GENERIC_ERROR answers SLVERR, TLM_ADDRESS_ERROR DECERR, on every beat.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

#include "axi_mem.h"

namespace tern::tb {

// One write burst as it reaches the target (for scoreboards): bytes with enables.
struct AxiWriteEvent {
  uint64_t cycle = 0;
  uint32_t id = 0;
  uint64_t addr = 0;
  const std::vector<uint8_t>* data = nullptr;
  const std::vector<uint8_t>* enables = nullptr;  // TLM_BYTE_ENABLED / DISABLED per byte
};

class AxiTlmBridge : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<AxiTlmBridge> socket;

  AxiTlmBridge(sc_core::sc_module_name name, uint32_t data_bytes, sc_core::sc_time clock_period,
               uint32_t max_reads = 32, uint32_t max_writes = 32);

  void cycle(const AxiMasterPins& m);  // this cycle's handshakes against out(), then next outputs
  const AxiSlavePins& out() const { return out_; }
  void reset();  // drops every burst (after the master was reset)
  uint32_t data_bytes() const { return data_bytes_; }
  std::function<void(const AxiWriteEvent&)> on_write;  // called as each burst is written

 private:
  struct Burst {
    uint32_t id = 0, len = 0, beat = 0;
    uint64_t addr = 0;        // bus-aligned address of beat 0
    uint32_t resp = 0;
    uint64_t due = 0;         // reads: the first R beat's cycle; writes: B's cycle
    bool w_done = false;
    std::vector<uint8_t> data, enables;
  };
  uint32_t transport(Burst& b, tlm::tlm_command cmd);  // returns the delay in cycles

  uint32_t data_bytes_;
  sc_core::sc_time period_;
  uint32_t max_reads_, max_writes_;
  std::deque<Burst> reads_, writes_;
  AxiSlavePins out_;
  uint64_t now_ = 0;
};

}  // namespace tern::tb
