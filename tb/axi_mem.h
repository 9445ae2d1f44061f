// A cycle-level AXI4 slave memory for verilated masters, in plain C++ (no SystemC): a
// byte-addressed store with backdoor access, configurable read and write latency, a limit on
// transactions in flight, error ranges (SLVERR for a range, DECERR at and after the size) and
// protocol checks that throw tern::Error with the cycle and the transaction: a burst crossing a
// 4 KiB boundary, len > 255, a burst type other than INCR, a beat size other than the bus
// width, WLAST on the wrong beat, a valid dropped or a payload changed before its ready.
//
// Use: each cycle, drive the slave outputs (`out()`) into the model's inputs, eval, sample the
// master outputs into `AxiMasterPins`, call `cycle()` (it computes this cycle's handshakes
// exactly as the RTL sees them at the clock edge), then clock the RTL. `sample_axi` /
// `drive_axi` do the copying for any verilated top with the m_axi_* port names.
// Writes must follow their AW (W beats without an accepted AW wait: WREADY low).
#pragma once

#include <cstdint>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include "ports.h"

namespace tern::tb {

struct AxiMemOptions {
  uint64_t size = 1 << 20;          // bytes; DECERR at and after
  uint32_t data_bytes = 64;         // bus width
  uint32_t read_latency = 8;        // cycles from AR to the first R beat
  uint32_t write_latency = 4;       // cycles from the last W beat to B
  uint32_t max_reads = 8;           // AR accepted while fewer are in flight
  uint32_t max_writes = 8;
  uint32_t ready_percent = 100;     // chance that AWREADY/WREADY/ARREADY are high in a cycle
  uint32_t rvalid_percent = 100;    // chance that a due R beat is offered in a cycle
  uint64_t seed = 1;
};

// The master's outputs in one cycle.
struct AxiMasterPins {
  bool awvalid = false, wvalid = false, wlast = false, bready = false, arvalid = false,
       rready = false;
  uint32_t awid = 0, awaddr = 0, awlen = 0, awsize = 0, awburst = 0;
  uint32_t arid = 0, araddr = 0, arlen = 0, arsize = 0, arburst = 0;
  std::vector<uint32_t> wdata;  // data_bytes / 4 words
  std::vector<bool> wstrb;      // data_bytes
};

// The slave's outputs, valid for the cycle after `cycle()`.
struct AxiSlavePins {
  bool awready = false, wready = false, bvalid = false, arready = false, rvalid = false,
       rlast = false;
  uint32_t bid = 0, bresp = 0, rid = 0, rresp = 0;
  std::vector<uint32_t> rdata;
};

struct AxiMemStats {
  uint64_t reads = 0, writes = 0, read_beats = 0, write_beats = 0;
  uint32_t max_reads_in_flight = 0, max_writes_in_flight = 0, max_in_flight = 0;
  uint32_t max_len = 0;
};

class AxiMem {
 public:
  explicit AxiMem(const AxiMemOptions& opt);

  // Backdoor.
  void write(uint64_t addr, const void* src, uint64_t bytes);
  void read(uint64_t addr, void* dst, uint64_t bytes) const;
  std::vector<uint8_t>& bytes() { return mem_; }
  const std::vector<uint8_t>& bytes() const { return mem_; }
  void add_slverr(uint64_t first, uint64_t end) { slverr_.push_back({first, end}); }
  // A burst whose start address lies in [first, end) is accepted and never answered (no R
  // beat, no B): a lost response, for the watchdogs. Later bursts queue behind it.
  void add_lost(uint64_t first, uint64_t end) { lost_.push_back({first, end}); }
  void clear_errors() {
    slverr_.clear();
    lost_.clear();
  }
  void set_latency(uint32_t read, uint32_t write) {
    opt_.read_latency = read;
    opt_.write_latency = write;
  }
  void set_ready_percent(uint32_t pct) { opt_.ready_percent = pct; }

  // One clock cycle: handshakes of `m` against out(), then the next outputs.
  void cycle(const AxiMasterPins& m);
  const AxiSlavePins& out() const { return out_; }
  // Drops every transaction (after the master was reset).
  void reset();

  uint32_t reads_in_flight() const { return uint32_t(reads_.size()); }
  uint32_t writes_in_flight() const { return uint32_t(writes_.size()); }
  uint64_t now() const { return now_; }
  uint32_t data_bytes() const { return opt_.data_bytes; }
  const AxiMemStats& stats() const { return stats_; }
  void clear_stats() { stats_ = {}; }

 private:
  struct Burst {
    uint32_t id = 0, addr = 0, len = 0;
    uint32_t beat = 0;        // next beat
    uint64_t due = 0;         // first R beat (reads) / B (writes, once all W arrived)
    bool w_done = false;
    uint32_t resp = 0;        // writes: the worst response of its beats
  };
  uint64_t beat_addr(const Burst& b, uint32_t k) const;  // the beat's bus-aligned word
  uint32_t beat_resp(uint64_t word) const;
  void check_burst(const char* ch, uint32_t addr, uint32_t len, uint32_t size,
                   uint32_t burst) const;
  [[noreturn]] void fail(const std::string& what) const;

  AxiMemOptions opt_;
  std::vector<uint8_t> mem_;
  std::vector<std::pair<uint64_t, uint64_t>> slverr_, lost_;
  uint64_t due_after(uint32_t addr, uint32_t latency) const;  // now + latency, or never if lost
  std::deque<Burst> reads_, writes_;  // in order of acceptance
  AxiSlavePins out_;
  AxiMasterPins prev_;                // the last cycle's master pins (stability checks)
  bool aw_wait_ = false, w_wait_ = false, ar_wait_ = false;  // valid without ready last cycle
  uint64_t now_ = 0;
  AxiMemStats stats_;
  std::mt19937_64 rng_;
};

// Copies between the model and a verilated top's m_axi_* ports (plain integers up to 64 bits,
// VlWide above).
template <typename Top>
AxiMasterPins sample_axi(const Top& t, uint32_t data_bytes) {
  AxiMasterPins m;
  m.awvalid = t.m_axi_awvalid_o;
  m.awid = t.m_axi_awid_o;
  m.awaddr = t.m_axi_awaddr_o;
  m.awlen = t.m_axi_awlen_o;
  m.awsize = t.m_axi_awsize_o;
  m.awburst = t.m_axi_awburst_o;
  m.wvalid = t.m_axi_wvalid_o;
  m.wlast = t.m_axi_wlast_o;
  m.bready = t.m_axi_bready_o;
  m.arvalid = t.m_axi_arvalid_o;
  m.arid = t.m_axi_arid_o;
  m.araddr = t.m_axi_araddr_o;
  m.arlen = t.m_axi_arlen_o;
  m.arsize = t.m_axi_arsize_o;
  m.arburst = t.m_axi_arburst_o;
  m.rready = t.m_axi_rready_o;
  m.wdata.resize(data_bytes / 4);
  for (uint32_t i = 0; i < data_bytes / 4; ++i) m.wdata[i] = detail::get_word(t.m_axi_wdata_o, i);
  m.wstrb.resize(data_bytes);
  for (uint32_t i = 0; i < data_bytes; ++i)
    m.wstrb[i] = (detail::get_word(t.m_axi_wstrb_o, i / 32) >> (i % 32)) & 1u;
  return m;
}

template <typename Top>
void drive_axi(Top& t, const AxiSlavePins& s) {
  t.m_axi_awready_i = s.awready;
  t.m_axi_wready_i = s.wready;
  t.m_axi_bvalid_i = s.bvalid;
  t.m_axi_bid_i = s.bid;
  t.m_axi_bresp_i = s.bresp;
  t.m_axi_arready_i = s.arready;
  t.m_axi_rvalid_i = s.rvalid;
  t.m_axi_rid_i = s.rid;
  t.m_axi_rresp_i = s.rresp;
  t.m_axi_rlast_i = s.rlast;
  for (size_t i = 0; i < s.rdata.size(); ++i) detail::set_word(t.m_axi_rdata_i, i, s.rdata[i]);
}

}  // namespace tern::tb
