#include "regression.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "common/error.h"
#include "common/input.h"
#include "common/parse.h"

namespace tern::sim {
namespace {

namespace fs = std::filesystem;

std::string where(const std::string& source, const YAML::Node& n) { return yaml_where(source, n.Mark()); }

std::string scalar(const YAML::Node& n, const char* key, const std::string& source) {
  if (!n.IsScalar()) throw Error(fmt::format("{}: '{}' must be a string", where(source, n), key));
  return n.Scalar();
}

uint32_t positive(const YAML::Node& n, const char* key, const std::string& source, uint32_t max) {
  return static_cast<uint32_t>(
      parse_uint(scalar(n, key, source), fmt::format("{}: '{}'", where(source, n), key), 1, max));
}

std::vector<std::string> strings(const YAML::Node& n, const char* key, const std::string& source) {
  if (!n.IsSequence()) throw Error(fmt::format("{}: '{}' must be a list", where(source, n), key));
  std::vector<std::string> out;
  for (const auto& item : n) out.push_back(scalar(item, key, source));
  return out;
}

struct RunResult {
  std::string id;  // test name, or name/seed-N when a test runs several seeds
  std::string test;
  uint64_t seed = 0;
  std::string dir;
  bool passed = false;
  std::string reason;
  double seconds = 0;
  uint64_t cycles = 0;
};

// Runs argv with stdout and stderr into `log`, killing its process group at the timeout.
// Returns the exit status text ("exit 0", "exit 3", "signal 9", "timeout after 60 s").
std::string run_process(const std::vector<std::string>& argv, const std::string& log, uint32_t timeout_s) {
  const pid_t pid = fork();
  if (pid < 0) throw Error("fork failed");
  if (pid == 0) {
    setpgid(0, 0);
    const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
      close(fd);
    }
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    fprintf(stderr, "cannot execute %s\n", args[0]);
    _exit(127);
  }
  setpgid(pid, pid);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(-pid, SIGKILL);
      waitpid(pid, &status, 0);
      return fmt::format("timeout after {} s", timeout_s);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (WIFEXITED(status)) return fmt::format("exit {}", WEXITSTATUS(status));
  return fmt::format("signal {}", WTERMSIG(status));
}

RunResult run_one(const RegressionTest& t, uint64_t seed, const std::string& id, const RunOptions& o) {
  RunResult r;
  r.id = id;
  r.test = t.name;
  r.seed = seed;
  r.dir = (fs::path(o.out_dir) / id).string();
  fs::create_directories(r.dir);
  const std::string log = (fs::path(r.dir) / "log.txt").string();
  std::vector<std::string> argv = {(fs::path(o.bin_dir) / ("tern_sim_" + t.bench)).string()};
  argv.insert(argv.end(), t.args.begin(), t.args.end());
  argv.insert(argv.end(), {"--seed", std::to_string(seed), "--config",
                           (fs::path(o.config_dir) / (t.config + ".yaml")).string()});
  const std::string waves = (fs::path(r.dir) / "waves.fst").string();
  fs::remove(waves);
  if (o.waves) argv.insert(argv.end(), {"--waves", waves});

  const auto start = std::chrono::steady_clock::now();
  const std::string status = run_process(argv, log, t.timeout_s * o.timeout_scale);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::ifstream in(log);
  bool pass_line = false;
  std::string bad_line;  // a line the protocol does not allow: the test fails, the run goes on
  for (std::string line; std::getline(in, line);) {
    if (line == "PASS") pass_line = true;
    if (line.rfind("CYCLES ", 0) != 0) continue;
    try {
      r.cycles = parse_uint(line.substr(7), "CYCLES");
    } catch (const Error& e) {
      bad_line = e.what();
    }
  }
  if (status != "exit 0") {
    r.reason = status;
  } else if (!bad_line.empty()) {
    r.reason = "bad log line: " + bad_line;
  } else if (!pass_line) {
    r.reason = "exit 0 but no PASS line";
  } else if (o.waves && !fs::exists(waves)) {
    r.reason = "no waveform written";
  } else {
    r.passed = true;
  }
  return r;
}

// Writes `text` to `path` through a temporary file and a rename, so a reader never sees half a
// report and a run that dies leaves no report at all rather than a stale or partial one.
void write_atomically(const fs::path& path, const std::string& text) {
  const fs::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush()) throw Error(fmt::format("{}: cannot write", tmp.string()));
  }
  fs::rename(tmp, path);
}

std::string log_tail(const std::string& dir, size_t max_bytes) {
  std::ifstream in(fs::path(dir) / "log.txt", std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  std::string log = text.str();
  return log.size() > max_bytes ? log.substr(log.size() - max_bytes) : log;
}

std::string summary_json(const std::vector<RunResult>& results) {
  nlohmann::ordered_json runs = nlohmann::ordered_json::array();
  size_t failed = 0;
  for (const auto& r : results) {
    failed += !r.passed;
    runs.push_back({{"id", r.id}, {"test", r.test}, {"seed", r.seed}, {"status", r.passed ? "PASS" : "FAIL"},
                    {"reason", r.reason}, {"seconds", r.seconds}, {"cycles", r.cycles},
                    {"log", (fs::path(r.dir) / "log.txt").string()}});
  }
  const nlohmann::ordered_json doc = {{"results", runs}, {"total", results.size()}, {"failed", failed}};
  // Text that is not UTF-8 (a path, a bench's message) is written with U+FFFD, never as invalid JSON.
  return doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

std::string junit_xml(const std::vector<RunResult>& results) {
  size_t failed = 0;
  double total = 0;
  for (const auto& r : results) {
    failed += !r.passed;
    total += r.seconds;
  }
  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  xml += fmt::format("<testsuite name=\"tern.sim\" tests=\"{}\" failures=\"{}\" time=\"{:.3f}\">\n",
                     results.size(), failed, total);
  for (const auto& r : results) {
    xml += fmt::format("  <testcase classname=\"sim\" name=\"{}\" time=\"{:.3f}\">", xml_escape(r.id), r.seconds);
    if (!r.passed) {
      xml += fmt::format("\n    <failure message=\"{}\">{}</failure>\n  ", xml_escape(r.reason),
                         xml_escape(log_tail(r.dir, 4000)));
    }
    xml += "</testcase>\n";
  }
  return xml + "</testsuite>\n";
}

void write_reports(const std::vector<RunResult>& results, const RunOptions& o) {
  write_atomically(fs::path(o.out_dir) / "summary.json", summary_json(results));
  write_atomically(fs::path(o.out_dir) / "junit.xml", junit_xml(results));
}


// Decodes one UTF-8 sequence at s[i]; returns its length, or 0 when the bytes there are not a
// well-formed sequence (overlong forms, surrogates and values past U+10FFFF are not).
size_t utf8_sequence(std::string_view s, size_t i, uint32_t& cp) {
  const auto byte = [&](size_t k) { return static_cast<uint8_t>(s[k]); };
  const uint8_t b0 = byte(i);
  if (b0 < 0x80) {
    cp = b0;
    return 1;
  }
  const size_t len = b0 >= 0xF0 ? 4 : b0 >= 0xE0 ? 3 : b0 >= 0xC0 ? 2 : 0;
  if (len == 0 || i + len > s.size()) return 0;
  cp = b0 & (0x7F >> len);
  for (size_t k = 1; k < len; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  static constexpr uint32_t kMin[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

}  // namespace

std::string xml_escape(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    uint32_t cp = 0;
    const size_t len = utf8_sequence(s, i, cp);
    const bool allowed = len != 0 && (cp >= 0x20 || cp == '\t' || cp == '\n' || cp == '\r') && cp != 0xFFFE &&
                         cp != 0xFFFF;
    if (!allowed) {
      out += "\xEF\xBF\xBD";  // U+FFFD, the replacement character
      i += len ? len : 1;
      continue;
    }
    switch (cp) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      case '\r': out += "&#13;"; break;
      default: out.append(s.substr(i, len));
    }
    i += len;
  }
  return out;
}

void clear_reports(const std::string& out_dir) {
  for (const char* name : {"summary.json", "junit.xml"}) fs::remove(fs::path(out_dir) / name);
}

std::vector<RegressionTest> parse_regression(const std::string& yaml_text, const std::string& source) {
  const YAML::Node root = load_yaml(yaml_text, source);
  if (!root.IsMap() || !root["tests"]) throw Error(fmt::format("{}: a regression list is a map with a 'tests' list", source));
  for (const auto& kv : root) {
    if (kv.first.Scalar() != "tests") {
      throw Error(fmt::format("{}: unknown key '{}' (known: tests)", where(source, kv.first), kv.first.Scalar()));
    }
  }
  const YAML::Node list = root["tests"];
  if (!list.IsSequence()) throw Error(fmt::format("{}: 'tests' must be a list", where(source, list)));
  static const std::set<std::string> kKeys = {"name", "bench", "args", "tags", "config", "seeds", "timeout"};
  std::vector<RegressionTest> tests;
  std::set<std::string> names;
  for (const auto& node : list) {
    if (!node.IsMap()) throw Error(fmt::format("{}: each test must be a map", where(source, node)));
    for (const auto& kv : node) {
      if (!kKeys.count(kv.first.Scalar())) {
        throw Error(fmt::format("{}: unknown key '{}' (known: name, bench, args, tags, config, seeds, timeout)",
                                where(source, kv.first), kv.first.Scalar()));
      }
    }
    for (const char* required : {"name", "bench"}) {
      if (!node[required]) throw Error(fmt::format("{}: test is missing '{}'", where(source, node), required));
    }
    RegressionTest t;
    t.name = scalar(node["name"], "name", source);
    if (!std::regex_match(t.name, std::regex("[A-Za-z0-9_.-]+"))) {
      throw Error(fmt::format("{}: test name '{}' may use only letters, digits, '_', '.', '-'", where(source, node["name"]), t.name));
    }
    if (!names.insert(t.name).second) throw Error(fmt::format("{}: duplicate test name '{}'", where(source, node["name"]), t.name));
    t.bench = scalar(node["bench"], "bench", source);
    if (node["args"]) t.args = strings(node["args"], "args", source);
    if (node["tags"]) t.tags = strings(node["tags"], "tags", source);
    if (node["config"]) t.config = scalar(node["config"], "config", source);
    if (node["seeds"]) t.seeds = positive(node["seeds"], "seeds", source, 1000);
    if (node["timeout"]) t.timeout_s = positive(node["timeout"], "timeout", source, 36000);
    tests.push_back(std::move(t));
  }
  return tests;
}

std::vector<RegressionTest> load_regression(const std::string& path) {
  return parse_regression(read_input_file(path, "regression list", 1024 * 1024), path);
}

int run_regression(const std::vector<RegressionTest>& tests, const RunOptions& o) {
  std::vector<const RegressionTest*> selected;
  for (const auto& t : tests) {
    if (!o.test.empty() && t.name != o.test) continue;
    const bool tagged = o.tags.empty() || o.tags == "all" ||
                        std::find(t.tags.begin(), t.tags.end(), o.tags) != t.tags.end();
    if (o.test.empty() && !tagged) continue;
    selected.push_back(&t);
  }
  if (!o.test.empty() && selected.empty()) {
    std::string known;
    for (const auto& t : tests) known += "\n  " + t.name;
    throw Error(fmt::format("unknown test '{}'; known tests:{}", o.test, known));
  }
  if (selected.empty()) throw Error(fmt::format("no test has tag '{}'", o.tags));
  for (const auto* t : selected) {
    const fs::path cfg = fs::path(o.config_dir) / (t->config + ".yaml");
    if (!fs::exists(cfg)) throw Error(fmt::format("test '{}': config file {} does not exist", t->name, cfg.string()));
  }

  fs::create_directories(o.out_dir);
  size_t total = 0;
  for (const auto* t : selected) total += t->seeds;
  std::vector<RunResult> results;
  for (const auto* t : selected) {
    for (uint32_t k = 0; k < t->seeds; ++k) {
      const uint64_t seed = o.seed + k;
      const std::string id = t->seeds == 1 ? t->name : fmt::format("{}/seed-{}", t->name, seed);
      fmt::print("[{:>2}/{}] {:<28} seed {:<6} ... ", results.size() + 1, total, id, seed);
      std::fflush(stdout);
      results.push_back(run_one(*t, seed, id, o));
      const auto& r = results.back();
      fmt::print("{} ({:.2f} s{})\n", r.passed ? "PASS" : "FAIL " + r.reason, r.seconds,
                 r.cycles ? fmt::format(", {} cycles", r.cycles) : "");
    }
  }
  write_reports(results, o);

  size_t failed = 0;
  fmt::print("\n{:<30} {:>8} {:>6} {:>10} {:>12}\n", "test", "seed", "result", "seconds", "cycles");
  for (const auto& r : results) {
    failed += !r.passed;
    fmt::print("{:<30} {:>8} {:>6} {:>10.2f} {:>12}\n", r.id, r.seed, r.passed ? "PASS" : "FAIL", r.seconds, r.cycles);
  }
  fmt::print("\n{} run(s): {} passed, {} failed. Logs and waves under {}/<test>/; {}/summary.json, {}/junit.xml\n",
             results.size(), results.size() - failed, failed, o.out_dir, o.out_dir, o.out_dir);
  return static_cast<int>(failed);
}

}  // namespace tern::sim
