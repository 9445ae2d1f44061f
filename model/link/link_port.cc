// The golden NeuronLink port: go-back-N link-level retry over CRC-checked packets, cumulative
// credits and acknowledgements in control flits, a two-way training handshake.
#include "link/link_port.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/error.h"

namespace tern::link {
namespace {
constexpr uint32_t kSeqMask = (1u << kSeqBits) - 1;
constexpr uint32_t kCreditMask = (1u << kCreditBits) - 1;
}  // namespace

void PortParams::check() const {
  const uint32_t pkt = kMaxPayloadFlits + 1;
  if (rx_vc_flits < pkt || rx_vc_flits > (1u << (kCreditBits - 1)))
    throw Error(fmt::format("link port: rx_vc_flits {} must be {}..{}", rx_vc_flits, pkt,
                            1u << (kCreditBits - 1)));
  if (replay_flits < pkt)
    throw Error(fmt::format("link port: replay_flits {} must hold one packet ({} flits)", replay_flits, pkt));
  if (link_timeout < 4) throw Error(fmt::format("link port: link_timeout {} is below 4", link_timeout));
  if (replay_timeout < 2 * pkt)
    throw Error(fmt::format("link port: replay_timeout {} is below two packets", replay_timeout));
  if (ctrl_every == 0) throw Error("link port: ctrl_every must be at least 1");
}

LinkPort::LinkPort(const PortParams& p) : p_(p) { p_.check(); }

bool LinkPort::can_send(const PacketHeader& h) const {
  if (h.vc >= kNumVcs || h.len > kMaxPayloadFlits || fresh_) return false;
  const uint32_t avail = (peer_freed_[h.vc] + p_.rx_vc_flits - used_[h.vc]) & kCreditMask;
  return avail >= h.len + 1 && replay_.size() < kMaxOutstanding &&
         replay_flit_count_ + h.len + 1 <= p_.replay_flits;
}

void LinkPort::send(const Packet& p) {
  check_packet(p);
  if (!can_send(p.h))
    throw Error(fmt::format("link port: no room for a {}-flit packet on VC {} (check can_send first)",
                            p.h.len + 1, p.h.vc));
  replay_.push_back({next_seq_, encode_packet(p, next_seq_)});
  next_seq_ = (next_seq_ + 1) & kSeqMask;
  replay_flit_count_ += p.h.len + 1;
  c_.replay_high_water = std::max<uint64_t>(c_.replay_high_water, replay_flit_count_);
  used_[p.h.vc] = (used_[p.h.vc] + p.h.len + 1) & kCreditMask;
}

Packet LinkPort::pop(uint32_t vc) {
  if (vc >= kNumVcs || rx_buf_[vc].empty())
    throw Error(fmt::format("link port: no packet to pop on VC {}", vc));
  Packet p = std::move(rx_buf_[vc].front());
  rx_buf_[vc].pop_front();
  rx_occ_[vc] -= p.h.len + 1;
  freed_[vc] = (freed_[vc] + p.h.len + 1) & kCreditMask;
  return p;
}

WireFlit LinkPort::step(const WireFlit& in, bool phy_ready) {
  if (nak_age_ < p_.nak_rearm) ++nak_age_;
  receive(in);
  if (!phy_ready) return {};
  return transmit();
}

void LinkPort::request_nak() {
  if (state_ != State::kActive || (nak_sent_ && nak_age_ < p_.nak_rearm)) return;
  nak_sent_ = true;
  nak_age_ = 0;
  nak_pending_ = true;
}

void LinkPort::go_active() {
  state_ = State::kActive;
  fresh_ = false;
  fresh_ack_ = false;
  adopted_ = false;
  rewind_ = true;  // go-back-N: everything unacknowledged goes again
  if (!replay_.empty()) ++c_.retries;
  ack_timer_ = 0;
  quiet_ = 0;
}

void LinkPort::go_train(bool seen) {
  if (state_ == State::kActive) ++c_.link_downs;
  state_ = State::kTrain;
  seen_ = seen;
  send_idx_ = 0;
  send_flit_ = 0;
  rewind_ = false;
  in_packet_ = false;
  nak_sent_ = false;
  nak_pending_ = false;
}

void LinkPort::receive(const WireFlit& in) {
  if (!in.valid) {
    if (state_ == State::kActive && ++quiet_ > p_.link_timeout) go_train(false);
    return;
  }
  quiet_ = 0;
  if (!in.head) {  // a payload flit
    if (!in_packet_) {
      if (state_ == State::kActive) {
        ++c_.framing_errors;
        request_nak();
      }
      return;
    }
    rx_payload_.push_back(in.data);
    if (rx_payload_.size() == get_field(rx_header_, header_layout().at("len"))) finish_packet();
    return;
  }
  if (in_packet_) {  // a header or control flit cut the packet short
    in_packet_ = false;
    ++c_.framing_errors;
    request_nak();
  }
  const FlitType t = flit_type(in.data);
  if (t == FlitType::kHeader) {
    if (state_ != State::kActive) return;
    const uint64_t len = get_field(in.data, header_layout().at("len"));
    if (len > kMaxPayloadFlits) {
      ++c_.framing_errors;
      request_nak();
      return;
    }
    rx_header_ = in.data;
    rx_payload_.clear();
    in_packet_ = true;
    if (len == 0) finish_packet();
    return;
  }
  Ctrl c;
  if (!decode_ctrl(in.data, &c)) {
    ++c_.crc_errors;  // a lost control flit loses nothing: the next one carries newer counters
    return;
  }
  on_ctrl(c);
}

void LinkPort::finish_packet() {
  in_packet_ = false;
  if (get_field(rx_header_, header_layout().at("crc")) != packet_crc(rx_header_, rx_payload_)) {
    ++c_.crc_errors;
    request_nak();
    return;
  }
  const uint32_t seq = flit_seq(rx_header_);
  if (seq != exp_) {
    if (((seq - exp_) & kSeqMask) < (1u << (kSeqBits - 1))) {
      request_nak();  // ahead: one before it was lost
    } else {
      ++c_.duplicates;  // behind: already delivered, a replay's copy
    }
    return;
  }
  Packet p{decode_header(rx_header_), rx_payload_};
  if (rx_occ_[p.h.vc] + p.h.len + 1 > p_.rx_vc_flits) {
    // Only a sender that ignores credits gets here; not acknowledging makes it replay.
    ++c_.framing_errors;
    return;
  }
  rx_occ_[p.h.vc] += p.h.len + 1;
  ++c_.packets_received;
  c_.payload_flits_received += p.h.len;
  rx_buf_[p.h.vc].push_back(std::move(p));
  exp_ = (exp_ + 1) & kSeqMask;
  nak_sent_ = false;
}

void LinkPort::resync() {
  c_.dropped += replay_.size();
  replay_.clear();
  replay_flit_count_ = 0;
  send_idx_ = 0;
  send_flit_ = 0;
  used_ = {};
  peer_freed_ = {};
}

void LinkPort::on_ctrl(const Ctrl& c) {
  if (c.type == FlitType::kTrain) {
    // Reset handshake: a reset peer announces itself (fresh); we note it once and, unless we are
    // fresh too, drop what it never acknowledged; a fresh port takes the peer's numbering and
    // credits from its first training flit that noted the reset.
    // (Only a flit with seen = 0 announces a reset: a reset port sets seen once it has adopted
    // our numbering, so its later training flits, still in flight when we go active, are not
    // a new reset.)
    if (c.fresh && !c.seen && !fresh_ack_) {
      fresh_ack_ = true;
      if (!fresh_) resync();
    }
    if (fresh_ && !adopted_ && c.fresh_ack) {
      adopted_ = true;
      exp_ = c.tx_base;
      next_seq_ = c.rx_exp;
      for (int v = 0; v < kNumVcs; ++v) {
        peer_freed_[v] = c.freed[v];
        used_[v] = (c.freed[v] + c.held[v]) & kCreditMask;
      }
    }
    const bool can_see = !fresh_ || adopted_;
    if (state_ == State::kTrain) {
      if (can_see) seen_ = true;
      if (c.seen && can_see) go_active();
    } else if (!c.seen) {
      go_train(true);  // the peer restarted training
    }
    return;
  }
  if (state_ == State::kTrain) {
    if (!seen_) return;
    go_active();  // the peer is active, so it has seen our training flits
  }
  // Acknowledgement: every packet before rx_exp arrived. Only completely sent packets can be
  // covered; anything else is a stale or impossible value and is ignored.
  const uint32_t base = replay_.empty() ? next_seq_ : replay_.front().seq;
  const uint32_t k = (c.rx_exp - base) & kSeqMask;
  const size_t sent = send_idx_;
  if (k <= sent && k <= replay_.size()) {
    for (uint32_t i = 0; i < k; ++i) {
      replay_flit_count_ -= static_cast<uint32_t>(replay_.front().flits.size());
      replay_.pop_front();
    }
    send_idx_ -= k;
    if (k > 0) ack_timer_ = 0;
  }
  for (int v = 0; v < kNumVcs; ++v) peer_freed_[v] = c.freed[v];
  if (c.type == FlitType::kNak) {
    ++c_.naks_received;
    if (!replay_.empty() && !rewind_) {
      rewind_ = true;
      ++c_.retries;
    }
  }
}

Ctrl LinkPort::ctrl(FlitType t) const {
  Ctrl c;
  c.type = t;
  c.rx_exp = exp_;
  c.seen = seen_;
  c.freed = freed_;
  if (t == FlitType::kTrain) {
    c.fresh = fresh_;
    c.fresh_ack = fresh_ack_;
    c.tx_base = replay_.empty() ? next_seq_ : replay_.front().seq;
    for (int v = 0; v < kNumVcs; ++v) c.held[v] = rx_occ_[v];
  }
  return c;
}

WireFlit LinkPort::transmit() {
  if (state_ == State::kTrain) return {true, true, encode_ctrl(ctrl(FlitType::kTrain))};
  ++c_.slots;
  ++since_ctrl_;
  // The replay timer runs while sent packets wait for their acknowledgement.
  if (send_idx_ > 0 || send_flit_ > 0) {
    if (++ack_timer_ > p_.replay_timeout && !rewind_) {
      rewind_ = true;
      ++c_.retries;
      ++c_.timeouts;
      ack_timer_ = 0;
    }
  } else {
    ack_timer_ = 0;
  }
  if (send_flit_ > 0) {  // inside a packet: its next payload flit
    const Entry& e = replay_[send_idx_];
    WireFlit w{true, false, e.flits[send_flit_]};
    if (++send_flit_ == e.flits.size()) {
      send_flit_ = 0;
      ++send_idx_;
    }
    return w;
  }
  if (rewind_) {
    rewind_ = false;
    send_idx_ = 0;
  }
  const Ctrl news = ctrl(FlitType::kIdle);
  const bool has_news = news.rx_exp != last_ctrl_.rx_exp || news.freed != last_ctrl_.freed;
  if (nak_pending_ || send_idx_ >= replay_.size() || (has_news && since_ctrl_ >= p_.ctrl_every)) {
    const Ctrl c = ctrl(nak_pending_ ? FlitType::kNak : FlitType::kIdle);
    if (nak_pending_) ++c_.naks_sent;
    nak_pending_ = false;
    last_ctrl_ = c;
    since_ctrl_ = 0;
    return {true, true, encode_ctrl(c)};
  }
  Entry& e = replay_[send_idx_];
  if (!e.sent_before) ++c_.packets_sent;
  e.sent_before = true;
  WireFlit w{true, true, e.flits[0]};
  if (e.flits.size() == 1) {
    ++send_idx_;
  } else {
    send_flit_ = 1;
  }
  return w;
}

}  // namespace tern::link
