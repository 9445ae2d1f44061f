#include "host/files.h"

#include <fmt/format.h>

#include <unistd.h>

#include <climits>
#include <fstream>
#include <vector>

#include "common/error.h"
#include "common/input.h"
#include "isa/asm.h"

namespace tern::host {
namespace {

// An installed program's configs: <prefix>/share/tern/configs beside <prefix>/bin (empty when
// the program does not sit in such a prefix, as in the build tree).
std::string installed_config_dir() {
  const std::string bin = executable_dir();
  if (!ends_with(bin, "/bin")) return {};
  const std::string dir = bin.substr(0, bin.size() - 4) + "/share/tern/configs";
  return access(dir.c_str(), R_OK | X_OK) == 0 ? dir : std::string();
}

}  // namespace

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::string executable_dir() {
  char self[PATH_MAX] = {};
  const ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
  const std::string exe = n > 0 ? std::string(self, size_t(n)) : std::string();
  return exe.substr(0, exe.empty() ? 0 : exe.rfind('/'));
}

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

std::string config_path(const std::string& name_or_path, const std::string& configs_dir) {
  if (name_or_path.find('/') != std::string::npos || ends_with(name_or_path, ".yaml")) return name_or_path;
  return fmt::format("{}/{}.yaml", configs_dir, name_or_path);
}

std::string config_path(const std::string& name_or_path) {
  static const std::string installed = installed_config_dir();
  return config_path(name_or_path, installed.empty() ? TERN_CONFIG_DIR : installed);
}

isa::ProgramImage load_program_file(const std::string& path) {
  const std::string text = read_input_file(path, "program file", size_t(1) << 30);
  if (ends_with(path, ".s")) return isa::assemble_image(text, path);
  if (!ends_with(path, ".tbin"))
    throw Error(fmt::format("{}: a program file is PROG.s (assembly) or PROG.tbin (an image)", path));
  return isa::image_from_binary(std::vector<uint8_t>(text.begin(), text.end()), path);
}

}  // namespace tern::host
