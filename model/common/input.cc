#include "common/input.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "common/error.h"

namespace tern {
namespace {

// Every key a plain scalar, given once: a YAML complex key ("? [a, b]") or a repeated one is
// an error with its place.
void check_keys(const YAML::Node& node, const std::string& source) {
  if (node.IsSequence()) {
    for (const auto& item : node) check_keys(item, source);
    return;
  }
  if (!node.IsMap()) return;
  std::map<std::string, YAML::Mark> seen;
  for (const auto& kv : node) {
    if (!kv.first.IsScalar())
      throw Error(fmt::format("{}: a key must be a plain name, not a list or a map",
                              yaml_where(source, kv.first.Mark())));
    const std::string key = kv.first.Scalar();
    const auto [it, fresh] = seen.emplace(key, kv.first.Mark());
    if (!fresh) {
      throw Error(fmt::format("{}: key '{}' is given twice (first at line {})",
                              yaml_where(source, kv.first.Mark()), key, it->second.line + 1));
    }
    check_keys(kv.second, source);
  }
}

}  // namespace

std::string read_input_file(const std::string& path, const std::string& what, size_t max_bytes) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) throw Error(fmt::format("{}: cannot open {}", path, what));
  if (!fs::is_regular_file(st)) throw Error(fmt::format("{}: the {} is not a regular file", path, what));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(fmt::format("{}: cannot open {}", path, what));
  std::string text(max_bytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (in.bad()) throw Error(fmt::format("{}: cannot read {}", path, what));
  const size_t got = static_cast<size_t>(in.gcount());
  if (got > max_bytes) {
    throw Error(fmt::format("{}: the {} is larger than {} bytes, the most tern reads", path, what, max_bytes));
  }
  text.resize(got);
  return text;
}

std::string yaml_where(const std::string& source, const YAML::Mark& mark) {
  return fmt::format("{}:{}:{}", source, mark.line + 1, mark.column + 1);
}

YAML::Node load_yaml(const std::string& text, const std::string& source) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw Error(fmt::format("{}: malformed YAML: {}", yaml_where(source, e.mark), e.msg));
  }
  check_keys(root, source);
  return root;
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
