// AxiChecker: a passive AXI4 protocol monitor on one master-slave link, independent of both
// ends. Each cycle it sees the master's and the slave's pins as they are at the clock edge and
// throws tern::Error (with the cycle and the transaction) on:
//  - a valid dropped, or its payload changed, before its ready (AW, W, AR from the master; R, B
//    from the slave);
//  - a burst that is not INCR, has beats narrower or wider than the bus, or crosses a 4 KiB
//    boundary;
//  - WLAST or RLAST on the wrong beat;
//  - a response with no request: an R or B whose ID has no outstanding burst, a B before the
//    last W beat of its burst;
//  - ID ordering: R beats and B responses of one ID come in the order of their requests (the
//    checker matches each to the oldest outstanding burst of its ID).
// It also counts outstanding transactions (high-water marks) for the reports.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <string>

#include "axi_mem.h"

namespace tern::tb {

struct AxiCheckerStats {
  uint64_t reads = 0, writes = 0, read_beats = 0, write_beats = 0;
  uint32_t max_reads_outstanding = 0, max_writes_outstanding = 0;
};

class AxiChecker {
 public:
  AxiChecker(std::string name, uint32_t data_bytes) : name_(std::move(name)), data_bytes_(data_bytes) {}

  // The pins of one cycle, before the clock edge.
  void cycle(const AxiMasterPins& m, const AxiSlavePins& s);
  void reset();
  bool idle() const { return reads_.empty() && writes_.empty(); }
  const AxiCheckerStats& stats() const { return stats_; }

 private:
  struct Burst {
    uint32_t id = 0, addr = 0, len = 0;
    uint32_t beats = 0;  // beats seen so far (R), or W beats given (writes)
  };
  [[noreturn]] void fail(const std::string& what) const;
  void check_request(const char* ch, uint32_t id, uint32_t addr, uint32_t len, uint32_t size,
                     uint32_t burst) const;

  std::string name_;
  uint32_t data_bytes_;
  uint64_t now_ = 0;
  AxiMasterPins prev_m_;
  AxiSlavePins prev_s_;
  bool aw_wait_ = false, w_wait_ = false, ar_wait_ = false, r_wait_ = false, b_wait_ = false;
  std::deque<Burst> reads_;   // accepted ARs, in order
  std::deque<Burst> writes_;  // accepted AWs, in order (W data fills them in order)
  uint64_t early_w_beats_ = 0;  // W beats (and lasts) seen before their AW
  std::deque<uint32_t> early_w_bursts_;  // beats of each complete burst seen before its AW
  AxiCheckerStats stats_;
};

}  // namespace tern::tb
