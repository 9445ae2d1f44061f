// tern_sim_link: waveform regression bench of the NeuronLink port (rtl/link/tern_link_port.sv):
// two verilated ports back to back through the channel model with errors injected (random bit
// errors at --ber, bursts at --burst-rate, dropped flits at --drop-rate, the link down for
// --down-cycles from --down-start), random traffic on all VCs both ways; every packet must arrive
// exactly once, in order per VC, intact, and every flit the RTL sends must carry the CRC the
// golden model computes. The FST shows port 0 (both its sides). The config is not used.
// --topology ring8 | torus4x4 | torus4x4x4 runs a network of verilated nodes instead (router +
// link ports per chip), all-to-all, --packets per chip; the FST shows chip 0's node.
#include <fmt/format.h>

#include <string>

#include "Vtern_link_node_ring8.h"
#include "Vtern_link_node_torus4x4.h"
#include "Vtern_link_node_torus4x4x4.h"
#include "Vtern_link_port.h"
#include "link_net.h"
#include "link_pair.h"
#include "verdict.h"

int main(int argc, char** argv) {
  using namespace tern;
  return sim::run_bench([&] {
    const sim::BenchArgs args(argc, argv,
                              {{"--packets", "300"}, {"--ber", "1e-5"}, {"--burst-rate", "0"},
                               {"--drop-rate", "0"}, {"--down-start", "0"}, {"--down-cycles", "0"},
                               {"--latency", "4"}, {"--topology", "pair"}});
    const std::string topo = args.text("--topology");
    if (topo != "pair") {
      tb::NetOptions n;
      n.seed = args.seed;
      n.packets_per_chip = args.number("--packets");
      n.channel.ber = args.fraction("--ber");
      n.channel.latency = args.number("--latency");
      n.waves = args.waves;
      link::Torus t;
      tb::NetResult r;
      fmt::print("seed {} topology {} packets {} per chip, ber {:g}, waves {}\n", n.seed, topo,
                 n.packets_per_chip, n.channel.ber, n.waves.empty() ? "off" : n.waves);
      if (topo == "ring8") {
        t.dims = {8, 1, 1};
        r = tb::run_link_net<Vtern_link_node_ring8>(t, n);
      } else if (topo == "torus4x4") {
        t.dims = {4, 4, 1};
        r = tb::run_link_net<Vtern_link_node_torus4x4>(t, n);
      } else if (topo == "torus4x4x4") {
        t.dims = {4, 4, 4};
        r = tb::run_link_net<Vtern_link_node_torus4x4x4>(t, n);
      } else {
        throw Error(fmt::format("--topology '{}': pair, ring8, torus4x4 or torus4x4x4", topo));
      }
      fmt::print("{}: {} of {} packets in {} cycles, mean {:.2f} hops, mean latency {:.1f} cycles, "
                 "CRC errors {}, retries {}\n", t.name(), r.delivered, r.sent, r.cycles, r.mean_hops,
                 r.mean_latency, r.crc_errors, r.retries);
      sim::Verdict v;
      v.cycles = r.cycles;
      v.errors = r.errors;
      return v;
    }
    tb::PairOptions o;
    o.seed = args.seed;
    o.packets = args.number("--packets");
    o.channel.ber = args.fraction("--ber");
    o.channel.burst_rate = args.fraction("--burst-rate");
    o.channel.drop_rate = args.fraction("--drop-rate");
    o.channel.down_start = args.number("--down-start");
    o.channel.down_cycles = args.number("--down-cycles");
    o.channel.latency = args.number("--latency");
    o.waves = args.waves;
    fmt::print("seed {} packets {} each way, ber {:g}, bursts {:g}, drops {:g}, down {} cycles from {}, "
               "latency {}, waves {}\n", o.seed, o.packets, o.channel.ber, o.channel.burst_rate,
               o.channel.drop_rate, o.channel.down_cycles, o.channel.down_start, o.channel.latency,
               o.waves.empty() ? "off" : o.waves);
    const tb::PairResult r = tb::run_link_pair<Vtern_link_port>(o);
    for (int s = 0; s < 2; ++s) {
      const tb::PortStats& p = r.port[s];
      fmt::print("port {}: rx packets {} crc errors {} framing errors {} duplicates {} link downs {} | "
                 "tx packets {} retries {} timeouts {} naks sent {} received {} replay high water {}\n",
                 s, p.rx_packets, p.crc_errors, p.framing_errors, p.duplicates, p.link_downs,
                 p.tx_packets, p.retries, p.timeouts, p.naks_sent, p.naks_rcvd, p.replay_hwm);
    }
    fmt::print("channel: {} + {} flits, {} + {} corrupted, {} + {} dropped\n", r.channel[0].flits,
               r.channel[1].flits, r.channel[0].corrupted, r.channel[1].corrupted, r.channel[0].dropped,
               r.channel[1].dropped);
    fmt::print("{} packets delivered, {} packets' CRC recomputed by the golden model\n", r.delivered,
               r.wire_packets_checked);
    sim::Verdict v;
    v.cycles = r.cycles;
    v.errors = r.errors;
    return v;
  });
}
