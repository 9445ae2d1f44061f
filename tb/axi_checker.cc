#include "axi_checker.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/error.h"

namespace tern::tb {

void AxiChecker::fail(const std::string& what) const {
  throw Error(fmt::format("AXI checker {}: cycle {}: {}", name_, now_, what));
}

void AxiChecker::reset() {
  reads_.clear();
  writes_.clear();
  early_w_beats_ = 0;
  early_w_bursts_.clear();
  aw_wait_ = w_wait_ = ar_wait_ = r_wait_ = b_wait_ = false;
}

void AxiChecker::check_request(const char* ch, uint32_t id, uint32_t addr, uint32_t len,
                               uint32_t size, uint32_t burst) const {
  const std::string what =
      fmt::format("{} id {} addr 0x{:x} len {} size {} burst {}", ch, id, addr, len, size, burst);
  if (len > 255) fail(what + ": len > 255");
  if (burst != 1) fail(what + ": not an INCR burst");
  if ((1u << size) != data_bytes_)
    fail(fmt::format("{}: beats of {} bytes on a {}-byte bus", what, 1u << size, data_bytes_));
  const uint64_t last =
      (uint64_t(addr) & ~uint64_t(data_bytes_ - 1)) + uint64_t(len + 1) * data_bytes_ - 1;
  if ((uint64_t(addr) >> 12) != (last >> 12))
    fail(fmt::format("{}: crosses a 4 KiB boundary (last byte 0x{:x})", what, last));
}

void AxiChecker::cycle(const AxiMasterPins& m, const AxiSlavePins& s) {
  // Stability of every channel whose valid was not taken last cycle.
  if (aw_wait_ && (!m.awvalid || m.awid != prev_m_.awid || m.awaddr != prev_m_.awaddr ||
                   m.awlen != prev_m_.awlen || m.awsize != prev_m_.awsize ||
                   m.awburst != prev_m_.awburst))
    fail("AWVALID dropped or AW changed before AWREADY");
  if (ar_wait_ && (!m.arvalid || m.arid != prev_m_.arid || m.araddr != prev_m_.araddr ||
                   m.arlen != prev_m_.arlen || m.arsize != prev_m_.arsize ||
                   m.arburst != prev_m_.arburst))
    fail("ARVALID dropped or AR changed before ARREADY");
  if (w_wait_ && (!m.wvalid || m.wdata != prev_m_.wdata || m.wstrb != prev_m_.wstrb ||
                  m.wlast != prev_m_.wlast))
    fail("WVALID dropped or W changed before WREADY");
  if (r_wait_ && (!s.rvalid || s.rid != prev_s_.rid || s.rdata != prev_s_.rdata ||
                  s.rresp != prev_s_.rresp || s.rlast != prev_s_.rlast))
    fail("RVALID dropped or R changed before RREADY");
  if (b_wait_ && (!s.bvalid || s.bid != prev_s_.bid || s.bresp != prev_s_.bresp))
    fail("BVALID dropped or B changed before BREADY");

  const bool aw = m.awvalid && s.awready, w = m.wvalid && s.wready, ar = m.arvalid && s.arready;
  const bool r = s.rvalid && m.rready, b = s.bvalid && m.bready;
  aw_wait_ = m.awvalid && !s.awready;
  w_wait_ = m.wvalid && !s.wready;
  ar_wait_ = m.arvalid && !s.arready;
  r_wait_ = s.rvalid && !m.rready;
  b_wait_ = s.bvalid && !m.bready;
  prev_m_ = m;
  prev_s_ = s;

  // Responses first: a request and its response in one cycle cannot happen (the response
  // needs the request to have been taken at an earlier edge).
  if (r) {
    auto it = std::find_if(reads_.begin(), reads_.end(), [&](const Burst& x) { return x.id == s.rid; });
    if (it == reads_.end()) fail(fmt::format("R beat with id {} and no AR outstanding", s.rid));
    ++stats_.read_beats;
    if (s.rlast != (it->beats == it->len))
      fail(fmt::format("AR id {} addr 0x{:x} len {}: RLAST {} on beat {}", it->id, it->addr,
                       it->len, s.rlast, it->beats));
    if (it->beats++ == it->len) reads_.erase(it);
  }
  if (b) {
    auto it = std::find_if(writes_.begin(), writes_.end(), [&](const Burst& x) { return x.id == s.bid; });
    if (it == writes_.end()) fail(fmt::format("B with id {} and no AW outstanding", s.bid));
    if (it->beats <= it->len)
      fail(fmt::format("AW id {} addr 0x{:x}: B after {} of its {} W beats", it->id, it->addr,
                       it->beats, it->len + 1));
    writes_.erase(it);
  }
  if (ar) {
    check_request("AR", m.arid, m.araddr, m.arlen, m.arsize, m.arburst);
    reads_.push_back({m.arid, m.araddr, m.arlen, 0});
    ++stats_.reads;
  }
  if (aw) {
    check_request("AW", m.awid, m.awaddr, m.awlen, m.awsize, m.awburst);
    Burst nb{m.awid, m.awaddr, m.awlen, 0};
    if (!early_w_bursts_.empty()) {  // its data came first
      nb.beats = early_w_bursts_.front();
      early_w_bursts_.pop_front();
      if (nb.beats != nb.len + 1)
        fail(fmt::format("AW id {} addr 0x{:x} len {}: its data had WLAST on beat {}", nb.id,
                         nb.addr, nb.len, nb.beats - 1));
    }
    writes_.push_back(nb);
    ++stats_.writes;
  }
  if (w) {
    ++stats_.write_beats;
    auto it = std::find_if(writes_.begin(), writes_.end(), [](const Burst& x) { return x.beats <= x.len; });
    if (it == writes_.end() || !early_w_bursts_.empty() || early_w_beats_ > 0) {
      // W ahead of its AW (legal): count the beats until WLAST, match when the AW comes.
      ++early_w_beats_;
      if (m.wlast) {
        early_w_bursts_.push_back(uint32_t(early_w_beats_));
        early_w_beats_ = 0;
      }
    } else {
      if (m.wlast != (it->beats == it->len))
        fail(fmt::format("AW id {} addr 0x{:x} len {}: WLAST {} on beat {}", it->id, it->addr,
                         it->len, m.wlast, it->beats));
      ++it->beats;
    }
  }
  stats_.max_reads_outstanding = std::max(stats_.max_reads_outstanding, uint32_t(reads_.size()));
  stats_.max_writes_outstanding = std::max(stats_.max_writes_outstanding, uint32_t(writes_.size()));
  ++now_;
}

}  // namespace tern::tb
