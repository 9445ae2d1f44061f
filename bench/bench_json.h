// JSON output of the benchmarks (build/bench/*.json): each file is a list of records, one
// object per measurement, written with nlohmann-json (docs/decisions.md).
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace tern::bench {

using Record = nlohmann::ordered_json;  // keys stay in the order the bench writes them

// Writes `records` to dir/name as a JSON list, creating dir. With keep_other_configs, the
// records already in the file whose "config" is none of the written records' are kept (a run
// of one config replaces only that config's records); a file that is not such a list is an
// error naming it. Prints what it wrote.
void write_records(const std::string& dir, const std::string& name, const std::vector<Record>& records,
                   bool keep_other_configs = false);

}  // namespace tern::bench
