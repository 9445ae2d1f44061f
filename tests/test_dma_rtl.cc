// The DMA engine RTL (rtl/dma/, docs/dma.md) against the golden core model: seeded random
// descriptors run on tern::core::CoreModel (an SP program that triggers them and waits on their
// semaphores) and on the verilated engine with SBUF and PSUM (tb/tern_dma_tb.sv) over the AXI
// memory model (tb/axi_mem.h); HBM, SBUF and PSUM must be equal bit for bit afterwards. Every
// check fault, AXI errors, the 4 KiB rule, outstanding bursts, the semaphore timing and the AXI
// mux (tern_axi_mux) have their own tests. TERN_SEED overrides the seed, TERN_VECTORS the
// number of random scenarios, TERN_WAVES=file.fst dumps waves (run one test with --gtest_filter).
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <verilated.h>
#include <verilated_fst_c.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "Vtern_axi_mux.h"
#include "dut.h"
#include "Vtern_dma_tb_tiny.h"
#include "Vtern_dma_tb_tiny64.h"
#include "axi_mem.h"
#include "common/config.h"
#include "common/error.h"
#include "core/core_model.h"
#include "core/memory.h"
#include "isa/isa.h"
#include "test_util.h"

namespace tern {
namespace {

using core::CoreModel;
using core::FaultKind;
using tb::AxiMem;
using tb::AxiMemOptions;

using test::test_seed;
uint32_t test_vectors(uint32_t dflt) { return uint32_t(test::env_count("TERN_VECTORS", dflt)); }
// Random transfer batches: 16 in `make test`, 40 in `make test-deep` (TERN_VECTORS overrides).
uint32_t random_transfer_count() { return uint32_t(test::random_count("TERN_VECTORS", 16, 40)); }

constexpr uint64_t kHbmBytes = 256 << 10;     // what the DMA may touch (hbm_size_i)
constexpr uint64_t kDescBase = kHbmBytes;      // the descriptor table, after it
constexpr uint64_t kMemBytes = kHbmBytes + (64 << 10);
constexpr uint32_t kSp = uint32_t(isa::Seq::kSp);

// Error details (tern::core::DmaDetail, generated into tern_csr_pkg::DmaDet*).
using D = core::DmaDetail;
constexpr uint32_t kDetDescFetch = uint32_t(D::kDescFetch), kDetSrcZero = uint32_t(D::kSrcZeroDim),
    kDetSrcAlign = uint32_t(D::kSrcAlign), kDetSrcHbm = uint32_t(D::kSrcHbm),
    kDetSrcPStep = uint32_t(D::kSrcPStep), kDetSrcPart = uint32_t(D::kSrcPart),
    kDetSrcOffset = uint32_t(D::kSrcOffset), kDetDstZero = uint32_t(D::kDstZeroDim),
    kDetDstAlign = uint32_t(D::kDstAlign), kDetDstHbm = uint32_t(D::kDstHbm),
    kDetDstPStep = uint32_t(D::kDstPStep), kDetDstPart = uint32_t(D::kDstPart),
    kDetDstOffset = uint32_t(D::kDstOffset), kDetCount = uint32_t(D::kCount),
    kDetSlvErr = uint32_t(D::kSlvErr), kDetDecErr = uint32_t(D::kDecErr);

// One trigger: what the SP's dma instruction sends to the engine.
struct Trigger {
  uint32_t queue = 0, desc = 0, src_add = 0, dst_add = 0;
  isa::SemUpdate mode = isa::SemUpdate::kAdd;
  uint32_t sem = 0, value = 1;
  uint32_t pc = 0;
};

struct SemPulse {
  uint32_t mode, idx, value;
  uint64_t cycle;
};

struct ErrReport {
  uint32_t code, detail, queue, desc, seq, pc;
};

// The verilated engine + SBUF/PSUM + the AXI memory model; one per bus width.
class DmaBench {
 public:
  DmaBench(const CoreConfig& cfg, const AxiMemOptions& mo, uint64_t seed)
      : cfg_(cfg), mem_(mo), rng_(seed) {}
  virtual ~DmaBench() = default;
  virtual void reset() = 0;
  virtual void tick() = 0;
  virtual void trigger(const Trigger& t) = 0;
  virtual uint64_t run_idle(uint64_t cap = 4'000'000) = 0;
  virtual void bd_write(bool psum, uint32_t p, uint32_t addr, uint32_t v) = 0;
  virtual uint32_t bd_read(bool psum, uint32_t p, uint32_t addr) = 0;
  virtual ErrReport err() const = 0;
  virtual void set_hbm_size(uint32_t bytes) = 0;
  virtual void set_watchdog(uint32_t cycles) = 0;
  virtual uint32_t hwm() const = 0;
  virtual uint64_t bytes_read() const = 0;
  virtual uint64_t bytes_written() const = 0;
  AxiMem& mem() { return mem_; }

  uint32_t stall_percent = 0;  // chance that an on-chip port stalls in a cycle
  std::vector<SemPulse> sems_;
  std::vector<uint64_t> errs_;
  uint64_t cycle_ = 0;

 protected:
  CoreConfig cfg_;
  AxiMem mem_;
  std::mt19937_64 rng_;
  bool pending_trig_ = false;
};

template <typename Top>
class DmaBenchT : public DmaBench {
 public:
  DmaBenchT(const CoreConfig& cfg, const AxiMemOptions& mo, uint64_t seed)
      : DmaBench(cfg, mo, seed) {
    // TERN_WAVES=file.fst dumps the bench's waves (off by default: it is slow).
    const char* waves = std::getenv("TERN_WAVES");
    if (waves) Verilated::traceEverOn(true);
    top_ = std::make_unique<Top>();
    if (waves) {
      fst_ = std::make_unique<VerilatedFstC>();
      top_->trace(fst_.get(), 99);
      fst_->open(waves);
    }
    top_->hbm_size_i = uint32_t(kHbmBytes);
    top_->desc_base_i = uint32_t(kDescBase);
    top_->watchdog_i = 0;
    reset();
  }
  ~DmaBenchT() override {
    top_->final();
    if (fst_) fst_->close();
  }

  void set_hbm_size(uint32_t bytes) override { top_->hbm_size_i = bytes; }
  void set_watchdog(uint32_t cycles) override { top_->watchdog_i = cycles; }
  uint32_t hwm() const override { return top_->outstanding_hwm_o; }
  uint64_t bytes_read() const override { return top_->bytes_read_o; }
  uint64_t bytes_written() const override { return top_->bytes_written_o; }

  void reset() override {
    top_->rst_ni = 0;
    top_->trig_valid_i = 0;
    top_->bd_valid_i = 0;
    for (int i = 0; i < 3; ++i) tick();
    top_->rst_ni = 1;
    mem_.reset();
    tick();
  }

  // One cycle: the memory's outputs in, the DMA's outputs sampled, the clock edge.
  void tick() override {
    tb::drive_axi(*top_, mem_.out());
    top_->oc_rd_stall_i = stall_percent && rng_() % 100 < stall_percent;
    top_->oc_wr_stall_i = stall_percent && rng_() % 100 < stall_percent;
    top_->clk_i = 0;
    top_->eval();
    if (fst_) fst_->dump(2 * cycle_);
    if (top_->rst_ni) {
      mem_.cycle(tb::sample_axi(*top_, mem_.data_bytes()));
      if (top_->sem_valid_o) {
        if (mem_.writes_in_flight() != 0)
          throw Error(fmt::format("cycle {}: semaphore update with {} AXI writes still in flight",
                                  cycle_, mem_.writes_in_flight()));
        sems_.push_back({top_->sem_mode_o, top_->sem_idx_o, top_->sem_value_o, cycle_});
      }
      if (top_->err_valid_o) errs_.push_back(cycle_);
    }
    const bool trig_hs = top_->rst_ni && top_->trig_valid_i && top_->trig_ready_o;
    top_->clk_i = 1;
    top_->eval();
    if (fst_) fst_->dump(2 * cycle_ + 1);
    if (trig_hs) {
      top_->trig_valid_i = 0;
      pending_trig_ = false;
    }
    ++cycle_;
  }

  void trigger(const Trigger& t) override {
    // the previous trigger is taken first
    while (pending_trig_) tick();
    top_->trig_valid_i = 1;
    top_->trig_queue_i = t.queue;
    top_->trig_desc_i = t.desc;
    top_->trig_src_add_i = t.src_add;
    top_->trig_dst_add_i = t.dst_add;
    top_->trig_upd_mode_i = uint32_t(t.mode);
    top_->trig_upd_idx_i = t.sem;
    top_->trig_upd_value_i = t.value;
    top_->trig_seq_i = kSp;
    top_->trig_pc_i = t.pc;
    pending_trig_ = true;
    tick();
  }

  // Runs until every trigger was taken and the engine is idle; returns the cycles.
  uint64_t run_idle(uint64_t cap) override {
    const uint64_t start = cycle_;
    while (pending_trig_ || top_->busy_o) {
      tick();
      if (cycle_ - start > cap)
        throw Error(fmt::format("the DMA engine is still busy after {} cycles", cap));
    }
    for (int i = 0; i < 4; ++i) tick();
    return cycle_ - start;
  }

  // Backdoor: one aligned word of one partition.
  void bd_write(bool psum, uint32_t p, uint32_t addr, uint32_t v) override {
    top_->bd_valid_i = 1;
    top_->bd_write_i = 1;
    top_->bd_psum_i = psum;
    top_->bd_partition_i = p;
    top_->bd_addr_i = addr;
    top_->bd_wdata_i = v;
    tick();
    top_->bd_valid_i = 0;
    top_->bd_write_i = 0;
  }
  uint32_t bd_read(bool psum, uint32_t p, uint32_t addr) override {  // the word a cycle later
    top_->bd_valid_i = 1;
    top_->bd_write_i = 0;
    top_->bd_psum_i = psum;
    top_->bd_partition_i = p;
    top_->bd_addr_i = addr;
    tick();
    top_->bd_valid_i = 0;
    top_->eval();
    return top_->bd_rdata_o;
  }

  ErrReport err() const override {
    return {top_->err_code_o, top_->err_detail_o, top_->err_queue_o, top_->err_desc_o,
            top_->err_seq_o, top_->err_pc_o};
  }

 private:
  tb::Dut<Top> top_;
  std::unique_ptr<VerilatedFstC> fst_;
};

// ---------------------------------------------------------------------------------------------
// Random descriptors.

// Bytes of the free pattern of a side relative to its address: [lo, hi] of element starts.
struct Extent {
  int64_t lo = 0, hi = 0;
};
Extent extent(const isa::DescSide& s, uint32_t first_dim) {
  Extent e;
  for (uint32_t d = first_dim; d < isa::kApDims; ++d) {
    const int64_t x = int64_t(s.dims[d].step) * (int64_t(s.dims[d].num) - 1);
    (x < 0 ? e.lo : e.hi) += x;
  }
  return e;
}

// A region a side may use: HBM bytes [base, base + bytes), or on-chip offsets likewise in
// every partition.
struct Region {
  isa::Space space;
  uint64_t base, bytes;
};

// A side with `nums` (d0 outermost) inside `r`, with gaps, negative steps and (on-chip)
// partition steps. Returns false when it does not fit.
bool make_side(const Region& r, Dtype dt, std::array<uint32_t, 4> nums, uint32_t P,
               std::mt19937_64& rng, isa::DescSide& s) {
  s = {};
  s.space = r.space;
  s.dtype = dt;
  const int64_t eb = core::dtype_bytes(dt);
  const bool onchip = r.space != isa::Space::kHbm;
  if (onchip) {
    // d0 steps partitions.
    if (nums[0] > P) return false;
    const uint32_t maxstep = nums[0] > 1 ? (P - 1) / (nums[0] - 1) : 3;
    const uint32_t pstep = uint32_t(rng() % (std::min(maxstep, 3u) + 1));
    const uint32_t span = pstep * (nums[0] - 1);
    s.start_partition = uint32_t(rng() % (P - span));
    s.dims[0] = {int32_t(pstep), nums[0]};
  }
  // Byte dims, innermost first: contiguous, strided or reversed.
  int64_t inner = eb;  // bytes one step of the next-outer dim must at least clear
  for (int d = 3; d >= (onchip ? 1 : 0); --d) {
    int64_t step;
    if (nums[d] == 1 && rng() % 2) {
      step = eb * int64_t(rng() % 64) * (rng() % 2 ? 1 : -1);  // never used: any aligned step
    } else {
      const int64_t gap = (rng() % 3 == 0) ? eb * int64_t(rng() % 4) : 0;
      step = inner + gap;
      if (d == 3 && rng() % 4 == 0) step = eb * 2;
      if (rng() % 5 == 0) step = -step;
      inner = std::abs(step) * nums[d];
    }
    s.dims[d] = {int32_t(step), nums[d]};
  }
  const Extent e = extent(s, onchip ? 1 : 0);
  if (uint64_t(e.hi - e.lo + eb) > r.bytes) return false;
  const uint64_t room = r.bytes - uint64_t(e.hi - e.lo + eb);
  uint64_t addr = r.base + uint64_t(-e.lo) + (room ? rng() % (room + 1) : 0);
  addr -= addr % eb;
  if (int64_t(addr) + e.lo < int64_t(r.base)) addr += eb;
  s.address = addr;
  return true;
}

std::array<uint32_t, 4> random_nums(std::mt19937_64& rng, uint32_t big) {
  std::array<uint32_t, 4> n{};
  const int dims = 1 + int(rng() % 4);  // 1..4-D
  for (int d = 0; d < 4; ++d) n[d] = 1;
  for (int d = 4 - dims; d < 4; ++d) n[d] = 1 + uint32_t(rng() % (d == 3 ? big : 5));
  return n;
}

// The destination's nums: the source's, shuffled, or with two dims merged.
std::array<uint32_t, 4> reshape(std::array<uint32_t, 4> n, std::mt19937_64& rng) {
  std::shuffle(n.begin(), n.end(), rng);
  if (rng() % 2) {
    const int a = int(rng() % 3);
    n[a + 1] *= n[a];
    n[a] = 1;
  }
  return n;
}

Dtype random_dtype(std::mt19937_64& rng) { return Dtype(rng() % kNumDtypes); }

// One transfer of a scenario: its descriptor and trigger.
struct Transfer {
  isa::Descriptor desc;
  Trigger trig;
};

const isa::Space kHbmS = isa::Space::kHbm, kSbufS = isa::Space::kSbuf, kPsumS = isa::Space::kPsum;

// The golden model and the RTL bench over the same memories, compared after every scenario.
class DmaRtlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    cfg = load_config(std::string(TERN_CONFIG_DIR) + "/tiny.yaml");
    seed = test_seed();
    rng.seed(seed);
    core::CoreOptions opt;
    opt.hbm_bytes = kHbmBytes;
    golden = std::make_unique<CoreModel>(cfg, opt);
    AxiMemOptions mo;
    mo.size = kMemBytes;
    mo.data_bytes = cfg.axi_data_bits / 8;
    mo.seed = seed;
    mo.read_latency = 12;
    mo.write_latency = 20;
    if (bus64) {
      mo.data_bytes = 8;
      bench = std::make_unique<DmaBenchT<Vtern_dma_tb_tiny64>>(cfg, mo, seed);
    } else {
      bench = std::make_unique<DmaBenchT<Vtern_dma_tb_tiny>>(cfg, mo, seed);
    }
    fill_random();
  }

  std::string ctx() const { return fmt::format("seed {} (TERN_SEED={} reproduces)", seed, seed); }

  void fill_random() {
    std::vector<uint8_t> h(kHbmBytes);
    for (auto& b : h) b = uint8_t(rng());
    golden->hbm().write(0, h.data(), h.size());
    bench->mem().write(0, h.data(), h.size());
    for (int psum = 0; psum < 2; ++psum) {
      core::OnChipMemory& m = psum ? golden->psum() : golden->sbuf();
      for (uint32_t p = 0; p < cfg.partitions; ++p)
        for (uint32_t a = 0; a < m.partition_bytes(); a += 4) {
          const uint32_t v = uint32_t(rng());
          m.store(p, a, 4, v);
          bench->bd_write(psum, p, a, v);
        }
    }
  }

  // Every byte of HBM, SBUF and PSUM equal; the first differences in words.
  void expect_same(const std::string& what) {
    std::vector<std::string> diffs;
    std::vector<uint8_t> g(kHbmBytes);
    golden->hbm().read(0, g.data(), g.size());
    const auto& r = bench->mem().bytes();
    for (uint64_t a = 0; a < kHbmBytes; ++a)
      if (g[a] != r[a] && diffs.size() < 8)
        diffs.push_back(fmt::format("HBM[0x{:x}] golden 0x{:02x} rtl 0x{:02x}", a, g[a], r[a]));
    for (int psum = 0; psum < 2; ++psum) {
      core::OnChipMemory& m = psum ? golden->psum() : golden->sbuf();
      for (uint32_t p = 0; p < cfg.partitions; ++p)
        for (uint32_t a = 0; a < m.partition_bytes(); a += 4) {
          const uint32_t gv = m.load(p, a, 4), rv = bench->bd_read(psum, p, a);
          if (gv != rv && diffs.size() < 16)
            diffs.push_back(fmt::format("{}[{}][0x{:x}] golden 0x{:08x} rtl 0x{:08x}",
                                        psum ? "PSUM" : "SBUF", p, a, gv, rv));
        }
    }
    EXPECT_TRUE(diffs.empty()) << what << ", " << ctx() << ":\n  " << fmt::format("{}", fmt::join(diffs, "\n  "));
  }

  // The SP program: set the add registers, trigger every transfer, wait for each semaphore.
  isa::Program program(std::vector<Transfer>& ts) {
    isa::Program p;
    auto& sp = p.streams[kSp];
    auto set_reg = [&](uint32_t r, uint32_t v) {
      isa::Instruction in;
      in.op = isa::Opcode::kAdd;
      in.rd = r;
      in.use_imm = true;
      in.imm = v;
      sp.push_back(in);
    };
    for (size_t t = 0; t < ts.size(); ++t) {
      set_reg(uint32_t(1 + 2 * t), ts[t].trig.src_add);
      set_reg(uint32_t(2 + 2 * t), ts[t].trig.dst_add);
    }
    for (size_t t = 0; t < ts.size(); ++t) {
      p.descriptors.push_back(ts[t].desc);
      isa::Instruction in;
      in.op = isa::Opcode::kDma;
      in.queue = ts[t].trig.queue;
      in.imm = uint32_t(t);
      in.rs1 = uint32_t(1 + 2 * t);
      in.rs2 = uint32_t(2 + 2 * t);
      in.sync.update = ts[t].trig.mode;
      in.sync.update_sem = ts[t].trig.sem;
      in.sync.update_value = ts[t].trig.value;
      ts[t].trig.desc = uint32_t(t);
      ts[t].trig.pc = uint32_t(sp.size());
      sp.push_back(in);
    }
    for (const Transfer& t : ts) {
      isa::Instruction in;
      in.op = isa::Opcode::kNop;
      in.sync.wait = true;
      in.sync.wait_sem = t.trig.sem;
      in.sync.wait_value = int32_t(t.trig.value);
      sp.push_back(in);
    }
    isa::Instruction halt;
    halt.op = isa::Opcode::kHalt;
    sp.push_back(halt);
    return p;
  }

  void write_descriptors(const std::vector<Transfer>& ts) {
    for (size_t t = 0; t < ts.size(); ++t) {
      const isa::DescBits bits = isa::encode(ts[t].desc);
      bench->mem().write(kDescBase + 64 * t, bits.words.data(), 64);
    }
  }

  // Runs the scenario on both; returns the golden fault, if any. Every transfer's semaphore
  // update must come from the RTL exactly once when the golden model ran without a fault.
  std::optional<core::CoreFault> run_both(std::vector<Transfer>& ts, const std::string& what) {
    const isa::Program p = program(ts);
    std::optional<core::CoreFault> fault;
    core::RunStats stats;
    try {
      stats = golden->run(p);
    } catch (const core::CoreFault& f) {
      fault = f;
    }
    write_descriptors(ts);
    bench->sems_.clear();
    bench->errs_.clear();
    const uint64_t rd0 = bench->bytes_read(), wr0 = bench->bytes_written();
    for (const Transfer& t : ts) bench->trigger(t.trig);
    last_run_cycles = bench->run_idle();
    if (!fault) {
      // The byte counters count elements as the golden RunStats do.
      EXPECT_EQ(bench->bytes_read() - rd0, stats.dma_bytes_read) << what << ", " << ctx();
      EXPECT_EQ(bench->bytes_written() - wr0, stats.dma_bytes_written) << what << ", " << ctx();
      EXPECT_TRUE(bench->errs_.empty()) << what << ": the RTL faulted with detail "
                                        << bench->err().detail << ", " << ctx();
      EXPECT_EQ(bench->sems_.size(), ts.size()) << what << ", " << ctx();
      for (const Transfer& t : ts) {
        const bool seen = std::any_of(bench->sems_.begin(), bench->sems_.end(), [&](const SemPulse& s) {
          return s.idx == t.trig.sem && s.mode == uint32_t(t.trig.mode) && s.value == t.trig.value;
        });
        EXPECT_TRUE(seen) << what << ": no semaphore update for $S[" << t.trig.sem << "], " << ctx();
      }
    }
    expect_same(what);
    return fault;
  }

  // Free regions of one scenario (never shared by two transfers, so no order between queues
  // matters and the golden race detector stays quiet).
  struct Slots {
    std::vector<Region> hbm, sbuf, psum;
  };
  Slots fresh_slots() {
    Slots s;
    for (uint64_t i = 0; i < 16; ++i) s.hbm.push_back({isa::Space::kHbm, i * (16 << 10), 16 << 10});
    for (uint64_t i = 0; i < 4; ++i) s.sbuf.push_back({isa::Space::kSbuf, i * (4 << 10), 4 << 10});
    for (uint64_t i = 0; i < 4; ++i) s.psum.push_back({isa::Space::kPsum, i * (4 << 10), 4 << 10});
    for (auto* v : {&s.hbm, &s.sbuf, &s.psum}) std::shuffle(v->begin(), v->end(), rng);
    return s;
  }
  std::optional<Region> take(Slots& s, isa::Space sp) {
    auto& v = sp == isa::Space::kHbm ? s.hbm : sp == isa::Space::kSbuf ? s.sbuf : s.psum;
    if (v.empty()) return std::nullopt;
    Region r = v.back();
    v.pop_back();
    return r;
  }

  // A legal random transfer between two fresh regions, or nothing when the slots ran out.
  std::optional<Transfer> random_transfer(Slots& slots, isa::Space ss, isa::Space ds,
                                          uint32_t big = 48, std::optional<Dtype> sdt = {},
                                          std::optional<Dtype> ddt = {}) {
    const std::optional<Region> sr = take(slots, ss), dr = take(slots, ds);
    if (!sr || !dr) return std::nullopt;
    Transfer t;
    const Dtype a = sdt ? *sdt : random_dtype(rng);
    const Dtype b = ddt ? *ddt : (rng() % 3 == 0 ? a : random_dtype(rng));
    for (int attempt = 0;; ++attempt) {
      if (attempt > 200) throw Error("could not generate a transfer that fits its regions");
      const auto n = random_nums(rng, big);
      if (make_side(*sr, a, n, cfg.partitions, rng, t.desc.src) &&
          make_side(*dr, b, reshape(n, rng), cfg.partitions, rng, t.desc.dst))
        break;
    }
    // Part of each address comes from the trigger's register (a multiple of 4 keeps alignment).
    for (int side = 0; side < 2; ++side) {
      isa::DescSide& s = side ? t.desc.dst : t.desc.src;
      uint32_t& add = side ? t.trig.dst_add : t.trig.src_add;
      add = rng() % 2 ? uint32_t(std::min<uint64_t>(s.address, rng() % 2048)) & ~3u : 0;
      s.address -= add;
    }
    t.trig.queue = uint32_t(rng() % cfg.dma_queues);
    t.trig.mode = rng() % 3 == 0 ? isa::SemUpdate::kSet : isa::SemUpdate::kAdd;
    t.trig.value = 1 + uint32_t(rng() % 5);
    return t;
  }

  // Random memory latency, AXI back-pressure and on-chip port stalls for the next scenario.
  void random_timing() {
    bench->mem().set_latency(1 + uint32_t(rng() % 40), 1 + uint32_t(rng() % 40));
    bench->mem().set_ready_percent(rng() % 2 ? 100 : 50 + uint32_t(rng() % 50));
    bench->stall_percent = rng() % 2 ? 0 : uint32_t(rng() % 40);
  }

  void random_transfers(uint32_t n) {
    const std::vector<std::pair<isa::Space, isa::Space>> kinds = {
        {kHbmS, kSbufS}, {kSbufS, kHbmS}, {kHbmS, kPsumS}, {kPsumS, kHbmS}, {kSbufS, kPsumS},
        {kPsumS, kSbufS}, {kHbmS, kHbmS}, {kSbufS, kSbufS}};
    uint32_t pairs_seen[kNumDtypes][kNumDtypes] = {};
    for (uint32_t v = 0; v < n; ++v) {
      random_timing();
      Slots slots = fresh_slots();
      std::vector<Transfer> ts;
      const uint32_t count = 1 + uint32_t(rng() % 5);
      std::string what = fmt::format("scenario {}:", v);
      for (uint32_t i = 0; i < count; ++i) {
        const auto [ss, ds] = kinds[rng() % kinds.size()];
        std::optional<Transfer> t = random_transfer(slots, ss, ds);
        if (!t) continue;
        t->trig.sem = uint32_t(ts.size());
        pairs_seen[int(t->desc.src.dtype)][int(t->desc.dst.dtype)]++;
        what += fmt::format(" [q{} {}.{} -> {}.{} {} elems]", t->trig.queue, isa::space_name(ss),
                            dtype_name(t->desc.src.dtype), isa::space_name(ds),
                            dtype_name(t->desc.dst.dtype), t->desc.src.elements());
        ts.push_back(*t);
      }
      const auto fault = run_both(ts, what);
      ASSERT_FALSE(fault) << what << ": the golden model faulted: " << fault->what() << ", " << ctx();
      if (HasFailure()) break;
    }
    uint32_t covered = 0;
    for (auto& row : pairs_seen)
      for (uint32_t c : row) covered += c != 0;
    RecordProperty("dtype_pairs", int(covered));
    fmt::print("seed {}: {} scenarios, {} of 81 dtype pairs\n", seed, n, covered);
  }

  void long_transfer() {
  bench->mem().set_latency(30, 40);
    isa::Descriptor d;
    const uint32_t n = 5000;  // fp32 words
    d.src = {isa::Space::kHbm, Dtype::kFp32, 0, 0x0FF4, {}};
    d.src.dims[3] = {4, n};
    d.dst = {isa::Space::kHbm, Dtype::kFp32, 0, 0x20000 + 0x7F8, {}};
    d.dst.dims[3] = {4, n};
    Transfer t{d, {}};
    t.trig.queue = 0;
    t.trig.sem = 4;
    std::vector<Transfer> ts = {t};
    bench->mem().clear_stats();
    const uint64_t c0 = bench->cycle_;
    run_both(ts, "long HBM copy");
    const uint64_t cycles = bench->cycle_ - c0;
    const auto& st = bench->mem().stats();
    EXPECT_GT(st.max_in_flight, 1u) << ctx();
    EXPECT_GT(bench->hwm(), 1u);
    EXPECT_GE(st.reads, 5u);  // 20000 bytes from 0xff4: at least one burst per 4 KiB page
    EXPECT_EQ(bench->bytes_read(), uint64_t(4) * n);
    EXPECT_EQ(bench->bytes_written(), uint64_t(4) * n);
    fmt::print("long copy: {} bytes in {} cycles, {} reads / {} writes, {} in flight at most, "
               "hwm {}\n", 4 * n, cycles, st.reads, st.writes, st.max_in_flight,
               bench->hwm());
  }

  bool bus64 = false;  // the 64-bit AXI model (tern_dma_tb_tiny64)
  uint64_t last_run_cycles = 0;  // the RTL's cycles in run_both, triggers to idle
  CoreConfig cfg;
  uint64_t seed = 0;
  std::mt19937_64 rng;
  std::unique_ptr<CoreModel> golden;
  std::unique_ptr<DmaBench> bench;
};


// Random scenarios of several transfers on several queues: every kind of side pair, every dtype
// pair, 1..4-D patterns with gaps, negative and partition steps, random memory latency and
// back-pressure.
TEST_F(DmaRtlTest, RandomTransfersMatchGolden) { random_transfers(random_transfer_count()); }

// Every dtype pair once, HBM to SBUF and back to HBM with another dtype.
TEST_F(DmaRtlTest, EveryDtypePair) {
  for (int a = 0; a < kNumDtypes; ++a) {
    Slots slots = fresh_slots();
    std::vector<Transfer> ts;
    for (int b = 0; b < kNumDtypes; ++b) {
      if (slots.sbuf.empty() || slots.hbm.size() < 2) {
        run_both(ts, fmt::format("dtype pairs from {}", dtype_name(Dtype(a))));
        ts.clear();
        slots = fresh_slots();
      }
      std::optional<Transfer> t =
          random_transfer(slots, b % 2 ? kHbmS : kSbufS, b % 2 ? kSbufS : kHbmS, 16, Dtype(a), Dtype(b));
      ASSERT_TRUE(t);
      t->trig.sem = uint32_t(ts.size());
      ts.push_back(*t);
    }
    run_both(ts, fmt::format("dtype pairs from {}", dtype_name(Dtype(a))));
    if (HasFailure()) break;
  }
}

// Every check, on each side: the golden model faults with kDma, the RTL with the same detail;
// nothing moves and no semaphore is updated. Then the faulted queue drops later triggers while
// another queue goes on.
TEST_F(DmaRtlTest, FaultsMatchGolden) {
  struct Case {
    const char* name;
    uint32_t detail;
    std::function<void(Transfer&)> inject;
    bool swap = false;  // SBUF -> HBM instead of HBM -> SBUF
  };
  const uint32_t P = cfg.partitions;
  const uint64_t part_bytes = cfg.sbuf_partition_bytes;
  const std::vector<Case> cases = {
      {"src dim 0", kDetSrcZero, [](Transfer& t) { t.desc.src.dims[2].num = 0; }},
      {"dst dim 0", kDetDstZero, [](Transfer& t) { t.desc.dst.dims[0].num = 0; }},
      {"src address misaligned", kDetSrcAlign, [](Transfer& t) { t.desc.src.address += 2; }},
      {"src add misaligned", kDetSrcAlign, [](Transfer& t) { t.trig.src_add += 1; }},
      {"src step misaligned", kDetSrcAlign, [](Transfer& t) { t.desc.src.dims[3].step += 1; }},
      {"dst step misaligned", kDetDstAlign, [](Transfer& t) { t.desc.dst.dims[1].step += 1; }},
      {"dst address misaligned", kDetDstAlign, [](Transfer& t) { t.desc.dst.address += 1; }},
      {"src past HBM", kDetSrcHbm, [](Transfer& t) { t.desc.src.address += kHbmBytes; }},
      {"src far past HBM", kDetSrcHbm, [](Transfer& t) { t.desc.src.address += uint64_t(1) << 40; }},
      {"src below 0", kDetSrcHbm, [](Transfer& t) {
         t.desc.src.dims[1] = {-4096, 3};
         t.desc.src.address = 4096;
         t.trig.src_add = 0;
       }},
      {"dst add past the partition", kDetDstOffset, [](Transfer& t) { t.trig.dst_add += uint32_t(kHbmBytes); }},
      {"dst negative partition step", kDetDstPStep, [](Transfer& t) { t.desc.dst.dims[0].step = -1; }},
      {"dst partition past P", kDetDstPart, [P](Transfer& t) {
         t.desc.dst.start_partition = P - t.desc.dst.dims[0].step * (t.desc.dst.dims[0].num - 1);
       }},
      {"dst past the partition", kDetDstOffset, [part_bytes](Transfer& t) { t.desc.dst.address += part_bytes; }},
      {"dst before the partition", kDetDstOffset, [](Transfer& t) {
         t.desc.dst.dims[2] = {-64, 2};
         t.desc.dst.address = 0;
         t.trig.dst_add = 0;
       }},
      {"count", kDetCount, [](Transfer& t) { t.desc.dst.dims[0].num += 1; }},
      // The other direction: on-chip source checks, HBM destination checks.
      {"src negative partition step", kDetSrcPStep, [](Transfer& t) { t.desc.src.dims[0].step = -2; }, true},
      {"src partition past P", kDetSrcPart, [P](Transfer& t) { t.desc.src.start_partition = P; }, true},
      {"src past the partition", kDetSrcOffset, [](Transfer& t) { t.desc.src.address += uint64_t(1) << 40; }, true},
      {"src zero before dst zero", kDetSrcZero, [](Transfer& t) {
         t.desc.src.dims[3].num = 0;
         t.desc.dst.dims[3].num = 0;
       }, true},
      {"dst past HBM", kDetDstHbm, [](Transfer& t) { t.trig.dst_add += uint32_t(kHbmBytes); }, true},
      {"dst below 0", kDetDstHbm, [](Transfer& t) {
         t.desc.dst.dims[3].step = -int32_t(core::dtype_bytes(t.desc.dst.dtype));
         t.desc.dst.dims[3].num = 70000 % 65536;
         t.desc.dst.address = 0;
         t.trig.dst_add = 0;
       }, true},
      {"dst misaligned before past HBM", kDetDstAlign, [](Transfer& t) {
         t.desc.dst.address += kHbmBytes + 1;
       }, true},
      {"src fault before dst fault", kDetSrcOffset, [](Transfer& t) {
         t.desc.src.address += uint64_t(1) << 20;
         t.desc.dst.address += uint64_t(1) << 20;
       }, true},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    // Partition faults need an on-chip side on one partition from partition 0, step 1.
    std::optional<Transfer> t;
    for (int attempt = 0; attempt < 1000; ++attempt) {
      Slots slots = fresh_slots();
      t = c.swap ? random_transfer(slots, kSbufS, kHbmS, 16, Dtype::kBf16, Dtype::kFp32)
                 : random_transfer(slots, kHbmS, kSbufS, 16, Dtype::kFp32, Dtype::kBf16);
      if ((c.swap ? t->desc.src : t->desc.dst).dims[0].num == 1) break;
    }
    ASSERT_TRUE(t);
    isa::DescSide& oc = c.swap ? t->desc.src : t->desc.dst;
    ASSERT_EQ(oc.dims[0].num, 1u);
    oc.dims[0].step = 1;
    oc.start_partition = 0;
    c.inject(*t);
    t->trig.sem = 7;
    t->trig.queue = 2;
    std::vector<Transfer> ts = {*t};
    const auto fault = run_both(ts, c.name);
    ASSERT_TRUE(fault) << c.name << ": the golden model did not fault, " << ctx();
    EXPECT_EQ(fault->kind(), FaultKind::kDma) << fault->what();
    EXPECT_EQ(bench->errs_.size(), 1u) << c.name << ", " << ctx();
    EXPECT_TRUE(bench->sems_.empty()) << c.name;
    const ErrReport e = bench->err();
    EXPECT_EQ(e.code, uint32_t(FaultKind::kDma)) << c.name;
    EXPECT_EQ(e.detail, c.detail) << c.name << " (golden: " << fault->what() << ")";
    EXPECT_EQ(e.queue, 2u);
    EXPECT_EQ(e.desc, 0u);
    EXPECT_EQ(e.seq, kSp);
    EXPECT_EQ(e.pc, ts[0].trig.pc);
    bench->reset();
  }
}

// A faulting queue drops its pending and later triggers; the other queues go on.
TEST_F(DmaRtlTest, FaultStopsOnlyItsQueue) {
  Slots slots = fresh_slots();
  std::optional<Transfer> bad = random_transfer(slots, kHbmS, kSbufS, 16);
  std::optional<Transfer> good = random_transfer(slots, kHbmS, kPsumS, 16);
  ASSERT_TRUE(bad && good);
  bad->desc.src.dims[3].num = 0;
  bad->trig.queue = 1;
  bad->trig.sem = 1;
  good->trig.queue = 3;
  good->trig.sem = 3;
  std::vector<Transfer> ts = {*bad, *good};
  for (size_t i = 0; i < ts.size(); ++i) ts[i].trig.desc = uint32_t(i);
  write_descriptors(ts);
  bench->sems_.clear();
  Trigger later = bad->trig;
  later.desc = 1;  // a legal descriptor, but its queue is dead
  later.sem = 5;
  bench->trigger(ts[0].trig);
  bench->trigger(later);
  bench->trigger(ts[1].trig);
  bench->trigger(later);
  bench->run_idle();
  ASSERT_EQ(bench->sems_.size(), 1u) << ctx();
  EXPECT_EQ(bench->sems_[0].idx, 3u);
  EXPECT_EQ(bench->err().queue, 1u);
  EXPECT_EQ(bench->err().detail, uint32_t(kDetSrcZero));
  bench->reset();
}

// The HBM bytes a transfer's HBM side may touch: its 16 KiB slot from the 4 KiB page of its
// start on (20 KiB), never the descriptor table after HBM. `src` says which side is HBM.
std::pair<uint64_t, uint64_t> hbm_region(const Transfer& t, isa::Space src) {
  const isa::DescSide& hs = src == kHbmS ? t.desc.src : t.desc.dst;
  const uint64_t lo = hs.address + (src == kHbmS ? t.trig.src_add : t.trig.dst_add);
  const uint64_t page = lo & ~uint64_t(4095);
  return {page, std::min(kHbmBytes, page + (20 << 10))};
}

// SLVERR and DECERR from the memory, on data reads, data writes and the descriptor fetch.
TEST_F(DmaRtlTest, AxiErrorsFault) {
  struct Case {
    const char* name;
    isa::Space src, dst;
    uint32_t detail;
  };
  for (const Case& c : {Case{"read SLVERR", kHbmS, kSbufS, kDetSlvErr},
                        Case{"write SLVERR", kSbufS, kHbmS, kDetSlvErr},
                        Case{"read DECERR", kHbmS, kPsumS, kDetDecErr},
                        Case{"write DECERR", kPsumS, kHbmS, kDetDecErr},
                        Case{"descriptor SLVERR", kHbmS, kHbmS, kDetDescFetch}}) {
    SCOPED_TRACE(c.name);
    Slots slots = fresh_slots();
    std::optional<Transfer> t = random_transfer(slots, c.src, c.dst, 16);
    ASSERT_TRUE(t);
    t->trig.sem = 9;
    t->trig.desc = 0;
    write_descriptors({*t});
    const bool dec = c.detail == kDetDecErr;
    isa::DescSide& hs = c.src == kHbmS ? t->desc.src : t->desc.dst;
    if (c.detail == kDetDescFetch) {
      bench->mem().add_slverr(kDescBase, kDescBase + 64);
    } else if (dec) {
      // The engine believes HBM is larger than the memory behind it.
      bench->set_hbm_size(uint32_t(kMemBytes + kHbmBytes));
      hs.address += kMemBytes;
      write_descriptors({*t});
    } else {
      const auto [first, end] = hbm_region(*t, c.src);
      bench->mem().add_slverr(first, end);
    }
    bench->sems_.clear();
    bench->errs_.clear();
    bench->trigger(t->trig);
    bench->run_idle();
    EXPECT_EQ(bench->errs_.size(), 1u) << ctx();
    EXPECT_TRUE(bench->sems_.empty());
    EXPECT_EQ(bench->err().code, uint32_t(FaultKind::kDma));
    EXPECT_EQ(bench->err().detail, c.detail);
    // Nothing of the failed transfer is written: every memory still equals the golden's.
    bench->mem().clear_errors();
    bench->set_hbm_size(uint32_t(kHbmBytes));
    if (!dec && c.detail != kDetDescFetch) expect_same(c.name);
    bench->reset();
  }
}

// A response that never comes (a read's R, a write's B, the descriptor fetch's R): the
// transfer's watchdog faults with code 10 at its queue, sequencer and pc, every queue then
// swallows its triggers, and the engine reports idle (so nothing waits on it forever).
TEST_F(DmaRtlTest, LostResponseRaisesTheWatchdog) {
  constexpr uint32_t kLimit = 3000;
  struct Case {
    const char* name;
    isa::Space src, dst;
  };
  for (const Case& c : {Case{"read", kHbmS, kSbufS}, Case{"write", kSbufS, kHbmS},
                        Case{"descriptor fetch", kHbmS, kHbmS}}) {
    SCOPED_TRACE(c.name);
    Slots slots = fresh_slots();
    std::optional<Transfer> t = random_transfer(slots, c.src, c.dst, 16);
    ASSERT_TRUE(t);
    t->trig.queue = 1;
    t->trig.desc = 0;
    t->trig.sem = 9;
    t->trig.pc = 77;
    write_descriptors({*t});
    if (c.src == c.dst) {
      bench->mem().add_lost(kDescBase, kDescBase + 64);
    } else {
      const auto [first, end] = hbm_region(*t, c.src);
      bench->mem().add_lost(first, end);
    }
    bench->set_watchdog(kLimit);
    bench->sems_.clear();
    bench->errs_.clear();
    const uint64_t start = bench->cycle_;
    bench->trigger(t->trig);
    Trigger later;  // a legal transfer on another queue: swallowed, no semaphore
    later.queue = 0;
    later.sem = 5;
    bench->trigger(later);
    bench->run_idle(10 * kLimit);
    ASSERT_EQ(bench->errs_.size(), 1u) << ctx();
    EXPECT_GE(bench->errs_[0] - start, kLimit);
    EXPECT_LT(bench->errs_[0] - start, kLimit + 64);
    EXPECT_TRUE(bench->sems_.empty());
    const ErrReport e = bench->err();
    EXPECT_EQ(e.code, uint32_t(FaultKind::kWatchdog));
    EXPECT_EQ(e.detail, 0u);
    EXPECT_EQ(e.queue, 1u);
    EXPECT_EQ(e.seq, kSp);
    EXPECT_EQ(e.pc, 77u);
    bench->mem().clear_errors();
    bench->set_watchdog(0);
    bench->reset();
  }
}

// A long transfer: bursts split at every 4 KiB boundary (the memory model rejects a crossing)
// and at 256 beats, several bursts in flight, the semaphore after the last B.
TEST_F(DmaRtlTest, LongTransferSplitsAndOverlaps) { long_transfer(); }

// Dims that continue each other form one run: a contiguous 4 KiB tile in three dims is one
// burst (plus the descriptor fetch), and so is a write of it with an unused middle dim.
TEST_F(DmaRtlTest, ContiguousDimsMergeIntoOneRun) {
  isa::Descriptor d;
  d.src = {isa::Space::kHbm, Dtype::kFp32, 0, 0x8000, {}};
  d.src.dims[1] = {1024, 4};
  d.src.dims[2] = {256, 4};
  d.src.dims[3] = {4, 64};
  d.dst = {isa::Space::kHbm, Dtype::kFp32, 0, 0x14000, {}};
  d.dst.dims[1] = {4096, 1};  // size 1: its step does not matter
  d.dst.dims[2] = {64, 64};
  d.dst.dims[3] = {4, 16};
  Transfer t{d, {}};
  t.trig.sem = 2;
  std::vector<Transfer> ts = {t};
  bench->mem().clear_stats();
  run_both(ts, "contiguous 3-D tile");
  EXPECT_EQ(bench->mem().stats().reads, 2u) << "descriptor + one burst";
  EXPECT_EQ(bench->mem().stats().writes, 1u);
}

// The same queue runs its transfers in order: the second reads what the first wrote.
TEST_F(DmaRtlTest, QueueIsInOrder) {
  for (int v = 0; v < 6; ++v) {
    Slots slots = fresh_slots();
    std::optional<Transfer> a = random_transfer(slots, kHbmS, kSbufS, 24, Dtype::kBf16, Dtype::kFp32);
    ASSERT_TRUE(a);
    Transfer b;
    b.desc.src = a->desc.dst;  // reads the first one's destination, as written
    b.trig.src_add = a->trig.dst_add;
    const Region dr = *take(slots, kHbmS);
    const auto n = std::array<uint32_t, 4>{a->desc.dst.dims[0].num, a->desc.dst.dims[1].num,
                                           a->desc.dst.dims[2].num, a->desc.dst.dims[3].num};
    ASSERT_TRUE(make_side(dr, Dtype::kFp16, reshape(n, rng), cfg.partitions, rng, b.desc.dst));
    a->trig.queue = b.trig.queue = uint32_t(v % cfg.dma_queues);
    a->trig.sem = 0;
    b.trig.sem = 1;
    std::vector<Transfer> ts = {*a, b};
    run_both(ts, "chained transfers on one queue");
    if (HasFailure()) break;
  }
}

// Row mode (docs/dma.md): HBM <-> SBUF copies without a cast move a byte stream, up to a row of
// one partition per cycle. Random patterns of every dtype (partition steps, gaps, reversed
// dims, unaligned starts), random latency and back-pressure, several per scenario.
TEST_F(DmaRtlTest, RowModeMatchesGolden) {
  const uint32_t n = test_vectors(24);
  for (uint32_t v = 0; v < n; ++v) {
    random_timing();
    Slots slots = fresh_slots();
    std::vector<Transfer> ts;
    std::string what = fmt::format("row-mode scenario {}:", v);
    for (uint32_t i = 0; i < 1 + rng() % 4; ++i) {
      const bool to_sbuf = rng() % 2;
      const Dtype dt = random_dtype(rng);
      std::optional<Transfer> t = random_transfer(slots, to_sbuf ? kHbmS : kSbufS,
                                                  to_sbuf ? kSbufS : kHbmS, 200, dt, dt);
      if (!t) continue;
      t->trig.sem = uint32_t(ts.size());
      what += fmt::format(" [q{} {} {} {} elems]", t->trig.queue, to_sbuf ? "hbm->sbuf" : "sbuf->hbm",
                          dtype_name(dt), t->desc.src.elements());
      ts.push_back(*t);
    }
    const auto fault = run_both(ts, what);
    ASSERT_FALSE(fault) << what << ": the golden model faulted: " << fault->what() << ", " << ctx();
    if (HasFailure()) break;
  }
  fmt::print("seed {}: {} row-mode scenarios\n", seed, n);
}

// The gemm kernel's first two loads on tiny, whose 32-byte SBUF rows are half a beat: a whole
// 64-byte beat offered to the stream must still be taken a row at a time (it once hung).
TEST_F(DmaRtlTest, RowModeTakesWholeBeatsARowAtATime) {
  isa::Descriptor d0, d1;
  d0.src = {isa::Space::kHbm, Dtype::kBf16, 0, 0x0, {}};
  d0.src.dims[0] = {2, 8};
  d0.src.dims[3] = {42, 8};
  d0.dst = {isa::Space::kSbuf, Dtype::kBf16, 0, 0x0, {}};
  d0.dst.dims[0] = {1, 8};
  d0.dst.dims[3] = {2, 8};
  d1.src = {isa::Space::kHbm, Dtype::kBf16, 0, 0x1000, {}};
  d1.src.dims[0] = {54, 8};
  d1.src.dims[3] = {2, 27};
  d1.dst = {isa::Space::kSbuf, Dtype::kBf16, 0, 0x80, {}};
  d1.dst.dims[0] = {1, 8};
  d1.dst.dims[3] = {2, 27};
  Transfer a{d0, {}}, b{d1, {}};
  a.trig.sem = 0;
  b.trig.sem = 1;
  std::vector<Transfer> ts = {a, b};
  run_both(ts, "gemm loads");
}

// A contiguous copy of every partition moves about a row a cycle once the latency is covered:
// far more than the element path's 4 bytes a cycle (a broken row mode falls back to it).
TEST_F(DmaRtlTest, RowModeMovesARowPerCycle) {
  bench->mem().set_latency(20, 20);
  const uint32_t P = cfg.partitions, row = 1024;  // bytes per partition
  for (const bool to_sbuf : {true, false}) {
    isa::Descriptor d;
    isa::DescSide hbm{isa::Space::kHbm, Dtype::kBf16, 0, 0x10000, {}};
    hbm.dims[2] = {int32_t(row), P};
    hbm.dims[3] = {2, row / 2};
    isa::DescSide sbuf{isa::Space::kSbuf, Dtype::kBf16, 0, 0x100, {}};
    sbuf.dims[0] = {1, P};
    sbuf.dims[3] = {2, row / 2};
    d.src = to_sbuf ? hbm : sbuf;
    d.dst = to_sbuf ? sbuf : hbm;
    Transfer t{d, {}};
    t.trig.sem = 3;
    std::vector<Transfer> ts = {t};
    run_both(ts, to_sbuf ? "hbm->sbuf rows" : "sbuf->hbm rows");
    const uint64_t cycles = last_run_cycles, bytes = uint64_t(P) * row;
    fmt::print("{}: {} bytes in {} cycles ({:.1f} bytes/cycle)\n", to_sbuf ? "hbm->sbuf" : "sbuf->hbm",
               bytes, cycles, double(bytes) / double(cycles));
    EXPECT_LT(cycles, bytes / 16) << ctx();
  }
}

// The same engine on a 64-bit AXI bus (the lint config's width): 256 beats are 2 KiB, so bursts
// also split at 256 beats.
class DmaRtl64Test : public DmaRtlTest {
 protected:
  void SetUp() override {
    bus64 = true;
    DmaRtlTest::SetUp();
  }
};
TEST_F(DmaRtl64Test, RandomTransfersMatchGolden) { random_transfers(random_transfer_count() / 2); }
TEST_F(DmaRtl64Test, LongTransferSplitsAt256Beats) {
  long_transfer();
  EXPECT_EQ(bench->mem().stats().max_len, 255u) << ctx();
}

// Non-empty queues are served round-robin: one trigger on queue 1 behind three on queue 0
// completes second.
TEST_F(DmaRtlTest, QueuesAreServedRoundRobin) {
  Slots slots = fresh_slots();
  std::vector<Transfer> ts;
  for (uint32_t i = 0; i < 4; ++i) {
    std::optional<Transfer> t = random_transfer(slots, kHbmS, kHbmS, 16);
    ASSERT_TRUE(t);
    t->trig.queue = i < 3 ? 0 : 1;
    t->trig.sem = i;
    t->trig.mode = isa::SemUpdate::kAdd;
    t->trig.value = 1;
    ts.push_back(*t);
  }
  run_both(ts, "round robin");
  ASSERT_EQ(bench->sems_.size(), 4u);
  EXPECT_EQ(bench->sems_[0].idx, 0u);
  EXPECT_EQ(bench->sems_[1].idx, 3u) << "queue 1 waited for all of queue 0";
  EXPECT_EQ(bench->sems_[2].idx, 1u);
  EXPECT_EQ(bench->sems_[3].idx, 2u);
}

// ---------------------------------------------------------------------------------------------
// tern_axi_mux: two masters with random bursts into one memory.

struct MuxMaster {
  struct Op {
    bool write;
    uint32_t id, addr, len;
    std::vector<uint32_t> data;  // 2 words per 64-bit beat
  };
  std::deque<Op> ops;          // to issue (address phase)
  std::deque<Op> wdata;        // writes whose data is still to send
  std::deque<Op> reads;        // reads waiting for data
  uint32_t w_beat = 0, r_beat = 0, b_left = 0;
  bool w_offer = false;
};

TEST(AxiMux, TwoMastersShareOneMemory) {
  const uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  Vtern_axi_mux top;
  AxiMemOptions mo;
  mo.size = 64 << 10;
  mo.data_bytes = 8;
  mo.read_latency = 5;
  mo.ready_percent = 70;
  mo.rvalid_percent = 70;
  mo.seed = seed;
  AxiMem mem(mo);
  std::vector<uint8_t> shadow(mo.size, 0);
  MuxMaster m[2];
  // Writes of random data into each master's half, then reads of the same bursts.
  for (int i = 0; i < 2; ++i) {
    std::vector<MuxMaster::Op> writes;
    for (int k = 0; k < 30; ++k) {
      MuxMaster::Op op{true, uint32_t(rng() % 16), 0, uint32_t(rng() % 16), {}};
      op.addr = uint32_t(i * (32 << 10) + (rng() % 256) * 128);  // 128-aligned: no 4 KiB crossing
      for (uint32_t w = 0; w < 2 * (op.len + 1); ++w) op.data.push_back(uint32_t(rng()));
      writes.push_back(op);
    }
    for (const auto& op : writes) m[i].ops.push_back(op);
    for (auto op : writes) {
      op.write = false;
      m[i].ops.push_back(op);
    }
  }
  auto set_bit = [](auto& port, int i, bool v) {
    port = (port & ~(1u << i)) | (uint32_t(v) << i);
  };
  top.rst_ni = 0;
  top.clk_i = 0;
  top.eval();
  top.clk_i = 1;
  top.eval();
  top.rst_ni = 1;
  uint64_t cycle = 0;
  uint32_t writes_done[2] = {0, 0};
  auto done = [&] {
    for (auto& x : m)
      if (!x.ops.empty() || !x.wdata.empty() || !x.reads.empty() || x.b_left) return false;
    return true;
  };
  while (!done()) {
    ASSERT_LT(cycle, 200000u) << "mux test hangs, seed " << seed;
    // Masters drive: the next op's address phase (writes wait for all earlier writes' B before
    // reads start, so the read-back sees the data), W beats of the oldest write.
    top.s_awvalid_i = 0;
    top.s_arvalid_i = 0;
    top.s_wvalid_i = 0;
    top.s_bready_i = 3;
    top.s_rready_i = uint32_t(rng() % 4);
    for (int i = 0; i < 2; ++i) {
      MuxMaster& x = m[i];
      if (!x.ops.empty()) {
        const auto& op = x.ops.front();
        if (op.write) {
          set_bit(top.s_awvalid_i, i, true);
          top.s_awid_i = (top.s_awid_i & ~(0xFu << (4 * i))) | (op.id << (4 * i));
          tb::detail::set_word(top.s_awaddr_i, size_t(i), op.addr);
          top.s_awlen_i = (top.s_awlen_i & ~(0xFFu << (8 * i))) | (op.len << (8 * i));
          top.s_awsize_i = (top.s_awsize_i & ~(7u << (3 * i))) | (3u << (3 * i));
          top.s_awburst_i = (top.s_awburst_i & ~(3u << (2 * i))) | (1u << (2 * i));
        } else if (x.wdata.empty() && x.b_left == 0) {
          set_bit(top.s_arvalid_i, i, true);
          top.s_arid_i = (top.s_arid_i & ~(0xFu << (4 * i))) | (op.id << (4 * i));
          tb::detail::set_word(top.s_araddr_i, size_t(i), op.addr);
          top.s_arlen_i = (top.s_arlen_i & ~(0xFFu << (8 * i))) | (op.len << (8 * i));
          top.s_arsize_i = (top.s_arsize_i & ~(7u << (3 * i))) | (3u << (3 * i));
          top.s_arburst_i = (top.s_arburst_i & ~(3u << (2 * i))) | (1u << (2 * i));
        }
      }
      // W beats come when the master likes (an offered beat stays until taken).
      x.w_offer = !x.wdata.empty() && (x.w_offer || rng() % 10 < 6);
      if (x.w_offer) {
        const auto& op = x.wdata.front();
        set_bit(top.s_wvalid_i, i, true);
        top.s_wdata_i[2 * i] = op.data[2 * x.w_beat];
        top.s_wdata_i[2 * i + 1] = op.data[2 * x.w_beat + 1];
        top.s_wstrb_i = uint32_t(top.s_wstrb_i & ~(0xFFu << (8 * i))) | (0xFFu << (8 * i));
        set_bit(top.s_wlast_i, i, x.w_beat == op.len);
      }
    }
    tb::drive_axi(top, mem.out());
    top.clk_i = 0;
    top.eval();
    mem.cycle(tb::sample_axi(top, 8));
    // Handshakes seen by the masters.
    for (int i = 0; i < 2; ++i) {
      MuxMaster& x = m[i];
      if (((top.s_awvalid_i & top.s_awready_o) >> i) & 1) {
        x.wdata.push_back(x.ops.front());
        ++x.b_left;
        x.ops.pop_front();
      } else if (((top.s_arvalid_i & top.s_arready_o) >> i) & 1) {
        x.reads.push_back(x.ops.front());
        x.ops.pop_front();
      }
      if (((top.s_wvalid_i & top.s_wready_o) >> i) & 1) {
        x.w_offer = false;
        const auto& op = x.wdata.front();
        for (int b = 0; b < 8; ++b)
          shadow[op.addr + 8 * x.w_beat + b] = uint8_t(op.data[2 * x.w_beat + b / 4] >> (8 * (b % 4)));
        if (x.w_beat++ == op.len) {
          x.w_beat = 0;
          x.wdata.pop_front();
        }
      }
      if (((top.s_bvalid_o & top.s_bready_i) >> i) & 1) {
        ASSERT_GT(x.b_left, 0u) << "a B for master " << i << " that sent no write";
        EXPECT_EQ(top.s_bresp_o, 0u);
        --x.b_left;
        ++writes_done[i];
      }
      if (((top.s_rvalid_o & top.s_rready_i) >> i) & 1) {
        ASSERT_FALSE(x.reads.empty()) << "R data for master " << i << " that asked for none";
        const auto& op = x.reads.front();
        EXPECT_EQ(top.s_rid_o, op.id) << "master " << i;
        uint32_t lo = 0, hi = 0;
        std::memcpy(&lo, &shadow[op.addr + 8 * x.r_beat], 4);
        std::memcpy(&hi, &shadow[op.addr + 8 * x.r_beat + 4], 4);
        EXPECT_EQ(uint32_t(top.s_rdata_o), lo) << "master " << i << " addr " << op.addr << " beat " << x.r_beat;
        EXPECT_EQ(uint32_t(top.s_rdata_o >> 32), hi);
        EXPECT_EQ(bool(top.s_rlast_o), x.r_beat == op.len);
        if (x.r_beat++ == op.len) {
          x.r_beat = 0;
          x.reads.pop_front();
        }
      }
    }
    top.clk_i = 1;
    top.eval();
    ++cycle;
    if (::testing::Test::HasFailure()) break;
  }
  EXPECT_EQ(writes_done[0], 30u);
  EXPECT_EQ(writes_done[1], 30u);
  EXPECT_TRUE(std::equal(shadow.begin(), shadow.end(), mem.bytes().begin())) << "seed " << seed;
  EXPECT_GT(mem.stats().max_in_flight, 1u);
  fmt::print("mux: {} cycles, seed {}\n", cycle, seed);
}

}  // namespace
}  // namespace tern
