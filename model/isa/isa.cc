// The ISA tables (the single definition) and the encoder/decoder that reads them.
#include "isa/isa.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "common/error.h"

namespace tern::isa {

namespace {

constexpr uint8_t kPe = seq_bit(Seq::kPe);
constexpr uint8_t kVec = seq_bit(Seq::kDve) | seq_bit(Seq::kPool);

std::vector<FieldDef> ap_fields() {
  std::vector<FieldDef> f = {
      {"mem", 0, 1, false, "0 SBUF, 1 PSUM"},
      {"dtype", 1, 4, false, "element dtype code"},
      {"start", 5, 8, false, "start partition"},
      {"partitions", 13, 8, false, "partition count; 0: operand absent"},
      {"base_reg", 21, 6, false, "register added to offset (r0: none)"},
      {"offset", 32, 24, false, "byte offset inside each partition"},
  };
  static const char* const kStep[] = {"d0_step", "d1_step", "d2_step", "d3_step"};
  static const char* const kNum[] = {"d0_num", "d1_num", "d2_num", "d3_num"};
  for (uint16_t i = 0; i < kApDims; ++i) {
    f.push_back({kStep[i], uint16_t(64 + 32 * i), 16, true,
                 i == 0 ? "free dim step in elements, d0 outermost" : "free dim step"});
    f.push_back({kNum[i], uint16_t(80 + 32 * i), 16, false,
                 i == 3 ? "free dim size, d3 innermost" : "free dim size"});
  }
  return f;
}

std::vector<FieldDef> desc_side_fields() {
  std::vector<FieldDef> f = {
      {"space", 0, 2, false, "0 HBM, 1 SBUF, 2 PSUM"},
      {"dtype", 2, 4, false, "element dtype code"},
      {"start", 8, 8, false, "start partition (on-chip)"},
      {"address", 16, 48, false, "HBM byte address, or byte offset in each partition"},
  };
  static const char* const kStep[] = {"d0_step", "d1_step", "d2_step", "d3_step"};
  static const char* const kNum[] = {"d0_num", "d1_num", "d2_num", "d3_num"};
  for (uint16_t i = 0; i < kApDims; ++i) {
    f.push_back({kStep[i], uint16_t(64 + 48 * i), 32, true,
                 i == 0 ? "bytes (on-chip: partitions)" : "bytes"});
    f.push_back({kNum[i], uint16_t(96 + 48 * i), 16, false, "elements"});
  }
  return f;
}

const std::vector<LayoutInfo>& layout_table() {
  static const std::vector<LayoutInfo> kLayouts = {
      {Layout::kHeader, "Hdr", 0,
       {{"opcode", 0, 8, false, "opcode"},
        {"wait_en", 8, 1, false, "wait before issue"},
        {"wait_sem", 9, 6, false, "semaphore waited on"},
        {"wait_reg", 15, 6, false, "register added to wait_value (r0: none)"},
        {"upd_mode", 21, 2, false, "0 none, 1 add, 2 set (on completion)"},
        {"upd_sem", 23, 6, false, "semaphore updated"},
        {"upd_value", 29, 8, false, "value added or set"},
        {"wait_value", 40, 24, true, "issue when int32(sem) >= wait_value + reg (signed)"}}},
      {Layout::kAlu, "Alu", 64,
       {{"rd", 0, 6, false, "destination register"},
        {"rs1", 6, 6, false, "first source register"},
        {"rs2", 12, 6, false, "second source register"},
        {"use_imm", 18, 1, false, "second operand is imm"},
        {"imm", 32, 32, false, "immediate"}}},
      {Layout::kMem, "Mem", 64,
       {{"rd", 0, 6, false, "ld: destination register"},
        {"rs1", 6, 6, false, "address register"},
        {"rs2", 12, 6, false, "st: register stored"},
        {"imm", 32, 32, false, "HBM byte address added to rs1 (4-byte aligned)"}}},
      {Layout::kBranch, "Br", 64,
       {{"rs1", 6, 6, false, "first compared register"},
        {"rs2", 12, 6, false, "second compared register"},
        {"use_imm", 18, 1, false, "compare with imm"},
        {"imm", 32, 32, false, "immediate"},
        {"target", 64, 32, false, "instruction index taken"}}},
      {Layout::kLoop, "Loop", 64,
       {{"rd", 0, 6, false, "counter: rd -= 1, branch while rd != 0"},
        {"target", 64, 32, false, "instruction index of the loop body"}}},
      {Layout::kNotify, "Notify", 64, {{"imm", 32, 32, false, "interrupt code"}}},
      {Layout::kDma, "Dma", 64,
       {{"rd", 0, 6, false, "register added to the descriptor index"},
        {"rs1", 6, 6, false, "register added to the source address/offset"},
        {"rs2", 12, 6, false, "register added to the destination address/offset"},
        {"queue", 20, 8, false, "DMA queue: engine * queues + queue"},
        {"imm", 32, 32, false, "descriptor index"}}},
      {Layout::kPe, "Pe", 64,
       {{"accumulate", 0, 1, false, "matmul: add into PSUM"},
        {"acc_reg", 6, 6, false, "matmul: add into PSUM when this register is nonzero (r0: never)"}}},
      {Layout::kAct, "Act", 64,
       {{"func", 0, 5, false, "activation function"},
        {"stochastic", 5, 1, false, "output rounding: 0 RNE, 1 SR"},
        {"reduce_op", 6, 1, false, "0 add, 1 max"},
        {"reduce_cmd", 8, 3, false, "idle, reset, reduce, reset_reduce, load_reduce"}}},
      {Layout::kDve, "Dve", 64,
       {{"alu0", 0, 5, false, "first element op"},
        {"alu1", 5, 5, false, "second element op"},
        {"stochastic", 10, 1, false, "output rounding: 0 RNE, 1 SR"},
        {"saturate", 11, 1, false, "float overflow saturates"},
        {"reverse0", 12, 1, false, "op0 takes (scalar, x)"},
        {"reverse1", 13, 1, false, "op1 takes (scalar, x)"},
        {"negate", 14, 1, false, "reductions: negate the result"},
        {"imm2", 32, 32, false, "third immediate"}}},
      {Layout::kAp, "Ap", 128, ap_fields()},
      {Layout::kScalar, "Sc", 896,
       {{"imm", 0, 32, false, "immediate bits, or byte offset when per_partition"},
        {"per_partition", 32, 1, false, "one value per partition"},
        {"mem", 33, 1, false, "0 SBUF, 1 PSUM"},
        {"dtype", 34, 4, false, "dtype of the per-partition values"},
        {"start", 38, 8, false, "start partition"},
        {"base_reg", 46, 6, false, "register added to the offset"}}},
      {Layout::kDescSide, "Desc", 0, desc_side_fields()},
  };
  return kLayouts;
}

}  // namespace

Layout format_layout(Format f) {
  switch (f) {
    case Format::kAlu: return Layout::kAlu;
    case Format::kLoad:
    case Format::kStore: return Layout::kMem;
    case Format::kBranch: return Layout::kBranch;
    case Format::kLoop: return Layout::kLoop;
    case Format::kNotify: return Layout::kNotify;
    case Format::kDma: return Layout::kDma;
    case Format::kPeLoad:
    case Format::kPeMatmul:
    case Format::kPeTranspose: return Layout::kPe;
    case Format::kAct: return Layout::kAct;
    case Format::kDve: return Layout::kDve;
    case Format::kNone: break;
  }
  return Layout::kHeader;
}

const char* format_name(Format f) {
  switch (f) {
    case Format::kNone: return "none";
    case Format::kAlu: return "alu";
    case Format::kLoad: return "load";
    case Format::kStore: return "store";
    case Format::kBranch: return "branch";
    case Format::kLoop: return "loop";
    case Format::kNotify: return "notify";
    case Format::kDma: return "dma";
    case Format::kPeLoad: return "pe_load";
    case Format::kPeMatmul: return "pe_matmul";
    case Format::kPeTranspose: return "pe_transpose";
    case Format::kAct: return "act";
    case Format::kDve: return "dve";
  }
  return "?";
}

const char* seq_name(Seq s) {
  static const char* const kNames[] = {"pe", "act", "dve", "pool", "sp"};
  return unsigned(s) < kNumSeqs ? kNames[unsigned(s)] : "?";
}

std::optional<Seq> seq_from_name(const std::string& name) {
  for (int i = 0; i < kNumSeqs; ++i)
    if (name == seq_name(Seq(i))) return Seq(i);
  return std::nullopt;
}

const char* mem_name(Mem m) { return m == Mem::kSbuf ? "sbuf" : "psum"; }
const char* space_name(Space s) {
  switch (s) {
    case Space::kHbm: return "hbm";
    case Space::kSbuf: return "sbuf";
    case Space::kPsum: return "psum";
  }
  return "?";
}

const std::vector<OpcodeInfo>& opcodes() {
  static const std::vector<OpcodeInfo> kOps = {
      {Opcode::kNop, "nop", Format::kNone, kAllSeqs, "no operation (a carrier for waits and signals)"},
      {Opcode::kHalt, "halt", Format::kNone, kAllSeqs, "stop this sequencer"},
      {Opcode::kNotify, "notify", Format::kNotify, kAllSeqs, "raise the interrupt with a code"},
      {Opcode::kLd, "ld", Format::kLoad, kAllSeqs, "rd = HBM word at rs1 + imm"},
      {Opcode::kSt, "st", Format::kStore, kAllSeqs, "HBM word at rs1 + imm = rs2"},
      {Opcode::kLoop, "loop", Format::kLoop, kAllSeqs, "rd -= 1; branch to target while rd != 0"},
      {Opcode::kDma, "dma", Format::kDma, kAllSeqs, "queue a DMA descriptor; update on completion"},
      {Opcode::kAdd, "add", Format::kAlu, kAllSeqs, "rd = rs1 + b"},
      {Opcode::kSub, "sub", Format::kAlu, kAllSeqs, "rd = rs1 - b"},
      {Opcode::kMul, "mul", Format::kAlu, kAllSeqs, "rd = low 32 bits of rs1 * b"},
      {Opcode::kAnd, "and", Format::kAlu, kAllSeqs, "rd = rs1 & b"},
      {Opcode::kOr, "or", Format::kAlu, kAllSeqs, "rd = rs1 | b"},
      {Opcode::kXor, "xor", Format::kAlu, kAllSeqs, "rd = rs1 ^ b"},
      {Opcode::kShl, "shl", Format::kAlu, kAllSeqs, "rd = rs1 << (b & 31)"},
      {Opcode::kShr, "shr", Format::kAlu, kAllSeqs, "rd = rs1 >> (b & 31), logical"},
      {Opcode::kSra, "sra", Format::kAlu, kAllSeqs, "rd = rs1 >> (b & 31), arithmetic"},
      {Opcode::kSlt, "slt", Format::kAlu, kAllSeqs, "rd = signed rs1 < b"},
      {Opcode::kSltu, "sltu", Format::kAlu, kAllSeqs, "rd = unsigned rs1 < b"},
      {Opcode::kMin, "min", Format::kAlu, kAllSeqs, "rd = signed min(rs1, b)"},
      {Opcode::kMax, "max", Format::kAlu, kAllSeqs, "rd = signed max(rs1, b)"},
      {Opcode::kBeq, "beq", Format::kBranch, kAllSeqs, "branch if rs1 == b"},
      {Opcode::kBne, "bne", Format::kBranch, kAllSeqs, "branch if rs1 != b"},
      {Opcode::kBlt, "blt", Format::kBranch, kAllSeqs, "branch if signed rs1 < b"},
      {Opcode::kBge, "bge", Format::kBranch, kAllSeqs, "branch if signed rs1 >= b"},
      {Opcode::kBltu, "bltu", Format::kBranch, kAllSeqs, "branch if unsigned rs1 < b"},
      {Opcode::kBgeu, "bgeu", Format::kBranch, kAllSeqs, "branch if unsigned rs1 >= b"},
      {Opcode::kLdStat, "ldstat", Format::kPeLoad, kPe, "LoadStationary: ap1 (K x M)"},
      {Opcode::kMatmul, "matmul", Format::kPeMatmul, kPe, "MultiplyMoving: ap0 (PSUM M x N) = stat^T @ ap1 (K x N)"},
      {Opcode::kPeTranspose, "pe_transpose", Format::kPeTranspose, kPe, "ap0 (PSUM M x K) = stat^T"},
      {Opcode::kActivate, "activate", Format::kAct, seq_bit(Seq::kAct), "ap0 = func(ap1 * s0 + s1), reduce"},
      {Opcode::kTensorTensor, "tensor_tensor", Format::kDve, kVec, "ap0 = alu0(ap1, ap2)"},
      {Opcode::kTensorScalar, "tensor_scalar", Format::kDve, kVec, "ap0 = alu1(alu0(ap1, s0), s1)"},
      {Opcode::kScalarTensorTensor, "scalar_tensor_tensor", Format::kDve, kVec, "ap0 = alu1(alu0(ap1, s0), ap2)"},
      {Opcode::kTensorReduce, "tensor_reduce", Format::kDve, kVec, "ap0 = fold alu0 over ap1"},
      {Opcode::kTensorScalarReduce, "tensor_scalar_reduce", Format::kDve, kVec, "ap0 = alu0(ap1, s0), then the alu1 fold"},
      {Opcode::kTensorTensorScan, "tensor_tensor_scan", Format::kDve, kVec, "ap0 = scan alu1(alu0(acc, ap1), ap2)"},
      {Opcode::kTensorCopy, "tensor_copy", Format::kDve, kVec, "ap0 = ap1, converted"},
      {Opcode::kMemset, "memset", Format::kDve, kVec, "ap0 = s0"},
      {Opcode::kSelect, "select", Format::kDve, kVec, "ap0 = ap1 != 0 ? ap2 : s0"},
      {Opcode::kIota, "iota", Format::kDve, kVec, "ap0 = s0 + p * s1 + imm2 * i"},
      {Opcode::kBnStats, "bn_stats", Format::kDve, kVec, "ap0 = (count, mean, M2) of ap1"},
      {Opcode::kBnAggr, "bn_aggr", Format::kDve, kVec, "ap0 = (mean, var) of ap1's triples"},
      {Opcode::kMax8, "max8", Format::kDve, kVec, "ap0 = 8 largest of ap1"},
      {Opcode::kTranspose, "transpose", Format::kDve, kVec, "ap0 = 32x32 block transpose of ap1"},
  };
  return kOps;
}

const OpcodeInfo* opcode_info(uint8_t code) {
  for (const OpcodeInfo& o : opcodes())
    if (uint8_t(o.op) == code) return &o;
  return nullptr;
}

const OpcodeInfo* opcode_from_mnemonic(const std::string& mnemonic) {
  for (const OpcodeInfo& o : opcodes())
    if (mnemonic == o.mnemonic) return &o;
  return nullptr;
}

const std::vector<LayoutInfo>& layouts() { return layout_table(); }

const LayoutInfo& layout(Layout l) {
  for (const LayoutInfo& info : layout_table())
    if (info.layout == l) return info;
  throw Error("isa: unknown layout");
}

const FieldDef& field(Layout l, const std::string& name) {
  const LayoutInfo& info = layout(l);
  for (const FieldDef& f : info.fields)
    if (name == f.name) return f;
  throw Error(fmt::format("isa: layout {} has no field '{}'", info.name, name));
}

uint16_t ap_slot_lsb(uint32_t slot) { return uint16_t(layout(Layout::kAp).base + kApBits * slot); }
uint16_t scalar_slot_lsb(uint32_t slot) {
  return uint16_t(layout(Layout::kScalar).base + kScalarBits * slot);
}
uint16_t desc_side_lsb(uint32_t side) { return uint16_t(kDescSideBits * side); }

// ---------------------------------------------------------------------------------------------
// Bit container.

template <uint32_t Bits>
uint64_t BitWords<Bits>::get(uint32_t lsb, uint32_t width) const {
  uint64_t v = 0;
  for (uint32_t i = 0; i < width; ++i) {
    const uint32_t b = lsb + i;
    v |= ((words[b / 64] >> (b % 64)) & 1u) << i;
  }
  return v;
}

template <uint32_t Bits>
void BitWords<Bits>::set(uint32_t lsb, uint32_t width, uint64_t value) {
  if (width < 64 && (value >> width) != 0)
    throw Error(fmt::format("value {} does not fit in {} bits", value, width));
  for (uint32_t i = 0; i < width; ++i) {
    const uint32_t b = lsb + i;
    const uint64_t mask = uint64_t(1) << (b % 64);
    words[b / 64] = ((value >> i) & 1u) ? (words[b / 64] | mask) : (words[b / 64] & ~mask);
  }
}

template <uint32_t Bits>
int64_t BitWords<Bits>::get_signed(uint32_t lsb, uint32_t width) const {
  const uint64_t v = get(lsb, width);
  const uint64_t sign = uint64_t(1) << (width - 1);
  return int64_t(v ^ sign) - int64_t(sign);
}

template <uint32_t Bits>
void BitWords<Bits>::set_signed(uint32_t lsb, uint32_t width, int64_t value) {
  const int64_t lo = -(int64_t(1) << (width - 1));
  const int64_t hi = (int64_t(1) << (width - 1)) - 1;
  if (value < lo || value > hi)
    throw Error(fmt::format("value {} does not fit in {} signed bits", value, width));
  set(lsb, width, uint64_t(value) & ((uint64_t(1) << width) - 1));
}

template class BitWords<kInstrBits>;
template class BitWords<kDescBits>;

// ---------------------------------------------------------------------------------------------
// Operands.

uint64_t AccessPattern::free_elements() const {
  uint64_t n = 1;
  for (const Dim& d : dims) n *= d.num;
  return n;
}

bool AccessPattern::operator==(const AccessPattern& o) const {
  return mem == o.mem && dtype == o.dtype && start_partition == o.start_partition &&
         partitions == o.partitions && base_reg == o.base_reg && offset == o.offset &&
         dims == o.dims;
}

bool ScalarOperand::operator==(const ScalarOperand& o) const {
  return per_partition == o.per_partition && imm == o.imm && mem == o.mem && dtype == o.dtype &&
         start_partition == o.start_partition && base_reg == o.base_reg;
}

bool Sync::operator==(const Sync& o) const {
  return wait == o.wait && wait_sem == o.wait_sem && wait_reg == o.wait_reg &&
         wait_value == o.wait_value && update == o.update && update_sem == o.update_sem &&
         update_value == o.update_value;
}

bool Instruction::operator==(const Instruction& o) const {
  return op == o.op && sync == o.sync && rd == o.rd && rs1 == o.rs1 && rs2 == o.rs2 &&
         use_imm == o.use_imm && imm == o.imm && target == o.target && queue == o.queue &&
         ap == o.ap && scalar == o.scalar && func == o.func && reduce_cmd == o.reduce_cmd &&
         reduce_op == o.reduce_op && alu0 == o.alu0 && alu1 == o.alu1 &&
         stochastic == o.stochastic && saturate == o.saturate && reverse0 == o.reverse0 &&
         reverse1 == o.reverse1 && negate == o.negate && imm2 == o.imm2 &&
         accumulate == o.accumulate && acc_reg == o.acc_reg;
}

uint64_t DescSide::elements() const {
  uint64_t n = 1;
  for (const Dim& d : dims) n *= d.num;
  return n;
}

bool DescSide::operator==(const DescSide& o) const {
  return space == o.space && dtype == o.dtype && start_partition == o.start_partition &&
         address == o.address && dims == o.dims;
}

bool Program::operator==(const Program& o) const {
  return streams == o.streams && descriptors == o.descriptors;
}

// ---------------------------------------------------------------------------------------------
// Encoding: every field goes through its table entry.

namespace {

// Reads and writes the fields of one layout placed at `base` in a bit container.
template <uint32_t Bits>
class FieldIo {
 public:
  FieldIo(BitWords<Bits>& bits, Layout l, uint32_t base) : bits_(bits), layout_(l), base_(base) {}
  void put(const char* name, uint64_t v) {
    const FieldDef& f = field(layout_, name);
    try {
      bits_.set(base_ + f.lsb, f.width, v);
    } catch (const Error& e) {
      throw Error(fmt::format("field {}.{}: {}", layout(layout_).name, name, e.what()));
    }
  }
  void put_signed(const char* name, int64_t v) {
    const FieldDef& f = field(layout_, name);
    try {
      bits_.set_signed(base_ + f.lsb, f.width, v);
    } catch (const Error& e) {
      throw Error(fmt::format("field {}.{}: {}", layout(layout_).name, name, e.what()));
    }
  }
  uint64_t get(const char* name) const {
    const FieldDef& f = field(layout_, name);
    return bits_.get(base_ + f.lsb, f.width);
  }
  int64_t get_signed(const char* name) const {
    const FieldDef& f = field(layout_, name);
    return bits_.get_signed(base_ + f.lsb, f.width);
  }

 private:
  BitWords<Bits>& bits_;
  Layout layout_;
  uint32_t base_;
};

const char* const kDimStep[] = {"d0_step", "d1_step", "d2_step", "d3_step"};
const char* const kDimNum[] = {"d0_num", "d1_num", "d2_num", "d3_num"};

Dtype checked_dtype(uint64_t code, const char* what) {
  if (code >= uint64_t(kNumDtypes))
    throw Error(fmt::format("illegal {} dtype code {}", what, code));
  return Dtype(code);
}

void encode_ap(InstrBits& bits, uint32_t slot, const AccessPattern& ap) {
  FieldIo<kInstrBits> io(bits, Layout::kAp, ap_slot_lsb(slot));
  io.put("mem", uint64_t(ap.mem));
  io.put("dtype", uint64_t(ap.dtype));
  io.put("start", ap.start_partition);
  io.put("partitions", ap.partitions);
  io.put("base_reg", ap.base_reg);
  io.put("offset", ap.offset);
  for (uint32_t i = 0; i < kApDims; ++i) {
    io.put_signed(kDimStep[i], ap.dims[i].step);
    io.put(kDimNum[i], ap.dims[i].num);
  }
}

AccessPattern decode_ap(InstrBits& bits, uint32_t slot) {
  FieldIo<kInstrBits> io(bits, Layout::kAp, ap_slot_lsb(slot));
  AccessPattern ap;
  ap.mem = Mem(io.get("mem"));
  ap.dtype = checked_dtype(io.get("dtype"), "access pattern");
  ap.start_partition = uint32_t(io.get("start"));
  ap.partitions = uint32_t(io.get("partitions"));
  ap.base_reg = uint32_t(io.get("base_reg"));
  ap.offset = uint32_t(io.get("offset"));
  for (uint32_t i = 0; i < kApDims; ++i) {
    ap.dims[i].step = int32_t(io.get_signed(kDimStep[i]));
    ap.dims[i].num = uint32_t(io.get(kDimNum[i]));
  }
  return ap;
}

void encode_scalar(InstrBits& bits, uint32_t slot, const ScalarOperand& s) {
  FieldIo<kInstrBits> io(bits, Layout::kScalar, scalar_slot_lsb(slot));
  io.put("imm", s.imm);
  io.put("per_partition", s.per_partition);
  if (!s.per_partition) return;
  io.put("mem", uint64_t(s.mem));
  io.put("dtype", uint64_t(s.dtype));
  io.put("start", s.start_partition);
  io.put("base_reg", s.base_reg);
}

ScalarOperand decode_scalar(InstrBits& bits, uint32_t slot) {
  FieldIo<kInstrBits> io(bits, Layout::kScalar, scalar_slot_lsb(slot));
  ScalarOperand s;
  s.imm = uint32_t(io.get("imm"));
  s.per_partition = io.get("per_partition") != 0;
  if (!s.per_partition) return s;
  s.mem = Mem(io.get("mem"));
  s.dtype = checked_dtype(io.get("dtype"), "scalar operand");
  s.start_partition = uint32_t(io.get("start"));
  s.base_reg = uint32_t(io.get("base_reg"));
  return s;
}

}  // namespace

FormatSlots format_slots(Format f) {
  switch (f) {
    case Format::kPeLoad: return {0b0010, 0};
    case Format::kPeMatmul: return {0b0011, 0};
    case Format::kPeTranspose: return {0b0001, 0};
    case Format::kAct: return {0b1111, 2};
    case Format::kDve: return {0b0111, 2};
    default: return {0, 0};
  }
}

InstrBits encode(const Instruction& in) {
  const OpcodeInfo* info = opcode_info(uint8_t(in.op));
  if (!info) throw Error(fmt::format("illegal opcode 0x{:02x}", unsigned(in.op)));
  InstrBits bits;
  FieldIo<kInstrBits> hdr(bits, Layout::kHeader, 0);
  hdr.put("opcode", uint64_t(in.op));
  hdr.put("wait_en", in.sync.wait);
  if (in.sync.wait) {
    hdr.put("wait_sem", in.sync.wait_sem);
    hdr.put("wait_reg", in.sync.wait_reg);
    hdr.put_signed("wait_value", in.sync.wait_value);
  }
  hdr.put("upd_mode", uint64_t(in.sync.update));
  if (in.sync.update != SemUpdate::kNone) {
    hdr.put("upd_sem", in.sync.update_sem);
    hdr.put("upd_value", in.sync.update_value);
  }
  const Layout l = format_layout(info->format);
  FieldIo<kInstrBits> op(bits, l, l == Layout::kHeader ? 0 : layout(l).base);
  switch (info->format) {
    case Format::kNone: break;
    case Format::kAlu:
      op.put("rd", in.rd);
      op.put("rs1", in.rs1);
      op.put("use_imm", in.use_imm);
      if (in.use_imm) op.put("imm", in.imm); else op.put("rs2", in.rs2);
      break;
    case Format::kLoad:
      op.put("rd", in.rd);
      op.put("rs1", in.rs1);
      op.put("imm", in.imm);
      break;
    case Format::kStore:
      op.put("rs2", in.rs2);
      op.put("rs1", in.rs1);
      op.put("imm", in.imm);
      break;
    case Format::kBranch:
      op.put("rs1", in.rs1);
      op.put("use_imm", in.use_imm);
      if (in.use_imm) op.put("imm", in.imm); else op.put("rs2", in.rs2);
      op.put("target", in.target);
      break;
    case Format::kLoop:
      op.put("rd", in.rd);
      op.put("target", in.target);
      break;
    case Format::kNotify: op.put("imm", in.imm); break;
    case Format::kDma:
      op.put("queue", in.queue);
      op.put("imm", in.imm);
      op.put("rd", in.rd);
      op.put("rs1", in.rs1);
      op.put("rs2", in.rs2);
      break;
    case Format::kPeLoad:
    case Format::kPeTranspose: break;
    case Format::kPeMatmul:
      op.put("accumulate", in.accumulate);
      op.put("acc_reg", in.acc_reg);
      break;
    case Format::kAct:
      op.put("func", in.func);
      op.put("stochastic", in.stochastic);
      op.put("reduce_op", in.reduce_op);
      op.put("reduce_cmd", in.reduce_cmd);
      break;
    case Format::kDve:
      op.put("alu0", in.alu0);
      op.put("alu1", in.alu1);
      op.put("stochastic", in.stochastic);
      op.put("saturate", in.saturate);
      op.put("reverse0", in.reverse0);
      op.put("reverse1", in.reverse1);
      op.put("negate", in.negate);
      op.put("imm2", in.imm2);
      break;
  }
  const FormatSlots slots = format_slots(info->format);
  for (uint32_t s = 0; s < kApSlots; ++s)
    if (slots.ap_mask & (1u << s)) encode_ap(bits, s, in.ap[s]);
  for (uint32_t s = 0; s < slots.scalars; ++s) encode_scalar(bits, s, in.scalar[s]);
  return bits;
}

Instruction decode(const InstrBits& const_bits) {
  InstrBits bits = const_bits;
  FieldIo<kInstrBits> hdr(bits, Layout::kHeader, 0);
  const uint8_t code = uint8_t(hdr.get("opcode"));
  const OpcodeInfo* info = opcode_info(code);
  if (!info) throw Error(fmt::format("illegal opcode 0x{:02x}", code));
  Instruction in;
  in.op = info->op;
  in.sync.wait = hdr.get("wait_en") != 0;
  if (in.sync.wait) {
    in.sync.wait_sem = uint32_t(hdr.get("wait_sem"));
    in.sync.wait_reg = uint32_t(hdr.get("wait_reg"));
    in.sync.wait_value = int32_t(hdr.get_signed("wait_value"));
  }
  const uint64_t mode = hdr.get("upd_mode");
  if (mode > 2) throw Error(fmt::format("illegal semaphore update mode {}", mode));
  in.sync.update = SemUpdate(mode);
  if (in.sync.update != SemUpdate::kNone) {
    in.sync.update_sem = uint32_t(hdr.get("upd_sem"));
    in.sync.update_value = uint32_t(hdr.get("upd_value"));
  }
  const Layout l = format_layout(info->format);
  FieldIo<kInstrBits> op(bits, l, l == Layout::kHeader ? 0 : layout(l).base);
  auto u32 = [&](const char* name) { return uint32_t(op.get(name)); };
  switch (info->format) {
    case Format::kNone: break;
    case Format::kAlu:
    case Format::kBranch:
      if (info->format == Format::kAlu) in.rd = u32("rd"); else in.target = u32("target");
      in.rs1 = u32("rs1");
      in.use_imm = op.get("use_imm") != 0;
      if (in.use_imm) in.imm = u32("imm"); else in.rs2 = u32("rs2");
      break;
    case Format::kLoad:
      in.rd = u32("rd");
      in.rs1 = u32("rs1");
      in.imm = u32("imm");
      break;
    case Format::kStore:
      in.rs2 = u32("rs2");
      in.rs1 = u32("rs1");
      in.imm = u32("imm");
      break;
    case Format::kLoop:
      in.rd = u32("rd");
      in.target = u32("target");
      break;
    case Format::kNotify: in.imm = u32("imm"); break;
    case Format::kDma:
      in.queue = u32("queue");
      in.imm = u32("imm");
      in.rd = u32("rd");
      in.rs1 = u32("rs1");
      in.rs2 = u32("rs2");
      break;
    case Format::kPeLoad:
    case Format::kPeTranspose: break;
    case Format::kPeMatmul:
      in.accumulate = op.get("accumulate") != 0;
      in.acc_reg = u32("acc_reg");
      break;
    case Format::kAct:
      in.func = u32("func");
      in.stochastic = op.get("stochastic") != 0;
      in.reduce_op = u32("reduce_op");
      in.reduce_cmd = u32("reduce_cmd");
      break;
    case Format::kDve:
      in.alu0 = u32("alu0");
      in.alu1 = u32("alu1");
      in.stochastic = op.get("stochastic") != 0;
      in.saturate = op.get("saturate") != 0;
      in.reverse0 = op.get("reverse0") != 0;
      in.reverse1 = op.get("reverse1") != 0;
      in.negate = op.get("negate") != 0;
      in.imm2 = u32("imm2");
      break;
  }
  const FormatSlots slots = format_slots(info->format);
  for (uint32_t s = 0; s < kApSlots; ++s)
    if (slots.ap_mask & (1u << s)) in.ap[s] = decode_ap(bits, s);
  for (uint32_t s = 0; s < slots.scalars; ++s) in.scalar[s] = decode_scalar(bits, s);
  // Bits no field of this format owns must be zero: re-encoding must give the same bits.
  const InstrBits again = encode(in);
  if (again != const_bits) {
    for (uint32_t b = 0; b < kInstrBits; ++b)
      if (again.get(b, 1) != const_bits.get(b, 1))
        throw Error(fmt::format("{}: reserved bit {} is set", info->mnemonic, b));
  }
  return in;
}

DescBits encode(const Descriptor& d) {
  DescBits bits;
  for (uint32_t side = 0; side < 2; ++side) {
    const DescSide& s = side == 0 ? d.src : d.dst;
    FieldIo<kDescBits> io(bits, Layout::kDescSide, desc_side_lsb(side));
    io.put("space", uint64_t(s.space));
    io.put("dtype", uint64_t(s.dtype));
    io.put("start", s.start_partition);
    io.put("address", s.address);
    for (uint32_t i = 0; i < kApDims; ++i) {
      io.put_signed(kDimStep[i], s.dims[i].step);
      io.put(kDimNum[i], s.dims[i].num);
    }
  }
  return bits;
}

Descriptor decode(const DescBits& const_bits) {
  DescBits bits = const_bits;
  Descriptor d;
  for (uint32_t side = 0; side < 2; ++side) {
    DescSide& s = side == 0 ? d.src : d.dst;
    FieldIo<kDescBits> io(bits, Layout::kDescSide, desc_side_lsb(side));
    const uint64_t space = io.get("space");
    if (space > 2) throw Error(fmt::format("descriptor: illegal space code {}", space));
    s.space = Space(space);
    s.dtype = checked_dtype(io.get("dtype"), "descriptor");
    s.start_partition = uint32_t(io.get("start"));
    s.address = io.get("address");
    for (uint32_t i = 0; i < kApDims; ++i) {
      s.dims[i].step = int32_t(io.get_signed(kDimStep[i]));
      s.dims[i].num = uint32_t(io.get(kDimNum[i]));
    }
  }
  if (encode(d) != const_bits) throw Error("descriptor: reserved bits are set");
  return d;
}

// ---------------------------------------------------------------------------------------------
// Binary image: "TERNPRG1", then six little-endian u32 counts (five streams, descriptors),
// then the instructions stream by stream, then the descriptors.

namespace {
constexpr char kMagic[8] = {'T', 'E', 'R', 'N', 'P', 'R', 'G', '1'};

void put_u32(std::vector<uint8_t>& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(uint8_t(v >> (8 * i)));
}

template <uint32_t Bits>
void put_bits(std::vector<uint8_t>& out, const BitWords<Bits>& b) {
  for (uint64_t w : b.words)
    for (int i = 0; i < 8; ++i) out.push_back(uint8_t(w >> (8 * i)));
}

class Reader {
 public:
  Reader(const std::vector<uint8_t>& data, const std::string& source)
      : data_(data), source_(source) {}
  uint64_t take(size_t bytes) {
    if (pos_ + bytes > data_.size())
      throw Error(fmt::format("{}: truncated program image at byte {}", source_, pos_));
    uint64_t v = 0;
    for (size_t i = 0; i < bytes; ++i) v |= uint64_t(data_[pos_ + i]) << (8 * i);
    pos_ += bytes;
    return v;
  }
  template <uint32_t Bits>
  BitWords<Bits> bits() {
    BitWords<Bits> b;
    for (uint64_t& w : b.words) w = take(8);
    return b;
  }
  size_t pos() const { return pos_; }
  bool done() const { return pos_ == data_.size(); }

 private:
  const std::vector<uint8_t>& data_;
  const std::string& source_;
  size_t pos_ = 0;
};
}  // namespace

std::vector<uint8_t> to_binary(const Program& p) {
  std::vector<uint8_t> out(kMagic, kMagic + 8);
  for (const auto& s : p.streams) put_u32(out, uint32_t(s.size()));
  put_u32(out, uint32_t(p.descriptors.size()));
  for (int seq = 0; seq < kNumSeqs; ++seq) {
    for (size_t i = 0; i < p.streams[seq].size(); ++i) {
      try {
        put_bits(out, encode(p.streams[seq][i]));
      } catch (const Error& e) {
        throw Error(fmt::format("{} instruction {}: {}", seq_name(Seq(seq)), i, e.what()));
      }
    }
  }
  for (size_t i = 0; i < p.descriptors.size(); ++i) {
    try {
      put_bits(out, encode(p.descriptors[i]));
    } catch (const Error& e) {
      throw Error(fmt::format("descriptor {}: {}", i, e.what()));
    }
  }
  return out;
}

Program from_binary(const std::vector<uint8_t>& image, const std::string& source) {
  if (image.size() < 8 || std::memcmp(image.data(), kMagic, 8) != 0)
    throw Error(fmt::format("{}: not a tern program image (no TERNPRG1 magic)", source));
  Reader r(image, source);
  r.take(8);
  std::array<uint32_t, kNumSeqs + 1> counts{};
  for (uint32_t& c : counts) c = uint32_t(r.take(4));
  Program p;
  for (int seq = 0; seq < kNumSeqs; ++seq) {
    for (uint32_t i = 0; i < counts[seq]; ++i) {
      const size_t at = r.pos();
      try {
        p.streams[seq].push_back(decode(r.bits<kInstrBits>()));
      } catch (const Error& e) {
        throw Error(fmt::format("{}: byte {}: {} instruction {}: {}", source, at,
                                seq_name(Seq(seq)), i, e.what()));
      }
    }
  }
  for (uint32_t i = 0; i < counts[kNumSeqs]; ++i) {
    const size_t at = r.pos();
    try {
      p.descriptors.push_back(decode(r.bits<kDescBits>()));
    } catch (const Error& e) {
      throw Error(fmt::format("{}: byte {}: descriptor {}: {}", source, at, i, e.what()));
    }
  }
  if (!r.done()) throw Error(fmt::format("{}: {} trailing bytes", source, image.size() - r.pos()));
  return p;
}

}  // namespace tern::isa
