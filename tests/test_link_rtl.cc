// The NeuronLink port RTL: two verilated ports back to back through the channel model, random
// traffic on all VCs from both ends under random backpressure, BER from 0 to 1e-4, bursts,
// dropped flits and the link down for a while: every packet delivered exactly once, in order per
// VC, header and payload as injected; every packet and control flit the RTL sends carries the CRC
// the golden model computes. The same test on a port built without the receiver's CRC check
// (CheckCrc=0) must fail: it shows the test can see a missing check.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "Vtern_link_port.h"
#include "Vtern_link_port_nocrc.h"
#include "Vtern_link_port_small.h"
#include "link_pair.h"
#include "test_util.h"

namespace tern::tb {
namespace {

void report(const char* name, const PairOptions& o, const PairResult& r) {
  fmt::print("rtl pair {:>12} ber {:g} seed {}: {} packets in {} cycles (trained at {}), CRC errors {}+{}, "
             "NAKs {}+{}, retries {}+{} (timeouts {}+{}), link downs {}+{}, replay high water {}+{}, "
             "{} packets' CRC recomputed by the golden model\n",
             name, o.channel.ber, o.seed, r.delivered, r.cycles, r.first_active, r.port[0].crc_errors,
             r.port[1].crc_errors, r.port[0].naks_sent, r.port[1].naks_sent, r.port[0].retries,
             r.port[1].retries, r.port[0].timeouts, r.port[1].timeouts, r.port[0].link_downs,
             r.port[1].link_downs, r.port[0].replay_hwm, r.port[1].replay_hwm, r.wire_packets_checked);
  for (size_t i = 0; i < r.errors.size() && i < 5; ++i) fmt::print("  error: {}\n", r.errors[i]);
}

PairOptions base_options(uint32_t packets) {
  PairOptions o;
  o.seed = test::test_seed();
  o.packets = packets;
  o.max_cycles = 400000;
  o.bubble_percent = 15;  // the senders' streams have gaps inside packets too
  return o;
}

TEST(LinkRtl, CleanChannelDeliversEverythingInOrder) {
  PairOptions o = base_options(150);
  const PairResult r = run_link_pair<Vtern_link_port>(o);
  report("clean", o, r);
  EXPECT_TRUE(r.errors.empty()) << r.errors.front();
  EXPECT_GT(r.first_active, 0u);
  EXPECT_EQ(r.port[0].crc_errors + r.port[1].crc_errors, 0u);
  EXPECT_EQ(r.port[0].retries + r.port[1].retries, 0u);
  EXPECT_EQ(r.port[0].rx_packets + r.port[1].rx_packets, 300u);
  EXPECT_EQ(r.port[0].tx_packets + r.port[1].tx_packets, 300u);
  EXPECT_GT(r.wire_packets_checked, 0u);
}

TEST(LinkRtl, RandomBitErrorsUpTo1eMinus4) {
  for (double ber : {1e-6, 1e-5, 1e-4}) {
    PairOptions o = base_options(150);
    o.channel.ber = ber;
    o.channel.latency = 6;
    const PairResult r = run_link_pair<Vtern_link_port>(o);
    report("random bits", o, r);
    EXPECT_TRUE(r.errors.empty()) << "ber " << ber << ": " << r.errors.front();
    if (ber >= 1e-4) {
      EXPECT_GT(r.port[0].crc_errors + r.port[1].crc_errors, 0u);
      EXPECT_GT(r.port[0].retries + r.port[1].retries, 0u);
    }
  }
}

TEST(LinkRtl, BurstsDropsSlowChannel) {
  PairOptions o = base_options(120);
  o.channel.burst_rate = 0.01;
  o.channel.burst_bits = 24;
  PairResult r = run_link_pair<Vtern_link_port>(o);
  report("bursts", o, r);
  EXPECT_TRUE(r.errors.empty()) << r.errors.front();
  EXPECT_GT(r.port[0].retries + r.port[1].retries, 0u);

  o = base_options(120);
  o.channel.drop_rate = 0.005;
  r = run_link_pair<Vtern_link_port>(o);
  report("drops", o, r);
  EXPECT_TRUE(r.errors.empty()) << r.errors.front();
  EXPECT_GT(r.port[0].framing_errors + r.port[1].framing_errors + r.port[0].timeouts + r.port[1].timeouts, 0u);

  o = base_options(80);
  o.channel.slot_every = 3;
  o.channel.latency = 25;
  o.channel.ber = 1e-5;
  o.ready_percent = 30;
  r = run_link_pair<Vtern_link_port>(o);
  report("slow+long", o, r);
  EXPECT_TRUE(r.errors.empty()) << r.errors.front();
}

TEST(LinkRtl, LinkDownAndRecovery) {
  PairOptions o = base_options(150);
  o.channel.down_start = 2000;
  o.channel.down_cycles = 700;
  o.channel.ber = 1e-5;
  const PairResult r = run_link_pair<Vtern_link_port>(o);
  report("link down", o, r);
  EXPECT_TRUE(r.errors.empty()) << r.errors.front();
  EXPECT_GT(r.port[0].link_downs + r.port[1].link_downs, 0u);
  EXPECT_GT(r.port[0].retries + r.port[1].retries, 0u);
}

// Not the default parameters: 64-flit VC buffers and replay buffer, a replay timer of 100 slots
// (shorter than some round trips here: spurious replays and duplicates), a link timeout of 16
// cycles (the link goes down on a burst of lost flits), a control flit every 8 slots.
TEST(LinkRtl, SmallBuffersShortTimersUnderErrors) {
  struct Case {
    const char* name;
    double ber, drop;
    uint32_t latency, down;
  };
  for (const Case& c : {Case{"small clean", 0, 0, 4, 0}, Case{"small ber", 1e-4, 0, 12, 0},
                        Case{"small drops", 1e-5, 0.01, 4, 0}, Case{"small down", 1e-5, 0, 30, 300}}) {
    PairOptions o = base_options(150);
    o.channel.ber = c.ber;
    o.channel.drop_rate = c.drop;
    o.channel.latency = c.latency;
    o.channel.down_start = 1500;
    o.channel.down_cycles = c.down;
    o.ready_percent = 50;
    const PairResult r = run_link_pair<Vtern_link_port_small>(o);
    report(c.name, o, r);
    EXPECT_TRUE(r.errors.empty()) << c.name << ": " << r.errors.front();
    EXPECT_LE(std::max(r.port[0].replay_hwm, r.port[1].replay_hwm), 64u);
  }
}

// One end reset while the other keeps running: the reset handshake (fresh / fresh_ack in the
// training flits) re-aligns sequence numbers and credits; packets in flight then may be lost
// (the reset port's undelivered ones, the other's unacknowledged ones), none is duplicated or
// reordered, and traffic goes on.
TEST(LinkRtl, OneEndResetAlone) {
  for (double ber : {0.0, 1e-5}) {
    PairOptions o = base_options(200);
    o.channel.ber = ber;
    o.channel.latency = 6;
    o.reset_port1_at = ber == 0 ? 1500 : 700 + o.seed % 2500;
    const PairResult r = run_link_pair<Vtern_link_port>(o);
    report("port 1 reset", o, r);
    fmt::print("  reset at cycle {}: {} packets lost, port 0 dropped {} unacknowledged\n", o.reset_port1_at,
               r.lost, r.dropped);
    EXPECT_TRUE(r.errors.empty()) << r.errors.front();
    EXPECT_GT(r.delivered, 300u) << "traffic did not go on after the reset";
  }
  PairOptions o = base_options(200);
  o.channel.ber = 1e-5;
  o.reset_port1_at = 900 + o.seed % 1000;
  const PairResult r = run_link_pair<Vtern_link_port_small>(o);
  report("small, reset", o, r);
  EXPECT_TRUE(r.errors.empty()) << r.errors.front();
  EXPECT_GT(r.delivered, 300u);
}

TEST(LinkRtl, TheTestCatchesAReceiverWithoutItsCrcCheck) {
  PairOptions o = base_options(150);
  o.channel.ber = 1e-4;
  const PairResult r = run_link_pair<Vtern_link_port_nocrc>(o);
  report("no CRC check", o, r);
  EXPECT_FALSE(r.errors.empty()) << "corrupted packets went unnoticed: the test cannot see a missing CRC check";
}

TEST(LinkRtl, BadHarnessInputIsRejected) {
  PairOptions o = base_options(1);
  o.channel.latency = 0;
  EXPECT_THROW(run_link_pair<Vtern_link_port>(o), Error);
  o = base_options(1);
  o.ready_percent = 0;
  EXPECT_THROW(run_link_pair<Vtern_link_port>(o), Error);
  o = base_options(1);
  o.bubble_percent = 100;
  EXPECT_THROW(run_link_pair<Vtern_link_port>(o), Error);
}

}  // namespace
}  // namespace tern::tb
