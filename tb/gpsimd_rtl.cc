#include "gpsimd_rtl.h"

#include <fmt/format.h>

#include "common/error.h"

namespace tern::tb {

GpsimdRtl::GpsimdRtl(uint32_t hart_id) : image_(kMemBytes, 0) {
  ctx_->fatalOnError(false);  // a failed assertion is recorded: assertion_failed()
  m_ = std::make_unique<Vtern_gpsimd_tb>(ctx_.get());
  m_->hart_id_i = hart_id;
  m_->clk_i = 0;
  m_->rst_ni = 1;
  m_->eval();
  m_->rst_ni = 0;  // a falling edge the model sees, and a clock edge while in reset
  m_->eval();
  tick();
  m_->rst_ni = 1;
  m_->eval();
}

GpsimdRtl::~GpsimdRtl() {
  if (fst_) fst_->close();
}

void GpsimdRtl::trace(const std::string& path) {
  ctx_->traceEverOn(true);
  fst_ = std::make_unique<VerilatedFstC>();
  m_->trace(fst_.get(), 99);
  fst_->open(path.c_str());
  if (!fst_->isOpen()) throw Error(fmt::format("gpsimd rtl: cannot open waveform file {}", path));
  fst_->dump(time_++);
}

void GpsimdRtl::tick() {
  m_->clk_i = 1;
  m_->eval();
  if (fst_) fst_->dump(time_++);
  m_->clk_i = 0;
  m_->eval();
  if (fst_) fst_->dump(time_++);
}

void GpsimdRtl::write_memory(uint32_t addr, const std::vector<uint8_t>& bytes) {
  if (addr < kMemBase || uint64_t(addr - kMemBase) + bytes.size() > kMemBytes) {
    throw Error(fmt::format("gpsimd rtl: {} bytes at 0x{:08x} do not fit the local memory", bytes.size(), addr));
  }
  if (m_->running_o) throw Error("gpsimd rtl: local memory written while the core runs");
  const uint32_t first = addr - kMemBase;
  std::copy(bytes.begin(), bytes.end(), image_.begin() + first);
  for (uint32_t w = first / 4; w * 4 < first + bytes.size(); ++w) {
    uint32_t word = 0;
    for (int k = 0; k < 4; ++k) word |= uint32_t(image_[w * 4 + k]) << (8 * k);
    m_->load_en_i = 1;
    m_->load_addr_i = w;
    m_->load_data_i = word;
    tick();
  }
  m_->load_en_i = 0;
  m_->eval();
}

void GpsimdRtl::start(uint32_t pc) {
  m_->start_pc_i = pc;
  m_->start_i = 1;
  tick();
  m_->start_i = 0;
  m_->eval();
  cycle_ = 0;  // this cycle fetches the first instruction
  fault_reported_ = false;
}

std::optional<GpsimdRtl::Event> GpsimdRtl::next(uint64_t max_cycles) {
  for (uint64_t n = 0; n < max_cycles; ++n) {
    tick();
    ++cycle_;
    if (m_->retire_valid_o) {
      gpsimd::Retire r;
      r.pc = m_->retire_pc_o;
      r.insn = m_->retire_insn_o;
      if (m_->retire_rd_we_o) {
        r.dest = gpsimd::Retire::Dest::kX;
        r.rd = uint8_t(m_->retire_rd_o);
        r.rd_value = m_->retire_rd_value_o;
      }
      if (m_->retire_mem_we_o) {
        r.mem_write = true;
        r.mem_addr = m_->retire_mem_addr_o;
        r.mem_data = m_->retire_mem_data_o;
        r.mem_bytes = uint8_t(m_->retire_mem_bytes_o);
      }
      // The instruction left EX the cycle before, after the cycles the core says it stayed.
      return Event{r, std::nullopt, cycle_ - 1 - m_->retire_ex_stall_o};
    }
    if (m_->fault_o && !fault_reported_) {
      fault_reported_ = true;
      const gpsimd::Exception e{gpsimd::Cause(m_->fault_cause_o), m_->fault_pc_o, m_->fault_tval_o};
      return Event{std::nullopt, e, cycle_ - 1};
    }
    if (!m_->running_o) return std::nullopt;
  }
  return std::nullopt;
}

gpsimd::Core::Step GpsimdRtl::step() {
  const std::optional<Event> e = next(kMaxCyclesPerInstruction);
  if (!e) {
    throw Error(fmt::format("gpsimd rtl: the core neither retired an instruction nor faulted within {} cycles "
                            "(at cycle {})", kMaxCyclesPerInstruction, cycle_));
  }
  return {e->retired, e->exception};
}

namespace {

std::string text(const gpsimd::Retire& r) {
  std::string s = fmt::format("pc {:08x} insn {:08x}", r.pc, r.insn);
  if (r.dest != gpsimd::Retire::Dest::kNone) {
    s += fmt::format(" {}{}={:08x}", r.dest == gpsimd::Retire::Dest::kX ? 'x' : 'f', r.rd, r.rd_value);
  }
  if (r.mem_write) s += fmt::format(" mem[{:08x}]{}={:x}", r.mem_addr, r.mem_bytes, r.mem_data);
  return s;
}

}  // namespace

namespace {

bool same_retire(const gpsimd::Retire& a, const gpsimd::Retire& b) {
  return a.pc == b.pc && a.insn == b.insn && a.dest == b.dest && a.rd == b.rd && a.rd_value == b.rd_value &&
         a.mem_write == b.mem_write && a.mem_addr == b.mem_addr && a.mem_data == b.mem_data &&
         a.mem_bytes == b.mem_bytes;
}

bool same_exception(const gpsimd::Exception& a, const gpsimd::Exception& b) {
  return a.cause == b.cause && a.pc == b.pc && a.tval == b.tval;
}

std::string exception_text(const gpsimd::Exception& e) {
  return fmt::format("{} [tval 0x{:08x}]", describe(e), e.tval);  // every field, tval included
}

}  // namespace

std::string compare_step(const gpsimd::Core::Step& iss, uint64_t iss_cycle, const std::optional<GpsimdRtl::Event>& rtl) {
  // Compared field by field; the text is made only for a difference (this runs per instruction).
  const auto iss_text = [&] { return iss.exception ? exception_text(*iss.exception) : text(*iss.retired); };
  if (!rtl) {
    return fmt::format("the RTL neither retired nor faulted within {} cycles; the ISS {}",
                       GpsimdRtl::kMaxCyclesPerInstruction, iss_text());
  }
  const bool agree = iss.exception ? rtl->exception && same_exception(*iss.exception, *rtl->exception)
                                   : rtl->retired && same_retire(*iss.retired, *rtl->retired);
  if (!agree) {
    const std::string rtl_text = rtl->exception ? exception_text(*rtl->exception) : text(*rtl->retired);
    return fmt::format("ISS {}, RTL {}", iss_text(), rtl_text);
  }
  if (iss.retired && rtl->ex_cycle != iss_cycle) {
    return fmt::format("{}: in EX at cycle {} on the ISS, {} on the RTL", iss_text(), iss_cycle, rtl->ex_cycle);
  }
  return {};
}

LockstepEnd run_lockstep(gpsimd::Core& iss, GpsimdRtl& rtl, uint64_t max_instructions,
                         const std::function<bool(const gpsimd::Retire&)>& stop) {
  LockstepEnd end;
  while (end.retired < max_instructions) {
    const uint64_t iss_cycle = iss.cycles();
    const gpsimd::Core::Step s = iss.step();
    const std::string diff = compare_step(s, iss_cycle, rtl.next(GpsimdRtl::kMaxCyclesPerInstruction));
    if (!diff.empty()) {
      end.mismatch = fmt::format("instruction {}: {}", end.retired, diff);
      return end;
    }
    if (s.exception) {
      end.exception = s.exception;
      return end;
    }
    ++end.retired;
    if (stop && stop(*s.retired)) return end;
  }
  return end;
}

}  // namespace tern::tb
