// AxilMaster: an AXI4-Lite master for any verilated top with the ports
//   s_axil_{aw,w,ar}valid_i / ..ready_o, s_axil_awaddr_i, s_axil_araddr_i, s_axil_{aw,ar}prot_i,
//   s_axil_wdata_i, s_axil_wstrb_i, s_axil_{b,r}valid_o / ..ready_i, s_axil_bresp_o,
//   s_axil_rresp_o, s_axil_rdata_o
// (rtl/core/tern_csr.sv; the core top's CSR port). One transaction at a time. The clock is the
// caller's: `tick` advances the whole design one cycle (the harness's clock, so the rest of the
// bench keeps running). AW and W are driven independently, each after its own delay, and each
// handshake is waited for on its own; with an RNG the delays (and the B/R ready delays) are
// random, so a slave that needs one channel before the other is caught. A transaction that is
// not answered within `timeout` cycles throws tern::Error.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <functional>
#include <random>
#include <utility>

#include "common/axi.h"
#include "common/error.h"

namespace tern::tb {

using tern::AxiResp;
using tern::axi_resp_name;

struct AxilRead {
  uint32_t data;
  AxiResp resp;
};

template <typename Top>
class AxilMaster {
 public:
  AxilMaster(Top& top, std::function<void()> tick, uint64_t timeout = 1000)
      : top_(top), tick_(std::move(tick)), timeout_(timeout) {
    idle();
  }

  // Random delays of up to `max_delay` cycles before each valid and ready; nullptr: none.
  void randomize(std::mt19937_64* rng, uint32_t max_delay = 3) {
    rng_ = rng;
    max_delay_ = max_delay;
  }

  // All master outputs low.
  void idle() {
    top_.s_axil_awvalid_i = 0;
    top_.s_axil_wvalid_i = 0;
    top_.s_axil_bready_i = 0;
    top_.s_axil_arvalid_i = 0;
    top_.s_axil_rready_i = 0;
    top_.s_axil_awprot_i = 0;
    top_.s_axil_arprot_i = 0;
  }

  AxiResp write(uint32_t addr, uint32_t data, uint8_t strb = 0xF) {
    uint32_t aw_wait = delay(), w_wait = delay();
    bool aw_done = false, w_done = false;
    top_.s_axil_awaddr_i = addr;
    top_.s_axil_wdata_i = data;
    top_.s_axil_wstrb_i = strb;
    for (uint64_t cycle = 0; !(aw_done && w_done); ++cycle) {
      check_timeout(cycle, "write", addr, "AW/W");
      top_.s_axil_awvalid_i = !aw_done && aw_wait == 0;
      top_.s_axil_wvalid_i = !w_done && w_wait == 0;
      top_.eval();
      const bool aw_fire = top_.s_axil_awvalid_i && top_.s_axil_awready_o;
      const bool w_fire = top_.s_axil_wvalid_i && top_.s_axil_wready_o;
      tick_();
      aw_done |= aw_fire;
      w_done |= w_fire;
      if (aw_wait) --aw_wait;
      if (w_wait) --w_wait;
    }
    top_.s_axil_awvalid_i = 0;
    top_.s_axil_wvalid_i = 0;
    uint32_t b_wait = delay();
    for (uint64_t cycle = 0;; ++cycle) {
      check_timeout(cycle, "write", addr, "B");
      top_.s_axil_bready_i = b_wait == 0;
      top_.eval();
      const bool fire = top_.s_axil_bvalid_o && top_.s_axil_bready_i;
      const auto resp = AxiResp(top_.s_axil_bresp_o);
      tick_();
      if (fire) {
        top_.s_axil_bready_i = 0;
        return resp;
      }
      if (b_wait) --b_wait;
    }
  }

  AxilRead read(uint32_t addr) {
    uint32_t ar_wait = delay();
    top_.s_axil_araddr_i = addr;
    for (uint64_t cycle = 0;; ++cycle) {
      check_timeout(cycle, "read", addr, "AR");
      top_.s_axil_arvalid_i = ar_wait == 0;
      top_.eval();
      const bool fire = top_.s_axil_arvalid_i && top_.s_axil_arready_o;
      tick_();
      if (fire) break;
      if (ar_wait) --ar_wait;
    }
    top_.s_axil_arvalid_i = 0;
    uint32_t r_wait = delay();
    for (uint64_t cycle = 0;; ++cycle) {
      check_timeout(cycle, "read", addr, "R");
      top_.s_axil_rready_i = r_wait == 0;
      top_.eval();
      const bool fire = top_.s_axil_rvalid_o && top_.s_axil_rready_i;
      const AxilRead r{uint32_t(top_.s_axil_rdata_o), AxiResp(top_.s_axil_rresp_o)};
      tick_();
      if (fire) {
        top_.s_axil_rready_i = 0;
        return r;
      }
      if (r_wait) --r_wait;
    }
  }

 private:
  uint32_t delay() {
    return rng_ ? uint32_t((*rng_)() % (max_delay_ + 1)) : 0;
  }
  void check_timeout(uint64_t cycle, const char* what, uint32_t addr, const char* channel) const {
    if (cycle >= timeout_)
      throw Error(fmt::format("AXI4-Lite {} of 0x{:04x}: no {} handshake in {} cycles", what, addr,
                              channel, timeout_));
  }

  Top& top_;
  std::function<void()> tick_;
  uint64_t timeout_;
  std::mt19937_64* rng_ = nullptr;
  uint32_t max_delay_ = 0;
};

}  // namespace tern::tb
