// Whole-file input and output (bytes, text or binary) for the commands; failures throw tern::Error naming the file.
#pragma once

#include <string>
#include <vector>

namespace tern {

// The whole file; a path that is no regular file (a directory, /dev/zero) or holds more than
// 256 MiB is an error naming it.
std::string read_text_file(const std::string& path);
void write_text_file(const std::string& path, const std::string& text);

// Checks, before any work is done, that `path` can be written as a new or replaced file: its
// directory exists, it is not a directory, and it is none of `inputs` (so `tern asm x.s -o x.s`
// cannot overwrite its source). Throws tern::Error naming `what` (the option) and the reason.
void check_output_path(const std::string& path, const std::string& what,
                       const std::vector<std::string>& inputs = {});

}  // namespace tern
