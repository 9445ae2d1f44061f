// The golden model's fault against the RTL's per-sequencer fault codes: the same code at the
// same pc on every sequencer the golden fault stopped (all the waiting ones for a deadlock),
// and no fault anywhere else.
#pragma once

#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/fault.h"
#include "isa/isa.h"

namespace tern::tb {

struct GoldenFault {
  uint32_t kind = 0;  // 0: the golden run ended without a fault
  std::vector<core::FaultSite> sites;
  int dma_detail = -1;  // a DMA queue's fault: the check that stopped it (ERR_STATUS.detail)
  GoldenFault() = default;
  explicit GoldenFault(const core::CoreFault& f)
      : kind(uint32_t(f.kind())), sites(f.sites()),
        dma_detail(f.dma_detail() ? int(*f.dma_detail()) : -1) {}
  // The golden run stopped at a fault of a DMA queue ("dma.q3"): its queue index, else -1.
  int dma_queue() const {
    if (kind == 0 || sites.front().agent.rfind("dma.q", 0) != 0) return -1;
    return std::stoi(sites.front().agent.substr(5));
  }
};

using SeqWords = std::array<uint32_t, isa::kNumSeqs>;

inline std::vector<std::string> seq_fault_mismatches(const GoldenFault& g, const SeqWords& code,
                                                     const SeqWords& pc) {
  SeqWords want{}, want_pc{};
  for (const core::FaultSite& site : g.sites)
    if (const auto seq = isa::seq_from_name(site.agent)) {
      want[size_t(*seq)] = g.kind;
      want_pc[size_t(*seq)] = site.pc;
    }
  std::vector<std::string> errors;
  for (size_t s = 0; s < want.size(); ++s)
    if (code[s] != want[s] || (want[s] && pc[s] != want_pc[s]))
      errors.push_back(fmt::format("{}: RTL fault {} at pc {}, golden {} at pc {}",
                                   isa::seq_name(isa::Seq(s)), code[s], pc[s], want[s], want_pc[s]));
  return errors;
}

}  // namespace tern::tb
