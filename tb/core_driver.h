// The host driver's sequence for tern_core (docs/csr.md), written once for every bench: the
// plain C++ harness drives it over pins (CoreHarness), the SystemC platform over TLM
// (HostInitiator). A Bus provides
//   void     hbm_write(uint64_t addr, const void* src, uint64_t bytes);
//   void     csr_write(uint32_t addr, uint32_t value);
//   uint32_t csr_read(uint32_t addr);
#pragma once

#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <vector>

#include "common/config.h"
#include "common/error.h"
#include "core/csr_map.h"
#include "core/memory.h"
#include "isa/image.h"
#include "isa/isa.h"
#include "run_limits.h"

namespace tern::tb {

struct CoreDmaStatus {
  uint32_t err_status = 0, err_desc = 0, err_pc = 0, hwm = 0;
  uint64_t bytes_read = 0, bytes_written = 0;
};

struct CoreRunResult {
  uint64_t cycles = 0;        // from start to the interrupt
  bool timed_out = false;
  uint32_t irq_status = 0;
  std::array<uint32_t, isa::kNumSeqs> err_code{}, err_pc{}, retired{}, busy_cycles{},
      sem_wait_cycles{}, fetch_wait_cycles{}, conflict_cycles{};
  std::vector<CoreDmaStatus> dma;
  std::array<uint32_t, isa::kNumSems> sems{};
};

using isa::core_image_layout;
using isa::CoreImage;

// The sizes the core reports in its CONFIG CSRs against `cfg`: a driver's first check that the
// device is the one the program was built for. Throws tern::Error naming the first difference.
template <typename Bus>
void check_core_config(Bus& bus, const CoreConfig& cfg) {
  using namespace csr::glb;
  const uint32_t c = bus.csr_read(csr::glb_addr(kConfig)), d = bus.csr_read(csr::glb_addr(kConfigDma));
  const uint32_t s = bus.csr_read(csr::glb_addr(kConfigSbuf)), p = bus.csr_read(csr::glb_addr(kConfigPsum));
  const struct {
    const char* what;
    uint32_t core, config;
  } sizes[] = {{"partitions", kConfigPartitions.get(c), cfg.partitions},
               {"pe_rows", kConfigPeRows.get(c), cfg.pe_rows},
               {"pe_cols", kConfigPeCols.get(c), cfg.pe_cols},
               {"dma_engines", kConfigDmaEngines.get(d), cfg.dma_engines},
               {"dma_queues", kConfigDmaQueues.get(d), cfg.dma_queues},
               {"sbuf_partition_bytes", s, cfg.sbuf_partition_bytes},
               {"psum_banks", kConfigPsumBanks.get(p), cfg.psum_banks},
               {"psum_bank_bytes", kConfigPsumBankBytes.get(p), cfg.psum_bank_bytes}};
  for (const auto& x : sizes)
    if (x.core != x.config)
      throw Error(fmt::format("the core reports {} = {}; config '{}' has {}", x.what, x.core,
                              cfg.name, x.config));
}

// The program's binary image (streams, descriptors) into HBM.
template <typename Bus>
void load_core_image(Bus& bus, const isa::Program& p, const CoreImage& img) {
  for (int s = 0; s < isa::kNumSeqs; ++s) {
    uint32_t at = img.prog_base[size_t(s)];
    for (const isa::Instruction& in : p.streams[size_t(s)]) {
      const isa::InstrBits bits = isa::encode(in);
      bus.hbm_write(at, bits.words.data(), isa::kInstrBytes);
      at += isa::kInstrBytes;
    }
  }
  for (size_t d = 0; d < p.descriptors.size(); ++d) {
    const isa::DescBits bits = isa::encode(p.descriptors[d]);
    bus.hbm_write(img.desc_base + d * isa::kDescBytes, bits.words.data(), isa::kDescBytes);
  }
}

// Programs the CSRs for `p` and starts every sequencer; the core raises its interrupt when it
// is idle or at the first error.
template <typename Bus>
void start_core(Bus& bus, const isa::Program& p, const CoreImage& img, uint64_t hbm_bytes,
                const RunLimits& limits) {
  using namespace csr;
  bus.csr_write(glb_addr(glb::kHbmSize), uint32_t(hbm_bytes));
  bus.csr_write(glb_addr(glb::kDescBase), img.desc_base);
  bus.csr_write(glb_addr(glb::kDescCount), uint32_t(p.descriptors.size()));
  bus.csr_write(glb_addr(glb::kWatchdog), limits.watchdog);
  bus.csr_write(glb_addr(glb::kBudget), limits.budget);
  for (uint32_t s = 0; s < isa::kNumSeqs; ++s) {
    bus.csr_write(seq_addr(s, seq::kProgBase), img.prog_base[s]);
    bus.csr_write(seq_addr(s, seq::kProgLen), uint32_t(p.streams[s].size()));
  }
  bus.csr_write(glb_addr(glb::kIrqStatus), ~0u);
  bus.csr_write(glb_addr(glb::kIrqEnable),
                glb::kIrqError.mask() | glb::kIrqDmaError.mask() | glb::kIrqIdle.mask());
  bus.csr_write(glb_addr(glb::kCtrl), glb::kCtrlSemClear.put(1));
  bus.csr_write(glb_addr(glb::kCtrl), glb::kCtrlStart.put((1u << isa::kNumSeqs) - 1));
}

// An ECC injection (docs/ecc.md): the next write of byte `offset` of `partition` in `mem`
// stores its codeword with the bits of `flip` inverted.
struct EccInjection {
  isa::Mem mem = isa::Mem::kSbuf;
  uint32_t partition = 0, offset = 0;
  uint16_t flip = 1;
};

// Programs ECC_INJECT and ECC_INJECT_ADDR and arms the injection (ECC_CTRL.arm).
template <typename Bus>
void arm_ecc_injection(Bus& bus, const EccInjection& inj) {
  using namespace csr;
  bus.csr_write(glb_addr(glb::kEccInject), glb::kEccInjectFlip.put(inj.flip) |
                                               glb::kEccInjectPsum.put(inj.mem == isa::Mem::kPsum));
  bus.csr_write(glb_addr(glb::kEccInjectAddr),
                glb::kEccAddrOffset.put(inj.offset) | glb::kEccAddrPartition.put(inj.partition));
  bus.csr_write(glb_addr(glb::kEccCtrl), glb::kEccCtrlArm.put(1));
}

// What a scrub of an idle core found in SBUF and PSUM, and whether an injection still waits.
struct EccReport {
  core::EccScrub sbuf, psum;
  bool sbuf_armed = false, psum_armed = false;
};

// Clears the counts, scrubs both memories and waits for the scrub (at most `max_polls` reads
// of ECC_STATUS; throws tern::Error past them).
template <typename Bus>
EccReport scrub_ecc(Bus& bus, uint32_t max_polls = 1u << 20) {
  using namespace csr;
  bus.csr_write(glb_addr(glb::kEccCtrl), glb::kEccCtrlClear.put(1));
  bus.csr_write(glb_addr(glb::kEccCtrl), glb::kEccCtrlScrub.put(1));
  uint32_t status = bus.csr_read(glb_addr(glb::kEccStatus));
  for (uint32_t i = 0; glb::kEccStatusBusy.get(status); ++i) {
    if (i == max_polls)
      throw Error(fmt::format("the ECC scrub is still busy after {} reads of ECC_STATUS", max_polls));
    status = bus.csr_read(glb_addr(glb::kEccStatus));
  }
  auto counts = [&](uint32_t ce, uint32_t ue, uint32_t addr, bool ue_valid) {
    core::EccScrub s;
    s.corrected = bus.csr_read(glb_addr(ce));
    s.uncorrectable = bus.csr_read(glb_addr(ue));
    const uint32_t at = bus.csr_read(glb_addr(addr));
    if (ue_valid)
      s.first_uncorrectable = std::make_pair(glb::kEccAddrPartition.get(at), glb::kEccAddrOffset.get(at));
    return s;
  };
  EccReport r;
  r.sbuf = counts(glb::kEccSbufCe, glb::kEccSbufUe, glb::kEccSbufUeAddr, glb::kEccStatusSbufUe.get(status));
  r.psum = counts(glb::kEccPsumCe, glb::kEccPsumUe, glb::kEccPsumUeAddr, glb::kEccStatusPsumUe.get(status));
  r.sbuf_armed = glb::kEccStatusSbufArmed.get(status);
  r.psum_armed = glb::kEccStatusPsumArmed.get(status);
  return r;
}

template <typename Bus>
uint32_t core_dma_engines(Bus& bus) {
  return csr::glb::kConfigDmaEngines.get(bus.csr_read(csr::glb_addr(csr::glb::kConfigDma)));
}

// After the interrupt: status, errors and counters of every sequencer and DMA engine, and the
// semaphores (r.cycles and r.timed_out are the caller's).
template <typename Bus>
void read_core_status(Bus& bus, CoreRunResult& r) {
  using namespace csr;
  r.irq_status = bus.csr_read(glb_addr(glb::kIrqStatus));
  for (uint32_t s = 0; s < isa::kNumSeqs; ++s) {
    r.err_code[s] = seq::kStatusErrCode.get(bus.csr_read(seq_addr(s, seq::kStatus)));
    r.err_pc[s] = bus.csr_read(seq_addr(s, seq::kErrPc));
    r.retired[s] = bus.csr_read(seq_addr(s, seq::kRetired));
    r.busy_cycles[s] = bus.csr_read(seq_addr(s, seq::kBusyCycles));
    r.sem_wait_cycles[s] = bus.csr_read(seq_addr(s, seq::kSemWaitCycles));
    r.fetch_wait_cycles[s] = bus.csr_read(seq_addr(s, seq::kFetchWaitCycles));
    r.conflict_cycles[s] = bus.csr_read(seq_addr(s, seq::kConflictCycles));
  }
  const uint32_t engines = core_dma_engines(bus);
  r.dma.clear();
  for (uint32_t e = 0; e < engines; ++e) {
    CoreDmaStatus d;
    d.err_status = bus.csr_read(dma_addr(e, dma::kErrStatus));
    d.err_desc = bus.csr_read(dma_addr(e, dma::kErrDesc));
    d.err_pc = bus.csr_read(dma_addr(e, dma::kErrPc));
    d.hwm = bus.csr_read(dma_addr(e, dma::kOutstandingHwm));
    d.bytes_read = uint64_t(bus.csr_read(dma_addr(e, dma::kBytesReadHi))) << 32 |
                   bus.csr_read(dma_addr(e, dma::kBytesReadLo));
    d.bytes_written = uint64_t(bus.csr_read(dma_addr(e, dma::kBytesWrittenHi))) << 32 |
                      bus.csr_read(dma_addr(e, dma::kBytesWrittenLo));
    r.dma.push_back(d);
  }
  for (uint32_t i = 0; i < isa::kNumSems; ++i) r.sems[i] = bus.csr_read(sem_addr(i));
}

}  // namespace tern::tb
