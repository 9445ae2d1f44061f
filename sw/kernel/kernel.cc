// The kernel builder. A kernel is recorded as a tree (ops, tile allocations, loops), then
// finish() lowers it in phases:
//   1. unroll each loop by its pools' rotation period, so every slot is static in the body;
//   2. lay out the pools in SBUF and PSUM;
//   3. lower ops to static instructions (one per engine op; DMA triggers on SP);
//   4. expand every loop iteration and find, for each dynamic instruction, the earlier
//      instructions of other agents it conflicts with (RAW, WAR, WAW on SBUF/PSUM bytes);
//      keep only the waits the agent does not already know transitively;
//   5. mark the waited-on instructions as signalling ($S[agent]++@complete) and turn each wait
//      into a threshold: a constant plus a register that counts the producer's signals per
//      loop iteration; drop a wait an earlier one of the same loop region implies;
//   6. emit each sequencer's stream, with loop counters and register updates.
// docs/programming-guide.md explains the result; docs/core-model.md the semantics it relies on.
#include "kernel/kernel.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <set>

#include "common/error.h"
#include "core/memory.h"
#include "isa/image.h"
#include "numerics/numerics.h"

namespace tern::kernel {

using isa::Opcode;
using isa::Seq;

Index Index::operator+(const Index& o) const {
  Index r = *this;
  r.c_ += o.c_;
  for (const auto& [l, k] : o.coef_) {
    r.coef_[l] += k;
    if (r.coef_[l] == 0) r.coef_.erase(l);
  }
  return r;
}

Index Index::operator*(int64_t k) const {
  Index r;
  if (k == 0) return r;
  r.c_ = c_ * k;
  for (const auto& [l, c] : coef_) r.coef_[l] = c * k;
  return r;
}

int64_t Index::eval(const std::vector<int64_t>& vars) const {
  int64_t v = c_;
  for (const auto& [l, k] : coef_) v += k * vars.at(size_t(l));
  return v;
}

uint32_t fbits(float f) { return fp32_to_bits(f); }

namespace {

constexpr uint32_t kLoadQueue = 0, kStoreQueue = 1;  // local queues of every DMA engine

struct PoolInfo {
  std::string name;
  isa::Mem mem = isa::Mem::kSbuf;
  uint32_t bufs = 1;
  uint32_t slot_bytes = 0;  // per partition, the largest tile
  std::string largest_tile;
  uint32_t base = 0;        // byte offset of slot 0 in each partition
  uint32_t stride = 0;      // bytes between slots
};

// A DMA endpoint or engine operand, before slots and registers are known.
struct Operand {
  enum class Kind { kNone, kView, kHbm } kind = Kind::kNone;
  View view;
  HbmView hbm;
};

struct Op {
  Seq seq = Seq::kSp;       // the issuing sequencer
  isa::Instruction proto;   // everything but operands and sync
  std::array<Operand, isa::kApSlots> ap;
  std::array<std::optional<View>, isa::kScalarSlots> scalar;
  std::array<bool, isa::kApSlots> writes{};  // operand slot is written
  std::array<bool, isa::kApSlots> reads{};
  Index accumulate;  // matmul: adds into PSUM when nonzero (Accumulate)
  // DMA: ap[0] = destination, ap[1] = source.
  bool dma = false;
  uint32_t queue = 0;
};

struct Node {
  enum class Kind { kOp, kAlloc, kLoop } kind;
  Op op;                       // kOp
  int tile = -1, pool = -1;    // kAlloc
  int loop = -1;               // kLoop: loop id (the variable)
  uint32_t count = 0;
  std::vector<Node> body;
  // A run-time trip count (TripCount): the tensor, the largest count, and after unrolling the
  // node index in `body` where each of the `period` copies of the original body ends.
  const HbmTensor* trip = nullptr;
  uint32_t trip_max = 0;
  std::vector<size_t> copy_end;
};

// One lowered instruction, static: it runs once per iteration of its enclosing loops.
struct StaticInst {
  Seq seq;
  int agent;                 // seq, or isa::kNumSeqs + the queue's agent slot for a DMA transfer
  const Op* op = nullptr;
  std::map<int, int> slot;   // tile -> slot at this point
  std::vector<int> loops;    // enclosing loop ids, outermost first
  int trip_copy = -1;        // inside a run-time-count loop: which copy of its body
  bool signals = false;
  // Waits: producer agent -> (threshold constant, per-loop register coefficients).
  struct Wait {
    int agent;
    int64_t imm;
    std::map<int, int64_t> coef;
  };
  std::vector<Wait> waits;
};

// The emitter's register maps keyed below this count one agent's signals in a run-time-count
// loop (kTripCountKey - agent), apart from every loop id.
constexpr int kTripCountKey = -1000;
constexpr uint32_t kBumpChunk = 128;  // signals one bump adds, while at least this many are missing

int64_t gcd64(int64_t a, int64_t b) { return b == 0 ? a : gcd64(b, a % b); }

}  // namespace

struct Kernel::Impl {
  const CoreConfig& cfg;
  std::vector<PoolInfo> pools;
  std::vector<Tile> tiles;
  std::vector<int> tile_pool;
  std::vector<Node> root;
  std::vector<std::vector<Node>*> scope;  // the node list being recorded into
  int next_loop = 0;
  std::vector<uint32_t> loop_count;       // per loop id, after unrolling
  bool finished = false;
  // A loop with a run-time trip count, by its loop id after unrolling.
  struct TripLoop {
    const HbmTensor* tensor = nullptr;
    uint32_t period = 1, max = 0;         // copies of the body per unrolled iteration; largest count
    std::vector<uint64_t> ord_begin, ord_end;  // per agent: its instances before, and to the end of, the loop
    std::vector<std::map<int, int64_t>> copy_signals;  // per copy: agent -> signals
    std::map<int, int> counter_of;  // agent -> the sequencer that counts its signals (an issuer)
  };
  std::map<int, TripLoop> trips;

  explicit Impl(const CoreConfig& c) : cfg(c) { scope.push_back(&root); }

  std::map<int, Seq> last_writer;  // tile -> the sequencer of its latest writer, as recorded
  uint32_t dma_calls = 0;

  // The global queue of the next dma_copy: the calls take the engines in turn (an engine runs
  // one transfer at a time, so independent transfers on different engines overlap their HBM
  // latency), loads on each engine's kLoadQueue and stores on its kStoreQueue.
  uint32_t next_queue(uint32_t local) {
    const uint32_t engine = dma_calls++ % std::max(1u, cfg.dma_engines);
    return engine * cfg.dma_queues + std::min(local, cfg.dma_queues - 1);
  }

  void add(Node n) {
    if (n.kind == Node::Kind::kOp)
      for (size_t k = 0; k < isa::kApSlots; ++k)
        if (n.op.writes[k] && n.op.ap[k].kind == Operand::Kind::kView)
          last_writer[n.op.ap[k].view.tile] = n.op.seq;
    scope.back()->push_back(std::move(n));
  }

  // --- 1. unrolling ------------------------------------------------------------------------

  // Allocations per pool made by one execution of `nodes`.
  std::map<int, int64_t> allocations(const std::vector<Node>& nodes) const {
    std::map<int, int64_t> a;
    for (const Node& n : nodes) {
      if (n.kind == Node::Kind::kAlloc) a[n.pool]++;
      if (n.kind == Node::Kind::kLoop)
        for (const auto& [p, c] : allocations(n.body)) a[p] += c * n.count;
    }
    return a;
  }

  // Rewrites index expressions of loop `from` as (U * new_var + u) or a constant.
  static Index substitute(const Index& i, int loop, int64_t scale, int64_t offset, int new_loop) {
    auto it = i.coefs().find(loop);
    if (it == i.coefs().end()) return i;
    const int64_t k = it->second;
    Index r = i - Index::var(loop) * k + Index(k * offset);
    if (new_loop >= 0) r = r + Index::var(new_loop) * (k * scale);
    return r;
  }

  static void substitute_op(Op& op, int loop, int64_t scale, int64_t offset, int new_loop) {
    auto fix = [&](Index& i) { i = substitute(i, loop, scale, offset, new_loop); };
    for (Operand& o : op.ap) {
      fix(o.view.col0);
      fix(o.hbm.row0);
      fix(o.hbm.col0);
    }
    for (auto& s : op.scalar)
      if (s) fix(s->col0);
    fix(op.accumulate);
  }

  static std::vector<Node> copy_body(const std::vector<Node>& body, int loop, int64_t scale,
                                     int64_t offset, int new_loop) {
    std::vector<Node> out = body;
    std::function<void(std::vector<Node>&)> walk = [&](std::vector<Node>& ns) {
      for (Node& n : ns) {
        if (n.kind == Node::Kind::kOp) substitute_op(n.op, loop, scale, offset, new_loop);
        if (n.kind == Node::Kind::kLoop) walk(n.body);
      }
    };
    walk(out);
    return out;
  }

  void unroll(std::vector<Node>& nodes) {
    std::vector<Node> out;
    for (Node& n : nodes) {
      if (n.kind != Node::Kind::kLoop) {
        out.push_back(std::move(n));
        continue;
      }
      unroll(n.body);
      int64_t period = 1;
      for (const auto& [p, c] : allocations(n.body)) {
        const int64_t b = pools[size_t(p)].bufs;
        const int64_t need = b / gcd64(c % b, b);
        period = period / gcd64(period, need) * need;
      }
      if (n.trip) {
        out.push_back(unroll_trip(n, period));
        continue;
      }
      const int64_t full = n.count / period, rest = n.count % period;
      if (full > 0) {
        Node loop;
        loop.kind = Node::Kind::kLoop;
        loop.loop = next_loop++;
        loop.count = uint32_t(full);
        for (int64_t u = 0; u < period; ++u) {
          auto copy = copy_body(n.body, n.loop, period, u, loop.loop);
          for (Node& c : copy) loop.body.push_back(std::move(c));
        }
        if (full == 1) {  // one iteration: straight-line code
          auto copy = copy_body(loop.body, loop.loop, 0, 0, -1);
          for (Node& c : copy) out.push_back(std::move(c));
        } else {
          loop_count.resize(size_t(next_loop));
          loop_count[size_t(loop.loop)] = loop.count;
          out.push_back(std::move(loop));
        }
      }
      for (int64_t u = 0; u < rest; ++u) {
        auto copy = copy_body(n.body, n.loop, 1, full * period + u, -1);
        for (Node& c : copy) out.push_back(std::move(c));
      }
    }
    nodes.swap(out);
  }

  // A run-time-count loop keeps its loop at any count: `period` copies of the body an
  // iteration (whole pool rotations), with an exit after each copy (emit_trip), and as many
  // iterations as `trip_max` needs. Copies past trip_max are analysed, never run.
  Node unroll_trip(const Node& n, int64_t period) {
    Node loop;
    loop.kind = Node::Kind::kLoop;
    loop.loop = next_loop++;
    loop.count = uint32_t((n.trip_max + period - 1) / period);
    loop.trip = n.trip;
    loop.trip_max = n.trip_max;
    for (int64_t u = 0; u < period; ++u) {
      for (Node& c : copy_body(n.body, n.loop, period, u, loop.loop)) loop.body.push_back(std::move(c));
      loop.copy_end.push_back(loop.body.size());
    }
    loop_count.resize(size_t(next_loop));
    loop_count[size_t(loop.loop)] = loop.count;
    TripLoop& t = trips[loop.loop];
    t.tensor = n.trip;
    t.period = uint32_t(period);
    t.max = n.trip_max;
    return loop;
  }

  // --- 2. layout ---------------------------------------------------------------------------

  void layout() {
    const uint32_t sbuf = cfg.sbuf_partition_bytes;
    const uint32_t psum = cfg.psum_banks * cfg.psum_bank_bytes;
    uint32_t sbuf_used = 0, psum_used = 0;
    for (PoolInfo& p : pools) {
      if (p.slot_bytes == 0) continue;
      const uint32_t bank = cfg.psum_bank_bytes;
      p.stride = p.mem == isa::Mem::kPsum ? uint32_t(psum_slot_banks(p.slot_bytes, bank)) * bank
                                          : uint32_t(sbuf_slot_bytes(p.slot_bytes));
      uint32_t& used = p.mem == isa::Mem::kPsum ? psum_used : sbuf_used;
      const uint32_t limit = p.mem == isa::Mem::kPsum ? psum : sbuf;
      p.base = used;
      const uint64_t end = uint64_t(used) + uint64_t(p.stride) * p.bufs;
      if (end > limit)
        throw Error(fmt::format(
            "kernel does not fit {}: pool '{}' needs {} x {} bytes per partition (its largest "
            "tile is '{}', {} bytes) at offset {}, but a partition has {} bytes",
            p.mem == isa::Mem::kPsum ? "PSUM" : "SBUF", p.name, p.bufs, p.stride, p.largest_tile,
            p.slot_bytes, used, limit));
      used = uint32_t(end);
    }
  }

  Dtype view_dtype(const View& v) const { return v.as ? *v.as : tiles[size_t(v.tile)].dtype; }

  uint32_t slot_offset(int tile, const std::map<int, int>& slot) const {
    const PoolInfo& p = pools[size_t(tile_pool[size_t(tile)])];
    return p.base + p.stride * uint32_t(slot.at(tile));
  }

  // --- 3. lowering --------------------------------------------------------------------------

  std::vector<StaticInst> insts;
  std::vector<isa::Descriptor> descs;

  std::map<std::pair<int, int>, int> owner;  // (pool, slot) -> the tile that has it now

  // Every tile view an op reads or writes.
  static void for_each_view(const Op& op, const std::function<void(const View&)>& f) {
    for (const Operand& o : op.ap)
      if (o.kind == Operand::Kind::kView) f(o.view);
    for (const auto& sc : op.scalar)
      if (sc) f(*sc);
  }

  // A tile is usable until its pool hands its slot to a later tile.
  void check_live(const Op& op, const std::map<int, int>& slot) const {
    for_each_view(op, [&](const View& v) {
      const int pool = tile_pool[size_t(v.tile)];
      const int now = owner.at({pool, slot.at(v.tile)});
      if (now != v.tile)
        throw Error(fmt::format(
            "tile '{}' is used after pool '{}' ({} buffers) gave its slot to tile '{}': give the "
            "pool more buffers or allocate the tile later", tiles[size_t(v.tile)].name,
            pools[size_t(pool)].name, pools[size_t(pool)].bufs, tiles[size_t(now)].name));
    });
  }

  // DMA queues in order of first use: agent slots, and so semaphores, only for queues in use.
  std::map<uint32_t, int> queue_slots;
  int queue_agent(uint32_t queue) {
    auto [it, fresh] = queue_slots.emplace(queue, int(queue_slots.size()));
    if (isa::kNumSeqs + it->second >= int(isa::kNumSems))
      throw Error(fmt::format("kernel uses more DMA queues than there are semaphores ({})", isa::kNumSems));
    return it->second;
  }

  int trip_copy = -1;  // while lowering a run-time-count loop: the copy of its body

  void lower(const std::vector<Node>& nodes, std::map<int, int>& slot,
             std::map<int, uint64_t>& counter, std::vector<int>& loops) {
    lower(nodes, 0, nodes.size(), slot, counter, loops);
  }

  void lower(const std::vector<Node>& nodes, size_t from, size_t to, std::map<int, int>& slot,
             std::map<int, uint64_t>& counter, std::vector<int>& loops) {
    for (size_t i = from; i < to; ++i) {
      const Node& n = nodes[i];
      if (n.kind == Node::Kind::kAlloc) {
        slot[n.tile] = int(counter[n.pool]++ % pools[size_t(n.pool)].bufs);
        owner[{n.pool, slot[n.tile]}] = n.tile;
      } else if (n.kind == Node::Kind::kOp) {
        check_live(n.op, slot);
        StaticInst s;
        s.seq = n.op.seq;
        s.agent = n.op.dma ? isa::kNumSeqs + queue_agent(n.op.queue) : int(n.op.seq);
        s.op = &n.op;
        for_each_view(n.op, [&](const View& v) { s.slot[v.tile] = slot.at(v.tile); });  // its own
        s.loops = loops;
        s.trip_copy = trip_copy;
        insts.push_back(std::move(s));
      } else {
        loops.push_back(n.loop);
        const auto before = counter;
        if (n.trip) {
          for (size_t u = 0, begin = 0; u < n.copy_end.size(); begin = n.copy_end[u++]) {
            trip_copy = int(u);
            lower(n.body, begin, n.copy_end[u], slot, counter, loops);
          }
          trip_copy = -1;
        } else {
          lower(n.body, slot, counter, loops);
        }
        counter = before;  // a whole number of rotations per iteration (unrolled)
        loops.pop_back();
      }
    }
  }

  // --- 4. dependencies ---------------------------------------------------------------------

  struct Instance {
    int inst;
    std::vector<int64_t> vars;  // loop variable values, by loop id
    uint64_t ordinal;           // 1-based, within its agent
  };
  std::vector<Instance> instances;
  // Per instance: its requirements (agent -> ordinal), after transitive reduction.
  std::vector<std::map<int, uint64_t>> waits_of;

  core::Footprint footprint(const View& v, const std::map<int, int>& slot,
                            const std::vector<int64_t>& vars) const {
    const Tile& t = tiles[size_t(v.tile)];
    const uint32_t eb = uint32_t(dtype_bits(view_dtype(v))) / 8;
    core::Footprint f;
    f.space = t.mem == isa::Mem::kSbuf ? isa::Space::kSbuf : isa::Space::kPsum;
    f.pstart = v.p0;
    f.pcount = v.np;
    const int64_t first = int64_t(slot_offset(v.tile, slot)) + v.col0.eval(vars) * eb;
    if (v.step == 1) {
      f.bytes.push_back({uint32_t(first), uint32_t(first + int64_t(v.ncols) * eb)});
    } else {
      std::vector<uint32_t> offs;
      for (uint32_t i = 0; i < v.ncols; ++i) offs.push_back(uint32_t(first + int64_t(i) * v.step * eb));
      std::sort(offs.begin(), offs.end());
      for (uint32_t o : offs) {
        if (!f.bytes.empty() && o <= f.bytes.back().second) f.bytes.back().second = std::max(f.bytes.back().second, o + eb);
        else f.bytes.push_back({o, o + eb});
      }
    }
    return f;
  }

  static bool covers(const core::Footprint& a, const core::Footprint& b) {
    if (a.space != b.space || a.pstep != 1 || b.pstep != 1) return false;
    if (b.pstart < a.pstart || b.pstart + b.pcount > a.pstart + a.pcount) return false;
    for (const auto& iv : b.bytes) {
      bool in = false;
      for (const auto& av : a.bytes) in |= av.first <= iv.first && iv.second <= av.second;
      if (!in) return false;
    }
    return true;
  }

  void expand(const std::vector<Node>& nodes, std::vector<int64_t>& vars, size_t& next_static,
              std::vector<uint64_t>& ord) {
    // Static instructions were lowered in tree order; walk the tree again in the same order.
    for (const Node& n : nodes) {
      if (n.kind == Node::Kind::kOp) {
        const int si = int(next_static++);
        instances.push_back({si, vars, ++ord[size_t(insts[size_t(si)].agent)]});
      } else if (n.kind == Node::Kind::kLoop) {
        const size_t first = next_static;
        if (n.trip) trips.at(n.loop).ord_begin = ord;
        for (uint32_t j = 0; j < n.count; ++j) {
          vars[size_t(n.loop)] = j;
          next_static = first;
          expand(n.body, vars, next_static, ord);
        }
        if (n.trip) trips.at(n.loop).ord_end = ord;
        vars[size_t(n.loop)] = 0;
      }
    }
  }

  // An instance of a run-time-count loop's body past its largest count: it never runs.
  bool past_trip_max(const Instance& in) const {
    const StaticInst& s = insts[size_t(in.inst)];
    if (s.trip_copy < 0) return false;
    const TripLoop& t = trips.at(s.loops.front());
    return uint64_t(in.vars[size_t(s.loops.front())]) * t.period + uint64_t(s.trip_copy) >= t.max;
  }

  // Every operand of one run of an instruction inside its tile or tensor, with the loop
  // variables of that run: an index that grows with a loop is checked at every iteration.
  void check_bounds(const Instance& in, const Op& op) const {
    if (past_trip_max(in)) return;
    const auto where = [&] {
      const isa::OpcodeInfo* info = isa::opcode_info(uint8_t(op.proto.op));
      std::string vars;
      for (size_t l = 0; l < in.vars.size(); ++l)
        if (in.vars[l] != 0) vars += fmt::format(" i{}={}", l, in.vars[l]);
      return fmt::format("{}{}", op.dma ? "dma_copy" : info ? info->mnemonic : "instruction",
                         vars.empty() ? "" : " at loop iteration" + vars);
    };
    std::vector<View> views;
    for (const Operand& o : op.ap)
      if (o.kind == Operand::Kind::kView) views.push_back(o.view);
    for (const auto& v : op.scalar)
      if (v) views.push_back(View{v->tile, v->p0, v->np, v->col0, 1, 1, v->as});  // one value per partition
    for (const View& v : views) {
      const Tile& t = tiles[size_t(v.tile)];
      const int64_t n = int64_t(t.free) * dtype_bits(t.dtype) / dtype_bits(view_dtype(v));
      const int64_t first = v.col0.eval(in.vars), last = first + int64_t(v.ncols - 1) * v.step;
      if (std::min(first, last) < 0 || std::max(first, last) >= n)
        throw Error(fmt::format("{}: elements {}..{} of tile '{}' are outside its {}", where(),
                                std::min(first, last), std::max(first, last), t.name, n));
    }
    for (const Operand& o : op.ap) {
      if (o.kind == Operand::Kind::kHbm) {
        const HbmView& h = o.hbm;
        const int64_t r0 = h.row0.eval(in.vars), c0 = h.col0.eval(in.vars);
        if (r0 < 0 || c0 < 0 || r0 + h.nrows > h.tensor->rows || c0 + h.ncols > h.tensor->cols)
          throw Error(fmt::format("{}: rows {}..{} x cols {}..{} leave the {} x {} tensor '{}'", where(), r0,
                                  r0 + h.nrows, c0, c0 + h.ncols, h.tensor->rows, h.tensor->cols,
                                  h.tensor->name));
      }
    }
  }

  void analyse(int agents) {
    struct Entry {
      int agent;
      uint64_t ordinal;
      core::Footprint where;
      bool write;
    };
    std::map<std::pair<int, int>, std::vector<Entry>> history;  // (tile pool, slot) -> accesses
    // known[a][b]: the largest ordinal of agent b that agent a is ordered after.
    std::vector<std::vector<uint64_t>> known(static_cast<size_t>(agents), std::vector<uint64_t>(static_cast<size_t>(agents), 0));
    // Snapshots of an agent's knowledge after each of its instances.
    std::vector<std::vector<std::vector<uint64_t>>> snap(static_cast<size_t>(agents));
    waits_of.assign(instances.size(), {});
    for (size_t ii = 0; ii < instances.size(); ++ii) {
      const Instance& in = instances[ii];
      const StaticInst& s = insts[size_t(in.inst)];
      const Op& op = *s.op;
      check_bounds(in, op);
      struct Acc {
        core::Footprint where;
        bool write;
        std::pair<int, int> key;
      };
      std::vector<Acc> accs;
      auto add_view = [&](const View& v, bool write) {
        accs.push_back({footprint(v, s.slot, in.vars), write,
                        {tile_pool[size_t(v.tile)], s.slot.at(v.tile)}});
      };
      for (size_t k = 0; k < isa::kApSlots; ++k) {
        if (op.ap[k].kind != Operand::Kind::kView) continue;
        if (op.reads[k]) add_view(op.ap[k].view, false);
        if (op.writes[k]) add_view(op.ap[k].view, true);
      }
      for (const auto& sc : op.scalar)
        if (sc) add_view(*sc, false);
      std::map<int, uint64_t> need;
      for (const Acc& a : accs) {
        for (const Entry& e : history[a.key]) {
          if (e.agent == s.agent || !(e.write || a.write) || !a.where.overlaps(e.where)) continue;
          need[e.agent] = std::max(need[e.agent], e.ordinal);
        }
      }
      // The issuing sequencer waits (for DMA: the SP trigger); it learns what it waited for.
      const int issuer = int(s.seq);
      std::vector<uint64_t>& kn = known[size_t(issuer)];
      while (true) {
        int best = -1;
        size_t best_cover = 0;
        for (const auto& [a, o] : need) {
          if (kn[size_t(a)] >= o) continue;
          const auto& sn = snap[size_t(a)][o - 1];
          size_t cover = 0;
          for (const auto& [b, p] : need) cover += sn[size_t(b)] >= p && kn[size_t(b)] < p;
          if (best < 0 || cover > best_cover) {
            best = a;
            best_cover = cover;
          }
        }
        if (best < 0) break;
        const uint64_t o = need[best];
        waits_of[ii][best] = o;
        join(kn, snap[size_t(best)][o - 1]);
      }
      // The agent's own knowledge now includes the issuer's (a DMA starts after its trigger).
      std::vector<uint64_t>& ka = known[size_t(s.agent)];
      if (s.agent != issuer) join(ka, kn);
      ka[size_t(s.agent)] = in.ordinal;
      snap[size_t(s.agent)].push_back(ka);
      // Record the accesses; drop earlier ones a write here fully covers (ordered before it),
      // and earlier reads of this agent a read here covers (whatever conflicted with one of
      // those conflicts with this later one). Without the second, an operand every instruction
      // reads (weights, constants) grew a history scanned by each access: quadratic.
      for (const Acc& a : accs) {
        auto& h = history[a.key];
        h.erase(std::remove_if(h.begin(), h.end(),
                               [&](const Entry& e) {
                                 return (a.write || (!e.write && e.agent == s.agent)) &&
                                        covers(a.where, e.where);
                               }),
                h.end());
        h.push_back({s.agent, in.ordinal, a.where, a.write});
      }
    }
  }

  static void join(std::vector<uint64_t>& a, const std::vector<uint64_t>& b) {
    for (size_t i = 0; i < a.size(); ++i) a[i] = std::max(a[i], b[i]);
  }

  // --- 5. signals and thresholds ------------------------------------------------------------

  std::vector<std::vector<uint64_t>> sig;  // sig[a][o]: signalling instances of agent a among its first o

  void thresholds(int agents) {
    // Which static instructions are waited on.
    std::vector<std::vector<int>> inst_of_ordinal(static_cast<size_t>(agents));
    for (const Instance& in : instances) inst_of_ordinal[size_t(insts[size_t(in.inst)].agent)].push_back(in.inst);
    for (const auto& w : waits_of)
      for (const auto& [a, o] : w) insts[size_t(inst_of_ordinal[size_t(a)][o - 1])].signals = true;
    // Signal counts: sig[a][o] = signalling instances of agent a among its first o.
    sig.assign(static_cast<size_t>(agents), std::vector<uint64_t>{0});
    for (int a = 0; a < agents; ++a)
      for (int si : inst_of_ordinal[size_t(a)]) sig[size_t(a)].push_back(sig[size_t(a)].back() + insts[size_t(si)].signals);
    // Signals of agent a per iteration of each loop.
    std::map<std::pair<int, int>, int64_t> per_iter;  // (agent, loop) -> signals
    std::function<std::map<int, int64_t>(const std::vector<Node>&, size_t&)> count_signals =
        [&](const std::vector<Node>& nodes, size_t& next) {
          std::map<int, int64_t> c;
          for (const Node& n : nodes) {
            if (n.kind == Node::Kind::kOp) {
              const StaticInst& s = insts[next++];
              if (s.signals) c[s.agent]++;
            } else if (n.kind == Node::Kind::kLoop) {
              const auto body = count_signals(n.body, next);
              for (const auto& [a, k] : body) {
                per_iter[{a, n.loop}] = k;
                c[a] += k * n.count;
              }
            }
          }
          return c;
        };
    size_t next = 0;
    count_signals(root, next);
    // Each static instruction's wait on agent a: imm = max over instances of
    // (threshold - register), the register being sum over its loops of var * per_iter.
    std::vector<std::map<int, std::pair<int64_t, bool>>> imm(insts.size());
    for (size_t ii = 0; ii < instances.size(); ++ii) {
      const Instance& in = instances[ii];
      StaticInst& s = insts[size_t(in.inst)];
      for (const auto& [a, o] : waits_of[ii]) {
        int64_t reg = 0;
        for (int l : s.loops) {
          auto it = per_iter.find({a, l});
          if (it != per_iter.end()) reg += it->second * in.vars[size_t(l)];
        }
        const int64_t t = int64_t(sig[size_t(a)][o]) - reg;
        auto& slot = imm[size_t(in.inst)][a];
        slot.first = slot.second ? std::max(slot.first, t) : t;
        slot.second = true;
      }
    }
    for (size_t si = 0; si < insts.size(); ++si) {
      for (const auto& [a, v] : imm[si]) {
        StaticInst::Wait w{a, v.first, {}};
        for (int l : insts[si].loops) {
          auto it = per_iter.find({a, l});
          if (it != per_iter.end() && it->second != 0) w.coef[l] = it->second;
        }
        insts[si].waits.push_back(std::move(w));
      }
    }
    drop_implied_waits();
  }

  // A static wait is the largest threshold any of its instances needs, so it can be stronger
  // than an instance needed, and a later wait of the same sequencer on the same producer can
  // follow from it: same loop registers (the same loops, none opened or closed between them),
  // a threshold no higher. Semaphores only grow, so such a wait is dropped.
  void drop_implied_waits() {
    // Per sequencer, in the current region: (producer, register coefficients) -> highest
    // threshold waited for.
    using Key = std::pair<int, std::map<int, int64_t>>;
    std::array<std::map<Key, int64_t>, isa::kNumSeqs> held;
    std::array<const std::vector<int>*, isa::kNumSeqs> region{};
    for (StaticInst& si : insts) {
      const size_t q = size_t(si.seq);
      if (region[q] == nullptr || *region[q] != si.loops || si.trip_copy >= 0) held[q].clear();
      region[q] = &si.loops;
      if (si.trip_copy >= 0) continue;
      si.waits.erase(std::remove_if(si.waits.begin(), si.waits.end(),
                                    [&](const StaticInst::Wait& w) {
                                      const auto it = held[q].find({w.agent, w.coef});
                                      return it != held[q].end() && it->second >= w.imm;
                                    }),
                     si.waits.end());
      for (const auto& w : si.waits) {
        int64_t& imm = held[q].try_emplace({w.agent, w.coef}, w.imm).first->second;
        imm = std::max(imm, w.imm);
      }
    }
  }

  // Per copy of a run-time-count loop's body: the signals each agent gives in it (its first
  // iteration's; every iteration gives the same).
  void trip_signals() {
    for (const Instance& in : instances) {
      const StaticInst& s = insts[size_t(in.inst)];
      if (s.trip_copy < 0 || in.vars[size_t(s.loops.front())] != 0) continue;
      TripLoop& t = trips.at(s.loops.front());
      t.copy_signals.resize(t.period);
      t.copy_signals[size_t(s.trip_copy)][s.agent] += s.signals;
      int& counter = t.counter_of.try_emplace(s.agent, int(s.seq)).first->second;
      counter = std::min(counter, int(s.seq));
    }
  }

  // --- 6. emission --------------------------------------------------------------------------

  // A register holds sum(coef[l] * var_l) over its loops: each loop's end steps it, and after
  // the loop's last iteration takes that loop's part out again. Once every loop of its map has
  // ended it holds zero and no later instruction uses its map, so it is reused: the registers
  // live at once are those of the open loops' maps, not of the whole kernel's. One released
  // inside loops still open comes back to zero before those loops' bodies run again, but only
  // if the new map steps with none of them: a map on an open loop keeps its value across the
  // back edge, where the old map's instructions run again and expect zero.
  struct Emitter {
    std::vector<isa::Instruction> code;
    std::map<std::map<int, int64_t>, uint32_t> regs;  // live: loop coefficients -> register
    std::map<uint32_t, std::vector<int>> free_regs;   // released (zero) -> loops open then
    uint32_t next_reg = 1;
    uint32_t reg_for(const std::map<int, int64_t>& coef) {
      if (coef.empty()) return 0;
      auto it = regs.find(coef);
      if (it != regs.end()) return it->second;
      const auto reusable = std::find_if(free_regs.begin(), free_regs.end(), [&](const auto& f) {
        return std::none_of(f.second.begin(), f.second.end(),
                            [&](int l) { return coef.count(l) != 0; });
      });
      uint32_t r = next_reg;
      if (reusable != free_regs.end()) {
        r = reusable->first;
        free_regs.erase(reusable);
      } else if (next_reg >= isa::kNumRegs - 8) {
        throw Error(fmt::format("kernel needs more than {} loop registers live at once on one "
                                "sequencer (too many index expressions inside its open loops)",
                                isa::kNumRegs - 9));
      } else {
        ++next_reg;
      }
      regs[coef] = r;
      return r;
    }
    // A run-time-count loop's signal count, zero again after the loop, is free.
    void drop(const std::map<int, int64_t>& coef, const std::vector<int>& open) {
      free_regs[regs.at(coef)] = open;
      regs.erase(coef);
    }
    // After a loop's end: the registers none of whose loops is still open are free again (a
    // run-time-count loop's signal counts stay until drop()).
    void release(const std::vector<int>& open) {
      for (auto it = regs.begin(); it != regs.end();) {
        const bool live = it->first.begin()->first <= kTripCountKey ||
                          std::any_of(open.begin(), open.end(),
                                      [&](int l) { return it->first.count(l) != 0; });
        if (live) {
          ++it;
        } else {
          free_regs[it->second] = open;
          it = regs.erase(it);
        }
      }
    }
  };
  std::vector<int> open_loops;  // during emission, outermost first
  std::array<Emitter, isa::kNumSeqs> em;

  static int sem_of(int agent) { return agent; }

  // Splits an index into its constant and a register for the loop part (scaled by bytes).
  uint32_t index_reg(Emitter& e, const Index& i, int64_t scale) {
    std::map<int, int64_t> coef;
    for (const auto& [l, k] : i.coefs()) coef[l] = k * scale;
    return e.reg_for(coef);
  }

  isa::AccessPattern ap_of(Emitter& e, const View& v, const std::map<int, int>& slot) {
    const Tile& t = tiles[size_t(v.tile)];
    const uint32_t eb = uint32_t(dtype_bits(view_dtype(v))) / 8;
    isa::AccessPattern ap;
    ap.mem = t.mem;
    ap.dtype = view_dtype(v);
    ap.start_partition = v.p0;
    ap.partitions = v.np;
    ap.offset = uint32_t(int64_t(slot_offset(v.tile, slot)) + v.col0.constant() * eb);
    ap.base_reg = index_reg(e, v.col0, eb);
    ap.dims[3] = {v.step, v.ncols};
    return ap;
  }

  isa::ScalarOperand scalar_of(Emitter& e, const View& v, const std::map<int, int>& slot) {
    const isa::AccessPattern ap = ap_of(e, v, slot);
    isa::ScalarOperand s;
    s.per_partition = true;
    s.mem = ap.mem;
    s.dtype = ap.dtype;
    s.start_partition = ap.start_partition;
    s.base_reg = ap.base_reg;
    s.imm = ap.offset;
    return s;
  }

  // The DMA descriptor and the registers to add to its addresses.
  void dma_of(Emitter& e, const Op& op, const std::map<int, int>& slot, isa::Instruction& in) {
    isa::Descriptor d;
    uint32_t regs[2] = {0, 0};
    for (int side = 0; side < 2; ++side) {
      const Operand& o = op.ap[size_t(side == 0 ? 1 : 0)];  // src = ap[1], dst = ap[0]
      isa::DescSide& ds = side == 0 ? d.src : d.dst;
      if (o.kind == Operand::Kind::kView) {
        const Tile& t = tiles[size_t(o.view.tile)];
        const uint32_t eb = uint32_t(dtype_bits(view_dtype(o.view))) / 8;
        ds.space = t.mem == isa::Mem::kSbuf ? isa::Space::kSbuf : isa::Space::kPsum;
        ds.dtype = view_dtype(o.view);
        ds.start_partition = o.view.p0;
        ds.address = uint64_t(int64_t(slot_offset(o.view.tile, slot)) + o.view.col0.constant() * eb);
        ds.dims[0] = {1, o.view.np};
        ds.dims[3] = {o.view.step * int32_t(eb), o.view.ncols};
        regs[side] = index_reg(e, o.view.col0, eb);
      } else {
        const HbmView& h = o.hbm;
        const HbmTensor& t = *h.tensor;
        const uint32_t eb = uint32_t(dtype_bits(t.dtype)) / 8;
        const int32_t row = int32_t(t.cols * eb);
        ds.space = isa::Space::kHbm;
        ds.dtype = t.dtype;
        const Index at = h.row0 * row + h.col0 * eb;
        ds.address = uint64_t(int64_t(t.address) + at.constant());
        regs[side] = index_reg(e, at, 1);
        if (h.broadcast) {
          ds.dims[0] = {0, other_partitions(op)};
          ds.dims[3] = {int32_t(eb), h.ncols};
        } else if (h.transposed) {
          ds.dims[0] = {int32_t(eb), h.ncols};
          ds.dims[3] = {row, h.nrows};
        } else {
          ds.dims[0] = {row, h.nrows};
          ds.dims[3] = {int32_t(eb), h.ncols};
        }
      }
    }
    in.imm = uint32_t(descs.size());
    descs.push_back(d);
    in.rs1 = regs[0];
    in.rs2 = regs[1];
    in.queue = op.queue;
  }

  static uint32_t other_partitions(const Op& op) {
    for (const Operand& o : op.ap)
      if (o.kind == Operand::Kind::kView) return o.view.np;
    return 1;
  }

  void emit_wait(Emitter& e, isa::Instruction& in, const StaticInst::Wait& w) {
    if (w.imm < -(1 << 23) || w.imm >= (1 << 23))
      throw Error(fmt::format("semaphore threshold {} does not fit the wait field", w.imm));
    in.sync.wait = true;
    in.sync.wait_sem = uint32_t(sem_of(w.agent));
    in.sync.wait_value = int32_t(w.imm);
    in.sync.wait_reg = e.reg_for(w.coef);
  }

  void emit_inst(const StaticInst& s) {
    Emitter& e = em[size_t(s.seq)];
    const Op& op = *s.op;
    isa::Instruction in = op.proto;
    // Waits beyond the first ride on nops ahead of the instruction.
    for (size_t k = 1; k < s.waits.size(); ++k) {
      isa::Instruction nop;
      nop.op = Opcode::kNop;
      emit_wait(e, nop, s.waits[k]);
      e.code.push_back(nop);
    }
    if (!s.waits.empty()) emit_wait(e, in, s.waits[0]);
    if (op.dma) {
      dma_of(e, op, s.slot, in);
    } else {
      for (size_t k = 0; k < isa::kApSlots; ++k)
        if (op.ap[k].kind == Operand::Kind::kView) in.ap[k] = ap_of(e, op.ap[k].view, s.slot);
      for (size_t k = 0; k < isa::kScalarSlots; ++k)
        if (op.scalar[k]) in.scalar[k] = scalar_of(e, *op.scalar[k], s.slot);
    }
    if (in.op == Opcode::kMatmul) {
      // A nonzero constant keeps the index nonzero (Accumulate); else its loop part decides.
      in.accumulate = op.accumulate.constant() != 0;
      in.acc_reg = in.accumulate ? 0 : e.reg_for(op.accumulate.coefs());
    }
    if (s.signals) {
      in.sync.update = isa::SemUpdate::kAdd;
      in.sync.update_sem = uint32_t(sem_of(s.agent));
      in.sync.update_value = 1;
    }
    e.code.push_back(in);
  }

  // Which sequencers have instructions inside `nodes`.
  uint32_t seqs_in(const std::vector<Node>& nodes) const {
    uint32_t m = 0;
    for (const Node& n : nodes) {
      if (n.kind == Node::Kind::kOp) m |= 1u << unsigned(n.op.seq);
      if (n.kind == Node::Kind::kLoop) m |= seqs_in(n.body);
    }
    return m;
  }

  static isa::Instruction alu(Opcode op, uint32_t rd, uint32_t rs1, int64_t imm) {
    isa::Instruction in;
    in.op = op;
    in.rd = rd;
    in.rs1 = rs1;
    in.use_imm = true;
    in.imm = uint32_t(imm);
    return in;
  }
  static isa::Instruction branch(Opcode op, uint32_t rs1, int64_t imm, uint32_t target) {
    isa::Instruction in = alu(op, 0, rs1, imm);
    in.target = target;
    return in;
  }
  static isa::Instruction loop_back(uint32_t counter, uint32_t target) {
    isa::Instruction in;
    in.op = Opcode::kLoop;
    in.rd = counter;
    in.target = target;
    return in;
  }
  // A semaphore bump: `value` more signals of agent `a` without an instruction behind them.
  static isa::Instruction bump(int a, uint32_t value) {
    isa::Instruction in;
    in.sync.update = isa::SemUpdate::kAdd;
    in.sync.update_sem = uint32_t(sem_of(a));
    in.sync.update_value = value;
    return in;
  }

  // The agents whose signals sequencer q counts inside loop `t` (its own, and those of the DMA
  // queues it is the first sequencer to trigger there), with their signals per copy of the body.
  std::map<int, std::vector<int64_t>> trip_agents(const TripLoop& t, int q) const {
    std::map<int, std::vector<int64_t>> out;
    for (size_t u = 0; u < t.copy_signals.size(); ++u)
      for (const auto& [a, k] : t.copy_signals[u]) {
        if (t.counter_of.at(a) != q || k == 0) continue;
        out[a].resize(t.copy_signals.size());
        out[a][u] = k;
      }
    return out;
  }

  // The head of a run-time-count loop on every sequencer that has code: the count into the
  // counter register, a count past the largest stops the sequencer with kTripCountNotify.
  void emit_trip_check(const TripLoop& t, uint32_t counter) {
    const uint32_t used = seqs_in(root);
    for (int q = 0; q < isa::kNumSeqs; ++q) {
      if (!(used & (1u << q))) continue;
      auto& code = em[size_t(q)].code;
      isa::Instruction in;
      in.op = Opcode::kLd;
      in.rd = counter;
      in.imm = uint32_t(t.tensor->address);
      code.push_back(in);
      code.push_back(branch(Opcode::kBltu, counter, int64_t(t.max) + 1, uint32_t(code.size()) + 3));
      in = {};
      in.op = Opcode::kNotify;
      in.imm = isa::kTripCountNotify;
      code.push_back(in);
      in = {};
      in.op = Opcode::kHalt;
      code.push_back(in);
    }
  }

  // A loop whose count is read at run time (unroll_trip): `period` copies of the body an
  // iteration, the counter stepped and tested after each. Every sequencer counts its own and
  // its queues' signals in the loop (one register per agent); after the loop it waits for them
  // and adds the signals of the iterations that did not run, so every threshold after the
  // loop, computed for trip_max iterations, holds as computed.
  void emit_trip(const Node& n, size_t& next, int depth) {
    const TripLoop& t = trips.at(n.loop);
    const uint32_t counter = isa::kNumRegs - 1, mask = seqs_in(n.body);
    emit_trip_check(t, counter);
    std::array<std::map<int, std::vector<int64_t>>, isa::kNumSeqs> agents;
    std::array<std::map<int, uint32_t>, isa::kNumSeqs> count_reg;  // agent -> its register
    std::array<std::vector<size_t>, isa::kNumSeqs> exits;         // branches to the loop's end
    std::array<uint32_t, isa::kNumSeqs> top{};
    for (int q = 0; q < isa::kNumSeqs; ++q) {
      if (!(mask & (1u << q))) continue;
      Emitter& e = em[size_t(q)];
      agents[size_t(q)] = trip_agents(t, q);
      for (const auto& [a, k] : agents[size_t(q)]) {
        count_reg[size_t(q)][a] = e.reg_for({{kTripCountKey - a, 1}});
        e.code.push_back(alu(Opcode::kAdd, count_reg[size_t(q)][a], 0, 0));
      }
      exits[size_t(q)].push_back(e.code.size());
      e.code.push_back(branch(Opcode::kBeq, counter, 0, 0));
      top[size_t(q)] = uint32_t(e.code.size());
    }
    open_loops.push_back(n.loop);
    for (size_t u = 0, begin = 0; u < n.copy_end.size(); begin = n.copy_end[u++]) {
      for (size_t i = begin; i < n.copy_end[u]; ++i) emit_node(n.body[i], next, depth + 1);
      const bool last = u + 1 == n.copy_end.size();
      for (int q = 0; q < isa::kNumSeqs; ++q) {
        if (!(mask & (1u << q))) continue;
        Emitter& e = em[size_t(q)];
        for (const auto& [a, k] : agents[size_t(q)])
          if (k[u] != 0) e.code.push_back(alu(Opcode::kAdd, count_reg[size_t(q)][a], count_reg[size_t(q)][a], k[u]));
        if (last) continue;
        e.code.push_back(alu(Opcode::kSub, counter, counter, 1));
        exits[size_t(q)].push_back(e.code.size());
        e.code.push_back(branch(Opcode::kBeq, counter, 0, 0));
      }
    }
    open_loops.pop_back();
    for (int q = 0; q < isa::kNumSeqs; ++q) {
      if (!(mask & (1u << q))) continue;
      Emitter& e = back_edge(q, n.loop, counter, top[size_t(q)]);
      for (size_t at : exits[size_t(q)]) e.code[at].target = uint32_t(e.code.size());
      for (const auto& [coef, r] : e.regs)  // the loop's part, whichever exit was taken
        if (coef.count(n.loop) != 0) e.code.push_back(alu(Opcode::kAdd, r, 0, 0));
      for (const auto& [a, k] : agents[size_t(q)]) {
        emit_trip_bump(e, t, a, count_reg[size_t(q)][a], counter);
        e.drop({{kTripCountKey - a, 1}}, open_loops);
      }
      e.release(open_loops);
    }
  }

  // After a run-time-count loop: agent a's signals in it have all arrived (`given`, a register,
  // counts them), then the missing ones up to trip_max iterations' are added, 128 at a time
  // and then one at a time. Leaves both registers zero.
  void emit_trip_bump(Emitter& e, const TripLoop& t, int a, uint32_t given, uint32_t counter) {
    const int64_t before = int64_t(sig[size_t(a)][t.ord_begin[size_t(a)]]);
    const int64_t all = int64_t(sig[size_t(a)][t.ord_end[size_t(a)]]) - before;
    isa::Instruction wait;
    wait.sync.wait = true;
    wait.sync.wait_sem = uint32_t(sem_of(a));
    wait.sync.wait_value = int32_t(before);
    wait.sync.wait_reg = given;
    e.code.push_back(wait);
    isa::Instruction negate = alu(Opcode::kSub, counter, 0, 0);  // counter = all - given
    negate.rs2 = given;
    negate.use_imm = false;
    e.code.push_back(negate);
    e.code.push_back(alu(Opcode::kAdd, counter, counter, all));
    e.code.push_back(alu(Opcode::kAnd, given, counter, kBumpChunk - 1));
    e.code.push_back(alu(Opcode::kShr, counter, counter, 7));  // log2(kBumpChunk)
    static_assert(kBumpChunk == 1u << 7);
    for (const auto& [reg, value] : {std::pair{counter, kBumpChunk}, std::pair{given, 1u}}) {
      const uint32_t skip = uint32_t(e.code.size()) + 3;
      e.code.push_back(branch(Opcode::kBeq, reg, 0, skip));
      e.code.push_back(bump(a, value));
      e.code.push_back(loop_back(reg, skip - 2));
    }
  }

  // Adds each live register's coefficient on `loop`, times `mult`.
  static void step_loop_regs(Emitter& e, int loop, int64_t mult) {
    for (const auto& [coef, r] : e.regs) {
      auto it = coef.find(loop);
      if (it != coef.end()) e.code.push_back(alu(Opcode::kAdd, r, r, it->second * mult));
    }
  }

  // A loop's back edge on sequencer q: the registers' steps, then `loop` to `top`.
  Emitter& back_edge(int q, int loop, uint32_t counter, uint32_t top) {
    Emitter& e = em[size_t(q)];
    step_loop_regs(e, loop, 1);
    e.code.push_back(loop_back(counter, top));
    return e;
  }

  void emit(const std::vector<Node>& nodes, size_t& next, int depth) {
    for (const Node& n : nodes) emit_node(n, next, depth);
  }

  void emit_node(const Node& n, size_t& next, int depth) {
    if (n.kind == Node::Kind::kOp) {
      emit_inst(insts[next++]);
    } else if (n.kind == Node::Kind::kLoop && n.trip) {
      emit_trip(n, next, depth);
    } else if (n.kind == Node::Kind::kLoop) {
      emit_loop(n, next, depth);
    }
  }

  void emit_loop(const Node& n, size_t& next, int depth) {
    const uint32_t mask = seqs_in(n.body);
    std::array<uint32_t, isa::kNumSeqs> top{};
    const uint32_t counter = isa::kNumRegs - 1 - uint32_t(depth);
    for (int q = 0; q < isa::kNumSeqs; ++q) {
      if (!(mask & (1u << q))) continue;
      em[size_t(q)].code.push_back(alu(Opcode::kAdd, counter, 0, n.count));
      top[size_t(q)] = uint32_t(em[size_t(q)].code.size());
    }
    open_loops.push_back(n.loop);
    emit(n.body, next, depth + 1);
    open_loops.pop_back();
    for (int q = 0; q < isa::kNumSeqs; ++q) {
      if (!(mask & (1u << q))) continue;
      Emitter& e = back_edge(q, n.loop, counter, top[size_t(q)]);
      step_loop_regs(e, n.loop, -int64_t(n.count));
      e.release(open_loops);
    }
  }

  // Registers are assigned as instructions are emitted, and a loop's register steps are
  // emitted after its body.
  isa::Program finish() {
    unroll(root);
    loop_count.resize(size_t(next_loop));
    layout();
    std::map<int, int> slot;
    std::map<int, uint64_t> counter;
    std::vector<int> loops;
    lower(root, slot, counter, loops);
    int max_queue = -1;
    for (const StaticInst& s : insts)
      if (s.agent >= isa::kNumSeqs) max_queue = std::max(max_queue, s.agent - isa::kNumSeqs);
    const int agents = isa::kNumSeqs + max_queue + 1;
    std::vector<int64_t> vars(size_t(next_loop), 0);
    std::vector<uint64_t> ord(static_cast<size_t>(agents), 0);
    size_t next = 0;
    expand(root, vars, next, ord);
    analyse(agents);
    thresholds(agents);
    trip_signals();
    next = 0;
    emit(root, next, 0);
    isa::Program p;
    for (int q = 0; q < isa::kNumSeqs; ++q) {
      p.streams[size_t(q)] = std::move(em[size_t(q)].code);
      if (!p.streams[size_t(q)].empty()) {
        isa::Instruction halt;
        halt.op = Opcode::kHalt;
        p.streams[size_t(q)].push_back(halt);
      }
    }
    p.descriptors = descs;
    finished = true;
    return p;
  }
};

// ---------------------------------------------------------------------------------------------

Kernel::Kernel(const CoreConfig& cfg, const std::string& name)
    : cfg_(cfg), name_(name), impl_(std::make_unique<Impl>(cfg_)) {}
Kernel::~Kernel() = default;

const HbmTensor& Kernel::add_tensor(const std::string& name, uint32_t rows, uint32_t cols,
                                    Dtype dtype, bool output) {
  if (rows == 0 || cols == 0) throw Error(fmt::format("tensor '{}' has an empty shape", name));
  uint64_t at = 0;
  if (!tensors_.empty()) at = isa::image_align(tensors_.back()->address + tensors_.back()->bytes());
  const uint64_t bytes = uint64_t(rows) * cols * uint64_t(dtype_bits(dtype)) / 8;
  if (at + bytes > isa::kHbmMaxBytes)
    throw Error(fmt::format("tensor '{}' ({} x {} {}, {} bytes from byte {}) does not fit the {} GiB "
                            "of HBM a core addresses", name, rows, cols, dtype_name(dtype), bytes,
                            at, isa::kHbmMaxBytes >> 30));
  auto t = std::make_unique<HbmTensor>();
  t->id = int(tensors_.size());
  t->name = name;
  t->dtype = dtype;
  t->rows = rows;
  t->cols = cols;
  t->address = at;
  t->output = output;
  tensors_.push_back(std::move(t));
  return *tensors_.back();
}

const HbmTensor& Kernel::input(const std::string& name, uint32_t rows, uint32_t cols, Dtype dtype) {
  return add_tensor(name, rows, cols, dtype, false);
}
const HbmTensor& Kernel::output(const std::string& name, uint32_t rows, uint32_t cols, Dtype dtype) {
  return add_tensor(name, rows, cols, dtype, true);
}

uint64_t Kernel::hbm_bytes() const {
  if (tensors_.empty()) return isa::kImageAlign;
  return isa::image_align(tensors_.back()->address + tensors_.back()->bytes());
}

isa::ProgramImage Kernel::image(isa::Program program) const {
  isa::ProgramImage img;
  img.name = name_;
  img.program = std::move(program);
  for (const auto& t : tensors_)
    img.tensors.push_back({t->name, t->dtype, t->rows, t->cols, t->address, t->output, t->trip_max});
  return img;
}

PoolRef Kernel::add_pool(const std::string& name, isa::Mem mem, uint32_t bufs) {
  if (bufs == 0) throw Error(fmt::format("pool '{}' needs at least one buffer", name));
  PoolInfo pool;
  pool.name = name;
  pool.mem = mem;
  pool.bufs = bufs;
  impl_->pools.push_back(pool);
  return PoolRef(this, int(impl_->pools.size()) - 1);
}

PoolRef Kernel::sbuf_pool(const std::string& name, uint32_t bufs) {
  return add_pool(name, isa::Mem::kSbuf, bufs);
}

PoolRef Kernel::psum_pool(const std::string& name, uint32_t bufs) {
  return add_pool(name, isa::Mem::kPsum, bufs);
}

Tile PoolRef::tile(uint32_t partitions, uint32_t free, Dtype dtype, const std::string& name) {
  Kernel::Impl& k = *k_->impl_;
  PoolInfo& pool = k.pools[size_t(id_)];
  if (partitions == 0 || partitions > k.cfg.partitions || free == 0)
    throw Error(fmt::format("tile '{}' of pool '{}': {} x {} is not a tile shape (1..{} "
                            "partitions)", name, pool.name, partitions, free, k.cfg.partitions));
  const uint64_t bytes = uint64_t(free) * (dtype_bits(dtype) / 8);
  const uint64_t limit = pool.mem == isa::Mem::kPsum ? k.cfg.psum_bank_bytes : k.cfg.sbuf_partition_bytes;
  if (bytes > limit)
    throw Error(fmt::format("tile '{}' of pool '{}' needs {} bytes per partition; a {} is {} "
                            "bytes", name, pool.name, bytes,
                            pool.mem == isa::Mem::kPsum ? "PSUM bank" : "SBUF partition", limit));
  if (bytes > pool.slot_bytes) {
    pool.slot_bytes = uint32_t(bytes);
    pool.largest_tile = name;
  }
  Tile t;
  t.id = int(k.tiles.size());
  t.name = name;
  t.mem = pool.mem;
  t.dtype = dtype;
  t.partitions = partitions;
  t.free = free;
  k.tiles.push_back(t);
  k.tile_pool.push_back(id_);
  Node n;
  n.kind = Node::Kind::kAlloc;
  n.tile = t.id;
  n.pool = id_;
  k.add(std::move(n));
  return t;
}

View Kernel::all(const Tile& t) const { return sub(t, 0, t.partitions, 0, t.free); }

View Kernel::sub(const Tile& t, uint32_t p0, uint32_t np, Index col0, uint32_t ncols) const {
  if (p0 + np > t.partitions || np == 0)
    throw Error(fmt::format("view of tile '{}': partitions {}..{} outside its {}", t.name, p0,
                            p0 + np, t.partitions));
  if (col0.is_constant() && (col0.constant() < 0 || uint64_t(col0.constant()) + ncols > t.free))
    throw Error(fmt::format("view of tile '{}': elements {}..{} outside its {}", t.name,
                            col0.constant(), col0.constant() + ncols, t.free));
  View v;
  v.tile = t.id;
  v.p0 = p0;
  v.np = np;
  v.col0 = col0;
  v.ncols = ncols;
  return v;
}

View Kernel::low_bits(const View& v, Dtype t) const {
  const Tile& tile = impl_->tiles.at(size_t(v.tile));
  const int have = dtype_bits(v.as ? *v.as : tile.dtype), want = dtype_bits(t);
  if (have != 32 || want > 32)
    throw Error(fmt::format("low_bits of tile '{}': needs a view of 32-bit elements", tile.name));
  const int ratio = 32 / want;
  View r = v;
  r.as = t;
  r.col0 = v.col0 * ratio;
  r.step = v.step * ratio;
  return r;
}

namespace {

// The HBM window's shape as the on-chip side sees it must equal the view's.
void check_dma_shape(const View& v, const HbmView& h, const char* dir) {
  const uint32_t parts = h.broadcast ? v.np : (h.transposed ? h.ncols : h.nrows);
  const uint32_t cols = h.broadcast || !h.transposed ? h.ncols : h.nrows;
  if ((h.broadcast && h.nrows != 1) || parts != v.np || cols != v.ncols)
    throw Error(fmt::format("dma_copy {} '{}': the HBM window is {} x {}{} but the tile view is "
                            "{} x {}", dir, h.tensor->name, h.nrows, h.ncols,
                            h.transposed ? " (transposed)" : "", v.np, v.ncols));
  if (h.row0.is_constant() && h.col0.is_constant() &&
      (h.row0.constant() < 0 || h.col0.constant() < 0 ||
       uint64_t(h.row0.constant()) + h.nrows > h.tensor->rows ||
       uint64_t(h.col0.constant()) + h.ncols > h.tensor->cols))
    throw Error(fmt::format("dma_copy {} '{}': rows {}.. x cols {}.. leave the {} x {} tensor",
                            dir, h.tensor->name, h.row0.constant(), h.col0.constant(),
                            h.tensor->rows, h.tensor->cols));
}

// A per-partition scalar view gives one value to each partition of `out`: it needs as many
// partitions (the engine reads partition p of it for partition p of the output).
const std::optional<View>& check_scalar_view(const View& out, const std::optional<View>& v, const char* what) {
  if (v && v->np < out.np)
    throw Error(fmt::format("{}: the view has {} partitions, the output {}; every output partition needs "
                            "its value", what, v->np, out.np));
  return v;
}

Operand view_operand(const View& v) {
  Operand o;
  o.kind = Operand::Kind::kView;
  o.view = v;
  return o;
}

// An engine's limit on one instruction's elements per partition, checked where the kernel is
// written rather than as the engine's fault when it runs.
void check_free_size(const View& v, uint32_t max, Opcode opc, const char* engine) {
  if (v.ncols > max)
    throw Error(fmt::format("{}: {} elements per partition, more than the {} takes in one "
                            "instruction ({}): split the free axis",
                            isa::opcode_info(uint8_t(opc))->mnemonic, v.ncols, engine, max));
}

Node op_node(Seq seq, Opcode opc) {
  Node n;
  n.kind = Node::Kind::kOp;
  n.op.seq = seq;
  n.op.proto.op = opc;
  return n;
}

Node ldstat_node(const View& stationary) {
  Node ld = op_node(Seq::kPe, Opcode::kLdStat);
  ld.op.ap[1] = view_operand(stationary);
  ld.op.reads[1] = true;
  return ld;
}

}  // namespace

void Kernel::dma_copy(const View& dst, const HbmView& src) {
  if (!src.tensor) throw Error("dma_copy: the HBM view has no tensor");
  if (src.tensor->output)
    throw Error(fmt::format("dma_copy reads output tensor '{}': kernels read inputs and write "
                            "outputs (HBM dependencies are not tracked)", src.tensor->name));
  check_dma_shape(dst, src, "from");
  Node n = op_node(Seq::kSp, Opcode::kDma);
  n.op.dma = true;
  n.op.queue = impl_->next_queue(kLoadQueue);
  n.op.ap[0] = view_operand(dst);
  n.op.ap[1].kind = Operand::Kind::kHbm;
  n.op.ap[1].hbm = src;
  n.op.writes[0] = true;
  impl_->add(std::move(n));
}

void Kernel::dma_copy(const HbmView& dst, const View& src) {
  if (!dst.tensor || !dst.tensor->output)
    throw Error("dma_copy: the HBM destination must be an output tensor");
  check_dma_shape(src, dst, "to");
  // The engine that produced the data triggers its store, so SP's stream holds only loads and
  // they run ahead into free buffers (double buffering).
  auto w = impl_->last_writer.find(src.tile);
  Node n = op_node(w == impl_->last_writer.end() ? Seq::kSp : w->second, Opcode::kDma);
  n.op.dma = true;
  n.op.queue = impl_->next_queue(kStoreQueue);
  n.op.ap[0].kind = Operand::Kind::kHbm;
  n.op.ap[0].hbm = dst;
  n.op.ap[1] = view_operand(src);
  n.op.reads[1] = true;
  impl_->add(std::move(n));
}


Accumulate Accumulate::when_nonzero(const Index& i) {
  const bool rising = std::all_of(i.coefs().begin(), i.coefs().end(),
                                  [](const auto& c) { return c.second > 0; });
  if (i.constant() < 0 || !rising)
    throw Error(fmt::format("Accumulate::when_nonzero: the index must be a nonnegative constant "
                            "plus positive multiples of loop variables (constant {}, {} loop "
                            "terms), so that it is zero only when they all are",
                            i.constant(), i.coefs().size()));
  return Accumulate(i);
}

void Kernel::matmul(const View& out, const View& stationary, const View& moving,
                    Accumulate accumulate) {
  load_stationary(stationary);
  multiply_moving(out, moving, accumulate);
}

void Kernel::load_stationary(const View& stationary) { impl_->add(ldstat_node(stationary)); }

void Kernel::multiply_moving(const View& out, const View& moving, Accumulate accumulate) {
  Node mm = op_node(Seq::kPe, Opcode::kMatmul);
  mm.op.accumulate = accumulate.index();
  const bool never = accumulate.index().is_constant() && accumulate.index().constant() == 0;
  mm.op.ap[0] = view_operand(out);
  mm.op.ap[1] = view_operand(moving);
  mm.op.writes[0] = true;
  mm.op.reads[0] = !never;
  mm.op.reads[1] = true;
  impl_->add(std::move(mm));
}

void Kernel::pe_transpose(const View& out, const View& in) {
  impl_->add(ldstat_node(in));
  Node tr = op_node(Seq::kPe, Opcode::kPeTranspose);
  tr.op.ap[0] = view_operand(out);
  tr.op.writes[0] = true;
  impl_->add(std::move(tr));
}

void Kernel::activation(const View& out, const View& in, const ActArgs& a) {
  for (const View* v : {&out, &in}) check_free_size(*v, act::kActMaxN, Opcode::kActivate, "Scalar Engine");
  Node n = op_node(Seq::kAct, Opcode::kActivate);
  isa::Instruction& p = n.op.proto;
  p.func = uint32_t(a.func);
  p.reduce_cmd = uint32_t(a.reduce);
  p.reduce_op = uint32_t(a.reduce_op);
  p.scalar[0].imm = fbits(a.scale);
  p.scalar[1].imm = fbits(a.bias);
  n.op.ap[0] = view_operand(out);
  n.op.ap[1] = view_operand(in);
  n.op.writes[0] = true;
  n.op.reads[1] = true;
  if (a.acc_out) {
    n.op.ap[3] = view_operand(*a.acc_out);
    n.op.writes[3] = true;
  }
  n.op.scalar[0] = check_scalar_view(out, a.scale_vec, "activation scale_vec");
  n.op.scalar[1] = check_scalar_view(out, a.bias_vec, "activation bias_vec");
  impl_->add(std::move(n));
}

void Kernel::vector_op(Opcode opc, const View& out, const std::optional<View>& in0,
                       const std::optional<View>& in1, const DveArgs& a, Seq on) {
  for (const View* v : {&out, in0 ? &*in0 : nullptr, in1 ? &*in1 : nullptr})
    if (v) check_free_size(*v, kDveMaxN, opc, "Vector Engine");
  Node n = op_node(on, opc);
  isa::Instruction& p = n.op.proto;
  p.alu0 = uint32_t(a.alu0);
  p.alu1 = uint32_t(a.alu1);
  p.reverse0 = a.reverse0;
  p.reverse1 = a.reverse1;
  p.negate = a.negate;
  p.imm2 = a.imm2.pattern();
  p.scalar[0].imm = a.imm0.pattern();
  p.scalar[1].imm = a.imm1.pattern();
  n.op.ap[0] = view_operand(out);
  n.op.writes[0] = true;
  if (in0) {
    n.op.ap[1] = view_operand(*in0);
    n.op.reads[1] = true;
  }
  if (in1) {
    n.op.ap[2] = view_operand(*in1);
    if (opc == Opcode::kTensorScalarReduce) n.op.writes[2] = true;
    else n.op.reads[2] = true;
  }
  n.op.scalar[0] = check_scalar_view(out, a.s0_vec, "vector scalar s0_vec");
  n.op.scalar[1] = check_scalar_view(out, a.s1_vec, "vector scalar s1_vec");
  impl_->add(std::move(n));
}

void Kernel::tensor_tensor(const View& out, const View& in0, const View& in1, DveAlu op) {
  DveArgs a;
  a.alu0 = op;
  vector_op(Opcode::kTensorTensor, out, in0, in1, a);
}
void Kernel::tensor_scalar(const View& out, const View& in, const DveArgs& a) {
  vector_op(Opcode::kTensorScalar, out, in, std::nullopt, a);
}
void Kernel::scalar_tensor_tensor(const View& out, const View& in0, const View& in1, const DveArgs& a) {
  vector_op(Opcode::kScalarTensorTensor, out, in0, in1, a);
}
void Kernel::tensor_reduce(const View& out, const View& in, DveAlu op, bool negate) {
  DveArgs a;
  a.alu0 = op;
  a.negate = negate;
  vector_op(Opcode::kTensorReduce, out, in, std::nullopt, a);
}
void Kernel::tensor_copy(const View& out, const View& in) {
  vector_op(Opcode::kTensorCopy, out, in, std::nullopt, {});
}
void Kernel::transpose(const View& out, const View& in) {
  vector_op(Opcode::kTranspose, out, in, std::nullopt, {});
}
void Kernel::memset(const View& out, Imm value) {
  DveArgs a;
  a.imm0 = value;
  vector_op(Opcode::kMemset, out, std::nullopt, std::nullopt, a);
}
void Kernel::iota(const View& out, int32_t base, int32_t partition_step, int32_t element_step, Seq on) {
  DveArgs a;
  a.imm0 = Imm::int32(base);
  a.imm1 = Imm::int32(partition_step);
  a.imm2 = Imm::int32(element_step);
  vector_op(Opcode::kIota, out, std::nullopt, std::nullopt, a, on);
}
void Kernel::select(const View& out, const View& pred, const View& on_true, Imm on_false) {
  DveArgs a;
  a.imm0 = on_false;
  vector_op(Opcode::kSelect, out, pred, on_true, a);
}
void Kernel::bn_stats(const View& out, const View& in) {
  vector_op(Opcode::kBnStats, out, in, std::nullopt, {});
}
void Kernel::bn_aggr(const View& out, const View& in) {
  vector_op(Opcode::kBnAggr, out, in, std::nullopt, {});
}

void Kernel::loop(uint32_t count, const std::function<void(Index)>& body) {
  if (count == 0) return;
  Node n;
  n.kind = Node::Kind::kLoop;
  n.loop = impl_->next_loop++;
  n.count = count;
  impl_->scope.back()->push_back(std::move(n));
  Node& loop = impl_->scope.back()->back();
  impl_->scope.push_back(&loop.body);
  try {
    body(Index::var(loop.loop));
  } catch (...) {
    impl_->scope.pop_back();
    throw;
  }
  impl_->scope.pop_back();
}

TripCount Kernel::trip_count(const std::string& name, uint32_t max) {
  if (max == 0) throw Error(fmt::format("trip count '{}': its largest value is 0", name));
  const HbmTensor& t = add_tensor(name, 1, 1, Dtype::kInt32, false);
  if (t.address > UINT32_MAX - 3)
    throw Error(fmt::format("trip count '{}' lies at HBM byte {}, past the 4 GiB a sequencer's "
                            "`ld` addresses: declare it before the large tensors", name, t.address));
  tensors_.back()->trip_max = max;
  return TripCount{&t, max};
}

void Kernel::loop(const TripCount& count, const std::function<void(Index)>& body) {
  const bool ours = std::any_of(tensors_.begin(), tensors_.end(),
                                [&](const auto& t) { return t.get() == count.tensor && t->trip_max != 0; });
  if (!ours) throw Error(fmt::format("kernel '{}': a loop's trip count is not one of its trip_count()s", name_));
  if (count.max != count.tensor->trip_max)
    throw Error(fmt::format("trip count '{}': the loop says at most {}, trip_count() said {}",
                            count.tensor->name, count.max, count.tensor->trip_max));
  if (impl_->scope.size() != 1)
    throw Error(fmt::format("a loop with a run-time trip count ('{}') must be outermost",
                            count.tensor->name));
  loop(count.max, body);
  Node& n = impl_->scope.back()->back();
  n.trip = count.tensor;
  n.trip_max = count.max;
}

HbmView window(const HbmTensor& t, Index r0, Index c0, uint32_t nrows, uint32_t ncols) {
  HbmView v;
  v.tensor = &t;
  v.row0 = r0;
  v.col0 = c0;
  v.nrows = nrows;
  v.ncols = ncols;
  return v;
}

void tile_loop(Kernel& k, uint32_t first, uint32_t total, uint32_t tile,
               const std::function<void(Index, uint32_t)>& body) {
  if (tile == 0) throw Error(fmt::format("kernel '{}': tile_loop with a tile of 0", k.name()));
  const uint32_t full = total / tile, rest = total % tile;
  if (full > 0) k.loop(full, [&](Index i) { body(Index(first) + i * tile, tile); });
  if (rest > 0) body(Index(first + full * tile), rest);
}

isa::Program Kernel::finish() {
  if (impl_->finished) throw Error(fmt::format("kernel '{}' is already finished", name_));
  return impl_->finish();
}

}  // namespace tern::kernel
