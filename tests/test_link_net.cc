// NeuronLink networks of verilated nodes (router + link ports per chip): a ring of 8, a 4 x 4
// torus (Trn2's 16-chip node) and a 4 x 4 x 4 torus (the UltraServer's 64 chips) with random
// all-to-all traffic from every chip, clean and with bit errors on every link: no loss, no
// duplication, per-flow order, the golden route's VCs, and no deadlock (a watchdog fails the run).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "Vtern_link_node_ring8.h"
#include "Vtern_link_node_torus4x4.h"
#include "Vtern_link_node_torus4x4x4.h"
#include "link_net.h"
#include "test_util.h"

namespace tern::tb {
namespace {

void report(const link::Torus& t, const NetOptions& o, const NetResult& r) {
  fmt::print("rtl network {} ber {:g} seed {}: {} of {} packets ({} payload flits) in {} cycles, mean {:.2f} hops, "
             "CRC errors {}, retries {}\n", t.name(), o.channel.ber, o.seed, r.delivered, r.sent,
             r.payload_flits, r.cycles, r.mean_hops, r.crc_errors, r.retries);
  for (size_t i = 0; i < r.errors.size() && i < 5; ++i) fmt::print("  error: {}\n", r.errors[i]);
}

TEST(LinkNet, RingOf8AllToAll) {
  for (double ber : {0.0, 1e-5}) {
    NetOptions o;
    o.seed = test::test_seed();
    o.packets_per_chip = 60;
    o.channel.ber = ber;
    const link::Torus t{{8, 1, 1}};
    const NetResult r = run_link_net<Vtern_link_node_ring8>(t, o);
    report(t, o, r);
    EXPECT_TRUE(r.errors.empty()) << r.errors.front();
  }
}

TEST(LinkNet, Torus4x4AllToAll) {
  for (double ber : {0.0, 1e-5}) {
    NetOptions o;
    o.seed = test::test_seed() + 1;
    o.packets_per_chip = 40;
    o.channel.ber = ber;
    const link::Torus t{{4, 4, 1}};
    const NetResult r = run_link_net<Vtern_link_node_torus4x4>(t, o);
    report(t, o, r);
    EXPECT_TRUE(r.errors.empty()) << r.errors.front();
  }
}

TEST(LinkNet, Torus4x4x4AllToAll) {
  NetOptions o;
  o.seed = test::test_seed() + 2;
  o.packets_per_chip = 24;
  o.channel.ber = 1e-5;
  const link::Torus t{{4, 4, 4}};
  const NetResult r = run_link_net<Vtern_link_node_torus4x4x4>(t, o);
  report(t, o, r);
  EXPECT_TRUE(r.errors.empty()) << r.errors.front();
}

// Back-to-back injection from every chip at once, full-size packets, no errors: the network at
// its saturation throughput; the watchdog is what would catch a deadlock.
TEST(LinkNet, Torus4x4SaturatedAllToAll) {
  NetOptions o;
  o.seed = test::test_seed() + 3;
  o.packets_per_chip = 60;
  o.max_len = 32;
  o.eject_ready_percent = 100;
  const link::Torus t{{4, 4, 1}};
  const NetResult r = run_link_net<Vtern_link_node_torus4x4>(t, o);
  report(t, o, r);
  EXPECT_TRUE(r.errors.empty()) << r.errors.front();
  fmt::print("4x4 all-to-all: {:.3f} payload flits per cycle per chip delivered\n",
             double(r.payload_flits) / r.cycles / t.chips());
}

}  // namespace
}  // namespace tern::tb
