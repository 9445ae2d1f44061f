// Self-describing program images (model/isa/program_image.h): the tensor table and MAC count
// survive the binary form and the assembly text; every malformed image or directive is an
// error naming the place; a kernel's image runs on the golden model like the kernel itself.
#include <gtest/gtest.h>

#include "common/config.h"
#include "common/error.h"
#include "isa/asm.h"
#include "isa/program_image.h"
#include "kernels/kernels.h"
#include "runtime/device.h"

namespace tern::isa {
namespace {

const char* kText = R"(.kernel scale
.tensor x input fp32 rows=4 cols=16 addr=0x0
.tensor n input int32 rows=1 cols=1 addr=0x1000 max=8
.tensor y output bf16 rows=4 cols=16 addr=0x2000
.macs 1234

.seq sp
  halt
)";

void expect_error(const std::function<void()>& fn, const std::string& words) {
  try {
    fn();
    ADD_FAILURE() << "accepted; wanted an error with: " << words;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what() << "\n(wanted: " << words << ")";
  }
}

TEST(ProgramImage, TableAndMacsSurviveBinaryAndText) {
  const ProgramImage img = assemble_image(kText, "t.s");
  EXPECT_EQ(img.name, "scale");
  ASSERT_EQ(img.tensors.size(), 3u);
  EXPECT_EQ(img.tensors[1].trip_max, 8u);
  EXPECT_TRUE(img.tensors[2].output);
  EXPECT_EQ(img.tensors[2].dtype, Dtype::kBf16);
  EXPECT_EQ(img.macs, 1234u);
  EXPECT_EQ(img.data_bytes(), 0x2000u + 4 * 16 * 2);
  EXPECT_EQ(disassemble_image(img), kText) << "the text above is canonical";
  const std::vector<uint8_t> bin = image_to_binary(img);
  EXPECT_EQ(std::string(bin.begin(), bin.begin() + 8), "TERNIMG1");
  EXPECT_EQ(image_from_binary(bin, "t.tbin"), img);
  // A bare program reads as an image without a table.
  const ProgramImage bare = image_from_binary(to_binary(img.program), "p.tbin");
  EXPECT_TRUE(bare.tensors.empty());
  EXPECT_EQ(bare.program, img.program);
}

TEST(ProgramImage, EveryTruncationAndBadFieldIsAnError) {
  const std::vector<uint8_t> bin = image_to_binary(assemble_image(kText, "t.s"));
  for (size_t n = 0; n < bin.size(); ++n)
    EXPECT_THROW(image_from_binary(std::vector<uint8_t>(bin.begin(), bin.begin() + long(n)), "t.tbin"), Error)
        << "a prefix of " << n << " bytes was accepted";
  // Byte offsets: magic 8, name length 4 + "scale" 5, count 4, then x's entry: name 4 + 1,
  // dtype at 26, flags 27, reserved 28-29.
  auto with = [&](size_t at, uint8_t v) {
    std::vector<uint8_t> b = bin;
    b.at(at) = v;
    return b;
  };
  expect_error([&] { image_from_binary(with(26, 9), "t.tbin"); }, "t.tbin: byte 27: tensor 'x': dtype code 9");
  expect_error([&] { image_from_binary(with(27, 2), "t.tbin"); }, "flags 0x2");
  expect_error([&] { image_from_binary(with(28, 1), "t.tbin"); }, "reserved bytes set");
  expect_error([&] { image_from_binary(with(18, 0xFF), "t.tbin"); }, "65283 tensors (at most 4096)");
  expect_error([&] { image_from_binary(with(0, 'X'), "t.tbin"); }, "no TERNIMG1 or TERNPRG1 magic");
  std::vector<uint8_t> trailing = bin;
  trailing.push_back(0);
  expect_error([&] { image_from_binary(trailing, "t.tbin"); }, "trailing bytes");
}

TEST(ProgramImage, TablesNoBackendCouldRunAreRefused) {
  const ProgramImage good = assemble_image(kText, "t.s");
  auto bad = [&](auto edit, const std::string& words) {
    ProgramImage img = good;
    edit(img);
    expect_error([&] { check_image(img, "img"); }, words);
    expect_error([&] { image_to_binary(img); }, words);
  };
  bad([](ProgramImage& i) { i.tensors[1].name = "x"; }, "tensor 'x' is given twice");
  bad([](ProgramImage& i) { i.tensors[1].name = "9a"; }, "name '9a' is no identifier");
  bad([](ProgramImage& i) { i.tensors[0].rows = 0; }, "a 0 x 16 shape");
  bad([](ProgramImage& i) { i.tensors[0].address = 0x800; }, "not on a 4096-byte boundary");
  bad([](ProgramImage& i) { i.tensors[0].cols = 1024; }, "overlaps tensor 'x'");
  bad([](ProgramImage& i) {
        i.tensors[2].address = 0xFFFFF000u;
        i.tensors[2].cols = 4096;
      }, "past the 4 GiB");
  bad([](ProgramImage& i) { i.tensors[0].trip_max = 3; }, "a trip count is an int32 1 x 1 input");
  bad([](ProgramImage& i) { i.name = "two words"; }, "not printable text without spaces");
}

TEST(ProgramImage, DirectiveErrorsNameLineAndColumn) {
  const std::pair<const char*, const char*> cases[] = {
      {".tensor x input fp32 rows=1 cols=1\n", "t.s:1:35: missing operand 'addr='"},
      {".tensor x inout fp32 rows=1 cols=1 addr=0\n", "t.s:1:11: 'inout': a tensor is an input or an output"},
      {".tensor x input fp31 rows=1 cols=1 addr=0\n", "t.s:1:17: unknown dtype 'fp31'"},
      {".tensor x input fp32 rows=1 cols=1 addr=0 size=3\n", "unknown item 'size'"},
      {".tensor x input fp32 rows=1 rows=2 cols=1 addr=0\n", "duplicate item 'rows'"},
      {".tensor x input fp32 rows=-1 cols=1 addr=0\n", "rows=-1 is out of range"},
      {".tensor x input fp32 rows=1 cols=1 addr=0\n.tensor x output fp32 rows=1 cols=1 addr=0x1000\n",
       "t.s:2:9: tensor 'x' declared twice"},
      {".tensor x input fp32 rows=1 cols=1 addr=0x1001\n", "t.s:1:9: this tensor: tensor 'x': address 0x1001"},
      {".kernel a\n.kernel b\n", "t.s:2:1: a second .kernel"},
      {".macs -4\n", "a MAC count of -4"},
      {".macs 1\n.macs 2\n", "a second .macs"},
      {".tensors\n", "unknown directive '.tensors' (.seq, .desc, .kernel, .tensor, .macs)"},
  };
  for (const auto& [text, words] : cases) {
    const std::string t = text;
    expect_error([&] { assemble_image(t, "t.s"); }, words);
  }
}

// A reference kernel's image, written and read back, runs on the golden model to the same
// outputs and statistics as the kernel object itself.
TEST(ProgramImage, AKernelsImageRunsLikeTheKernel) {
  const CoreConfig cfg = load_config(std::string(TERN_CONFIG_DIR) + "/tiny.yaml");
  const kernels::RefKernel& ref = kernels::find_kernel("softmax");
  const kernels::Shape s = ref.default_shape(cfg);
  kernel::Kernel k(cfg, ref.name);
  ref.build(k, s);
  const Program program = k.finish();
  const kernels::Tensors inputs = ref.inputs(s, 3);
  const DeviceRun direct = Device(cfg).run(k, program, inputs);
  const ProgramImage img = image_from_binary(image_to_binary(k.image(program)), "softmax.tbin");
  EXPECT_EQ(img.name, "softmax");
  const DeviceRun again = Device(cfg).run(img, inputs);
  EXPECT_EQ(again.outputs, direct.outputs);
  EXPECT_EQ(again.stats.cycles, direct.stats.cycles);
  EXPECT_TRUE(ref.check(s, inputs, again.outputs).ok());
  expect_error([&] { Device(cfg).run(img, {}); }, "kernel 'softmax': input 'x' was not given");
}

}  // namespace
}  // namespace tern::isa
