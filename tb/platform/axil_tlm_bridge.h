// AxilTlmBridge<Top>: a TLM-2.0 target whose 4-byte reads and writes become AXI4-Lite
// transactions on a verilated top's s_axil_* port (the pins AxilMaster drives, tb/axil_master.h).
// b_transport is called from the host's thread and blocks until the transaction's response;
// the handshakes advance in drive()/sample(), which the platform's clock thread calls every
// cycle (drive before the clock's low phase, sample after it). AW and W go together, one
// transaction at a time; SLVERR/DECERR answer TLM_GENERIC_ERROR / TLM_ADDRESS_ERROR. A
// transaction without a response in `timeout` cycles throws tern::Error.
#pragma once

#include <fmt/format.h>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <cstring>

#include "common/axi.h"
#include "common/error.h"

namespace tern::tb {

template <typename Top>
class AxilTlmBridge : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<AxilTlmBridge> socket;

  AxilTlmBridge(sc_core::sc_module_name name, Top& top, uint64_t timeout = 10'000)
      : sc_module(name), socket("socket"), top_(top), timeout_(timeout) {
    socket.register_b_transport(this, &AxilTlmBridge::b_transport);
  }

  // Clock thread, before the low phase: this cycle's master outputs.
  void drive() {
    top_.s_axil_awvalid_i = phase_ == Phase::kAddr && write_ && !aw_done_;
    top_.s_axil_wvalid_i = phase_ == Phase::kAddr && write_ && !w_done_;
    top_.s_axil_arvalid_i = phase_ == Phase::kAddr && !write_;
    top_.s_axil_bready_i = phase_ == Phase::kResp && write_;
    top_.s_axil_rready_i = phase_ == Phase::kResp && !write_;
    top_.s_axil_awaddr_i = addr_;
    top_.s_axil_araddr_i = addr_;
    top_.s_axil_wdata_i = data_;
    top_.s_axil_wstrb_i = 0xF;
    top_.s_axil_awprot_i = 0;
    top_.s_axil_arprot_i = 0;
  }

  // Ends a transaction in flight with SLVERR (the clock stopped on an error).
  void abort() {
    if (phase_ != Phase::kIdle) finish(2, 0);
  }

  // Clock thread, after the low phase's eval: the handshakes at this edge.
  void sample() {
    if (phase_ == Phase::kIdle) return;
    if (++cycles_ > timeout_)
      throw Error(fmt::format("AXI4-Lite {} of 0x{:04x}: no response in {} cycles",
                              write_ ? "write" : "read", addr_, timeout_));
    if (phase_ == Phase::kAddr) {
      aw_done_ |= top_.s_axil_awvalid_i && top_.s_axil_awready_o;
      w_done_ |= top_.s_axil_wvalid_i && top_.s_axil_wready_o;
      const bool ar = top_.s_axil_arvalid_i && top_.s_axil_arready_o;
      if (write_ ? (aw_done_ && w_done_) : ar) phase_ = Phase::kResp;
    } else if (write_ && top_.s_axil_bvalid_o) {
      finish(uint32_t(top_.s_axil_bresp_o), 0);
    } else if (!write_ && top_.s_axil_rvalid_o) {
      finish(uint32_t(top_.s_axil_rresp_o), uint32_t(top_.s_axil_rdata_o));
    }
  }

 private:
  enum class Phase { kIdle, kAddr, kResp };

  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
    sc_core::wait(delay);  // the host's time catches up before it touches the pins
    delay = sc_core::SC_ZERO_TIME;
    if (gp.get_data_length() != 4 || gp.get_address() % 4 != 0) {
      gp.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
      return;
    }
    while (phase_ != Phase::kIdle) sc_core::wait(done_);
    write_ = gp.is_write();
    addr_ = uint32_t(gp.get_address());
    if (write_) std::memcpy(&data_, gp.get_data_ptr(), 4);
    aw_done_ = w_done_ = false;
    cycles_ = 0;
    phase_ = Phase::kAddr;
    sc_core::wait(done_);
    if (!write_) std::memcpy(gp.get_data_ptr(), &rdata_, 4);
    gp.set_response_status(resp_ == uint32_t(AxiResp::kOkay)     ? tlm::TLM_OK_RESPONSE
                           : resp_ == uint32_t(AxiResp::kDecerr) ? tlm::TLM_ADDRESS_ERROR_RESPONSE
                                                                  : tlm::TLM_GENERIC_ERROR_RESPONSE);
  }

  void finish(uint32_t resp, uint32_t rdata) {
    resp_ = resp;
    rdata_ = rdata;
    phase_ = Phase::kIdle;
    done_.notify(sc_core::SC_ZERO_TIME);
  }

  Top& top_;
  uint64_t timeout_;
  Phase phase_ = Phase::kIdle;
  bool write_ = false, aw_done_ = false, w_done_ = false;
  uint32_t addr_ = 0, data_ = 0, rdata_ = 0, resp_ = 0;
  uint64_t cycles_ = 0;
  sc_core::sc_event done_;
};

}  // namespace tern::tb
