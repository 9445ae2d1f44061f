#include "link_command.h"

#include <ostream>

#include "common/error.h"
#include "link/link_gen.h"
#include "text_file.h"

namespace tern {

namespace {
constexpr const char* kUsage = R"(usage: tern link sv [-o FILE] | md [--update FILE]
  sv                 the SystemVerilog package tern_link_pkg (rtl/link/tern_link_pkg.sv)
  md                 the markdown flit and packet tables
  md --update FILE   replace the tables between FILE's generated-block markers (docs/link.md))";
}  // namespace

int run_link_command(const std::vector<std::string>& args, std::ostream& out) {
  if (args.size() == 1 && (args[0] == "--help" || args[0] == "-h")) {
    out << kUsage << "\n";
    return 0;
  }
  if (args.size() == 1 && args[0] == "sv") {
    out << link::link_sv_package();
    return 0;
  }
  if (args.size() == 3 && args[0] == "sv" && args[1] == "-o") {
    write_text_file(args[2], link::link_sv_package());
    return 0;
  }
  if (args.size() == 1 && args[0] == "md") {
    out << link::link_markdown_tables();
    return 0;
  }
  if (args.size() == 3 && args[0] == "md" && args[1] == "--update") {
    write_text_file(args[2], link::update_markdown(read_text_file(args[2]), args[2]));
    return 0;
  }
  throw Error(kUsage);
}

}  // namespace tern
