#include "host/files.h"

#include <fmt/format.h>

#include <fstream>
#include <vector>

#include "common/error.h"
#include "common/input.h"
#include "isa/asm.h"

namespace tern::host {
namespace {

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

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

std::string config_path(const std::string& name_or_path) {
  if (name_or_path.find('/') != std::string::npos || ends_with(name_or_path, ".yaml")) return name_or_path;
  return fmt::format("{}/{}.yaml", TERN_CONFIG_DIR, name_or_path);
}

isa::ProgramImage load_program_file(const std::string& path) {
  const std::string text = read_input_file(path, "program file", size_t(1) << 30);
  if (ends_with(path, ".s")) return isa::assemble_image(text, path);
  if (!ends_with(path, ".tbin"))
    throw Error(fmt::format("{}: a program file is PROG.s (assembly) or PROG.tbin (an image)", path));
  return isa::image_from_binary(std::vector<uint8_t>(text.begin(), text.end()), path);
}

}  // namespace tern::host
