// Codes, constants and ports in the SystemVerilog sources against their C++ definitions: the engines'
// codes and the Tensor Engine's pipeline depths are generated (`tern codes sv`) and checked to be.
// (The dtype codes of tern_pkg are generated too: tests/numerics_gen_test.sh.)
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "common/axi.h"
#include "common/error.h"
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

// The modules' AXI4 and AXI4-Lite port blocks and docs/core-rtl.md's signal tables are written
// from the one list of model/common/axi.h (`tern axi sv --update`, `tern axi md --update`).
TEST(RtlPackage, AxiPortsAreGenerated) {
  auto text_of = [](const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  };
  for (const std::string& file : axi_port_files()) {
    const std::string path = std::string(TERN_SOURCE_DIR) + "/" + file;
    const std::string text = text_of(path);
    EXPECT_EQ(text, update_axi_ports(text, path))
        << path << " drifted from model/common/axi.h: run `tern axi sv --update " << file << "`";
  }
  const std::string doc = std::string(TERN_SOURCE_DIR) + "/docs/core-rtl.md";
  EXPECT_EQ(text_of(doc), update_axi_markdown(text_of(doc), doc))
      << "docs/core-rtl.md drifted: run `tern axi md --update docs/core-rtl.md`";
}

// A marker that names no known bundle, or a block with no end, is an error naming the line.
TEST(RtlPackage, AxiPortMarkersAreChecked) {
  const std::string ok = "  // BEGIN GENERATED: tern axi axi4lite slave s_axil last\n  // END GENERATED: tern axi\n";
  EXPECT_NE(update_axi_ports(ok, "x.sv").find("s_axil_rresp_o\n"), std::string::npos);
  auto error_of = [](const std::string& text) {
    try {
      update_axi_ports(text, "x.sv");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error_of("  // BEGIN GENERATED: tern axi axi5 master m\n  // END GENERATED: tern axi\n"),
            "x.sv:1: AXI bundle kind 'axi5' is neither axi4 nor axi4lite");
  EXPECT_EQ(error_of("  // BEGIN GENERATED: tern axi axi4 master m_axi Id=I Data=D\n  // END GENERATED: tern axi\n"),
            "the axi4 bundle 'm_axi' needs Strb= for wstrb");
  EXPECT_EQ(error_of("  // BEGIN GENERATED: tern axi axi4lite slave s Width=3\n"),
            "x.sv:1: 'Width=3' is not Id=, Data=, Strb= or last");
  EXPECT_EQ(error_of("  // BEGIN GENERATED: tern axi axi4lite slave s\n  input logic a,\n"),
            "x.sv:1: no line '// END GENERATED: tern axi' after the block");
  EXPECT_EQ(error_of("module m;\n"), "x.sv: no line starting '// BEGIN GENERATED: tern axi '");
}

}  // namespace
}  // namespace tern
