// tern::Error: the one exception type of the project. It carries its context
// (file, line, what was being done) in its message so the tool edge can print it as is.
#pragma once

#include <stdexcept>
#include <string>

namespace tern {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace tern
