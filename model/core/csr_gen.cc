// The SystemVerilog package and the docs tables of the CSR map, written from csr_map.cc's table.
#include "core/csr_gen.h"

#include <fmt/format.h>

#include <cctype>
#include <set>
#include <vector>

#include "common/error.h"
#include "common/gen_text.h"
#include "common/names.h"
#include "core/csr_map.h"
#include "core/fault.h"
#include "core/seq_state.h"

namespace tern::csr {
namespace {

constexpr const char* kUint = "int unsigned";
constexpr const char* kAddr = "logic [15:0]";
constexpr const char* kWord = "logic [31:0]";

std::string upper(const std::string& s) {
  std::string out;
  for (char c : s) out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string hex16(uint32_t v) { return fmt::format("16'h{:04X}", v); }
std::string hex32(uint32_t v) { return fmt::format("32'h{:08X}", v); }

uint32_t log2_exact(uint32_t v, const char* what) {
  uint32_t bits = 0;
  while ((1u << bits) < v) ++bits;
  if ((1u << bits) != v) throw Error(fmt::format("csr: {} stride {} is not a power of two", what, v));
  return bits;
}

// Every generated name once: two registers or fields that map to one SV name are an error.
class Names {
 public:
  const std::string& operator()(const std::string& name) {
    if (!seen_.insert(name).second)
      throw Error(fmt::format("csr: the SV name {} is generated twice", name));
    return name;
  }

 private:
  std::set<std::string> seen_;
};

std::string prefix(const BlockInfo& b) { return upper_camel(b.name); }
std::string stem(const Reg& r) { return prefix(block(r.block)) + upper_camel(r.name); }

std::string sv_blocks(Names& names) {
  gen::ParamBlock p;
  p.add(kUint, names("AddrBits"), std::to_string(kAddrBits), "byte address");
  p.add(kUint, names("DataBits"), std::to_string(kDataBits));
  for (const BlockInfo& b : blocks()) {
    const std::string n = prefix(b);
    p.add(kAddr, names(n + "Base"), hex16(b.base), b.doc);
    p.add(kAddr, names(n + "Stride"), hex16(b.stride));
    p.add(kUint, names(n + "StrideBits"), std::to_string(log2_exact(b.stride, b.name)));
    p.add(kUint, names(n + "Count"), std::to_string(b.count),
          b.block == Block::kDma ? "at most; the config's engines are mapped" : "");
  }
  return p.text("Blocks: instance i of <Blk> at <Blk>Base + i * <Blk>Stride");
}

std::string sv_regs(Names& names) {
  std::string out;
  for (const BlockInfo& b : blocks()) {
    gen::ParamBlock p;
    for (const Reg& r : regs()) {
      if (r.block != b.block) continue;
      const std::string s = stem(r);
      p.add(kAddr, names(s), hex16(r.offset), fmt::format("{}: {}", access_name(r.access), r.doc));
      p.add(kWord, names(s + "Reset"), hex32(r.reset), r.hw ? "hardware value" : "");
      p.add(kWord, names(s + "Mask"), hex32(r.mask()));
    }
    out += p.text(fmt::format("{} registers: offset in the instance, reset value, defined bits", b.name));
  }
  return out;
}

std::string sv_fields(Names& names) {
  std::string out;
  for (const BlockInfo& b : blocks()) {
    gen::ParamBlock p;
    for (const Reg& r : regs()) {
      if (r.block != b.block) continue;
      for (const Field& f : r.fields) {
        const std::string s = stem(r) + upper_camel(f.name);
        p.add(kUint, names(s + "Lsb"), std::to_string(f.bits.lsb), f.doc);
        p.add(kUint, names(s + "Width"), std::to_string(f.bits.width));
      }
    }
    const std::string text = p.text(fmt::format("{} fields", b.name));
    if (text.find("localparam") != std::string::npos) out += text;
  }
  return out;
}

std::string md_escape(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string bits_text(const Bits& b) {
  return b.width == 1 ? std::to_string(b.lsb) : fmt::format("{}:{}", b.lsb + b.width - 1, b.lsb);
}

// The fault codes a sequencer's STATUS.err_code and a DMA engine's ERR_STATUS.code read.
std::string sv_faults(Names& names) {
  gen::ParamBlock p;
  p.add("logic [3:0]", names("FaultNone"), "4'd0", "no fault");
  for (const core::FaultInfo& f : core::fault_table())
    p.add("logic [3:0]", names(std::string("Fault") + f.sv_name),
          fmt::format("4'd{}", unsigned(f.kind)), f.name);
  return p.text("Fault codes (tern::core::FaultKind, model/core/fault.cc)");
}

// The sequencer's states (its trace port), as the enum its state register has.
std::string sv_seq_states() {
  std::string out = "\n  // Sequencer states (tern::core::SeqState, model/core/seq_state.cc): tern_seq's state\n"
                    "  // register and its trace port.\n  typedef enum logic [3:0] {\n";
  const auto& table = core::seq_state_table();
  for (size_t i = 0; i < table.size(); ++i)
    out += fmt::format("    SeqSt{:<10} = {:<6}  // {}\n", table[i].sv_name,
                       fmt::format("4'd{}{}", unsigned(table[i].state), i + 1 < table.size() ? "," : ""),
                       table[i].meaning);
  return out + "  } seq_state_e;\n";
}

// The DMA engine's ERR_STATUS.detail values.
std::string sv_dma_details(Names& names) {
  gen::ParamBlock p;
  for (const core::DmaDetailInfo& d : core::dma_detail_table())
    p.add("logic [3:0]", names(std::string("DmaDet") + d.sv_name),
          fmt::format("4'd{}", unsigned(d.detail)), d.meaning);
  return p.text("DMA fault details (tern::core::DmaDetail, model/core/fault.cc)");
}

std::string md_faults() {
  std::string out =
      "\n## Fault codes\n\n"
      "What a sequencer's `STATUS.err_code` and a DMA engine's `ERR_STATUS.code` read "
      "(model/core/fault.cc). The golden model raises every code it marks; code 10 is the RTL's "
      "alone, as the golden model's time is an estimate.\n\n"
      "| code | fault | golden | meaning |\n|---|---|---|---|\n";
  for (const core::FaultInfo& f : core::fault_table())
    out += fmt::format("| {} | {} | {} | {} |\n", unsigned(f.kind), f.name, f.golden ? "yes" : "no",
                       md_escape(f.meaning));
  out += "\n## DMA fault details\n\n"
         "`ERR_STATUS.detail` of a DMA engine with code 4 (model/core/fault.cc): the golden "
         "model's checks in its order, then the AXI errors.\n\n"
         "| detail | name | meaning |\n|---|---|---|\n";
  for (const core::DmaDetailInfo& d : core::dma_detail_table())
    out += fmt::format("| {} | `{}` | {} |\n", unsigned(d.detail), d.sv_name, md_escape(d.meaning));
  return out;
}

std::string md_map() {
  std::string out =
      "## Address map\n\n"
      "16-bit byte addresses, 32-bit registers. Instance i of a block is at base + stride * i; "
      "the register offsets below are relative to the instance.\n\n"
      "| block | base | stride | instances | contents |\n"
      "|---|---|---|---|---|\n";
  for (const BlockInfo& b : blocks())
    out += fmt::format("| `{}` | `0x{:03x}` | `0x{:03x}` | {} | {} |\n", b.name, b.base, b.stride,
                       b.count, md_escape(b.doc));
  return out;
}

std::string md_block(const BlockInfo& b) {
  std::string out = fmt::format(
      "\n## Block `{}` (base `0x{:03x}`, stride `0x{:03x}`, {} instance{})\n\n"
      "| offset | register | access | reset | description |\n"
      "|---|---|---|---|---|\n",
      b.name, b.base, b.stride, b.count, b.count == 1 ? "" : "s");
  std::string fields;
  for (const Reg& r : regs()) {
    if (r.block != b.block) continue;
    out += fmt::format("| `0x{:03x}` | `{}` | {} | {} | {} |\n", r.offset, upper(r.name),
                       access_name(r.access), r.hw ? "hw" : fmt::format("`0x{:08x}`", r.reset),
                       md_escape(r.doc));
    for (const Field& f : r.fields)
      fields += fmt::format("| `{}` | `{}` | {} | {} |\n", upper(r.name), f.name,
                            bits_text(f.bits), md_escape(f.doc));
  }
  if (!fields.empty())
    out += "\n| register | field | bits | meaning |\n|---|---|---|---|\n" + fields;
  return out;
}

}  // namespace

std::string csr_sv_package() {
  Names names;
  std::string out =
      "// tern_csr_pkg: the NeuronCore's host CSR map (docs/csr.md).\n"
      "// Generated from model/core/csr_map.cc by `tern csr sv`: do not edit.\n"
      "//\n"
      "// 16-bit byte addresses of 32-bit registers. Instance i of block <Blk> (Glb, Seq, Dma, Sem)\n"
      "// sits at <Blk>Base + i * <Blk>Stride; <Blk><Reg> is a register's offset in its instance,\n"
      "// <Blk><Reg>Reset its value after reset, <Blk><Reg>Mask its defined bits and\n"
      "// <Blk><Reg><Field>Lsb / Width its fields.\n"
      "package tern_csr_pkg;\n"
      "\n"
      "  // Shared definitions: a block uses only some of them, so a block linted as its own top\n"
      "  // would report the others as unused. The waiver covers these localparams only.\n"
      "  /* verilator lint_off UNUSEDPARAM */\n";
  out += sv_blocks(names) + sv_regs(names) + sv_fields(names) + sv_faults(names) +
         sv_dma_details(names) + sv_seq_states();
  out += "\n  /* verilator lint_on UNUSEDPARAM */\n\nendpackage\n";
  return out;
}

std::string csr_markdown_tables() {
  std::string out = md_map();
  for (const BlockInfo& b : blocks()) out += md_block(b);
  return out + md_faults();
}

std::string update_markdown(const std::string& text, const std::string& source) {
  return gen::replace_generated_block(text, kMarkdownBegin, kMarkdownEnd, csr_markdown_tables(),
                                      source);
}

}  // namespace tern::csr
