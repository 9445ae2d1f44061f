// Host tensors as .npy files (sw/host/npy.h): every dtype round-trips, NumPy itself (Debian's
// python3-numpy) loads what we write and writes what we read, and every malformed file is an
// error that names the file and the problem.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>

#include "common/error.h"
#include "host/npy.h"
#include "host/values.h"
#include "test_util.h"

namespace tern::host {
namespace {

constexpr Dtype kDtypes[] = {Dtype::kFp32, Dtype::kTf32, Dtype::kBf16, Dtype::kFp16, Dtype::kFp8E4M3,
                             Dtype::kFp8E5M2, Dtype::kInt8, Dtype::kUint8, Dtype::kInt32};

HostTensor random_tensor(Dtype t, std::vector<uint64_t> shape, std::mt19937_64& rng) {
  HostTensor h{t, std::move(shape), {}};
  const int w = dtype_bits(t);
  for (uint64_t i = 0; i < h.elements(); ++i) {
    uint32_t v = uint32_t(rng());
    if (w < 32) v &= (1u << w) - 1;
    if (t == Dtype::kTf32) v &= ~0x1FFFu;
    h.bits.push_back(v);
  }
  return h;
}

std::string run_python(const std::string& script) {
  const std::string path = ::testing::TempDir() + "/npy_test.py";
  std::ofstream(path) << script;
  std::string out;
  FILE* p = popen((std::string(TERN_NUMPY_PYTHON) + " " + path + " 2>&1").c_str(), "r");
  if (!p) throw Error("popen failed");
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  const int status = pclose(p);
  if (status != 0) throw Error(fmt::format("python failed ({}; scripts/bootstrap.sh installs python3-numpy):\n{}", status, out));
  return out;
}

std::string hex_bytes(const HostTensor& t) {
  std::string s;
  for (uint32_t v : t.bits)
    for (int b = 0; b < dtype_bits(t.dtype) / 8; ++b) s += fmt::format("{:02x}", (v >> (8 * b)) & 0xFF);
  return s;
}

TEST(Npy, EveryDtypeRoundTrips) {
  std::mt19937_64 rng = test::make_rng();
  for (Dtype t : kDtypes) {
    for (std::vector<uint64_t> shape : {std::vector<uint64_t>{}, {7}, {3, 5}, {2, 0, 4}, {2, 3, 4, 5}}) {
      const HostTensor h = random_tensor(t, shape, rng);
      const HostTensor back = parse_npy(format_npy(h), "x.npy");
      EXPECT_EQ(back.dtype, t) << dtype_name(t);
      EXPECT_EQ(back.shape, h.shape) << dtype_name(t);
      EXPECT_EQ(back.bits, h.bits) << dtype_name(t);
      EXPECT_EQ(format_npy(h).size() % 64, h.bits.size() * (dtype_bits(t) / 8) % 64)
          << "the header is padded to 64 bytes";
    }
  }
}

// NumPy reads every file we write as the dtype, shape and bytes we meant.
TEST(Npy, NumpyLoadsWhatWeWrite) {
  std::mt19937_64 rng = test::make_rng();
  std::string script = "import numpy as np\n";
  std::string want;
  for (Dtype t : kDtypes) {
    const HostTensor h = random_tensor(t, {2, 3}, rng);
    const std::string path = ::testing::TempDir() + fmt::format("/w_{}.npy", dtype_name(t));
    write_npy(path, h);
    script += fmt::format("a = np.load('{}')\n", path);
    script += "print(a.dtype.str if a.dtype.names is None else a.dtype.names[0] + ':' + a.dtype[0].str,"
              " a.shape, a.tobytes().hex())\n";
    const char* numpy_type[] = {"<f4", "tf32:<u4", "bf16:<u2", "<f2", "fp8e4m3:|u1", "fp8e5m2:|u1", "|i1", "|u1", "<i4"};
    want += fmt::format("{} (2, 3) {}\n", numpy_type[int(t)], hex_bytes(h));
  }
  EXPECT_EQ(run_python(script), want);
}

// We read what np.save writes: values from formulas, not from our writer.
TEST(Npy, WeReadWhatNumpyWrites) {
  const std::string dir = ::testing::TempDir();
  run_python(fmt::format(R"(import numpy as np
d = '{}'
np.save(d + '/n_f4.npy', np.arange(12, dtype='<f4').reshape(3, 4) / 4)
np.save(d + '/n_f2.npy', np.array([1.5, -2.0], dtype='<f2'))
np.save(d + '/n_i1.npy', np.array([-1, 5, -128], dtype='i1'))
np.save(d + '/n_i4.npy', np.array([[-7]], dtype='<i4'))
np.save(d + '/n_u1.npy', np.array(200, dtype='u1'))
b = np.zeros((2,), dtype=[('bf16', '<u2')]); b['bf16'] = [0x3F80, 0xC000]
np.save(d + '/n_bf16.npy', b)
np.save(d + '/n_fortran.npy', np.asfortranarray(np.ones((2, 3), dtype='<f4')))
np.save(d + '/n_big.npy', np.ones(3, dtype='>f4'))
np.save(d + '/n_f8.npy', np.ones(3, dtype='<f8'))
np.save(d + '/n_two.npy', np.zeros(2, dtype=[('bf16', '<u2'), ('x', '<u2')]))
)", dir));
  const HostTensor f4 = read_npy(dir + "/n_f4.npy");
  EXPECT_EQ(f4.dtype, Dtype::kFp32);
  EXPECT_EQ(f4.shape, (std::vector<uint64_t>{3, 4}));
  ASSERT_EQ(f4.bits.size(), 12u);
  EXPECT_EQ(f4.bits[1], 0x3E800000u);  // 0.25
  EXPECT_EQ(f4.bits[11], 0x40300000u);  // 2.75
  EXPECT_EQ(read_npy(dir + "/n_f2.npy").bits, (std::vector<uint32_t>{0x3E00, 0xC000}));
  EXPECT_EQ(read_npy(dir + "/n_i1.npy").bits, (std::vector<uint32_t>{0xFF, 0x05, 0x80}));
  EXPECT_EQ(read_npy(dir + "/n_i4.npy").bits, (std::vector<uint32_t>{0xFFFFFFF9u}));
  const HostTensor u1 = read_npy(dir + "/n_u1.npy");
  EXPECT_TRUE(u1.shape.empty());
  EXPECT_EQ(u1.bits, (std::vector<uint32_t>{200}));
  const HostTensor bf = read_npy(dir + "/n_bf16.npy");
  EXPECT_EQ(bf.dtype, Dtype::kBf16);
  EXPECT_EQ(bf.bits, (std::vector<uint32_t>{0x3F80, 0xC000}));
  for (const auto& [file, words] : {std::pair{"n_fortran", "Fortran-order"}, {"n_big", "'>f4' is none of tern's"},
                                    {"n_f8", "'<f8' is none"}, {"n_two", "more than one field"}}) {
    const std::string path = dir + "/" + file + ".npy";
    try {
      read_npy(path);
      ADD_FAILURE() << file << " was accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  }
}

std::vector<uint8_t> with_header(const std::string& header, size_t data_bytes, int major = 1) {
  std::vector<uint8_t> b = {0x93, 'N', 'U', 'M', 'P', 'Y', uint8_t(major), 0};
  const size_t n = header.size();
  b.push_back(uint8_t(n));
  b.push_back(uint8_t(n >> 8));
  if (major > 1) b.insert(b.end(), {uint8_t(n >> 16), uint8_t(n >> 24)});
  b.insert(b.end(), header.begin(), header.end());
  b.insert(b.end(), data_bytes, 0);
  return b;
}

TEST(Npy, MalformedFilesAreErrorsNamingTheProblem) {
  const std::string ok = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
  EXPECT_EQ(parse_npy(with_header(ok, 8), "f.npy").bits.size(), 2u);
  EXPECT_EQ(parse_npy(with_header(ok, 8, 2), "f.npy").bits.size(), 2u);
  const std::vector<std::pair<std::vector<uint8_t>, std::string>> cases = {
      {{}, "no \\x93NUMPY magic"},
      {{'P', 'K', 3, 4, 0, 0, 0, 0, 0, 0}, "no \\x93NUMPY magic"},
      {with_header(ok, 8, 4), "version 4.0"},
      {with_header(ok, 4), "needs 8 bytes of data, the file has 4"},
      {with_header(ok, 12), "needs 8 bytes of data, the file has 12"},
      {with_header("{'descr': '<f4', 'fortran_order': False}", 0), "'shape' is missing"},
      {with_header("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': ()}", 4), "given twice"},
      {with_header("{'descr': '<f4', 'fortran_order': False, 'shape': (), 'x': 1}", 4), "unknown key 'x'"},
      {with_header("{'descr': '<f4', 'fortran_order': Maybe, 'shape': ()}", 4), "True or False"},
      {with_header("{'descr': '<f4', 'fortran_order': False, 'shape': (-1,)}", 4), "whole number"},
      {with_header("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,)}", 4), "past 2^64"},
      {with_header("{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296)}", 4),
       "past 2^64 elements"},
      {with_header("{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967295)}", 4),
       "2^64 bytes of data or more, the file has 4"},
      {with_header("{'descr': '<f4', 'fortran_order': False, 'shape': () } junk", 4), "after the header"},
      {with_header("{'descr': '<f4", 4), "unterminated string"},
      {with_header("{'descr': [('tf32', '<u4')], 'fortran_order': False, 'shape': (1,)}", 0)
           , "needs 4 bytes"},
  };
  for (const auto& [bytes, words] : cases) {
    try {
      parse_npy(bytes, "f.npy");
      ADD_FAILURE() << "accepted, wanted: " << words;
    } catch (const Error& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind("f.npy: ", 0), 0u) << what;
      EXPECT_NE(what.find(words), std::string::npos) << what << " (wanted: " << words << ")";
    }
  }
  // A tf32 pattern with its low bits set, a header length past the file.
  std::vector<uint8_t> tf = with_header("{'descr': [('tf32', '<u4')], 'fortran_order': False, 'shape': (1,)}", 0);
  tf.insert(tf.end(), {1, 0, 0x80, 0x3F});
  EXPECT_THROW(
      {
        try {
          parse_npy(tf, "f.npy");
        } catch (const Error& e) {
          EXPECT_NE(std::string(e.what()).find("element 0 is 0x3F800001, no tf32 pattern"), std::string::npos) << e.what();
          throw;
        }
      },
      Error);
  std::vector<uint8_t> long_header = with_header(ok, 0);
  long_header[8] = 0xFF;
  long_header[9] = 0xFF;
  EXPECT_THROW(parse_npy(long_header, "f.npy"), Error);
}

TEST(Npy, WritingChecksTheTensor) {
  EXPECT_THROW(write_npy(::testing::TempDir() + "/bad.npy", HostTensor{Dtype::kBf16, {3}, {1, 2}}), Error);
  EXPECT_THROW(write_npy(::testing::TempDir() + "/bad.npy", HostTensor{Dtype::kBf16, {1}, {0x10000}}), Error);
  EXPECT_THROW(write_npy("/nonexistent/x.npy", HostTensor{Dtype::kFp32, {1}, {0}}), Error);
  EXPECT_THROW(read_npy("/nonexistent/x.npy"), Error);
}

// Host floats and patterns (host/values.h), against codes from the formats' definitions: bf16
// keeps 7 fraction bits, so 1 + 2^-8 is a tie that goes to the even 0x3F80 and 1 + 3 * 2^-8 one
// that goes to 0x3F82; e4m3's bias is 7 (1.0 = 0 0111 000) and 448 its largest (0 1111 110).
TEST(HostValues, FloatsAreRoundedByTernsNumerics) {
  EXPECT_EQ(encode_floats(Dtype::kBf16, {1.0f, -2.0f, 1 + 0x1p-8f, 1 + 3 * 0x1p-8f}),
            (std::vector<uint32_t>{0x3F80, 0xC000, 0x3F80, 0x3F82}));
  EXPECT_EQ(encode_floats(Dtype::kFp8E4M3, {1.0f, 448.0f, -0.5f}), (std::vector<uint32_t>{0x38, 0x7E, 0xB0}));
  EXPECT_EQ(encode_float(Dtype::kFp32, 0.1f), 0x3DCCCCCDu);
  EXPECT_EQ(decode_floats(Dtype::kBf16, {0x3F81, 0x0001}), (std::vector<float>{1 + 0x1p-7f, 0x1p-133f}));
  EXPECT_EQ(decode_float(Dtype::kFp16, 0x3C00), 1.0f);
}

// The message of the tern::Error `fn` throws ("" when it throws none).
std::string error_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(HostValues, PatternsFitTheirDtype) {
  EXPECT_TRUE(is_pattern(Dtype::kBf16, 0xFFFF));
  EXPECT_FALSE(is_pattern(Dtype::kBf16, 0x10000));
  EXPECT_TRUE(is_pattern(Dtype::kFp32, 0xFFFFFFFF));
  EXPECT_FALSE(is_pattern(Dtype::kFp32, 0x100000000));
  EXPECT_TRUE(is_pattern(Dtype::kTf32, 0x3F802000));   // the lowest bit a tf32 carries
  EXPECT_FALSE(is_pattern(Dtype::kTf32, 0x3F801000));  // one below it
  EXPECT_FALSE(is_pattern(Dtype::kFp8E4M3, 0x100));
}

TEST(HostValues, MisuseIsAnError) {
  EXPECT_NE(error_of([] { encode_float(Dtype::kInt8, 1.0f); }).find("encode_float: int8 is an integer dtype"), std::string::npos);
  EXPECT_NE(error_of([] { decode_float(Dtype::kInt32, 1); }).find("decode_float: int32 is an integer dtype"), std::string::npos);
  EXPECT_NE(error_of([] { decode_float(Dtype::kBf16, 0x10000); }).find("0x10000 is no bf16 pattern"), std::string::npos);
}

}  // namespace
}  // namespace tern::host

