// `tern asm` and `tern disasm`: assembly text <-> the TERNPRG1 program image.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace tern {

// `tern asm IN.s -o OUT.tbin`; returns the process exit code.
int run_asm_command(const std::vector<std::string>& args);
// `tern disasm IN.tbin [-o OUT.s]`: canonical text to `out` or to the file.
int run_disasm_command(const std::vector<std::string>& args, std::ostream& out);

}  // namespace tern
