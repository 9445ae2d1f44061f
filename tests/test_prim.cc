// The shared primitives (rtl/prim) against plain C++ models under seeded random traffic, and
// their assertions shown firing on the protocol violations they state (verilated --assert).
#include <deque>
#include <memory>
#include <vector>

#include "Vtern_delay_line_d1.h"
#include "Vtern_delay_line_d2.h"
#include "Vtern_delay_line_d7.h"
#include "Vtern_fifo.h"
#include "Vtern_rr_arb.h"
#include "Vtern_secded_probe.h"
#include "Vtern_spill.h"
#include "clocked_unit.h"
#include "core/ecc.h"
#include "test_util.h"

namespace tern {
namespace {

template <class Model>
using Prim = tb::ClockedUnit<Model>;

TEST(PrimFifo, RandomPushPopFlushMatchesAQueue) {
  auto rng = test::make_rng();
  Prim<Vtern_fifo> f;  // Width 8, Depth 4
  std::deque<uint8_t> model;
  for (int cycle = 0; cycle < 20000; ++cycle) {
    ASSERT_EQ(f->count_o, model.size()) << "cycle " << cycle;
    ASSERT_EQ(f->full_o != 0, model.size() == 4);
    ASSERT_EQ(f->empty_o != 0, model.empty());
    if (!model.empty()) {
      ASSERT_EQ(f->data_o, model.front()) << "cycle " << cycle;
    }
    const bool flush = rng() % 64 == 0;
    const bool push = !f->full_o && rng() % 2;
    const bool pop = !f->empty_o && rng() % 2;
    const auto data = static_cast<uint8_t>(rng());
    f->flush_i = flush;
    f->push_i = push;
    f->pop_i = pop;
    f->data_i = data;
    f->eval();
    f.tick();
    if (pop) model.pop_front();
    if (push) model.push_back(data);
    if (flush) model.clear();
  }
  EXPECT_FALSE(f.assertion_failed());
}

// One model per test: Verilator reports an assertion to the thread's context, which is the
// last one built, so a second live model would see the first one's failure.
TEST(PrimFifo, PopWhenEmptyIsAsserted) {
  Prim<Vtern_fifo> f;
  f->pop_i = 1;
  f.tick();
  EXPECT_TRUE(f.assertion_failed()) << "pop from an empty FIFO";
}

TEST(PrimFifo, PushWhenFullIsAsserted) {
  Prim<Vtern_fifo> f;
  f->push_i = 1;
  for (int i = 0; i < 4; ++i) f.tick();
  EXPECT_FALSE(f.assertion_failed()) << "four pushes fill a Depth-4 FIFO legally";
  f.tick();
  EXPECT_TRUE(f.assertion_failed()) << "push into a full FIFO";
}

// A source that offers items in order and holds each until it is taken, and a sink with random
// back-pressure: everything arrives once, in order.
TEST(PrimSpill, RandomBackpressureKeepsOrderAndLosesNothing) {
  auto rng = test::make_rng();
  Prim<Vtern_spill> s;
  uint32_t next_in = 0, next_out = 0;
  bool offering = false;
  for (int cycle = 0; cycle < 20000; ++cycle) {
    if (!offering && rng() % 4 != 0) offering = true;
    s->valid_i = offering;
    s->data_i = next_in * 2654435761u;
    s->ready_i = rng() % 3 != 0;
    s->eval();
    const bool took_in = offering && s->ready_o;
    const bool took_out = s->valid_o && s->ready_i;
    if (took_out) {
      ASSERT_EQ(s->data_o, next_out * 2654435761u) << "cycle " << cycle;
      ++next_out;
    }
    s.tick();
    if (took_in) {
      ++next_in;
      offering = false;
    }
  }
  EXPECT_GT(next_out, 5000u);
  EXPECT_LE(next_in - next_out, 2u) << "at most two items inside";
  EXPECT_FALSE(s.assertion_failed());
}

// data_o is data_i of Delay cycles before, from the cycle primed_o rises (Delay cycles after
// reset) on; a reset in the middle starts the count again.
template <class Model>
void check_delay_line(uint32_t delay) {
  auto rng = test::make_rng();
  Prim<Model> d;
  std::deque<uint16_t> sent;
  for (int run = 0; run < 2; ++run) {
    sent.clear();
    for (uint32_t cycle = 0; cycle < 200; ++cycle) {
      const auto in = static_cast<uint16_t>(rng());
      d->data_i = in;
      d->eval();
      ASSERT_EQ(d->primed_o != 0, cycle >= delay) << "run " << run << " cycle " << cycle;
      if (cycle >= delay) {
        ASSERT_EQ(d->data_o, sent.front()) << "delay " << delay << " run " << run << " cycle " << cycle;
        sent.pop_front();
      }
      sent.push_back(in);
      d.tick();
    }
    d->rst_ni = 0;
    d->eval();
    d->rst_ni = 1;
    d->eval();
  }
  EXPECT_FALSE(d.assertion_failed());
}

TEST(PrimDelayLine, OutputIsTheInputOfDelayCyclesBefore) {
  check_delay_line<Vtern_delay_line_d1>(1);
  check_delay_line<Vtern_delay_line_d2>(2);
  check_delay_line<Vtern_delay_line_d7>(7);
}

TEST(PrimSpill, FullRateWhenTheOutputIsReady) {
  Prim<Vtern_spill> s;
  s->valid_i = 1;
  s->ready_i = 1;
  int out = 0;
  for (int cycle = 0; cycle < 1000; ++cycle) {
    s->data_i = static_cast<uint32_t>(cycle);
    s->eval();
    ASSERT_TRUE(s->ready_o);
    if (s->valid_o) {
      ASSERT_EQ(s->data_o, static_cast<uint32_t>(out)) << "one cycle late, in order";
      ++out;
    }
    s.tick();
  }
  EXPECT_EQ(out, 999);
}

TEST(PrimSpill, AnInputThatChangesWhileStalledIsAsserted) {
  Prim<Vtern_spill> s;
  s->ready_i = 0;
  s->valid_i = 1;
  s->data_i = 1;
  s.tick();  // into the output register
  s->data_i = 2;
  s.tick();  // into the skid entry: ready_o falls
  ASSERT_FALSE(s->ready_o);
  s->data_i = 3;
  s.tick();
  EXPECT_FALSE(s.assertion_failed()) << "a new item offered while ready_o is low, held so far";
  s->data_i = 4;
  s.tick();
  EXPECT_TRUE(s.assertion_failed()) << "the offered item changed before it was taken";
}

// Requesters hold their requests until granted; the port is ready at random. Every grant is to a
// requester, carries its payload, and no requester waits through more than N - 1 other grants.
TEST(PrimRrArb, GrantsAreOneHotCarryThePayloadAndAreFair) {
  auto rng = test::make_rng();
  constexpr int kN = 4;
  Prim<Vtern_rr_arb> a;  // N 4, W 8 (the test model's parameters)
  uint32_t pending = 0;
  int waited[kN] = {};
  int grants = 0;
  for (int cycle = 0; cycle < 20000; ++cycle) {
    for (int i = 0; i < kN; ++i) {
      if (!(pending >> i & 1) && rng() % 3 == 0) pending |= 1u << i;
    }
    a->valid_i = pending;
    a->req_i = 0x40302010u + 0x01010101u * (static_cast<uint32_t>(cycle) & 7);
    a->ready_i = rng() % 4 != 0;
    a->eval();
    const uint32_t gnt = a->gnt_o;
    ASSERT_EQ(gnt & (gnt - 1), 0u) << "one-hot, cycle " << cycle;
    ASSERT_EQ(gnt & ~pending, 0u);
    ASSERT_EQ(a->valid_o != 0, a->ready_i && pending != 0);
    ASSERT_EQ(a->conflict_o, pending & ~gnt);
    if (gnt) {
      const int w = __builtin_ctz(gnt);
      ASSERT_EQ(a->req_o, (a->req_i >> (8 * w)) & 0xFF);
      for (int i = 0; i < kN; ++i) {
        if (i != w && (pending >> i & 1)) {
          ASSERT_LT(++waited[i], kN) << "requester " << i << " starved";
        }
      }
      waited[w] = 0;
      pending &= ~gnt;
      ++grants;
    }
    a.tick();
  }
  EXPECT_GT(grants, 10000);
  EXPECT_FALSE(a.assertion_failed());
}

// tern_secded_pkg against the golden model's code (both written from docs/ecc.md): the same
// codeword for every data byte, the same decoding of every 13-bit word. Then the code's promise,
// checked on the golden side: every single flip corrected, every double flip detected.
TEST(PrimSecded, RtlAndGoldenAgreeOnEveryCodeword) {
  auto probe = std::make_unique<Vtern_secded_probe>();
  for (uint32_t d = 0; d < 256; ++d) {
    probe->data_i = uint8_t(d);
    probe->eval();
    ASSERT_EQ(probe->code_o, core::ecc::encode(uint8_t(d))) << "data 0x" << std::hex << d;
  }
  for (uint32_t c = 0; c < (1u << core::ecc::kCodeBits); ++c) {
    probe->code_i = uint16_t(c);
    probe->eval();
    const core::ecc::Decoded g = core::ecc::decode(uint16_t(c));
    const uint32_t want = uint32_t(g.data) << 2 | uint32_t(g.corrected) << 1 | uint32_t(g.uncorrectable);
    ASSERT_EQ(probe->dec_o, want) << "codeword 0x" << std::hex << c;
  }
  probe->final();
  for (uint32_t d = 0; d < 256; ++d) {
    const uint16_t code = core::ecc::encode(uint8_t(d));
    for (uint32_t i = 0; i < core::ecc::kCodeBits; ++i) {
      const core::ecc::Decoded one = core::ecc::decode(uint16_t(code ^ (1u << i)));
      ASSERT_TRUE(one.corrected && !one.uncorrectable && one.data == d) << d << " bit " << i;
      for (uint32_t j = i + 1; j < core::ecc::kCodeBits; ++j) {
        const core::ecc::Decoded two = core::ecc::decode(uint16_t(code ^ (1u << i) ^ (1u << j)));
        ASSERT_TRUE(two.uncorrectable && !two.corrected) << d << " bits " << i << ", " << j;
      }
    }
  }
}

}  // namespace
}  // namespace tern
