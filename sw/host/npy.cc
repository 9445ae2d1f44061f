#include "npy.h"

#include <fmt/format.h>

#include <array>
#include <fstream>
#include <iterator>
#include <limits>
#include <optional>

#include "common/error.h"
#include "host/values.h"

namespace tern::host {
namespace {

constexpr uint8_t kMagic[] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
constexpr size_t kMagicBytes = sizeof kMagic;
constexpr size_t kMaxHeaderBytes = 1 << 20;  // NumPy's own limit is 10,000 bytes unless told

// How a dtype is stored: the element type's descr and width, and for the dtypes NumPy lacks
// the structured field naming them.
struct Storage {
  const char* type;   // "<f4", "|u1", ...
  bool field;         // stored as [('<dtype name>', type)]
};

Storage storage(Dtype t) {
  switch (t) {
    case Dtype::kFp32: return {"<f4", false};
    case Dtype::kFp16: return {"<f2", false};
    case Dtype::kInt8: return {"|i1", false};
    case Dtype::kUint8: return {"|u1", false};
    case Dtype::kInt32: return {"<i4", false};
    case Dtype::kBf16: return {"<u2", true};
    case Dtype::kTf32: return {"<u4", true};
    case Dtype::kFp8E4M3:
    case Dtype::kFp8E5M2: return {"|u1", true};
  }
  throw Error(fmt::format("npy: no storage for dtype code {}", int(t)));
}

constexpr std::array<Dtype, kNumDtypes> kAllDtypes = {
    Dtype::kFp32, Dtype::kTf32, Dtype::kBf16, Dtype::kFp16, Dtype::kFp8E4M3,
    Dtype::kFp8E5M2, Dtype::kInt8, Dtype::kUint8, Dtype::kInt32};

// The header's Python dict literal: {'descr': ..., 'fortran_order': ..., 'shape': (...), }.
class HeaderParser {
 public:
  HeaderParser(std::string text, std::string where) : s_(std::move(text)), where_(std::move(where)) {}

  struct Header {
    std::string descr;  // the descr's text in npy_descr's normal form
    bool fortran = false;
    std::vector<uint64_t> shape;
  };

  Header parse() {
    Header h;
    bool seen[3] = {false, false, false};
    expect('{');
    while (!take('}')) {
      const std::string key = string_literal();
      expect(':');
      int k = -1;
      if (key == "descr") {
        k = 0;
        h.descr = descr();
      } else if (key == "fortran_order") {
        k = 1;
        h.fortran = boolean();
      } else if (key == "shape") {
        k = 2;
        h.shape = shape();
      } else {
        fail(fmt::format("unknown key '{}' (an .npy header has descr, fortran_order, shape)", key));
      }
      if (seen[k]) fail(fmt::format("key '{}' given twice", key));
      seen[k] = true;
      if (!take(',')) {
        expect('}');
        break;
      }
    }
    skip_space();
    if (i_ != s_.size()) fail("text after the header's dict");
    const char* names[] = {"descr", "fortran_order", "shape"};
    for (int k = 0; k < 3; ++k)
      if (!seen[k]) fail(fmt::format("key '{}' is missing", names[k]));
    return h;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw Error(fmt::format("{}: .npy header, column {}: {}", where_, i_ + 1, why));
  }
  void skip_space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t')) ++i_;
  }
  bool take(char c) {
    skip_space();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!take(c)) fail(fmt::format("expected '{}'", c));
  }
  std::string string_literal() {
    skip_space();
    if (i_ >= s_.size() || (s_[i_] != '\'' && s_[i_] != '"')) fail("expected a quoted string");
    const char quote = s_[i_++];
    const size_t end = s_.find(quote, i_);
    if (end == std::string::npos) fail("unterminated string");
    std::string v = s_.substr(i_, end - i_);
    if (v.find('\\') != std::string::npos) fail("escapes in a header string");
    i_ = end + 1;
    return v;
  }
  bool boolean() {
    skip_space();
    for (const auto& [word, value] : {std::pair{"True", true}, std::pair{"False", false}}) {
      const std::string w = word;
      if (s_.compare(i_, w.size(), w) == 0) {
        i_ += w.size();
        return value;
      }
    }
    fail("expected True or False");
  }
  uint64_t integer() {
    skip_space();
    const size_t start = i_;
    uint64_t v = 0;
    while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') {
      const uint64_t digit = uint64_t(s_[i_] - '0');
      if (v > (std::numeric_limits<uint64_t>::max() - digit) / 10) fail("a dimension past 2^64");
      v = v * 10 + digit;
      ++i_;
    }
    if (i_ == start) fail("expected a dimension (a whole number)");
    if (i_ < s_.size() && s_[i_] == 'L') ++i_;  // Python 2's long suffix
    return v;
  }
  std::vector<uint64_t> shape() {
    std::vector<uint64_t> dims;
    expect('(');
    while (!take(')')) {
      dims.push_back(integer());
      if (!take(',')) {
        expect(')');
        break;
      }
    }
    return dims;
  }
  // "'<f4'" or "[('bf16', '<u2')]", spaces normalised.
  std::string descr() {
    if (!take('[')) return fmt::format("'{}'", string_literal());
    expect('(');
    const std::string name = string_literal();
    expect(',');
    const std::string type = string_literal();
    expect(')');
    take(',');
    if (!take(']')) fail("a structured descr with more than one field");
    return fmt::format("[('{}', '{}')]", name, type);
  }

  std::string s_;
  std::string where_;
  size_t i_ = 0;
};

uint32_t load_le(const uint8_t* p, int bytes) {
  uint32_t v = 0;
  for (int b = bytes - 1; b >= 0; --b) v = (v << 8) | p[b];
  return v;
}

void check_tensor(const HostTensor& t, const std::string& where) {
  if (t.bits.size() != t.elements()) {
    throw Error(fmt::format("{}: the shape holds {} elements, the tensor {}", where, t.elements(),
                            t.bits.size()));
  }
  const int width = dtype_bits(t.dtype);
  for (size_t i = 0; i < t.bits.size(); ++i) {
    if (is_pattern(t.dtype, t.bits[i])) continue;
    if ((uint64_t(t.bits[i]) >> width) != 0) {
      throw Error(fmt::format("{}: element {} is 0x{:X}, wider than {}'s {} bits", where, i,
                              t.bits[i], dtype_name(t.dtype), width));
    }
    throw Error(fmt::format("{}: element {} is 0x{:08X}, no tf32 pattern (its low 13 bits must "
                            "be zero)", where, i, t.bits[i]));
  }
}

}  // namespace

uint64_t HostTensor::elements() const {
  uint64_t n = 1;
  for (uint64_t d : shape) {
    if (d != 0 && n > std::numeric_limits<uint64_t>::max() / d)
      throw Error(fmt::format("a shape of {} dimensions past 2^64 elements", shape.size()));
    n *= d;
  }
  return n;
}

std::string npy_descr(Dtype t) {
  const Storage s = storage(t);
  return s.field ? fmt::format("[('{}', '{}')]", dtype_name(t), s.type) : fmt::format("'{}'", s.type);
}

HostTensor parse_npy(const std::vector<uint8_t>& bytes, const std::string& where) {
  if (bytes.size() < kMagicBytes + 4 || !std::equal(kMagic, kMagic + kMagicBytes, bytes.begin()))
    throw Error(fmt::format("{}: not an .npy file (no \\x93NUMPY magic)", where));
  const int major = bytes[6];
  if (major < 1 || major > 3)
    throw Error(fmt::format("{}: .npy version {}.{} (1.0, 2.0 and 3.0 are known)", where, major, bytes[7]));
  const size_t len_bytes = major == 1 ? 2 : 4;
  const size_t start = 8 + len_bytes;
  if (bytes.size() < start) throw Error(fmt::format("{}: truncated in the header length", where));
  const size_t header_len = load_le(&bytes[8], int(len_bytes));
  if (header_len > kMaxHeaderBytes || bytes.size() - start < header_len)
    throw Error(fmt::format("{}: a header of {} bytes in a file of {}", where, header_len, bytes.size()));
  const std::string text(bytes.begin() + long(start), bytes.begin() + long(start + header_len));
  const HeaderParser::Header h = HeaderParser(text, where).parse();
  if (h.fortran)
    throw Error(fmt::format("{}: Fortran-order data (save a C-order array: np.ascontiguousarray)", where));

  HostTensor t;
  std::optional<Dtype> found;
  for (Dtype d : kAllDtypes)
    if (npy_descr(d) == h.descr) found = d;
  if (!found) {
    throw Error(fmt::format("{}: dtype {} is none of tern's (fp32 '<f4', fp16 '<f2', int8 '|i1', "
                            "uint8 '|u1', int32 '<i4'; bf16 [('bf16', '<u2')], tf32 [('tf32', "
                            "'<u4')], fp8 [('fp8e4m3', '|u1')] or [('fp8e5m2', '|u1')])",
                            where, h.descr));
  }
  t.dtype = *found;
  t.shape = h.shape;
  const int item = dtype_bits(t.dtype) / 8;
  uint64_t n = 0;
  try {
    n = t.elements();
  } catch (const Error& e) {
    throw Error(fmt::format("{}: {}", where, e.what()));
  }
  const uint64_t data = bytes.size() - start - header_len;
  if (n > std::numeric_limits<uint64_t>::max() / uint64_t(item))
    throw Error(fmt::format("{}: the shape needs 2^64 bytes of data or more, the file has {}", where, data));
  if (data != n * uint64_t(item))
    throw Error(fmt::format("{}: the shape needs {} bytes of data, the file has {}", where, n * item, data));
  t.bits.resize(n);
  const uint8_t* p = bytes.data() + start + header_len;
  for (uint64_t i = 0; i < n; ++i) t.bits[i] = load_le(p + i * uint64_t(item), item);
  check_tensor(t, where);
  return t;
}

std::vector<uint8_t> format_npy(const HostTensor& t) {
  check_tensor(t, "the tensor");
  std::string shape;
  for (uint64_t d : t.shape) shape += fmt::format("{}, ", d);
  if (t.shape.size() > 1) shape.resize(shape.size() - 2);  // (3,) but (3, 4)
  if (t.shape.size() == 1) shape.resize(shape.size() - 1);
  std::string header =
      fmt::format("{{'descr': {}, 'fortran_order': False, 'shape': ({}), }}", npy_descr(t.dtype), shape);
  // Magic, version, length, then the header padded with spaces and a newline to 64 bytes.
  const size_t unpadded = kMagicBytes + 4 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  const int item = dtype_bits(t.dtype) / 8;
  std::vector<uint8_t> out;  // element by element: GCC 12's -Warray-bounds misfires on inserts
  out.reserve(kMagicBytes + 4 + header.size() + t.bits.size() * size_t(item));
  for (uint8_t b : kMagic) out.push_back(b);
  for (uint8_t b : {uint8_t(1), uint8_t(0), uint8_t(header.size() & 0xFF), uint8_t(header.size() >> 8)})
    out.push_back(b);
  for (char c : header) out.push_back(uint8_t(c));
  for (uint32_t v : t.bits)
    for (int b = 0; b < item; ++b) out.push_back(uint8_t(v >> (8 * b)));
  return out;
}

HostTensor read_npy(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(fmt::format("{}: cannot open", path));
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw Error(fmt::format("{}: read error", path));
  return parse_npy(bytes, path);
}

void write_npy(const std::string& path, const HostTensor& t) {
  std::vector<uint8_t> bytes;
  try {
    bytes = format_npy(t);
  } catch (const Error& e) {
    throw Error(fmt::format("{}: {}", path, e.what()));
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw Error(fmt::format("{}: cannot write", path));
  out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  if (!out) throw Error(fmt::format("{}: write error", path));
}

}  // namespace tern::host
