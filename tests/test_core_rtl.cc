// The NeuronCore RTL's sequencers and semaphore bank (rtl/core/tern_seq_cluster.sv) against the
// golden core model: random control programs on all five sequencers, synchronised through
// semaphores, must leave the same memory, semaphores and notifications; each fault must stop
// the same sequencer at the same instruction with the same code.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <random>

#include "common/config.h"
#include "core/core_model.h"
#include "isa/asm.h"
#include "control_random.h"
#include "fault_check.h"
#include "seq_harness.h"
#include "test_util.h"

namespace tern {
namespace {

constexpr uint64_t kHbmBytes = tb::kControlHbmBytes;
constexpr uint32_t kProgramBase = tb::kControlProgramBase;

CoreConfig tiny() { return load_config(std::string(TERN_CONFIG_DIR) + "/tiny.yaml"); }

struct Compared {
  core::RunStats golden;
  tb::SeqRunResult rtl;
  std::vector<uint8_t> golden_data, rtl_data;
};

Compared run_both(const isa::Program& p, tb::SeqRunOptions opt = {}) {
  Compared c;
  core::CoreOptions gopt;
  gopt.hbm_bytes = kHbmBytes;
  core::CoreModel golden(tiny(), gopt);
  c.golden = golden.run(p);
  tb::RtlSeqCluster rtl(kHbmBytes, opt);
  c.rtl = rtl.run(p, kProgramBase);
  c.golden_data.resize(kProgramBase);
  golden.hbm().read(0, c.golden_data.data(), kProgramBase);
  c.rtl_data.assign(rtl.hbm().begin(), rtl.hbm().begin() + kProgramBase);
  for (uint32_t i = 0; i < isa::kNumSems; ++i)
    EXPECT_EQ(c.rtl.sems[i], golden.semaphore(i)) << "semaphore " << i;
  return c;
}

TEST(CoreRtl, RandomControlProgramsMatchGolden) {
  auto rng = test::make_rng();
  const int programs = 60;
  for (int n = 0; n < programs; ++n) {
    const std::string text = tb::random_control_program(rng);
    const isa::Program p = isa::assemble(text, fmt::format("random{}", n));
    tb::SeqRunOptions opt;
    opt.mem_latency = 1 + uint32_t(rng() % 6);
    const Compared c = run_both(p, opt);
    ASSERT_FALSE(c.rtl.timed_out) << text;
    for (int s = 0; s < isa::kNumSeqs; ++s) {
      EXPECT_TRUE(c.rtl.halted[size_t(s)]) << isa::seq_name(isa::Seq(s)) << " error "
                                           << c.rtl.err_code[size_t(s)] << " at " << c.rtl.err_pc[size_t(s)];
      EXPECT_EQ(c.rtl.retired[size_t(s)], c.golden.seq[size_t(s)].instructions);
      // Every instruction waits at least the memory latency for its fetch; waiting on a
      // semaphore and on a fetch are disjoint parts of the busy time.
      EXPECT_GE(c.rtl.fetch_wait_cycles[size_t(s)], c.rtl.retired[size_t(s)] * opt.mem_latency);
      EXPECT_LE(c.rtl.fetch_wait_cycles[size_t(s)] + c.rtl.sem_wait_cycles[size_t(s)],
                c.rtl.busy_cycles[size_t(s)]);
    }
    const auto diff = std::mismatch(c.rtl_data.begin(), c.rtl_data.end(), c.golden_data.begin());
    ASSERT_TRUE(diff.first == c.rtl_data.end())
        << "program " << n << ": HBM byte 0x" << std::hex << (diff.first - c.rtl_data.begin())
        << " differs\n" << text;
    std::vector<uint32_t> codes;
    for (const auto& [seq, code] : c.rtl.notifications) codes.push_back(code);
    std::vector<uint32_t> want = c.golden.notifications;
    std::sort(codes.begin(), codes.end());
    std::sort(want.begin(), want.end());
    EXPECT_EQ(codes, want) << "program " << n;
  }
}

// Random programs over the whole control ISA, at its extremes and through every fault a
// control program can reach (memory, pc, budget, deadlock), against the golden model: the same
// fault on the same sequencers at the same pcs, or the same memory, registers and semaphores.
// TERN_RANDOM_PROGRAMS sets the count (10,000 by default, in two halves that ctest runs side by
// side; the nightly set is 10^6); the functional coverage table is printed and each bin checked.
void random_programs_with_faults(uint64_t programs) {
  auto rng = test::make_rng();
  tb::ControlProgramCheck check(tiny());
  for (uint64_t n = 0; n < programs; ++n) {
    const std::vector<std::string> errors = check.run_one(rng, n);
    ASSERT_TRUE(errors.empty()) << errors.front();
  }
  fmt::print("{}", check.coverage().table());
  if (programs >= 1000) {
    EXPECT_TRUE(check.coverage().missing().empty()) << "bin never hit: " << check.coverage().missing().front();
  }
}

TEST(CoreRtl, RandomProgramsWithFaultsMatchGoldenFirstHalf) {
  random_programs_with_faults(test::env_count("TERN_RANDOM_PROGRAMS", 10'000) / 2);
}
TEST(CoreRtl, RandomProgramsWithFaultsMatchGoldenSecondHalf) {
  random_programs_with_faults(test::env_count("TERN_RANDOM_PROGRAMS", 10'000) / 2);
}

// Engine instructions and DMA triggers carry their semaphore updates the same way: the
// engine's on completion, the DMA's when its transfer ends.
TEST(CoreRtl, EngineAndDmaCompletionsSignal) {
  const isa::Program p = isa::assemble(R"(
.seq pe
  nop $S[4]>=1
  halt
.seq act
  activate sbuf.fp32[0:8, 64][[1,4]], sbuf.fp32[0:8, 0][[1,4]], func=copy, scale=0x3f800000, bias=0x00000000 $S[5]>=1 $S[1]++@complete
  halt
.seq dve
  memset sbuf.fp32[0:8, 128][[1,4]], -, -, s0=0x3f800000 $S[1]>=1 $S[2]+=3@complete
  halt
.seq pool
  iota sbuf.int32[0:8, 256][[1,4]], -, -, s1=0x00000001 $S[2]>=3 $S[3]=7@complete
  halt
.seq sp
  dma q0, d0 $S[5]++@complete
  nop $S[3]>=7 $S[4]++@complete
  halt
.desc 0 src=hbm.fp32[0][[16,8],[0,1],[0,1],[4,4]] dst=sbuf.fp32[0, 0][[1,8],[0,1],[0,1],[4,4]]
)", "chain");
  const Compared c = run_both(p);
  for (int s = 0; s < isa::kNumSeqs; ++s) EXPECT_TRUE(c.rtl.halted[size_t(s)]) << s;
  EXPECT_EQ(c.rtl.sems[5], 1u);
  EXPECT_EQ(c.rtl.sems[3], 7u);
  EXPECT_EQ(c.rtl.sems[2], 3u);
}

// Nops that only wait pass an engine instruction that went ahead, so the next engine
// instruction is handed over while the first still runs; they still retire after it, in
// program order. A nop waiting on the pending instruction's own semaphore does not pass, and
// past 15 passed nops the next one waits (docs/core-rtl.md).
TEST(CoreRtl, WaitingNopsPassAPendingEngineInstruction) {
  const std::string act =
      "  activate sbuf.fp32[0:8, 64][[1,4]], sbuf.fp32[0:8, 0][[1,4]], func=copy, "
      "scale=0x3f800000, bias=0x00000000";
  auto program = [&](const std::string& between) {
    return isa::assemble(fmt::format(".seq act\n{} $S[1]++@complete\n{}{}\n  halt\n", act,
                                     between, act),
                         "pass");
  };
  struct Case {
    const char* name;
    std::string between;  // the instructions between the two activates
    bool passes;          // the second activate is handed over before the first completes
  };
  std::string many;
  for (int i = 0; i < 20; ++i) many += "  nop $S[2]>=0\n";
  const std::vector<Case> cases = {
      {"three met waits", "  nop $S[2]>=0\n  nop $S[3]>=0\n  nop\n", true},
      {"a wait on the pending instruction's semaphore", "  nop $S[2]>=0\n  nop $S[1]>=1\n", false},
      {"a nop that updates a semaphore", "  nop $S[2]++@complete\n", false},
      {"twenty met waits (15 pass)", many, false},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.name);
    const isa::Program p = program(k.between);
    tb::SeqRunOptions opt;
    opt.engine_cycles = 60;
    opt.engine_ahead = true;
    const Compared c = run_both(p, opt);
    const size_t act_seq = size_t(isa::Seq::kAct);
    ASSERT_TRUE(c.rtl.halted[act_seq]);
    std::vector<uint32_t> in_order(p.streams[act_seq].size());
    std::iota(in_order.begin(), in_order.end(), 0u);
    EXPECT_EQ(c.rtl.retired_pcs[act_seq], in_order);
    ASSERT_EQ(c.rtl.engine_accepts[act_seq].size(), 2u);
    ASSERT_EQ(c.rtl.engine_dones[act_seq].size(), 2u);
    EXPECT_EQ(c.rtl.engine_accepts[act_seq][1] < c.rtl.engine_dones[act_seq][0], k.passes)
        << "second accepted at " << c.rtl.engine_accepts[act_seq][1] << ", first done at "
        << c.rtl.engine_dones[act_seq][0];
  }
}

// A fault of the instruction after one that went ahead comes after that one retires, as in the
// golden model where it completes first: its semaphore update applies and it counts as retired.
// The decode fault used to stop the sequencer at once, and the pending update was lost.
TEST(CoreRtl, AFaultBehindAPendingInstructionWaitsForIt) {
  const std::string text =
      ".seq act\n  activate sbuf.fp32[0:8, 64][[1,4]], sbuf.fp32[0:8, 0][[1,4]], func=copy, "
      "scale=0x3f800000, bias=0x00000000 $S[1]++@complete\n"
      "  matmul psum.fp32[0:8, 0][[1,8]], sbuf.bf16[0:8, 0][[1,8]]\n  halt\n";
  const isa::Program p = isa::assemble(text, "fault behind");
  core::CoreOptions gopt;
  gopt.hbm_bytes = kHbmBytes;
  core::CoreModel golden(tiny(), gopt);
  EXPECT_THROW(golden.run(p), core::CoreFault);
  tb::SeqRunOptions opt;
  opt.engine_cycles = 60;
  opt.engine_ahead = true;
  tb::RtlSeqCluster rtl(kHbmBytes, opt);
  const tb::SeqRunResult r = rtl.run(p, kProgramBase);
  const size_t act = size_t(isa::Seq::kAct);
  EXPECT_EQ(r.err_code[act], uint32_t(core::FaultKind::kIllegalInstruction));
  EXPECT_EQ(r.err_pc[act], 1u);
  EXPECT_EQ(r.retired[act], 1u);
  EXPECT_EQ(r.sems[1], golden.semaphore(1));
  EXPECT_EQ(r.sems[1], 1u);
}

// Updates to one semaphore from all five sequencers in the same cycle all apply (the five
// streams are alike, so their instructions retire together): the set of the lowest port first,
// then every add (docs/core-rtl.md). A lost update or adds applied before the set would differ.
TEST(CoreRtl, SameCycleSemaphoreUpdatesAllApply) {
  const std::string adds[] = {"$S[0]+=1@complete", "$S[0]+=2@complete", "$S[0]+=4@complete",
                              "$S[0]+=8@complete", "$S[0]+=16@complete"};
  std::string all_add, set_first;
  for (int s = 0; s < isa::kNumSeqs; ++s) {
    const std::string name = isa::seq_name(isa::Seq(s));
    all_add += fmt::format(".seq {}\n  nop\n  nop {}\n  halt\n", name, adds[s]);
    set_first += fmt::format(".seq {}\n  nop\n  nop {}\n  halt\n", name,
                             s == 0 ? std::string("$S[0]=100@complete") : adds[s]);
  }
  tb::RtlSeqCluster rtl(kHbmBytes);
  const tb::SeqRunResult r = rtl.run(isa::assemble(all_add, "adds"), kProgramBase);
  EXPECT_EQ(r.sems[0], 31u);
  tb::RtlSeqCluster rtl2(kHbmBytes);
  const tb::SeqRunResult r2 = rtl2.run(isa::assemble(set_first, "set"), kProgramBase);
  EXPECT_EQ(r2.sems[0], 100u + 2 + 4 + 8 + 16) << "the set, then the adds of the same cycle";
  for (int s = 0; s < isa::kNumSeqs; ++s) EXPECT_EQ(r2.busy_cycles[size_t(s)], r2.busy_cycles[0]);
}

// Each fault stops the sequencer at the same instruction, with the golden model's code.
TEST(CoreRtl, FaultsStopTheSequencerWithTheGoldenCodeAndPc) {
  struct Case {
    const char* name;
    const char* text;
  };
  const Case cases[] = {
      {"engine instruction on the wrong sequencer",
       ".seq sp\n  nop\n  matmul psum.fp32[0:8, 0][[1,8]], sbuf.bf16[0:8, 0][[1,8]]\n  halt\n"},
      {"undefined activation function",
       ".seq act\n  activate sbuf.fp32[0:8, 64][[1,4]], sbuf.fp32[0:8, 0][[1,4]], func=25, "
       "scale=0x3f800000, bias=0x00000000\n  halt\n"},
      {"missing halt", ".seq dve\n  add r1, r0, 1\n  add r2, r1, 1\n"},
      {"taken branch past the end", ".seq pool\n  nop\n  beq r0, r0, @3\n  halt\n"},
      {"loop back past the end", ".seq pe\n  add r1, r0, 2\n  loop r1, @7\n  halt\n"},
      {"misaligned ld", ".seq act\n  nop\n  ld r1, [r0+6]\n  halt\n"},
      {"ld outside HBM", ".seq sp\n  add r2, r0, 0x200000\n  ld r1, [r2+0]\n  halt\n"},
      {"st outside HBM", ".seq dve\n  add r2, r0, -4\n  st r1, [r2+0]\n  halt\n"},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.name);
    const isa::Program p = isa::assemble(k.text, k.name);
    core::CoreOptions gopt;
    gopt.hbm_bytes = kHbmBytes;
    core::CoreModel golden(tiny(), gopt);
    try {
      golden.run(p);
      ADD_FAILURE() << "the golden model ran without a fault";
      continue;
    } catch (const core::CoreFault& f) {
      tb::RtlSeqCluster rtl(kHbmBytes);
      const auto r = rtl.run(p, kProgramBase);
      const auto seq = isa::seq_from_name(f.agent());
      ASSERT_TRUE(seq.has_value()) << f.what();
      EXPECT_EQ(r.err_code[size_t(*seq)], uint32_t(f.kind())) << f.what();
      EXPECT_EQ(r.err_pc[size_t(*seq)], f.pc()) << f.what();
      EXPECT_FALSE(r.halted[size_t(*seq)]);
    }
  }
}

// The golden model's fault for `p` (every sequencer it stopped); none: kind 0.
tb::GoldenFault golden_fault(const isa::Program& p, uint32_t budget = csr::glb::kBudgetReset) {
  core::CoreOptions opt;
  opt.hbm_bytes = kHbmBytes;
  opt.instruction_budget = budget;
  try {
    core::CoreModel(tiny(), opt).run(p);
  } catch (const core::CoreFault& f) {
    return tb::GoldenFault(f);
  }
  return {};
}

// A program that cannot progress: the golden model reports a deadlock of every waiting
// sequencer; the RTL's deadlock detector faults the same ones at the same instructions, with the
// watchdog off, short or at its reset value, soon after the core went quiet.
TEST(CoreRtl, DeadlockFaultsEveryWaitingSequencerAsGolden) {
  const isa::Program p = isa::assemble(
      ".seq act\n  nop $S[2]>=1 $S[1]++@complete\n  halt\n"
      ".seq dve\n  nop\n  nop $S[1]>=1 $S[2]++@complete\n  halt\n", "deadlock");
  const tb::GoldenFault want = golden_fault(p);
  ASSERT_EQ(want.kind, uint32_t(core::FaultKind::kDeadlock));
  ASSERT_EQ(want.sites.size(), 2u);
  for (uint32_t watchdog : {0u, 500u, csr::glb::kWatchdogReset}) {
    tb::SeqRunOptions opt;
    opt.limits.watchdog = watchdog;
    tb::RtlSeqCluster rtl(kHbmBytes, opt);
    const auto r = rtl.run(p, kProgramBase);
    EXPECT_FALSE(r.timed_out);
    EXPECT_LT(r.cycles, 100u) << "watchdog " << watchdog;
    for (const std::string& e : tb::seq_fault_mismatches(want, r.err_code, r.err_pc))
      ADD_FAILURE() << "watchdog " << watchdog << ": " << e;
    EXPECT_TRUE(r.halted[size_t(isa::Seq::kPe)]);  // empty streams halt at once
  }
  // A sequencer that waits while another still works is no deadlock: the wait ends in time.
  const isa::Program slow = isa::assemble(
      ".seq act\n  nop $S[2]>=1\n  halt\n"
      ".seq dve\n  add r1, r0, 40\nL:\n  loop r1, L\n  nop $S[2]++@complete\n  halt\n", "slow");
  tb::RtlSeqCluster rtl(kHbmBytes);
  const auto ok = rtl.run(slow, kProgramBase);
  EXPECT_TRUE(ok.halted[size_t(isa::Seq::kAct)]) << ok.err_code[size_t(isa::Seq::kAct)];
  EXPECT_TRUE(ok.halted[size_t(isa::Seq::kDve)]) << ok.err_code[size_t(isa::Seq::kDve)];
}

// The watchdog (RTL only): an instruction that takes more than GLB.WATCHDOG cycles faults where
// it is: a wait that would end but later, and a fetch whose response never comes.
TEST(CoreRtl, WatchdogStopsAnInstructionThatTakesTooLong) {
  const isa::Program slow = isa::assemble(
      ".seq act\n  nop\n  nop $S[2]>=1\n  halt\n"
      ".seq dve\n  add r1, r0, 300\nL:\n  loop r1, L\n  nop $S[2]++@complete\n  halt\n", "slow");
  tb::SeqRunOptions opt;
  opt.limits.watchdog = 500;
  tb::RtlSeqCluster guarded(kHbmBytes, opt);
  const auto r = guarded.run(slow, kProgramBase);
  EXPECT_EQ(r.err_code[size_t(isa::Seq::kAct)], uint32_t(core::FaultKind::kWatchdog));
  EXPECT_EQ(r.err_pc[size_t(isa::Seq::kAct)], 1u);
  EXPECT_TRUE(r.halted[size_t(isa::Seq::kDve)]);
  EXPECT_EQ(golden_fault(slow).kind, 0u);  // the golden model has no cycle-exact time
  tb::RtlSeqCluster patient(kHbmBytes);      // at the reset value the same program completes
  EXPECT_TRUE(patient.run(slow, kProgramBase).halted[size_t(isa::Seq::kAct)]);

  const isa::Program one = isa::assemble(".seq sp\n  add r1, r0, 1\n  add r2, r0, 2\n  halt\n", "lost");
  opt.lose_fetch = 1;  // the second fetch: sp's instruction 1
  tb::RtlSeqCluster lossy(kHbmBytes, opt);
  const auto l = lossy.run(one, kProgramBase);
  EXPECT_FALSE(l.timed_out);
  EXPECT_EQ(l.err_code[size_t(isa::Seq::kSp)], uint32_t(core::FaultKind::kWatchdog));
  EXPECT_EQ(l.err_pc[size_t(isa::Seq::kSp)], 1u);
  EXPECT_LT(l.cycles, 600u);
}

// The instruction budget: a runaway loop stops at the same instruction on both, per sequencer
// (the other sequencer's work is not counted against it), and 0 is no limit.
TEST(CoreRtl, BudgetStopsARunawayLoopWhereGoldenDoes) {
  const isa::Program spin = isa::assemble(
      ".seq pool\n  nop\nspin:\n  add r1, r1, 1\n  beq r0, 0, spin\n  halt\n"
      ".seq sp\n  add r2, r0, 600\nL:\n  loop r2, L\n  halt\n", "spin");
  for (uint32_t budget : {1000u, 1001u}) {
    const tb::GoldenFault want = golden_fault(spin, budget);
    ASSERT_EQ(want.kind, uint32_t(core::FaultKind::kBudget));
    tb::SeqRunOptions opt;
    opt.limits.budget = budget;
    tb::RtlSeqCluster rtl(kHbmBytes, opt);
    const auto r = rtl.run(spin, kProgramBase);
    for (const std::string& e : tb::seq_fault_mismatches(want, r.err_code, r.err_pc))
      ADD_FAILURE() << "budget " << budget << ": " << e;
    EXPECT_EQ(r.retired[size_t(isa::Seq::kPool)], budget);
    EXPECT_TRUE(r.halted[size_t(isa::Seq::kSp)]);
  }
  const isa::Program finite = isa::assemble(".seq sp\n  add r2, r0, 3000\nL:\n  loop r2, L\n  halt\n", "finite");
  tb::SeqRunOptions off;
  off.limits.budget = 0;
  tb::RtlSeqCluster rtl(kHbmBytes, off);
  EXPECT_TRUE(rtl.run(finite, kProgramBase).halted[size_t(isa::Seq::kSp)]);
  EXPECT_EQ(golden_fault(finite, 0).kind, 0u);
}

}  // namespace
}  // namespace tern
