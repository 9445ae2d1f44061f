// Checks a Chrome/Perfetto trace-event JSON (tern::trace_json) the way Perfetto will read it:
// metadata and complete ("X") events only, all in process 1, every slice on a named thread with
// ts >= 0 and dur >= 0, and no two slices of one thread overlapping (Perfetto would nest them).
// Returns the thread names.
#pragma once

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <map>
#include <set>
#include <string>

namespace tern::test {

struct TraceSummary {
  std::set<std::string> threads;
  size_t slices = 0;
  std::string time_unit;
};

inline TraceSummary check_trace_json(const std::string& json) {
  TraceSummary t;
  const YAML::Node doc = YAML::Load(json);  // JSON is YAML
  EXPECT_TRUE(doc["traceEvents"].IsSequence());
  t.time_unit = doc["otherData"]["time_unit"].as<std::string>("");
  std::map<int, std::string> names;
  std::map<int, int64_t> busy_until;  // per thread, the end of its last slice
  for (const auto& e : doc["traceEvents"]) {
    const std::string ph = e["ph"].as<std::string>();
    EXPECT_EQ(e["pid"].as<int>(), 1);
    if (ph == "M") {
      if (e["name"].as<std::string>() == "thread_name")
        names[e["tid"].as<int>()] = e["args"]["name"].as<std::string>();
      continue;
    }
    EXPECT_EQ(ph, "X");
    ++t.slices;
    const int tid = e["tid"].as<int>();
    const int64_t ts = e["ts"].as<int64_t>(), dur = e["dur"].as<int64_t>();
    EXPECT_TRUE(names.count(tid)) << "a slice on an unnamed thread";
    EXPECT_FALSE(e["name"].as<std::string>().empty());
    EXPECT_GE(ts, 0);
    EXPECT_GE(dur, 0);
    EXPECT_GE(ts, busy_until[tid]) << names[tid] << ": " << e["name"].as<std::string>()
                                   << " overlaps the slice before it";
    busy_until[tid] = ts + dur;
  }
  for (const auto& [tid, n] : names) t.threads.insert(n);
  return t;
}

}  // namespace tern::test
