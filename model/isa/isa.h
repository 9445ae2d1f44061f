// The tern ISA, defined once (docs/isa.md). Every instruction is 1024 bits (128 bytes: two
// beats of the 512-bit fetch bus); every DMA descriptor is 512 bits (one beat). The tables in
// isa.cc give each field's name, position and width; the C++ encoder/decoder below, the
// assembler, the generated SystemVerilog package (rtl/core/tern_isa_pkg.sv) and the generated
// bit tables of docs/isa.md are all read from them.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "numerics/dtype.h"

namespace tern::isa {

constexpr uint32_t kInstrBits = 1024;
constexpr uint32_t kInstrBytes = kInstrBits / 8;
constexpr uint32_t kDescBits = 512;
constexpr uint32_t kDescBytes = kDescBits / 8;
constexpr uint32_t kNumRegs = 64;  // per sequencer; r0 reads as zero
constexpr uint32_t kNumSems = 64;  // one bank shared by all sequencers and DMA queues
// The `notify` code a kernel's program raises, before it halts, when a run-time trip count is
// larger than the kernel was built for (kernel::TripCount).
constexpr uint32_t kTripCountNotify = 0x7C0FFFFF;
constexpr uint32_t kApDims = 4;    // free dimensions of an access pattern
constexpr uint32_t kApSlots = 4;   // access-pattern operands per instruction
constexpr uint32_t kScalarSlots = 2;

// The five sequencers, in the Neuron profiler's names.
enum class Seq : uint8_t { kPe = 0, kAct = 1, kDve = 2, kPool = 3, kSp = 4 };
constexpr int kNumSeqs = 5;
const char* seq_name(Seq s);
std::optional<Seq> seq_from_name(const std::string& name);

// Which sequencers may execute an opcode (bit i: Seq i).
constexpr uint8_t kAllSeqs = 0x1F;
constexpr uint8_t seq_bit(Seq s) { return uint8_t(1u << unsigned(s)); }

// How an instruction's operands are laid out and printed.
enum class Format : uint8_t {
  kNone,      // no operands (nop, halt)
  kAlu,       // rd, rs1, rs2 | imm
  kLoad,      // rd, [rs1 + imm]         (HBM word)
  kStore,     // rs2, [rs1 + imm]
  kBranch,    // rs1, rs2 | imm, target
  kLoop,      // rd, target
  kNotify,    // imm (interrupt code)
  kDma,       // queue, descriptor index + rd, src + rs1, dst + rs2
  kPeLoad,    // ap1 (stationary)
  kPeMatmul,  // ap0 (PSUM out), ap1 (moving), acc flag
  kPeTranspose,  // ap0 (PSUM out)
  kAct,       // ap0 out, ap1 in, scale s0, bias s1, func, reduce, ap2 acc_load, ap3 acc_out
  kDve,       // ap0 out, ap1 in0, ap2 in1, s0, s1, alu0, alu1, flags, imm2
};

enum class Opcode : uint8_t {
  kNop = 0x00,
  kHalt = 0x01,
  kNotify = 0x02,
  kLd = 0x03,
  kSt = 0x04,
  kLoop = 0x05,
  kDma = 0x06,
  // Scalar ALU: rd = rs1 op (rs2 | imm), 32-bit wrapping.
  kAdd = 0x10,
  kSub = 0x11,
  kMul = 0x12,
  kAnd = 0x13,
  kOr = 0x14,
  kXor = 0x15,
  kShl = 0x16,
  kShr = 0x17,
  kSra = 0x18,
  kSlt = 0x19,
  kSltu = 0x1A,
  kMin = 0x1B,
  kMax = 0x1C,
  // Compare and branch to an absolute instruction index of the same stream.
  kBeq = 0x20,
  kBne = 0x21,
  kBlt = 0x22,
  kBge = 0x23,
  kBltu = 0x24,
  kBgeu = 0x25,
  // Tensor Engine.
  kLdStat = 0x30,
  kMatmul = 0x31,
  kPeTranspose = 0x32,
  // Scalar Engine.
  kActivate = 0x40,
  // Vector Engine: 0x50 + DveOp.
  kTensorTensor = 0x50,
  kTensorScalar = 0x51,
  kScalarTensorTensor = 0x52,
  kTensorReduce = 0x53,
  kTensorScalarReduce = 0x54,
  kTensorTensorScan = 0x55,
  kTensorCopy = 0x56,
  kMemset = 0x57,
  kSelect = 0x58,
  kIota = 0x59,
  kBnStats = 0x5A,
  kBnAggr = 0x5B,
  kMax8 = 0x5C,
  kTranspose = 0x5D,
};
constexpr uint8_t kDveOpcodeBase = 0x50;

struct OpcodeInfo {
  Opcode op;
  const char* mnemonic;
  Format format;
  uint8_t seqs;  // sequencers that may execute it
  const char* summary;
};
const std::vector<OpcodeInfo>& opcodes();
const OpcodeInfo* opcode_info(uint8_t code);  // nullptr: illegal opcode
const OpcodeInfo* opcode_from_mnemonic(const std::string& mnemonic);

// A bit field of a 1024-bit instruction, a 512-bit descriptor, or (relative to its slot) an
// access-pattern or scalar operand.
struct FieldDef {
  const char* name;  // also the SV localparam stem and the docs row
  uint16_t lsb;
  uint8_t width;
  bool is_signed;
  const char* doc;
};

enum class Layout : uint8_t { kHeader, kAp, kScalar, kDescSide, kAlu, kMem, kBranch, kLoop,
                              kNotify, kDma, kPe, kAct, kDve };
struct LayoutInfo {
  Layout layout;
  const char* name;       // SV prefix and docs heading
  uint16_t base;          // lsb of the layout in its container (slot 0 for kAp/kScalar/kDescSide)
  std::vector<FieldDef> fields;  // lsb relative to the layout's base
};
const std::vector<LayoutInfo>& layouts();
const LayoutInfo& layout(Layout l);
const FieldDef& field(Layout l, const std::string& name);  // throws on an unknown name

// What a format reads: the layout of its operand word (kHeader: none) and its operand slots.
const char* format_name(Format f);
Layout format_layout(Format f);
struct FormatSlots {
  uint32_t ap_mask;  // bit i: access-pattern slot i
  uint32_t scalars;  // scalar slots 0 .. scalars - 1
};
FormatSlots format_slots(Format f);

// Slot positions inside an instruction (lsb of slot i) and a descriptor (side 0: src, 1: dst).
uint16_t ap_slot_lsb(uint32_t slot);
uint16_t scalar_slot_lsb(uint32_t slot);
uint16_t desc_side_lsb(uint32_t side);
constexpr uint16_t kApBits = 192;
constexpr uint16_t kScalarBits = 64;
constexpr uint16_t kDescSideBits = 256;

// A little-endian bit container: bit i is bit (i % 64) of word i / 64.
template <uint32_t Bits>
class BitWords {
 public:
  static constexpr uint32_t kWords = Bits / 64;
  uint64_t get(uint32_t lsb, uint32_t width) const;
  void set(uint32_t lsb, uint32_t width, uint64_t value);  // throws if value does not fit
  int64_t get_signed(uint32_t lsb, uint32_t width) const;
  void set_signed(uint32_t lsb, uint32_t width, int64_t value);
  std::array<uint64_t, kWords> words{};
  bool operator==(const BitWords& o) const { return words == o.words; }
  bool operator!=(const BitWords& o) const { return words != o.words; }
};
using InstrBits = BitWords<kInstrBits>;
using DescBits = BitWords<kDescBits>;

// ---------------------------------------------------------------------------------------------
// Decoded operands.

enum class Mem : uint8_t { kSbuf = 0, kPsum = 1 };
enum class Space : uint8_t { kHbm = 0, kSbuf = 1, kPsum = 2 };  // DMA descriptor sides
const char* mem_name(Mem m);
const char* space_name(Space s);

struct Dim {
  int32_t step = 0;  // elements (access patterns) or bytes (descriptors)
  uint32_t num = 1;
  bool operator==(const Dim& o) const { return step == o.step && num == o.num; }
};

// An on-chip access pattern (ARCHITECTURE.md 3.2). dims[0] is the outermost free dimension,
// dims[3] the innermost; unused outer dims are [0, 1]. partitions == 0: the operand is absent.
struct AccessPattern {
  Mem mem = Mem::kSbuf;
  Dtype dtype = Dtype::kFp32;
  uint32_t start_partition = 0;
  uint32_t partitions = 0;
  uint32_t base_reg = 0;  // r0: no register
  uint32_t offset = 0;    // bytes inside each partition
  std::array<Dim, kApDims> dims{};
  bool present() const { return partitions != 0; }
  uint64_t free_elements() const;  // product of nums
  bool operator==(const AccessPattern& o) const;
};

// A per-instruction scalar: an fp32/int32 immediate, or one value per partition read from
// partition (start + lane) at the given byte offset.
struct ScalarOperand {
  bool per_partition = false;
  uint32_t imm = 0;  // immediate bits, or the byte offset when per_partition
  Mem mem = Mem::kSbuf;
  Dtype dtype = Dtype::kFp32;
  uint32_t start_partition = 0;
  uint32_t base_reg = 0;
  bool operator==(const ScalarOperand& o) const;
};

enum class SemUpdate : uint8_t { kNone = 0, kAdd = 1, kSet = 2 };

// Issue when int32(sem[wait_sem]) >= wait_value + reg[wait_reg] (signed: a threshold <= 0 is
// always met); on completion sem[upd_sem] += or = upd_value.
struct Sync {
  bool wait = false;
  uint32_t wait_sem = 0;
  uint32_t wait_reg = 0;
  int32_t wait_value = 0;
  SemUpdate update = SemUpdate::kNone;
  uint32_t update_sem = 0;
  uint32_t update_value = 0;
  bool operator==(const Sync& o) const;
};

// Every field an instruction can carry; each format uses a subset, the rest stay zero.
struct Instruction {
  Opcode op = Opcode::kNop;
  Sync sync;
  // Control.
  uint32_t rd = 0, rs1 = 0, rs2 = 0;
  bool use_imm = false;
  uint32_t imm = 0;     // ALU/branch immediate, load/store offset, notify code, descriptor index
  uint32_t target = 0;  // branch/loop target: instruction index in the same stream
  uint32_t queue = 0;   // DMA: flat queue index (engine * queues + queue)
  // Engines.
  std::array<AccessPattern, kApSlots> ap{};
  std::array<ScalarOperand, kScalarSlots> scalar{};
  uint32_t func = 0;        // ACT function
  uint32_t reduce_cmd = 0;  // ACT
  uint32_t reduce_op = 0;   // ACT
  uint32_t alu0 = 0, alu1 = 0;  // DVE element ops
  bool stochastic = false;  // ACT/DVE output rounding
  bool saturate = false;    // DVE
  bool reverse0 = false, reverse1 = false, negate = false;  // DVE
  uint32_t imm2 = 0;        // DVE third immediate
  bool accumulate = false;  // matmul
  uint32_t acc_reg = 0;     // matmul: also adds into PSUM when r[acc_reg] != 0 (r0: never)
  bool operator==(const Instruction& o) const;
};

// One side of a DMA descriptor. On-chip sides: dims[0] steps partitions (step in partitions,
// num = partition count), dims[1..3] step bytes. HBM sides: every dim steps bytes.
struct DescSide {
  Space space = Space::kHbm;
  Dtype dtype = Dtype::kFp32;
  uint32_t start_partition = 0;
  uint64_t address = 0;  // HBM byte address, or byte offset inside each partition
  std::array<Dim, kApDims> dims{};
  uint64_t elements() const;
  bool operator==(const DescSide& o) const;
};
struct Descriptor {
  DescSide src, dst;
  bool operator==(const Descriptor& o) const { return src == o.src && dst == o.dst; }
};

// Encoding checks every value against its field's width and throws tern::Error naming the
// field; decoding throws for an illegal opcode or enum code.
InstrBits encode(const Instruction& in);
Instruction decode(const InstrBits& bits);
DescBits encode(const Descriptor& d);
Descriptor decode(const DescBits& bits);

// A program: one instruction stream per sequencer and a descriptor table, relocatable (branch
// targets are stream indices, DMA instructions name descriptor indices).
struct Program {
  std::array<std::vector<Instruction>, kNumSeqs> streams;
  std::vector<Descriptor> descriptors;
  bool operator==(const Program& o) const;
};

// The binary image ("TERNPRG1"): a header, then each stream's instructions, then descriptors.
std::vector<uint8_t> to_binary(const Program& p);
Program from_binary(const std::vector<uint8_t>& image, const std::string& source);

}  // namespace tern::isa
