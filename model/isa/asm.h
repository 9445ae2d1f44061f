// The tern assembly language: text <-> Program. One line per instruction, `.seq NAME` sections
// for the five streams, `.desc` lines for the descriptor table; the full syntax is in asm.cc.
#pragma once

#include <string>

#include "isa/isa.h"

namespace tern::isa {

// Parses assembly text; errors throw tern::Error "source:line:col: reason".
Program assemble(const std::string& text, const std::string& source);

// Canonical text: assemble(disassemble(p)) == p, and disassemble(assemble(t)) == t for canonical
// t. Throws tern::Error for what the text cannot say: an absent access pattern (partitions 0)
// with other fields set, an HBM descriptor side with a start partition.
std::string disassemble(const Program& p);

// One instruction as its line of text (targets as @index), for messages; never throws.
std::string instruction_text(const Instruction& in);

// An instruction's sync suffix as the text writes it ("$S[1]>=2+r3 $S[4]++@complete"; "" when
// it neither waits nor updates); traces print it too.
std::string sync_text(const Sync& s);

}  // namespace tern::isa
