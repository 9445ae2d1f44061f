// Whole-file input and output (bytes, text or binary) for the commands; failures throw tern::Error naming the file.
#pragma once

#include <string>

namespace tern {

// The whole file; a path that is no regular file (a directory, /dev/zero) or holds more than
// 256 MiB is an error naming it.
std::string read_text_file(const std::string& path);
void write_text_file(const std::string& path, const std::string& text);

}  // namespace tern
