#include "core/core_model.h"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <map>
#include <queue>
#include <utility>

#include "act/scalar_engine.h"
#include "dve/vector_engine.h"
#include "isa/asm.h"
#include "numerics/numerics.h"
#include "pe/tensor_engine.h"
#include "psum/psum.h"

namespace tern::core {

using isa::Instruction;
using isa::Opcode;
using isa::Seq;

namespace {

// The cycle estimate's figures around the engines' own timing (docs/core-model.md "Timing"):
// what the sequencers, the engines' adapters and the DMA engines add on the RTL platform.
namespace timing {
constexpr uint64_t kFetchStart = 6;     // a sequencer's first instruction: HBM latency + this
constexpr uint64_t kAdapter = 8;        // an engine instruction's operand reads and result writes
constexpr uint64_t kDescFetch = 30;     // a transfer's descriptor: HBM latency + this
constexpr uint64_t kDmaTail = 30;       // after the last data's round trip: the semaphore update
constexpr uint64_t kDmaOverlap = 26;    // on-chip cycles that hide under the last round trip
constexpr uint64_t kDmaMaxOut = 8;      // AXI bursts in flight each way (docs/dma.md)
constexpr uint64_t kPeAdapter = 6;      // a matmul or transpose besides its vectors
constexpr uint64_t kPsumShare = 2;      // PSUM's port: an engine gets one cycle in 2 under a matmul
constexpr uint64_t kLdStat = 4;         // a LoadStationary, its tile loading under the matmul
}  // namespace timing

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

using Clock = std::vector<uint32_t>;

void join(Clock& a, const Clock& b) {
  for (size_t i = 0; i < a.size(); ++i) a[i] = std::max(a[i], b[i]);
}

// What an access record needs to name the instruction in a race report.
struct Site {
  std::string agent;
  uint32_t pc = 0;
  std::string name;  // mnemonic, for the trace
  std::string text;  // the instruction as assembly, for messages
  std::string describe() const {
    return fmt::format("{} pc {} ({})", agent, pc, text.empty() ? name : text);
  }
};

struct Access {
  Footprint where;
  bool write = false;
  std::string operand;  // "ap1", "dst"
};

struct AccessRecord {
  uint32_t epoch;
  Access access;
  Site site;
};

// A sempahore update with the cumulative clock of every update up to it.
struct SemHistory {
  struct Entry {
    uint32_t value;
    Clock clock;
  };
  std::deque<Entry> entries;
};
constexpr size_t kSemHistoryKept = 256;

struct PendingUpdate {
  uint64_t time;
  uint64_t order;
  isa::Sync sync;
  Clock clock;
  bool operator>(const PendingUpdate& o) const {
    return time != o.time ? time > o.time : order > o.order;
  }
};

struct Transfer {
  isa::Descriptor desc;
  uint32_t desc_index = 0;
  Site trigger;
  isa::Sync sync;
  Clock clock;
  uint64_t ready = 0;  // cycle the trigger completed
};

// A sequencer's instruction cache (tern_seq_axi, docs/core-rtl.md "Sequencers' AXI side"), its
// sizes CoreConfig::fetch_cache(): `lines` direct-mapped by instruction number, filled a group of
// `group` instructions a read, the `ahead` groups after each requested one prefetched, `ahead` + 1
// reads in flight.
struct FetchCache {
  CoreConfig::FetchCache size;
  std::vector<int64_t> tag;        // per group slot: the group it holds or is bringing (-1: none)
  std::vector<uint64_t> arrival;   // when that group's first instruction lands
  std::deque<uint64_t> in_flight;  // the reads' landings, in issue order
};

struct SeqState {
  uint32_t pc = 0;
  uint32_t fetched_pc = UINT32_MAX;  // the instruction whose fetch has been timed
  bool halted = false;
  bool blocked = false;
  uint64_t time = 0;
  uint64_t done = 0;  // when its last instruction completed (its semaphore update)
  uint64_t wait_since = 0;
  bool waiting = false;
  uint32_t started = 0;  // instructions started this run (the budget's count)
  std::array<uint32_t, isa::kNumRegs> regs{};
};

struct QueueState {
  std::deque<Transfer> pending;
  uint64_t time = 0;
};

}  // namespace

struct CoreModel::Impl {
  Impl(CoreModel& m)
      : model(m), cfg(m.cfg_), te(cfg), act(cfg.partitions, m.opt_.sr_seed), dve(cfg), pool(cfg),
        psum_scratch(cfg) {
    dve.seed(m.opt_.sr_seed);
    pool.seed(m.opt_.sr_seed);
  }

  CoreModel& model;
  const CoreConfig& cfg;
  TensorEngine te;
  act::ScalarEngine act;
  VectorEngine dve, pool;
  Psum psum_scratch;

  const isa::Program* prog = nullptr;
  std::array<SeqState, isa::kNumSeqs> seqs{};
  std::array<FetchCache, isa::kNumSeqs> fetch;
  std::vector<QueueState> queues;
  std::vector<Clock> clocks;  // per agent
  std::array<SemHistory, isa::kNumSems> sem_hist;
  std::priority_queue<PendingUpdate, std::vector<PendingUpdate>, std::greater<PendingUpdate>>
      updates;
  uint64_t update_order = 0;
  // The cycle estimate's shared resources (docs/core-model.md "Timing").
  uint64_t hbm_port_free = 0;  // the first cycle the HBM port has no transfer's data to move
  std::vector<uint64_t> engine_free;  // per DMA engine: when its current transfer ends
  uint64_t pe_drain = 0;  // the last PE instruction's results land this long after it retires
  std::deque<std::pair<uint64_t, uint64_t>> pe_vectors;  // the matmuls' issue cycles, [from, to)
  // An agent's use of one of SBUF's two ports (the element read port, the element write port):
  // it wants the port in `density` of the cycles [from, to).
  struct PortUse {
    uint64_t from, to;
    size_t agent;
    double density;
  };
  // ACT's, DVE's, POOL's and the DMA queues', in the order they were estimated.
  std::deque<PortUse> sbuf_reads, sbuf_writes;
  std::vector<std::deque<AccessRecord>> log;  // per agent
  uint64_t records_since_prune = 0;
  RunStats stats;

  size_t agents() const { return isa::kNumSeqs + queues.size(); }
  static std::string queue_name(size_t q) { return fmt::format("dma.q{}", q); }

  [[noreturn]] void fault(FaultKind k, const Site& at, const std::string& why) const {
    throw CoreFault(k, fmt::format("{} fault at {}: {}", fault_name(k), at.describe(), why),
                    at.agent, at.pc);
  }
  // A DMA queue's fault, with the check that stopped it.
  [[noreturn]] void dma_fault(const Site& at, DmaDetail detail, const std::string& why) const {
    throw CoreFault(FaultKind::kDma, fmt::format("dma fault at {}: {}", at.describe(), why), at.agent,
                    at.pc).with_dma_detail(detail);
  }

  // --- race detection -----------------------------------------------------------------------

  void check_and_log(size_t agent, const Site& site, const std::vector<Access>& accesses) {
    if (!model.opt_.detect_races) return;
    const Clock& mine = clocks[agent];
    for (size_t a = 0; a < agents(); ++a) {
      if (a == agent) continue;
      const auto& records = log[a];
      for (auto it = records.rbegin(); it != records.rend() && it->epoch > mine[a]; ++it) {
        for (const Access& acc : accesses) {
          if (!(acc.write || it->access.write) || !acc.where.overlaps(it->access.where)) continue;
          throw CoreFault(
              FaultKind::kRace,
              fmt::format("race fault: {} {} {} and {} {} {} touch the same {} bytes with no "
                          "semaphore ordering between them",
                          site.describe(), acc.write ? "writes" : "reads", acc.operand,
                          it->site.describe(), it->access.write ? "writes" : "reads",
                          it->access.operand, isa::space_name(acc.where.space)));
        }
      }
    }
    for (const Access& acc : accesses) log[agent].push_back({mine[agent], acc, site});
    records_since_prune += accesses.size();
    if (records_since_prune > 4096) prune();
  }

  // Drops records every agent that may still access memory is already ordered after.
  void prune() {
    records_since_prune = 0;
    Clock floor(agents(), UINT32_MAX);
    auto lower = [&](const Clock& c) {
      for (size_t i = 0; i < floor.size(); ++i) floor[i] = std::min(floor[i], c[i]);
    };
    for (int s = 0; s < isa::kNumSeqs; ++s)
      if (!seqs[s].halted) lower(clocks[s]);
    for (const QueueState& q : queues)
      for (const Transfer& t : q.pending) lower(t.clock);
    for (size_t a = 0; a < agents(); ++a)
      while (!log[a].empty() && log[a].front().epoch <= floor[a]) log[a].pop_front();
  }

  // --- semaphores ----------------------------------------------------------------------------

  int32_t wait_threshold(const SeqState& s, const isa::Sync& sync) const {
    return int32_t(uint32_t(sync.wait_value) + s.regs[sync.wait_reg]);
  }

  void schedule_update(uint64_t time, const isa::Sync& sync, const Clock& clock) {
    if (sync.update == isa::SemUpdate::kNone) return;
    updates.push({time, update_order++, sync, clock});
  }

  void apply_update(const PendingUpdate& u) {
    uint32_t& sem = model.sems_[u.sync.update_sem];
    SemHistory& h = sem_hist[u.sync.update_sem];
    if (u.sync.update == isa::SemUpdate::kSet) {
      sem = u.sync.update_value;
      h.entries.clear();
      h.entries.push_back({sem, u.clock});
    } else {
      sem += u.sync.update_value;
      Clock c = h.entries.empty() ? Clock(agents(), 0) : h.entries.back().clock;
      join(c, u.clock);
      h.entries.push_back({sem, std::move(c)});
      if (h.entries.size() > kSemHistoryKept) h.entries.pop_front();
    }
    for (int s = 0; s < isa::kNumSeqs; ++s) {
      SeqState& st = seqs[s];
      if (st.blocked && sem_satisfied(st, prog->streams[s][st.pc].sync)) {
        st.blocked = false;
        st.time = std::max(st.time, u.time);
      }
    }
  }

  bool sem_satisfied(const SeqState& s, const isa::Sync& sync) const {
    return int32_t(model.sems_[sync.wait_sem]) >= wait_threshold(s, sync);
  }

  // The waiter learns what the updates that satisfied its wait knew.
  void acquire(size_t agent, const SeqState& s, const isa::Sync& sync) {
    const int32_t need = wait_threshold(s, sync);
    if (need <= 0) return;
    for (const auto& e : sem_hist[sync.wait_sem].entries) {
      if (int32_t(e.value) >= need) {
        join(clocks[agent], e.clock);
        return;
      }
    }
    if (!sem_hist[sync.wait_sem].entries.empty())
      join(clocks[agent], sem_hist[sync.wait_sem].entries.back().clock);
  }

  // --- operands ------------------------------------------------------------------------------

  OnChipMemory& mem_of(isa::Mem m) { return m == isa::Mem::kSbuf ? model.sbuf_ : model.psum_; }

  ResolvedAp resolve(const SeqState& s, const Site& site, const isa::AccessPattern& ap,
                     const char* what) {
    try {
      if (ap.base_reg >= isa::kNumRegs) throw Error("base register out of range");
      return resolve_ap(ap, s.regs[ap.base_reg], mem_of(ap.mem), cfg.partitions, what);
    } catch (const CoreFault&) {
      throw;
    } catch (const Error& e) {
      fault(FaultKind::kOperand, site, e.what());
    }
  }

  // [lane][element] raw bits of the operand's partitions, in free-pattern order.
  std::vector<std::vector<uint32_t>> read_lanes(const ResolvedAp& r) {
    const OnChipMemory& m = mem_of(r.mem);
    // Lanes past the operand's partitions see zeros (the engines run all P lanes).
    std::vector<std::vector<uint32_t>> lanes(cfg.partitions,
                                             std::vector<uint32_t>(r.offsets.size(), 0));
    for (uint32_t i = 0; i < r.partitions; ++i)
      for (size_t j = 0; j < r.offsets.size(); ++j)
        lanes[i][j] = m.load(r.start + i, r.offsets[j], r.elem_bytes);
    return lanes;
  }

  void write_lanes(const ResolvedAp& r, const std::vector<std::vector<uint32_t>>& lanes,
                   size_t first = 0) {
    OnChipMemory& m = mem_of(r.mem);
    for (uint32_t i = 0; i < r.partitions; ++i)
      for (size_t j = 0; j < r.offsets.size(); ++j)
        m.store(r.start + i, r.offsets[j], r.elem_bytes, lanes[i][first + j]);
  }

  // One value per lane from a per-partition scalar operand, as fp32 (float dtypes) or the
  // integer's int32 value.
  std::vector<uint32_t> read_scalar(const SeqState& s, const Site& site,
                                    const isa::ScalarOperand& sc, uint32_t lanes,
                                    const char* what, std::vector<Access>& reads) {
    isa::AccessPattern ap;
    ap.mem = sc.mem;
    ap.dtype = sc.dtype;
    ap.start_partition = sc.start_partition;
    ap.partitions = lanes;
    ap.base_reg = sc.base_reg;
    ap.offset = sc.imm;
    const ResolvedAp r = resolve(s, site, ap, what);
    reads.push_back({r.footprint(), false, what});
    std::vector<uint32_t> v(cfg.partitions, 0);
    const auto raw = read_lanes(r);
    for (uint32_t i = 0; i < lanes; ++i) {
      const uint32_t bits = raw[i][0];
      if (is_float(sc.dtype)) v[i] = convert_to_fp32(sc.dtype, bits);
      else if (sc.dtype == Dtype::kInt8) v[i] = uint32_t(int32_t(int8_t(bits)));
      else v[i] = bits;
    }
    return v;
  }

  // --- engines -------------------------------------------------------------------------------

  uint64_t exec_pe(SeqState& s, const Site& site, const Instruction& in) {
    std::vector<Access> acc;
    PeCommand cmd;
    auto pe_fault = [&](PeError e, const std::string& ctx) {
      fault(FaultKind::kEngine, site, fmt::format("Tensor Engine rejects the command: {} ({})",
                                                  pe_error_name(e), ctx));
    };
    if (in.op == Opcode::kLdStat) {
      const ResolvedAp st = resolve(s, site, in.ap[1], "ap1");
      acc.push_back({st.footprint(), false, "ap1"});
      cmd.op = PeOp::kLoadStationary;
      cmd.dtype = st.dtype;
      cmd.k = st.partitions;
      cmd.m = uint32_t(st.offsets.size());
      const PeError e = te.check(cmd);
      if (e != PeError::kNone) pe_fault(e, fmt::format("K {} x M {} {}", cmd.k, cmd.m, dtype_name(cmd.dtype)));
      check_and_log(size_t(Seq::kPe), site, acc);
      auto lanes = read_lanes(st);
      lanes.resize(cmd.k);
      te.load_stationary(cmd, lanes);
      return timing::kLdStat;
    }
    // matmul and pe_transpose write fp32 words, contiguous, to PSUM partitions 0..M-1.
    const ResolvedAp out = resolve(s, site, in.ap[0], "ap0");
    if (out.mem != isa::Mem::kPsum || out.dtype != Dtype::kFp32 || out.start != 0)
      fault(FaultKind::kOperand, site, "ap0 must be fp32 in PSUM starting at partition 0");
    for (size_t j = 1; j < out.offsets.size(); ++j)
      if (out.offsets[j] != out.offsets[0] + 4 * j)
        fault(FaultKind::kOperand, site, "ap0 must be contiguous (step 1) in one PSUM bank");
    const uint32_t entries = cfg.psum_bank_bytes / 4;
    const uint32_t word = out.offsets[0] / 4;
    cmd.bank = word / entries;
    cmd.offset = word % entries;
    cmd.n = uint32_t(out.offsets.size());
    if (te.loaded_m() != 0 && out.partitions != te.loaded_m())
      fault(FaultKind::kOperand, site,
            fmt::format("ap0 has {} partitions; the stationary tile has M = {}", out.partitions,
                        te.loaded_m()));
    acc.push_back({out.footprint(), true, "ap0"});
    uint64_t cycles = 0;
    ResolvedAp mov;
    if (in.op == Opcode::kMatmul) {
      mov = resolve(s, site, in.ap[1], "ap1");
      acc.push_back({mov.footprint(), false, "ap1"});
      cmd.op = PeOp::kMultiplyMoving;
      cmd.dtype = mov.dtype;
      // acc_reg's value as the sequencer hands the matmul over (r0 reads 0: the bit alone).
      if (in.acc_reg >= isa::kNumRegs) fault(FaultKind::kOperand, site, "acc_reg out of range");
      cmd.accumulate = in.accumulate || s.regs[in.acc_reg] != 0;
      if (mov.offsets.size() != cmd.n)
        fault(FaultKind::kOperand, site,
              fmt::format("ap1 has {} elements per partition, ap0 {}", mov.offsets.size(), cmd.n));
      if (te.loaded_k() != 0 && mov.partitions != te.loaded_k())
        fault(FaultKind::kOperand, site,
              fmt::format("ap1 has {} partitions; the stationary tile has K = {}",
                          mov.partitions, te.loaded_k()));
      cycles = cmd.n;
    } else {
      cmd.op = PeOp::kTranspose;
      if (te.loaded_k() != 0 && cmd.n != te.loaded_k())
        fault(FaultKind::kOperand, site,
              fmt::format("ap0 has {} elements; the transpose writes K = {}", cmd.n,
                          te.loaded_k()));
      cycles = te.loaded_k();
    }
    const PeError e = te.check(cmd);
    if (e != PeError::kNone) pe_fault(e, fmt::format("bank {} offset {} N {}", cmd.bank, cmd.offset, cmd.n));
    check_and_log(size_t(Seq::kPe), site, acc);
    const uint32_t m = te.loaded_m();
    if (in.op == Opcode::kMatmul) {
      stats.pe_macs += uint64_t(te.loaded_k()) * te.loaded_m() * cmd.n;
      if (is_fp32_pass_pair(te.loaded_dtype(), cmd.dtype)) cycles *= 3;
    }
    if (model.opt_.timing_only) return pe_issue(s, in, cycles);
    for (uint32_t p = 0; p < m; ++p)
      for (uint32_t j = 0; j < cmd.n; ++j)
        psum_scratch.write(p, word + j, model.psum_.load(p, out.offsets[j], 4));
    if (in.op == Opcode::kMatmul) {
      auto lanes = read_lanes(mov);
      lanes.resize(mov.partitions);
      te.multiply_moving(cmd, lanes, psum_scratch);
    } else {
      te.transpose(cmd, psum_scratch);
    }
    for (uint32_t p = 0; p < m; ++p)
      for (uint32_t j = 0; j < cmd.n; ++j)
        model.psum_.store(p, out.offsets[j], 4, psum_scratch.read(p, word + j));
    return pe_issue(s, in, cycles);
  }

  // A matmul's or transpose's cycles on its sequencer: its vectors and the adapter; the PSUM
  // port is the engine's while the vectors issue, and the results land after the mesh drains.
  uint64_t pe_issue(const SeqState& s, const Instruction& in, uint64_t vectors) {
    if (in.op == Opcode::kMatmul) pe_vectors.emplace_back(s.time, s.time + vectors);
    pe_drain = pe_result_latency(cfg);
    return vectors + timing::kPeAdapter;
  }

  uint64_t exec_act(SeqState& s, const Site& site, const Instruction& in, uint64_t& write_tail) {
    std::vector<Access> acc;
    const ResolvedAp out = resolve(s, site, in.ap[0], "ap0");
    const ResolvedAp src = resolve(s, site, in.ap[1], "ap1");
    if (src.partitions != out.partitions || src.offsets.size() != out.offsets.size())
      fault(FaultKind::kOperand, site,
            fmt::format("ap1 is {} x {} but ap0 is {} x {}", src.partitions, src.offsets.size(),
                        out.partitions, out.offsets.size()));
    acc.push_back({src.footprint(), false, "ap1"});
    const uint32_t lanes = out.partitions;
    act::ActCommand cmd;
    cmd.func = uint8_t(in.func);
    cmd.in_dtype = uint8_t(src.dtype);
    cmd.out_dtype = uint8_t(out.dtype);
    cmd.rounding = in.stochastic ? Rounding::kStochastic : Rounding::kNearestEven;
    cmd.n = uint32_t(src.offsets.size());
    cmd.reduce_op = uint8_t(in.reduce_op);
    cmd.reduce_cmd = uint8_t(in.reduce_cmd);
    cmd.scale_per_partition = in.scalar[0].per_partition;
    cmd.bias_per_partition = in.scalar[1].per_partition;
    if (cmd.scale_per_partition) cmd.scale_vec = read_scalar(s, site, in.scalar[0], lanes, "scale", acc);
    else cmd.scale = in.scalar[0].imm;
    if (cmd.bias_per_partition) cmd.bias_vec = read_scalar(s, site, in.scalar[1], lanes, "bias", acc);
    else cmd.bias = in.scalar[1].imm;
    auto per_partition_ap = [&](const isa::AccessPattern& ap, const char* what) {
      const ResolvedAp r = resolve(s, site, ap, what);
      if (r.partitions != lanes || r.offsets.size() != 1)
        fault(FaultKind::kOperand, site,
              fmt::format("{} must be one element in each of ap0's {} partitions", what, lanes));
      return r;
    };
    if (cmd.reduce_cmd == uint8_t(act::ReduceCmd::kLoadReduce)) {
      if (!in.ap[2].present()) fault(FaultKind::kOperand, site, "load_reduce needs acc_load (ap2)");
      const ResolvedAp load = per_partition_ap(in.ap[2], "acc_load");
      acc.push_back({load.footprint(), false, "acc_load"});
      cmd.acc_load.assign(cfg.partitions, 0);
      const auto raw = read_lanes(load);
      for (uint32_t i = 0; i < lanes; ++i) cmd.acc_load[i] = convert_to_fp32(load.dtype, raw[i][0]);
    }
    ResolvedAp acc_out;
    if (in.ap[3].present()) {
      acc_out = per_partition_ap(in.ap[3], "acc_out");
      acc.push_back({acc_out.footprint(), true, "acc_out"});
    }
    acc.push_back({out.footprint(), true, "ap0"});
    const act::ActError e = act.check(cmd);
    if (e != act::ActError::kNone)
      fault(FaultKind::kEngine, site, fmt::format("Scalar Engine rejects the command (error {})",
                                                  unsigned(e)));
    check_and_log(size_t(Seq::kAct), site, acc);
    act::ActTile result;
    act.run(cmd, read_lanes(src), result);
    write_lanes(out, result);
    if (acc_out.partitions) {
      std::vector<std::vector<uint32_t>> v(cfg.partitions, std::vector<uint32_t>(1));
      for (uint32_t i = 0; i < lanes; ++i)
        v[i][0] = convert_from_fp32(acc_out.dtype, act.accumulators()[i], {}, 0);
      write_lanes(acc_out, v);
    }
    write_tail = act::act_reduce_tail(cmd);  // an add reduction's combine follows the writes
    return act::act_cycles(cmd) + timing::kAdapter;
  }

  uint64_t exec_dve(SeqState& s, Seq seq, const Site& site, const Instruction& in) {
    VectorEngine& eng = seq == Seq::kDve ? dve : pool;
    std::vector<Access> acc;
    DveCommand cmd;
    cmd.op = DveOp(uint8_t(in.op) - isa::kDveOpcodeBase);
    cmd.alu0 = DveAlu(in.alu0);
    cmd.alu1 = DveAlu(in.alu1);
    cmd.rounding = in.stochastic ? Rounding::kStochastic : Rounding::kNearestEven;
    cmd.saturate = in.saturate;
    cmd.reverse0 = in.reverse0;
    cmd.reverse1 = in.reverse1;
    cmd.negate = in.negate;
    cmd.imm2 = in.imm2;
    const ResolvedAp out = resolve(s, site, in.ap[0], "ap0");
    const uint32_t lanes = out.partitions;
    cmd.out = out.dtype;
    ResolvedAp in0, in1;
    const bool tsr = cmd.op == DveOp::kTensorScalarReduce;
    if (in.ap[1].present()) in0 = resolve(s, site, in.ap[1], "ap1");
    if (in.ap[2].present()) in1 = resolve(s, site, in.ap[2], "ap2");
    cmd.in0 = in0.partitions ? in0.dtype : Dtype::kFp32;
    cmd.in1 = in1.partitions && !tsr ? in1.dtype : Dtype::kFp32;
    cmd.n = uint32_t(in0.partitions ? in0.offsets.size() : out.offsets.size());
    for (const ResolvedAp* r : {&in0, &in1})
      if (r->partitions && r->partitions != lanes)
        fault(FaultKind::kOperand, site,
              fmt::format("operands span {} and {} partitions", lanes, r->partitions));
    for (int k = 0; k < 2; ++k) {
      const isa::ScalarOperand& sc = in.scalar[k];
      const char* what = k == 0 ? "s0" : "s1";
      if (sc.per_partition) {
        (k == 0 ? cmd.scalar0_per_partition : cmd.scalar1_per_partition) = true;
        (k == 0 ? cmd.scalar0 : cmd.scalar1) = read_scalar(s, site, sc, lanes, what, acc);
      } else {
        (k == 0 ? cmd.imm0 : cmd.imm1) = sc.imm;
      }
    }
    const DveError e = eng.check(cmd);
    if (e != DveError::kNone)
      fault(FaultKind::kEngine, site,
            fmt::format("Vector Engine rejects the command: {}", dve_error_name(e)));
    // Operand sizes must be what the instruction reads and writes.
    const uint32_t want_out = eng.out_beats(cmd) - (tsr ? 1 : 0);
    auto shape = [&](const ResolvedAp& r, uint32_t want, const char* what) {
      const uint32_t have = r.partitions ? uint32_t(r.offsets.size()) : 0;
      if (have != want)
        fault(FaultKind::kOperand, site,
              fmt::format("{} has {} elements per partition; {} uses {}", what, have,
                          isa::opcode_info(uint8_t(in.op))->mnemonic, want));
    };
    shape(out, want_out, "ap0");
    shape(in0, eng.in0_beats(cmd), "ap1");
    if (tsr) {
      shape(in1, 1, "ap2 (the reduction result)");
      if (in1.dtype != Dtype::kFp32) fault(FaultKind::kOperand, site, "ap2 must be fp32");
    } else {
      shape(in1, eng.in1_beats(cmd), "ap2");
    }
    if (in0.partitions) acc.push_back({in0.footprint(), false, "ap1"});
    if (in1.partitions && !tsr) acc.push_back({in1.footprint(), false, "ap2"});
    acc.push_back({out.footprint(), true, "ap0"});
    if (tsr) acc.push_back({in1.footprint(), true, "ap2"});
    check_and_log(size_t(seq), site, acc);
    const auto l0 = in0.partitions ? read_lanes(in0) : DveLanes(cfg.partitions);
    const auto l1 = in1.partitions && !tsr ? read_lanes(in1) : DveLanes(cfg.partitions);
    auto fill = [&](DveLanes l, uint32_t beats) {
      for (auto& row : l) row.resize(beats, 0);
      return l;
    };
    VectorEngine::Result r = eng.execute(cmd, fill(l0, eng.in0_beats(cmd)), fill(l1, eng.in1_beats(cmd)));
    write_lanes(out, r.out);
    if (tsr) write_lanes(in1, r.out, cmd.n);
    // Two streamed inputs share the adapter's read port: a beat pair every two cycles.
    const uint64_t second_stream = in0.partitions && in1.partitions && !tsr ? eng.in1_beats(cmd) : 0;
    return dve_cycles(cmd) + second_stream + timing::kAdapter;
  }

  // --- DMA -----------------------------------------------------------------------------------

  // The earliest a queue's next transfer can start: after its trigger and the queue's last
  // transfer, and when its DMA engine is free (an engine serves its queues one transfer at a
  // time, docs/dma.md).
  uint64_t transfer_start(size_t qi) const {
    const QueueState& q = queues[qi];
    return std::max({q.time, q.pending.front().ready, engine_free[qi / cfg.dma_queues]});
  }

  void run_transfer(size_t qi) {
    QueueState& q = queues[qi];
    const uint64_t start = transfer_start(qi);
    Transfer t = std::move(q.pending.front());
    q.pending.pop_front();
    const size_t agent = isa::kNumSeqs + qi;
    join(clocks[agent], t.clock);
    ++clocks[agent][agent];
    Site site{queue_name(qi), t.trigger.pc, fmt::format("dma d{} from {}", t.desc_index, t.trigger.agent), ""};
    auto mem_for = [&](isa::Space sp) -> OnChipMemory* {
      if (sp == isa::Space::kSbuf) return &model.sbuf_;
      if (sp == isa::Space::kPsum) return &model.psum_;
      return nullptr;
    };
    ResolvedSide src, dst;
    try {
      src = resolve_side(t.desc.src, 0, model.hbm_, mem_for(t.desc.src.space), "source");
    } catch (const DmaSideError& e) {
      dma_fault(site, e.check(), e.what());
    }
    try {
      dst = resolve_side(t.desc.dst, 0, model.hbm_, mem_for(t.desc.dst.space), "destination");
    } catch (const DmaSideError& e) {
      dma_fault(site, DmaDetail(uint8_t(e.check()) + uint8_t(DmaDetail::kDstZeroDim) -
                                uint8_t(DmaDetail::kSrcZeroDim)), e.what());
    }
    const size_t n = src.space == isa::Space::kHbm ? src.hbm.size() : src.onchip.size();
    const size_t m = dst.space == isa::Space::kHbm ? dst.hbm.size() : dst.onchip.size();
    if (n != m)
      dma_fault(site, DmaDetail::kCount, fmt::format("source has {} elements, destination {}", n, m));
    std::vector<Access> acc;
    if (src.space != isa::Space::kHbm) acc.push_back({src.footprint(), false, "source"});
    if (dst.space != isa::Space::kHbm) acc.push_back({dst.footprint(), true, "destination"});
    check_and_log(agent, site, acc);
    for (size_t i = 0; i < n; ++i) {
      uint32_t v = 0;
      if (src.space == isa::Space::kHbm) {
        uint8_t b[4] = {};
        model.hbm_.read(src.hbm[i], b, src.elem_bytes);
        v = uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24;
      } else {
        v = mem_for(src.space)->load(src.onchip[i].first, src.onchip[i].second, src.elem_bytes);
      }
      if (src.dtype != dst.dtype) v = convert_from_fp32(dst.dtype, convert_to_fp32(src.dtype, v), {}, 0);
      if (dst.space == isa::Space::kHbm) {
        const uint8_t b[4] = {uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)};
        model.hbm_.write(dst.hbm[i], b, dst.elem_bytes);
        model.note_hbm_write(dst.hbm[i], dst.elem_bytes);
      } else {
        mem_for(dst.space)->store(dst.onchip[i].first, dst.onchip[i].second, dst.elem_bytes, v);
      }
    }
    const uint64_t rd = n * src.elem_bytes, wr = n * dst.elem_bytes;
    stats.dma_transfers++;
    stats.dma_bytes_read += rd;
    stats.dma_bytes_written += wr;
    const uint64_t end = transfer_end(agent, start, src, dst);
    q.time = end;
    engine_free[qi / cfg.dma_queues] = end;
    model.trace_.push_back({site.agent, t.trigger.pc, fmt::format("dma d{}", t.desc_index),
                            isa::sync_text(t.sync), start, end, start, 0, 0, start});
    schedule_update(end, t.sync, clocks[agent]);
  }

  // A transfer's end (docs/core-model.md "Timing"): the descriptor's round trip, then the data,
  // then the last data's round trip (a load's last read, a store's write response). The data
  // takes the longest of: its HBM beats through the one port every queue shares; its on-chip
  // side, a row a cycle in row mode (HBM <-> SBUF, one dtype) and an element a cycle otherwise;
  // and its HBM bursts, kDmaMaxOut in flight, each group a round trip.
  uint64_t transfer_end(size_t agent, uint64_t start, const ResolvedSide& src, const ResolvedSide& dst) {
    const HbmTiming& h = model.opt_.hbm_timing;
    const uint64_t beat = cfg.axi_data_bits / 8;
    const uint64_t per_cycle = h.bytes_per_cycle ? h.bytes_per_cycle : beat;
    const bool row_mode = (src.space == isa::Space::kHbm) != (dst.space == isa::Space::kHbm) &&
                          src.space != isa::Space::kPsum && dst.space != isa::Space::kPsum &&
                          src.dtype == dst.dtype;
    uint64_t hbm_bytes = 0, bursts = 0, onchip = 0;
    for (const ResolvedSide* side : {&src, &dst}) {
      if (side->space == isa::Space::kHbm) {
        hbm_bytes += side->hbm.size() * side->elem_bytes;
        bursts += hbm_bursts(*side, beat);
      } else {
        onchip = std::max(onchip, row_mode ? onchip_rows(*side) : side->onchip.size());
      }
    }
    const uint64_t desc = ceil_div(isa::kDescBytes, per_cycle);
    const uint64_t port = ceil_div(hbm_bytes, per_cycle);
    const uint64_t port_at = std::max(start + h.latency + timing::kDescFetch + desc, hbm_port_free);
    hbm_port_free = port_at + port;
    stats.hbm_bytes += hbm_bytes;
    const uint64_t groups = ceil_div(bursts, timing::kDmaMaxOut);
    const uint64_t rows = onchip > timing::kDmaOverlap ? onchip - timing::kDmaOverlap : 0;
    const uint64_t data = std::max({port, rows, groups > 1 ? (groups - 1) * (h.latency + 1) : 0});
    // SBUF is read as the data leaves and written as it arrives (a load's after a round trip).
    if (src.space == isa::Space::kSbuf) dma_port_use(agent, false, onchip, port_at, port_at + data);
    if (dst.space == isa::Space::kSbuf) {
      const uint64_t from = port_at + (src.space == isa::Space::kHbm ? h.latency : 0);
      dma_port_use(agent, true, onchip, from, from + data);
    }
    return port_at + h.latency + timing::kDmaTail + data;
  }

  // The AXI bursts of an HBM side: runs of contiguous elements, split at 4 KiB and 256 beats.
  static uint64_t hbm_bursts(const ResolvedSide& side, uint64_t beat) {
    uint64_t bursts = 0, first = 0;
    for (size_t i = 0; i < side.hbm.size(); ++i) {
      const uint64_t a = side.hbm[i];
      const bool joins = i > 0 && a == side.hbm[i - 1] + side.elem_bytes && a % 4096 != 0 &&
                         a + side.elem_bytes - first <= 256 * beat;
      if (!joins) {
        ++bursts;
        first = a;
      }
    }
    return bursts;
  }

  // The SBUF rows a row-mode side touches, in order (a row a cycle).
  uint64_t onchip_rows(const ResolvedSide& side) const {
    const uint32_t row = cfg.sbuf_row_bytes();
    uint64_t rows = 0;
    for (size_t i = 0; i < side.onchip.size(); ++i) {
      const auto [part, off] = side.onchip[i];
      if (i == 0 || part != side.onchip[i - 1].first || off / row != side.onchip[i - 1].second / row) ++rows;
    }
    return rows;
  }

  // An ACT or vector instruction of `cycles` from `start` that reads or writes PSUM shares its
  // port with the Tensor Engine's writes: it loses a cycle in kPsumShare of those it overlaps
  // the matmuls issued so far.
  uint64_t psum_shared(uint64_t start, uint64_t cycles, const Instruction& in) {
    while (!pe_vectors.empty() && pe_vectors.front().second <= start) pe_vectors.pop_front();
    bool psum = false;
    for (const isa::AccessPattern& ap : in.ap) psum |= ap.present() && ap.mem == isa::Mem::kPsum;
    if (!psum) return cycles;
    uint64_t overlap = 0;
    for (const auto& [from, to] : pe_vectors)
      if (from < start + cycles) overlap += std::min(to, start + cycles) - std::max(from, start);
    return cycles + overlap / timing::kPsumShare;
  }

  // The cycles other agents' uses of a port take from one that wants it every cycle of
  // [from, to): the port goes round-robin, so each cycle another agent wants is one this one
  // waits (the later-estimated use pays it all). Records the use, lengthened by its wait.
  static uint64_t share_port(std::deque<PortUse>& uses, size_t agent, uint64_t now, uint64_t from,
                             uint64_t to) {
    while (!uses.empty() && uses.front().to <= now) uses.pop_front();
    double lost = 0;
    for (const PortUse& u : uses)
      if (u.agent != agent && u.from < to && u.to > from)
        lost += u.density * double(std::min(u.to, to) - std::max(u.from, from));
    const auto wait = uint64_t(lost + 0.5);
    uses.push_back({from, to + wait, agent, 1.0});
    return wait;
  }

  // An ACT or vector instruction of `cycles` from `start` reads its SBUF inputs through the
  // element read port, an element a cycle from its start, and writes its SBUF results through
  // the element write port, an element a cycle ending `tail` cycles before its end. Both ports
  // are shared round-robin with the other engines and the DMA queues.
  uint64_t sbuf_shared(int seq, uint64_t start, uint64_t cycles, const Instruction& in, uint64_t tail = 0) {
    uint64_t reads = 0;
    for (size_t i = 1; i < in.ap.size(); ++i)
      if (in.ap[i].present() && in.ap[i].mem == isa::Mem::kSbuf) reads += in.ap[i].free_elements();
    reads = std::min(reads, cycles);
    if (reads != 0) cycles += share_port(sbuf_reads, size_t(seq), start, start, start + reads);
    const isa::AccessPattern& out = in.ap[0];
    if (!out.present() || out.mem != isa::Mem::kSbuf || tail >= cycles) return cycles;
    const uint64_t n = std::min(cycles - tail, out.free_elements());
    const uint64_t from = start + cycles - tail - n;
    return cycles + share_port(sbuf_writes, size_t(seq), start, from, from + n);
  }

  // A DMA transfer's on-chip side in SBUF uses a port (`write` for a load) for `rows` of the
  // cycles [from, to).
  void dma_port_use(size_t agent, bool write, uint64_t rows, uint64_t from, uint64_t to) {
    if (rows == 0 || to <= from) return;
    (write ? sbuf_writes : sbuf_reads).push_back({from, to, agent, std::min(1.0, double(rows) / double(to - from))});
  }

  // --- instruction fetch ----------------------------------------------------------------------

  // Each sequencer's cache empty, sized as tern_seq_axi sizes it from the partitions.
  void reset_fetch() {
    const CoreConfig::FetchCache size = cfg.fetch_cache();
    const uint32_t slots = size.lines / size.group;
    for (FetchCache& f : fetch)
      f = FetchCache{size, std::vector<int64_t>(slots, -1), std::vector<uint64_t>(slots, 0), {}};
  }

  // A read of group g asked for at t: it starts when one of the ahead + 1 read slots is free
  // and lands a round trip later.
  uint64_t fetch_read(FetchCache& f, int64_t g, uint64_t t) {
    while (!f.in_flight.empty() && f.in_flight.front() <= t) f.in_flight.pop_front();
    if (f.in_flight.size() > f.size.ahead) {
      t = f.in_flight.front();
      f.in_flight.pop_front();
    }
    const uint64_t land = t + model.opt_.hbm_timing.latency + timing::kFetchStart;
    f.in_flight.insert(std::upper_bound(f.in_flight.begin(), f.in_flight.end(), land), land);
    const size_t slot = size_t(g) % f.tag.size();
    f.tag[slot] = g;
    f.arrival[slot] = land;
    return land;
  }

  // When sequencer si's instruction pc is there, asked for at t: from its line, or its group's
  // read; the groups after it are prefetched. An instruction is its beats after its group's first.
  uint64_t fetch_time(int si, uint32_t pc, uint64_t t) {
    FetchCache& f = fetch[size_t(si)];
    const int64_t g = pc / f.size.group;
    const size_t slots = f.tag.size();
    const uint64_t landed = f.tag[size_t(g) % slots] == g ? f.arrival[size_t(g) % slots] : fetch_read(f, g, t);
    for (int64_t k = 1; k <= int64_t(f.size.ahead); ++k)
      if (f.tag[size_t(g + k) % slots] != g + k) fetch_read(f, g + k, t);
    const uint64_t beats = ceil_div(isa::kInstrBytes * 8, cfg.axi_data_bits);
    return std::max(t, landed + beats * (pc % f.size.group));
  }

  // --- sequencers ----------------------------------------------------------------------------

  // Executes (or blocks) the next instruction of sequencer `si`.
  void step(int si) {
    SeqState& s = seqs[si];
    const Seq seq = Seq(si);
    const auto& stream = prog->streams[si];
    Site site{isa::seq_name(seq), s.pc, "?", ""};
    if (s.pc >= stream.size())
      fault(FaultKind::kPc, site, fmt::format("the stream has {} instructions and no halt was "
                                              "reached", stream.size()));
    if (s.fetched_pc != s.pc) {  // the instruction's fetch first (the step comes back when it is there)
      s.fetched_pc = s.pc;
      const uint64_t there = fetch_time(si, s.pc, s.time);
      if (there > s.time) {
        s.time = there;
        return;
      }
    }
    const Instruction& in = stream[s.pc];
    const isa::OpcodeInfo* info = isa::opcode_info(uint8_t(in.op));
    site.name = info ? info->mnemonic : "?";
    site.text = isa::instruction_text(in);
    if (!info || !(info->seqs & isa::seq_bit(seq)))
      fault(FaultKind::kIllegalInstruction, site,
            fmt::format("{} is not an instruction of the {} sequencer", site.name, site.agent));
    check_fields(site, in);
    if (in.sync.wait && !sem_satisfied(s, in.sync)) {
      if (!s.waiting) {
        s.waiting = true;
        s.wait_since = s.time;
      }
      s.blocked = true;
      return;
    }
    const uint32_t budget = model.opt_.instruction_budget;
    if (budget != 0 && s.started == budget)
      fault(FaultKind::kBudget, site,
            fmt::format("{} instructions started, the budget is {} (GLB.BUDGET; a loop that "
                        "never ends?)", s.started, budget));
    ++s.started;
    const uint64_t wait_start = s.waiting ? s.wait_since : s.time;
    if (s.waiting) stats.seq[si].wait_cycles += s.time - s.wait_since;
    s.waiting = false;
    if (in.sync.wait) acquire(size_t(si), s, in.sync);
    ++clocks[si][si];
    uint32_t next = s.pc + 1;
    uint64_t cycles = 1;
    bool update_now = true;
    auto& r = s.regs;
    auto b = [&] { return in.use_imm ? in.imm : r[in.rs2]; };
    bool wrote_rd = false;  // for the retire trace
    auto set_rd = [&](uint32_t v) {
      if (in.rd != 0) r[in.rd] = v;
      wrote_rd = in.rd != 0;
    };
    switch (in.op) {
      case Opcode::kNop: break;
      case Opcode::kHalt: s.halted = true; break;
      case Opcode::kNotify: stats.notifications.push_back(in.imm); break;
      case Opcode::kLd:
      case Opcode::kSt: {
        const uint64_t addr = uint32_t(r[in.rs1] + in.imm);  // a 32-bit address adder
        if (addr % 4 != 0)
          fault(FaultKind::kMemory, site, fmt::format("HBM word address 0x{:x} is not 4-byte "
                                                      "aligned", addr));
        if (addr + 4 > model.hbm_.size())
          fault(FaultKind::kMemory, site, fmt::format("HBM word address 0x{:x} is outside HBM "
                                                      "(0x{:x} bytes)", addr, model.hbm_.size()));
        if (in.op == Opcode::kLd) set_rd(model.hbm_.read_u32(addr));
        else {
          model.hbm_.write_u32(addr, r[in.rs2]);
          model.note_hbm_write(addr, 4);
        }
        break;
      }
      case Opcode::kLoop:
        if (in.rd != 0) r[in.rd] -= 1;
        wrote_rd = in.rd != 0;
        if (r[in.rd] != 0) next = in.target;
        break;
      case Opcode::kDma: {
        if (in.queue >= queues.size())
          fault(FaultKind::kDma, site, fmt::format("queue {} does not exist ({} queues)", in.queue,
                                                   queues.size()));
        const uint64_t di = uint32_t(in.imm + r[in.rd]);
        if (di >= prog->descriptors.size())
          fault(FaultKind::kDma, site, fmt::format("descriptor {} does not exist ({} descriptors)",
                                                   di, prog->descriptors.size()));
        Transfer t;
        t.desc = prog->descriptors[di];
        t.desc.src.address += r[in.rs1];
        t.desc.dst.address += r[in.rs2];
        t.desc_index = uint32_t(di);
        t.trigger = site;
        t.sync = in.sync;
        t.clock = clocks[si];
        t.ready = s.time + 1;
        queues[in.queue].pending.push_back(std::move(t));
        update_now = false;  // the transfer updates the semaphore when it completes
        break;
      }
      case Opcode::kAdd: set_rd(r[in.rs1] + b()); break;
      case Opcode::kSub: set_rd(r[in.rs1] - b()); break;
      case Opcode::kMul: set_rd(r[in.rs1] * b()); break;
      case Opcode::kAnd: set_rd(r[in.rs1] & b()); break;
      case Opcode::kOr: set_rd(r[in.rs1] | b()); break;
      case Opcode::kXor: set_rd(r[in.rs1] ^ b()); break;
      case Opcode::kShl: set_rd(r[in.rs1] << (b() & 31)); break;
      case Opcode::kShr: set_rd(r[in.rs1] >> (b() & 31)); break;
      case Opcode::kSra: set_rd(uint32_t(int32_t(r[in.rs1]) >> (b() & 31))); break;
      case Opcode::kSlt: set_rd(int32_t(r[in.rs1]) < int32_t(b()) ? 1 : 0); break;
      case Opcode::kSltu: set_rd(r[in.rs1] < b() ? 1 : 0); break;
      case Opcode::kMin: set_rd(uint32_t(std::min(int32_t(r[in.rs1]), int32_t(b())))); break;
      case Opcode::kMax: set_rd(uint32_t(std::max(int32_t(r[in.rs1]), int32_t(b())))); break;
      case Opcode::kBeq: if (r[in.rs1] == b()) next = in.target; break;
      case Opcode::kBne: if (r[in.rs1] != b()) next = in.target; break;
      case Opcode::kBlt: if (int32_t(r[in.rs1]) < int32_t(b())) next = in.target; break;
      case Opcode::kBge: if (int32_t(r[in.rs1]) >= int32_t(b())) next = in.target; break;
      case Opcode::kBltu: if (r[in.rs1] < b()) next = in.target; break;
      case Opcode::kBgeu: if (r[in.rs1] >= b()) next = in.target; break;
      case Opcode::kLdStat:
      case Opcode::kMatmul:
      case Opcode::kPeTranspose: cycles = exec_pe(s, site, in); break;
      case Opcode::kActivate: {
        uint64_t tail = 0;
        cycles = psum_shared(s.time, exec_act(s, site, in, tail), in);
        cycles = sbuf_shared(si, s.time, cycles, in, tail);
        break;
      }
      default: cycles = sbuf_shared(si, s.time, psum_shared(s.time, exec_dve(s, seq, site, in), in), in); break;
    }
    // A taken branch must land on an instruction: a target equal to the stream length is past
    // the end too (falling through there is the "no halt" fault of the next step).
    if (next != s.pc + 1 && next >= stream.size())
      fault(FaultKind::kPc, site, fmt::format("branch target {} is past the end of the {}-"
                                              "instruction stream", next, stream.size()));
    const uint64_t start = s.time;
    s.time += cycles;
    stats.seq[si].instructions++;
    stats.seq[si].busy_cycles += cycles;
    model.trace_.push_back({site.agent, s.pc, site.name, isa::sync_text(in.sync), start, s.time,
                            wait_start, wrote_rd ? in.rd : 0u, wrote_rd ? r[in.rd] : 0u, wait_start});
    // A sequencer's updates leave in program order: a LoadStationary's after the drain of the
    // matmul before it.
    s.done = std::max(s.done, s.time + std::exchange(pe_drain, 0));
    if (update_now) schedule_update(s.done, in.sync, clocks[si]);
    s.pc = next;
  }

  // Field values the encoding can hold but the machine does not define.
  void check_fields(const Site& site, const Instruction& in) const {
    auto bad = [&](const std::string& why) { fault(FaultKind::kIllegalInstruction, site, why); };
    if ((in.sync.wait && (in.sync.wait_sem >= isa::kNumSems || in.sync.wait_reg >= isa::kNumRegs)) ||
        (in.sync.update != isa::SemUpdate::kNone && in.sync.update_sem >= isa::kNumSems))
      bad("semaphore or register number out of range");
    const isa::OpcodeInfo* info = isa::opcode_info(uint8_t(in.op));
    if (info->format == isa::Format::kAct) {
      if (in.func >= uint32_t(act::kNumActFuncs)) bad(fmt::format("activation function code {} is undefined", in.func));
      if (in.reduce_cmd > 4) bad(fmt::format("reduce command code {} is undefined", in.reduce_cmd));
    }
    if (info->format == isa::Format::kDve &&
        (in.alu0 >= uint32_t(kNumDveAlus) || in.alu1 >= uint32_t(kNumDveAlus)))
      bad(fmt::format("vector ALU code {} is undefined", std::max(in.alu0, in.alu1)));
  }

  std::string blocked_report() const {
    std::string out;
    for (int i = 0; i < isa::kNumSeqs; ++i) {
      const SeqState& s = seqs[i];
      if (s.halted) continue;
      const Instruction& in = prog->streams[i][s.pc];
      out += fmt::format("\n  {} pc {} ({}) waits for $S[{}]>={}, which is {}",
                         isa::seq_name(Seq(i)), s.pc, isa::opcode_info(uint8_t(in.op))->mnemonic,
                         in.sync.wait_sem, wait_threshold(s, in.sync),
                         model.sems_[in.sync.wait_sem]);
    }
    return out;
  }

  RunStats run(const isa::Program& p) {
    prog = &p;
    queues.assign(size_t(cfg.dma_engines) * cfg.dma_queues, QueueState{});
    clocks.assign(agents(), Clock(agents(), 0));
    log.assign(agents(), {});
    for (int i = 0; i < isa::kNumSeqs; ++i) {
      seqs[i] = SeqState{};
      seqs[i].regs = model.opt_.regs[i];
      seqs[i].regs[0] = 0;
      seqs[i].halted = p.streams[i].empty();
      seqs[i].time = 0;  // its first instruction's fetch: HBM latency + kFetchStart
    }
    reset_fetch();
    hbm_port_free = 0;
    engine_free.assign(cfg.dma_engines, 0);
    pe_vectors.clear();
    sbuf_reads.clear();
    sbuf_writes.clear();
    while (true) {
      // The next agent to act: the earliest ready, ties to the lowest agent number.
      size_t best = SIZE_MAX;
      uint64_t best_time = UINT64_MAX;
      for (int i = 0; i < isa::kNumSeqs; ++i)
        if (!seqs[i].halted && !seqs[i].blocked && seqs[i].time < best_time) {
          best = size_t(i);
          best_time = seqs[i].time;
        }
      for (size_t q = 0; q < queues.size(); ++q) {
        if (queues[q].pending.empty()) continue;
        const uint64_t t = transfer_start(q);
        if (t < best_time) {
          best = isa::kNumSeqs + q;
          best_time = t;
        }
      }
      if (!updates.empty() && updates.top().time <= best_time) {
        const PendingUpdate u = updates.top();
        updates.pop();
        apply_update(u);
        continue;
      }
      if (best == SIZE_MAX) break;
      if (best < size_t(isa::kNumSeqs)) step(int(best));
      else run_transfer(best - isa::kNumSeqs);
    }
    std::vector<FaultSite> stuck;
    for (int i = 0; i < isa::kNumSeqs; ++i)
      if (!seqs[i].halted) stuck.push_back({isa::seq_name(Seq(i)), seqs[i].pc});
    if (!stuck.empty())
      throw CoreFault(FaultKind::kDeadlock,
                      "deadlock fault: no sequencer can make progress:" + blocked_report(),
                      std::move(stuck));
    for (int i = 0; i < isa::kNumSeqs; ++i) stats.seq[i].end_cycle = seqs[i].time;
    for (const TraceEvent& e : model.trace_) stats.cycles = std::max(stats.cycles, e.end);
    return stats;
  }
};

CoreModel::CoreModel(const CoreConfig& cfg, const CoreOptions& opt)
    : cfg_(cfg), opt_(opt), hbm_(opt.hbm_bytes), sbuf_("SBUF", cfg.partitions, cfg.sbuf_partition_bytes),
      psum_("PSUM", cfg.partitions, cfg.psum_banks * cfg.psum_bank_bytes) {}

CoreModel::~CoreModel() = default;

void CoreModel::note_hbm_write(uint64_t addr, uint32_t n) {
  if (opt_.log_hbm_writes) {
    HbmWrite w{addr, std::vector<uint8_t>(n), trace_.size()};
    hbm_.read(addr, w.bytes.data(), n);
    hbm_writes_.push_back(std::move(w));
  }
  if (!opt_.track_hbm_writers) return;
  if (hbm_writer_.size() != hbm_.size()) hbm_writer_.assign(hbm_.size(), 0);
  for (uint32_t i = 0; i < n; ++i) hbm_writer_[addr + i] = uint32_t(trace_.size()) + 1;
}

const TraceEvent* CoreModel::hbm_writer(uint64_t addr) const {
  if (addr >= hbm_writer_.size() || hbm_writer_[addr] == 0) return nullptr;
  return &trace_.at(hbm_writer_[addr] - 1);
}

uint32_t CoreModel::reg(isa::Seq s, uint32_t r) const {
  return impl_ ? impl_->seqs.at(size_t(s)).regs.at(r) : 0;
}

RunStats CoreModel::run(const isa::Program& program) {
  trace_.clear();
  hbm_writer_.clear();
  hbm_writes_.clear();
  sems_.fill(0);
  impl_ = std::make_unique<Impl>(*this);
  return impl_->run(program);
}

}  // namespace tern::core
