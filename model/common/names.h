// Names shared by the generators of SystemVerilog packages and their tests.
#pragma once

#include <cctype>
#include <string>

namespace tern {

// "tensor_scalar_reduce" -> "TensorScalarReduce": the SV parameter style of a C++ name.
inline std::string upper_camel(const std::string& snake) {
  std::string out;
  bool up = true;
  for (char ch : snake) {
    if (ch == '_') {
      up = true;
      continue;
    }
    out += up ? static_cast<char>(std::toupper(static_cast<unsigned char>(ch))) : ch;
    up = false;
  }
  return out;
}

}  // namespace tern
