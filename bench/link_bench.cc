// tern_bench_link: NeuronLink port figures from the RTL simulation (two verilated ports back to
// back through the channel model), as a JSON list of records in <out>/link.json:
//   stream: full-size writes (MaxPayloadFlits payload flits) one way, no backpressure, at each BER:
//     flit_efficiency = payload flits delivered / channel flit slots of the sender,
//     retries (both ends), crc_errors, latency_cycles = mean cycles from the header entering the
//     sender to the header leaving the receiver (one hop, under load);
//   unloaded: one packet at a time (the per-hop latency without queueing), full-size and mixed.
// --quick runs few packets (CTest keeps the bench from rotting; its figures are not checked).
#include <fmt/format.h>

#include <string>
#include <vector>

#include "bench_json.h"
#include "cmdline.h"
#include "Vtern_link_port.h"
#include "common/error.h"
#include "Vtern_link_node_torus4x4.h"
#include "link_net.h"
#include "link_pair.h"

int main(int argc, char** argv) {
  using namespace tern;
  try {
    std::string out_dir = "build/bench";
    bool quick = false;
    CLI::App app{"tern_bench_link: NeuronLink throughput and latency, into <out>/link.json"};
    app.add_option("--out", out_dir, "the JSON's directory")->capture_default_str();
    app.add_flag("--quick", quick, "a few short runs: a smoke test of the bench");
    if (int status = 0; !cli::parse(app, argc, argv, status)) return status;
    const uint32_t latency = 4;
    std::vector<tern::bench::Record> records;
    auto run = [&](const std::string& name, double ber, uint32_t packets, bool full, bool one) {
      tb::PairOptions o;
      o.seed = 1;
      o.packets = packets;
      o.both_ways = false;
      o.full_size = full;
      o.one_at_a_time = one;
      o.ready_percent = 100;
      o.channel.ber = ber;
      o.channel.latency = latency;
      o.max_cycles = 50'000'000;
      const tb::PairResult r = tb::run_link_pair<Vtern_link_port>(o);
      if (!r.errors.empty()) throw Error(fmt::format("link bench {} ber {:g}: {}", name, ber, r.errors.front()));
      const double eff = r.slots_during_traffic ? double(r.payload_delivered_0to1) / r.slots_during_traffic : 0;
      const uint64_t retries = r.port[0].retries + r.port[1].retries;
      const uint64_t timeouts = r.port[0].timeouts + r.port[1].timeouts;
      const uint64_t crc = r.port[0].crc_errors + r.port[1].crc_errors;
      fmt::print("{:>16} ber {:>7g}: efficiency {:.4f}, retries {} ({} by the timer), crc errors {}, latency "
                 "{:.1f} cycles/hop, {} packets, {} cycles\n", name, ber, eff, retries, timeouts, crc,
                 r.mean_latency, packets, r.cycles);
      records.push_back({{"name", name}, {"ber", ber}, {"flit_efficiency", eff}, {"retries", retries},
                         {"timeouts", timeouts}, {"crc_errors", crc}, {"latency_cycles", r.mean_latency},
                         {"packets", packets}, {"payload_flits", r.payload_delivered_0to1}, {"cycles", r.cycles},
                         {"channel_latency", latency}, {"flit_bits", link::kFlitBits}});
    };
    const uint32_t n = quick ? 50 : 3000;
    for (double ber : {0.0, 1e-7, 1e-6, 1e-5, 3e-5, 1e-4}) run("stream_full_size", ber, n, true, false);
    run("stream_mixed", 0, n, false, false);
    run("unloaded_full_size", 0, quick ? 10 : 200, true, true);
    run("unloaded_mixed", 0, quick ? 10 : 200, false, true);
    // The 4 x 4 torus, all-to-all: every chip injects back to back (saturation), then one
    // packet per chip at a time spread out (light load, the latency per hop through routers).
    auto net = [&](const std::string& name, uint32_t packets, uint32_t max_len, uint32_t gap) {
      tb::NetOptions o;
      o.seed = 1;
      o.packets_per_chip = packets;
      o.max_len = max_len;
      o.eject_ready_percent = 100;
      o.inject_gap = gap;
      const link::Torus t{{4, 4, 1}};
      const tb::NetResult r = tb::run_link_net<Vtern_link_node_torus4x4>(t, o);
      if (!r.errors.empty()) throw Error(fmt::format("link bench {}: {}", name, r.errors.front()));
      const double thr = double(r.payload_flits) / r.cycles / t.chips();
      fmt::print("{:>16}: {:.3f} payload flits per cycle per chip, mean latency {:.1f} cycles over {:.2f} hops\n",
                 name, thr, r.mean_latency, r.mean_hops);
      records.push_back({{"name", name}, {"ber", 0}, {"throughput_flits_per_cycle_per_chip", thr},
                         {"latency_cycles", r.mean_latency}, {"hops", r.mean_hops},
                         {"latency_cycles_per_hop", r.mean_hops > 0 ? r.mean_latency / r.mean_hops : 0},
                         {"packets", r.delivered}, {"cycles", r.cycles}, {"retries", r.retries}});
    };
    net("torus4x4_all_to_all_saturated", quick ? 10 : 200, 32, 0);
    net("torus4x4_all_to_all_light", quick ? 5 : 40, 32, 400);
    tern::bench::write_records(out_dir, "link.json", records);
    return 0;
  } catch (const std::exception& e) {
    fmt::print(stderr, "tern_bench_link: error: {}\n", e.what());
    return 1;
  }
}
