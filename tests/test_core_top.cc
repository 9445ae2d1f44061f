// The whole NeuronCore RTL (rtl/core/tern_core.sv: CSRs, sequencers, engines, SBUF/PSUM, DMA,
// one AXI4 master) against the golden core model, end to end through tb/core_harness.h: the
// reference kernels and constrained-random kernel-API programs must leave HBM bit-identical;
// bad programs must fault the same agent with the same code at the same instruction; AXI
// errors, the deadlock detector and the instruction budget stop the offending agent, and the core restarts cleanly.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cstdlib>
#include <cstring>

#include "Vtern_core_tiny.h"
#include "core_models.h"
#if TERN_SMALL_CORE
#include "Vtern_core_small.h"
#endif
#include "common/config.h"
#include "core/csr_map.h"
#include "core_compare.h"
#include "onchip_backdoor.h"
#include "isa/asm.h"
#include "stimulus/kernel_random.h"
#include "kernels/kernels.h"
#include "test_util.h"

namespace tern {
namespace {

CoreConfig config(const std::string& name) {
  return load_config(std::string(TERN_CONFIG_DIR) + "/" + name + ".yaml");
}

std::string joined(const std::vector<std::string>& errors) {
  return fmt::format("{}", fmt::join(errors, "\n"));
}

template <typename Top>
void check_reference_kernels(const std::string& cfg_name) {
  const CoreConfig cfg = config(cfg_name);
  for (const kernels::RefKernel& ref : kernels::reference_kernels()) {
    SCOPED_TRACE(fmt::format("{} on {}", ref.name, cfg_name));
    const kernels::Shape shape = ref.default_shape(cfg);
    const stimulus::KernelImage img = stimulus::reference_kernel_image(ref, cfg, shape, 1);
    const tb::CoreCompare c = tb::compare_core<Top>(cfg, img.program, img.hbm, img.regions);
    EXPECT_FALSE(c.golden_fault);
    EXPECT_GT(c.golden_changed_bytes, 0u) << "the kernel wrote nothing: the comparison checks nothing";
    EXPECT_TRUE(c.errors.empty()) << joined(c.errors);
    fmt::print("{} {} {}: {} RTL cycles (golden estimate {})\n", cfg_name, ref.name,
               kernels::shape_text(shape), c.rtl.cycles, c.golden.cycles);
  }
}

TEST(CoreTop, ReferenceKernelsMatchGoldenOnTiny) { check_reference_kernels<Vtern_core_tiny>("tiny"); }
#if TERN_SMALL_CORE
TEST(CoreTop, ReferenceKernelsMatchGoldenOnSmall) { check_reference_kernels<Vtern_core_small>("small"); }
#endif

// Constrained-random kernels from the kernel API on tiny: 200 in `make test`, 1000 in `make
// test-deep` (TERN_CORE_PROGRAMS overrides), each compared end to end.
TEST(CoreTop, RandomKernelProgramsMatchGolden) {
  const CoreConfig cfg = config("tiny");
  auto rng = test::make_rng();
  const int programs = int(test::random_count("TERN_CORE_PROGRAMS", 200, 1000));
  uint64_t cycles = 0;
  int changed = 0;  // programs whose output is not all zero (relu of negatives can be)
  for (int i = 0; i < programs; ++i) {
    const stimulus::KernelImage rk = stimulus::random_kernel(cfg, rng);
    SCOPED_TRACE(fmt::format("program {}: {}", i, rk.recipe));
    tb::CoreRunOptions opt;
    opt.read_latency = 4 + uint32_t(rng() % 40);
    opt.ready_percent = rng() % 4 == 0 ? 60 : 100;
    opt.seed = rng();
    const tb::CoreCompare c = tb::compare_core<Vtern_core_tiny>(cfg, rk.program, rk.hbm, rk.regions, opt);
    ASSERT_FALSE(c.golden_fault) << rk.recipe;
    changed += c.golden_changed_bytes > 0;
    ASSERT_TRUE(c.errors.empty()) << joined(c.errors) << "\n" << isa::disassemble(rk.program);
    cycles += c.rtl.cycles;
  }
  EXPECT_GT(changed, programs * 9 / 10) << "most programs must write something to compare";
  fmt::print("{} random kernels, {} RTL cycles in all\n", programs, cycles);
}

// Bad programs: the same agent faults with the same code at the same instruction.
TEST(CoreTop, BadProgramsFaultLikeGolden) {
  const CoreConfig cfg = config("tiny");
  const std::string one = "[[1,1],[0,1],[0,1],[4,4]]";
  const std::string bad[] = {
      // a DMA queue and a descriptor that do not exist (refused at the trigger)
      ".seq sp\n  dma q99, d0\n  halt\n.desc 0 src=hbm.fp32[0][[4,4]] dst=sbuf.fp32[0, 0]" + one + "\n",
      ".seq sp\n  dma q0, d5\n  halt\n.desc 0 src=hbm.fp32[0][[4,4]] dst=sbuf.fp32[0, 0]" + one + "\n",
      // a transfer past HBM, and one whose counts disagree (faults of the DMA queue)
      ".seq sp\n  dma q1, d0\n  halt\n.desc 0 src=hbm.fp32[8388592][[4,4]] dst=sbuf.fp32[0, 0]" + one + "\n",
      ".seq sp\n  dma q2, d0\n  halt\n.desc 0 src=hbm.fp32[0][[4,8]] dst=sbuf.fp32[0, 0]" + one + "\n",
      // an instruction of another engine, an ld past HBM
      ".seq act\n  matmul psum.fp32[0:1, 0][[1,1]], sbuf.bf16[0:1, 0][[1,1]]\n  halt\n",
      ".seq pool\n  ld r2, [r0+2147483644]\n  halt\n",
  };

  for (const std::string& text : bad) {
    SCOPED_TRACE(text);
    const isa::Program p = isa::assemble(text, "bad");
    const tb::CoreCompare c = tb::compare_core<Vtern_core_tiny>(cfg, p, std::vector<uint8_t>(4096), {});
    EXPECT_TRUE(c.golden_fault);
    EXPECT_TRUE(c.errors.empty()) << joined(c.errors);
  }
}

// One DMA copy of 16 fp32 words from HBM 0x100 into SBUF, waited for; the AXI fault tests'
// program.
isa::Program copy_program() {
  return isa::assemble(
      ".seq sp\n  dma q0, d0 $S[0]++@complete\n  nop $S[0]>=1\n  halt\n"
      ".desc 0 src=hbm.fp32[256][[4,16]] dst=sbuf.fp32[0, 0][[1,1],[0,1],[0,1],[4,16]]\n",
      "copy");
}

// The host's recovery after a faulted run: reset the core, and a memory without the error.
void reset_after_error(tb::CoreHarness<Vtern_core_tiny>& h) {
  h.top().rst_ni = 0;
  for (int i = 0; i < 4; ++i) h.tick();
  h.top().rst_ni = 1;
  h.hbm().reset();
  h.hbm().clear_errors();
}

// An AXI error on a DMA read stops that queue with the SLVERR detail and raises the DMA-error
// interrupt; the same harness then runs a good program to the end (restart after an error).
TEST(CoreTop, AxiErrorStopsTheQueueAndTheCoreRestarts) {
  const isa::Program p = copy_program();
  tb::CoreHarness<Vtern_core_tiny> h(1 << 20, {});
  h.hbm().add_slverr(0x100, 0x140);
  const tb::CoreRunResult bad = h.run(p, 0x10000);
  EXPECT_TRUE(bad.irq_status & csr::glb::kIrqDmaError.mask());
  EXPECT_EQ(csr::dma::kErrStatusCode.get(bad.dma[0].err_status), uint32_t(core::FaultKind::kDma));
  EXPECT_EQ(csr::dma::kErrStatusDetail.get(bad.dma[0].err_status), uint32_t(core::DmaDetail::kSlvErr))
      << "the SLVERR detail (docs/dma.md)";
  // Reset (the host's recovery) and run again without the error.
  reset_after_error(h);
  for (uint32_t i = 0; i < 16; ++i) {
    const uint32_t v = 0x1000 + i;
    h.hbm().write(0x100 + 4 * i, &v, 4);
  }
  const tb::CoreRunResult good = h.run(p, 0x10000);
  EXPECT_TRUE(good.irq_status & csr::glb::kIrqIdle.mask());
  EXPECT_EQ(csr::dma::kErrStatusCode.get(good.dma[0].err_status), 0u);
  for (uint32_t i = 0; i < 16; ++i) EXPECT_EQ(tb::read_onchip(h, isa::Mem::kSbuf, 0, 4 * i), 0x1000 + i);
}

// A DMA read whose response never comes: the transfer's watchdog (GLB.WATCHDOG) stops the
// engine with fault 10 and raises the DMA-error interrupt, so the run ends instead of hanging;
// after a reset the core runs the program again.
TEST(CoreTop, LostDmaResponseRaisesTheWatchdog) {
  const isa::Program p = copy_program();
  tb::CoreRunOptions opt;
  opt.limits.watchdog = 2000;
  opt.max_cycles = 100'000;
  tb::CoreHarness<Vtern_core_tiny> h(1 << 20, opt);
  h.hbm().add_lost(0x100, 0x140);
  const tb::CoreRunResult lost = h.run(p, 0x10000);
  EXPECT_FALSE(lost.timed_out);
  EXPECT_TRUE(lost.irq_status & csr::glb::kIrqDmaError.mask());
  EXPECT_EQ(csr::dma::kErrStatusCode.get(lost.dma[0].err_status), uint32_t(core::FaultKind::kWatchdog));
  reset_after_error(h);
  const tb::CoreRunResult good = h.run(p, 0x10000);
  EXPECT_TRUE(good.irq_status & csr::glb::kIrqIdle.mask());
  EXPECT_EQ(csr::dma::kErrStatusCode.get(good.dma[0].err_status), 0u);
}

// A sequencer's fault raises its error interrupt (IRQ_STATUS.error, bit 8 + the sequencer) and
// the run ends there, with the code and pc in its STATUS: a deadlock (7), the instruction
// budget (8) and the watchdog (10, a wait that outlasts GLB.WATCHDOG while POOL spins).
TEST(CoreTop, SequencerFaultsRaiseTheErrorInterrupt) {
  using core::FaultKind;
  const struct {
    const char* text;
    uint32_t watchdog, budget;
    FaultKind kind;
    isa::Seq seq;
    uint32_t pc;
  } cases[] = {
      {".seq act\n  nop\n  nop $S[3]>=1\n  halt\n", csr::glb::kWatchdogReset, csr::glb::kBudgetReset,
       FaultKind::kDeadlock, isa::Seq::kAct, 1},
      {".seq pool\n  beq r0, r0, @0\n  halt\n", csr::glb::kWatchdogReset, 500, FaultKind::kBudget,
       isa::Seq::kPool, 0},
      {".seq sp\n  nop $S[0]>=1\n  halt\n.seq pool\n  beq r0, r0, @0\n  halt\n", 300, 0,
       FaultKind::kWatchdog, isa::Seq::kSp, 0},
  };
  for (const auto& k : cases) {
    SCOPED_TRACE(k.text);
    tb::CoreRunOptions opt;
    opt.limits = {k.watchdog, k.budget};
    opt.max_cycles = 100'000;
    tb::CoreHarness<Vtern_core_tiny> h(1 << 20, opt);
    const tb::CoreRunResult r = h.run(isa::assemble(k.text, "fault"), 0x10000);
    const size_t s = size_t(k.seq);
    EXPECT_FALSE(r.timed_out);
    EXPECT_EQ(csr::glb::kIrqError.get(r.irq_status), 1u << s) << "only the faulting sequencer's bit";
    EXPECT_EQ(r.err_code[s], uint32_t(k.kind));
    EXPECT_EQ(r.err_pc[s], k.pc);
  }
}

// A wait that never ends: the golden model and the whole core report a deadlock at it (the
// core's interrupt fires), with the watchdog at its reset value.
TEST(CoreTop, DeadlockFaultsAWaitThatNeverEnds) {
  const isa::Program p = isa::assemble(".seq dve\n  nop\n  nop $S[3]>=1\n  halt\n", "deadlock");
  tb::CoreHarness<Vtern_core_tiny> w(1 << 20, {});
  const tb::CoreRunResult r = w.run(p, 0x10000);
  EXPECT_FALSE(r.timed_out);
  EXPECT_LT(r.cycles, 2000u);
  EXPECT_EQ(r.err_code[size_t(isa::Seq::kDve)], uint32_t(core::FaultKind::kDeadlock));
  EXPECT_EQ(r.err_pc[size_t(isa::Seq::kDve)], 1u);
  core::CoreModel golden(config("tiny"), {});
  try {
    golden.run(p);
    ADD_FAILURE() << "the golden model should report a deadlock";
  } catch (const core::CoreFault& f) {
    EXPECT_EQ(f.kind(), core::FaultKind::kDeadlock);
    EXPECT_EQ(f.pc(), 1u);
  }
}

// GLB.BUDGET through the CSR bus: a spin loop stops with fault 8 where the golden model's does.
TEST(CoreTop, BudgetStopsASpinLoop) {
  const isa::Program p = isa::assemble(".seq pool\nspin:\n  add r1, r1, 1\n  beq r0, 0, spin\n  halt\n", "spin");
  tb::CoreRunOptions opt;
  opt.limits.budget = 777;
  tb::CoreHarness<Vtern_core_tiny> h(1 << 20, opt);
  const tb::CoreRunResult r = h.run(p, 0x10000);
  core::CoreOptions gopt;
  gopt.instruction_budget = 777;
  try {
    core::CoreModel(config("tiny"), gopt).run(p);
    ADD_FAILURE() << "the golden model should stop at the budget";
  } catch (const core::CoreFault& f) {
    EXPECT_EQ(f.kind(), core::FaultKind::kBudget);
    EXPECT_EQ(r.err_code[size_t(isa::Seq::kPool)], uint32_t(f.kind()));
    EXPECT_EQ(r.err_pc[size_t(isa::Seq::kPool)], f.pc());
  }
}

// The host's halt request (a sequencer's CTRL.halt) stops a sequencer that would run forever at
// an instruction boundary; the others go on, STATUS shows it halted and its interrupt fires.
TEST(CoreTop, HostHaltStopsASequencer) {
  const isa::Program p = isa::assemble(
      ".seq pool\nspin:\n  add r1, r1, 1\n  beq r0, 0, spin\n  halt\n"
      ".seq sp\n  add r2, r0, 7\n  st r2, [r0+64]\n  halt\n", "spin");
  tb::CoreHarness<Vtern_core_tiny> h(1 << 20, {});
  const uint32_t pool = uint32_t(isa::Seq::kPool);
  h.csr_write(csr::glb_addr(csr::glb::kIrqEnable), csr::glb::kIrqHalted.put(1u << pool));
  const tb::CoreImage img = tb::core_image_layout(p, 0x10000);
  for (int s = 0; s < isa::kNumSeqs; ++s) {
    uint32_t at = img.prog_base[size_t(s)];
    for (const isa::Instruction& in : p.streams[size_t(s)]) {
      const isa::InstrBits bits = isa::encode(in);
      h.hbm().write(at, bits.words.data(), isa::kInstrBytes);
      at += isa::kInstrBytes;
    }
    h.csr_write(csr::seq_addr(uint32_t(s), csr::seq::kProgBase), img.prog_base[size_t(s)]);
    h.csr_write(csr::seq_addr(uint32_t(s), csr::seq::kProgLen), uint32_t(p.streams[size_t(s)].size()));
  }
  h.csr_write(csr::glb_addr(csr::glb::kHbmSize), 1 << 20);
  h.csr_write(csr::glb_addr(csr::glb::kCtrl), csr::glb::kCtrlStart.put(0x1F));
  for (int i = 0; i < 2000; ++i) h.tick();
  auto status = [&] { return h.csr_read(csr::seq_addr(pool, csr::seq::kStatus)); };
  EXPECT_TRUE(csr::seq::kStatusBusy.get(status())) << "the loop runs until halted";
  EXPECT_TRUE(csr::seq::kStatusHalted.get(h.csr_read(csr::seq_addr(uint32_t(isa::Seq::kSp), csr::seq::kStatus))));
  uint32_t word = 0;
  h.hbm().read(64, &word, 4);
  EXPECT_EQ(word, 7u) << "SP ran to its end beside the spinning POOL";
  h.csr_write(csr::seq_addr(pool, csr::seq::kCtrl), csr::seq::kCtrlHalt.put(1));
  for (int i = 0; i < 50 && !h.top().irq_o; ++i) h.tick();
  EXPECT_TRUE(h.top().irq_o);
  const uint32_t st = status();
  EXPECT_TRUE(csr::seq::kStatusHalted.get(st));
  EXPECT_FALSE(csr::seq::kStatusBusy.get(st));
  EXPECT_EQ(csr::seq::kStatusErrCode.get(st), 0u);
  const uint32_t pc = h.csr_read(csr::seq_addr(pool, csr::seq::kPc));
  EXPECT_LT(pc, 2u) << "halted inside the loop, at an instruction boundary";
  EXPECT_GT(h.csr_read(csr::seq_addr(pool, csr::seq::kRetired)), 100u);
}

// ECC (docs/ecc.md). A kernel loads 8 x 16 fp32 into SBUF by DMA, the Scalar Engine copies them
// into SBUF or PSUM, and a DMA stores that copy to HBM; an injection armed before the run
// corrupts one byte's codeword at its first write (the load's, or the copy's), and a scrub
// after the run counts what is left. The RTL and the golden model must agree on the HBM result,
// the scrub's counts and first address, and the injection having fired; a single flip must leave
// the result as a clean run's, a double flip must be reported uncorrectable (and changes the
// result when it flips a data bit).
isa::Program ecc_program(isa::Mem copy_to) {
  const std::string mem = copy_to == isa::Mem::kPsum ? "psum" : "sbuf";
  const uint32_t at = copy_to == isa::Mem::kPsum ? 0 : 256;
  return isa::assemble(fmt::format(
      ".seq sp\n  dma q0, d0 $S[0]++@complete\n  dma q1, d1 $S[1]>=1 $S[2]++@complete\n"
      "  nop $S[2]>=1\n  halt\n"
      ".seq act\n  activate {0}.fp32[0:8, {1}][[1,16]], sbuf.fp32[0:8, 0][[1,16]], func=copy, "
      "scale=1.0, bias=0.0 $S[0]>=1 $S[1]++@complete\n  halt\n"
      ".desc 0 src=hbm.fp32[256][[64,8],[4,16]] dst=sbuf.fp32[0, 0][[1,8],[0,1],[0,1],[4,16]]\n"
      ".desc 1 src={0}.fp32[0, {1}][[1,8],[0,1],[0,1],[4,16]] dst=hbm.fp32[4096][[64,8],[4,16]]\n",
      mem, at), "ecc");
}

TEST(CoreTop, EccCorrectsSingleFlipsAndReportsDoubleOnes) {
  const CoreConfig cfg = config("tiny");
  std::vector<uint8_t> hbm(8192, 0);
  for (uint32_t i = 0; i < 128; ++i) {
    const float v = 1.0f + 0.25f * float(i);
    std::memcpy(&hbm[256 + 4 * i], &v, 4);
  }
  const std::vector<tb::HbmRegion> regions = {{"out", 4096, 512, 4}};
  struct Case {
    isa::Mem mem;  // where the injection lands (SBUF: the load; PSUM: the copy)
    uint32_t partition, offset;
    uint16_t flip;
    bool single;
    bool changes;  // the result differs from a clean run's (a data bit is left flipped)
  };
  const Case cases[] = {
      {isa::Mem::kSbuf, 3, 9, 1u << 2, true, false},     // a data bit
      {isa::Mem::kSbuf, 7, 63, 1u << 12, true, false},   // the overall parity bit
      {isa::Mem::kSbuf, 0, 0, 1u << 0, true, false},     // a check bit
      {isa::Mem::kSbuf, 5, 22, 0x14, false, true},       // two data bits
      {isa::Mem::kSbuf, 4, 33, 0x1004, false, true},     // a data bit and the parity bit
      {isa::Mem::kSbuf, 2, 40, 0x1001, false, false},    // a check bit and the parity bit
      {isa::Mem::kPsum, 6, 13, 1u << 9, true, false},
      {isa::Mem::kPsum, 1, 60, 0x220, false, true},
  };
  for (const Case& k : cases) {
    const isa::Program p = ecc_program(k.mem);
    SCOPED_TRACE(fmt::format("{} partition {} byte {} flip 0x{:x}",
                             k.mem == isa::Mem::kPsum ? "PSUM" : "SBUF", k.partition, k.offset, k.flip));
    const tb::EccInjection inj{k.mem, k.partition, k.offset, k.flip};
    tb::EccReport rtl;
    const tb::CoreCompare c = tb::compare_core_ecc<Vtern_core_tiny>(cfg, p, hbm, regions, inj, &rtl);
    EXPECT_TRUE(c.errors.empty()) << joined(c.errors);
    EXPECT_FALSE(c.golden_fault);
    // Against a clean run: the same result after a single flip, another after a double one.
    const tb::GoldenRun clean = tb::run_golden(cfg, p, hbm);
    const tb::GoldenRun hit = tb::run_golden(cfg, p, hbm, false, {}, &inj);
    std::vector<uint8_t> want(512), got(512);
    clean.model->hbm().read(4096, want.data(), 512);
    hit.model->hbm().read(4096, got.data(), 512);
    EXPECT_EQ(got != want, k.changes) << "the injected run's result against the clean run's";
    const core::EccScrub& found = k.mem == isa::Mem::kPsum ? rtl.psum : rtl.sbuf;
    const core::EccScrub& other = k.mem == isa::Mem::kPsum ? rtl.sbuf : rtl.psum;
    EXPECT_EQ(found.corrected, k.single ? 1u : 0u);
    EXPECT_EQ(found.uncorrectable, k.single ? 0u : 1u);
    if (!k.single) {
      ASSERT_TRUE(found.first_uncorrectable);
      EXPECT_EQ(*found.first_uncorrectable, std::make_pair(k.partition, k.offset & ~3u));
    }
    EXPECT_EQ(other.corrected + other.uncorrectable, 0u);
    EXPECT_FALSE(rtl.sbuf_armed || rtl.psum_armed) << "the injection fired";
  }
}

// ECC on the Tensor Engine's accumulate read (docs/ecc.md, "Reads and writes"). The first
// matmul writes a 4 x 16 fp32 product into PSUM, where an injection corrupts one byte's codeword;
// the second matmul accumulates onto it, reading the old value through the decoder, and stores
// fresh codewords. A single flip must be corrected on that read (the result is a clean run's); a
// double one is read as stored, so the result changes, and the rewrite leaves nothing for the
// scrub: the limit docs/ecc.md states ("What this leaves the host to do").
TEST(CoreTop, EccCorrectsTheTensorEngineAccumulateRead) {
  const CoreConfig cfg = config("tiny");
  std::vector<uint8_t> hbm(8192, 0);
  auto put_bf16 = [&](uint32_t at, float v) {
    uint32_t bits = 0;
    std::memcpy(&bits, &v, 4);
    const uint16_t half = uint16_t(bits >> 16);  // small integers: bf16 holds them exactly
    std::memcpy(&hbm[at], &half, 2);
  };
  for (uint32_t i = 0; i < 8 * 4; ++i) put_bf16(256 + 2 * i, float(int(i % 5) - 2));
  for (uint32_t i = 0; i < 8 * 16; ++i) put_bf16(512 + 2 * i, float(int(i % 7) - 3));
  const isa::Program p = isa::assemble(
      ".seq sp\n  dma q0, d0 $S[0]++@complete\n  dma q1, d1 $S[0]++@complete\n"
      "  dma q2, d2 $S[1]>=1 $S[2]++@complete\n  nop $S[2]>=1\n  halt\n"
      ".seq pe\n  ldstat sbuf.bf16[0:8, 0][[1,4]] $S[0]>=2\n"
      "  matmul psum.fp32[0:4, 0][[1,16]], sbuf.bf16[0:8, 64][[1,16]]\n"
      "  matmul psum.fp32[0:4, 0][[1,16]], sbuf.bf16[0:8, 64][[1,16]], acc $S[1]++@complete\n"
      "  halt\n"
      ".desc 0 src=hbm.bf16[256][[8,8],[2,4]] dst=sbuf.bf16[0, 0][[1,8],[0,1],[0,1],[2,4]]\n"
      ".desc 1 src=hbm.bf16[512][[32,8],[2,16]] dst=sbuf.bf16[0, 64][[1,8],[0,1],[0,1],[2,16]]\n"
      ".desc 2 src=psum.fp32[0, 0][[1,4],[0,1],[0,1],[4,16]] dst=hbm.fp32[4096][[64,4],[4,16]]\n",
      "ecc_acc");
  const std::vector<tb::HbmRegion> regions = {{"out", 4096, 256, 4}};
  const tb::GoldenRun clean = tb::run_golden(cfg, p, hbm);
  std::vector<uint8_t> want(256);
  clean.model->hbm().read(4096, want.data(), want.size());
  const struct {
    uint16_t flip;
    bool single;
  } cases[] = {{1u << 4, true}, {0x14, false}};  // a data bit; two data bits
  for (const auto& k : cases) {
    SCOPED_TRACE(fmt::format("PSUM partition 2 byte 10 flip 0x{:x}", k.flip));
    const tb::EccInjection inj{isa::Mem::kPsum, 2, 10, k.flip};
    tb::EccReport rtl;
    const tb::CoreCompare c = tb::compare_core_ecc<Vtern_core_tiny>(cfg, p, hbm, regions, inj, &rtl);
    EXPECT_TRUE(c.errors.empty()) << joined(c.errors);
    EXPECT_FALSE(c.golden_fault);
    const tb::GoldenRun hit = tb::run_golden(cfg, p, hbm, false, {}, &inj);
    std::vector<uint8_t> got(256);
    hit.model->hbm().read(4096, got.data(), got.size());
    EXPECT_EQ(got == want, k.single) << "corrected on the accumulate read exactly when single";
    EXPECT_EQ(rtl.psum.corrected + rtl.psum.uncorrectable, 0u) << "the accumulate rewrote the byte";
    EXPECT_FALSE(rtl.psum_armed) << "the injection fired";
  }
}

}  // namespace
}  // namespace tern
