#include "fp_filter.h"

#include <fmt/format.h>

#include <istream>
#include <ostream>
#include <sstream>

#include "common/error.h"
#include "common/parse.h"
#include "numerics/sr_rng.h"

namespace tern::fpcmd {
namespace {

Operation conversion(const std::string& op, Dtype t, bool to, const OpOptions& o, Backend& b) {
  if (!is_float(t) && !b.converts_integers()) {
    throw Error(fmt::format("{}: the {} {} has float {} only", op, b.name(),
                            to ? "down-converter" : "up-converter", to ? "targets" : "sources"));
  }
  if (to) {
    return {op, {32}, dtype_bits(t), [&b, t, mode = o.mode](const std::vector<uint32_t>& v, uint32_t r) {
              return b.from_fp32(t, v[0], mode, r);
            }};
  }
  return {op, {dtype_bits(t)}, 32,
          [&b, t](const std::vector<uint32_t>& v, uint32_t) { return b.to_fp32(t, v[0]); }};
}

// The words of a line before its comment.
std::vector<std::string> words_of(const std::string& line) {
  std::istringstream tokens(line.substr(0, line.find('#')));
  std::vector<std::string> words;
  for (std::string w; tokens >> w;) words.push_back(w);
  return words;
}

}  // namespace

Dtype parse_dtype(const std::string& name) {
  if (auto t = dtype_from_name(name)) return *t;
  throw Error(fmt::format("unknown dtype '{}'", name));
}

Operation make_operation(const std::string& op, const OpOptions& o, Backend& b) {
  if (op == "add") {
    return {op, {32, 32}, 32,
            [&b](const std::vector<uint32_t>& v, uint32_t) { return b.add(v[0], v[1]); }};
  }
  if (op == "mac") {
    if (!is_mac_dtype(o.ta) || !is_mac_dtype(o.tb)) {
      throw Error(fmt::format("mac: {} x {} is not a Tensor Engine type pair", dtype_name(o.ta),
                              dtype_name(o.tb)));
    }
    return {op, {32, dtype_bits(o.ta), dtype_bits(o.tb)}, 32,
            [&b, ta = o.ta, tb = o.tb](const std::vector<uint32_t>& v, uint32_t) {
              return b.mac(v[0], ta, v[1], tb, v[2]);
            }};
  }
  if (op.rfind("to-", 0) == 0) return conversion(op, parse_dtype(op.substr(3)), true, o, b);
  if (op.rfind("from-", 0) == 0) return conversion(op, parse_dtype(op.substr(5)), false, o, b);
  throw Error(fmt::format("unknown op '{}' (try: tern fp --help)", op));
}

void filter(const Operation& op, const OpOptions& o, std::istream& in, std::ostream& out) {
  SrRng rng(o.seed, o.lane);
  const bool stochastic = o.mode.rounding == Rounding::kStochastic;
  std::string line;
  for (int line_no = 1; std::getline(in, line); ++line_no) {
    const std::vector<std::string> words = words_of(line);
    if (words.empty()) {
      out << line << "\n";  // blank and comment lines pass through
      continue;
    }
    if (words.size() != op.operand_bits.size()) {
      throw Error(fmt::format("line {}: {} wants {} operand(s), got {}", line_no, op.name,
                              op.operand_bits.size(), words.size()));
    }
    std::vector<uint32_t> values;
    for (size_t i = 0; i < words.size(); ++i) {
      values.push_back(uint32_t(parse_hex(words[i], fmt::format("line {}", line_no), op.operand_bits[i])));
    }
    const uint32_t result = op.apply(values, stochastic ? rng.draw() : 0);
    out << fmt::format("{} {:0{}X}\n", line, result, op.result_bits / 4);
  }
}

}  // namespace tern::fpcmd
