// The workload suite (bench/workloads.yaml, docs/performance.md "Workloads"): real models'
// layers as reference-kernel runs, and the roofline figures of a run's record.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench_json.h"
#include "common/config.h"
#include "core/core_model.h"
#include "kernels/kernels.h"

namespace tern::bench {

struct Workload {
  std::string model, layer;  // e.g. "bert-base", "ffn_up"; square GEMMs: "square", "gemm"
  std::string kernel;        // a reference kernel (tern run --list)
  kernels::Shape shape;
  uint32_t m = 0, k = 0, n = 0;  // the GEMM's sizes; 0 for the other kernels
  std::string dtype;
};

// The suite's runs, each (kernel, shape) once in file order. Throws tern::Error naming the file
// and the place of a bad entry.
std::vector<Workload> load_workloads(const std::string& path);

// A run's record: the keys of workloads.json (`kernel`, `config`, `backend`, `M`, `K`, `N`,
// `dtype`, `cycles`, `golden_cycles`, `pe_utilization`, `hbm_utilization`, `roofline_fraction`
// and the bounds). The roofline bound is the larger of the compute time and the HBM time: every
// tensor of the kernel moved once (`tensor_bytes`) over the port's bytes per cycle. The HBM
// utilisation is the bytes the transfers did move on their HBM sides (re-reads included) over
// the port's bytes in the run's cycles. A GEMM's
// compute time is its useful MACs over the R x C array; another kernel's is its busiest
// engine's executing cycles in the golden estimate (the engines' bound for the work as the
// kernel issues it, not a bound over every way to write the kernel). `golden` is the golden
// run of the same program.
Record workload_record(const Workload& w, const CoreConfig& cfg, const std::string& backend,
                       uint64_t cycles, const core::RunStats& golden, uint64_t tensor_bytes,
                       uint32_t port_bytes_per_cycle);

}  // namespace tern::bench
