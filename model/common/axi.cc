// The RTL's AXI port blocks and docs table, written from the signal lists of axi.h.
#include "common/axi.h"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "common/error.h"
#include "common/gen_text.h"

namespace tern {
namespace {

constexpr const char* kBegin = "// BEGIN GENERATED: tern axi ";
constexpr const char* kEnd = "// END GENERATED: tern axi";

std::string trimmed(const std::string& line) {
  const size_t a = line.find_first_not_of(" \t");
  if (a == std::string::npos) return "";
  return line.substr(a, line.find_last_not_of(" \t\r") + 1 - a);
}

// The packed range of a signal in a bundle: none for one bit, [n-1:0] for n bits, [P-1:0] for
// the module's parameter expression P.
std::string range(const AxiSignal& s, const AxiBundle& b) {
  const std::string* param = s.width == "Id" ? &b.id : s.width == "Data" ? &b.data : s.width == "Strb" ? &b.strb : nullptr;
  if (param) {
    if (param->empty())
      throw Error(fmt::format("the {} bundle '{}' needs {}= for {}", b.kind == AxiKind::kAxi4 ? "axi4" : "axi4lite",
                              b.prefix, s.width, s.name));
    return fmt::format("[{}-1:0]", *param);
  }
  const int bits = std::stoi(s.width);
  return bits == 1 ? "" : fmt::format("[{}:0]", bits - 1);
}

AxiBundle parse_marker(const std::string& spec, const std::string& where) {
  std::istringstream in(spec);
  std::string kind, role, word;
  AxiBundle b;
  in >> kind >> role >> b.prefix;
  if (kind != "axi4" && kind != "axi4lite")
    throw Error(fmt::format("{}: AXI bundle kind '{}' is neither axi4 nor axi4lite", where, kind));
  if (role != "master" && role != "slave")
    throw Error(fmt::format("{}: AXI bundle role '{}' is neither master nor slave", where, role));
  if (b.prefix.empty()) throw Error(fmt::format("{}: the AXI bundle names no port prefix", where));
  b.kind = kind == "axi4" ? AxiKind::kAxi4 : AxiKind::kAxi4Lite;
  b.role = role == "master" ? AxiDriver::kMaster : AxiDriver::kSlave;
  while (in >> word) {
    const size_t eq = word.find('=');
    const std::string key = word.substr(0, eq), value = eq == std::string::npos ? "" : word.substr(eq + 1);
    if (word == "last") b.last = true;
    else if (key == "Id" && !value.empty()) b.id = value;
    else if (key == "Data" && !value.empty()) b.data = value;
    else if (key == "Strb" && !value.empty()) b.strb = value;
    else throw Error(fmt::format("{}: '{}' is not Id=, Data=, Strb= or last", where, word));
  }
  return b;
}

}  // namespace

const std::vector<AxiSignal>& axi_signals(AxiKind kind) {
#define TERN_AXI_ROW(n, d, w, m) {#n, AxiDriver::k##d, w, m},
  static const std::vector<AxiSignal> axi4 = {TERN_AXI4_SIGNALS(TERN_AXI_ROW)};
  static const std::vector<AxiSignal> lite = {TERN_AXI4_LITE_SIGNALS(TERN_AXI_ROW)};
#undef TERN_AXI_ROW
  return kind == AxiKind::kAxi4 ? axi4 : lite;
}

std::string axi_port_block(const AxiBundle& b) {
  const auto& signals = axi_signals(b.kind);
  std::vector<std::string> decl, names;
  size_t width = 0;
  for (const AxiSignal& s : signals) {
    const bool out = s.driver == b.role;
    decl.push_back(fmt::format("{} logic {}", out ? "output" : "input ", range(s, b)));
    names.push_back(fmt::format("{}_{}_{}", b.prefix, s.name, out ? "o" : "i"));
    width = std::max(width, decl.back().size());
  }
  std::string text;
  for (size_t i = 0; i < signals.size(); ++i) {
    const bool comma = !(b.last && i + 1 == signals.size());
    text += fmt::format("  {:<{}}  {}{}\n", decl[i], width, names[i], comma ? "," : "");
  }
  return text;
}

std::string update_axi_ports(const std::string& text, const std::string& source) {
  std::istringstream in(text);
  std::string line, out;
  size_t number = 0;
  bool any = false;
  while (std::getline(in, line)) {
    ++number;
    out += line + "\n";
    const std::string t = trimmed(line);
    if (t.rfind(kBegin, 0) != 0) continue;
    const std::string where = fmt::format("{}:{}", source, number);
    out += axi_port_block(parse_marker(t.substr(std::string(kBegin).size()), where));
    any = true;
    bool ended = false;
    while (!ended && std::getline(in, line)) {
      ++number;
      ended = trimmed(line) == kEnd;
    }
    if (!ended) throw Error(fmt::format("{}: no line '{}' after the block", where, kEnd));
    out += line + "\n";
  }
  if (!any) throw Error(fmt::format("{}: no line starting '{}'", source, kBegin));
  if (!text.empty() && text.back() != '\n') out.pop_back();
  return out;
}

const std::vector<std::string>& axi_port_files() {
  static const std::vector<std::string> files = {
      "rtl/core/tern_core.sv", "rtl/core/tern_csr.sv",      "rtl/core/tern_seq_axi.sv",
      "rtl/dma/tern_dma.sv",   "rtl/dma/tern_dma_backend.sv", "rtl/dma/tern_axi_mux.sv",
      "tb/tern_dma_tb.sv"};
  return files;
}

std::string axi_markdown_tables() {
  std::string text;
  for (const auto& [kind, title] : {std::pair{AxiKind::kAxi4, "AXI4 (the HBM master, `m_axi_*`)"},
                                   std::pair{AxiKind::kAxi4Lite, "AXI4-Lite (the host's CSR port, `s_axil_*`)"}}) {
    text += fmt::format("{}:\n\n| signal | driven by | bits | meaning |\n|---|---|---|---|\n", title);
    for (const AxiSignal& s : axi_signals(kind))
      text += fmt::format("| `{}` | {} | {} | {} |\n", s.name, s.driver == AxiDriver::kMaster ? "master" : "slave",
                          s.width, s.meaning);
    text += "\n";
  }
  text.pop_back();
  return text;
}

std::string update_axi_markdown(const std::string& text, const std::string& source) {
  return gen::replace_generated_block(text, "<!-- BEGIN GENERATED: tern axi md -->",
                                      "<!-- END GENERATED: tern axi md -->", axi_markdown_tables(), source);
}

}  // namespace tern
