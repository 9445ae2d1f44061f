// HbmTarget: the platform's HBM, a TLM-2.0 target memory with one socket per port (the core's
// AXI4 bridge, the host). Each port has its own latency and bandwidth: a transaction of n bytes
// arriving on a port is answered with the delay until its last byte is ready,
//   queue (the port still busy with earlier transactions) + latency + ceil(n / bytes_per_cycle),
// so back-to-back bursts are limited to the port's bandwidth and each one sees the latency.
// Reads and writes are loosely timed: the data moves at the call, the delay is annotated.
// Backdoor load/dump goes through transport_dbg (no time) or load()/dump().
// Errors: an address at or past the size answers TLM_ADDRESS_ERROR_RESPONSE (DECERR on AXI);
// ranges marked with add_slverr answer TLM_GENERIC_ERROR_RESPONSE (SLVERR).
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include <cstdint>
#include <utility>
#include <vector>

namespace tern::tb {

struct HbmPortTiming {
  uint32_t latency_cycles = 200;
  uint32_t bytes_per_cycle = 64;  // 0: unlimited
};

struct HbmStats {
  uint64_t reads = 0, writes = 0, bytes_read = 0, bytes_written = 0;
  uint64_t busy_cycles = 0;  // cycles the port spent transferring data
};

class HbmTarget : public sc_core::sc_module {
 public:
  // Bind each port's initiator to `socket` in port order (0, 1, ...).
  tlm_utils::multi_passthrough_target_socket<HbmTarget> socket;

  HbmTarget(sc_core::sc_module_name name, uint64_t bytes, sc_core::sc_time clock_period,
            std::vector<HbmPortTiming> ports);

  void resize(uint64_t bytes);  // clears the contents too
  uint64_t size() const { return mem_.size(); }
  void load(uint64_t addr, const void* src, uint64_t bytes);
  void dump(uint64_t addr, void* dst, uint64_t bytes) const;
  const std::vector<uint8_t>& bytes() const { return mem_; }
  void add_slverr(uint64_t first, uint64_t end) { slverr_.push_back({first, end}); }
  void clear_errors() { slverr_.clear(); }
  void set_timing(size_t port, HbmPortTiming t) { ports_.at(port).timing = t; }
  const HbmPortTiming& timing(size_t port) const { return ports_.at(port).timing; }
  const HbmStats& stats(size_t port) const { return ports_.at(port).stats; }
  void clear_stats();

 private:
  struct Port {
    HbmPortTiming timing;
    sc_core::sc_time free_at = sc_core::SC_ZERO_TIME;  // when its earlier transfers end
    HbmStats stats;
  };
  void b_transport(int port, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  unsigned int transport_dbg(int port, tlm::tlm_generic_payload& gp);
  // Checks the range and moves the data; false: an error response was set.
  bool access(tlm::tlm_generic_payload& gp, bool check_errors);

  std::vector<uint8_t> mem_;
  sc_core::sc_time period_;
  std::vector<Port> ports_;
  std::vector<std::pair<uint64_t, uint64_t>> slverr_;
};

}  // namespace tern::tb
