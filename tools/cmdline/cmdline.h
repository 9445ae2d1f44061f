// Command lines, one convention for every executable (docs/decisions.md): CLI11 parses them and
// writes --help; every number goes through tern::parse_uint (model/common/parse.h), so "-5",
// "5abc" and "1e3" are errors that name the option, never a wrapped or truncated value; an
// unknown option or a missing value is an error, never ignored.
#pragma once

#include <CLI/CLI.hpp>

#include <fmt/format.h>

#include <cstdint>
#include <limits>
#include <ostream>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/parse.h"

namespace tern::cli {

// An unsigned option in [min, max] into `value`; its value before parsing is the default shown.
template <typename T>
CLI::Option* add_uint(CLI::App& app, const std::string& name, T& value, const std::string& help,
                      uint64_t min = 0, uint64_t max = std::numeric_limits<T>::max()) {
  const std::string key = name.substr(0, name.find(','));
  auto set = [&value, key, min, max](const std::string& text) {
    value = static_cast<T>(parse_uint(text, key, min, max));
  };
  return app.add_option_function<std::string>(name, set, help)
      ->default_str(std::to_string(value))
      ->type_name("UINT");
}

// Parses argv into app. True: go on. False: --help was printed (status 0) or the command line
// was wrong (the reason and the usage hint on stderr, status 2, the usual usage-error code).
inline bool parse(CLI::App& app, int argc, char** argv, int& status) {
  try {
    app.parse(argc, argv);
    return true;
  } catch (const CLI::ParseError& e) {
    status = app.exit(e) == 0 ? 0 : 2;
    return false;
  }
}

// Parses a command's arguments (those after its name) into app. False: --help was printed to
// `out` (the selected subcommand's, if any). A usage error throws tern::Error naming the
// command, CLI11's reason and the hint to --help.
inline bool parse_command(CLI::App& app, const std::string& name, const std::vector<std::string>& args,
                          std::ostream& out) {
  std::vector<const char*> argv{name.c_str()};
  for (const std::string& a : args) argv.push_back(a.c_str());
  try {
    app.parse(int(argv.size()), argv.data());
    return true;
  } catch (const CLI::CallForHelp&) {
    const std::vector<CLI::App*> chosen = app.get_subcommands();
    out << (chosen.empty() ? app.help() : chosen.back()->help());
    return false;
  } catch (const CLI::ParseError& e) {
    throw Error(fmt::format("{}: {} ({} --help)", name, e.what(), name));
  }
}

}  // namespace tern::cli
