// Whole-file input and output for the host side (the CLI, the Python module): configs by name,
// program files, text and binary files; failures throw tern::Error naming the file.
#pragma once

#include <string>

#include "isa/program_image.h"

namespace tern::host {

// The whole file; a path that is no regular file (a directory, /dev/zero) or holds more than
// 256 MiB is an error naming it.
std::string read_text_file(const std::string& path);
void write_text_file(const std::string& path, const std::string& text);

// Whether `s` ends with `tail`.
bool ends_with(const std::string& s, const std::string& tail);

// The directory of the running program (empty when the system cannot say).
std::string executable_dir();

// The file of a config given as a name (tiny, small, trn2: configs/NAME.yaml of this build, or
// of the package for a program installed in P/bin: P/share/tern/configs/NAME.yaml) or as a
// path (anything with a '/' or ending in .yaml).
std::string config_path(const std::string& name_or_path);
// The same with the names resolved in `configs_dir` (the Python module's package configs).
std::string config_path(const std::string& name_or_path, const std::string& configs_dir);

// A program file: PROG.s (assembly, with its directives) or PROG.tbin (TERNIMG1 or a bare
// TERNPRG1); errors name the file and the place.
isa::ProgramImage load_program_file(const std::string& path);

}  // namespace tern::host
