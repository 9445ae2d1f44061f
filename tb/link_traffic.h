// Random NeuronLink traffic for one direction of a link and its scoreboard: every packet
// delivered exactly once, in order per VC, header and payload bit for bit as injected.
#pragma once

#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <deque>
#include <random>
#include <string>
#include <utility>

#include "link/link_format.h"

namespace tern::tb {

class LinkTraffic {
 public:
  explicit LinkTraffic(uint64_t seed, uint32_t max_len = link::kMaxPayloadFlits, bool full_size = false)
      : rng_(seed), max_len_(max_len), full_size_(full_size) {}

  // A random legal packet on `vc` (its type fits the VC's message class).
  link::Packet make(uint32_t vc) {
    link::Packet p;
    auto r = [&](uint64_t n) { return std::uniform_int_distribution<uint64_t>(0, n - 1)(rng_); };
    for (int d = 0; d < 3; ++d) {
      p.h.dst[d] = static_cast<uint32_t>(r(16));
      p.h.src[d] = static_cast<uint32_t>(r(16));
    }
    p.h.vc = vc;
    if (vc & 2u) {
      p.h.type = link::PktType::kReadResp;
    } else {
      const uint64_t k = full_size_ ? 0 : r(4);
      p.h.type = k == 2 ? link::PktType::kSemInc : k == 3 ? link::PktType::kReadReq : link::PktType::kWrite;
    }
    const bool data = p.h.type == link::PktType::kWrite || p.h.type == link::PktType::kReadResp;
    p.h.len = !data ? 0 : full_size_ ? max_len_ : static_cast<uint32_t>(1 + r(max_len_));
    p.h.flow = static_cast<uint32_t>(r(256));
    p.h.mem = static_cast<uint32_t>(r(4));
    p.h.addr = r(uint64_t{1} << 48);
    p.h.imm = static_cast<uint32_t>(rng_());
    for (uint32_t i = 0; i < p.h.len; ++i) {
      link::Flit f;
      for (uint64_t& w : f) w = rng_();
      p.payload.push_back(f);
    }
    return p;
  }

  void sent(const link::Packet& p, uint64_t cycle = 0) {
    expected_[p.h.vc].push_back({p, cycle});
    ++sent_;
  }
  // Packets sent before `cycle` may be missing (a port was reset); later ones may not.
  void allow_loss_before(uint64_t cycle) { loss_before_ = cycle; }
  uint64_t lost() const { return lost_; }
  // "" when `p` is the next packet expected on its VC, else what is wrong.
  std::string delivered(const link::Packet& p) {
    if (p.h.vc >= link::kNumVcs) return fmt::format("delivered on VC {}, which does not exist", p.h.vc);
    auto& q = expected_[p.h.vc];
    // Skip the packets a reset lost: sent before the cut-off, and not this one.
    while (!q.empty() && q.front().second < loss_before_ && !(q.front().first == p)) {
      q.pop_front();
      ++lost_;
    }
    if (q.empty()) return fmt::format("VC {}: a packet delivered that was never sent (or twice)", p.h.vc);
    const link::Packet& want = q.front().first;
    if (!(want.h == p.h))
      return fmt::format("VC {}: header differs from the next packet sent (flow {} len {} vs flow {} len {})",
                         p.h.vc, p.h.flow, p.h.len, want.h.flow, want.h.len);
    for (size_t i = 0; i < p.payload.size(); ++i)
      if (p.payload[i] != want.payload[i])
        return fmt::format("VC {}: payload flit {} of flow {} differs", p.h.vc, i, p.h.flow);
    q.pop_front();
    ++delivered_;
    return "";
  }
  uint64_t outstanding() const {
    uint64_t n = 0;
    for (const auto& q : expected_) n += q.size();
    return n;
  }
  // Drops the expected packets a reset may have lost (at the end of a run).
  void forget_lost() {
    for (auto& q : expected_) {
      while (!q.empty() && q.front().second < loss_before_) {
        q.pop_front();
        ++lost_;
      }
    }
  }
  uint64_t sent_count() const { return sent_; }
  uint64_t delivered_count() const { return delivered_; }
  std::mt19937_64& rng() { return rng_; }

 private:
  std::mt19937_64 rng_;
  uint32_t max_len_;
  bool full_size_;
  std::array<std::deque<std::pair<link::Packet, uint64_t>>, link::kNumVcs> expected_;  // with the cycle sent
  uint64_t sent_ = 0, delivered_ = 0, lost_ = 0, loss_before_ = 0;
};

}  // namespace tern::tb
