// The NeuronCore's host CSR map, defined once (docs/csr.md): a 16-bit AXI4-Lite address space
// of 32-bit registers in four blocks (global, one per sequencer, one per DMA engine, the
// semaphores). This header is also the driver's: the constexpr offsets and field positions
// below are what testbenches and the runtime use. The table in csr_map.cc (names, access,
// reset values, fields, docs) is built from these constants; the SystemVerilog package
// rtl/core/tern_csr_pkg.sv and the tables of docs/csr.md are generated from the table
// (`tern csr sv`, `tern csr md`).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/ecc.h"
#include "isa/isa.h"

namespace tern::csr {

constexpr uint32_t kAddrBits = 16;
constexpr uint32_t kDataBits = 32;

// Bits [lsb, lsb + width) of a register.
struct Bits {
  uint8_t lsb;
  uint8_t width;
  constexpr uint32_t mask() const {
    return (width >= 32 ? ~0u : ((1u << width) - 1u)) << lsb;
  }
  constexpr uint32_t get(uint32_t reg) const { return (reg & mask()) >> lsb; }
  constexpr uint32_t put(uint32_t value) const { return (value << lsb) & mask(); }
};

// ---------------------------------------------------------------------------------------------
// Blocks. Instance i of a block sits at base + stride * i; the offsets below are relative to
// their instance. Offsets do not depend on the config: a DMA engine past the config's count
// decodes as unmapped.

constexpr uint32_t kGlbBase = 0x000, kGlbStride = 0x100, kGlbCount = 1;
constexpr uint32_t kSeqBase = 0x100, kSeqStride = 0x040, kSeqCount = isa::kNumSeqs;
constexpr uint32_t kDmaBase = 0x400, kDmaStride = 0x040, kDmaCount = 16;  // at most 16 engines
constexpr uint32_t kSemBase = 0x800, kSemStride = 0x004, kSemCount = isa::kNumSems;

// Global registers.
namespace glb {
constexpr uint32_t kId = 0x000;          // RO  magic
constexpr uint32_t kVersion = 0x004;     // RO  map version
constexpr uint32_t kConfig = 0x008;      // RO  array and partition sizes
constexpr uint32_t kConfigDma = 0x00C;   // RO  DMA engines, queues, sequencers, semaphores
constexpr uint32_t kConfigSbuf = 0x010;  // RO  SBUF bytes per partition
constexpr uint32_t kConfigPsum = 0x014;  // RO  PSUM banks and bank bytes
constexpr uint32_t kScratch = 0x018;     // RW  no effect
constexpr uint32_t kCtrl = 0x020;        // WO  pulses
constexpr uint32_t kStatus = 0x024;      // RO  sequencer masks
constexpr uint32_t kIrqEnable = 0x028;   // RW
constexpr uint32_t kIrqStatus = 0x02C;   // W1C
constexpr uint32_t kSrSeed = 0x030;      // RW  a write also reseeds
constexpr uint32_t kWatchdog = 0x034;    // RW
constexpr uint32_t kDescBase = 0x038;    // RW
constexpr uint32_t kHbmSize = 0x03C;     // RW
constexpr uint32_t kDescCount = 0x040;   // RW
constexpr uint32_t kBudget = 0x044;      // RW
// SECDED on SBUF and PSUM (docs/ecc.md): injection for tests, scrubs and their counts.
constexpr uint32_t kEccCtrl = 0x048;        // WO  pulses
constexpr uint32_t kEccInject = 0x04C;      // RW  memory and codeword bits an injection flips
constexpr uint32_t kEccInjectAddr = 0x050;  // RW  partition and byte it flips them in
constexpr uint32_t kEccStatus = 0x054;      // RO
constexpr uint32_t kEccSbufCe = 0x058;      // RO  words found corrected by scrubs
constexpr uint32_t kEccSbufUe = 0x05C;      // RO  words found uncorrectable by scrubs
constexpr uint32_t kEccSbufUeAddr = 0x060;  // RO  the first of them
constexpr uint32_t kEccPsumCe = 0x064;      // RO
constexpr uint32_t kEccPsumUe = 0x068;      // RO
constexpr uint32_t kEccPsumUeAddr = 0x06C;  // RO

constexpr uint32_t kIdValue = 0x5445524E;  // "TERN"
constexpr uint32_t kVersionValue = 0x00010002;  // major 1, minor 2 (ECC)
// Watchdog and budget after reset (docs/csr.md): the cycles one instruction may take, and the
// instructions one sequencer may start in a run. Both on, far above any kernel's needs.
constexpr uint32_t kWatchdogReset = 1u << 24;
constexpr uint32_t kBudgetReset = 1u << 22;

constexpr Bits kConfigPartitions{0, 8}, kConfigPeRows{8, 8}, kConfigPeCols{16, 8};
constexpr Bits kConfigDmaEngines{0, 8}, kConfigDmaQueues{8, 8}, kConfigDmaSeqs{16, 8},
    kConfigDmaSems{24, 8};
constexpr Bits kConfigPsumBanks{0, 8}, kConfigPsumBankBytes{8, 24};
// CTRL, STATUS and the IRQ registers: bit i of a sequencer mask is sequencer i (isa::Seq).
constexpr Bits kCtrlStart{0, kSeqCount}, kCtrlHalt{8, kSeqCount}, kCtrlSemClear{16, 1},
    kCtrlCntClear{17, 1};
constexpr Bits kStatusBusy{0, kSeqCount}, kStatusHalted{8, kSeqCount},
    kStatusError{16, kSeqCount}, kStatusWaiting{24, kSeqCount};
constexpr Bits kEccCtrlArm{0, 1}, kEccCtrlScrub{1, 1}, kEccCtrlClear{2, 1};
constexpr Bits kEccInjectFlip{0, uint8_t(core::ecc::kCodeBits)}, kEccInjectPsum{16, 1};
constexpr Bits kEccAddrOffset{0, 24}, kEccAddrPartition{24, 8};  // ECC_INJECT_ADDR, ECC_*_UE_ADDR
constexpr Bits kEccStatusSbufArmed{0, 1}, kEccStatusPsumArmed{1, 1}, kEccStatusBusy{2, 1},
    kEccStatusSbufUe{3, 1}, kEccStatusPsumUe{4, 1};
constexpr Bits kIrqHalted{0, kSeqCount}, kIrqError{8, kSeqCount}, kIrqNotify{16, kSeqCount},
    kIrqDmaError{24, 1}, kIrqIdle{25, 1};
}  // namespace glb

// Per-sequencer registers.
namespace seq {
constexpr uint32_t kProgBase = 0x00;        // RW  HBM byte address of instruction 0
constexpr uint32_t kProgLen = 0x04;         // RW  instructions
constexpr uint32_t kCtrl = 0x08;            // WO  pulses
constexpr uint32_t kStatus = 0x0C;          // RO
constexpr uint32_t kErrPc = 0x10;           // RO
constexpr uint32_t kPc = 0x14;              // RO
constexpr uint32_t kRetired = 0x18;         // RO
constexpr uint32_t kBusyCycles = 0x1C;      // RO
constexpr uint32_t kSemWaitCycles = 0x20;   // RO
constexpr uint32_t kFetchWaitCycles = 0x24; // RO
constexpr uint32_t kConflictCycles = 0x28;  // RO
constexpr uint32_t kNotifyCode = 0x2C;      // RO  code of the last notify

constexpr Bits kCtrlStart{0, 1}, kCtrlHalt{1, 1};
constexpr Bits kStatusBusy{0, 1}, kStatusHalted{1, 1}, kStatusWaiting{2, 1},
    kStatusErrCode{4, 4};
}  // namespace seq

// Per-DMA-engine registers.
namespace dma {
constexpr uint32_t kBytesReadLo = 0x00;     // RO
constexpr uint32_t kBytesReadHi = 0x04;     // RO
constexpr uint32_t kBytesWrittenLo = 0x08;  // RO
constexpr uint32_t kBytesWrittenHi = 0x0C;  // RO
constexpr uint32_t kOutstandingHwm = 0x10;  // RO
constexpr uint32_t kErrStatus = 0x14;       // RO
constexpr uint32_t kErrDesc = 0x18;         // RO
constexpr uint32_t kErrPc = 0x1C;           // RO

constexpr Bits kErrStatusCode{0, 4}, kErrStatusDetail{8, 8}, kErrStatusQueue{16, 8},
    kErrStatusSeq{24, 3};
}  // namespace dma

// The semaphores: one RO register each.
namespace sem {
constexpr uint32_t kValue = 0x0;
}  // namespace sem

// Absolute byte addresses of a register of instance i.
constexpr uint32_t glb_addr(uint32_t reg) { return kGlbBase + reg; }
constexpr uint32_t seq_addr(uint32_t i, uint32_t reg) { return kSeqBase + kSeqStride * i + reg; }
constexpr uint32_t dma_addr(uint32_t e, uint32_t reg) { return kDmaBase + kDmaStride * e + reg; }
constexpr uint32_t sem_addr(uint32_t s) { return kSemBase + kSemStride * s + sem::kValue; }

// ---------------------------------------------------------------------------------------------
// The table.

enum class Block : uint8_t { kGlb, kSeq, kDma, kSem };
struct BlockInfo {
  Block block;
  const char* name;  // qualified names are "<block>.<reg>"; SV prefix UpperCamel(name)
  uint32_t base, stride, count;
  const char* doc;
};
const std::vector<BlockInfo>& blocks();
const BlockInfo& block(Block b);

// RW: read and write (WSTRB honoured). RO: read only; a write is answered SLVERR and ignored.
// W1C: a 1 written clears the bit. WO: a write pulses its set bits for one cycle; reads 0.
enum class Access : uint8_t { kRW, kRO, kW1C, kWO };
const char* access_name(Access a);

struct Field {
  const char* name;
  Bits bits;
  const char* doc;
};

struct Reg {
  Block block;
  const char* name;
  uint32_t offset;  // in the block instance
  Access access;
  uint32_t reset;   // the value after reset (RO constants: the value; hw: 0)
  bool hw;          // RO: the value is the hardware's (inputs or the config)
  std::vector<Field> fields;  // empty: one 32-bit value
  const char* doc;
  uint32_t mask() const;  // the defined bits: the fields', or all 32
  std::string qualified_name() const;  // "<block>.<name>"
};
const std::vector<Reg>& regs();
const Reg& reg(const std::string& qualified_name);  // throws tern::Error on an unknown name

// The byte address of register `qualified_name` of instance `index`; throws tern::Error on an
// unknown name or an index past the block's count.
uint32_t offset(const std::string& qualified_name, uint32_t index = 0);

// Every register instance of the map with `num_dma` DMA engines, in address order.
struct Instance {
  const Reg* reg;
  uint32_t index;  // instance of its block
  uint32_t addr;
  std::string name;  // "seq.prog_base[2]"; no index for a one-instance block
};
std::vector<Instance> instances(uint32_t num_dma = kDmaCount);

}  // namespace tern::csr
