// The tern assembly language: text <-> Program. One line per instruction, `.seq NAME` sections
// for the five streams, `.desc` lines for the descriptor table; the full syntax is in asm.cc.
#pragma once

#include <string>

#include "isa/isa.h"
#include "isa/program_image.h"

namespace tern::isa {

// Parses assembly text; errors throw tern::Error "source:line:col: reason". The image's
// directives, before or between the sections:
//   .kernel NAME
//   .tensor NAME input|output DTYPE rows=R cols=C addr=A [max=N]   (max: a trip count's bound)
//   .macs N
Program assemble(const std::string& text, const std::string& source);
ProgramImage assemble_image(const std::string& text, const std::string& source);

// Canonical text: assemble(disassemble(p)) == p, and disassemble(assemble(t)) == t for canonical
// t. Throws tern::Error for what the text cannot say: an absent access pattern (partitions 0)
// with other fields set, an HBM descriptor side with a start partition.
std::string disassemble(const Program& p);
// The image's directives, then its program; assemble_image(disassemble_image(i)) == i.
std::string disassemble_image(const ProgramImage& image);

// One instruction as its line of text (targets as @index), for messages; never throws.
std::string instruction_text(const Instruction& in);

// An instruction's sync suffix as the text writes it ("$S[1]>=2+r3 $S[4]++@complete"; "" when
// it neither waits nor updates); traces print it too.
std::string sync_text(const Sync& s);

}  // namespace tern::isa
