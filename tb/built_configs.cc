#include "built_configs.h"

#include <fmt/format.h>

#include <string>
#include <utility>

#include "common/error.h"

namespace tern::tb {
namespace {

// {name, YAML text}, written by cmake/config_packages.cmake.
const std::pair<const char*, const char*> kBuilt[] = {
#include "built_configs.inc"
};

}  // namespace

void require_built_config(const CoreConfig& cfg, const std::string& who) {
  std::string names;
  for (const auto& [name, text] : kBuilt) {
    names += fmt::format("{}{}", names.empty() ? "" : ", ", name);
    if (cfg.name != name) continue;
    const std::string diff = config_difference(cfg, parse_config(text, fmt::format("configs/{}.yaml", name)));
    if (diff.empty()) return;
    throw Error(fmt::format("{}: config '{}' is not the one the models were built with ({}); a config "
                            "of other sizes needs a name and models of its own (configs/*.yaml, then rebuild)",
                            who, cfg.name, diff));
  }
  throw Error(fmt::format("{}: no model is built for config '{}' (built: {})", who, cfg.name, names));
}

}  // namespace tern::tb
