// `tern`'s generator commands (CLI11 subcommands): each writes a text defined once in the golden
// model -- a SystemVerilog package, docs tables, a config package -- to stdout or a file.
//   isa|csr|link sv [-o FILE]        the package
//   isa|csr|link md [--update FILE]  the docs tables, or FILE with its generated block replaced
//   numerics sv [-o FILE], codes sv --update FILE..., config show|sv YAML [-o FILE]
#pragma once

#include <CLI/CLI.hpp>

#include <iosfwd>

namespace tern {

void add_generator_commands(CLI::App& app, std::ostream& out);

}  // namespace tern
