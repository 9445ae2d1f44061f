#include "text_file.h"

#include <fmt/format.h>

#include <filesystem>
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

void check_output_path(const std::string& path, const std::string& what,
                       const std::vector<std::string>& inputs) {
  namespace fs = std::filesystem;
  const fs::path p(path);
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  std::error_code ec;
  if (path.empty()) throw Error(fmt::format("{}: the output path is empty", what));
  if (!fs::is_directory(dir, ec)) {
    throw Error(fmt::format("{} {}: cannot write: directory '{}' does not exist", what, path, dir.string()));
  }
  if (fs::is_directory(p, ec)) throw Error(fmt::format("{} {}: cannot write: it is a directory", what, path));
  for (const std::string& in : inputs) {
    if (fs::exists(p, ec) && fs::equivalent(p, in, ec)) {
      throw Error(fmt::format("{} {}: is the input file {}; writing it would destroy the input", what, path, in));
    }
  }
}

}  // namespace tern
