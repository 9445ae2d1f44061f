// The ISA definition (model/isa/isa.cc) is consistent, and the SystemVerilog package and docs
// tables generated from it (model/isa/isa_gen.cc) carry every opcode and field.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/names.h"
#include "isa/isa.h"
#include "isa/isa_gen.h"

namespace tern::isa {
namespace {

// Bits [lsb, lsb + width) of a container.
struct Span {
  uint32_t lsb, width;
  uint32_t end() const { return lsb + width; }
  bool overlaps(const Span& o) const { return lsb < o.end() && o.lsb < end(); }
};

bool is_slot_layout(Layout l) {
  return l == Layout::kAp || l == Layout::kScalar || l == Layout::kDescSide;
}

// The bits the header owns: everything below the lowest operand word.
uint32_t header_bits() {
  uint32_t bits = kInstrBits;
  for (const LayoutInfo& info : layouts())
    if (info.layout != Layout::kHeader && !is_slot_layout(info.layout))
      bits = std::min<uint32_t>(bits, info.base);
  return bits;
}

// Where a layout's fields may lie, in the coordinates its fields are given in (relative to the
// layout's base).
Span container(const LayoutInfo& info) {
  switch (info.layout) {
    case Layout::kHeader: return {0, header_bits()};
    case Layout::kAp: return {0, kApBits};
    case Layout::kScalar: return {0, kScalarBits};
    case Layout::kDescSide: return {0, kDescSideBits};
    default: return {0, kInstrBits - info.base};
  }
}

std::string where(const LayoutInfo& info, const FieldDef& f) {
  return std::string(info.name) + "." + f.name;
}

TEST(IsaDefinition, EveryFieldFitsItsContainer) {
  EXPECT_GT(header_bits(), 0u);
  for (const LayoutInfo& info : layouts()) {
    const Span box = container(info);
    EXPECT_FALSE(info.fields.empty()) << info.name;
    for (const FieldDef& f : info.fields) {
      EXPECT_GE(f.width, 1u) << where(info, f);
      EXPECT_LE(f.width, 64u) << where(info, f) << ": wider than the 64-bit accessors";
      EXPECT_LE(f.lsb + f.width, box.end()) << where(info, f) << " ends at bit " << f.lsb + f.width
                                            << " of a " << box.width << "-bit container";
    }
  }
}

TEST(IsaDefinition, FieldsOfALayoutDoNotOverlap) {
  for (const LayoutInfo& info : layouts()) {
    std::set<std::string> names;
    for (size_t i = 0; i < info.fields.size(); ++i) {
      const FieldDef& a = info.fields[i];
      EXPECT_TRUE(names.insert(a.name).second) << where(info, a) << " appears twice";
      for (size_t j = i + 1; j < info.fields.size(); ++j) {
        const FieldDef& b = info.fields[j];
        EXPECT_FALSE(Span({a.lsb, a.width}).overlaps({b.lsb, b.width}))
            << where(info, a) << " overlaps " << b.name;
      }
    }
  }
}

using Parts = std::vector<std::pair<std::string, Span>>;

// The parts lie inside a `bits`-wide container and are pairwise disjoint.
void expect_disjoint(const Parts& parts, uint32_t bits) {
  for (size_t i = 0; i < parts.size(); ++i) {
    const auto& [name, span] = parts[i];
    EXPECT_LE(span.end(), bits) << name << " ends past bit " << bits;
    for (size_t j = i + 1; j < parts.size(); ++j)
      EXPECT_FALSE(span.overlaps(parts[j].second)) << name << " overlaps " << parts[j].first;
  }
}

TEST(IsaDefinition, SlotsDoNotOverlapEachOtherOrTheHeader) {
  Parts instr = {{"header", {0, header_bits()}}};
  for (uint32_t i = 0; i < kApSlots; ++i)
    instr.push_back({"ap" + std::to_string(i), {ap_slot_lsb(i), kApBits}});
  for (uint32_t i = 0; i < kScalarSlots; ++i)
    instr.push_back({"s" + std::to_string(i), {scalar_slot_lsb(i), kScalarBits}});
  expect_disjoint(instr, kInstrBits);
  expect_disjoint(
      {{"src", {desc_side_lsb(0), kDescSideBits}}, {"dst", {desc_side_lsb(1), kDescSideBits}}},
      kDescBits);
}

// Each format's operand word lies outside the header and the operand slots that format uses
// (the branch and loop targets may reuse slot bits: those formats carry no access patterns).
TEST(IsaDefinition, OperandWordsAvoidTheHeaderAndTheirFormatsSlots) {
  for (const OpcodeInfo& o : opcodes()) {
    const Layout l = format_layout(o.format);
    if (l == Layout::kHeader) continue;
    const LayoutInfo& info = layout(l);
    const FormatSlots slots = format_slots(o.format);
    std::vector<Span> taken = {{0, header_bits()}};
    for (uint32_t s = 0; s < kApSlots; ++s)
      if (slots.ap_mask & (1u << s)) taken.push_back({ap_slot_lsb(s), kApBits});
    for (uint32_t s = 0; s < slots.scalars; ++s) taken.push_back({scalar_slot_lsb(s), kScalarBits});
    for (const FieldDef& f : info.fields)
      for (const Span& t : taken)
        EXPECT_FALSE(Span({uint32_t(info.base + f.lsb), f.width}).overlaps(t))
            << o.mnemonic << ": " << where(info, f) << " overlaps bits " << t.lsb << ".."
            << t.end() - 1;
  }
}

TEST(IsaDefinition, OpcodesAndMnemonicsAreUnique) {
  std::set<unsigned> codes;
  std::set<std::string> mnemonics;
  for (const OpcodeInfo& o : opcodes()) {
    EXPECT_TRUE(codes.insert(unsigned(o.op)).second) << "opcode " << unsigned(o.op) << " twice";
    EXPECT_TRUE(mnemonics.insert(o.mnemonic).second) << o.mnemonic << " twice";
    EXPECT_NE(o.seqs, 0u) << o.mnemonic << ": no sequencer may execute it";
    EXPECT_EQ(o.seqs & ~kAllSeqs, 0u) << o.mnemonic;
    EXPECT_EQ(opcode_info(uint8_t(o.op)), &o);
    EXPECT_EQ(opcode_from_mnemonic(o.mnemonic), &o);
  }
}

// ---------------------------------------------------------------------------------------------
// The generated package.

// Every `localparam <type> <Name> = <value>;` of a package: name -> value text.
std::map<std::string, std::string> localparams(const std::string& sv) {
  const std::regex re(R"(localparam\s+[^=;]*?\b(\w+)\s*=\s*([^;]+?)\s*;)");
  std::map<std::string, std::string> out;
  for (auto it = std::sregex_iterator(sv.begin(), sv.end(), re); it != std::sregex_iterator();
       ++it) {
    EXPECT_TRUE(out.emplace((*it)[1], (*it)[2]).second) << "localparam " << (*it)[1] << " twice";
  }
  return out;
}

// The case items of op_seq_mask(): opcode localparam -> mask.
std::map<std::string, unsigned> seq_mask_items(const std::string& sv) {
  const size_t begin = sv.find("op_seq_mask(logic [7:0] op);");
  const size_t end = sv.find("endcase", begin);
  EXPECT_NE(begin, std::string::npos);
  const std::string body = sv.substr(begin, end - begin);
  const std::regex group(R"(((?:Op\w+\s*,\s*)*Op\w+)\s*:\s*op_seq_mask\s*=\s*\d+'b([01]+)\s*;)");
  const std::regex name(R"(Op\w+)");
  std::map<std::string, unsigned> out;
  for (auto g = std::sregex_iterator(body.begin(), body.end(), group); g != std::sregex_iterator();
       ++g) {
    const std::string items = (*g)[1];
    const unsigned mask = unsigned(std::stoul((*g)[2], nullptr, 2));
    for (auto n = std::sregex_iterator(items.begin(), items.end(), name);
         n != std::sregex_iterator(); ++n)
      EXPECT_TRUE(out.emplace(n->str(), mask).second) << n->str() << " is a case item twice";
  }
  return out;
}

TEST(IsaGen, SvPackageHasEveryOpcodeAndField) {
  const std::string sv = isa_sv_package();
  EXPECT_NE(sv.find("package tern_isa_pkg;"), std::string::npos);
  EXPECT_NE(sv.find("`tern isa sv`: do not edit"), std::string::npos);
  EXPECT_EQ(sv.find("return"), std::string::npos) << "Yosys 0.23 rejects return in functions";
  EXPECT_EQ(sv.find("import"), std::string::npos);
  const auto params = localparams(sv);
  const auto masks = seq_mask_items(sv);
  for (const OpcodeInfo& o : opcodes()) {
    const std::string name = "Op" + upper_camel(o.mnemonic);
    ASSERT_TRUE(params.count(name)) << name;
    EXPECT_EQ(std::stoul(params.at(name).substr(params.at(name).find('h') + 1), nullptr, 16),
              unsigned(o.op))
        << name;
    ASSERT_TRUE(masks.count(name)) << name << " has no op_seq_mask case item";
    EXPECT_EQ(masks.at(name), o.seqs) << name;
  }
  EXPECT_EQ(masks.size(), opcodes().size());
  for (const LayoutInfo& info : layouts()) {
    for (const FieldDef& f : info.fields) {
      const std::string stem = info.name + upper_camel(f.name);
      const uint32_t lsb = is_slot_layout(info.layout) ? f.lsb : info.base + f.lsb;
      ASSERT_TRUE(params.count(stem + "Lsb")) << stem;
      ASSERT_TRUE(params.count(stem + "Width")) << stem;
      EXPECT_EQ(params.at(stem + "Lsb"), std::to_string(lsb)) << stem;
      EXPECT_EQ(params.at(stem + "Width"), std::to_string(f.width)) << stem;
    }
  }
  EXPECT_EQ(params.at("InstrBits"), std::to_string(kInstrBits));
  EXPECT_EQ(params.at("DescBits"), std::to_string(kDescBits));
  EXPECT_EQ(params.at("NumRegs"), std::to_string(kNumRegs));
  EXPECT_EQ(params.at("NumSems"), std::to_string(kNumSems));
  for (uint32_t i = 0; i < kApSlots; ++i)
    EXPECT_EQ(params.at("ApSlot" + std::to_string(i) + "Lsb"), std::to_string(ap_slot_lsb(i)));
  for (uint32_t i = 0; i < kScalarSlots; ++i)
    EXPECT_EQ(params.at("ScalarSlot" + std::to_string(i) + "Lsb"),
              std::to_string(scalar_slot_lsb(i)));
  EXPECT_EQ(params.at("DescDstLsb"), std::to_string(desc_side_lsb(1)));
  for (int s = 0; s < kNumSeqs; ++s)
    EXPECT_EQ(params.at("Seq" + upper_camel(seq_name(Seq(s)))), "3'd" + std::to_string(s));
}

// ---------------------------------------------------------------------------------------------
// The generated docs tables.

TEST(IsaGen, MarkdownHasEveryOpcodeAndLayout) {
  const std::string md = isa_markdown_tables();
  for (const OpcodeInfo& o : opcodes()) {
    char row[64];
    std::snprintf(row, sizeof row, "| `0x%02x` | `%s` |", unsigned(o.op), o.mnemonic);
    EXPECT_NE(md.find(row), std::string::npos) << row;
  }
  for (const LayoutInfo& info : layouts()) {
    const size_t at = md.find("\n### " + std::string(info.name) + "\n");
    ASSERT_NE(at, std::string::npos) << info.name;
    const size_t next = md.find("\n### ", at + 1);
    const std::string table = md.substr(at, next == std::string::npos ? next : next - at);
    for (const FieldDef& f : info.fields)
      EXPECT_NE(table.find("| `" + std::string(f.name) + "` |"), std::string::npos)
          << where(info, f);
  }
  EXPECT_NE(md.find("at instruction bit 128 + 192*i"), std::string::npos);
}

TEST(IsaGen, UpdateMarkdownReplacesOnlyTheGeneratedBlock) {
  const std::string before = "# title\n\nintro\n\n" + std::string(kMarkdownBegin) + "\n";
  const std::string after = std::string(kMarkdownEnd) + "\n\n## Semantics\n";
  const std::string updated = update_markdown(before + "stale\n" + after, "t.md");
  EXPECT_EQ(updated, before + "\n" + isa_markdown_tables() + "\n" + after);
  EXPECT_EQ(update_markdown(updated, "t.md"), updated);
  try {
    update_markdown("# title\n" + after, "docs/t.md");
    FAIL() << "a missing begin marker must throw";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("docs/t.md"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(kMarkdownBegin), std::string::npos) << e.what();
  }
  EXPECT_THROW(update_markdown(before + "no end\n", "t.md"), Error);
}

}  // namespace
}  // namespace tern::isa
