#include "asm_command.h"

#include <fmt/format.h>

#include <ostream>
#include <vector>

#include "common/error.h"
#include "isa/asm.h"
#include "common/input.h"
#include "text_file.h"

namespace tern {

void assemble_file(const std::string& in, const std::string& out) {
  check_output_path(out, "tern asm -o", {in});
  const std::vector<uint8_t> image = isa::to_binary(isa::assemble(read_text_file(in), in));
  write_text_file(out, std::string(image.begin(), image.end()));
}

void disassemble_file(const std::string& in, const std::string& out_path, std::ostream& out) {
  if (!out_path.empty()) check_output_path(out_path, "tern disasm -o", {in});
  const std::string bytes = read_text_file(in);
  const isa::Program p = isa::from_binary(std::vector<uint8_t>(bytes.begin(), bytes.end()), in);
  std::string text;
  try {
    text = isa::disassemble(p);
  } catch (const Error& e) {
    throw Error(fmt::format("{}: {}", in, e.what()));
  }
  if (out_path.empty()) out << text;
  else write_text_file(out_path, text);
}

}  // namespace tern
