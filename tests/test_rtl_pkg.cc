// Codes kept in SystemVerilog packages beside their C++ definitions, checked to agree. (The
// dtype codes of tern_pkg are generated: tests/numerics_gen_test.sh.)
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "act/scalar_engine.h"
#include "pe/pe_types.h"

namespace tern {
namespace {

// Every match of `pattern` (two groups: a name and a decimal value) in an RTL file.
std::map<std::string, int> sv_matches(const std::string& file, const std::string& pattern) {
  std::ifstream in(std::string(TERN_RTL_DIR) + "/" + file);
  std::stringstream text;
  text << in.rdbuf();
  const std::string sv = text.str();
  const std::regex re(pattern);
  std::map<std::string, int> out;
  for (auto it = std::sregex_iterator(sv.begin(), sv.end(), re); it != std::sregex_iterator(); ++it) {
    out[(*it)[1]] = std::stoi((*it)[2]);
  }
  return out;
}

// localparam logic [W:0] <prefix><Name> = W'd<value>; -> {Name: value}
std::map<std::string, int> sv_codes(const std::string& file, const std::string& prefix) {
  return sv_matches(file, "localparam\\s+logic\\s*\\[\\d+:0\\]\\s+" + prefix + "(\\w+)\\s*=\\s*\\d+'d(\\d+)\\s*;");
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

TEST(RtlPackage, PePipelineStepsMatchModel) {
  const auto steps =
      sv_matches("pe/tern_pe_pkg.sv", R"(localparam\s+int\s+unsigned\s+Pe(\w+)Steps\s*=\s*(\d+)\s*;)");
  ASSERT_EQ(steps.size(), 2u) << "tern_pe_pkg.sv: PeProductSteps and PeAccSteps";
  EXPECT_EQ(steps.at("Product"), static_cast<int>(kPeProductSteps));
  EXPECT_EQ(steps.at("Acc"), static_cast<int>(kPeAccSteps));
  const auto psum =
      sv_matches("pe/tern_pe_pkg.sv", R"(localparam\s+int\s+unsigned\s+Psum(\w+)\s*=\s*(\d+)\s*;)");
  ASSERT_EQ(psum.count("AccLatency"), 1u) << "tern_pe_pkg.sv: PsumAccLatency";
  EXPECT_EQ(psum.at("AccLatency"), static_cast<int>(kPsumAccLatency));
}


// FnGeluApprxTanh -> gelu_apprx_tanh
std::string snake(const std::string& camel) {
  std::string out;
  for (char c : camel) {
    if (std::isupper(static_cast<unsigned char>(c)) && !out.empty()) out += '_';
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

TEST(RtlPackage, ActCodesMatchModel) {
  const auto fns = sv_codes("act/tern_act_pkg.sv", "Fn");
  EXPECT_EQ(fns.size(), static_cast<size_t>(act::kNumActFuncs));
  for (const auto& [name, code] : fns) {
    const auto f = act::act_func_from_name(snake(name));
    ASSERT_TRUE(f.has_value()) << "model lacks function " << snake(name);
    EXPECT_EQ(static_cast<int>(*f), code) << name;
  }
  const auto red = sv_codes("act/tern_act_pkg.sv", "Red");
  const std::map<std::string, int> want_red = {
      {"Idle", static_cast<int>(act::ReduceCmd::kIdle)},
      {"Reset", static_cast<int>(act::ReduceCmd::kReset)},
      {"Reduce", static_cast<int>(act::ReduceCmd::kReduce)},
      {"ResetReduce", static_cast<int>(act::ReduceCmd::kResetReduce)},
      {"LoadReduce", static_cast<int>(act::ReduceCmd::kLoadReduce)},
      {"OpAdd", static_cast<int>(act::ReduceOp::kAdd)},
      {"OpMax", static_cast<int>(act::ReduceOp::kMax)}};
  EXPECT_EQ(red, want_red);
  const auto errs = sv_codes("act/tern_act_pkg.sv", "ActErr");
  const std::map<std::string, int> want_err = {
      {"None", static_cast<int>(act::ActError::kNone)},
      {"BadFunc", static_cast<int>(act::ActError::kBadFunc)},
      {"BadDtype", static_cast<int>(act::ActError::kBadDtype)},
      {"BadSize", static_cast<int>(act::ActError::kBadSize)},
      {"BadReduce", static_cast<int>(act::ActError::kBadReduce)}};
  EXPECT_EQ(errs, want_err);
}

}  // namespace
}  // namespace tern
