// Codes and constants in the SystemVerilog packages against their C++ definitions: the engines'
// codes are generated (`tern codes sv`) and checked to be; the pipeline constants of tern_pe_pkg
// are checked to agree. (The dtype codes of tern_pkg are generated too:
// tests/numerics_gen_test.sh.)
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "core/engine_codes_gen.h"
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

// The engines' code blocks (tern_dve_pkg, tern_act_pkg, tern_pe_pkg) are what `tern codes sv`
// generates from the golden model's enums.
TEST(RtlPackage, EngineCodeBlocksAreGenerated) {
  const std::map<std::string, std::string> files = {{"tern_dve_pkg", "dve/tern_dve_pkg.sv"},
                                                    {"tern_act_pkg", "act/tern_act_pkg.sv"},
                                                    {"tern_pe_pkg", "pe/tern_pe_pkg.sv"}};
  ASSERT_EQ(files.size(), core::engine_code_packages().size());
  for (const std::string& package : core::engine_code_packages()) {
    const std::string path = std::string(TERN_RTL_DIR) + "/" + files.at(package);
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_EQ(text.str(), core::update_engine_codes(text.str(), path))
        << path << " drifted from the model's codes: run `tern codes sv --update " << path << "`";
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


}  // namespace
}  // namespace tern
