// `tern asm` and `tern disasm`: assembly text <-> the program image (TERNIMG1 when the text
// declares its kernel, tensors or MACs, else the bare TERNPRG1 program; docs/isa.md).
#pragma once

#include <iosfwd>
#include <string>

namespace tern {

// `tern asm IN.s -o OUT.tbin`: the program assembled into its image.
void assemble_file(const std::string& in, const std::string& out);
// `tern disasm IN.tbin [-o OUT.s]`: canonical text to `out` or, when out_path is set, the file.
void disassemble_file(const std::string& in, const std::string& out_path, std::ostream& out);

}  // namespace tern
