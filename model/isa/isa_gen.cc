// The SystemVerilog package and the docs tables of the ISA, written from isa.cc's tables.
#include "isa/isa_gen.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <vector>

#include "common/error.h"
#include "common/gen_text.h"
#include "common/names.h"
#include "act/act_functions.h"
#include "act/scalar_engine.h"
#include "dve/vector_engine.h"
#include "isa/isa.h"
#include "numerics/dtype.h"

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
  static_assert((kInstrBytes & (kInstrBytes - 1)) == 0, "an instruction's bytes are a power of two");
  uint32_t log2_bytes = 0;
  while ((1u << log2_bytes) < kInstrBytes) ++log2_bytes;
  b.add(kUint, "InstrBytesLog2", std::to_string(log2_bytes), "instruction i at stream base + i << this");
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
// Strict decode in SystemVerilog: the bits each instruction uses, taken from the encoder, so the
// RTL rejects exactly what the golden decoder rejects ("re-encoding gives the same bits").

// The flags that decide which fields an instruction carries (docs/isa.md "Bit fields").
enum Flag : unsigned { kWaitFlag, kUpdFlag, kUseImmFlag, kPp0Flag, kPp1Flag, kNumFlags };

uint32_t widest(Layout l, const char* name) { return uint32_t((uint64_t(1) << field(l, name).width) - 1); }

// An instruction of `op` with every field at its widest value and the given flags: its encoding
// sets every bit the decoder reads under those flags.
Instruction widest_instruction(Opcode op, unsigned flags) {
  const auto on = [&](Flag f) { return (flags >> f & 1u) != 0; };
  Instruction in;
  in.op = op;
  in.sync.wait = on(kWaitFlag);
  in.sync.wait_sem = widest(Layout::kHeader, "wait_sem");
  in.sync.wait_reg = widest(Layout::kHeader, "wait_reg");
  in.sync.wait_value = -1;
  in.sync.update = on(kUpdFlag) ? SemUpdate::kSet : SemUpdate::kNone;
  in.sync.update_sem = widest(Layout::kHeader, "upd_sem");
  in.sync.update_value = widest(Layout::kHeader, "upd_value");
  in.rd = in.rs1 = in.rs2 = in.acc_reg = kNumRegs - 1;
  in.use_imm = on(kUseImmFlag);
  in.imm = in.target = in.imm2 = ~0u;
  in.queue = widest(Layout::kDma, "queue");
  in.func = widest(Layout::kAct, "func");
  in.reduce_cmd = widest(Layout::kAct, "reduce_cmd");
  in.reduce_op = widest(Layout::kAct, "reduce_op");
  in.alu0 = in.alu1 = widest(Layout::kDve, "alu0");
  in.stochastic = in.saturate = in.reverse0 = in.reverse1 = in.negate = in.accumulate = true;
  for (AccessPattern& ap : in.ap) {
    ap.mem = Mem(widest(Layout::kAp, "mem"));
    ap.dtype = Dtype(widest(Layout::kAp, "dtype"));
    ap.start_partition = widest(Layout::kAp, "start");
    ap.partitions = widest(Layout::kAp, "partitions");
    ap.base_reg = widest(Layout::kAp, "base_reg");
    ap.offset = widest(Layout::kAp, "offset");
    for (Dim& d : ap.dims) d = {-1, widest(Layout::kAp, "d0_num")};
  }
  for (uint32_t i = 0; i < kScalarSlots; ++i) {
    ScalarOperand& sc = in.scalar[i];
    sc.imm = ~0u;
    sc.per_partition = on(Flag(kPp0Flag + i));
    sc.mem = Mem(widest(Layout::kScalar, "mem"));
    sc.dtype = Dtype(widest(Layout::kScalar, "dtype"));
    sc.start_partition = widest(Layout::kScalar, "start");
    sc.base_reg = widest(Layout::kScalar, "base_reg");
  }
  return in;
}

// The bits the decoder reads for `op` under `flags`; the opcode, wait_en and upd_mode fields
// are read whatever their value.
InstrBits used_bits(Opcode op, unsigned flags) {
  InstrBits b = encode(widest_instruction(op, flags));
  for (const char* name : {"opcode", "wait_en", "upd_mode"}) {
    const FieldDef& f = field(Layout::kHeader, name);
    b.set(f.lsb, f.width, (uint64_t(1) << f.width) - 1);
  }
  return b;
}

InstrBits bits_and(InstrBits a, const InstrBits& b, bool invert_b) {
  for (size_t w = 0; w < a.words.size(); ++w) a.words[w] &= invert_b ? ~b.words[w] : b.words[w];
  return a;
}

// "instr_used_bits[hi:lo] = '1;" for each run of ones in `bits`.
std::string sv_set_runs(const InstrBits& bits, const std::string& indent) {
  std::string out;
  for (uint32_t b = 0; b < kInstrBits;) {
    if (!bits.get(b, 1)) {
      ++b;
      continue;
    }
    uint32_t e = b;
    while (e + 1 < kInstrBits && bits.get(e + 1, 1)) ++e;
    out += fmt::format("{}instr_used_bits[{}:{}] = '1;\n", indent, e, b);
    b = e + 1;
  }
  return out;
}

bool any(const InstrBits& b) {
  return std::any_of(b.words.begin(), b.words.end(), [](uint64_t w) { return w != 0; });
}

// Where a flag is read from the instruction, for a format that has it.
std::string flag_bit(Flag f, Format fmt) {
  switch (f) {
    case kWaitFlag: return fmt::format("instr[{}]", field(Layout::kHeader, "wait_en").lsb);
    case kUpdFlag: {
      const FieldDef& m = field(Layout::kHeader, "upd_mode");
      return fmt::format("instr[{}:{}] != '0", m.lsb + m.width - 1, m.lsb);
    }
    case kUseImmFlag: {
      const Layout l = format_layout(fmt);
      return fmt::format("instr[{}]", layout(l).base + field(l, "use_imm").lsb);
    }
    default:
      return fmt::format("instr[{}]", scalar_slot_lsb(f - kPp0Flag) + field(Layout::kScalar, "per_partition").lsb);
  }
}

// One format's used bits as "common | (flag ? on : off) ...", checked against every flag
// combination so the decomposition cannot drift from the encoder.
struct FormatBits {
  InstrBits common;
  std::array<InstrBits, kNumFlags> on{}, off{};
};

FormatBits format_bits(Opcode op) {
  FormatBits fb;
  const InstrBits none = used_bits(op, 0);
  InstrBits offs;
  for (unsigned f = 0; f < kNumFlags; ++f) {
    const InstrBits with = used_bits(op, 1u << f);
    fb.on[f] = bits_and(with, none, true);
    fb.off[f] = bits_and(none, with, true);
    for (size_t w = 0; w < offs.words.size(); ++w) offs.words[w] |= fb.off[f].words[w];
  }
  fb.common = bits_and(none, offs, true);
  for (unsigned flags = 0; flags < (1u << kNumFlags); ++flags) {
    InstrBits sum = fb.common;
    for (unsigned f = 0; f < kNumFlags; ++f)
      for (size_t w = 0; w < sum.words.size(); ++w) sum.words[w] |= ((flags >> f) & 1u ? fb.on[f] : fb.off[f]).words[w];
    if (sum != used_bits(op, flags))
      throw Error(fmt::format("isa: the used bits of {} do not split by flag", opcode_info(uint8_t(op))->mnemonic));
  }
  return fb;
}

// Opcodes grouped by format, in table order.
std::vector<std::pair<Format, std::vector<const OpcodeInfo*>>> opcodes_by_format() {
  std::vector<std::pair<Format, std::vector<const OpcodeInfo*>>> groups;
  for (Format f : formats()) {
    groups.emplace_back(f, std::vector<const OpcodeInfo*>{});
    for (const OpcodeInfo& o : opcodes())
      if (o.format == f) groups.back().second.push_back(&o);
  }
  return groups;
}

// "OpA, OpB,\n      OpC:" wrapped at 100 columns.
std::string case_labels(const std::vector<const OpcodeInfo*>& ops, const std::string& indent) {
  std::string out, line = indent;
  for (size_t i = 0; i < ops.size(); ++i) {
    const std::string item = "Op" + upper_camel(ops[i]->mnemonic) + (i + 1 < ops.size() ? "," : ":");
    if (line.size() > indent.size() && line.size() + 1 + item.size() > 94) {  // room for " begin"
      out += line + "\n";
      line = indent;
    }
    line += (line.size() > indent.size() ? " " : "") + item;
  }
  return out + line;
}

std::string sv_used_bits_function() {
  std::vector<std::pair<std::vector<const OpcodeInfo*>, FormatBits>> groups;
  for (const auto& [fmt_, ops] : opcodes_by_format()) {
    for (const OpcodeInfo* o : ops)
      if (used_bits(o->op, (1u << kNumFlags) - 1) != used_bits(ops.front()->op, (1u << kNumFlags) - 1))
        throw Error(fmt::format("isa: opcodes of format {} use different bits", format_name(fmt_)));
    groups.emplace_back(ops, format_bits(ops.front()->op));
  }
  // What every format shares (the header) is written once, before the case.
  FormatBits shared = groups.front().second;
  for (const auto& g : groups) {
    shared.common = bits_and(shared.common, g.second.common, false);
    for (unsigned f = 0; f < kNumFlags; ++f) {
      if (g.second.on[f] != shared.on[f]) shared.on[f] = InstrBits{};
      if (g.second.off[f] != shared.off[f]) shared.off[f] = InstrBits{};
    }
  }
  const auto flag_parts = [](const FormatBits& fb, Format fmt_, const std::string& indent) {
    std::string out;
    for (unsigned f = 0; f < kNumFlags; ++f) {
      if (!any(fb.on[f]) && !any(fb.off[f])) continue;
      const std::string cond = flag_bit(Flag(f), fmt_);
      if (any(fb.on[f]))
        out += fmt::format("{}if ({}) begin\n{}{}end\n", indent, cond, sv_set_runs(fb.on[f], indent + "  "), indent);
      if (any(fb.off[f]))
        out += fmt::format("{}if (!{}) begin\n{}{}end\n", indent, cond, sv_set_runs(fb.off[f], indent + "  "), indent);
    }
    return out;
  };
  std::string out =
      "\n  // The bits an instruction uses, given its opcode and flags (wait_en, upd_mode, use_imm,\n"
      "  // per_partition): every other bit must be zero (docs/isa.md \"Formats\"). Generated from\n"
      "  // the golden encoder, which sets exactly these bits.\n"
      "  function automatic logic [InstrBits-1:0] instr_used_bits(logic [InstrBits-1:0] instr);\n"
      "    instr_used_bits = '0;\n";
  out += sv_set_runs(shared.common, "    ") + flag_parts(shared, Format::kNone, "    ");
  out += "    unique case (instr[7:0])\n";
  for (auto& [ops, fb] : groups) {
    fb.common = bits_and(fb.common, shared.common, true);
    for (unsigned f = 0; f < kNumFlags; ++f) {
      fb.on[f] = bits_and(fb.on[f], shared.on[f], true);
      fb.off[f] = bits_and(fb.off[f], shared.off[f], true);
    }
    out += case_labels(ops, "      ") + " begin\n" + sv_set_runs(fb.common, "        ") +
           flag_parts(fb, ops.front()->format, "        ") + "      end\n";
  }
  out += "      default: ;  // an undefined opcode: illegal whatever its other bits\n"
         "    endcase\n  endfunction\n";
  return out;
}

// instr_codes_undefined(): a field holds a code the machine does not define (a dtype of an
// operand the format reads, a function, reduce command, ALU op or update mode).
std::string sv_codes_function() {
  struct Limit {
    Layout layout;
    const char* field;
    const char* count;
  };
  static const Limit kLimits[] = {{Layout::kAct, "func", "NumActFuncs"},
                                  {Layout::kAct, "reduce_cmd", "NumReduceCmds"},
                                  {Layout::kDve, "alu0", "NumDveAlus"},
                                  {Layout::kDve, "alu1", "NumDveAlus"}};
  const auto at_least = [](uint32_t lsb, uint32_t width, const char* count) {
    return fmt::format("instr[{}:{}] >= {}'({})", lsb + width - 1, lsb, width, count);
  };
  const FieldDef& mode = field(Layout::kHeader, "upd_mode");
  std::string out =
      "\n  // An instruction holds a code the machine does not define: a dtype of an operand its\n"
      "  // format reads, an activation function, reduce command or vector ALU op, an update mode.\n"
      "  function automatic logic instr_codes_undefined(logic [InstrBits-1:0] instr);\n";
  out += fmt::format("    instr_codes_undefined = {};\n", at_least(mode.lsb, mode.width, "NumUpdModes"));
  out += "    unique case (instr[7:0])\n";
  for (const auto& [fmt_, ops] : opcodes_by_format()) {
    std::vector<std::string> terms;
    const Layout l = format_layout(fmt_);
    for (const Limit& lim : kLimits)
      if (lim.layout == l) {
        const FieldDef& f = field(l, lim.field);
        terms.push_back(at_least(layout(l).base + f.lsb, f.width, lim.count));
      }
    const FormatSlots slots = format_slots(fmt_);
    const FieldDef& ap_dtype = field(Layout::kAp, "dtype");
    for (uint32_t i = 0; i < kApSlots; ++i)
      if (slots.ap_mask & (1u << i)) terms.push_back(at_least(ap_slot_lsb(i) + ap_dtype.lsb, ap_dtype.width, "NumDtypes"));
    const FieldDef& sc_dtype = field(Layout::kScalar, "dtype");
    const FieldDef& pp = field(Layout::kScalar, "per_partition");
    for (uint32_t i = 0; i < slots.scalars; ++i)
      terms.push_back(fmt::format("instr[{}] && ({})", scalar_slot_lsb(i) + pp.lsb,
                                  at_least(scalar_slot_lsb(i) + sc_dtype.lsb, sc_dtype.width, "NumDtypes")));
    if (terms.empty()) continue;
    out += case_labels(ops, "      ") + " begin\n";
    for (const std::string& t : terms) out += fmt::format("        if ({}) instr_codes_undefined = 1'b1;\n", t);
    out += "      end\n";
  }
  out += "      default: ;\n    endcase\n  endfunction\n";
  return out;
}

// Codes the fields can hold but the machine does not define: an instruction carrying one is
// illegal (the golden decoder and core model reject it).
std::string sv_code_limits() {
  ParamBlock b;
  b.add(kUint, "NumDtypes", std::to_string(kNumDtypes), "dtype codes 0 .. NumDtypes - 1");
  b.add(kUint, "NumActFuncs", std::to_string(act::kNumActFuncs), "activation function codes");
  b.add(kUint, "NumReduceCmds", std::to_string(unsigned(act::ReduceCmd::kLoadReduce) + 1),
        "ACT reduce command codes");
  b.add(kUint, "NumDveAlus", std::to_string(kNumDveAlus), "vector ALU codes");
  b.add(kUint, "NumUpdModes", std::to_string(unsigned(SemUpdate::kSet) + 1), "semaphore update modes");
  return b.text("Defined codes");
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
  out += sv_sizes() + sv_sequencers() + sv_opcodes() + sv_fields() + sv_code_limits();
  out += "\n  /* verilator lint_on UNUSEDPARAM */\n";
  out += sv_seq_mask_function();
  // The decode functions read the instruction's flag and code fields only.
  out += "\n  /* verilator lint_off UNUSEDSIGNAL */";
  out += sv_used_bits_function() + sv_codes_function();
  out += "  /* verilator lint_on UNUSEDSIGNAL */\n";
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
