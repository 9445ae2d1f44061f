// The host CSR block (rtl/core/tern_csr.sv, tiny config) through its AXI4-Lite port, driven by
// the register table of model/core/csr_map.cc: every register instance of the table is checked
// (reset values, RW with masks and WSTRB, RO values against random inputs, RO writes, WO pulses,
// W1C, every interrupt source, unmapped and unaligned addresses). A register the table gains
// without a binding to the RTL's ports here fails the tests by name.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <verilated.h>

#include <array>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "Vtern_csr_tiny.h"
#include "axil_master.h"
#include "dut.h"
#include "common/config.h"
#include "core/csr_map.h"
#include "test_util.h"

namespace tern {
namespace {

using Top = Vtern_csr_tiny;
using tb::AxiResp;
constexpr uint32_t kS = csr::kSeqCount;

// Bits [lsb, lsb + width) of a port of any width (integer or VlWide).
template <typename T>
void put_bits(T& port, uint32_t lsb, uint32_t width, uint64_t value) {
  for (uint32_t b = 0; b < width; ++b) {
    const uint64_t v = (value >> b) & 1u;
    const uint32_t i = lsb + b;
    if constexpr (std::is_integral_v<T>) {
      port = T((uint64_t(port) & ~(uint64_t{1} << i)) | (v << i));
    } else {
      port[i / 32] = (port[i / 32] & ~(1u << (i % 32))) | (uint32_t(v) << (i % 32));
    }
  }
}
template <typename T>
uint64_t get_bits(const T& port, uint32_t lsb, uint32_t width) {
  uint64_t out = 0;
  for (uint32_t b = 0; b < width; ++b) {
    const uint32_t i = lsb + b;
    uint64_t v;
    if constexpr (std::is_integral_v<T>) {
      v = (uint64_t(port) >> i) & 1u;
    } else {
      v = (port[i / 32] >> (i % 32)) & 1u;
    }
    out |= v << b;
  }
  return out;
}

uint32_t strb_bytes(uint8_t strb) {
  uint32_t m = 0;
  for (int b = 0; b < 4; ++b)
    if (strb & (1u << b)) m |= 0xFFu << (8 * b);
  return m;
}

// The one-cycle outputs of a cycle.
struct Pulses {
  uint32_t start = 0, halt = 0;
  bool sem_clear = false, cnt_clear = false, sr_seed_valid = false;
  uint32_t ecc_arm = 0;  // bit 0: SBUF, bit 1: PSUM
  bool ecc_scrub = false, ecc_clear = false;
  bool any() const {
    return start || halt || sem_clear || cnt_clear || sr_seed_valid || ecc_arm || ecc_scrub ||
           ecc_clear;
  }
  bool operator==(const Pulses& o) const {
    return start == o.start && halt == o.halt && sem_clear == o.sem_clear &&
           cnt_clear == o.cnt_clear && sr_seed_valid == o.sr_seed_valid && ecc_arm == o.ecc_arm &&
           ecc_scrub == o.ecc_scrub && ecc_clear == o.ecc_clear;
  }
};
std::string to_string(const Pulses& p) {
  return fmt::format("start={:#x} halt={:#x} sem_clear={} cnt_clear={} sr_seed_valid={} "
                     "ecc_arm={:#x} ecc_scrub={} ecc_clear={}", p.start, p.halt, p.sem_clear,
                     p.cnt_clear, p.sr_seed_valid, p.ecc_arm, p.ecc_scrub, p.ecc_clear);
}

// The hardware values the RO registers show.
struct HwInputs {
  uint32_t busy = 0, halted = 0, waiting = 0;
  std::array<uint32_t, kS> err_code{}, err_pc{}, pc{}, retired{}, busy_cycles{}, sem_wait{},
      fetch_wait{}, conflict{}, notify_code{};
  std::vector<uint64_t> bytes_read, bytes_written;
  std::vector<uint32_t> hwm, dma_code, dma_detail, dma_queue, dma_seq, dma_desc, dma_pc;
  std::array<uint32_t, csr::kSemCount> sems{};
  uint32_t ecc_armed = 0, ecc_busy = 0, ecc_ue_valid = 0;  // bit 0: SBUF, bit 1: PSUM
  std::array<uint32_t, 2> ecc_ce{}, ecc_ue{}, ecc_ue_addr{};
};

class CsrRtl : public ::testing::Test {
 protected:
  CoreConfig cfg = load_config(std::string(TERN_CONFIG_DIR) + "/tiny.yaml");
  const uint32_t num_dma = cfg.dma_engines;
  tb::Dut<Top> top = std::make_unique<Top>();
  std::mt19937_64 rng = test::make_rng();
  tb::AxilMaster<Top> bus{*top, [this] { tick(); }};
  HwInputs hw;
  std::vector<std::pair<uint64_t, Pulses>> pulses;  // (cycle, outputs) of cycles with a pulse
  uint64_t cycle = 0;
  bool auto_busy = false;  // a started sequencer turns busy (a stand-in for tern_seq)

  void SetUp() override {
    Verilated::fatalOnError(false);  // a failed assertion is reported by TearDown
    resize(hw);
    drive();
    top->rst_ni = 0;
    for (int i = 0; i < 3; ++i) tick();
    top->rst_ni = 1;
    tick();
    pulses.clear();
  }
  void TearDown() override {
    top->final();
    EXPECT_FALSE(Verilated::gotError()) << "an RTL assertion failed";
  }

  void resize(HwInputs& h) const {
    for (auto* v : {&h.bytes_read, &h.bytes_written}) v->assign(num_dma, 0);
    for (auto* v : {&h.hwm, &h.dma_code, &h.dma_detail, &h.dma_queue, &h.dma_seq, &h.dma_desc,
                    &h.dma_pc})
      v->assign(num_dma, 0);
  }

  void tick() {
    top->clk_i = 0;
    top->eval();
    top->clk_i = 1;
    top->eval();
    ++cycle;
    Pulses p;
    p.start = top->start_o;
    p.halt = top->halt_req_o;
    p.sem_clear = top->sem_clear_o;
    p.cnt_clear = top->cnt_clear_o;
    p.sr_seed_valid = top->sr_seed_valid_o;
    p.ecc_arm = top->ecc_arm_o;
    p.ecc_scrub = top->ecc_scrub_o;
    p.ecc_clear = top->ecc_clear_o;
    if (p.any()) pulses.emplace_back(cycle, p);
    if (auto_busy && top->start_o) {
      hw.busy |= top->start_o;
      top->busy_i = hw.busy;
    }
  }
  void ticks(int n) {
    for (int i = 0; i < n; ++i) tick();
  }
  std::vector<std::pair<uint64_t, Pulses>> take_pulses() { return std::exchange(pulses, {}); }

  // Every hardware input from `hw`.
  void drive() {
    Top& t = *top;
    t.busy_i = hw.busy;
    t.halted_i = hw.halted;
    t.waiting_i = hw.waiting;
    for (uint32_t i = 0; i < kS; ++i) {
      const uint32_t ecw = csr::seq::kStatusErrCode.width;
      put_bits(t.err_code_i, ecw * i, ecw, hw.err_code[i]);
      put_bits(t.err_pc_i, 32 * i, 32, hw.err_pc[i]);
      put_bits(t.pc_i, 32 * i, 32, hw.pc[i]);
      put_bits(t.retired_i, 32 * i, 32, hw.retired[i]);
      put_bits(t.busy_cycles_i, 32 * i, 32, hw.busy_cycles[i]);
      put_bits(t.sem_wait_cycles_i, 32 * i, 32, hw.sem_wait[i]);
      put_bits(t.fetch_wait_cycles_i, 32 * i, 32, hw.fetch_wait[i]);
      put_bits(t.conflict_cycles_i, 32 * i, 32, hw.conflict[i]);
      put_bits(t.notify_code_i, 32 * i, 32, hw.notify_code[i]);
    }
    for (uint32_t e = 0; e < num_dma; ++e) {
      using namespace csr::dma;
      put_bits(t.dma_bytes_read_i, 64 * e, 64, hw.bytes_read[e]);
      put_bits(t.dma_bytes_written_i, 64 * e, 64, hw.bytes_written[e]);
      put_bits(t.dma_outstanding_hwm_i, 32 * e, 32, hw.hwm[e]);
      put_bits(t.dma_err_code_i, kErrStatusCode.width * e, kErrStatusCode.width, hw.dma_code[e]);
      put_bits(t.dma_err_detail_i, kErrStatusDetail.width * e, kErrStatusDetail.width,
               hw.dma_detail[e]);
      put_bits(t.dma_err_queue_i, kErrStatusQueue.width * e, kErrStatusQueue.width,
               hw.dma_queue[e]);
      put_bits(t.dma_err_seq_i, kErrStatusSeq.width * e, kErrStatusSeq.width, hw.dma_seq[e]);
      put_bits(t.dma_err_desc_i, 32 * e, 32, hw.dma_desc[e]);
      put_bits(t.dma_err_pc_i, 32 * e, 32, hw.dma_pc[e]);
    }
    for (uint32_t s = 0; s < csr::kSemCount; ++s) put_bits(t.sem_values_i, 32 * s, 32, hw.sems[s]);
    t.ecc_armed_i = hw.ecc_armed;
    t.ecc_busy_i = hw.ecc_busy;
    t.ecc_ue_valid_i = hw.ecc_ue_valid;
    for (uint32_t m = 0; m < 2; ++m) {
      put_bits(t.ecc_ce_i, 32 * m, 32, hw.ecc_ce[m]);
      put_bits(t.ecc_ue_i, 32 * m, 32, hw.ecc_ue[m]);
      put_bits(t.ecc_ue_addr_i, 32 * m, 32, hw.ecc_ue_addr[m]);
    }
    t.notify_valid_i = 0;
    t.dma_err_valid_i = 0;
  }

  uint32_t rnd(uint32_t bits = 32) {
    return bits >= 32 ? uint32_t(rng()) : uint32_t(rng() & ((1u << bits) - 1));
  }

  // Random values on every input, and a notify of every sequencer (NOTIFY_CODE latches them).
  void randomize_inputs() {
    hw.busy = rnd(kS);
    hw.halted = rnd(kS);
    hw.waiting = rnd(kS);
    for (uint32_t i = 0; i < kS; ++i) {
      hw.err_code[i] = rnd(csr::seq::kStatusErrCode.width);
      for (auto* a : {&hw.err_pc, &hw.pc, &hw.retired, &hw.busy_cycles, &hw.sem_wait,
                      &hw.fetch_wait, &hw.conflict, &hw.notify_code})
        (*a)[i] = rnd();
    }
    for (uint32_t e = 0; e < num_dma; ++e) {
      hw.bytes_read[e] = rng();
      hw.bytes_written[e] = rng();
      hw.hwm[e] = rnd();
      hw.dma_code[e] = rnd(csr::dma::kErrStatusCode.width);
      hw.dma_detail[e] = rnd(csr::dma::kErrStatusDetail.width);
      hw.dma_queue[e] = rnd(csr::dma::kErrStatusQueue.width);
      hw.dma_seq[e] = rnd(csr::dma::kErrStatusSeq.width);
      hw.dma_desc[e] = rnd();
      hw.dma_pc[e] = rnd();
    }
    for (uint32_t& s : hw.sems) s = rnd();
    hw.ecc_armed = rnd(2);
    hw.ecc_busy = rnd(2);
    hw.ecc_ue_valid = rnd(2);
    for (auto* a : {&hw.ecc_ce, &hw.ecc_ue, &hw.ecc_ue_addr})
      for (uint32_t& v : *a) v = rnd();
    drive();
    top->notify_valid_i = (1u << kS) - 1;
    tick();
    top->notify_valid_i = 0;
  }

  // The value a hardware RO register must show, from `hw` and the config; nullopt when the
  // test knows no binding for it (a failure: every register must be checked).
  std::optional<uint32_t> expected_hw(const csr::Instance& in) const {
    using namespace csr;
    const std::string n = in.reg->qualified_name();
    const uint32_t i = in.index;
    auto bit = [](uint32_t mask, uint32_t i) { return (mask >> i) & 1u; };
    if (n == "glb.config")
      return glb::kConfigPartitions.put(cfg.partitions) | glb::kConfigPeRows.put(cfg.pe_rows) |
             glb::kConfigPeCols.put(cfg.pe_cols);
    if (n == "glb.config_dma")
      return glb::kConfigDmaEngines.put(cfg.dma_engines) |
             glb::kConfigDmaQueues.put(cfg.dma_queues) | glb::kConfigDmaSeqs.put(kSeqCount) |
             glb::kConfigDmaSems.put(kSemCount);
    if (n == "glb.config_sbuf") return cfg.sbuf_partition_bytes;
    if (n == "glb.config_psum")
      return glb::kConfigPsumBanks.put(cfg.psum_banks) |
             glb::kConfigPsumBankBytes.put(cfg.psum_bank_bytes);
    if (n == "glb.status") {
      uint32_t err = 0;
      for (uint32_t s = 0; s < kS; ++s) err |= uint32_t(hw.err_code[s] != 0) << s;
      return glb::kStatusBusy.put(hw.busy) | glb::kStatusHalted.put(hw.halted) |
             glb::kStatusError.put(err) | glb::kStatusWaiting.put(hw.waiting);
    }
    if (n == "seq.status")
      return seq::kStatusBusy.put(bit(hw.busy, i)) | seq::kStatusHalted.put(bit(hw.halted, i)) |
             seq::kStatusWaiting.put(bit(hw.waiting, i)) | seq::kStatusErrCode.put(hw.err_code[i]);
    if (n == "seq.err_pc") return hw.err_pc[i];
    if (n == "seq.pc") return hw.pc[i];
    if (n == "seq.retired") return hw.retired[i];
    if (n == "seq.busy_cycles") return hw.busy_cycles[i];
    if (n == "seq.sem_wait_cycles") return hw.sem_wait[i];
    if (n == "seq.fetch_wait_cycles") return hw.fetch_wait[i];
    if (n == "seq.conflict_cycles") return hw.conflict[i];
    if (n == "seq.notify_code") return hw.notify_code[i];
    if (n == "dma.bytes_read_lo") return uint32_t(hw.bytes_read[i]);
    if (n == "dma.bytes_read_hi") return uint32_t(hw.bytes_read[i] >> 32);
    if (n == "dma.bytes_written_lo") return uint32_t(hw.bytes_written[i]);
    if (n == "dma.bytes_written_hi") return uint32_t(hw.bytes_written[i] >> 32);
    if (n == "dma.outstanding_hwm") return hw.hwm[i];
    if (n == "dma.err_status")
      return dma::kErrStatusCode.put(hw.dma_code[i]) | dma::kErrStatusDetail.put(hw.dma_detail[i]) |
             dma::kErrStatusQueue.put(hw.dma_queue[i]) | dma::kErrStatusSeq.put(hw.dma_seq[i]);
    if (n == "dma.err_desc") return hw.dma_desc[i];
    if (n == "dma.err_pc") return hw.dma_pc[i];
    if (n == "sem.value") return hw.sems[i];
    if (n == "glb.ecc_status")
      return glb::kEccStatusSbufArmed.put(bit(hw.ecc_armed, 0)) |
             glb::kEccStatusPsumArmed.put(bit(hw.ecc_armed, 1)) |
             glb::kEccStatusBusy.put(hw.ecc_busy != 0) |
             glb::kEccStatusSbufUe.put(bit(hw.ecc_ue_valid, 0)) |
             glb::kEccStatusPsumUe.put(bit(hw.ecc_ue_valid, 1));
    if (n == "glb.ecc_sbuf_ce") return hw.ecc_ce[0];
    if (n == "glb.ecc_sbuf_ue") return hw.ecc_ue[0];
    if (n == "glb.ecc_sbuf_ue_addr") return hw.ecc_ue_addr[0];
    if (n == "glb.ecc_psum_ce") return hw.ecc_ce[1];
    if (n == "glb.ecc_psum_ue") return hw.ecc_ue[1];
    if (n == "glb.ecc_psum_ue_addr") return hw.ecc_ue_addr[1];
    return std::nullopt;
  }

  // The output port an RW register drives, if any; "none" for a register without one. `mask`:
  // the register's bits on ports.
  enum class Drives { kPort, kNone, kUnknown };
  Drives rw_output(const csr::Instance& in, uint32_t* value, uint32_t* mask) const {
    using namespace csr::glb;
    const std::string n = in.reg->qualified_name();
    const Top& t = *top;
    *mask = ~0u;
    if (n == "glb.ecc_inject") {  // the memory bit picks where ECC_CTRL.arm goes (EccArm)
      *value = kEccInjectFlip.put(t.ecc_inj_flip_o);
      *mask = kEccInjectFlip.mask();
      return Drives::kPort;
    }
    if (n == "glb.ecc_inject_addr") {
      *value = kEccAddrOffset.put(t.ecc_inj_off_o) | kEccAddrPartition.put(t.ecc_inj_part_o);
      return Drives::kPort;
    }
    if (n == "glb.scratch" || n == "glb.irq_enable") return Drives::kNone;  // irq: IrqSources
    if (n == "glb.sr_seed") *value = t.sr_seed_o;
    else if (n == "glb.watchdog") *value = t.watchdog_o;
    else if (n == "glb.desc_base") *value = t.desc_base_o;
    else if (n == "glb.hbm_size") *value = t.hbm_size_o;
    else if (n == "glb.desc_count") *value = t.desc_count_o;
    else if (n == "glb.budget") *value = t.budget_o;
    else if (n == "seq.prog_base") *value = uint32_t(get_bits(t.prog_base_o, 32 * in.index, 32));
    else if (n == "seq.prog_len") *value = uint32_t(get_bits(t.prog_len_o, 32 * in.index, 32));
    else return Drives::kUnknown;
    return Drives::kPort;
  }

  // The pulses a write of `bits` (data & strobed bytes) to a WO register must make.
  std::optional<Pulses> wo_pulses(const csr::Instance& in, uint32_t bits) const {
    using namespace csr;
    const std::string n = in.reg->qualified_name();
    Pulses p;
    if (n == "glb.ctrl") {
      p.start = glb::kCtrlStart.get(bits);
      p.halt = glb::kCtrlHalt.get(bits);
      p.sem_clear = glb::kCtrlSemClear.get(bits);
      p.cnt_clear = glb::kCtrlCntClear.get(bits);
    } else if (n == "seq.ctrl") {
      p.start = seq::kCtrlStart.get(bits) << in.index;
      p.halt = seq::kCtrlHalt.get(bits) << in.index;
    } else if (n == "glb.ecc_ctrl") {  // ECC_INJECT at its reset value: the arm is SBUF's
      p.ecc_arm = glb::kEccCtrlArm.get(bits);
      p.ecc_scrub = glb::kEccCtrlScrub.get(bits);
      p.ecc_clear = glb::kEccCtrlClear.get(bits);
    } else {
      return std::nullopt;
    }
    return p;
  }

  // The register instances of a kind.
  std::vector<csr::Instance> of(csr::Access a, std::optional<bool> hw_value = std::nullopt) const {
    std::vector<csr::Instance> out;
    for (const csr::Instance& in : csr::instances(num_dma))
      if (in.reg->access == a && (!hw_value || in.reg->hw == *hw_value)) out.push_back(in);
    return out;
  }

  void expect_read(uint32_t addr, uint32_t want, const std::string& what) {
    const tb::AxilRead r = bus.read(addr);
    EXPECT_EQ(r.resp, AxiResp::kOkay) << what << " at 0x" << std::hex << addr << ": "
                                      << tb::axi_resp_name(r.resp);
    EXPECT_EQ(r.data, want) << what << " at 0x" << std::hex << addr;
  }

  uint32_t irq_status() { return bus.read(csr::glb_addr(csr::glb::kIrqStatus)).data; }
};

std::string seed_note() { return fmt::format(" (TERN_SEED={})", test::test_seed()); }

// ---------------------------------------------------------------------------------------------

TEST_F(CsrRtl, ResetValues) {
  int checked = 0;
  for (const csr::Instance& in : csr::instances(num_dma)) {
    if (in.reg->hw) continue;  // RO hardware values: RoRegistersShowTheirInputs
    expect_read(in.addr, in.reg->reset, in.name + " after reset" + seed_note());
    ++checked;
  }
  EXPECT_GT(checked, 0);
  EXPECT_EQ(top->irq_o, 0);
  EXPECT_TRUE(take_pulses().empty());
}

TEST_F(CsrRtl, RwRegistersKeepWritesUnderMaskAndStrobe) {
  bus.randomize(&rng);
  const auto rw = of(csr::Access::kRW);
  ASSERT_FALSE(rw.empty());
  std::map<uint32_t, uint32_t> model;
  for (const csr::Instance& in : rw) model[in.addr] = in.reg->reset;
  for (int round = 0; round < 20; ++round) {
    for (const csr::Instance& in : rw) {
      const uint32_t data = rnd();
      const uint8_t strb = round == 0 ? 0xF : uint8_t(rng() % 16);
      const uint32_t bytes = strb_bytes(strb);
      ASSERT_EQ(bus.write(in.addr, data, strb), AxiResp::kOkay) << in.name << seed_note();
      uint32_t& m = model[in.addr];
      m = ((m & ~bytes) | (data & bytes)) & in.reg->mask();
      expect_read(in.addr, m, fmt::format("{} after writing {:#x} strobe {:#x}{}", in.name, data,
                                          strb, seed_note()));
      uint32_t port = 0, port_mask = 0;
      const Drives d = rw_output(in, &port, &port_mask);
      EXPECT_NE(d, Drives::kUnknown) << in.name << ": the test knows no output for it";
      if (d == Drives::kPort) {
        EXPECT_EQ(port, m & port_mask) << in.name << "'s output port" << seed_note();
      }
      // A write pulses only sr_seed_valid_o (for SR_SEED), for one cycle.
      const auto p = take_pulses();
      if (in.reg->qualified_name() == "glb.sr_seed") {
        ASSERT_EQ(p.size(), 1u) << "sr_seed_valid_o must pulse once, one cycle";
        Pulses want;
        want.sr_seed_valid = true;
        EXPECT_EQ(p[0].second, want) << to_string(p[0].second);
      } else {
        EXPECT_TRUE(p.empty()) << in.name << " pulsed " << to_string(p[0].second);
      }
    }
    // No register aliases another: all still hold their own values.
    for (const csr::Instance& in : rw)
      expect_read(in.addr, model[in.addr], in.name + " after writes to the others" + seed_note());
  }
}

TEST_F(CsrRtl, RoRegistersShowTheirInputs) {
  bus.randomize(&rng);
  for (int round = 0; round < 10; ++round) {
    randomize_inputs();
    for (const csr::Instance& in : of(csr::Access::kRO)) {
      const std::optional<uint32_t> want = in.reg->hw ? expected_hw(in) : in.reg->reset;
      ASSERT_TRUE(want) << in.name << ": the test knows no input for it";
      expect_read(in.addr, *want, fmt::format("{} (round {}){}", in.name, round, seed_note()));
    }
  }
}

TEST_F(CsrRtl, RoWritesAnswerSlverrAndChangeNothing) {
  bus.randomize(&rng);
  randomize_inputs();
  std::map<uint32_t, uint32_t> rw;
  for (const csr::Instance& in : of(csr::Access::kRW)) {
    rw[in.addr] = rnd() & in.reg->mask();
    ASSERT_EQ(bus.write(in.addr, rw[in.addr]), AxiResp::kOkay);
  }
  take_pulses();
  for (const csr::Instance& in : of(csr::Access::kRO)) {
    EXPECT_EQ(bus.write(in.addr, rnd(), uint8_t(1 + rng() % 15)), AxiResp::kSlverr)
        << "write to RO " << in.name;
    const std::optional<uint32_t> want = in.reg->hw ? expected_hw(in) : in.reg->reset;
    ASSERT_TRUE(want) << in.name;
    expect_read(in.addr, *want, in.name + " after a write" + seed_note());
  }
  for (const auto& [addr, value] : rw) expect_read(addr, value, "RW register after RO writes");
  EXPECT_TRUE(take_pulses().empty()) << "an RO write pulsed an output";
  EXPECT_EQ(irq_status() & ~csr::glb::kIrqNotify.mask() & ~csr::glb::kIrqHalted.mask() &
                ~csr::glb::kIrqError.mask(),
            0u);
}

TEST_F(CsrRtl, WoRegistersPulseOneCycleAndReadZero) {
  bus.randomize(&rng);
  const auto wo = of(csr::Access::kWO);
  ASSERT_FALSE(wo.empty());
  for (const csr::Instance& in : wo) {
    // Each field alone, then random data under random strobes.
    std::vector<std::pair<uint32_t, uint8_t>> writes;
    for (const csr::Field& f : in.reg->fields) {
      writes.emplace_back(f.bits.mask(), 0xF);
      const auto p = wo_pulses(in, f.bits.mask());
      ASSERT_TRUE(p) << in.name << ": the test knows no outputs for it";
      EXPECT_TRUE(p->any()) << in.name << "." << f.name << ": the test knows no output for it";
    }
    for (int i = 0; i < 20; ++i) writes.emplace_back(rnd(), uint8_t(rng() % 16));
    for (const auto& [data, strb] : writes) {
      take_pulses();
      ASSERT_EQ(bus.write(in.addr, data, strb), AxiResp::kOkay) << in.name;
      ticks(3);
      const auto got = take_pulses();
      const Pulses want = *wo_pulses(in, data & strb_bytes(strb) & in.reg->mask());
      const std::string what =
          fmt::format("{} written {:#x} strobe {:#x}{}", in.name, data, strb, seed_note());
      if (!want.any()) {
        EXPECT_TRUE(got.empty()) << what << ": pulsed " << to_string(got[0].second);
        continue;
      }
      ASSERT_EQ(got.size(), 1u) << what << ": the pulses must last exactly one cycle";
      EXPECT_EQ(got[0].second, want) << what << ": got " << to_string(got[0].second)
                                     << ", want " << to_string(want);
    }
    expect_read(in.addr, 0, in.name + " reads 0");
  }
}

class CsrIrq : public CsrRtl {
 public:
  // Raises the event of bit b of an IRQ_STATUS field; false: the test knows no event for it.
  bool raise(const std::string& field, uint32_t b) {
    if (field == "halted") {
      hw.halted |= 1u << b;
    } else if (field == "error") {
      hw.err_code[b] = 1 + rnd(csr::seq::kStatusErrCode.width) % 15;
    } else if (field == "notify") {
      top->notify_valid_i = 1u << b;
      hw.notify_code[b] = rnd();
      put_bits(top->notify_code_i, 32 * b, 32, hw.notify_code[b]);
      tick();
      top->notify_valid_i = 0;
      return true;
    } else if (field == "dma_error") {
      const uint32_t e = rnd() % num_dma;  // any engine
      top->dma_err_valid_i = 1u << e;
      tick();
      top->dma_err_valid_i = 0;
      return true;
    } else if (field == "idle") {
      // Start a sequencer: it turns busy; the event comes when busy falls again.
      auto_busy = true;
      const uint32_t s = rnd() % kS;
      EXPECT_EQ(bus.write(csr::seq_addr(s, csr::seq::kCtrl), csr::seq::kCtrlStart.mask()),
                AxiResp::kOkay);
      ticks(5);
      EXPECT_EQ(hw.busy, 1u << s) << "the start did not reach start_o";
      EXPECT_EQ(irq_status() & csr::glb::kIrqIdle.mask(), 0u) << "idle raised while busy";
      hw.busy = 0;
      auto_busy = false;
    } else {
      return false;
    }
    drive();
    tick();
    return true;
  }
};

TEST_F(CsrIrq, EverySourceSetsItsBitAndRaisesIrqOnlyWhenEnabled) {
  const csr::Reg& st = csr::reg("glb.irq_status");
  const uint32_t status_addr = csr::offset("glb.irq_status");
  const uint32_t enable_addr = csr::offset("glb.irq_enable");
  ASSERT_FALSE(st.fields.empty());
  for (const csr::Field& f : st.fields) {
    for (uint32_t b = 0; b < f.bits.width; ++b) {
      const std::string what = fmt::format("IRQ_STATUS.{} bit {}{}", f.name, b, seed_note());
      hw = HwInputs{};
      SetUp();  // a quiet, freshly reset block
      const uint32_t bit = f.bits.put(1u << b);
      ASSERT_EQ(bus.write(enable_addr, ~bit), AxiResp::kOkay);
      ASSERT_TRUE(raise(f.name, b)) << f.name << ": the test knows no event for it";
      ticks(2);
      EXPECT_EQ(irq_status(), bit) << what;
      EXPECT_EQ(top->irq_o, 0) << what << ": irq_o while the bit is disabled";
      ASSERT_EQ(bus.write(enable_addr, bit), AxiResp::kOkay);
      EXPECT_EQ(top->irq_o, 1) << what << ": no irq_o with the bit enabled";
      // A 0 written changes nothing; a 1 clears it, and the level event does not come back.
      ASSERT_EQ(bus.write(status_addr, ~bit), AxiResp::kOkay);
      EXPECT_EQ(irq_status(), bit) << what << ": W1C of the other bits cleared it";
      ASSERT_EQ(bus.write(status_addr, bit), AxiResp::kOkay);
      ticks(3);
      EXPECT_EQ(irq_status(), 0u) << what << ": not cleared (or raised again by a level)";
      EXPECT_EQ(top->irq_o, 0) << what;
    }
  }
}

TEST_F(CsrIrq, W1cClearsOnlyTheWrittenBits) {
  const csr::Reg& st = csr::reg("glb.irq_status");
  const uint32_t addr = csr::offset("glb.irq_status");
  bus.randomize(&rng);
  for (int round = 0; round < 10; ++round) {
    hw = HwInputs{};
    SetUp();
    for (const csr::Field& f : st.fields)
      for (uint32_t b = 0; b < f.bits.width; ++b) ASSERT_TRUE(raise(f.name, b));
    ticks(2);
    uint32_t model = st.mask();
    ASSERT_EQ(irq_status(), model) << "every source raised" << seed_note();
    for (int w = 0; w < 4; ++w) {
      const uint32_t data = rnd();
      const uint8_t strb = uint8_t(rng() % 16);
      ASSERT_EQ(bus.write(addr, data, strb), AxiResp::kOkay);
      model &= ~(data & strb_bytes(strb));
      EXPECT_EQ(irq_status(), model) << fmt::format("after writing {:#x} strobe {:#x}{}", data,
                                                    strb, seed_note());
    }
  }
}

// An event in the very cycle a W1C write of its bit takes effect is kept, not lost.
TEST_F(CsrIrq, AnEventWinsOverAClearOfItsBitInTheSameCycle) {
  const uint32_t addr = csr::offset("glb.irq_status");
  const uint32_t bit = csr::glb::kIrqNotify.put(1);
  ASSERT_TRUE(raise("notify", 0));
  ticks(2);
  ASSERT_EQ(irq_status(), bit);
  Top& t = *top;
  t.s_axil_awaddr_i = addr;
  t.s_axil_wdata_i = bit;
  t.s_axil_wstrb_i = 0xF;
  t.s_axil_awvalid_i = 1;
  t.s_axil_wvalid_i = 1;
  t.s_axil_bready_i = 1;
  t.eval();
  ASSERT_TRUE(t.s_axil_awready_o && t.s_axil_wready_o);
  tick();  // AW and W taken together: the write takes effect in the next cycle
  t.s_axil_awvalid_i = 0;
  t.s_axil_wvalid_i = 0;
  t.notify_valid_i = 1;  // the event in that same cycle
  tick();
  t.notify_valid_i = 0;
  ASSERT_TRUE(t.s_axil_bvalid_o) << "the write did not take effect in the expected cycle";
  tick();
  t.s_axil_bready_i = 0;
  EXPECT_EQ(irq_status(), bit) << "the event in the cycle of the clear was lost";
  ASSERT_EQ(bus.write(addr, bit), AxiResp::kOkay);
  EXPECT_EQ(irq_status(), 0u) << "the clear without an event";
}

TEST_F(CsrRtl, UnmappedAndUnalignedAddressesAnswerSlverr) {
  std::set<uint32_t> mapped;
  for (const csr::Instance& in : csr::instances(num_dma)) mapped.insert(in.addr);
  std::map<uint32_t, uint32_t> rw;
  for (const csr::Instance& in : of(csr::Access::kRW)) {
    rw[in.addr] = rnd() & in.reg->mask();
    ASSERT_EQ(bus.write(in.addr, rw[in.addr]), AxiResp::kOkay);
  }
  take_pulses();  // SR_SEED's
  uint32_t unmapped = 0;
  for (uint32_t addr = 0; addr < (1u << csr::kAddrBits); addr += 4) {
    if (mapped.count(addr)) continue;
    ++unmapped;
    const tb::AxilRead r = bus.read(addr);
    EXPECT_EQ(r.resp, AxiResp::kSlverr) << fmt::format("read of unmapped {:#06x}", addr);
    EXPECT_EQ(r.data, 0u) << fmt::format("read of unmapped {:#06x}", addr);
    EXPECT_EQ(bus.write(addr, rnd()), AxiResp::kSlverr)
        << fmt::format("write of unmapped {:#06x}", addr);
  }
  EXPECT_EQ(unmapped, (1u << csr::kAddrBits) / 4 - mapped.size());
  for (uint32_t addr : mapped)
    for (uint32_t lo = 1; lo < 4; ++lo) {
      EXPECT_EQ(bus.read(addr + lo).resp, AxiResp::kSlverr)
          << fmt::format("unaligned read {:#06x}", addr + lo);
      EXPECT_EQ(bus.write(addr + lo, rnd()), AxiResp::kSlverr)
          << fmt::format("unaligned write {:#06x}", addr + lo);
    }
  for (const auto& [addr, value] : rw) expect_read(addr, value, "RW register after bad writes");
  EXPECT_TRUE(take_pulses().empty()) << "a bad write pulsed an output";
}

TEST_F(CsrRtl, DmaEnginesPastTheConfigAreUnmapped) {
  ASSERT_LT(num_dma, csr::kDmaCount);
  expect_read(csr::offset("dma.err_pc", num_dma - 1), 0, "the last engine is mapped");
  for (uint32_t e = num_dma; e < csr::kDmaCount; ++e)
    for (const csr::Reg& r : csr::regs()) {
      if (r.block != csr::Block::kDma) continue;
      EXPECT_EQ(bus.read(csr::dma_addr(e, r.offset)).resp, AxiResp::kSlverr)
          << fmt::format("dma.{}[{}]", r.name, e);
    }
}

// AW and W are accepted in either order and each alone; the response waits for both.
TEST_F(CsrRtl, AwAndWAreAcceptedIndependently) {
  const uint32_t addr = csr::offset("glb.scratch");
  for (bool aw_first : {true, false}) {
    const uint32_t data = rnd();
    Top& t = *top;
    t.s_axil_awaddr_i = addr;
    t.s_axil_wdata_i = data;
    t.s_axil_wstrb_i = 0xF;
    t.s_axil_bready_i = 1;
    (aw_first ? t.s_axil_awvalid_i : t.s_axil_wvalid_i) = 1;
    t.eval();
    EXPECT_TRUE(aw_first ? t.s_axil_awready_o : t.s_axil_wready_o) << "first channel not ready";
    tick();
    (aw_first ? t.s_axil_awvalid_i : t.s_axil_wvalid_i) = 0;
    for (int i = 0; i < 5; ++i) {
      tick();
      EXPECT_FALSE(t.s_axil_bvalid_o) << "a response before the second channel";
      EXPECT_FALSE(aw_first ? t.s_axil_awready_o : t.s_axil_wready_o)
          << "a second transaction accepted on the first channel";
    }
    (aw_first ? t.s_axil_wvalid_i : t.s_axil_awvalid_i) = 1;
    t.eval();
    EXPECT_TRUE(aw_first ? t.s_axil_wready_o : t.s_axil_awready_o) << "second channel not ready";
    tick();
    (aw_first ? t.s_axil_wvalid_i : t.s_axil_awvalid_i) = 0;
    int wait = 0;
    while (!t.s_axil_bvalid_o && wait++ < 5) tick();
    ASSERT_TRUE(t.s_axil_bvalid_o);
    EXPECT_EQ(t.s_axil_bresp_o, uint8_t(AxiResp::kOkay));
    tick();
    t.s_axil_bready_i = 0;
    EXPECT_FALSE(t.s_axil_bvalid_o);
    expect_read(addr, data, aw_first ? "AW then W" : "W then AW");
  }
}

// ECC_CTRL.arm goes to the memory ECC_INJECT.psum names, one pulse each; an arm for a byte
// outside that memory is refused.
TEST_F(CsrRtl, EccArmGoesToTheMemoryNamed) {
  using namespace csr::glb;
  for (uint32_t psum : {1u, 0u, 1u}) {
    ASSERT_EQ(bus.write(csr::glb_addr(kEccInject), kEccInjectPsum.put(psum) | 0x5), AxiResp::kOkay);
    take_pulses();
    ASSERT_EQ(bus.write(csr::glb_addr(kEccCtrl), kEccCtrlArm.put(1)), AxiResp::kOkay);
    ticks(3);
    const auto got = take_pulses();
    ASSERT_EQ(got.size(), 1u);
    Pulses want;
    want.ecc_arm = 1u << psum;
    EXPECT_EQ(got[0].second, want) << to_string(got[0].second);
  }
  // A byte outside the memory: refused with SLVERR, and nothing pulses (not even the scrub).
  const uint32_t psum_bytes = cfg.psum_banks * cfg.psum_bank_bytes;
  const struct {
    uint32_t psum, partition, offset;
  } outside[] = {{0, cfg.partitions, 0}, {0, 0, cfg.sbuf_partition_bytes}, {1, 0, psum_bytes},
                 {1, 255, 0}};
  for (const auto& o : outside) {
    ASSERT_EQ(bus.write(csr::glb_addr(kEccInject), kEccInjectPsum.put(o.psum) | 1), AxiResp::kOkay);
    ASSERT_EQ(bus.write(csr::glb_addr(kEccInjectAddr),
                        kEccAddrPartition.put(o.partition) | kEccAddrOffset.put(o.offset)),
              AxiResp::kOkay);
    take_pulses();
    EXPECT_EQ(bus.write(csr::glb_addr(kEccCtrl), kEccCtrlArm.put(1) | kEccCtrlScrub.put(1)),
              AxiResp::kSlverr)
        << "memory " << o.psum << " partition " << o.partition << " byte " << o.offset;
    ticks(3);
    EXPECT_TRUE(take_pulses().empty());
  }
  // The last byte of the last partition is inside.
  ASSERT_EQ(bus.write(csr::glb_addr(kEccInjectAddr), kEccAddrPartition.put(cfg.partitions - 1) |
                                                          kEccAddrOffset.put(psum_bytes - 1)),
            AxiResp::kOkay);
  EXPECT_EQ(bus.write(csr::glb_addr(kEccCtrl), kEccCtrlArm.put(1)), AxiResp::kOkay);
}

}  // namespace
}  // namespace tern
