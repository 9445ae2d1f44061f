#include "text_file.h"

#include <fmt/format.h>

#include <fstream>

#include "common/error.h"
#include "common/input.h"

namespace tern {

std::string read_text_file(const std::string& path) {
  // A program of a million instructions is 128 MiB as an image; nothing tern reads is larger.
  return read_input_file(path, "input file", size_t(256) << 20);
}

void write_text_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) throw Error(fmt::format("{}: cannot write", path));
}

}  // namespace tern
