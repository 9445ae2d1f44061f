// The NeuronCore's fault kinds: one table (fault.cc) from which the golden model's names, the
// RTL's codes (tern_csr_pkg, generated) and docs/csr.md's table come. A code is what a
// sequencer's STATUS.err_code and a DMA engine's ERR_STATUS.code read.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/error.h"

namespace tern::core {

enum class FaultKind : uint8_t {
  kIllegalInstruction = 1,
  kOperand = 2,
  kEngine = 3,
  kDma = 4,
  kMemory = 5,
  kRace = 6,
  kDeadlock = 7,
  kBudget = 8,
  kPc = 9,
  kWatchdog = 10,
};

struct FaultInfo {
  FaultKind kind;
  const char* name;     // in messages: "illegal instruction"
  const char* sv_name;  // tern_csr_pkg::Fault<sv_name>
  const char* meaning;  // docs/csr.md
  bool golden;          // the golden model raises it (the others are the RTL's alone)
};
const std::vector<FaultInfo>& fault_table();
const char* fault_name(FaultKind k);

// What stopped a DMA queue (ERR_STATUS.detail with code kDma): the checks in the golden model's
// order (resolve_side on the source, then the destination, then the element counts), then the
// AXI errors. The RTL's DMA engine reports these (tern_csr_pkg::DmaDet*, generated).
enum class DmaDetail : uint8_t {
  kDescFetch = 0,
  kSrcZeroDim = 1,
  kSrcAlign = 2,
  kSrcHbm = 3,
  kSrcPStep = 4,
  kSrcPart = 5,
  kSrcOffset = 6,
  kDstZeroDim = 7,
  kDstAlign = 8,
  kDstHbm = 9,
  kDstPStep = 10,
  kDstPart = 11,
  kDstOffset = 12,
  kCount = 13,
  kSlvErr = 14,
  kDecErr = 15,
};

struct DmaDetailInfo {
  DmaDetail detail;
  const char* sv_name;  // tern_csr_pkg::DmaDet<sv_name>
  const char* meaning;
};
const std::vector<DmaDetailInfo>& dma_detail_table();

// Where a fault stopped a sequencer (or a DMA queue, "dma.q3").
struct FaultSite {
  std::string agent;
  uint32_t pc = 0;
};

// The model's error: its kind, where it happened, and a message in words.
class CoreFault : public Error {
 public:
  CoreFault(FaultKind kind, const std::string& what, std::string agent = "", uint32_t pc = 0)
      : Error(what), kind_(kind), sites_{{std::move(agent), pc}} {}
  // A fault of several sequencers at once (a deadlock: every one that waits).
  CoreFault(FaultKind kind, const std::string& what, std::vector<FaultSite> sites)
      : Error(what), kind_(kind), sites_(std::move(sites)) {}
  FaultKind kind() const { return kind_; }
  // The (first) faulting agent ("dve", "dma.q3") and its instruction index.
  const std::string& agent() const { return sites_.front().agent; }
  uint32_t pc() const { return sites_.front().pc; }
  // Every agent the fault stopped, in sequencer order.
  const std::vector<FaultSite>& sites() const { return sites_; }
  // A DMA queue's fault: the check that stopped it (its ERR_STATUS.detail on the RTL).
  const std::optional<DmaDetail>& dma_detail() const { return dma_detail_; }
  CoreFault& with_dma_detail(DmaDetail d) {
    dma_detail_ = d;
    return *this;
  }

 private:
  FaultKind kind_;
  std::vector<FaultSite> sites_;
  std::optional<DmaDetail> dma_detail_;
};

}  // namespace tern::core
