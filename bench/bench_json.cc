#include "bench_json.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "common/error.h"

namespace tern::bench {

namespace {

// The records of `path` whose "config" is not in `replaced`; none when there is no file.
std::vector<Record> kept_records(const std::string& path, const std::set<std::string>& replaced) {
  std::vector<Record> kept;
  std::ifstream in(path);
  if (!in) return kept;
  Record old;
  try {
    old = Record::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw Error(fmt::format("{}: not a JSON list of records ({}); remove it to start afresh", path, e.what()));
  }
  if (!old.is_array()) throw Error(fmt::format("{}: not a JSON list of records", path));
  for (Record& r : old) {
    const bool same = r.is_object() && r.contains("config") && r["config"].is_string() &&
                      replaced.count(r["config"].get<std::string>());
    if (!same) kept.push_back(std::move(r));
  }
  return kept;
}

}  // namespace

void write_records(const std::string& dir, const std::string& name, const std::vector<Record>& records,
                   bool keep_other_configs) {
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/" + name;
  std::vector<Record> all;
  if (keep_other_configs) {
    std::set<std::string> configs;
    for (const Record& r : records) configs.insert(r.at("config").get<std::string>());
    all = kept_records(path, configs);
  }
  const size_t kept = all.size();
  all.insert(all.end(), records.begin(), records.end());
  std::ofstream f(path);
  if (!f) throw Error(fmt::format("cannot write {}", path));
  f << "[\n";
  for (size_t i = 0; i < all.size(); ++i) f << "  " << all[i].dump() << (i + 1 < all.size() ? ",\n" : "\n");
  f << "]\n";
  if (!f) throw Error(fmt::format("error writing {}", path));
  fmt::print("wrote {} ({} records{})\n", path, records.size(),
             keep_other_configs ? fmt::format(", {} of other configs kept", kept) : std::string());
}

}  // namespace tern::bench
