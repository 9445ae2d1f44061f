// The NeuronLink format tables (the one definition) and the golden encoders and decoders.
#include "link/link_format.h"

#include <fmt/format.h>

#include "common/error.h"

namespace tern::link {
namespace {

struct FieldDef {
  const char* name;
  int width;
  const char* doc;
};

Layout make_layout(const char* name, const char* prefix, const std::vector<FieldDef>& defs) {
  Layout l{name, prefix, {}};
  int lsb = 0;
  for (const FieldDef& d : defs) {
    l.fields.push_back({d.name, lsb, d.width, d.doc});
    lsb += d.width;
  }
  if (lsb > kFlitBits)
    throw Error(fmt::format("link format: the {} fields take {} bits, more than a {}-bit flit", name,
                            lsb, kFlitBits));
  return l;
}

// The fields every header and control flit starts with.
const FieldDef kType{"type", 4, "flit type (table below); 0 is never valid"};
const FieldDef kCrc{"crc", 32, "CRC-32C over the packet (header with this field zero, then its payload flits) or over the control flit (this field zero)"};

}  // namespace

const Field& Layout::at(const std::string& n) const {
  for (const Field& f : fields)
    if (f.name == n) return f;
  throw Error(fmt::format("link format: the {} flit has no field '{}'", name, n));
}

const Layout& header_layout() {
  static const Layout l = make_layout(
      "header", "Hdr",
      {kType, kCrc,
       {"seq", kSeqBits, "link sequence number of the packet, modulo 256"},
       {"dst_x", kCoordBits, "destination chip, x coordinate"},
       {"dst_y", kCoordBits, "destination chip, y coordinate"},
       {"dst_z", kCoordBits, "destination chip, z coordinate"},
       {"src_x", kCoordBits, "source chip, x coordinate"},
       {"src_y", kCoordBits, "source chip, y coordinate"},
       {"src_z", kCoordBits, "source chip, z coordinate"},
       {"vc", 2, "virtual channel on this link: bit 1 message class (0 request, 1 response), bit 0 dateline"},
       {"ptype", 3, "packet type (table below)"},
       {"len", 6, "payload flits that follow the header, 0..32"},
       {"flow", 8, "flow id (ordering domain of writes and semaphore increments) or read tag"},
       {"mem", 2, "destination memory (0 HBM, 1 SBUF, 2 PSUM, 3 semaphores)"},
       {"addr", 48, "destination byte address (write, read request) or semaphore index"},
       {"imm", 32, "semaphore increment (semaphore), read length in bytes (read request)"}});
  return l;
}

const Layout& ctrl_layout() {
  static const Layout l = make_layout(
      "ctrl", "Ctl",
      {kType, kCrc,
       {"rx_exp", kSeqBits, "sender's receiver: next expected sequence number (all before it arrived)"},
       {"seen", 1, "training: the sender has received a good training flit from this side"},
       {"freed0", kCreditBits, "sender's receiver: flits freed on VC 0 since reset, modulo 2^16"},
       {"freed1", kCreditBits, "the same for VC 1"},
       {"freed2", kCreditBits, "the same for VC 2"},
       {"freed3", kCreditBits, "the same for VC 3"},
       {"fresh", 1, "training: the sender was reset and has not been active since"},
       {"fresh_ack", 1, "training: the sender has taken note of the peer's reset (dropped what it had not had acknowledged)"},
       {"tx_base", kSeqBits, "training: the sequence number the sender's next (re)transmission starts from"},
       {"held0", kCreditBits, "training: flits the sender's receiver holds on VC 0 (a reset peer's credits start below the buffer size by this)"},
       {"held1", kCreditBits, "the same for VC 1"},
       {"held2", kCreditBits, "the same for VC 2"},
       {"held3", kCreditBits, "the same for VC 3"}});
  return l;
}

const std::vector<Enumerator>& flit_types() {
  static const std::vector<Enumerator> t = {
      {"idle", 1, "control: acknowledgement and credits, sent whenever there is nothing else"},
      {"nak", 2, "control: a packet was lost or corrupted, resend from rx_exp"},
      {"train", 3, "control: link training (after reset and after the link went down)"},
      {"header", 4, "the first flit of a packet; `len` payload flits follow"}};
  return t;
}

const std::vector<Enumerator>& packet_types() {
  static const std::vector<Enumerator> t = {
      {"write", 0, "remote write of the payload to mem/addr"},
      {"sem_inc", 1, "remote semaphore increment by imm, ordered after the writes of its flow"},
      {"read_req", 2, "read imm bytes at mem/addr; answered by a read_resp with the same flow tag"},
      {"read_resp", 3, "read data for the request with tag flow"}};
  return t;
}

uint64_t get_field(const Flit& f, const Field& field) {
  uint64_t v = 0;
  for (int i = 0; i < field.width; ++i) {
    const int b = field.lsb + i;
    v |= ((f[b / 64] >> (b % 64)) & 1u) << i;
  }
  return v;
}

void set_field(Flit& f, const Field& field, uint64_t value) {
  if (field.width < 64 && (value >> field.width) != 0)
    throw Error(fmt::format("link format: value {:#x} does not fit field {} ({} bits)", value,
                            field.name, field.width));
  for (int i = 0; i < field.width; ++i) {
    const int b = field.lsb + i;
    const uint64_t bit = uint64_t{1} << (b % 64);
    f[b / 64] = ((value >> i) & 1u) ? (f[b / 64] | bit) : (f[b / 64] & ~bit);
  }
}

bool PacketHeader::operator==(const PacketHeader& o) const {
  return dst == o.dst && src == o.src && vc == o.vc && type == o.type && len == o.len &&
         flow == o.flow && mem == o.mem && addr == o.addr && imm == o.imm;
}

void check_packet(const Packet& p) {
  const Layout& l = header_layout();
  auto fits = [&](const char* name, uint64_t v) {
    const Field& f = l.at(name);
    if (f.width < 64 && (v >> f.width) != 0)
      throw Error(fmt::format("link packet: {} = {} does not fit its {} bits", name, v, f.width));
  };
  for (int d = 0; d < 3; ++d) {
    fits(d == 0 ? "dst_x" : d == 1 ? "dst_y" : "dst_z", p.h.dst[d]);
    fits(d == 0 ? "src_x" : d == 1 ? "src_y" : "src_z", p.h.src[d]);
  }
  fits("vc", p.h.vc);
  fits("flow", p.h.flow);
  fits("mem", p.h.mem);
  fits("addr", p.h.addr);
  fits("imm", p.h.imm);
  if (static_cast<uint32_t>(p.h.type) > 3)
    throw Error(fmt::format("link packet: unknown packet type {}", static_cast<uint32_t>(p.h.type)));
  if (p.h.len > kMaxPayloadFlits)
    throw Error(fmt::format("link packet: {} payload flits, at most {}", p.h.len, kMaxPayloadFlits));
  if (p.payload.size() != p.h.len)
    throw Error(fmt::format("link packet: header says {} payload flits, the packet has {}", p.h.len,
                            p.payload.size()));
  const bool response = p.h.type == PktType::kReadResp;
  if (((p.h.vc >> 1) & 1u) != (response ? 1u : 0u))
    throw Error(fmt::format("link packet: a {} travels in message class {}, not on VC {}",
                            response ? "read_resp" : "request", response ? 1 : 0, p.h.vc));
  if ((p.h.type == PktType::kSemInc || p.h.type == PktType::kReadReq) && p.h.len != 0)
    throw Error(fmt::format("link packet: a {} carries no payload (len {})",
                            p.h.type == PktType::kSemInc ? "sem_inc" : "read_req", p.h.len));
  if ((p.h.type == PktType::kWrite || p.h.type == PktType::kReadResp) && p.h.len == 0)
    throw Error("link packet: a write or read response carries at least one payload flit");
}

uint32_t crc32c_update(uint32_t crc, const uint8_t* data, size_t n) {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1u) ? (c >> 1) ^ kCrcPoly : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  for (size_t i = 0; i < n; ++i) crc = table[(crc ^ data[i]) & 0xFFu] ^ (crc >> 8);
  return crc;
}

uint32_t crc32c(const uint8_t* data, size_t n) { return ~crc32c_update(0xFFFFFFFFu, data, n); }

uint32_t crc32c_flit(uint32_t crc, const Flit& f) {
  std::array<uint8_t, kFlitBits / 8> bytes{};
  for (int i = 0; i < kFlitBits / 8; ++i) bytes[i] = static_cast<uint8_t>(f[i / 8] >> (8 * (i % 8)));
  return crc32c_update(crc, bytes.data(), bytes.size());
}

uint32_t packet_crc(const Flit& header, const std::vector<Flit>& payload) {
  Flit h = header;
  set_field(h, header_layout().at("crc"), 0);
  uint32_t crc = crc32c_flit(0xFFFFFFFFu, h);
  for (const Flit& f : payload) crc = crc32c_flit(crc, f);
  return ~crc;
}

uint32_t flit_crc(const Flit& f) { return packet_crc(f, {}); }

Flit header_flit(const PacketHeader& h, uint32_t seq) {
  const Layout& l = header_layout();
  Flit f{};
  set_field(f, l.at("type"), static_cast<uint32_t>(FlitType::kHeader));
  set_field(f, l.at("seq"), seq);
  set_field(f, l.at("dst_x"), h.dst[0]);
  set_field(f, l.at("dst_y"), h.dst[1]);
  set_field(f, l.at("dst_z"), h.dst[2]);
  set_field(f, l.at("src_x"), h.src[0]);
  set_field(f, l.at("src_y"), h.src[1]);
  set_field(f, l.at("src_z"), h.src[2]);
  set_field(f, l.at("vc"), h.vc);
  set_field(f, l.at("ptype"), static_cast<uint32_t>(h.type));
  set_field(f, l.at("len"), h.len);
  set_field(f, l.at("flow"), h.flow);
  set_field(f, l.at("mem"), h.mem);
  set_field(f, l.at("addr"), h.addr);
  set_field(f, l.at("imm"), h.imm);
  return f;
}

std::vector<Flit> encode_packet(const Packet& p, uint32_t seq) {
  check_packet(p);
  std::vector<Flit> out;
  out.push_back(header_flit(p.h, seq));
  set_field(out[0], header_layout().at("crc"), packet_crc(out[0], p.payload));
  out.insert(out.end(), p.payload.begin(), p.payload.end());
  return out;
}

PacketHeader decode_header(const Flit& f) {
  const Layout& l = header_layout();
  PacketHeader h;
  h.dst = {static_cast<uint32_t>(get_field(f, l.at("dst_x"))), static_cast<uint32_t>(get_field(f, l.at("dst_y"))),
           static_cast<uint32_t>(get_field(f, l.at("dst_z")))};
  h.src = {static_cast<uint32_t>(get_field(f, l.at("src_x"))), static_cast<uint32_t>(get_field(f, l.at("src_y"))),
           static_cast<uint32_t>(get_field(f, l.at("src_z")))};
  h.vc = static_cast<uint32_t>(get_field(f, l.at("vc")));
  h.type = static_cast<PktType>(get_field(f, l.at("ptype")));
  h.len = static_cast<uint32_t>(get_field(f, l.at("len")));
  h.flow = static_cast<uint32_t>(get_field(f, l.at("flow")));
  h.mem = static_cast<uint32_t>(get_field(f, l.at("mem")));
  h.addr = get_field(f, l.at("addr"));
  h.imm = static_cast<uint32_t>(get_field(f, l.at("imm")));
  return h;
}

Flit encode_ctrl(const Ctrl& c) {
  if (c.type == FlitType::kHeader) throw Error("link format: a header is not a control flit");
  const Layout& l = ctrl_layout();
  Flit f{};
  set_field(f, l.at("type"), static_cast<uint32_t>(c.type));
  set_field(f, l.at("rx_exp"), c.rx_exp);
  set_field(f, l.at("seen"), c.seen ? 1 : 0);
  for (int v = 0; v < kNumVcs; ++v) set_field(f, l.at(fmt::format("freed{}", v)), c.freed[v]);
  set_field(f, l.at("fresh"), c.fresh ? 1 : 0);
  set_field(f, l.at("fresh_ack"), c.fresh_ack ? 1 : 0);
  set_field(f, l.at("tx_base"), c.tx_base);
  for (int v = 0; v < kNumVcs; ++v) set_field(f, l.at(fmt::format("held{}", v)), c.held[v]);
  set_field(f, l.at("crc"), flit_crc(f));
  return f;
}

bool decode_ctrl(const Flit& f, Ctrl* out) {
  const Layout& l = ctrl_layout();
  const uint64_t t = get_field(f, l.at("type"));
  if (t < 1 || t > 3) return false;
  if (get_field(f, l.at("crc")) != flit_crc(f)) return false;
  out->type = static_cast<FlitType>(t);
  out->rx_exp = static_cast<uint32_t>(get_field(f, l.at("rx_exp")));
  out->seen = get_field(f, l.at("seen")) != 0;
  for (int v = 0; v < kNumVcs; ++v)
    out->freed[v] = static_cast<uint32_t>(get_field(f, l.at(fmt::format("freed{}", v))));
  out->fresh = get_field(f, l.at("fresh")) != 0;
  out->fresh_ack = get_field(f, l.at("fresh_ack")) != 0;
  out->tx_base = static_cast<uint32_t>(get_field(f, l.at("tx_base")));
  for (int v = 0; v < kNumVcs; ++v)
    out->held[v] = static_cast<uint32_t>(get_field(f, l.at(fmt::format("held{}", v))));
  return true;
}

FlitType flit_type(const Flit& f) {
  return static_cast<FlitType>(get_field(f, header_layout().at("type")));
}
uint32_t flit_seq(const Flit& f) { return static_cast<uint32_t>(get_field(f, header_layout().at("seq"))); }

}  // namespace tern::link
