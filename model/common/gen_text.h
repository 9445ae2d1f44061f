// Helpers of the generators of checked-in text (SystemVerilog packages, docs tables): aligned
// localparam blocks and the replacement of a generated block between two marker lines.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "common/error.h"

namespace tern::gen {

// Aligned `localparam <type> <name> = <value>;  // <comment>` lines under a heading.
class ParamBlock {
 public:
  void add(const std::string& type, const std::string& name, const std::string& value,
           const std::string& comment = "") {
    rows_.push_back({type + " " + name, value + ";", comment});
  }
  std::string text(const std::string& heading) const {
    size_t decl = 0, value = 0;
    for (const Row& r : rows_) {
      decl = std::max(decl, r.decl.size());
      value = std::max(value, r.value.size());
    }
    std::string out = fmt::format("\n  // {}\n", heading);
    for (const Row& r : rows_) {
      std::string line = fmt::format("  localparam {:<{}} = {:<{}}", r.decl, decl, r.value, value);
      if (!r.comment.empty()) line += "  // " + r.comment;
      line.erase(line.find_last_not_of(' ') + 1);
      out += line + "\n";
    }
    return out;
  }

 private:
  struct Row {
    std::string decl, value, comment;
  };
  std::vector<Row> rows_;
};

// `text` with the lines between the marker lines `begin` and `end` replaced by `body`; throws
// tern::Error naming `source` when a marker line is missing.
inline std::string replace_generated_block(const std::string& text, const std::string& begin,
                                           const std::string& end, const std::string& body,
                                           const std::string& source) {
  auto line_at = [&](const std::string& marker, size_t from) {
    for (size_t pos = text.find(marker, from); pos != std::string::npos;
         pos = text.find(marker, pos + 1)) {
      const size_t stop = pos + marker.size();
      if ((pos == 0 || text[pos - 1] == '\n') && (stop == text.size() || text[stop] == '\n'))
        return pos;
    }
    throw Error(fmt::format("{}: no line '{}'{}", source, marker,
                            from == 0 ? "" : fmt::format(" after '{}'", begin)));
  };
  const size_t begin_end = line_at(begin, 0) + begin.size();
  const size_t end_pos = line_at(end, begin_end);
  return text.substr(0, begin_end) + "\n\n" + body + "\n" + text.substr(end_pos);
}

}  // namespace tern::gen
