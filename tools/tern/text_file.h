// Whole-file input and output (bytes, text or binary) for the commands; failures throw tern::Error naming the file.
#pragma once

#include <string>

namespace tern {

std::string read_text_file(const std::string& path);
void write_text_file(const std::string& path, const std::string& text);

}  // namespace tern
