// The SystemVerilog package and the docs tables of the ISA, written from isa.cc's tables.
#include "isa/isa_gen.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <vector>

#include "common/error.h"
#include "common/gen_text.h"
#include "common/names.h"
#include "isa/isa.h"

namespace tern::isa {
namespace {

constexpr uint32_t kDescSides = 2;  // src, dst

// Where a layout sits. A slot layout repeats at each slot and its fields are published relative
// to the slot; any other layout sits once and its fields are published as absolute bits.
struct Placement {
  std::vector<uint16_t> slot_lsbs;  // empty: not a slot layout
  uint16_t slot_bits = 0;
};

Placement placement(Layout l) {
  Placement p;
  auto slots = [&p](uint32_t n, uint16_t (*lsb)(uint32_t), uint16_t bits) {
    for (uint32_t i = 0; i < n; ++i) p.slot_lsbs.push_back(lsb(i));
    p.slot_bits = bits;
  };
  if (l == Layout::kAp) slots(kApSlots, ap_slot_lsb, kApBits);
  if (l == Layout::kScalar) slots(kScalarSlots, scalar_slot_lsb, kScalarBits);
  if (l == Layout::kDescSide) slots(kDescSides, desc_side_lsb, kDescSideBits);
  return p;
}

// The lsb a field is published with: slot-relative for slot layouts, absolute otherwise.
uint32_t published_lsb(const LayoutInfo& info, const FieldDef& f) {
  return placement(info.layout).slot_lsbs.empty() ? info.base + f.lsb : f.lsb;
}

std::string join(const std::vector<std::string>& items, const char* sep, const char* last_sep) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i)
    out += (i == 0 ? "" : i + 1 == items.size() ? last_sep : sep) + items[i];
  return out;
}

std::string seq_list(uint8_t mask) {
  if (mask == kAllSeqs) return "all";
  std::vector<std::string> names;
  for (int s = 0; s < kNumSeqs; ++s)
    if (mask & seq_bit(Seq(s))) names.push_back(seq_name(Seq(s)));
  return join(names, ", ", ", ");
}

// The formats in order of first use by an opcode.
std::vector<Format> formats() {
  std::vector<Format> out;
  for (const OpcodeInfo& o : opcodes())
    if (std::find(out.begin(), out.end(), o.format) == out.end()) out.push_back(o.format);
  return out;
}

// ---------------------------------------------------------------------------------------------
// SystemVerilog

using gen::ParamBlock;

constexpr const char* kUint = "int unsigned";

std::string sv_sizes() {
  ParamBlock b;
  b.add(kUint, "InstrBits", std::to_string(kInstrBits), "instruction: two 512-bit fetch beats");
  b.add(kUint, "DescBits", std::to_string(kDescBits), "DMA descriptor: one beat");
  b.add(kUint, "NumRegs", std::to_string(kNumRegs), "registers per sequencer; r0 reads zero");
  b.add(kUint, "NumSems", std::to_string(kNumSems), "semaphores");
  b.add(kUint, "NumSeqs", std::to_string(kNumSeqs), "sequencers");
  b.add(kUint, "ApDims", std::to_string(kApDims), "free dimensions of an access pattern");
  b.add(kUint, "ApSlots", std::to_string(kApSlots), "access-pattern slots per instruction");
  b.add(kUint, "ApBits", std::to_string(kApBits));
  for (uint32_t i = 0; i < kApSlots; ++i)
    b.add(kUint, fmt::format("ApSlot{}Lsb", i), std::to_string(ap_slot_lsb(i)));
  b.add(kUint, "ScalarSlots", std::to_string(kScalarSlots), "scalar slots per instruction");
  b.add(kUint, "ScalarBits", std::to_string(kScalarBits));
  for (uint32_t i = 0; i < kScalarSlots; ++i)
    b.add(kUint, fmt::format("ScalarSlot{}Lsb", i), std::to_string(scalar_slot_lsb(i)));
  b.add(kUint, "DescSideBits", std::to_string(kDescSideBits), "descriptor side: src, dst");
  b.add(kUint, "DescSrcLsb", std::to_string(desc_side_lsb(0)));
  b.add(kUint, "DescDstLsb", std::to_string(desc_side_lsb(1)));
  return b.text("Sizes and slot positions (bits)");
}

std::string sv_sequencers() {
  ParamBlock b;
  int bits = 1;
  while ((1 << bits) < kNumSeqs) ++bits;
  for (int s = 0; s < kNumSeqs; ++s)
    b.add(fmt::format("logic [{}:0]", bits - 1), "Seq" + upper_camel(seq_name(Seq(s))),
          fmt::format("{}'d{}", bits, s));
  return b.text("Sequencers (bit i of a sequencer mask: sequencer i)");
}

std::string sv_opcodes() {
  ParamBlock b;
  for (const OpcodeInfo& o : opcodes())
    b.add("logic [7:0]", "Op" + upper_camel(o.mnemonic), fmt::format("8'h{:02X}", unsigned(o.op)),
          o.summary);
  return b.text("Opcodes");
}

std::string sv_fields() {
  std::string out;
  for (const LayoutInfo& info : layouts()) {
    ParamBlock b;
    for (const FieldDef& f : info.fields) {
      const std::string stem = info.name + upper_camel(f.name);
      b.add(kUint, stem + "Lsb", std::to_string(published_lsb(info, f)),
            f.is_signed ? fmt::format("signed: {}", f.doc) : f.doc);
      b.add(kUint, stem + "Width", std::to_string(f.width));
    }
    const bool slot = !placement(info.layout).slot_lsbs.empty();
    out += b.text(fmt::format("{} fields ({} bits)", info.name,
                              slot ? "slot-relative" : "absolute instruction"));
  }
  return out;
}

// op_seq_mask(): one case item per distinct mask, opcodes in table order.
std::string sv_seq_mask_function() {
  std::vector<std::pair<uint8_t, std::vector<std::string>>> groups;
  for (const OpcodeInfo& o : opcodes()) {
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const auto& g) { return g.first == o.seqs; });
    if (it == groups.end()) {
      groups.emplace_back(o.seqs, std::vector<std::string>{});
      it = std::prev(groups.end());
    }
    it->second.push_back("Op" + upper_camel(o.mnemonic));
  }
  std::string out = fmt::format(
      "\n  // The sequencers that may execute `op` (bit i: sequencer i); 0: an illegal opcode.\n"
      "  function automatic logic [{}:0] op_seq_mask(logic [7:0] op);\n"
      "    unique case (op)\n",
      kNumSeqs - 1);
  const std::string indent = "      ";
  for (const auto& [mask, names] : groups) {
    std::string line = indent;
    for (size_t i = 0; i < names.size(); ++i) {
      const std::string item =
          names[i] + (i + 1 < names.size()
                          ? ","
                          : fmt::format(": op_seq_mask = {}'b{:0{}b};", kNumSeqs, mask, kNumSeqs));
      if (line.size() > indent.size() && line.size() + 1 + item.size() > 100) {
        out += line + "\n";
        line = indent;
      }
      line += (line.size() > indent.size() ? " " : "") + item;
    }
    out += line + "\n";
  }
  out += fmt::format("      default: op_seq_mask = {}'b{:0{}b};\n", kNumSeqs, 0, kNumSeqs);
  out += "    endcase\n  endfunction\n";
  return out;
}

// ---------------------------------------------------------------------------------------------
// Markdown

std::string md_escape(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string md_opcodes() {
  std::string out =
      "## Opcodes\n\n"
      "Sequencers: the ones that may execute the opcode (`all`: pe, act, dve, pool and sp). "
      "`b` is rs2, or imm when use_imm is set.\n\n"
      "| code | mnemonic | format | sequencers | summary |\n"
      "|---|---|---|---|---|\n";
  for (const OpcodeInfo& o : opcodes())
    out += fmt::format("| `0x{:02x}` | `{}` | {} | {} | {} |\n", unsigned(o.op), o.mnemonic,
                       format_name(o.format), seq_list(o.seqs), md_escape(o.summary));
  return out;
}

std::string md_formats() {
  std::string out =
      "## Formats\n\n"
      "The operand word (the layout below that holds the format's own fields) and the operand "
      "slots each format reads. Bits an instruction does not use must be zero: the decoder rejects "
      "them.\n\n"
      "| format | operand word | access patterns | scalars |\n"
      "|---|---|---|---|\n";
  for (Format f : formats()) {
    const Layout l = format_layout(f);
    const FormatSlots slots = format_slots(f);
    std::vector<std::string> aps, scalars;
    for (uint32_t s = 0; s < kApSlots; ++s)
      if (slots.ap_mask & (1u << s)) aps.push_back(fmt::format("ap{}", s));
    for (uint32_t s = 0; s < slots.scalars; ++s) scalars.push_back(fmt::format("s{}", s));
    out += fmt::format("| {} | {} | {} | {} |\n", format_name(f),
                       l == Layout::kHeader ? "-" : layout(l).name,
                       aps.empty() ? "-" : join(aps, ", ", ", "),
                       scalars.empty() ? "-" : join(scalars, ", ", ", "));
  }
  return out;
}

// The line under a layout's heading: where it sits and how its bits are counted.
std::string md_where(const LayoutInfo& info) {
  const Placement p = placement(info.layout);
  switch (info.layout) {
    case Layout::kHeader:
      return "The header of every instruction. Bits are absolute instruction bits.";
    case Layout::kAp:
    case Layout::kScalar:
      return fmt::format(
          "{} slot i (i = 0..{}) at instruction bit {} + {}*i, {} bits wide. Bits are relative "
          "to the slot.",
          info.layout == Layout::kAp ? "Access-pattern" : "Scalar", p.slot_lsbs.size() - 1,
          p.slot_lsbs[0], p.slot_bits, p.slot_bits);
    case Layout::kDescSide:
      return fmt::format(
          "Each side of the {}-bit DMA descriptor, {} bits wide: src at bit {}, dst at bit {}. "
          "Bits are relative to the side.",
          kDescBits, p.slot_bits, p.slot_lsbs[0], p.slot_lsbs[1]);
    default: break;
  }
  std::vector<std::string> users;
  for (Format f : formats())
    if (format_layout(f) == info.layout) users.push_back(format_name(f));
  return fmt::format(
      "The operand word of the {} format{}, from instruction bit {}. Bits are absolute "
      "instruction bits.",
      join(users, ", ", " and "), users.size() > 1 ? "s" : "", info.base);
}

std::string md_layouts() {
  std::string out =
      "## Bit fields\n\n"
      "SystemVerilog: `tern_isa_pkg::<Layout><Field>Lsb` and `...Width` (for example "
      "`HdrWaitSemLsb`), with the lsb counted as in the table.\n";
  for (const LayoutInfo& info : layouts()) {
    out += fmt::format(
        "\n### {}\n\n{}\n\n"
        "| field | bits | width | signed | meaning |\n"
        "|---|---|---|---|---|\n",
        info.name, md_where(info));
    for (const FieldDef& f : info.fields) {
      const uint32_t lsb = published_lsb(info, f);
      const std::string bits =
          f.width == 1 ? std::to_string(lsb) : fmt::format("{}:{}", lsb + f.width - 1, lsb);
      out += fmt::format("| `{}` | {} | {} | {} | {} |\n", f.name, bits, f.width,
                         f.is_signed ? "yes" : "", md_escape(f.doc));
    }
  }
  return out;
}

}  // namespace

std::string isa_sv_package() {
  std::string out =
      "// tern_isa_pkg: the encoding of tern instructions and DMA descriptors (docs/isa.md).\n"
      "// Generated from model/isa/isa.cc by `tern isa sv`: do not edit.\n"
      "//\n"
      "// Fields: <Layout><Field>Lsb and <Layout><Field>Width. Hdr and the operand-word layouts\n"
      "// (Alu, Mem, Br, Loop, Notify, Dma, Pe, Act, Dve) give absolute bits of the instruction.\n"
      "// Ap and Sc give bits relative to their slot (access-pattern slot i at ApSlot<i>Lsb,\n"
      "// scalar slot i at ScalarSlot<i>Lsb); Desc gives bits relative to its side of the\n"
      "// descriptor (DescSrcLsb, DescDstLsb).\n"
      "package tern_isa_pkg;\n"
      "\n"
      "  // Shared definitions: a block uses only some of them, so a block linted as its own top\n"
      "  // would report the others as unused. The waiver covers these localparams only.\n"
      "  /* verilator lint_off UNUSEDPARAM */\n";
  out += sv_sizes() + sv_sequencers() + sv_opcodes() + sv_fields();
  out += "\n  /* verilator lint_on UNUSEDPARAM */\n";
  out += sv_seq_mask_function();
  out += "\nendpackage\n";
  return out;
}

std::string isa_markdown_tables() {
  return md_opcodes() + "\n" + md_formats() + "\n" + md_layouts();
}

std::string update_markdown(const std::string& text, const std::string& source) {
  auto line_at = [&](const char* marker, size_t from) {
    for (size_t pos = text.find(marker, from); pos != std::string::npos;
         pos = text.find(marker, pos + 1)) {
      const size_t end = pos + std::string(marker).size();
      if ((pos == 0 || text[pos - 1] == '\n') && (end == text.size() || text[end] == '\n'))
        return pos;
    }
    throw Error(fmt::format("{}: no line '{}'{}", source, marker,
                            from == 0 ? "" : fmt::format(" after '{}'", kMarkdownBegin)));
  };
  const size_t begin_end = line_at(kMarkdownBegin, 0) + std::string(kMarkdownBegin).size();
  const size_t end = line_at(kMarkdownEnd, begin_end);
  return text.substr(0, begin_end) + "\n\n" + isa_markdown_tables() + "\n" + text.substr(end);
}

}  // namespace tern::isa
