// The dtype codes are defined in C++ (model/numerics/dtype.h) and in SystemVerilog
// (rtl/common/tern_pkg.sv): this test reads the SV package and checks the two agree.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "numerics/dtype.h"
#include "pe/pe_types.h"

namespace tern {
namespace {

TEST(RtlPackage, DtypeCodesMatchModel) {
  std::ifstream in(std::string(TERN_RTL_DIR) + "/common/tern_pkg.sv");
  ASSERT_TRUE(in) << "cannot read tern_pkg.sv";
  std::stringstream text;
  text << in.rdbuf();
  const std::string sv = text.str();
  const std::regex re(R"(localparam\s+logic\s*\[3:0\]\s+Dt(\w+)\s*=\s*4'd(\d+)\s*;)");
  std::map<std::string, int> sv_codes;
  for (auto it = std::sregex_iterator(sv.begin(), sv.end(), re); it != std::sregex_iterator(); ++it) {
    std::string name = (*it)[1];
    for (auto& c : name) c = static_cast<char>(std::tolower(c));
    sv_codes[name] = std::stoi((*it)[2]);
  }
  ASSERT_EQ(sv_codes.size(), static_cast<size_t>(kNumDtypes));
  for (int code = 0; code < kNumDtypes; ++code) {
    const std::string name = dtype_name(static_cast<Dtype>(code));
    ASSERT_TRUE(sv_codes.count(name)) << "tern_pkg.sv lacks Dt" << name;
    EXPECT_EQ(sv_codes[name], code) << name;
  }
}

}  // namespace
}  // namespace tern

namespace tern {
namespace {

// localparam logic [W:0] <prefix><Name> = W'd<value>; -> {Name: value}
std::map<std::string, int> sv_codes(const std::string& file, const std::string& prefix) {
  std::ifstream in(std::string(TERN_RTL_DIR) + "/" + file);
  std::stringstream text;
  text << in.rdbuf();
  const std::string sv = text.str();
  const std::regex re("localparam\\s+logic\\s*\\[\\d+:0\\]\\s+" + prefix + "(\\w+)\\s*=\\s*\\d+'d(\\d+)\\s*;");
  std::map<std::string, int> out;
  for (auto it = std::sregex_iterator(sv.begin(), sv.end(), re); it != std::sregex_iterator(); ++it) {
    out[(*it)[1]] = std::stoi((*it)[2]);
  }
  return out;
}

TEST(RtlPackage, PeOpcodesAndErrorsMatchModel) {
  const auto ops = sv_codes("pe/tern_pe_pkg.sv", "PeOp");
  EXPECT_EQ(ops.size(), 4u);
  EXPECT_EQ(ops.at("LoadStationary"), static_cast<int>(PeOp::kLoadStationary));
  EXPECT_EQ(ops.at("MultiplyMoving"), static_cast<int>(PeOp::kMultiplyMoving));
  EXPECT_EQ(ops.at("Transpose"), static_cast<int>(PeOp::kTranspose));
  EXPECT_EQ(ops.at("Reserved"), static_cast<int>(PeOp::kReserved));
  const auto errs = sv_codes("pe/tern_pe_pkg.sv", "PeErr");
  const std::map<std::string, PeError> want = {
      {"None", PeError::kNone}, {"Opcode", PeError::kOpcode}, {"K", PeError::kK},
      {"M", PeError::kM}, {"N", PeError::kN}, {"Bank", PeError::kBank},
      {"Dtype", PeError::kDtype}, {"NoStationary", PeError::kNoStationary}};
  EXPECT_EQ(errs.size(), want.size());
  for (const auto& [name, code] : want) {
    ASSERT_TRUE(errs.count(name)) << "tern_pe_pkg.sv lacks PeErr" << name;
    EXPECT_EQ(errs.at(name), static_cast<int>(code)) << name;
  }
}

}  // namespace
}  // namespace tern
