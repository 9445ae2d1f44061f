// The verilated models before <systemc> (see core_platform.cc).
#include "Vtern_core_tiny.h"
#if TERN_SMALL_CORE
#include "Vtern_core_small.h"
#endif
#include "runtime/rtl_backend.h"

#include <fmt/format.h>

#include <memory>
#include <string>

#include "built_configs.h"
#include "core_models.h"
#include "common/error.h"
#include "core/csr_map.h"
#include "core/memory.h"
#include "platform/platform_check.h"
#include "runtime/device.h"

namespace tern::tb {
namespace {

std::string& elaborated() {  // the config of this process's platform
  static std::string name;
  return name;
}

template <typename Top>
CorePlatform<Top>& platform_for(const RtlJob& job) {
  static std::unique_ptr<CorePlatform<Top>> platform;
  if (!platform) {
    PlatformOptions o;
    o.waves = job.options.waves;
    platform = std::make_unique<CorePlatform<Top>>("platform", o);
    elaborated() = job.cfg.name;
  }
  if (!job.options.waves.empty() && job.options.waves != platform->options().waves)
    throw Error(fmt::format("RTL backend: waves go to '{}' for this process; '{}' cannot be "
                            "opened too", platform->options().waves, job.options.waves));
  const core::HbmTiming& t = job.options.core.hbm_timing;
  const uint32_t per_cycle = t.bytes_per_cycle ? t.bytes_per_cycle : job.cfg.axi_data_bits / 8;
  platform->hbm().set_timing(0, {t.latency, per_cycle});
  return *platform;
}

std::vector<HbmRegion> tensor_regions(const isa::ProgramImage& image) {
  std::vector<HbmRegion> regions;
  for (const isa::TensorEntry& t : image.tensors)
    regions.push_back({t.name, t.address, t.bytes(), core::dtype_bytes(t.dtype)});
  return regions;
}

template <typename Top>
RtlResult run_on(const RtlJob& job) {
  tb::require_built_config(job.cfg, "RTL backend");
  CorePlatform<Top>& platform = platform_for<Top>(job);
  RtlResult out;
  PlatformRun run;
  if (job.cross) {
    PlatformCompare c = platform_compare(platform, job.cfg, job.program, job.hbm,
                                         tensor_regions(job.image),
                                         parse_check_depth(job.options.check));
    if (!c.outcome.errors.empty())
      throw Error(fmt::format("cross ({} compare): the RTL differs from the golden model:\n  {}",
                              job.options.check, fmt::join(c.outcome.errors, "\n  ")));
    run = std::move(c.run);
    out.stats.lockstep_instructions = c.lockstep_instructions;
    out.stats.scoreboard_bytes = c.scoreboard_bytes;
  } else {
    const uint32_t base = isa::image_program_base(job.hbm.size());
    run = platform.run(job.program, job.hbm, isa::image_hbm_bytes(job.program, base), base, &job.cfg);
  }
  const CoreRunResult& st = run.status;
  if (st.timed_out)
    throw Error(fmt::format("RTL: kernel '{}' did not finish in {} cycles", job.image.name,
                            run.cycles));
  for (int s = 0; s < isa::kNumSeqs; ++s)
    if (st.err_code[size_t(s)] != 0)
      throw core::CoreFault(core::FaultKind(st.err_code[size_t(s)]),
                            fmt::format("RTL: {} faulted: {} at pc {}", isa::seq_name(isa::Seq(s)),
                                        core::fault_name(core::FaultKind(st.err_code[size_t(s)])),
                                        st.err_pc[size_t(s)]),
                            isa::seq_name(isa::Seq(s)), st.err_pc[size_t(s)]);
  for (size_t e = 0; e < st.dma.size(); ++e) {
    const uint32_t status = st.dma[e].err_status;
    const uint32_t code = csr::dma::kErrStatusCode.get(status);
    if (code == 0) continue;
    const auto kind = core::FaultKind(code);
    throw core::CoreFault(kind,
                          fmt::format("RTL: DMA engine {} faulted: {} (status 0x{:08x}, descriptor "
                                      "{}, pc {})", e, core::fault_name(kind), status,
                                      st.dma[e].err_desc, st.dma[e].err_pc),
                          fmt::format("dma.q{}", csr::dma::kErrStatusQueue.get(status)),
                          st.dma[e].err_pc);
  }
  out.hbm.assign(platform.hbm().bytes().begin(), platform.hbm().bytes().begin() + job.hbm.size());
  out.timeline = std::move(run.timeline);
  RtlRunStats& s = out.stats;
  s.cycles = run.cycles;
  s.wall_seconds = run.wall_seconds;
  for (size_t i = 0; i < isa::kNumSeqs; ++i) {
    s.retired[i] = st.retired[i];
    s.busy_cycles[i] = st.busy_cycles[i];
    s.sem_wait_cycles[i] = st.sem_wait_cycles[i];
    s.fetch_wait_cycles[i] = st.fetch_wait_cycles[i];
    s.conflict_cycles[i] = st.conflict_cycles[i];
  }
  for (const CoreDmaStatus& d : st.dma) {
    s.dma_bytes_read += d.bytes_read;
    s.dma_bytes_written += d.bytes_written;
    s.dma_outstanding_hwm = std::max(s.dma_outstanding_hwm, d.hwm);
  }
  s.axi_reads = run.axi.reads;
  s.axi_writes = run.axi.writes;
  return out;
}

RtlResult run_rtl(const RtlJob& job) {
  if (!elaborated().empty() && elaborated() != job.cfg.name)
    throw Error(fmt::format("RTL backend: this process runs config '{}' on the RTL; '{}' needs a "
                            "process of its own (SystemC elaborates once)", elaborated(),
                            job.cfg.name));
  if (job.cfg.name == "tiny") return run_on<Vtern_core_tiny>(job);
#if TERN_SMALL_CORE
  if (job.cfg.name == "small") return run_on<Vtern_core_small>(job);
#endif
  tb::no_core_model("RTL backend", job.cfg.name);
}

}  // namespace
}  // namespace tern::tb

namespace tern {

RtlRunner rtl_runner() { return tb::run_rtl; }

}  // namespace tern
