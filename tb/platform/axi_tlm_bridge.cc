#include "axi_tlm_bridge.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "common/axi.h"
#include "common/error.h"

namespace tern::tb {

AxiTlmBridge::AxiTlmBridge(sc_core::sc_module_name name, uint32_t data_bytes,
                           sc_core::sc_time clock_period, uint32_t max_reads, uint32_t max_writes)
    : sc_module(name),
      socket("socket"),
      data_bytes_(data_bytes),
      period_(clock_period),
      max_reads_(max_reads),
      max_writes_(max_writes) {
  reset();
}

void AxiTlmBridge::reset() {
  reads_.clear();
  writes_.clear();
  out_ = AxiSlavePins{};
  out_.rdata.assign(data_bytes_ / 4, 0);
}

uint32_t AxiTlmBridge::transport(Burst& b, tlm::tlm_command cmd) {
  tlm::tlm_generic_payload gp;
  gp.set_command(cmd);
  gp.set_address(b.addr);
  gp.set_data_ptr(b.data.data());
  gp.set_data_length(uint32_t(b.data.size()));
  gp.set_streaming_width(uint32_t(b.data.size()));
  if (cmd == tlm::TLM_WRITE_COMMAND) {
    gp.set_byte_enable_ptr(b.enables.data());
    gp.set_byte_enable_length(uint32_t(b.enables.size()));
  }
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  socket->b_transport(gp, delay);
  switch (gp.get_response_status()) {
    case tlm::TLM_OK_RESPONSE: b.resp = uint32_t(AxiResp::kOkay); break;
    case tlm::TLM_ADDRESS_ERROR_RESPONSE: b.resp = uint32_t(AxiResp::kDecerr); break;
    default: b.resp = uint32_t(AxiResp::kSlverr); break;
  }
  return uint32_t((delay + period_ - sc_core::sc_time(1, sc_core::SC_PS)) / period_);
}

void AxiTlmBridge::cycle(const AxiMasterPins& m) {
  const bool aw_hs = m.awvalid && out_.awready, w_hs = m.wvalid && out_.wready;
  const bool ar_hs = m.arvalid && out_.arready;
  const bool r_hs = out_.rvalid && m.rready, b_hs = out_.bvalid && m.bready;

  if (r_hs && ++reads_.front().beat > reads_.front().len) reads_.pop_front();
  if (b_hs) writes_.pop_front();
  if (ar_hs) {
    Burst b;
    b.id = m.arid;
    b.len = m.arlen;
    b.addr = m.araddr & ~uint64_t(data_bytes_ - 1);
    b.data.assign(size_t(m.arlen + 1) * data_bytes_, 0);
    const uint32_t ready = transport(b, tlm::TLM_READ_COMMAND);  // cycles until the last byte
    b.due = now_ + std::max<uint32_t>(1, ready > b.len ? ready - b.len : 1);
    reads_.push_back(std::move(b));
  }
  if (aw_hs) {
    Burst b;
    b.id = m.awid;
    b.len = m.awlen;
    b.addr = m.awaddr & ~uint64_t(data_bytes_ - 1);
    b.data.assign(size_t(m.awlen + 1) * data_bytes_, 0);
    b.enables.assign(b.data.size(), TLM_BYTE_DISABLED);
    writes_.push_back(std::move(b));
  }
  if (w_hs) {
    auto it = std::find_if(writes_.begin(), writes_.end(), [](const Burst& x) { return !x.w_done; });
    if (it == writes_.end()) throw Error("AxiTlmBridge: a W beat with no AW to carry it");
    Burst& b = *it;
    const size_t at = size_t(b.beat) * data_bytes_;
    for (uint32_t i = 0; i < data_bytes_; ++i) {
      b.data[at + i] = uint8_t(m.wdata[i / 4] >> (8 * (i % 4)));
      b.enables[at + i] = m.wstrb[i] ? TLM_BYTE_ENABLED : TLM_BYTE_DISABLED;
    }
    if (b.beat++ == b.len) {
      b.w_done = true;
      b.due = now_ + std::max<uint32_t>(1, transport(b, tlm::TLM_WRITE_COMMAND));
      if (on_write) on_write(AxiWriteEvent{now_, b.id, b.addr, &b.data, &b.enables});
    }
  }

  // Next outputs.
  out_.awready = writes_.size() < max_writes_;
  out_.arready = reads_.size() < max_reads_;
  out_.wready = std::any_of(writes_.begin(), writes_.end(), [](const Burst& x) { return !x.w_done; });
  out_.bvalid = !writes_.empty() && writes_.front().w_done && now_ + 1 >= writes_.front().due;
  if (out_.bvalid) {
    out_.bid = writes_.front().id;
    out_.bresp = writes_.front().resp;
  }
  out_.rvalid = !reads_.empty() && now_ + 1 >= reads_.front().due;
  if (out_.rvalid) {
    const Burst& b = reads_.front();
    out_.rid = b.id;
    out_.rresp = b.resp;
    out_.rlast = b.beat == b.len;
    std::memcpy(out_.rdata.data(), b.data.data() + size_t(b.beat) * data_bytes_, data_bytes_);
  }
  ++now_;
}

}  // namespace tern::tb
