// The NeuronLink channel model between two ports (golden or verilated): one direction of a
// flit-wide link with a latency, a bandwidth (one flit slot every `slot_every` cycles), random bit
// errors at a BER over the flit and its framing bit, burst errors, dropped flits and a window in
// which the link is down. Seeded: the same seed gives the same errors.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <deque>
#include <random>

#include "common/error.h"
#include "link/link_format.h"
#include "link/link_port.h"

namespace tern::tb {

struct ChannelParams {
  uint32_t latency = 4;        // cycles from the transmitter's output to the receiver's input, >= 1
  uint32_t slot_every = 1;     // bandwidth: the transmitter may send on one cycle in slot_every
  double ber = 0;              // probability that any one bit (flit or framing bit) flips
  double burst_rate = 0;       // probability that a flit gets a burst error
  uint32_t burst_bits = 16;    // length of a burst (consecutive bits flipped at random inside it)
  double drop_rate = 0;        // probability that a flit is lost
  uint64_t down_start = 0;     // the link carries nothing in cycles [down_start, down_start + down_cycles)
  uint64_t down_cycles = 0;
  void check() const {
    auto prob = [](double p, const char* what) {
      if (!(p >= 0 && p <= 1)) throw Error(fmt::format("link channel: {} {} is not a probability", what, p));
    };
    prob(ber, "ber");
    prob(burst_rate, "burst_rate");
    prob(drop_rate, "drop_rate");
    if (latency == 0 || latency > 4096) throw Error(fmt::format("link channel: latency {} must be 1..4096", latency));
    if (slot_every == 0) throw Error("link channel: slot_every must be at least 1");
    if (burst_bits < 2 || burst_bits > link::kFlitBits)
      throw Error(fmt::format("link channel: burst_bits {} must be 2..{}", burst_bits, link::kFlitBits));
  }
};

struct ChannelCounters {
  uint64_t flits = 0, corrupted = 0, dropped = 0, bits_flipped = 0, down_slots = 0;
};

class Channel {
 public:
  Channel(const ChannelParams& p, uint64_t seed) : p_(p), rng_(seed) {
    p_.check();
    for (uint32_t i = 0; i < p_.latency; ++i) line_.push_back({});
    if (p_.ber > 0) next_error_ = skip();
  }
  // Whether the transmitter may send at `cycle`.
  bool ready(uint64_t cycle) const { return cycle % p_.slot_every == 0; }
  bool down(uint64_t cycle) const { return cycle >= p_.down_start && cycle < p_.down_start + p_.down_cycles; }
  // One clock: takes the transmitter's flit, returns the flit the receiver sees this cycle.
  link::WireFlit step(link::WireFlit in, uint64_t cycle) {
    if (in.valid) {
      ++c_.flits;
      if (down(cycle)) {
        in = {};
        ++c_.down_slots;
      } else {
        corrupt(in);
      }
    }
    line_.push_back(in);
    link::WireFlit out = line_.front();
    line_.pop_front();
    return out;
  }
  const ChannelCounters& counters() const { return c_; }

 private:
  static constexpr uint64_t kBits = link::kFlitBits + 1;  // the flit and its framing bit
  uint64_t skip() { return std::geometric_distribution<uint64_t>(p_.ber)(rng_); }
  static void flip(link::WireFlit& w, uint64_t bit) {
    if (bit == link::kFlitBits) {
      w.head = !w.head;
    } else {
      w.data[bit / 64] ^= uint64_t{1} << (bit % 64);
    }
  }
  void corrupt(link::WireFlit& w) {
    std::uniform_real_distribution<double> u(0, 1);
    if (p_.drop_rate > 0 && u(rng_) < p_.drop_rate) {
      w = {};
      ++c_.dropped;
      return;
    }
    bool hit = false;
    if (p_.ber > 0) {
      // Bits of the stream between errors are geometric: walk this flit's bits.
      uint64_t pos = 0;
      while (next_error_ < kBits - pos) {
        pos += next_error_;
        flip(w, pos);
        ++c_.bits_flipped;
        hit = true;
        ++pos;
        next_error_ = skip();
      }
      next_error_ -= kBits - pos;
    }
    if (p_.burst_rate > 0 && u(rng_) < p_.burst_rate) {
      const uint64_t start = std::uniform_int_distribution<uint64_t>(0, kBits - p_.burst_bits)(rng_);
      flip(w, start);  // a burst starts and ends with a flipped bit
      flip(w, start + p_.burst_bits - 1);
      c_.bits_flipped += 2;
      for (uint64_t b = start + 1; b + 1 < start + p_.burst_bits; ++b) {
        if (rng_() & 1u) {
          flip(w, b);
          ++c_.bits_flipped;
        }
      }
      hit = true;
    }
    if (hit) ++c_.corrupted;
  }

  ChannelParams p_;
  std::mt19937_64 rng_;
  std::deque<link::WireFlit> line_;
  uint64_t next_error_ = 0;
  ChannelCounters c_;
};

}  // namespace tern::tb
