#include "hbm_target.h"

#include <fmt/format.h>

#include <cstring>

#include "common/error.h"

namespace tern::tb {

using sc_core::sc_time;

HbmTarget::HbmTarget(sc_core::sc_module_name name, uint64_t bytes, sc_time clock_period,
                     std::vector<HbmPortTiming> ports)
    : sc_module(name), socket("socket"), mem_(bytes, 0), period_(clock_period) {
  if (ports.empty()) throw Error("HbmTarget: needs at least one port");
  for (const HbmPortTiming& t : ports) ports_.push_back(Port{t, sc_core::SC_ZERO_TIME, {}});
  socket.register_b_transport(this, &HbmTarget::b_transport);
  socket.register_transport_dbg(this, &HbmTarget::transport_dbg);
}

void HbmTarget::resize(uint64_t bytes) { mem_.assign(bytes, 0); }

void HbmTarget::clear_stats() {
  for (Port& p : ports_) {
    p.stats = {};
    p.free_at = sc_core::SC_ZERO_TIME;
  }
}

void HbmTarget::load(uint64_t addr, const void* src, uint64_t bytes) {
  if (addr > mem_.size() || bytes > mem_.size() - addr)
    throw Error(fmt::format("HBM load of {} bytes at 0x{:x}: outside its 0x{:x} bytes", bytes, addr,
                            mem_.size()));
  std::memcpy(mem_.data() + addr, src, bytes);
}

void HbmTarget::dump(uint64_t addr, void* dst, uint64_t bytes) const {
  if (addr > mem_.size() || bytes > mem_.size() - addr)
    throw Error(fmt::format("HBM dump of {} bytes at 0x{:x}: outside its 0x{:x} bytes", bytes, addr,
                            mem_.size()));
  std::memcpy(dst, mem_.data() + addr, bytes);
}

bool HbmTarget::access(tlm::tlm_generic_payload& gp, bool check_errors) {
  const uint64_t addr = gp.get_address();
  const uint64_t n = gp.get_data_length();
  if (addr > mem_.size() || n > mem_.size() - addr) {
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return false;
  }
  if (check_errors)
    for (const auto& [first, end] : slverr_)
      if (addr < end && first < addr + n) {
        gp.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        return false;
      }
  uint8_t* data = gp.get_data_ptr();
  const uint8_t* be = gp.get_byte_enable_ptr();
  const uint32_t be_len = gp.get_byte_enable_length();
  if (gp.is_read()) {
    std::memcpy(data, mem_.data() + addr, n);
  } else if (gp.is_write()) {
    for (uint64_t i = 0; i < n; ++i)
      if (!be || be[i % be_len] == TLM_BYTE_ENABLED) mem_[addr + i] = data[i];
  } else {
    gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return false;
  }
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  return true;
}

void HbmTarget::b_transport(int port, tlm::tlm_generic_payload& gp, sc_time& delay) {
  Port& p = ports_.at(size_t(port));
  const uint64_t n = gp.get_data_length();
  // The port serves transactions one after the other at its bandwidth.
  const sc_time arrive = sc_core::sc_time_stamp() + delay;
  const sc_time begin = p.free_at > arrive ? p.free_at : arrive;
  const uint64_t transfer =
      p.timing.bytes_per_cycle ? (n + p.timing.bytes_per_cycle - 1) / p.timing.bytes_per_cycle : 1;
  p.free_at = begin + period_ * double(transfer);
  delay = (begin - sc_core::sc_time_stamp()) + period_ * double(p.timing.latency_cycles + transfer);
  if (!access(gp, true)) return;
  p.stats.busy_cycles += transfer;
  if (gp.is_read()) {
    ++p.stats.reads;
    p.stats.bytes_read += n;
  } else {
    ++p.stats.writes;
    p.stats.bytes_written += n;
  }
}

unsigned int HbmTarget::transport_dbg(int, tlm::tlm_generic_payload& gp) {
  return access(gp, false) ? gp.get_data_length() : 0;
}

}  // namespace tern::tb
