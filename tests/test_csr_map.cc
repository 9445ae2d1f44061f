// The CSR map (model/core/csr_map.cc) is consistent: blocks do not overlap, registers are
// aligned, unique and inside their block, fields fit and do not overlap, reset values fit the
// masks, every config's values fit the CONFIG fields, and the generated package and docs tables
// carry every register and field.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <regex>
#include <set>
#include <string>

#include "common/config.h"
#include "common/error.h"
#include "common/names.h"
#include "core/csr_gen.h"
#include "core/csr_map.h"

namespace tern::csr {
namespace {

bool power_of_two(uint32_t v) { return v && !(v & (v - 1)); }

TEST(CsrMap, BlocksAreAlignedAndDisjoint) {
  for (const BlockInfo& a : blocks()) {
    EXPECT_TRUE(power_of_two(a.stride)) << a.name;
    EXPECT_EQ(a.base % a.stride, 0u) << a.name << ": base not a multiple of the stride";
    EXPECT_LE(a.base + a.stride * a.count, 1u << kAddrBits) << a.name;
    for (const BlockInfo& b : blocks()) {
      if (&a == &b) continue;
      const bool disjoint = a.base + a.stride * a.count <= b.base || b.base + b.stride * b.count <= a.base;
      EXPECT_TRUE(disjoint) << a.name << " overlaps " << b.name;
    }
  }
}

TEST(CsrMap, RegistersAreUniqueAlignedAndFit) {
  std::set<std::string> names;
  std::set<uint32_t> addrs;
  for (const Reg& r : regs()) {
    const std::string n = r.qualified_name();
    EXPECT_TRUE(names.insert(n).second) << n << " appears twice";
    EXPECT_EQ(r.offset % 4, 0u) << n;
    EXPECT_LT(r.offset, block(r.block).stride) << n << " outside its block instance";
    EXPECT_EQ(r.reset & ~r.mask(), 0u) << n << ": reset value outside the mask";
    if (r.hw) {
      EXPECT_EQ(r.access, Access::kRO) << n << ": only RO registers show hardware values";
    }
    if (r.access == Access::kWO) {
      EXPECT_EQ(r.reset, 0u) << n << ": WO registers read 0";
    }
    for (size_t i = 0; i < r.fields.size(); ++i) {
      const Field& f = r.fields[i];
      EXPECT_GE(f.bits.width, 1u) << n << "." << f.name;
      EXPECT_LE(f.bits.lsb + f.bits.width, 32u) << n << "." << f.name;
      for (size_t j = i + 1; j < r.fields.size(); ++j)
        EXPECT_EQ(f.bits.mask() & r.fields[j].bits.mask(), 0u)
            << n << "." << f.name << " overlaps " << r.fields[j].name;
    }
  }
  for (const Instance& in : instances()) EXPECT_TRUE(addrs.insert(in.addr).second) << in.name;
}

TEST(CsrMap, NamedLookupsAndBounds) {
  EXPECT_EQ(offset("glb.id"), glb_addr(glb::kId));
  EXPECT_EQ(offset("seq.prog_base", 3), seq_addr(3, seq::kProgBase));
  EXPECT_EQ(offset("dma.err_pc", 15), dma_addr(15, dma::kErrPc));
  EXPECT_EQ(offset("sem.value", 63), sem_addr(63));
  EXPECT_THROW(offset("seq.prog_base", kSeqCount), Error);
  EXPECT_THROW(offset("glb.nope"), Error);
  EXPECT_EQ(instances(2).size() + 14 * (instances(16).size() - instances(15).size()),
            instances(16).size());
}

TEST(CsrMap, EveryConfigFitsTheConfigFields) {
  for (const char* name : {"fpga", "tiny", "small", "trn2"}) {
    const CoreConfig c = load_config(std::string(TERN_CONFIG_DIR) + "/" + name + ".yaml");
    auto fits = [&](Bits b, uint32_t v, const char* what) {
      EXPECT_EQ(b.get(b.put(v)), v) << name << ": " << what << " = " << v << " does not fit";
    };
    fits(glb::kConfigPartitions, c.partitions, "partitions");
    fits(glb::kConfigPeRows, c.pe_rows, "pe_rows");
    fits(glb::kConfigPeCols, c.pe_cols, "pe_cols");
    fits(glb::kConfigDmaEngines, c.dma_engines, "dma_engines");
    fits(glb::kConfigDmaQueues, c.dma_queues, "dma_queues");
    fits(glb::kConfigPsumBanks, c.psum_banks, "psum_banks");
    fits(glb::kConfigPsumBankBytes, c.psum_bank_bytes, "psum_bank_bytes");
    EXPECT_LE(c.dma_engines, kDmaCount) << name;
    EXPECT_LT(c.dma_queues, 1u << dma::kErrStatusQueue.width) << name;
  }
  EXPECT_EQ(glb::kConfigDmaSeqs.get(glb::kConfigDmaSeqs.put(kSeqCount)), kSeqCount);
  EXPECT_EQ(glb::kConfigDmaSems.get(glb::kConfigDmaSems.put(kSemCount)), kSemCount);
  EXPECT_LT(kSeqCount - 1, 1u << dma::kErrStatusSeq.width);
}

TEST(CsrMap, GeneratedPackageAndDocsCarryEveryRegisterAndField) {
  const std::string sv = csr_sv_package();
  const std::string md = csr_markdown_tables();
  for (const Reg& r : regs()) {
    const std::string stem = upper_camel(block(r.block).name) + upper_camel(r.name);
    const std::regex decl(fmt::format(R"(localparam logic \[15:0\] {} += 16'h{:04X};)", stem, r.offset));
    EXPECT_TRUE(std::regex_search(sv, decl)) << stem;
    EXPECT_NE(sv.find(fmt::format("{}Reset", stem)), std::string::npos) << stem;
    for (const Field& f : r.fields) {
      EXPECT_NE(sv.find(fmt::format("{}{}Lsb", stem, upper_camel(f.name))), std::string::npos);
      EXPECT_NE(md.find(fmt::format("| `{}` |", f.name)), std::string::npos) << f.name;
    }
  }
  EXPECT_THROW(update_markdown("no markers\n", "x.md"), Error);
}

}  // namespace
}  // namespace tern::csr
