// Command lines, one convention for every executable (docs/decisions.md): CLI11 parses them and
// writes --help; every number goes through tern::parse_uint (model/common/parse.h), so "-5",
// "5abc" and "1e3" are errors that name the option, never a wrapped or truncated value; an
// unknown option or a missing value is an error, never ignored.
#pragma once

#include <CLI/CLI.hpp>

#include <fmt/format.h>

#include <cstdint>
#include <iostream>
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

// Parses a command line (argv[0] first) into app. False: --help was printed to `out` (the
// innermost chosen subcommand's). A usage error throws tern::Error naming the command,
// CLI11's reason and the hint to --help.
inline bool parse_argv(CLI::App& app, const std::string& name, const std::vector<const char*>& argv,
                       std::ostream& out) {
  try {
    app.parse(int(argv.size()), argv.data());
    return true;
  } catch (const CLI::CallForHelp&) {
    CLI::App* chosen = &app;
    while (!chosen->get_subcommands().empty()) chosen = chosen->get_subcommands().back();
    out << chosen->help();
    return false;
  } catch (const CLI::ParseError& e) {
    throw Error(fmt::format("{}: {} ({} --help)", name, e.what(), name));
  }
}

// The same for a command's arguments (those after its name).
inline bool parse_command(CLI::App& app, const std::string& name, const std::vector<std::string>& args,
                          std::ostream& out) {
  std::vector<const char*> argv{name.c_str()};
  for (const std::string& a : args) argv.push_back(a.c_str());
  return parse_argv(app, name, argv, out);
}

// For a program's main: true to go on; false after --help (status 0) or a usage error, printed
// to stderr (status 2, the usual usage-error code).
inline bool parse(CLI::App& app, int argc, char** argv, int& status) {
  try {
    if (parse_argv(app, argv[0], std::vector<const char*>(argv, argv + argc), std::cout)) return true;
    status = 0;
  } catch (const Error& e) {
    fmt::print(stderr, "{}\n", e.what());
    status = 2;
  }
  return false;
}

}  // namespace tern::cli
