// The AXI4 protocol checker (tb/axi_checker.h) on hand-made pin sequences: legal traffic
// passes, and each rule it claims to check throws when broken.
#include <gtest/gtest.h>

#include "axi_checker.h"
#include "common/error.h"

namespace tern::tb {
namespace {

constexpr uint32_t kBytes = 64;

AxiMasterPins idle_master() {
  AxiMasterPins m;
  m.wdata.assign(kBytes / 4, 0);
  m.wstrb.assign(kBytes, false);
  return m;
}
AxiSlavePins idle_slave() {
  AxiSlavePins s;
  s.rdata.assign(kBytes / 4, 0);
  return s;
}
AxiMasterPins ar(uint32_t id, uint32_t addr, uint32_t len) {
  AxiMasterPins m = idle_master();
  m.arvalid = true;
  m.arid = id;
  m.araddr = addr;
  m.arlen = len;
  m.arsize = 6;
  m.arburst = 1;
  return m;
}
AxiSlavePins r(uint32_t id, bool last) {
  AxiSlavePins s = idle_slave();
  s.rvalid = true;
  s.rid = id;
  s.rlast = last;
  return s;
}

TEST(AxiChecker, LegalReadsOfTwoIdsPass) {
  AxiChecker c("test", kBytes);
  AxiSlavePins ready = idle_slave();
  ready.arready = true;
  c.cycle(ar(1, 0x0, 1), ready);
  c.cycle(ar(2, 0x1000, 0), ready);
  AxiMasterPins take = idle_master();
  take.rready = true;
  c.cycle(take, r(2, true));   // another ID may overtake
  c.cycle(take, r(1, false));
  c.cycle(take, r(1, true));
  EXPECT_TRUE(c.idle());
  EXPECT_EQ(c.stats().reads, 2u);
  EXPECT_EQ(c.stats().max_reads_outstanding, 2u);
}

TEST(AxiChecker, BurstAcross4KiBThrows) {
  AxiChecker c("test", kBytes);
  AxiSlavePins ready = idle_slave();
  ready.arready = true;
  EXPECT_THROW(c.cycle(ar(0, 0xFC0, 1), ready), Error);  // bytes 0xFC0..0x103F
}

TEST(AxiChecker, ArChangedBeforeReadyThrows) {
  AxiChecker c("test", kBytes);
  c.cycle(ar(0, 0x0, 0), idle_slave());  // not ready
  EXPECT_THROW(c.cycle(ar(0, 0x40, 0), idle_slave()), Error);
}

TEST(AxiChecker, RValidDroppedBeforeReadyThrows) {
  AxiChecker c("test", kBytes);
  AxiSlavePins ready = idle_slave();
  ready.arready = true;
  c.cycle(ar(0, 0x0, 0), ready);
  c.cycle(idle_master(), r(0, true));  // RREADY low
  EXPECT_THROW(c.cycle(idle_master(), idle_slave()), Error);
}

TEST(AxiChecker, WrongRlastThrows) {
  AxiChecker c("test", kBytes);
  AxiSlavePins ready = idle_slave();
  ready.arready = true;
  c.cycle(ar(0, 0x0, 1), ready);
  AxiMasterPins take = idle_master();
  take.rready = true;
  EXPECT_THROW(c.cycle(take, r(0, true)), Error);  // two beats; RLAST on the first
}

TEST(AxiChecker, ResponseWithoutRequestThrows) {
  AxiChecker c("test", kBytes);
  AxiMasterPins take = idle_master();
  take.rready = true;
  take.bready = true;
  EXPECT_THROW(c.cycle(take, r(3, true)), Error);
  AxiChecker d("test", kBytes);
  AxiSlavePins b = idle_slave();
  b.bvalid = true;
  EXPECT_THROW(d.cycle(take, b), Error);
}

TEST(AxiChecker, BBeforeTheLastWBeatThrows) {
  AxiChecker c("test", kBytes);
  AxiMasterPins aw = idle_master();
  aw.awvalid = true;
  aw.awaddr = 0;
  aw.awlen = 1;
  aw.awsize = 6;
  aw.awburst = 1;
  aw.wvalid = true;  // the first of two beats
  AxiSlavePins ready = idle_slave();
  ready.awready = ready.wready = true;
  c.cycle(aw, ready);
  AxiMasterPins take = idle_master();
  take.bready = true;
  AxiSlavePins b = idle_slave();
  b.bvalid = true;
  EXPECT_THROW(c.cycle(take, b), Error);
}

}  // namespace
}  // namespace tern::tb
