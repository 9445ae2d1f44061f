#include "control_random.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "act/act_functions.h"
#include "act_check.h"
#include "core/core_model.h"
#include "dve/vector_engine.h"
#include "fault_check.h"
#include "isa/asm.h"
#include "pe_check.h"

namespace tern::tb {
namespace {

// The hazard's instructions, where the generator puts it.
std::string hazard_text(Hazard h, uint32_t label) {
  switch (h) {
    case Hazard::kMisaligned: return "  ld r5, [r0+4098]\n";
    case Hazard::kOutsideHbm: return "  st r5, [r0+0xfffffff0]\n";
    case Hazard::kBranchPastEnd: return "  beq r0, 0, @100000\n";
    case Hazard::kSpin: return fmt::format("spin{0}:\n  add r7, r7, 1\n  bne r0, 1, spin{0}\n", label);
    case Hazard::kDeadlock: return "  nop $S[40]>=1\n";  // semaphore 40 is never signalled
    default: return "";
  }
}

}  // namespace

std::string random_control_program(std::mt19937_64& rng, const Knobs& knobs) {
  auto pick = [&](uint32_t n) { return uint32_t(rng() % n); };
  static const char* const kAlu[] = {"add", "sub", "mul", "and", "or", "xor", "shl",
                                     "shr", "sra", "slt", "sltu", "min", "max"};
  static const char* const kBranch[] = {"beq", "bne", "blt", "bge", "bltu", "bgeu"};
  std::array<std::string, isa::kNumSeqs> text;
  std::array<uint32_t, isa::kNumSeqs> signals{}, labels{};
  // Now and then r0: it reads 0 and ignores writes.
  auto reg = [&] { return fmt::format("r{}", pick(16) == 0 ? 0 : 1 + pick(20)); };
  static const int64_t kExtremes[] = {0, 1, -1, 31, 32, 33, INT32_MAX, INT32_MIN};
  auto operand = [&] {
    if (pick(2)) return reg();
    if (knobs.extremes && pick(3) == 0) return std::to_string(kExtremes[pick(8)]);
    const int32_t imm = pick(4) == 0 ? int32_t(rng()) : int32_t(pick(200)) - 100;
    return std::to_string(imm);
  };
  auto alu = [&] { return fmt::format("  {} {}, {}, {}", kAlu[pick(13)], reg(), reg(), operand()); };
  for (int s = 0; s < isa::kNumSeqs; ++s)
    for (int r = 1; r <= 20; ++r) text[size_t(s)] += fmt::format("  add r{}, r0, {}\n", r, int32_t(rng()));
  const int rounds = 6 + int(pick(6));
  const int hazard_round = int(pick(uint32_t(rounds)));
  for (int round = 0; round < rounds; ++round) {
    if (round == hazard_round && knobs.hazard != Hazard::kNoHalt)
      text[size_t(knobs.hazard_seq)] += hazard_text(knobs.hazard, labels[size_t(knobs.hazard_seq)]++);
    for (int s = 0; s < isa::kNumSeqs; ++s) {
      std::string& t = text[size_t(s)];
      const uint32_t data = kControlDataBase + uint32_t(s) * 0x1000;
      // A wait on another sequencer's signals so far.
      const int o = int(pick(isa::kNumSeqs));
      if (o != s && signals[size_t(o)] > 0 && pick(2))
        t += fmt::format("  nop $S[{}]>={}\n", o, 1 + pick(signals[size_t(o)]));
      const int items = 2 + int(pick(6));
      for (int i = 0; i < items; ++i) {
        switch (pick(7)) {
          case 0:
          case 1: t += alu() + "\n"; break;
          case 2: {  // a counted loop of ALU work (on r0 the body runs once: r0 stays 0)
            const uint32_t l = labels[size_t(s)]++;
            const bool on_r0 = pick(4) == 0;
            if (!on_r0) t += fmt::format("  add r60, r0, {}\n", 1 + pick(5));
            t += fmt::format("loop{}:\n", l);
            for (uint32_t k = 0; k < 1 + pick(3); ++k) t += alu() + "\n";
            t += fmt::format("  loop {}, loop{}\n", on_r0 ? "r0" : "r60", l);
            break;
          }
          case 3: {  // a forward branch over ALU work
            const uint32_t l = labels[size_t(s)]++;
            t += fmt::format("  {} {}, {}, skip{}\n", kBranch[pick(6)], reg(), operand(), l);
            for (uint32_t k = 0; k < 1 + pick(3); ++k) t += alu() + "\n";
            t += fmt::format("skip{}:\n", l);
            break;
          }
          case 4:
            t += fmt::format("  st {}, [r0+{}]\n  ld {}, [r0+{}]\n", reg(), data + 4 * pick(32),
                             reg(), data + 4 * pick(32));
            break;
          case 5: t += fmt::format("  notify {}\n", pick(1000)); break;
          default:  // a signal, on an ALU instruction or a nop
            t += (pick(2) ? alu() : std::string("  nop")) + fmt::format(" $S[{}]++@complete\n", s);
            ++signals[size_t(s)];
            break;
        }
      }
    }
  }
  std::string out;
  for (int s = 0; s < isa::kNumSeqs; ++s) {
    out += fmt::format(".seq {}\n{}", isa::seq_name(isa::Seq(s)), text[size_t(s)]);
    for (int r = 1; r <= 60; r = r == 20 ? 60 : r + 1)  // every register it writes, to memory
      out += fmt::format("  st r{}, [r0+{}]\n", r, kControlDataBase + uint32_t(s) * 0x1000 + 0x800 + 4 * uint32_t(r));
    if (!(knobs.hazard == Hazard::kNoHalt && s == knobs.hazard_seq)) out += "  halt\n";
  }
  return out;
}


namespace {

// The engine bins of one instruction (control fields are ProgramCoverage::program's).
std::vector<std::string> engine_bins(const isa::Instruction& in) {
  std::vector<std::string> out;
  if (in.op == isa::Opcode::kActivate) {
    if (in.func < uint32_t(act::kNumActFuncs))
      out.push_back(fmt::format("act func {}", act::act_func_name(act::ActFunc(in.func))));
    out.push_back(fmt::format("act reduce cmd {}", in.reduce_cmd));
  }
  const bool alu0 = in.op == isa::Opcode::kTensorTensor || in.op == isa::Opcode::kTensorScalar;
  if (alu0 && in.alu0 < uint32_t(kNumDveAlus))
    out.push_back(fmt::format("dve alu {}", dve_alu_name(DveAlu(in.alu0))));
  if (in.op == isa::Opcode::kTensorScalar && in.alu1 < uint32_t(kNumDveAlus))
    out.push_back(fmt::format("dve alu {}", dve_alu_name(DveAlu(in.alu1))));
  if (in.op == isa::Opcode::kMatmul) {
    out.push_back(in.accumulate ? "matmul accumulate" : "matmul overwrite");
    if (in.acc_reg != 0) out.push_back("matmul acc_reg");
  }
  for (const isa::AccessPattern& ap : in.ap)
    if (ap.partitions != 0) out.push_back(fmt::format("ap {} {}", isa::mem_name(ap.mem), dtype_name(ap.dtype)));
  return out;
}

}  // namespace

void ProgramCoverage::program(const isa::Program& p) {
  for (const isa::Descriptor& d : p.descriptors)
    hit(fmt::format("dma {} to {}", isa::space_name(d.src.space), isa::space_name(d.dst.space)));
  for (const auto& stream : p.streams)
    for (const isa::Instruction& in : stream) {
      const isa::OpcodeInfo* info = isa::opcode_info(uint8_t(in.op));
      hit(std::string("op ") + info->mnemonic);
      for (const std::string& bin : engine_bins(in)) hit(bin);
      if (in.op == isa::Opcode::kLoop && in.rd == 0) hit("loop r0");
      if (info->format != isa::Format::kAlu && info->format != isa::Format::kBranch) continue;
      if (info->format == isa::Format::kAlu && in.rd == 0) hit("rd r0");
      if (in.rs1 == 0) hit("rs1 r0");
      if (!in.use_imm && in.rs2 == 0) hit("rs2 r0");
      if (in.use_imm && (in.imm == 0x7fffffffu || in.imm == 0x80000000u)) hit("imm int32 limit");
      if (in.use_imm && in.imm == 0xffffffffu) hit("imm -1");
      if (in.use_imm && in.imm == 32u) hit("imm 32 (shift past the word)");
    }
}

void ProgramCoverage::outcome(uint32_t fault_kind) {
  hit(fault_kind ? fmt::format("fault {}", core::fault_name(core::FaultKind(fault_kind))) : "no fault");
}

std::vector<std::string> ProgramCoverage::required() {
  std::vector<std::string> want = {"rd r0", "rs1 r0", "rs2 r0", "loop r0", "imm int32 limit", "imm -1",
                                   "imm 32 (shift past the word)", "no fault"};
  for (const char* op : {"add", "sub", "mul", "and", "or", "xor", "shl", "shr", "sra", "slt", "sltu",
                         "min", "max", "beq", "bne", "blt", "bge", "bltu", "bgeu", "loop", "ld", "st",
                         "nop", "notify", "halt"})
    want.push_back(std::string("op ") + op);
  for (core::FaultKind f : {core::FaultKind::kMemory, core::FaultKind::kPc, core::FaultKind::kBudget,
                            core::FaultKind::kDeadlock})
    want.push_back(fmt::format("fault {}", core::fault_name(f)));
  return want;
}

std::vector<std::string> ProgramCoverage::engine_required() {
  std::vector<std::string> want = {"matmul accumulate", "matmul overwrite", "matmul acc_reg", "ap psum fp32",
                                   "dma hbm to sbuf", "dma sbuf to hbm", "dma psum to hbm",
                                   "no fault"};
  const std::vector<std::string> control = required();  // the control generator's opcodes
  for (const isa::OpcodeInfo& op : isa::opcodes()) {
    const std::string bin = std::string("op ") + op.mnemonic;
    const isa::Format f = op.format;
    if (f != isa::Format::kAlu && f != isa::Format::kBranch &&
        std::find(control.begin(), control.end(), bin) == control.end())
      want.push_back(bin);
  }
  for (int f = 0; f < act::kNumActFuncs; ++f)
    want.push_back(fmt::format("act func {}", act::act_func_name(act::ActFunc(f))));
  for (int c = 0; c < 5; ++c) want.push_back(fmt::format("act reduce cmd {}", c));
  for (int a = 0; a < kNumDveAlus; ++a) want.push_back(fmt::format("dve alu {}", dve_alu_name(DveAlu(a))));
  for (Dtype d : kPeDtypes) want.push_back(fmt::format("ap sbuf {}", dtype_name(d)));
  for (Dtype d : kActDtypes) want.push_back(fmt::format("ap sbuf {}", dtype_name(d)));
  for (core::FaultKind f : {core::FaultKind::kIllegalInstruction, core::FaultKind::kOperand,
                            core::FaultKind::kEngine})
    want.push_back(fmt::format("fault {}", core::fault_name(f)));
  std::sort(want.begin(), want.end());
  want.erase(std::unique(want.begin(), want.end()), want.end());
  return want;
}

std::vector<std::string> ProgramCoverage::missing(const std::vector<std::string>& want) const {
  std::vector<std::string> out;
  for (const std::string& w : want)
    if (!bins_.count(w)) out.push_back(w);
  return out;
}

std::string ProgramCoverage::table() const {
  std::string out;
  for (const auto& [bin, n] : bins_) out += fmt::format("[ coverage ] {:<36} {:>9}\n", bin, n);
  return out;
}

SeqRunOptions ControlProgramCheck::options() {
  SeqRunOptions opt;
  opt.limits.budget = 1000;  // the spin hazard stops here, on both
  opt.mem_latency = 1;
  return opt;
}

ControlProgramCheck::ControlProgramCheck(const CoreConfig& cfg)
    : cfg_(cfg), rtl_(kControlHbmBytes, options()) {}

std::vector<std::string> ControlProgramCheck::run_one(std::mt19937_64& rng, uint64_t n) {
  Knobs k;
  k.extremes = true;
  if (rng() % 2) {
    k.hazard = Hazard(1 + rng() % (kHazards - 1));
    k.hazard_seq = int(rng() % isa::kNumSeqs);
  }
  const std::string text = random_control_program(rng, k);
  last_ = text;
  const isa::Program p = isa::assemble(text, fmt::format("random{}", n));
  coverage_.program(p);
  core::CoreOptions gopt;
  gopt.hbm_bytes = kControlHbmBytes;
  gopt.instruction_budget = options().limits.budget;
  core::CoreModel golden(cfg_, gopt);
  GoldenFault fault;
  try {
    golden.run(p);
  } catch (const core::CoreFault& f) {
    fault = GoldenFault(f);
  }
  coverage_.outcome(fault.kind);
  std::fill(rtl_.hbm().begin(), rtl_.hbm().end(), uint8_t(0));  // as the golden model's
  const SeqRunResult r = rtl_.run(p, kControlProgramBase);
  cycles_ += r.cycles;
  auto failed = [&](const std::string& what) {
    return std::vector<std::string>{fmt::format("program {}: {}\n{}", n, what, text)};
  };
  if (r.timed_out) return failed("the RTL timed out");
  const auto errors = seq_fault_mismatches(fault, r.err_code, r.err_pc);
  if (!errors.empty()) return failed(errors.front());
  if (fault.kind) return {};  // the golden model stops at its fault; the RTL's others go on
  std::vector<uint8_t> want(kControlProgramBase);
  golden.hbm().read(0, want.data(), want.size());
  const auto diff = std::mismatch(want.begin(), want.end(), rtl_.hbm().begin());
  if (diff.first != want.end())
    return failed(fmt::format("HBM byte 0x{:x} differs", diff.first - want.begin()));
  for (uint32_t i = 0; i < isa::kNumSems; ++i)
    if (r.sems[i] != golden.semaphore(i))
      return failed(fmt::format("semaphore {}: rtl {} golden {}", i, r.sems[i], golden.semaphore(i)));
  return {};
}

}  // namespace tern::tb
