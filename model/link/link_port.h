// The golden NeuronLink port (docs/link.md "Flow control", "Retry", "Training"): a transmit and
// a receive side exchanging flits over a channel, one call per clock. Written from the spec; it
// is the protocol's reference, not a cycle-exact copy of rtl/link (the RTL's delivered packets
// are compared with the packets the test injected, which this model encodes and decodes).
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "link/link_format.h"

namespace tern::link {

struct PortParams {
  uint32_t rx_vc_flits = 128;     // receive buffer per VC, in flits (the credits a sender starts with)
  uint32_t replay_flits = 128;    // replay buffer, in flits
  uint32_t replay_timeout = 512;  // cycles without acknowledgement progress before a replay
  uint32_t link_timeout = 64;     // cycles without a received flit before the link is down
  uint32_t ctrl_every = 64;       // while sending packets, a control flit at least this often
  uint32_t nak_rearm = 96;        // cycles after a NAK before another may follow for the same loss
  void check() const;             // throws tern::Error on a value the port cannot work with
};

// One flit slot on the channel: valid, the framing bit and the flit.
struct WireFlit {
  bool valid = false;
  bool head = false;  // header or control flit
  Flit data{};
};

// The error and performance counters software reads (the RTL has the same set).
struct PortCounters {
  uint64_t crc_errors = 0;      // packets and control flits that failed their CRC
  uint64_t framing_errors = 0;  // a payload flit where a header was due, a header inside a packet, a bad length
  uint64_t naks_sent = 0;
  uint64_t naks_received = 0;
  uint64_t retries = 0;         // replays started (NAK, timeout or retraining)
  uint64_t timeouts = 0;        // replays started by the replay timer
  uint64_t duplicates = 0;      // good packets dropped as already delivered
  uint64_t link_downs = 0;      // times the link left the active state
  uint64_t replay_high_water = 0;  // most flits held in the replay buffer
  uint64_t packets_sent = 0;    // first transmissions
  uint64_t packets_received = 0;
  uint64_t payload_flits_received = 0;
  uint64_t slots = 0;           // channel slots offered to the transmitter while active
  uint64_t dropped = 0;         // unacknowledged packets dropped because the peer was reset
};

class LinkPort {
 public:
  explicit LinkPort(const PortParams& p = {});

  // True when a packet of this header can be accepted now: its VC has credits for len + 1
  // flits and the replay buffer has room.
  bool can_send(const PacketHeader& h) const;
  // Accepts a packet (checked with check_packet); throws tern::Error when !can_send.
  void send(const Packet& p);

  // One clock: `in` is the flit the channel delivers, `phy_ready` whether it takes one from us;
  // returns the flit we put on the channel (invalid when !phy_ready).
  WireFlit step(const WireFlit& in, bool phy_ready);

  bool has_packet(uint32_t vc) const { return !rx_buf_[vc].empty(); }
  // The oldest delivered packet of a VC; its flits' credits go back to the sender.
  Packet pop(uint32_t vc);

  bool active() const { return state_ == State::kActive; }
  bool fresh() const { return fresh_; }
  const PortCounters& counters() const { return c_; }
  uint32_t unacked() const { return static_cast<uint32_t>(replay_.size()); }

 private:
  enum class State { kTrain, kActive };
  struct Entry {
    uint32_t seq;
    std::vector<Flit> flits;
    bool sent_before = false;
  };
  void receive(const WireFlit& in);
  void finish_packet();
  void on_ctrl(const Ctrl& c);
  void request_nak();
  void go_active();
  void go_train(bool seen);
  void resync();
  WireFlit transmit();
  Ctrl ctrl(FlitType t) const;

  PortParams p_;
  PortCounters c_;
  State state_ = State::kTrain;
  bool seen_ = false;
  bool fresh_ = true;       // reset and not active since
  bool fresh_ack_ = false;  // the peer's reset noted (once per training)
  bool adopted_ = false;    // a fresh port took the peer's numbering and credits
  uint32_t quiet_ = 0;  // cycles since a flit arrived

  // Transmit side.
  std::deque<Entry> replay_;
  uint32_t replay_flit_count_ = 0;
  uint32_t next_seq_ = 0;
  size_t send_idx_ = 0;   // replay_ entry being (or next to be) sent
  size_t send_flit_ = 0;  // its next flit
  bool rewind_ = false;   // replay from the oldest entry at the next packet boundary
  uint32_t ack_timer_ = 0;
  std::array<uint32_t, kNumVcs> used_{}, peer_freed_{};
  bool nak_pending_ = false;
  uint32_t since_ctrl_ = 0;
  Ctrl last_ctrl_{};

  // Receive side.
  uint32_t exp_ = 0;
  bool nak_sent_ = false;
  uint32_t nak_age_ = 0;  // cycles since the last NAK
  bool in_packet_ = false;
  Flit rx_header_{};
  std::vector<Flit> rx_payload_;
  std::array<std::deque<Packet>, kNumVcs> rx_buf_;
  std::array<uint32_t, kNumVcs> rx_occ_{}, freed_{};
};

}  // namespace tern::link
