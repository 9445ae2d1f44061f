#include "isa_command.h"

#include <ostream>

#include "common/error.h"
#include "isa/isa_gen.h"
#include "text_file.h"

namespace tern {

namespace {
constexpr const char* kUsage = R"(usage: tern isa sv [-o FILE] | md [--update FILE]
  sv                 the SystemVerilog package tern_isa_pkg (rtl/core/tern_isa_pkg.sv)
  md                 the markdown opcode, format and bit-field tables
  md --update FILE   replace the tables between FILE's generated-block markers (docs/isa.md))";
}  // namespace

int run_isa_command(const std::vector<std::string>& args, std::ostream& out) {
  if (args.size() == 1 && (args[0] == "--help" || args[0] == "-h")) {
    out << kUsage << "\n";
    return 0;
  }
  if (args.size() == 1 && args[0] == "sv") {
    out << isa::isa_sv_package();
    return 0;
  }
  if (args.size() == 3 && args[0] == "sv" && args[1] == "-o") {
    write_text_file(args[2], isa::isa_sv_package());
    return 0;
  }
  if (args.size() == 1 && args[0] == "md") {
    out << isa::isa_markdown_tables();
    return 0;
  }
  if (args.size() == 3 && args[0] == "md" && args[1] == "--update") {
    write_text_file(args[2], isa::update_markdown(read_text_file(args[2]), args[2]));
    return 0;
  }
  throw Error(kUsage);
}

}  // namespace tern
