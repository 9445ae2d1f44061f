// The dtype codes are defined in C++ (model/numerics/dtype.h) and in SystemVerilog
// (rtl/common/tern_pkg.sv): this test reads the SV package and checks the two agree.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "numerics/dtype.h"

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
