// Files and YAML a user hands to tern (configs, regression lists, programs): read with limits and
// checked strictly, so a wrong file is an error naming it, never a hang or a silent guess.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <string>
#include <vector>

namespace tern {

// The whole file at `path`. Throws tern::Error naming `what` and the path when it cannot be
// opened, is not a regular file (a directory, /dev/zero, a pipe) or holds more than max_bytes.
std::string read_input_file(const std::string& path, const std::string& what, size_t max_bytes);

// Checks, before any work is done, that `path` can be written as a new or replaced file: its
// directory exists, it is not a directory, and it is none of `inputs` (so `tern asm x.s -o x.s`
// cannot overwrite its source). Throws tern::Error naming `what` (the option) and the reason.
void check_output_path(const std::string& path, const std::string& what,
                       const std::vector<std::string>& inputs = {});

// "source:line:column" of a YAML mark (yaml-cpp counts from 0, editors from 1).
std::string yaml_where(const std::string& source, const YAML::Mark& mark);

// Parses YAML text; malformed YAML and a key given twice in any map (which yaml-cpp would
// accept, keeping the first) throw tern::Error with the place.
YAML::Node load_yaml(const std::string& text, const std::string& source);

}  // namespace tern
