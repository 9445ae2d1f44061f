// CorePlatform's member definitions, for the translation units that instantiate it for a
// verilated top (core_platform.cc: tiny and small; the simulation-speed bench: its threaded
// model). Include the top's header first, then this.
//
// The verilated headers come before <systemc>: with SystemC seen first, verilated.h switches
// its time source to SystemC's, unlike the plain C++ models it is linked with.
#pragma once

#include <verilated.h>
#include <verilated_fst_c.h>

#include "dut.h"
#include "owned_context.h"
#include "platform/core_platform.h"

#include <fmt/format.h>

#include <chrono>
#include <deque>
#include <type_traits>
#include <utility>

#include "common/error.h"
#include "core/seq_state.h"
#include "isa/asm.h"
#include "platform/axil_tlm_bridge.h"
#include "platform/host_initiator.h"

namespace tern::tb {

namespace platform_detail {

// tern_seq's states (core::SeqState, its state register's enum) that the timeline needs.
constexpr uint32_t kStWait = uint32_t(core::SeqState::kWait);
constexpr uint32_t kStExec = uint32_t(core::SeqState::kExec);
constexpr uint32_t kResetCycles = 4;
constexpr size_t kClockStackBytes = size_t{64} << 20;  // reserved, touched only as deep as used

template <typename T>
uint32_t field(const T& port, uint32_t lsb, uint32_t bits) {
  const uint32_t w = lsb / 32, off = lsb % 32;
  uint64_t v = detail::get_word(port, w);
  if (off + bits > 32) v |= uint64_t(detail::get_word(port, w + 1)) << 32;
  return uint32_t((v >> off) & ((uint64_t{1} << bits) - 1));
}

// Whether the model was verilated with FST tracing (the trn2 core is not: rtl/CMakeLists.txt).
template <typename T, typename = void>
struct HasFstTrace : std::false_type {};
template <typename T>
struct HasFstTrace<T, std::void_t<decltype(std::declval<T&>().trace(std::declval<VerilatedFstC*>(), 0))>>
    : std::true_type {};

}  // namespace platform_detail

template <typename Top>
struct CorePlatform<Top>::Impl {
  // The platform's own Verilator context, so it outlives the model whatever order static
  // objects die in (a platform held by a static is destroyed after Verilator's default one).
  tb::OwnedContext context;
  tb::Dut<Top> top;
  std::unique_ptr<VerilatedFstC> fst;
  std::unique_ptr<AxiTlmBridge> axi;
  std::unique_ptr<AxilTlmBridge<Top>> csr;
  std::unique_ptr<HostInitiator> host;
  std::unique_ptr<AxiChecker> checker;
  sc_core::sc_time period;

  // Job hand-over between run() and the host thread.
  const isa::Program* program = nullptr;
  uint32_t program_base = 0;
  const CoreConfig* expect = nullptr;
  bool job_pending = false, job_done = false;
  sc_core::sc_event job_ev;
  PlatformRun result;
  std::exception_ptr error;

  // Clock thread state.
  bool running = false;
  uint32_t reset_left = 0;
  sc_core::sc_event run_ev, reset_done_ev, irq_ev;
  uint64_t cycle = 0, time = 0;
  uint64_t origin = 0;  // the cycle the run started: timeline and retire times count from it

  // Timeline under construction.
  struct SeqTrack {
    uint32_t state = 0;
    uint64_t issue = 0, wait_start = 0;
    // Instructions that have started and not yet retired, oldest first: an engine instruction
    // may still run when the next one starts (tern_seq: "pending").
    struct Started {
      uint64_t issue, wait_start, start;
    };
    std::deque<Started> started;
    // Where each row's last slice ends: an instruction goes on the first row free at its start
    // ("pe", then "pe.2", "pe.3", ...), so no two slices of a row overlap. An engine that goes
    // ahead overlaps the next instruction, and the nops that pass it overlap both.
    std::vector<uint64_t> row_end;
  };
  std::array<SeqTrack, isa::kNumSeqs> seqs{};
  struct DmaTrack {
    bool active = false;
    uint64_t begin = 0;
  };
  std::vector<DmaTrack> dmas;
};

template <typename Top>
CorePlatform<Top>::CorePlatform(sc_core::sc_module_name name, PlatformOptions opt)
    : sc_module(name), opt_(std::move(opt)), impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.period = sc_core::sc_time(1e6 / opt_.clock_mhz, sc_core::SC_PS);
  if (!opt_.waves.empty()) m.context->traceEverOn(true);  // before the model is built
  m.top = std::make_unique<Top>(m.context.get(), "tern_core");
  if (!opt_.waves.empty()) {
    if constexpr (platform_detail::HasFstTrace<Top>::value) {
      m.fst = std::make_unique<VerilatedFstC>();
      m.top->trace(m.fst.get(), 99);
      m.fst->open(opt_.waves.c_str());
    } else {
      throw Error(fmt::format("waves '{}': this core model was verilated without FST tracing",
                              opt_.waves));
    }
  }
  const uint32_t data_bytes = uint32_t(sizeof(m.top->m_axi_wstrb_o) * 8);
  hbm_ = std::make_unique<HbmTarget>("hbm", 4096, m.period,
                                     std::vector<HbmPortTiming>{opt_.core_port, opt_.host_port});
  m.axi = std::make_unique<AxiTlmBridge>("axi", data_bytes, m.period);
  m.csr = std::make_unique<AxilTlmBridge<Top>>("csr", *m.top);
  m.host = std::make_unique<HostInitiator>("host");
  m.checker = std::make_unique<AxiChecker>("core m_axi", data_bytes);
  m.axi->socket.bind(hbm_->socket);   // HBM port 0
  m.host->hbm.bind(hbm_->socket);     // HBM port 1
  m.host->csr.bind(m.csr->socket);
  m.axi->on_write = [this](const AxiWriteEvent& e) {
    if (on_hbm_write) on_hbm_write(e);
  };
  m.dmas.resize(sizeof(m.top->trace_dma_active_o) * 8);
  SC_THREAD(clock_thread);
  // The model is evaluated on this thread's own stack, and a big core's eval functions have big
  // frames (trn2: 2.1 MB for one, where SystemC's default thread stack is 256 KB).
  set_stack_size(platform_detail::kClockStackBytes);
  SC_THREAD(host_thread);
}

template <typename Top>
CorePlatform<Top>::~CorePlatform() {
  impl_->top->final();
  if (impl_->fst) impl_->fst->close();
}

template <typename Top>
void CorePlatform<Top>::clock_thread() {
  using namespace platform_detail;
  Impl& m = *impl_;
  Top& t = *m.top;
  t.rst_ni = 0;
  for (;;) {
    while (!m.running) sc_core::wait(m.run_ev);
    try {
      if (m.reset_left > 0) {
        t.rst_ni = 0;
        if (--m.reset_left == 0) {
          m.axi->reset();
          m.checker->reset();
          m.reset_done_ev.notify(sc_core::SC_ZERO_TIME);
        }
      } else {
        t.rst_ni = 1;
      }
      drive_axi(t, m.axi->out());
      m.csr->drive();
      t.clk_i = 0;
      t.eval();
      if (m.fst) m.fst->dump(m.time++);
      const AxiMasterPins pins = sample_axi(t, m.axi->data_bytes());
      if (t.rst_ni) m.checker->cycle(pins, m.axi->out());
      m.axi->cycle(pins);
      m.csr->sample();

      // Trace port: retires, the per-engine timeline, DMA transfers.
      if (t.rst_ni && m.program) {
        const uint64_t now = m.cycle - m.origin;
        for (int s = 0; s < isa::kNumSeqs; ++s) {
          typename Impl::SeqTrack& k = m.seqs[size_t(s)];
          const uint32_t st = field(t.trace_state_o, 4 * s, 4);
          if (st == kStWait && k.state != kStWait) k.issue = k.wait_start = now;  // decoded
          if (st == kStExec && k.state != kStExec) k.started.push_back({k.issue, k.wait_start, now});
          k.state = st;
          if (!((t.trace_retire_o >> s) & 1)) continue;
          RetireEvent r;
          r.cycle = now;
          r.seq = s;
          r.pc = field(t.trace_pc_o, 32 * s, 32);
          if ((t.trace_rf_we_o >> s) & 1) {
            r.rd = field(t.trace_rf_wa_o, 6 * s, 6);
            r.rd_value = field(t.trace_rf_wd_o, 32 * s, 32);
          }
          const auto& stream = m.program->streams[size_t(s)];
          core::TraceEvent e;
          const typename Impl::SeqTrack::Started times =
              k.started.empty() ? typename Impl::SeqTrack::Started{now, now, now} : k.started.front();
          if (!k.started.empty()) k.started.pop_front();
          const uint64_t wait_start =
              times.start - times.wait_start > 1 ? times.wait_start : times.start;
          size_t row = 0;  // its wait slice too
          while (row < k.row_end.size() && k.row_end[row] > wait_start) ++row;
          if (row == k.row_end.size()) k.row_end.push_back(0);
          k.row_end[row] = now + 1;
          e.agent = isa::seq_name(isa::Seq(s));
          if (row > 0) e.agent += fmt::format(".{}", row + 1);
          e.pc = r.pc;
          if (r.pc < stream.size()) {
            const isa::OpcodeInfo* info = isa::opcode_info(uint8_t(stream[r.pc].op));
            e.name = info ? info->mnemonic : "?";
            e.detail = isa::sync_text(stream[r.pc].sync);
          }
          e.issue = times.issue;
          e.start = times.start;
          e.wait_start = wait_start;
          e.end = now + 1;
          e.rd = r.rd;
          e.rd_value = r.rd_value;
          m.result.timeline.push_back(std::move(e));
          if (on_retire) on_retire(r);
        }
        for (size_t d = 0; d < m.dmas.size(); ++d) {
          typename Impl::DmaTrack& k = m.dmas[d];
          const bool active = (t.trace_dma_active_o >> d) & 1;
          if (active && !k.active) k.begin = now;
          k.active = active;
          if (!((t.trace_dma_end_o >> d) & 1)) continue;
          const uint32_t queue = field(t.trace_dma_queue_o, 8 * uint32_t(d), 8);
          const uint32_t desc = field(t.trace_dma_desc_o, 32 * uint32_t(d), 32);
          core::TraceEvent e;
          e.agent = fmt::format("dma.q{}", queue);
          e.pc = field(t.trace_dma_pc_o, 32 * uint32_t(d), 32);
          e.name = fmt::format("dma d{}", desc);
          e.issue = e.start = e.wait_start = k.begin;
          e.end = now + 1;
          m.result.timeline.push_back(std::move(e));
          if (on_dma_end) on_dma_end(queue, desc, now);
        }
      }
      if (t.irq_o) m.irq_ev.notify(sc_core::SC_ZERO_TIME);
      t.clk_i = 1;
      t.eval();
      if (m.fst) m.fst->dump(m.time++);
      ++m.cycle;
    } catch (...) {
      // Stop the clock; wake the host (its CSR access in flight fails).
      m.error = std::current_exception();
      m.running = false;
      m.csr->abort();
      m.irq_ev.notify(sc_core::SC_ZERO_TIME);
      continue;
    }
    sc_core::wait(m.period);
  }
}

template <typename Top>
void CorePlatform<Top>::host_thread() {
  using platform_detail::kResetCycles;
  Impl& m = *impl_;
  for (;;) {
    while (!m.job_pending) sc_core::wait(m.job_ev);
    m.job_pending = false;
    try {
      m.reset_left = kResetCycles;
      m.running = true;
      m.run_ev.notify(sc_core::SC_ZERO_TIME);
      sc_core::wait(m.reset_done_ev);
      if (m.expect) check_core_config(*m.host, *m.expect);
      const isa::Program& p = *m.program;
      const CoreImage img = core_image_layout(p, m.program_base);
      if (img.end > hbm_->size())
        throw Error(fmt::format("core image: ends at 0x{:x}, past HBM (0x{:x} bytes)", img.end,
                                hbm_->size()));
      load_core_image(*m.host, p, img);
      m.result.timeline.clear();
      m.seqs = {};
      for (auto& d : m.dmas) d = {};
      hbm_->clear_stats();
      start_core(*m.host, p, img, hbm_->size(), opt_.limits);
      // The sequencers started a cycle or two ago; their first decode is a fetch latency away.
      const uint64_t start = m.cycle;
      m.origin = start;
      const sc_core::sc_time limit = sc_core::sc_time_stamp() + m.period * double(opt_.max_cycles);
      while (!m.top->irq_o && !m.error && sc_core::sc_time_stamp() < limit)
        sc_core::wait(limit - sc_core::sc_time_stamp(), m.irq_ev);
      m.result.cycles = m.cycle - start;
      m.result.status.cycles = m.result.cycles;
      m.result.status.timed_out = !m.top->irq_o;
      if (!m.error) read_core_status(*m.host, m.result.status);
      m.result.axi = m.checker->stats();
      m.result.hbm = hbm_->stats(0);
      m.job_done = true;
    } catch (...) {
      if (!m.error) m.error = std::current_exception();
    }
    m.running = false;
  }
}

template <typename Top>
PlatformRun CorePlatform<Top>::run(const isa::Program& p, const std::vector<uint8_t>& hbm_image,
                                   uint64_t hbm_bytes, uint32_t program_base,
                                   const CoreConfig* expect) {
  Impl& m = *impl_;
  if (hbm_image.size() > hbm_bytes)
    throw Error(fmt::format("platform: an HBM image of {} bytes in {} bytes of HBM",
                            hbm_image.size(), hbm_bytes));
  hbm_->resize(hbm_bytes);
  hbm_->load(0, hbm_image.data(), hbm_image.size());
  m.program = &p;
  m.program_base = program_base;
  m.expect = expect;
  m.result = {};
  m.error = nullptr;
  m.job_done = false;
  m.job_pending = true;
  m.job_ev.notify(sc_core::SC_ZERO_TIME);
  const auto t0 = std::chrono::steady_clock::now();
  sc_core::sc_start();
  m.result.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  m.program = nullptr;
  if (m.error) std::rethrow_exception(m.error);
  if (!m.job_done) throw Error("platform: the simulation stopped before the host finished");
  return std::move(m.result);
}

}  // namespace tern::tb
