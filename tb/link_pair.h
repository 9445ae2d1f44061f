// Two verilated NeuronLink ports (rtl/link/tern_link_port.sv) back to back through the channel
// model (tb/link_channel.h), driven from C++: random or full-size traffic on all VCs from both
// ends, random backpressure on the receive side, every delivered packet checked against the
// packets injected (tb/link_traffic.h, decoded with the golden model's decoder). Used by
// tests/test_link_rtl.cc, the regression bench sim/benches/link_bench.cc and the link benchmark.
#pragma once

#include <fmt/format.h>

#include <verilated.h>
#include <verilated_fst_c.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "common/error.h"
#include "dut.h"
#include "link/link_format.h"
#include "link_channel.h"
#include "link_traffic.h"

namespace tern::tb {

struct PairOptions {
  ChannelParams channel;            // both directions alike (each its own error stream)
  uint64_t seed = 1;
  uint32_t packets = 200;           // per direction
  bool both_ways = true;            // false: traffic from port 0 to port 1 only
  bool full_size = false;           // every packet a write of MaxPayloadFlits payload flits
  bool one_at_a_time = false;       // inject a packet only when the previous one was delivered
  uint32_t ready_percent = 75;      // receive-side backpressure: a VC takes a flit this often
  uint32_t bubble_percent = 0;      // send side: a flit of a packet is held back this often
  uint64_t max_cycles = 2000000;    // watchdog: not all delivered by then is a failure
  uint64_t reset_port1_at = 0;      // reset port 1 alone at this cycle (0: never); packets in
                                    // flight then may be lost, none duplicated or reordered
  std::string waves;                // FST of port 0 (empty: none)
};

struct PortStats {
  uint64_t crc_errors, framing_errors, duplicates, link_downs, rx_packets, rx_payload_flits,
      retries, timeouts, naks_sent, naks_rcvd, tx_packets, replay_hwm, tx_slots;
};

struct PairResult {
  std::vector<std::string> errors;
  uint64_t cycles = 0;
  uint64_t delivered = 0;
  uint64_t first_active = 0;         // cycle both ends were trained
  std::array<PortStats, 2> port{};
  std::array<ChannelCounters, 2> channel{};
  double mean_latency = 0;           // header in at the sender to header out at the receiver
  uint64_t slots_during_traffic = 0; // port 0's channel slots from its first packet to its last delivery
  uint64_t payload_delivered_0to1 = 0;
  uint64_t wire_packets_checked = 0;  // packets whose CRC the golden model recomputed
  uint64_t lost = 0;                  // packets a reset lost (only with reset_port1_at)
  uint64_t dropped = 0;               // of those, dropped by port 0's transmitter (its counter)
};

namespace detail {

template <typename W>
void to_words(const link::Flit& f, W& w, int word0) {
  for (int i = 0; i < link::kFlitWords; ++i) {
    w[word0 + 2 * i] = static_cast<uint32_t>(f[i]);
    w[word0 + 2 * i + 1] = static_cast<uint32_t>(f[i] >> 32);
  }
}
template <typename W>
link::Flit from_words(const W& w, int word0) {
  link::Flit f{};
  for (int i = 0; i < link::kFlitWords; ++i)
    f[i] = uint64_t{w[word0 + 2 * i]} | (uint64_t{w[word0 + 2 * i + 1]} << 32);
  return f;
}

// One end: the verilated port, the packet it is feeding in and the packets it is reassembling.
template <typename V>
struct End {
  Dut<V> m = std::make_unique<V>();
  std::vector<link::Flit> feeding;  // flits of the packet being fed in
  size_t fed = 0;
  link::Packet feeding_pkt;
  uint64_t feeding_since = 0;
  std::array<link::Packet, link::kNumVcs> rx_pkt{};
  std::array<bool, link::kNumVcs> rx_in{};
  std::array<std::vector<uint64_t>, link::kNumVcs> inject_cycle;  // per VC, in order
  // What the port puts on the wire, before the channel's errors, reassembled for the golden
  // CRC check.
  link::Flit wire_hdr{};
  std::vector<link::Flit> wire_payload;
  uint64_t wire_left = 0;
  uint64_t wire_packets = 0, wire_ctrl = 0;
  PortStats stats() const {
    return {m->cnt_crc_errors_o, m->cnt_framing_errors_o, m->cnt_duplicates_o, m->cnt_link_downs_o,
            m->cnt_rx_packets_o, m->cnt_rx_payload_flits_o, m->cnt_retries_o, m->cnt_timeouts_o,
            m->cnt_naks_sent_o, m->cnt_naks_rcvd_o, m->cnt_tx_packets_o, m->cnt_replay_hwm_o,
            m->cnt_tx_slots_o};
  }
};

// The golden model's verdict on a flit the RTL transmitter sends: control flits decode with a
// good CRC, every packet carries the CRC the golden model computes over it.
template <typename E>
void check_wire(E& e, const link::WireFlit& w, int s, uint64_t cycle, std::vector<std::string>& errors) {
  if (!w.valid) return;
  const auto check_packet_crc = [&] {
    const uint64_t crc = link::get_field(e.wire_hdr, link::header_layout().at("crc"));
    if (crc != link::packet_crc(e.wire_hdr, e.wire_payload))
      errors.push_back(fmt::format("cycle {} port {}: packet seq {} sent with CRC {:#010x}, the golden "
                                   "model computes {:#010x}", cycle, s, link::flit_seq(e.wire_hdr), crc,
                                   link::packet_crc(e.wire_hdr, e.wire_payload)));
    ++e.wire_packets;
  };
  if (!w.head) {
    if (e.wire_left == 0) {
      errors.push_back(fmt::format("cycle {} port {}: a payload flit sent outside a packet", cycle, s));
      return;
    }
    e.wire_payload.push_back(w.data);
    if (--e.wire_left == 0) check_packet_crc();
    return;
  }
  e.wire_left = 0;  // (a packet cut short by the link going down is not checked)
  if (link::flit_type(w.data) == link::FlitType::kHeader) {
    e.wire_hdr = w.data;
    e.wire_payload.clear();
    e.wire_left = link::get_field(w.data, link::header_layout().at("len"));
    if (e.wire_left == 0) check_packet_crc();
    return;
  }
  link::Ctrl c;
  if (!link::decode_ctrl(w.data, &c))
    errors.push_back(fmt::format("cycle {} port {}: a control flit the golden model rejects", cycle, s));
  ++e.wire_ctrl;
}

}  // namespace detail

template <typename V>
PairResult run_link_pair(const PairOptions& o) {
  o.channel.check();
  if (o.bubble_percent >= 100)
    throw Error(fmt::format("link pair: bubble_percent {} must be below 100", o.bubble_percent));
  if (o.ready_percent == 0 || o.ready_percent > 100)
    throw Error(fmt::format("link pair: ready_percent {} must be 1..100", o.ready_percent));
  // RTL assertions (flow-control invariants) report instead of aborting; checked at the end.
  Verilated::fatalOnError(false);
  Verilated::gotError(false);
  PairResult r;
  std::array<detail::End<V>, 2> end;
  std::array<Channel, 2> wire{Channel(o.channel, o.seed * 2 + 1), Channel(o.channel, o.seed * 2 + 2)};
  std::array<LinkTraffic, 2> traffic{LinkTraffic(o.seed * 3 + 1, link::kMaxPayloadFlits, o.full_size),
                                     LinkTraffic(o.seed * 3 + 2, link::kMaxPayloadFlits, o.full_size)};
  std::array<uint32_t, 2> made{0, 0};
  std::array<link::WireFlit, 2> arriving{};
  std::mt19937_64 rng(o.seed);
  std::unique_ptr<VerilatedFstC> fst;
  if (!o.waves.empty()) {
    end[0].m->contextp()->traceEverOn(true);
    fst = std::make_unique<VerilatedFstC>();
    end[0].m->trace(fst.get(), 99);
    fst->open(o.waves.c_str());
    if (!fst->isOpen()) throw Error("link pair: cannot open waveform file " + o.waves);
  }
  for (auto& e : end) {
    e.m->rst_ni = 0;
    e.m->clk_i = 0;
    e.m->eval();
    e.m->rst_ni = 1;
    e.m->eval();
  }
  const uint32_t want = o.both_ways ? 2 * o.packets : o.packets;
  uint64_t latency_sum = 0, latency_n = 0, traffic_start_slots = 0, traffic_end_slots = 0;
  bool started = false;
  uint64_t cycle = 0;
  const uint64_t loss_cutoff = o.reset_port1_at + 4 * o.channel.latency + 200;
  for (; cycle < o.max_cycles && r.errors.empty(); ++cycle) {
    if (o.reset_port1_at && cycle == o.reset_port1_at) {
      // Port 1 alone is reset: its user's half-fed packet and half-read packets are gone.
      auto& e = end[1];
      e.m->rst_ni = 0;
      e.m->eval();
      e.m->rst_ni = 1;
      e.m->eval();
      e.feeding.clear();
      e.fed = 0;
      e.rx_in = {};
      for (auto& q : e.inject_cycle) q.clear();
      for (auto& q : end[0].inject_cycle) q.clear();
      e.wire_left = 0;
      traffic[0].allow_loss_before(loss_cutoff);  // port 0 drops what port 1 did not acknowledge
      traffic[1].allow_loss_before(cycle);        // what port 1 had not delivered is gone
    }
    const bool both_up = end[0].m->link_up_o && end[1].m->link_up_o;
    if (both_up && r.first_active == 0) r.first_active = cycle;
    // Inputs of this cycle.
    for (int s = 0; s < 2; ++s) {
      auto& e = end[s];
      const bool sends = s == 0 || o.both_ways;
      if (e.fed == e.feeding.size() && sends && made[s] < o.packets && both_up &&
          (!o.one_at_a_time || traffic[s].outstanding() == 0)) {
        e.feeding_pkt = traffic[s].make(static_cast<uint32_t>(rng() % link::kNumVcs));
        e.feeding = link::encode_packet(e.feeding_pkt, 0);  // the port fills in seq and crc
        e.fed = 0;
        e.feeding_since = cycle;
        ++made[s];
      }
      e.m->tx_valid_i = e.fed < e.feeding.size() && !(o.bubble_percent && rng() % 100 < o.bubble_percent);
      if (e.fed < e.feeding.size()) detail::to_words(e.feeding[e.fed], e.m->tx_flit_i, 0);
      uint32_t ready = 0;
      for (int v = 0; v < link::kNumVcs; ++v)
        if (rng() % 100 < o.ready_percent) ready |= 1u << v;
      e.m->rx_ready_i = ready;
      e.m->phy_tx_ready_i = wire[s].ready(cycle);
      e.m->phy_rx_valid_i = arriving[s].valid;
      e.m->phy_rx_head_i = arriving[s].head;
      detail::to_words(arriving[s].data, e.m->phy_rx_flit_i, 0);
      e.m->clk_i = 0;
      e.m->eval();
    }
    if (fst) fst->dump(2 * cycle);
    // Outputs before the edge: what the registers take.
    std::array<link::WireFlit, 2> out;
    for (int s = 0; s < 2; ++s) {
      auto& e = end[s];
      if (e.m->tx_valid_i && e.m->tx_ready_o) {
        if (e.fed == 0) {
          e.inject_cycle[e.feeding_pkt.h.vc].push_back(cycle);
          if (s == 0 && !started) {
            started = true;
            traffic_start_slots = e.m->cnt_tx_slots_o;
          }
        }
        if (++e.fed == e.feeding.size()) traffic[s].sent(e.feeding_pkt, cycle);
      }
      out[s].valid = e.m->phy_tx_valid_o;
      out[s].head = e.m->phy_tx_head_o;
      out[s].data = detail::from_words(e.m->phy_tx_flit_o, 0);
      check_wire(e, out[s], s, cycle, r.errors);
      for (int v = 0; v < link::kNumVcs; ++v) {
        if (!((e.m->rx_valid_o >> v) & 1u) || !((e.m->rx_ready_i >> v) & 1u)) continue;
        const link::Flit f = detail::from_words(e.m->rx_flit_o, v * 2 * link::kFlitWords);
        const bool head = (e.m->rx_head_o >> v) & 1u;
        link::Packet& p = e.rx_pkt[v];
        if (head) {
          if (e.rx_in[v]) r.errors.push_back(fmt::format("cycle {} port {} VC {}: a header inside a packet", cycle, s, v));
          p = link::Packet{link::decode_header(f), {}};
          e.rx_in[v] = true;
          if (p.h.vc != static_cast<uint32_t>(v))
            r.errors.push_back(fmt::format("cycle {} port {}: a VC {} header delivered on VC {}", cycle, s, p.h.vc, v));
          // The delivered header as the golden model encodes it, apart from the link's seq/crc.
          link::Flit mine = link::header_flit(p.h, link::flit_seq(f));
          link::set_field(mine, link::header_layout().at("crc"), link::get_field(f, link::header_layout().at("crc")));
          if (mine != f) r.errors.push_back(fmt::format("cycle {} port {} VC {}: header has stray bits", cycle, s, v));
          auto& inj = end[1 - s].inject_cycle[v];
          if (!inj.empty()) {
            latency_sum += cycle - inj.front();
            ++latency_n;
            inj.erase(inj.begin());
          }
        } else {
          if (!e.rx_in[v]) {
            r.errors.push_back(fmt::format("cycle {} port {} VC {}: a payload flit outside a packet", cycle, s, v));
            continue;
          }
          p.payload.push_back(f);
        }
        if (e.rx_in[v] && p.payload.size() == std::min<uint32_t>(p.h.len, link::kMaxPayloadFlits)) {
          e.rx_in[v] = false;
          const std::string err = traffic[1 - s].delivered(p);
          if (!err.empty()) r.errors.push_back(fmt::format("cycle {} port {}: {}", cycle, s, err));
          if (s == 1) {
            r.payload_delivered_0to1 += p.h.len;
            traffic_end_slots = end[0].m->cnt_tx_slots_o;
          }
        }
      }
    }
    for (auto& e : end) {
      e.m->clk_i = 1;
      e.m->eval();
    }
    if (fst) fst->dump(2 * cycle + 1);
    for (int s = 0; s < 2; ++s) arriving[1 - s] = wire[s].step(out[s], cycle);
    const bool all_fed = made[0] == o.packets && end[0].fed == end[0].feeding.size() &&
                         (!o.both_ways || (made[1] == o.packets && end[1].fed == end[1].feeding.size()));
    if (all_fed) {
      // Long after a reset, what it lost will not come any more.
      if (o.reset_port1_at && cycle > loss_cutoff + 5000) {
        traffic[0].forget_lost();
        traffic[1].forget_lost();
      }
      if (traffic[0].outstanding() == 0 && traffic[1].outstanding() == 0) {
        ++cycle;
        break;
      }
    }
  }
  if (Verilated::gotError()) r.errors.push_back("an RTL assertion failed (its message is above)");
  if (fst) fst->close();
  r.cycles = cycle;
  r.delivered = traffic[0].delivered_count() + traffic[1].delivered_count();
  for (int s = 0; s < 2; ++s) {
    r.port[s] = end[s].stats();
    r.channel[s] = wire[s].counters();
    r.wire_packets_checked += end[s].wire_packets;
  }
  r.mean_latency = latency_n ? static_cast<double>(latency_sum) / latency_n : 0;
  r.slots_during_traffic = traffic_end_slots - traffic_start_slots;
  r.lost = traffic[0].lost() + traffic[1].lost();
  r.dropped = end[0].m->cnt_dropped_o;
  // Every packet made was sent, except one a reset caught half fed in (never sent, so never due).
  const uint64_t sent = traffic[0].sent_count() + traffic[1].sent_count();
  if (r.errors.empty() && (r.delivered + r.lost != sent || sent + (o.reset_port1_at ? 1 : 0) < want))
    r.errors.push_back(fmt::format("watchdog: {} of {} packets delivered ({} sent, {} lost to a reset) after {} "
                                   "cycles (deadlock or livelock)", r.delivered, want, sent, r.lost, r.cycles));
  return r;
}

}  // namespace tern::tb
