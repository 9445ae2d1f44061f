#include "text_file.h"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "common/error.h"

namespace tern {

std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(fmt::format("{}: cannot read", path));
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_text_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) throw Error(fmt::format("{}: cannot write", path));
}

}  // namespace tern
