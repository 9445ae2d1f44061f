// The SystemVerilog package and the docs tables of the NeuronLink format, written from the
// tables of link_format.cc.
#include "link/link_gen.h"

#include <fmt/format.h>

#include "common/gen_text.h"
#include "common/names.h"
#include "link/link_format.h"

namespace tern::link {
namespace {

constexpr const char* kInt = "int unsigned";

std::string sv_layout(const Layout& l) {
  gen::ParamBlock p;
  for (const Field& f : l.fields) {
    p.add(kInt, l.prefix + upper_camel(f.name) + "Lsb", std::to_string(f.lsb));
    p.add(kInt, l.prefix + upper_camel(f.name) + "Width", std::to_string(f.width));
  }
  p.add(kInt, l.prefix + "Bits", std::to_string(l.bits()), "bits used; the rest of the flit is zero");
  return p.text(fmt::format("The {} flit: <Field>Lsb and <Field>Width", l.name));
}

std::string sv_enum(const std::vector<Enumerator>& e, const std::string& prefix, int width,
                    const std::string& heading) {
  gen::ParamBlock p;
  for (const Enumerator& x : e)
    p.add(fmt::format("logic [{}:0]", width - 1), prefix + upper_camel(x.name),
          fmt::format("{}'d{}", width, x.value));
  return p.text(heading);
}

std::string md_layout(const Layout& l) {
  std::string out = fmt::format("| bits | field | meaning |\n|---|---|---|\n");
  for (const Field& f : l.fields) {
    const std::string bits =
        f.width == 1 ? std::to_string(f.lsb) : fmt::format("{}:{}", f.lsb + f.width - 1, f.lsb);
    out += fmt::format("| {} | `{}` | {} |\n", bits, f.name, f.doc);
  }
  out += fmt::format("| {}:{} | — | zero |\n", kFlitBits - 1, l.bits());
  return out;
}

std::string md_enum(const std::vector<Enumerator>& e) {
  std::string out = "| value | name | meaning |\n|---|---|---|\n";
  for (const Enumerator& x : e) out += fmt::format("| {} | `{}` | {} |\n", x.value, x.name, x.doc);
  return out;
}

}  // namespace

std::string link_sv_package() {
  std::string out =
      "// tern_link_pkg: the NeuronLink flit and packet format (docs/link.md).\n"
      "// Generated from model/link/link_format.cc by `tern link sv`: do not edit.\n"
      "package tern_link_pkg;\n"
      "\n"
      "  // Shared definitions: a block uses only some of them, so a block linted as its own top\n"
      "  // would report the others as unused. The waiver covers these localparams only.\n"
      "  /* verilator lint_off UNUSEDPARAM */\n";
  gen::ParamBlock sizes;
  sizes.add(kInt, "FlitBits", std::to_string(kFlitBits), "flit width (the payload flit is all data)");
  sizes.add(kInt, "NumVcs", std::to_string(kNumVcs), "virtual channels per link");
  sizes.add(kInt, "SeqBits", std::to_string(kSeqBits), "link sequence numbers");
  sizes.add(kInt, "MaxPayloadFlits", std::to_string(kMaxPayloadFlits), "payload flits per packet, at most");
  sizes.add(kInt, "CreditBits", std::to_string(kCreditBits), "cumulative credit counters");
  sizes.add(kInt, "MaxOutstanding", std::to_string(kMaxOutstanding), "unacknowledged packets, at most");
  sizes.add(kInt, "CoordBits", std::to_string(kCoordBits), "per torus dimension");
  sizes.add("logic [31:0]", "CrcPoly", fmt::format("32'h{:08X}", kCrcPoly), "CRC-32C, reflected");
  out += sizes.text("Sizes");
  out += sv_enum(flit_types(), "Flit", header_layout().at("type").width, "Flit types (field type)");
  out += sv_enum(packet_types(), "Pkt", header_layout().at("ptype").width, "Packet types (field ptype)");
  out += sv_layout(header_layout());
  out += sv_layout(ctrl_layout());
  out += "\n  /* verilator lint_on UNUSEDPARAM */\n\nendpackage\n";
  return out;
}

std::string link_markdown_tables() {
  std::string out = fmt::format(
      "Flits are {} bits; {} virtual channels; sequence numbers modulo 2^{}; at most {} payload "
      "flits per packet and {} unacknowledged packets per link; credit counters modulo 2^{}; "
      "CRC-32C (polynomial 0x{:08X} reflected, init and final xor 0xFFFFFFFF).\n\n",
      kFlitBits, kNumVcs, kSeqBits, kMaxPayloadFlits, kMaxOutstanding, kCreditBits, kCrcPoly);
  out += "### Header flit\n\n" + md_layout(header_layout());
  out += "\n### Control flit (idle, nak, train)\n\n" + md_layout(ctrl_layout());
  out += "\n### Flit types\n\n" + md_enum(flit_types());
  out += "\n### Packet types\n\n" + md_enum(packet_types());
  return out;
}

std::string update_markdown(const std::string& text, const std::string& source) {
  return gen::replace_generated_block(text, kMarkdownBegin, kMarkdownEnd, link_markdown_tables(),
                                      source);
}

}  // namespace tern::link
