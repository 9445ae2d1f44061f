// The NeuronLink flit and packet format, defined once (docs/link.md "Formats"). The field
// tables below generate the SystemVerilog package tern_link_pkg (rtl/link/tern_link_pkg.sv,
// `tern link sv`) and the bit tables of docs/link.md (`tern link md`); the encoders and decoders
// of the golden model read the same tables.
//
// A flit is FlitBits wide, bit i of the flit is bit (i % 64) of word i / 64. On the wire each
// flit travels with one framing bit `head` (1: a header or control flit, 0: a payload flit), as a
// 128b/130b sync header would mark it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tern::link {

constexpr int kFlitBits = 256;
constexpr int kFlitWords = kFlitBits / 64;
constexpr int kNumVcs = 4;            // vc[1] message class (0 request, 1 response), vc[0] dateline
constexpr int kSeqBits = 8;           // link sequence numbers, modulo 256
constexpr int kMaxPayloadFlits = 32;  // payload flits of one packet, 0..32
constexpr int kCreditBits = 16;       // cumulative credit counters, modulo 2^16
constexpr int kMaxOutstanding = 16;   // packets sent and not yet acknowledged, at most
constexpr int kCoordBits = 4;         // per torus dimension: up to 16 chips
constexpr uint32_t kCrcPoly = 0x82F63B78u;  // CRC-32C (Castagnoli), reflected

using Flit = std::array<uint64_t, kFlitWords>;

enum class FlitType : uint32_t { kIdle = 1, kNak = 2, kTrain = 3, kHeader = 4 };
enum class PktType : uint32_t { kWrite = 0, kSemInc = 1, kReadReq = 2, kReadResp = 3 };

struct Field {
  std::string name;  // lower_snake: the SV names are Hdr<Name>Lsb / Ctl<Name>Width
  int lsb = 0;
  int width = 0;
  std::string doc;
};

// The fields of one flit kind, lsb ascending, the first two (type, crc) shared by all kinds.
struct Layout {
  std::string name;    // "header" or "ctrl"
  std::string prefix;  // SV name prefix: "Hdr" or "Ctl"
  std::vector<Field> fields;
  const Field& at(const std::string& name) const;  // throws tern::Error on an unknown name
  int bits() const { return fields.back().lsb + fields.back().width; }
};

const Layout& header_layout();
const Layout& ctrl_layout();

struct Enumerator {
  std::string name;
  uint32_t value;
  std::string doc;
};
const std::vector<Enumerator>& flit_types();
const std::vector<Enumerator>& packet_types();

uint64_t get_field(const Flit& f, const Field& field);
void set_field(Flit& f, const Field& field, uint64_t value);  // throws when value does not fit

// The packet header a user injects and receives (the link fields type, crc and seq are not part
// of it: the port fills them in).
struct PacketHeader {
  std::array<uint32_t, 3> dst{};  // x, y, z
  std::array<uint32_t, 3> src{};
  uint32_t vc = 0;
  PktType type = PktType::kWrite;
  uint32_t len = 0;   // payload flits
  uint32_t flow = 0;  // flow id (ordering domain) or read tag
  uint32_t mem = 0;   // destination memory
  uint64_t addr = 0;  // destination byte address
  uint32_t imm = 0;   // semaphore increment, read length in bytes
  bool operator==(const PacketHeader& o) const;
};

struct Packet {
  PacketHeader h;
  std::vector<Flit> payload;  // h.len flits
  bool operator==(const Packet& o) const { return h == o.h && payload == o.payload; }
};

// Checks the header's fields against the format and the packet-type rules (a semaphore
// increment and a read request carry no payload, a write carries at least one flit); throws
// tern::Error saying which rule was broken.
void check_packet(const Packet& p);

// CRC-32C of bytes (init and final xor 0xFFFFFFFF); crc32c("123456789") == 0xE3069283.
uint32_t crc32c(const uint8_t* data, size_t n);
// The running form: start from 0xFFFFFFFF, feed flits, finish with ~crc.
uint32_t crc32c_update(uint32_t crc, const uint8_t* data, size_t n);
uint32_t crc32c_flit(uint32_t crc, const Flit& f);  // the flit's bytes, byte 0 = bits 7:0

// The header flit of `p` with link sequence number `seq` and its CRC over the header (crc field
// zero) and the payload flits; then the payload flits.
Flit header_flit(const PacketHeader& h, uint32_t seq);
std::vector<Flit> encode_packet(const Packet& p, uint32_t seq);
// The CRC a packet must carry: over its flits with the header's crc field zero.
uint32_t packet_crc(const Flit& header, const std::vector<Flit>& payload);
PacketHeader decode_header(const Flit& header);  // no checks

// A control flit (idle, NAK or training): the receiver's next expected sequence number, its
// cumulative freed-credit counters per VC and, in training, whether it has seen the peer, the
// reset handshake (fresh, fresh_ack) and what a reset peer adopts (tx_base, held).
struct Ctrl {
  FlitType type = FlitType::kIdle;
  uint32_t rx_exp = 0;
  bool seen = false;
  std::array<uint32_t, kNumVcs> freed{};
  bool fresh = false;
  bool fresh_ack = false;
  uint32_t tx_base = 0;
  std::array<uint32_t, kNumVcs> held{};
  bool operator==(const Ctrl& o) const {
    return type == o.type && rx_exp == o.rx_exp && seen == o.seen && freed == o.freed &&
           fresh == o.fresh && fresh_ack == o.fresh_ack && tx_base == o.tx_base && held == o.held;
  }
};
Flit encode_ctrl(const Ctrl& c);
// The control flit's fields if its type is a control type and its CRC is good.
bool decode_ctrl(const Flit& f, Ctrl* out);
// A flit's CRC over itself with the crc field zero (control flits).
uint32_t flit_crc(const Flit& f);

FlitType flit_type(const Flit& f);
uint32_t flit_seq(const Flit& f);

}  // namespace tern::link
