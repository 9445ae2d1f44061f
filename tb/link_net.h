// A network of verilated NeuronLink nodes (rtl/link/tern_link_node.sv: router + link ports), one
// per chip of a ring or torus, their links joined by the channel model; random all-to-all
// traffic injected at every chip. Checks: every packet arrives once, at the chip it was sent to,
// bit for bit as injected, in order per flow (source, destination, message class); the route it
// took is the golden routing function's (the VC it arrived on at the last hop); and a watchdog
// fails the run when nothing is delivered for a while (deadlock) or the cycle cap is reached.
#pragma once

#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "common/error.h"
#include "dut.h"
#include "link/link_format.h"
#include "link/router.h"
#include "link_channel.h"
#include "link_pair.h"

namespace tern::tb {

struct NetOptions {
  ChannelParams channel;
  uint64_t seed = 1;
  uint32_t packets_per_chip = 20;
  uint32_t max_len = 8;            // payload flits per packet, 0..max_len
  uint32_t eject_ready_percent = 80;
  uint32_t inject_gap = 0;         // cycles a chip waits after injecting a packet (light load)
  uint64_t max_cycles = 200000;
  uint64_t stall_cycles = 20000;   // no delivery for this long while packets are out: deadlock
  std::string waves;               // FST of chip 0's node (empty: none)
};

struct NetResult {
  std::vector<std::string> errors;
  uint64_t cycles = 0, delivered = 0, sent = 0, payload_flits = 0;
  uint64_t crc_errors = 0, retries = 0;
  double mean_hops = 0;
  double mean_latency = 0;  // cycles from the header's injection to the last flit's ejection
};

template <typename V>
NetResult run_link_net(const link::Torus& t, const NetOptions& o) {
  t.check();
  o.channel.check();
  int dims = 0;
  for (int d = 0; d < 3; ++d)
    if (t.dims[d] > 1) dims = d + 1;
  const int links = 2 * dims;
  const uint32_t n = t.chips();
  // RTL assertions (flow-control invariants) report instead of aborting; checked at the end.
  Verilated::fatalOnError(false);
  Verilated::gotError(false);
  NetResult r;
  std::vector<Dut<V>> node;
  std::vector<Channel> wire;  // wire[c * links + l]: chip c's link l transmitter
  for (uint32_t c = 0; c < n; ++c) {
    node.push_back(std::make_unique<V>());
    for (int l = 0; l < links; ++l) wire.emplace_back(o.channel, o.seed * 1000 + c * links + l);
  }
  // Chip c's link l (dimension l / 2, + when even) joins the neighbour's link l ^ 1.
  auto neighbour = [&](uint32_t c, int l) {
    std::array<uint32_t, 3> x = t.coords(c);
    const int d = l / 2;
    x[d] = (x[d] + ((l & 1) ? t.dims[d] - 1 : 1)) % t.dims[d];
    return t.chip(x);
  };
  std::vector<link::WireFlit> arriving(n * links);
  std::mt19937_64 rng(o.seed);
  auto rnd = [&](uint64_t k) { return std::uniform_int_distribution<uint64_t>(0, k - 1)(rng); };
  // Per chip: the packets still to inject and the one being fed in.
  struct Src {
    uint32_t made = 0;
    std::vector<link::Flit> flits;
    size_t fed = 0;
    link::Packet pkt;
    uint64_t next_ok = 0;  // earliest cycle of the next injection
  };
  std::vector<Src> src(n);
  std::vector<link::Packet> ej_pkt(n);
  std::vector<bool> ej_in(n, false);
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, std::deque<std::pair<link::Packet, uint64_t>>> flows;
  uint64_t latency_sum = 0;
  uint64_t hops = 0, last_delivery = 0;

  std::unique_ptr<VerilatedFstC> fst;
  if (!o.waves.empty()) {
    node[0]->contextp()->traceEverOn(true);
    fst = std::make_unique<VerilatedFstC>();
    node[0]->trace(fst.get(), 99);
    fst->open(o.waves.c_str());
    if (!fst->isOpen()) throw Error("link network: cannot open waveform file " + o.waves);
  }
  for (auto& m : node) {
    m->rst_ni = 0;
    m->clk_i = 0;
    m->eval();
    m->rst_ni = 1;
    m->eval();
  }
  for (uint32_t c = 0; c < n; ++c) {
    const auto x = t.coords(c);
    node[c]->coord_i = x[0] | (x[1] << 4) | (x[2] << 8);
  }
  const uint64_t want = uint64_t{n} * o.packets_per_chip;
  uint64_t cycle = 0;
  for (; cycle < o.max_cycles && r.errors.empty() && r.delivered < want; ++cycle) {
    if (r.sent > r.delivered && cycle - last_delivery > o.stall_cycles) {
      r.errors.push_back(fmt::format("watchdog: nothing delivered for {} cycles with {} packets in flight "
                                     "(deadlock)", o.stall_cycles, r.sent - r.delivered));
      break;
    }
    for (uint32_t c = 0; c < n; ++c) {
      V& m = *node[c];
      bool up = true;
      for (int l = 0; l < links; ++l) up = up && ((m.link_up_o >> l) & 1u);
      Src& s = src[c];
      if (s.fed == s.flits.size() && s.made < o.packets_per_chip && up && cycle >= s.next_ok) {
        link::Packet p;
        uint32_t dst = static_cast<uint32_t>(rnd(n));
        if (dst == c) dst = (dst + 1) % n;
        const uint32_t cls = static_cast<uint32_t>(rnd(2));
        p.h.dst = t.coords(dst);
        p.h.src = t.coords(c);
        p.h.vc = cls << 1;
        p.h.type = cls ? link::PktType::kReadResp : link::PktType::kWrite;
        if (!cls && rnd(3) == 0) p.h.type = rnd(2) ? link::PktType::kSemInc : link::PktType::kReadReq;
        const bool data = p.h.type == link::PktType::kWrite || p.h.type == link::PktType::kReadResp;
        p.h.len = data ? static_cast<uint32_t>(1 + rnd(o.max_len)) : 0;
        p.h.flow = static_cast<uint32_t>(s.made & 255);
        p.h.mem = static_cast<uint32_t>(rnd(4));
        p.h.addr = rnd(uint64_t{1} << 48);
        p.h.imm = static_cast<uint32_t>(rng());
        for (uint32_t i = 0; i < p.h.len; ++i) {
          link::Flit f;
          for (uint64_t& w : f) w = rng();
          p.payload.push_back(f);
        }
        s.pkt = p;
        s.flits = link::encode_packet(p, 0);
        s.fed = 0;
        ++s.made;
      }
      m.inj_valid_i = s.fed < s.flits.size();
      if (s.fed < s.flits.size()) detail::to_words(s.flits[s.fed], m.inj_flit_i, 0);
      m.ej_ready_i = rnd(100) < o.eject_ready_percent;
      uint32_t rv = 0, rh = 0, tr = 0;
      for (int l = 0; l < links; ++l) {
        const link::WireFlit& a = arriving[c * links + l];
        rv |= uint32_t{a.valid} << l;
        rh |= uint32_t{a.head} << l;
        detail::to_words(a.data, m.phy_rx_flit_i, l * 2 * link::kFlitWords);
        tr |= uint32_t{wire[c * links + l].ready(cycle)} << l;
      }
      m.phy_rx_valid_i = rv;
      m.phy_rx_head_i = rh;
      m.phy_tx_ready_i = tr;
      m.clk_i = 0;
      m.eval();
    }
    if (fst) fst->dump(2 * cycle);
    std::vector<link::WireFlit> out(n * links);
    for (uint32_t c = 0; c < n; ++c) {
      V& m = *node[c];
      Src& s = src[c];
      if (m.inj_valid_i && m.inj_ready_o) {
        if (s.fed == 0) {
          flows[{c, t.chip(s.pkt.h.dst), s.pkt.h.vc >> 1}].push_back({s.pkt, cycle});
          ++r.sent;
        }
        if (++s.fed == s.flits.size()) s.next_ok = cycle + o.inject_gap + rnd(o.inject_gap + 1);
      }
      for (int l = 0; l < links; ++l) {
        link::WireFlit& w = out[c * links + l];
        w.valid = (m.phy_tx_valid_o >> l) & 1u;
        w.head = (m.phy_tx_head_o >> l) & 1u;
        w.data = detail::from_words(m.phy_tx_flit_o, l * 2 * link::kFlitWords);
      }
      if (m.ej_valid_o && m.ej_ready_i) {
        const link::Flit f = detail::from_words(m.ej_flit_o, 0);
        if (!ej_in[c]) {
          ej_pkt[c] = link::Packet{link::decode_header(f), {}};
          ej_in[c] = true;
          // The VC of the last hop is the golden route's.
          const link::PacketHeader& h = ej_pkt[c].h;
          const std::vector<link::Hop> path = link::path(t, t.chip(h.src), c, h.vc >> 1);
          if (path.size() >= 2 && path[path.size() - 2].vc != h.vc)
            r.errors.push_back(fmt::format("cycle {} chip {}: arrived on VC {}, the golden route's last hop is VC {}",
                                           cycle, c, h.vc, path[path.size() - 2].vc));
          hops += path.size() - 1;
        } else {
          ej_pkt[c].payload.push_back(f);
        }
        link::Packet& p = ej_pkt[c];
        if (p.payload.size() == p.h.len) {
          ej_in[c] = false;
          if (t.chip(p.h.dst) != c) {
            r.errors.push_back(fmt::format("cycle {} chip {}: a packet for chip {} delivered here", cycle, c, t.chip(p.h.dst)));
            continue;
          }
          auto& q = flows[{t.chip(p.h.src), c, p.h.vc >> 1}];
          link::Packet expect;
          if (q.empty()) {
            r.errors.push_back(fmt::format("cycle {} chip {}: a packet from chip {} never sent (or delivered twice)",
                                           cycle, c, t.chip(p.h.src)));
            continue;
          }
          expect = q.front().first;
          expect.h.vc = p.h.vc;  // the dateline bit is the route's, checked above
          if (!(expect == p)) {
            r.errors.push_back(fmt::format("cycle {} chip {}: the packet from chip {} (flow {}) is not the next one "
                                           "sent on its flow, or its contents differ", cycle, c, t.chip(p.h.src), p.h.flow));
            continue;
          }
          latency_sum += cycle - q.front().second;
          q.pop_front();
          ++r.delivered;
          r.payload_flits += p.h.len;
          last_delivery = cycle;
        }
      }
    }
    for (auto& m : node) {
      m->clk_i = 1;
      m->eval();
    }
    if (fst) fst->dump(2 * cycle + 1);
    for (uint32_t c = 0; c < n; ++c)
      for (int l = 0; l < links; ++l)
        arriving[neighbour(c, l) * links + (l ^ 1)] = wire[c * links + l].step(out[c * links + l], cycle);
  }
  if (Verilated::gotError()) r.errors.push_back("an RTL assertion failed (its message is above)");
  if (fst) fst->close();
  r.cycles = cycle;
  for (auto& m : node) {
    r.crc_errors += m->crc_errors_o;
    r.retries += m->retries_o;
  }
  r.mean_hops = r.delivered ? double(hops) / r.delivered : 0;
  r.mean_latency = r.delivered ? double(latency_sum) / r.delivered : 0;
  if (r.errors.empty() && r.delivered != want)
    r.errors.push_back(fmt::format("{} of {} packets delivered in {} cycles", r.delivered, want, r.cycles));
  return r;
}

}  // namespace tern::tb
