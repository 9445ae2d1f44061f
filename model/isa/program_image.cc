#include "isa/program_image.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstring>

#include "common/error.h"
#include "isa/image.h"

namespace tern::isa {
namespace {

constexpr char kImageMagic[8] = {'T', 'E', 'R', 'N', 'I', 'M', 'G', '1'};
constexpr char kProgramMagic[8] = {'T', 'E', 'R', 'N', 'P', 'R', 'G', '1'};
constexpr size_t kMaxName = 256;
constexpr size_t kMaxTensors = 4096;

bool is_identifier(const std::string& s) {
  if (s.empty() || s.size() > kMaxName) return false;
  auto start = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; };
  return start(s[0]) && std::all_of(s.begin(), s.end(), [&](char c) {
           return start(c) || std::isdigit(static_cast<unsigned char>(c));
         });
}

void put(std::vector<uint8_t>& out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(uint8_t(v >> (8 * i)));
}
void put_string(std::vector<uint8_t>& out, const std::string& s) {
  put(out, s.size(), 4);
  out.insert(out.end(), s.begin(), s.end());
}

// Little-endian fields in order; every error says the source and the byte.
class Fields {
 public:
  Fields(const std::vector<uint8_t>& b, const std::string& source) : b_(b), source_(source) {}
  uint64_t take(int bytes, const char* what) {
    if (b_.size() - at_ < size_t(bytes)) fail(fmt::format("truncated in {}", what));
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= uint64_t(b_[at_ + size_t(i)]) << (8 * i);
    at_ += size_t(bytes);
    return v;
  }
  std::string string(const char* what) {
    const uint64_t n = take(4, what);
    if (n > kMaxName) fail(fmt::format("{} of {} bytes (at most {})", what, n, kMaxName));
    if (b_.size() - at_ < n) fail(fmt::format("truncated in {}", what));
    std::string s(b_.begin() + long(at_), b_.begin() + long(at_ + n));
    at_ += n;
    return s;
  }
  std::vector<uint8_t> rest() const { return {b_.begin() + long(at_), b_.end()}; }
  [[noreturn]] void fail(const std::string& why) const {
    throw Error(fmt::format("{}: byte {}: {}", source_, at_, why));
  }

 private:
  const std::vector<uint8_t>& b_;
  const std::string& source_;
  size_t at_ = 8;
};

}  // namespace

bool TensorEntry::operator==(const TensorEntry& o) const {
  return name == o.name && dtype == o.dtype && rows == o.rows && cols == o.cols &&
         address == o.address && output == o.output && trip_max == o.trip_max;
}

uint64_t ProgramImage::data_bytes() const {
  uint64_t end = 0;
  for (const TensorEntry& t : tensors) end = std::max(end, t.address + t.bytes());
  return end;
}

const TensorEntry* ProgramImage::find(const std::string& tensor) const {
  for (const TensorEntry& t : tensors)
    if (t.name == tensor) return &t;
  return nullptr;
}

bool ProgramImage::operator==(const ProgramImage& o) const {
  return name == o.name && program == o.program && tensors == o.tensors && macs == o.macs;
}

void check_image(const ProgramImage& image, const std::string& where) {
  auto fail = [&](const std::string& why) { throw Error(fmt::format("{}: {}", where, why)); };
  const bool printable = std::all_of(image.name.begin(), image.name.end(), [](char c) { return c > ' ' && c < 127; });
  if (image.name.size() > kMaxName || !printable)
    fail(fmt::format("kernel name '{}' is not printable text without spaces of at most {} bytes", image.name, kMaxName));
  if (image.tensors.size() > kMaxTensors)
    fail(fmt::format("{} tensors (at most {})", image.tensors.size(), kMaxTensors));
  for (size_t i = 0; i < image.tensors.size(); ++i) {
    const TensorEntry& t = image.tensors[i];
    const std::string what = fmt::format("tensor '{}'", t.name);
    if (!is_identifier(t.name)) fail(fmt::format("tensor {}: name '{}' is no identifier", i, t.name));
    for (size_t j = 0; j < i; ++j)
      if (image.tensors[j].name == t.name) fail(fmt::format("{} is given twice", what));
    if (uint8_t(t.dtype) >= kNumDtypes) fail(fmt::format("{}: dtype code {}", what, int(t.dtype)));
    if (t.rows == 0 || t.cols == 0) fail(fmt::format("{}: a {} x {} shape", what, t.rows, t.cols));
    if (t.address % kImageAlign != 0)
      fail(fmt::format("{}: address 0x{:x} is not on a {}-byte boundary", what, t.address, kImageAlign));
    if (t.address >= kHbmMaxBytes || t.bytes() > kHbmMaxBytes - t.address)
      fail(fmt::format("{}: 0x{:x} + {} bytes ends past the {} GiB of HBM a core addresses", what,
                       t.address, t.bytes(), kHbmMaxBytes >> 30));
    if (t.trip_max != 0 && (t.output || t.dtype != Dtype::kInt32 || t.rows != 1 || t.cols != 1))
      fail(fmt::format("{}: a trip count is an int32 1 x 1 input", what));
    for (size_t j = 0; j < i; ++j) {
      const TensorEntry& u = image.tensors[j];
      if (t.address < u.address + u.bytes() && u.address < t.address + t.bytes())
        fail(fmt::format("{} (0x{:x}, {} bytes) overlaps tensor '{}' (0x{:x}, {} bytes)", what,
                         t.address, t.bytes(), u.name, u.address, u.bytes()));
    }
  }
}

std::vector<uint8_t> image_to_binary(const ProgramImage& image) {
  check_image(image, "program image");
  std::vector<uint8_t> out(kImageMagic, kImageMagic + 8);
  put_string(out, image.name);
  put(out, image.tensors.size(), 4);
  for (const TensorEntry& t : image.tensors) {
    put_string(out, t.name);
    put(out, uint8_t(t.dtype), 1);
    put(out, t.output ? 1 : 0, 1);
    put(out, 0, 2);
    put(out, t.rows, 4);
    put(out, t.cols, 4);
    put(out, t.address, 8);
    put(out, t.trip_max, 4);
  }
  put(out, image.macs, 8);
  const std::vector<uint8_t> program = to_binary(image.program);
  out.insert(out.end(), program.begin(), program.end());
  return out;
}

ProgramImage image_from_binary(const std::vector<uint8_t>& bytes, const std::string& source) {
  ProgramImage image;
  if (bytes.size() >= 8 && std::memcmp(bytes.data(), kProgramMagic, 8) == 0) {
    image.program = from_binary(bytes, source);
    return image;
  }
  if (bytes.size() < 8 || std::memcmp(bytes.data(), kImageMagic, 8) != 0)
    throw Error(fmt::format("{}: not a tern program image (no TERNIMG1 or TERNPRG1 magic)", source));
  Fields f(bytes, source);
  image.name = f.string("the kernel name");
  const uint64_t count = f.take(4, "the tensor count");
  if (count > kMaxTensors) f.fail(fmt::format("{} tensors (at most {})", count, kMaxTensors));
  for (uint64_t i = 0; i < count; ++i) {
    TensorEntry t;
    t.name = f.string("a tensor name");
    const uint64_t dtype = f.take(1, "a tensor's dtype");
    if (dtype >= uint64_t(kNumDtypes)) f.fail(fmt::format("tensor '{}': dtype code {}", t.name, dtype));
    t.dtype = Dtype(dtype);
    const uint64_t flags = f.take(1, "a tensor's flags");
    if (flags > 1) f.fail(fmt::format("tensor '{}': flags 0x{:x} (only bit 0, output, is defined)", t.name, flags));
    t.output = flags == 1;
    if (f.take(2, "a tensor's reserved bytes") != 0) f.fail(fmt::format("tensor '{}': reserved bytes set", t.name));
    t.rows = uint32_t(f.take(4, "a tensor's rows"));
    t.cols = uint32_t(f.take(4, "a tensor's cols"));
    t.address = f.take(8, "a tensor's address");
    t.trip_max = uint32_t(f.take(4, "a tensor's trip bound"));
    image.tensors.push_back(std::move(t));
  }
  image.macs = f.take(8, "the MAC count");
  check_image(image, source);
  image.program = from_binary(f.rest(), source + " (its program)");
  return image;
}

}  // namespace tern::isa
