#include "asm_command.h"

#include <fmt/format.h>

#include <ostream>
#include <vector>

#include "common/error.h"
#include "isa/asm.h"
#include "common/input.h"
#include "host/files.h"

namespace tern {

void assemble_file(const std::string& in, const std::string& out) {
  check_output_path(out, "tern asm -o", {in});
  // A source that declares its kernel, tensors or MACs becomes a self-describing image
  // (TERNIMG1); a bare program stays TERNPRG1.
  const isa::ProgramImage img = isa::assemble_image(host::read_text_file(in), in);
  const bool described = !img.name.empty() || !img.tensors.empty() || img.macs != 0;
  const std::vector<uint8_t> image = described ? isa::image_to_binary(img) : isa::to_binary(img.program);
  host::write_text_file(out, std::string(image.begin(), image.end()));
}

void disassemble_file(const std::string& in, const std::string& out_path, std::ostream& out) {
  if (!out_path.empty()) check_output_path(out_path, "tern disasm -o", {in});
  const std::string bytes = host::read_text_file(in);
  const isa::ProgramImage img = isa::image_from_binary(std::vector<uint8_t>(bytes.begin(), bytes.end()), in);
  std::string text;
  try {
    text = isa::disassemble_image(img);
  } catch (const Error& e) {
    throw Error(fmt::format("{}: {}", in, e.what()));
  }
  if (out_path.empty()) out << text;
  else host::write_text_file(out_path, text);
}

}  // namespace tern
