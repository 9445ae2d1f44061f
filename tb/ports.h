// Access to the wide ports of verilated models: a port of up to 64 bits is a plain integer,
// a wider one a VlWide array of 32-bit words.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace tern::tb {

namespace detail {
// Sets element `i` (32 bits) of a port that is a plain integer (up to 64 bits) or a VlWide.
template <typename T>
void set_word(T& port, size_t i, uint32_t value) {
  if constexpr (std::is_integral_v<T>) {
    port = static_cast<T>((static_cast<uint64_t>(port) & ~(uint64_t{0xFFFFFFFFu} << (32 * i))) |
                          (static_cast<uint64_t>(value) << (32 * i)));
  } else {
    port[i] = value;
  }
}
template <typename T>
uint32_t get_word(const T& port, size_t i) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<uint32_t>(static_cast<uint64_t>(port) >> (32 * i));
  } else {
    return port[i];
  }
}
// Sets the low `bits` bits of a mask port to all ones.
template <typename T>
void set_ones(T& port, uint32_t bits) {
  if constexpr (std::is_integral_v<T>) {
    port = bits >= 8 * sizeof(T) ? static_cast<T>(~T{0}) : static_cast<T>((T{1} << bits) - 1);
  } else {
    for (uint32_t w = 0; w * 32 < bits; ++w) port[w] = bits - w * 32 >= 32 ? ~0u : (1u << (bits - w * 32)) - 1;
  }
}
}  // namespace detail

}  // namespace tern::tb
