// Codes and constants in the SystemVerilog packages against their C++ definitions: the engines'
// codes and the Tensor Engine's pipeline depths are generated (`tern codes sv`) and checked to be.
// (The dtype codes of tern_pkg are generated too: tests/numerics_gen_test.sh.)
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "core/engine_codes_gen.h"

namespace tern {
namespace {

// The engines' code blocks (tern_dve_pkg, tern_act_pkg, tern_pe_pkg) are what `tern codes sv`
// generates from the golden model's enums and constants.
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

}  // namespace
}  // namespace tern
