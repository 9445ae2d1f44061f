// A whole program on the NeuronCore RTL (tern_core through CoreHarness) against the golden
// core model, from the same HBM contents: the same fault (sequencer or DMA queue, code, pc), or
// the same HBM and semaphores. A differing HBM byte is reported as the first differing element
// of its tensor with the golden instruction that wrote it.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "common/config.h"
#include "core/core_model.h"
#include "core/memory.h"
#include "isa/image.h"
#include "core_harness.h"
#include "fault_check.h"

namespace tern::tb {

// A named HBM range for reports (a kernel's tensor).
struct HbmRegion {
  std::string name;
  uint64_t address = 0, bytes = 0;
  uint32_t elem_bytes = 4;
};

struct CoreCompare {
  std::vector<std::string> errors;  // empty: the RTL matched
  CoreRunResult rtl;
  core::RunStats golden;
  bool golden_fault = false;
  uint64_t golden_changed_bytes = 0;  // HBM bytes the golden run changed (a check that checks)
};

// The golden half of a comparison: the model run from `hbm_init`, its first fault (if any).
struct GoldenRun {
  std::unique_ptr<core::CoreModel> model;
  core::RunStats stats;
  bool fault = false;
  GoldenFault fault_info;
  uint32_t program_base = 0;  // the data from address 0, the program image above (4 KiB aligned)
  uint64_t hbm_bytes = 0;
};

inline GoldenRun run_golden(const CoreConfig& cfg, const isa::Program& p,
                            const std::vector<uint8_t>& hbm_init, bool log_writes = false,
                            core::HbmTiming timing = {}, const EccInjection* inject = nullptr) {
  GoldenRun g;
  g.program_base = isa::image_program_base(hbm_init.size());
  g.hbm_bytes = isa::image_hbm_bytes(p, g.program_base);
  core::CoreOptions gopt;
  gopt.hbm_bytes = g.hbm_bytes;
  gopt.track_hbm_writers = true;
  gopt.log_hbm_writes = log_writes;
  gopt.hbm_timing = timing;
  g.model = std::make_unique<core::CoreModel>(cfg, gopt);
  g.model->hbm().write(0, hbm_init.data(), hbm_init.size());
  if (inject) {
    core::OnChipMemory& m = inject->mem == isa::Mem::kPsum ? g.model->psum() : g.model->sbuf();
    m.arm_injection(inject->partition, inject->offset, inject->flip);
  }
  try {
    g.stats = g.model->run(p);
  } catch (const core::CoreFault& f) {
    g.fault = true;
    g.fault_info = GoldenFault(f);
  }
  return g;
}

// The RTL's outcome (status CSRs, final HBM) against the golden run: the same fault
// (sequencer or DMA queue, code, pc), or the same HBM below the program image and semaphores.
inline CoreCompare compare_outcome(const CoreConfig& cfg, const GoldenRun& g,
                                   const std::vector<uint8_t>& hbm_init,
                                   const std::vector<HbmRegion>& regions, const CoreRunResult& r,
                                   const std::vector<uint8_t>& got) {
  CoreCompare c;
  c.rtl = r;
  c.golden = g.stats;
  c.golden_fault = g.fault;
  const core::CoreModel& golden = *g.model;
  const uint32_t program_base = g.program_base, fault_kind = g.fault_info.kind;
  const std::string fault_agent = fault_kind ? g.fault_info.sites.front().agent : "";
  const uint32_t fault_pc = fault_kind ? g.fault_info.sites.front().pc : 0;
  if (r.timed_out) c.errors.push_back(fmt::format("the RTL did not finish in {} cycles", r.cycles));
  // Faults: the golden model's first one (on every sequencer it stopped), and nothing else.
  for (std::string& e : seq_fault_mismatches(g.fault_info, r.err_code, r.err_pc))
    c.errors.push_back(std::move(e));
  const int dma_queue = g.fault_info.dma_queue();
  for (size_t e = 0; e < r.dma.size(); ++e) {
    using csr::dma::kErrStatusCode, csr::dma::kErrStatusDetail, csr::dma::kErrStatusQueue;
    const uint32_t status = r.dma[e].err_status, code = kErrStatusCode.get(status);
    const uint32_t queue = kErrStatusQueue.get(status), detail = kErrStatusDetail.get(status);
    const bool want = dma_queue >= 0 && uint32_t(dma_queue) / cfg.dma_queues == e;
    if (!want && code != 0)
      c.errors.push_back(fmt::format("DMA engine {}: RTL fault {} (status 0x{:08x}, pc {}), golden none",
                                     e, code, status, r.dma[e].err_pc));
    const int want_detail = g.fault_info.dma_detail;
    if (want && (code != fault_kind || queue != uint32_t(dma_queue) % cfg.dma_queues ||
                 r.dma[e].err_pc != fault_pc || (want_detail >= 0 && detail != uint32_t(want_detail))))
      c.errors.push_back(fmt::format("DMA engine {}: RTL fault {} detail {} queue {} pc {}, golden {} detail {} "
                                     "on {} pc {}", e, code, detail, queue, r.dma[e].err_pc, fault_kind,
                                     want_detail, fault_agent, fault_pc));
  }
  if (c.golden_fault) return c;  // the golden model stops everything; the RTL one agent

  // Memory: the first differing byte of each region (and outside them), named.
  std::vector<uint8_t> want(program_base);
  golden.hbm().read(0, want.data(), want.size());
  auto report = [&](uint64_t a) {
    const HbmRegion* reg = nullptr;
    for (const HbmRegion& g : regions)
      if (a >= g.address && a < g.address + g.bytes) reg = &g;
    const uint32_t eb = reg ? reg->elem_bytes : 1;
    const uint64_t first = reg ? reg->address + (a - reg->address) / eb * eb : a;
    uint32_t g = 0, w = 0;
    for (uint32_t b = 0; b < eb; ++b) {
      g |= uint32_t(got[first + b]) << (8 * b);
      w |= uint32_t(want[first + b]) << (8 * b);
    }
    const core::TraceEvent* by = golden.hbm_writer(a);
    const std::string where =
        reg ? fmt::format("{}[{}]", reg->name, (first - reg->address) / eb) : fmt::format("HBM 0x{:x}", a);
    const std::string writer =
        by ? fmt::format("{} at pc {} on {}", by->name, by->pc, by->agent) : "nothing (an input)";
    c.errors.push_back(fmt::format("{} (HBM 0x{:x}): RTL 0x{:0{}x}, golden 0x{:0{}x}; golden writer: {}",
                                   where, first, g, 2 * eb, w, 2 * eb, writer));
  };
  for (uint64_t a = 0; a < std::min<uint64_t>(want.size(), hbm_init.size()); ++a)
    c.golden_changed_bytes += want[a] != hbm_init[a];
  std::vector<bool> reported(regions.size() + 1, false);
  for (uint64_t a = 0; a < want.size() && c.errors.size() < 8; ++a) {
    if (got[a] == want[a]) continue;
    size_t idx = regions.size();
    for (size_t i = 0; i < regions.size(); ++i)
      if (a >= regions[i].address && a < regions[i].address + regions[i].bytes) idx = i;
    if (reported[idx]) continue;
    reported[idx] = true;
    report(a);
  }
  for (uint32_t i = 0; i < isa::kNumSems; ++i)
    if (r.sems[i] != golden.semaphore(i) && c.errors.size() < 12)
      c.errors.push_back(fmt::format("semaphore {}: RTL {}, golden {}", i, r.sems[i], golden.semaphore(i)));
  return c;
}


template <typename Top>
CoreCompare compare_core(const CoreConfig& cfg, const isa::Program& p,
                         const std::vector<uint8_t>& hbm_init,
                         const std::vector<HbmRegion>& regions, CoreRunOptions opt = {}) {
  const GoldenRun g = run_golden(cfg, p, hbm_init);
  CoreHarness<Top> rtl(g.hbm_bytes, opt);
  rtl.hbm().write(0, hbm_init.data(), hbm_init.size());
  const CoreRunResult r = rtl.run(p, g.program_base);
  return compare_outcome(cfg, g, hbm_init, regions, r, rtl.hbm().bytes());
}

// The scrub reports of both sides (docs/ecc.md), as text: equal when they agree.
inline std::string ecc_scrub_text(const core::EccScrub& s) {
  const std::string first = s.first_uncorrectable
                                ? fmt::format(", first at partition {} byte {}",
                                              s.first_uncorrectable->first, s.first_uncorrectable->second)
                                : "";
  return fmt::format("{} corrected, {} uncorrectable{}", s.corrected, s.uncorrectable, first);
}

// compare_core with an ECC injection armed on both sides before the run (the RTL's injection
// registers then written 0, which must not move the armed injection), and a scrub of both after
// it: the outcome as compare_core's, and the scrubs' counts, first addresses and armed
// states must agree too.
template <typename Top>
CoreCompare compare_core_ecc(const CoreConfig& cfg, const isa::Program& p,
                             const std::vector<uint8_t>& hbm_init,
                             const std::vector<HbmRegion>& regions, const EccInjection& inject,
                             EccReport* rtl_report = nullptr) {
  const GoldenRun g = run_golden(cfg, p, hbm_init, false, {}, &inject);
  CoreHarness<Top> rtl(g.hbm_bytes, {});
  rtl.hbm().write(0, hbm_init.data(), hbm_init.size());
  arm_ecc_injection(rtl, inject);
  // The arm took its target: a host that reuses the registers before the run moves nothing.
  rtl.csr_write(csr::glb_addr(csr::glb::kEccInject), 0);
  rtl.csr_write(csr::glb_addr(csr::glb::kEccInjectAddr), 0);
  const CoreRunResult r = rtl.run(p, g.program_base);
  CoreCompare c = compare_outcome(cfg, g, hbm_init, regions, r, rtl.hbm().bytes());
  const EccReport got = scrub_ecc(rtl);
  const struct {
    const char* mem;
    const core::OnChipMemory& golden;
    const core::EccScrub& rtl;
    bool rtl_armed;
  } sides[] = {{"SBUF", g.model->sbuf(), got.sbuf, got.sbuf_armed},
               {"PSUM", g.model->psum(), got.psum, got.psum_armed}};
  for (const auto& s : sides) {
    const std::string want = ecc_scrub_text(s.golden.scrub()), have = ecc_scrub_text(s.rtl);
    if (want != have) c.errors.push_back(fmt::format("{} scrub: RTL {}; golden {}", s.mem, have, want));
    if (s.rtl_armed != s.golden.injection_armed())
      c.errors.push_back(fmt::format("{} injection still armed: RTL {}, golden {}", s.mem,
                                     s.rtl_armed, s.golden.injection_armed()));
  }
  if (rtl_report) *rtl_report = got;
  return c;
}

}  // namespace tern::tb
