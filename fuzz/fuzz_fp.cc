// `tern fp`'s filter (tools/tern/fp_filter.h) on any text, golden backend. The first line names
// the operation as a user would give it: `op [A,B] [sr] [sat]` (A,B the mac types); the rest is
// the filter's input. An accepted input comes back line for line, each non-blank line with one
// hex result of the operation's width appended.
#include <sstream>
#include <string>
#include <vector>

#include "fp_filter.h"
#include "fuzz_target.h"

namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::istringstream in(s);
  for (std::string p; std::getline(in, p, sep);) parts.push_back(p);
  return parts;
}

tern::fpcmd::OpOptions options_of(const std::vector<std::string>& words) {
  tern::fpcmd::OpOptions o;
  for (size_t i = 1; i < words.size(); ++i) {
    if (words[i] == "sr") o.mode.rounding = tern::Rounding::kStochastic;
    if (words[i] == "sat") o.mode.saturate = true;
    const std::vector<std::string> types = split(words[i], ',');
    if (types.size() == 2) {
      o.ta = tern::fpcmd::parse_dtype(types[0]);
      o.tb = tern::fpcmd::parse_dtype(types[1]);
    }
  }
  return o;
}

void check_output(const std::string& input, const std::string& output, int result_bits) {
  const std::vector<std::string> in = split(input, '\n'), out = split(output, '\n');
  if (in.size() != out.size()) std::abort();
  for (size_t i = 0; i < in.size(); ++i) {
    if (out[i].compare(0, in[i].size(), in[i]) != 0) std::abort();
    const std::string rest = out[i].substr(in[i].size());
    if (!rest.empty() && rest.size() != size_t(1 + result_bits / 4)) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tern;
  const std::string text = fuzz::text(data, size);
  const size_t eol = text.find('\n');
  const std::string head = text.substr(0, eol);
  const std::string body = eol == std::string::npos ? "" : text.substr(eol + 1);
  fuzz::expect_error_or_success([&] {
    std::istringstream words_in(head);
    std::vector<std::string> words;
    for (std::string w; words_in >> w;) words.push_back(w);
    if (words.empty()) return;
    fpcmd::GoldenBackend golden;
    const fpcmd::OpOptions options = options_of(words);
    const fpcmd::Operation op = fpcmd::make_operation(words[0], options, golden);
    std::istringstream in(body);
    std::ostringstream out;
    fpcmd::filter(op, options, in, out);
    check_output(body, out.str(), op.result_bits);
  });
  return 0;
}
