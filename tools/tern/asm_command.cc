#include "asm_command.h"

#include <fmt/format.h>

#include <ostream>
#include <utility>

#include "common/error.h"
#include "isa/asm.h"
#include "text_file.h"

namespace tern {
namespace {

constexpr const char* kAsmUsage = "usage: tern asm IN.s -o OUT.tbin";
constexpr const char* kDisasmUsage = "usage: tern disasm IN.tbin [-o OUT.s]";

// IN [-o OUT]: the input path and the output path ("" when absent).
std::pair<std::string, std::string> in_out(const std::vector<std::string>& args,
                                           const char* usage) {
  if (args.size() == 1 && args[0].rfind("-", 0) != 0) return {args[0], ""};
  if (args.size() == 3 && args[1] == "-o") return {args[0], args[2]};
  throw Error(usage);
}

}  // namespace

int run_asm_command(const std::vector<std::string>& args) {
  const auto [in, out] = in_out(args, kAsmUsage);
  if (out.empty()) throw Error(kAsmUsage);
  check_output_path(out, "tern asm -o", {in});
  const std::vector<uint8_t> image = isa::to_binary(isa::assemble(read_text_file(in), in));
  write_text_file(out, std::string(image.begin(), image.end()));
  return 0;
}

int run_disasm_command(const std::vector<std::string>& args, std::ostream& out) {
  const auto [in, out_path] = in_out(args, kDisasmUsage);
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
  return 0;
}

}  // namespace tern
