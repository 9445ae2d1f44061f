// The tern assembler and disassembler. Syntax, one statement per line (`#` comments):
//   .seq pe|act|dve|pool|sp            following instructions go to that stream
//   NAME:                              label (per stream), alone or before an instruction
//   MNEMONIC OPERANDS [SYNC...]        operands comma-separated, sync items space-separated
//   .desc INDEX src=SIDE dst=SIDE      descriptor INDEX (0, 1, 2, ... in order)
// Access pattern  MEM.DTYPE[PSTART:PEND, OFFSET(+rN)][[step,num],...]   (absent: -)
// Scalar          MEM.DTYPE[PSTART:, OFFSET(+rN)] | 0x3f800000 | -7 | 1.5
// Sync            $S[i]>=v(+rN) (v signed)  $S[i]++@complete  $S[i]+=v@complete  $S[i]=v@complete
// Descriptor side hbm.DTYPE[ADDR][DIMS] | sbuf.DTYPE[PSTART, OFFSET][DIMS] | psum...
// Field ranges come from the ISA tables (isa.cc), so the text cannot say what cannot be encoded.
#include "isa/asm.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <set>

#include "act/act_functions.h"
#include "common/error.h"
#include "dve/vector_engine.h"

namespace tern::isa {
namespace {

// ---------------------------------------------------------------------------------------------
// Names of codes. A code without a name is printed and parsed as a decimal number.

const char* const kReduceCmds[] = {"idle", "reset", "reduce", "reset_reduce", "load_reduce"};
const char* const kReduceOps[] = {"add", "max"};

using CodeName = const char* (*)(uint32_t);
const char* act_func_code(uint32_t c) {
  return c < uint32_t(act::kNumActFuncs) ? act::act_func_name(act::ActFunc(c)) : nullptr;
}
const char* dve_alu_code(uint32_t c) {
  return c < uint32_t(kNumDveAlus) ? dve_alu_name(DveAlu(c)) : nullptr;
}
const char* reduce_cmd_code(uint32_t c) { return c < 5 ? kReduceCmds[c] : nullptr; }
const char* reduce_op_code(uint32_t c) { return c < 2 ? kReduceOps[c] : nullptr; }

std::string code_text(CodeName name, uint32_t code) {
  const char* n = name(code);
  return n ? std::string(n) : std::to_string(code);
}

const char* const kDimStep[] = {"d0_step", "d1_step", "d2_step", "d3_step"};
const char* const kDimNum[] = {"d0_num", "d1_num", "d2_num", "d3_num"};

bool is_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

[[noreturn]] void fail_at(const std::string& source, size_t line, size_t col,
                          const std::string& why) {
  throw Error(fmt::format("{}:{}:{}: {}", source, line, col, why));
}

// ---------------------------------------------------------------------------------------------
// Parsing one line: a cursor that skips blanks between tokens and reports errors at the column
// of the offending token.

struct Num {
  int64_t value;
  size_t pos;
};

// A branch or loop target: a label resolved once the stream is complete, or `@N`.
struct Target {
  std::string label;
  uint32_t index = 0;
  size_t pos = 0;
};

class Line {
 public:
  Line(const std::string& source, size_t number, std::string text)
      : source_(source), number_(number), text_(std::move(text)) {}

  [[noreturn]] void fail(size_t pos, const std::string& why) const {
    fail_at(source_, number_, pos + 1, why);
  }
  size_t number() const { return number_; }

  size_t pos() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    return pos_;
  }
  bool at_end() { return pos() >= text_.size(); }
  char peek() { return at_end() ? '\0' : text_[pos_]; }
  bool accept(char c) {
    if (peek() != c) return false;
    ++pos_;
    return true;
  }
  bool accept(const char* s) {
    const size_t n = std::strlen(s);
    if (text_.compare(pos(), n, s) != 0) return false;
    pos_ += n;
    return true;
  }
  // The token at the cursor, for messages.
  std::string token() {
    const size_t p = pos();
    if (p >= text_.size()) return "end of line";
    size_t e = p;
    while (e < text_.size() && (is_ident(text_[e]) || text_[e] == '.')) ++e;
    return fmt::format("'{}'", text_.substr(p, std::max(e, p + 1) - p));
  }
  void expect(char c) {
    if (accept(c)) return;
    if (at_end()) fail(pos(), fmt::format("missing '{}' at end of line", c));
    fail(pos(), fmt::format("expected '{}', found {}", c, token()));
  }
  // The comma between operands: its absence is a missing operand or a missing comma.
  void comma() {
    if (accept(',')) return;
    if (at_end()) fail(pos(), "missing operand");
    fail(pos(), fmt::format("missing ',' before {}", token()));
  }
  void end() {
    if (!at_end()) fail(pos(), fmt::format("unexpected {}", token()));
  }

  std::string word(const char* what) {
    const size_t p = pos();
    if (!is_ident_start(peek())) fail(p, fmt::format("expected {}, found {}", what, token()));
    while (pos_ < text_.size() && is_ident(text_[pos_])) ++pos_;
    return text_.substr(p, pos_ - p);
  }
  std::string peek_word() {
    const size_t p = pos();
    size_t e = p;
    while (e < text_.size() && is_ident(text_[e])) ++e;
    return text_.substr(p, e - p);
  }
  // `name:` at the cursor: consumes it and returns the name.
  std::optional<std::string> label() {
    const size_t p = pos();
    if (!is_ident_start(peek())) return std::nullopt;
    std::string name = word("a label");
    if (accept(':')) return name;
    pos_ = p;
    return std::nullopt;
  }

  // A signed decimal or 0x hex integer.
  Num integer() {
    const size_t p = pos();
    size_t e = p;
    if (e < text_.size() && (text_[e] == '-' || text_[e] == '+')) ++e;
    while (e < text_.size() && is_ident(text_[e])) ++e;
    pos_ = e;
    return {parse_int(text_.substr(p, e - p), p), p};
  }

  // `qN`, `dN`: a letter and a decimal number.
  Num prefixed(char prefix, const char* what) {
    const size_t p = pos();
    const std::string w = is_ident_start(peek()) ? word(what) : "";
    if (w.size() < 2 || w[0] != prefix ||
        w.find_first_not_of("0123456789", 1) != std::string::npos) {
      if (w.empty()) fail(p, fmt::format("expected {}, found {}", what, token()));
      fail(p, fmt::format("expected {}, found '{}'", what, w));
    }
    return {parse_int(w.substr(1), p + 1), p};
  }
  uint32_t reg() {
    const size_t p = pos();
    const std::string w = peek_word();
    if (w.empty()) fail(p, fmt::format("expected a register, found {}", token()));
    const bool digits = w.size() >= 2 && w.size() <= 3 &&
                        w.find_first_not_of("0123456789", 1) == std::string::npos;
    if (w[0] != 'r' || !digits || std::stoul(w.substr(1)) >= kNumRegs)
      fail(p, fmt::format("unknown register '{}' (r0..r{})", w, kNumRegs - 1));
    pos_ = p + w.size();
    return uint32_t(std::stoul(w.substr(1)));
  }

  uint32_t sem() {
    const Num n = integer();
    if (n.value < 0 || n.value >= int64_t(kNumSems))
      fail(n.pos, fmt::format("semaphore {} out of range 0..{}", n.value, kNumSems - 1));
    return uint32_t(n.value);
  }

  // A value checked against its field of the ISA tables.
  uint64_t field_value(Layout l, const char* name, const Num& n) {
    const FieldDef& f = field(l, name);
    if (n.value < 0 || (f.width < 63 && (uint64_t(n.value) >> f.width) != 0))
      fail(n.pos, fmt::format("{} does not fit {}.{} ({} bits)", n.value, layout(l).name, name,
                              f.width));
    return uint64_t(n.value);
  }
  int64_t signed_value(Layout l, const char* name, const Num& n) {
    const FieldDef& f = field(l, name);
    const int64_t lim = int64_t(1) << (f.width - 1);
    if (n.value < -lim || n.value >= lim)
      fail(n.pos, fmt::format("{} does not fit {}.{} ({} signed bits)", n.value, layout(l).name,
                              name, f.width));
    return n.value;
  }
  uint32_t u32(Layout l, const char* name) { return uint32_t(field_value(l, name, integer())); }
  // A 32-bit value given signed or unsigned (two's complement).
  uint32_t bits32(const Num& n) {
    if (n.value < -(int64_t(1) << 31) || n.value > int64_t(UINT32_MAX))
      fail(n.pos, fmt::format("{} does not fit in 32 bits", n.value));
    return uint32_t(n.value);
  }

  // Immediate bits: hex, decimal (two's complement) or a float literal (fp32 bits).
  uint32_t immediate() {
    const size_t p = pos();
    size_t e = p;
    if (e < text_.size() && (text_[e] == '-' || text_[e] == '+')) ++e;
    const bool hex = text_.compare(e, 2, "0x") == 0 || text_.compare(e, 2, "0X") == 0;
    while (e < text_.size() &&
           (is_ident(text_[e]) || text_[e] == '.' ||
            (!hex && (text_[e] == '-' || text_[e] == '+') && (text_[e - 1] | 0x20) == 'e')))
      ++e;
    pos_ = e;
    const std::string t = text_.substr(p, e - p);
    const bool is_float = !hex && t.find_first_of(".eE") != std::string::npos;
    std::string lower;
    for (char c : t) lower += char(std::tolower(static_cast<unsigned char>(c)));
    if (!is_float && lower.find("inf") == std::string::npos &&
        lower.find("nan") == std::string::npos)
      return bits32({parse_int(t, p), p});
    char* stop = nullptr;
    const float f = std::strtof(t.c_str(), &stop);
    if (t.empty() || stop != t.c_str() + t.size()) fail(p, fmt::format("bad number '{}'", t));
    if (std::isinf(f) && lower.find("inf") == std::string::npos)
      fail(p, fmt::format("'{}' overflows fp32", t));
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    return bits;
  }

  // A named code (`relu`) or its number, checked against the field.
  uint32_t code(CodeName name, Layout l, const char* fname) {
    if (std::isdigit(static_cast<unsigned char>(peek()))) return u32(l, fname);
    const size_t p = pos();
    const std::string w = word("a name");
    for (uint32_t c = 0; c >> field(l, fname).width == 0; ++c) {
      const char* n = name(c);
      if (n && w == n) return c;
    }
    fail(p, fmt::format("unknown {} '{}'", fname, w));
  }

  Mem mem() {
    const size_t p = pos();
    const std::string w = word("sbuf or psum");
    if (w == "sbuf") return Mem::kSbuf;
    if (w == "psum") return Mem::kPsum;
    fail(p, fmt::format("unknown memory '{}' (sbuf, psum)", w));
  }
  Dtype dtype() {
    expect('.');
    const size_t p = pos();
    const std::string w = word("a dtype");
    if (auto t = dtype_from_name(w)) return *t;
    fail(p, fmt::format("unknown dtype '{}'", w));
  }
  // OFFSET or OFFSET+rN.
  void offset(Layout l, const char* fname, uint32_t& off, uint32_t& reg_out) {
    off = u32(l, fname);
    if (accept('+')) reg_out = reg();
  }

  // [[step,num],...]: 1 to 4 dims, outermost first, right-aligned into the 4 encoded dims.
  std::array<Dim, kApDims> dims(Layout l) {
    expect('[');
    std::vector<Num> steps, nums;
    do {
      const size_t p = pos();
      expect('[');
      steps.push_back(integer());
      expect(',');
      nums.push_back(integer());
      expect(']');
      if (steps.size() > kApDims) fail(p, fmt::format("more than {} dims", kApDims));
    } while (accept(','));
    expect(']');
    std::array<Dim, kApDims> out{};
    const size_t first = kApDims - steps.size();
    for (size_t i = 0; i < steps.size(); ++i) {
      out[first + i].step = int32_t(signed_value(l, kDimStep[first + i], steps[i]));
      out[first + i].num = uint32_t(field_value(l, kDimNum[first + i], nums[i]));
    }
    return out;
  }

  AccessPattern ap() {
    AccessPattern a;
    if (accept('-')) return a;
    a.mem = mem();
    a.dtype = dtype();
    expect('[');
    const Num start = integer();
    expect(':');
    const Num stop = integer();
    a.start_partition = uint32_t(field_value(Layout::kAp, "start", start));
    if (stop.value <= start.value)
      fail(stop.pos, fmt::format("empty partition range {}:{}", start.value, stop.value));
    a.partitions =
        uint32_t(field_value(Layout::kAp, "partitions", {stop.value - start.value, stop.pos}));
    expect(',');
    offset(Layout::kAp, "offset", a.offset, a.base_reg);
    expect(']');
    a.dims = dims(Layout::kAp);
    return a;
  }

  ScalarOperand scalar() {
    ScalarOperand s;
    const std::string w = peek_word();
    if (w != "sbuf" && w != "psum") {
      s.imm = immediate();
      return s;
    }
    s.per_partition = true;
    s.mem = mem();
    s.dtype = dtype();
    expect('[');
    s.start_partition = u32(Layout::kScalar, "start");
    expect(':');
    expect(',');
    offset(Layout::kScalar, "imm", s.imm, s.base_reg);
    expect(']');
    return s;
  }

  DescSide desc_side() {
    DescSide s;
    const size_t p = pos();
    const std::string w = word("hbm, sbuf or psum");
    if (w == "hbm") s.space = Space::kHbm;
    else if (w == "sbuf") s.space = Space::kSbuf;
    else if (w == "psum") s.space = Space::kPsum;
    else fail(p, fmt::format("unknown space '{}' (hbm, sbuf, psum)", w));
    s.dtype = dtype();
    expect('[');
    if (s.space != Space::kHbm) {
      s.start_partition = u32(Layout::kDescSide, "start");
      expect(',');
    }
    s.address = field_value(Layout::kDescSide, "address", integer());
    expect(']');
    s.dims = dims(Layout::kDescSide);
    return s;
  }

  Target target(Layout l) {
    Target t;
    t.pos = pos();
    if (accept('@')) t.index = u32(l, "target");
    else t.label = word("a label or @index");
    return t;
  }

  // `, key=value` and `, flag` items after the positional operands, in any order, each once.
  // `handle(key)` parses the item's value and returns false for an unknown key.
  template <typename Handle>
  std::set<std::string> items(Handle&& handle) {
    std::set<std::string> seen;
    while (accept(',')) {
      const size_t p = pos();
      const std::string key = word("an item");
      if (!seen.insert(key).second) fail(p, fmt::format("duplicate item '{}'", key));
      if (!handle(key)) fail(p, fmt::format("unknown item '{}'", key));
    }
    return seen;
  }
  void require(const std::set<std::string>& seen, std::initializer_list<const char*> keys) {
    for (const char* k : keys)
      if (!seen.count(k)) fail(pos(), fmt::format("missing operand '{}='", k));
  }

  // Space-separated sync items up to the end of the line.
  void sync(Sync& s) {
    while (!at_end()) {
      const size_t p = pos();
      if (!accept("$S")) fail(p, fmt::format("unexpected {}", token()));
      expect('[');
      const uint32_t sem_index = sem();
      expect(']');
      if (accept(">=")) {
        if (s.wait) fail(p, "duplicate semaphore wait");
        s.wait = true;
        s.wait_sem = sem_index;
        s.wait_value = int32_t(signed_value(Layout::kHeader, "wait_value", integer()));
        if (accept('+')) s.wait_reg = reg();
        continue;
      }
      if (s.update != SemUpdate::kNone) fail(p, "duplicate semaphore update");
      s.update_sem = sem_index;
      if (accept("++")) {
        s.update = SemUpdate::kAdd;
        s.update_value = 1;
      } else {
        s.update = accept("+=") ? SemUpdate::kAdd : SemUpdate::kSet;
        if (s.update == SemUpdate::kSet && !accept('='))
          fail(pos(), fmt::format("expected '>=', '++', '+=' or '=', found {}", token()));
        s.update_value = u32(Layout::kHeader, "upd_value");
      }
      expect('@');
      const size_t q = pos();
      if (word("'complete'") != "complete") fail(q, "expected '@complete'");
    }
  }

 private:
  int64_t parse_int(const std::string& t, size_t p) const {
    size_t i = 0;
    const bool neg = !t.empty() && t[0] == '-';
    if (!t.empty() && (t[0] == '-' || t[0] == '+')) ++i;
    int base = 10;
    if (t.size() > i + 1 && t[i] == '0' && (t[i + 1] | 0x20) == 'x') {
      base = 16;
      i += 2;
    }
    if (i == t.size()) fail(p, t.empty() ? fmt::format("expected a number, found {}", token_at(p))
                                         : fmt::format("bad number '{}'", t));
    uint64_t mag = 0;
    for (; i < t.size(); ++i) {
      const char c = char(std::tolower(static_cast<unsigned char>(t[i])));
      const int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
                    : (c >= 'a' && c <= 'f')                    ? c - 'a' + 10
                                                                : 99;
      if (d >= base) fail(p, fmt::format("bad number '{}'", t));
      if (mag > (uint64_t(INT64_MAX) - uint64_t(d)) / uint64_t(base))
        fail(p, fmt::format("number '{}' is too large", t));
      mag = mag * uint64_t(base) + uint64_t(d);
    }
    return neg ? -int64_t(mag) : int64_t(mag);
  }
  std::string token_at(size_t p) const {
    return p < text_.size() ? fmt::format("'{}'", text_[p]) : "end of line";
  }

  const std::string& source_;
  size_t number_;
  std::string text_;
  size_t pos_ = 0;
};

// ---------------------------------------------------------------------------------------------
// Operands of each format.

void parse_operands(Line& l, const OpcodeInfo& info, Instruction& in,
                    std::optional<Target>& target) {
  auto reg_or_imm = [&] {
    if (is_ident_start(l.peek())) {
      in.rs2 = l.reg();
    } else {
      in.use_imm = true;
      in.imm = l.bits32(l.integer());
    }
  };
  switch (info.format) {
    case Format::kNone: break;
    case Format::kAlu:
      in.rd = l.reg();
      l.comma();
      in.rs1 = l.reg();
      l.comma();
      reg_or_imm();
      break;
    case Format::kLoad:
    case Format::kStore:
      (info.format == Format::kLoad ? in.rd : in.rs2) = l.reg();
      l.comma();
      l.expect('[');
      in.rs1 = l.reg();
      l.expect('+');
      in.imm = l.u32(Layout::kMem, "imm");
      l.expect(']');
      break;
    case Format::kBranch:
      in.rs1 = l.reg();
      l.comma();
      reg_or_imm();
      l.comma();
      target = l.target(Layout::kBranch);
      break;
    case Format::kLoop:
      in.rd = l.reg();
      l.comma();
      target = l.target(Layout::kLoop);
      break;
    case Format::kNotify: in.imm = l.u32(Layout::kNotify, "imm"); break;
    case Format::kDma:
      in.queue = uint32_t(l.field_value(Layout::kDma, "queue", l.prefixed('q', "a DMA queue qN")));
      l.comma();
      in.imm = uint32_t(l.field_value(Layout::kDma, "imm", l.prefixed('d', "a descriptor dN")));
      if (l.accept('+')) in.rd = l.reg();
      l.items([&](const std::string& key) {
        if (key != "src" && key != "dst") return false;
        l.expect('+');
        (key == "src" ? in.rs1 : in.rs2) = l.reg();
        return true;
      });
      break;
    case Format::kPeLoad: in.ap[1] = l.ap(); break;
    case Format::kPeTranspose: in.ap[0] = l.ap(); break;
    case Format::kPeMatmul:
      in.ap[0] = l.ap();
      l.comma();
      in.ap[1] = l.ap();
      l.items([&](const std::string& key) {
        if (key == "acc") return in.accumulate = true;
        if (key != "acc_reg") return false;
        l.expect('=');
        const size_t p = l.pos();
        in.acc_reg = l.reg();
        if (in.acc_reg == 0) l.fail(p, "acc_reg=r0 never adds (r0 reads 0): leave the item out");
        return true;
      });
      break;
    case Format::kAct: {
      in.ap[0] = l.ap();
      l.comma();
      in.ap[1] = l.ap();
      const auto seen = l.items([&](const std::string& key) {
        if (key == "sr") return in.stochastic = true;
        if (key == "func" || key == "scale" || key == "bias" || key == "reduce" ||
            key == "acc_load" || key == "acc_out")
          l.expect('=');
        if (key == "func") in.func = l.code(act_func_code, Layout::kAct, "func");
        else if (key == "scale") in.scalar[0] = l.scalar();
        else if (key == "bias") in.scalar[1] = l.scalar();
        else if (key == "acc_load") in.ap[2] = l.ap();
        else if (key == "acc_out") in.ap[3] = l.ap();
        else if (key == "reduce") {
          in.reduce_cmd = l.code(reduce_cmd_code, Layout::kAct, "reduce_cmd");
          l.expect(':');
          in.reduce_op = l.code(reduce_op_code, Layout::kAct, "reduce_op");
        } else return false;
        return true;
      });
      l.require(seen, {"func", "scale", "bias"});
      break;
    }
    case Format::kDve:
      in.ap[0] = l.ap();
      l.comma();
      in.ap[1] = l.ap();
      l.comma();
      in.ap[2] = l.ap();
      l.items([&](const std::string& key) {
        bool* flag = key == "sr"     ? &in.stochastic
                     : key == "sat"  ? &in.saturate
                     : key == "rev0" ? &in.reverse0
                     : key == "rev1" ? &in.reverse1
                     : key == "neg"  ? &in.negate
                                     : nullptr;
        if (flag) return *flag = true;
        if (key != "alu0" && key != "alu1" && key != "s0" && key != "s1" && key != "imm2")
          return false;
        l.expect('=');
        if (key == "alu0") in.alu0 = l.code(dve_alu_code, Layout::kDve, "alu0");
        else if (key == "alu1") in.alu1 = l.code(dve_alu_code, Layout::kDve, "alu1");
        else if (key == "s0") in.scalar[0] = l.scalar();
        else if (key == "s1") in.scalar[1] = l.scalar();
        else in.imm2 = l.immediate();
        return true;
      });
      break;
  }
}

// The whole file: sections, labels (resolved at the end, so forward branches work) and the
// descriptor table.
class Assembler {
 public:
  explicit Assembler(const std::string& source) : source_(source) {}

  void line(size_t number, const std::string& raw) {
    Line l(source_, number, raw.substr(0, raw.find('#')));
    if (l.at_end()) return;
    if (l.peek() == '.') return directive(l);
    while (true) {
      const size_t p = l.pos();
      const auto name = l.label();
      if (!name) break;
      if (!seq_) l.fail(p, "label outside a .seq section");
      auto& labels = labels_[int(*seq_)];
      const auto it = labels.find(*name);
      if (it != labels.end())
        l.fail(p, fmt::format("duplicate label '{}' (first on line {})", *name, it->second.line));
      labels[*name] = {uint32_t(program_.streams[int(*seq_)].size()), number};
    }
    if (!l.at_end()) instruction(l);
  }

  ProgramImage finish() {
    for (const Fixup& f : fixups_) {
      const auto& labels = labels_[f.seq];
      const auto it = labels.find(f.target.label);
      if (it == labels.end())
        fail_at(source_, f.line, f.target.pos + 1,
                fmt::format("unknown label '{}' in .seq {}", f.target.label, seq_name(Seq(f.seq))));
      program_.streams[f.seq][f.index].target = it->second.index;
    }
    ProgramImage image{std::move(name_), std::move(program_), std::move(tensors_), macs_};
    check_image(image, source_);
    return image;
  }

 private:
  struct LabelDef {
    uint32_t index;
    size_t line;
  };
  struct Fixup {
    int seq;
    size_t index;
    Target target;
    size_t line;
  };

  void directive(Line& l) {
    const size_t p = l.pos();
    l.expect('.');
    const std::string d = l.word("a directive");
    if (d == "seq") {
      const size_t q = l.pos();
      const std::string name = l.word("a sequencer name");
      seq_ = seq_from_name(name);
      if (!seq_) l.fail(q, fmt::format("unknown sequencer '{}' (pe, act, dve, pool, sp)", name));
    } else if (d == "desc") {
      const Num index = l.integer();
      if (index.value != int64_t(program_.descriptors.size()))
        l.fail(index.pos, fmt::format("descriptor {} out of order: expected {}", index.value,
                                      program_.descriptors.size()));
      Descriptor desc;
      std::set<std::string> seen;
      while (!l.at_end()) {
        const size_t q = l.pos();
        const std::string key = l.word("src= or dst=");
        if (key != "src" && key != "dst") l.fail(q, fmt::format("unknown item '{}'", key));
        if (!seen.insert(key).second) l.fail(q, fmt::format("duplicate item '{}'", key));
        l.expect('=');
        (key == "src" ? desc.src : desc.dst) = l.desc_side();
      }
      l.require(seen, {"src", "dst"});
      try {
        encode(desc);
      } catch (const Error& e) {
        l.fail(p, e.what());
      }
      program_.descriptors.push_back(desc);
    } else if (d == "kernel") {
      if (!name_.empty()) l.fail(p, "a second .kernel");
      name_ = l.word("the kernel's name");
    } else if (d == "macs") {
      if (macs_seen_) l.fail(p, "a second .macs");
      const Num n = l.integer();
      if (n.value < 0) l.fail(n.pos, fmt::format("a MAC count of {}", n.value));
      macs_ = uint64_t(n.value);
      macs_seen_ = true;
    } else if (d == "tensor") {
      tensor(l);
    } else {
      l.fail(p, fmt::format("unknown directive '.{}' (.seq, .desc, .kernel, .tensor, .macs)", d));
    }
    l.end();
  }

  // .tensor NAME input|output DTYPE rows=R cols=C addr=A [max=N]
  void tensor(Line& l) {
    const size_t p = l.pos();
    TensorEntry t;
    t.name = l.word("the tensor's name");
    for (const TensorEntry& u : tensors_)
      if (u.name == t.name) l.fail(p, fmt::format("tensor '{}' declared twice", t.name));
    const size_t q = l.pos();
    const std::string role = l.word("input or output");
    if (role != "input" && role != "output") l.fail(q, fmt::format("'{}': a tensor is an input or an output", role));
    t.output = role == "output";
    const size_t r = l.pos();
    const std::string dt = l.word("a dtype");
    const auto dtype = dtype_from_name(dt);
    if (!dtype) l.fail(r, fmt::format("unknown dtype '{}'", dt));
    t.dtype = *dtype;
    std::set<std::string> seen;
    while (!l.at_end()) {
      const size_t k = l.pos();
      const std::string key = l.word("rows=, cols=, addr= or max=");
      if (key != "rows" && key != "cols" && key != "addr" && key != "max")
        l.fail(k, fmt::format("unknown item '{}' (rows, cols, addr, max)", key));
      if (!seen.insert(key).second) l.fail(k, fmt::format("duplicate item '{}'", key));
      l.expect('=');
      const Num n = l.integer();
      const int64_t limit = key == "addr" ? INT64_MAX : int64_t(UINT32_MAX);
      if (n.value < 0 || n.value > limit) l.fail(n.pos, fmt::format("{}={} is out of range", key, n.value));
      if (key == "rows") t.rows = uint32_t(n.value);
      else if (key == "cols") t.cols = uint32_t(n.value);
      else if (key == "addr") t.address = uint64_t(n.value);
      else t.trip_max = uint32_t(n.value);
    }
    l.require(seen, {"rows", "cols", "addr"});
    tensors_.push_back(t);
    try {
      check_image(ProgramImage{"", {}, tensors_, 0}, "this tensor");
    } catch (const Error& e) {
      l.fail(p, e.what());
    }
  }

  void instruction(Line& l) {
    const size_t p = l.pos();
    const std::string m = l.word("a mnemonic or label");
    const OpcodeInfo* info = opcode_from_mnemonic(m);
    if (!info) l.fail(p, fmt::format("unknown mnemonic '{}'", m));
    if (!seq_) l.fail(p, "instruction outside a .seq section");
    Instruction in;
    in.op = info->op;
    std::optional<Target> target;
    parse_operands(l, *info, in, target);
    l.sync(in.sync);
    // Every value was checked as it was read; the encoder is the last word.
    try {
      encode(in);
    } catch (const Error& e) {
      l.fail(p, e.what());
    }
    auto& stream = program_.streams[int(*seq_)];
    if (target && target->label.empty()) in.target = target->index;
    else if (target) fixups_.push_back({int(*seq_), stream.size(), *target, l.number()});
    stream.push_back(in);
  }

  const std::string& source_;
  Program program_;
  std::string name_;
  std::vector<TensorEntry> tensors_;
  uint64_t macs_ = 0;
  bool macs_seen_ = false;
  std::optional<Seq> seq_;
  std::array<std::map<std::string, LabelDef>, kNumSeqs> labels_;
  std::vector<Fixup> fixups_;
};

// ---------------------------------------------------------------------------------------------
// Printing.

std::string plus_reg(uint32_t r) { return r ? fmt::format("+r{}", r) : ""; }

// Leading dims that are exactly [0,1] are dropped; at least one dim is printed.
std::string dims_text(const std::array<Dim, kApDims>& d) {
  size_t first = 0;
  while (first + 1 < kApDims && d[first] == Dim{}) ++first;
  std::string s = "[";
  for (size_t i = first; i < kApDims; ++i)
    s += fmt::format("{}[{},{}]", i > first ? "," : "", d[i].step, d[i].num);
  return s + "]";
}

std::string ap_text(const AccessPattern& a, const char* what) {
  if (!a.present()) {
    if (!(a == AccessPattern{}))
      throw Error(fmt::format("{} is absent (0 partitions) but has other fields set", what));
    return "-";
  }
  return fmt::format("{}.{}[{}:{}, {}{}]{}", mem_name(a.mem), dtype_name(a.dtype),
                     a.start_partition, a.start_partition + a.partitions, a.offset,
                     plus_reg(a.base_reg), dims_text(a.dims));
}

std::string scalar_text(const ScalarOperand& s) {
  if (!s.per_partition) return fmt::format("0x{:08x}", s.imm);
  return fmt::format("{}.{}[{}:, {}{}]", mem_name(s.mem), dtype_name(s.dtype), s.start_partition,
                     s.imm, plus_reg(s.base_reg));
}

std::string side_text(const DescSide& s, const char* what) {
  if (s.space != Space::kHbm)
    return fmt::format("{}.{}[{}, {}]{}", space_name(s.space), dtype_name(s.dtype),
                       s.start_partition, s.address, dims_text(s.dims));
  if (s.start_partition != 0)
    throw Error(fmt::format("{}: an HBM side has no start partition ({})", what,
                            s.start_partition));
  return fmt::format("hbm.{}[{}]{}", dtype_name(s.dtype), s.address, dims_text(s.dims));
}

bool is_jump(const Instruction& in) {
  const OpcodeInfo* info = opcode_info(uint8_t(in.op));
  return info && (info->format == Format::kBranch || info->format == Format::kLoop);
}

// Targets inside the stream print as the synthesised label L<index>, others as @index.
std::string instruction_text(const Instruction& in, size_t stream_size) {
  const OpcodeInfo* info = opcode_info(uint8_t(in.op));
  if (!info) throw Error(fmt::format("illegal opcode 0x{:02x}", unsigned(in.op)));
  const std::string target = fmt::format(in.target < stream_size ? "L{}" : "@{}", in.target);
  const std::string b = in.use_imm ? std::to_string(int32_t(in.imm)) : fmt::format("r{}", in.rs2);
  auto r = [](uint32_t reg) { return fmt::format("r{}", reg); };
  std::vector<std::string> ops;
  switch (info->format) {
    case Format::kNone: break;
    case Format::kAlu: ops = {r(in.rd), r(in.rs1), b}; break;
    case Format::kLoad: ops = {r(in.rd), fmt::format("[r{}+{}]", in.rs1, in.imm)}; break;
    case Format::kStore: ops = {r(in.rs2), fmt::format("[r{}+{}]", in.rs1, in.imm)}; break;
    case Format::kBranch: ops = {r(in.rs1), b, target}; break;
    case Format::kLoop: ops = {r(in.rd), target}; break;
    case Format::kNotify: ops = {std::to_string(in.imm)}; break;
    case Format::kDma:
      ops = {fmt::format("q{}", in.queue), fmt::format("d{}{}", in.imm, plus_reg(in.rd))};
      if (in.rs1) ops.push_back(fmt::format("src+r{}", in.rs1));
      if (in.rs2) ops.push_back(fmt::format("dst+r{}", in.rs2));
      break;
    case Format::kPeLoad: ops = {ap_text(in.ap[1], "ap1")}; break;
    case Format::kPeTranspose: ops = {ap_text(in.ap[0], "ap0")}; break;
    case Format::kPeMatmul:
      ops = {ap_text(in.ap[0], "ap0"), ap_text(in.ap[1], "ap1")};
      if (in.accumulate) ops.push_back("acc");
      if (in.acc_reg) ops.push_back(fmt::format("acc_reg=r{}", in.acc_reg));
      break;
    case Format::kAct:
      ops = {ap_text(in.ap[0], "ap0"), ap_text(in.ap[1], "ap1"),
             "func=" + code_text(act_func_code, in.func), "scale=" + scalar_text(in.scalar[0]),
             "bias=" + scalar_text(in.scalar[1])};
      if (in.reduce_cmd != 0 || in.reduce_op != 0)
        ops.push_back(fmt::format("reduce={}:{}", code_text(reduce_cmd_code, in.reduce_cmd),
                                  code_text(reduce_op_code, in.reduce_op)));
      if (!(in.ap[2] == AccessPattern{}))
        ops.push_back("acc_load=" + ap_text(in.ap[2], "acc_load"));
      if (!(in.ap[3] == AccessPattern{})) ops.push_back("acc_out=" + ap_text(in.ap[3], "acc_out"));
      if (in.stochastic) ops.push_back("sr");
      break;
    case Format::kDve: {
      ops = {ap_text(in.ap[0], "ap0"), ap_text(in.ap[1], "ap1"), ap_text(in.ap[2], "ap2")};
      if (in.alu0) ops.push_back("alu0=" + code_text(dve_alu_code, in.alu0));
      if (in.alu1) ops.push_back("alu1=" + code_text(dve_alu_code, in.alu1));
      if (!(in.scalar[0] == ScalarOperand{})) ops.push_back("s0=" + scalar_text(in.scalar[0]));
      if (!(in.scalar[1] == ScalarOperand{})) ops.push_back("s1=" + scalar_text(in.scalar[1]));
      if (in.imm2) ops.push_back(fmt::format("imm2=0x{:08x}", in.imm2));
      const std::pair<bool, const char*> flags[] = {{in.stochastic, "sr"}, {in.saturate, "sat"},
                                                    {in.reverse0, "rev0"}, {in.reverse1, "rev1"},
                                                    {in.negate, "neg"}};
      for (const auto& [on, name] : flags)
        if (on) ops.push_back(name);
      break;
    }
  }
  std::string s = info->mnemonic;
  for (size_t i = 0; i < ops.size(); ++i) s += (i ? ", " : " ") + ops[i];
  const std::string sync = sync_text(in.sync);
  return sync.empty() ? s : s + " " + sync;
}

}  // namespace

std::string instruction_text(const Instruction& in) {
  try {
    return instruction_text(in, 0);
  } catch (const Error&) {  // fields the text cannot say: name the opcode only
    const OpcodeInfo* info = opcode_info(uint8_t(in.op));
    return info ? info->mnemonic : fmt::format("opcode 0x{:02x}", unsigned(in.op));
  }
}

std::string sync_text(const Sync& s) {
  std::string out;
  if (s.wait) out = fmt::format("$S[{}]>={}{}", s.wait_sem, s.wait_value, plus_reg(s.wait_reg));
  if (s.update != SemUpdate::kNone && !out.empty()) out += ' ';
  if (s.update == SemUpdate::kSet)
    out += fmt::format("$S[{}]={}@complete", s.update_sem, s.update_value);
  else if (s.update == SemUpdate::kAdd && s.update_value == 1)
    out += fmt::format("$S[{}]++@complete", s.update_sem);
  else if (s.update == SemUpdate::kAdd)
    out += fmt::format("$S[{}]+={}@complete", s.update_sem, s.update_value);
  return out;
}

Program assemble(const std::string& text, const std::string& source) {
  return assemble_image(text, source).program;
}

ProgramImage assemble_image(const std::string& text, const std::string& source) {
  Assembler a(source);
  size_t number = 1;
  for (size_t start = 0; start <= text.size(); ++number) {
    const size_t stop = std::min(text.find('\n', start), text.size());
    a.line(number, text.substr(start, stop - start));
    start = stop + 1;
  }
  return a.finish();
}

std::string disassemble_image(const ProgramImage& image) {
  std::string out;
  if (!image.name.empty()) out += fmt::format(".kernel {}\n", image.name);
  for (const TensorEntry& t : image.tensors) {
    out += fmt::format(".tensor {} {} {} rows={} cols={} addr=0x{:x}{}\n", t.name,
                       t.output ? "output" : "input", dtype_name(t.dtype), t.rows, t.cols, t.address,
                       t.trip_max ? fmt::format(" max={}", t.trip_max) : "");
  }
  if (image.macs) out += fmt::format(".macs {}\n", image.macs);
  const std::string program = disassemble(image.program);
  if (!out.empty() && !program.empty()) out += '\n';
  return out + program;
}

std::string disassemble(const Program& p) {
  std::string out;
  for (int seq = 0; seq < kNumSeqs; ++seq) {
    const auto& stream = p.streams[seq];
    if (stream.empty()) continue;
    if (!out.empty()) out += '\n';
    out += fmt::format(".seq {}\n", seq_name(Seq(seq)));
    std::set<uint32_t> targets;
    for (const Instruction& in : stream)
      if (is_jump(in) && in.target < stream.size()) targets.insert(in.target);
    for (size_t i = 0; i < stream.size(); ++i) {
      if (targets.count(uint32_t(i))) out += fmt::format("L{}:\n", i);
      try {
        out += "  " + instruction_text(stream[i], stream.size()) + "\n";
      } catch (const Error& e) {
        throw Error(fmt::format("{} instruction {}: {}", seq_name(Seq(seq)), i, e.what()));
      }
    }
  }
  if (!out.empty() && !p.descriptors.empty()) out += '\n';
  for (size_t i = 0; i < p.descriptors.size(); ++i) {
    const Descriptor& d = p.descriptors[i];
    const std::string where = fmt::format("descriptor {}", i);
    out += fmt::format(".desc {} src={} dst={}\n", i, side_text(d.src, where.c_str()),
                       side_text(d.dst, where.c_str()));
  }
  return out;
}

}  // namespace tern::isa
