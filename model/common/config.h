// Core configuration: one YAML file per config (configs/*.yaml) is the single source of the
// sizes. The golden model, the testbenches and the RTL (through the generated SV package)
// all read it from here.
#pragma once

#include <cstdint>
#include <string>

namespace tern {

struct CoreConfig {
  std::string name;
  uint32_t partitions = 0;            // P: SBUF/PSUM partitions, one lane per partition
  uint32_t pe_rows = 0;               // R: systolic array rows (contraction), equals P
  uint32_t pe_cols = 0;               // C: systolic array columns
  uint32_t sbuf_partition_bytes = 0;  // S: SBUF bytes per partition
  uint32_t psum_banks = 0;            // PSUM accumulation banks per partition
  uint32_t psum_bank_bytes = 0;       // bytes per PSUM bank per partition
  uint32_t dma_engines = 0;
  uint32_t dma_queues = 0;            // in-order queues per DMA engine
  uint32_t axi_data_bits = 0;         // HBM AXI4 data width

  // Largest moving free size N: one PSUM bank of fp32.
  uint32_t moving_max_n() const { return psum_bank_bytes / 4; }
  // The bytes of one partition a DMA engine reads or writes in SBUF per cycle: one AXI beat, at
  // most the element port's 4 bytes per partition (the RTL's tern_pkg::sbuf_row_bytes).
  uint32_t sbuf_row_bytes() const {
    return axi_data_bits / 8 < 4 * partitions ? axi_data_bits / 8 : 4 * partitions;
  }
  // Each sequencer's instruction cache (tern_seq_axi, docs/core-rtl.md "Sequencers' AXI
  // side"), the one definition the golden estimate and the RTL (through the generated package's
  // FetchLines, FetchGroup and FetchAhead) read: `lines` direct-mapped lines, a power of two (64
  // on the 128-partition configs, 16 from 8 partitions, one on the FPGA prototype's); reads of
  // `group` instructions (a quarter of 16 lines); each request prefetches `ahead` groups (a
  // quarter of the lines, at least one).
  struct FetchCache {
    uint32_t lines, group, ahead;
  };
  FetchCache fetch_cache() const {
    const uint32_t lines = partitions >= 128 ? 64 : partitions >= 8 ? 16 : 1;
    const uint32_t group = lines >= 16 ? 4 : 1;
    return {lines, group, lines >= 8 * group ? lines / (4 * group) : 1};
  }
};

// Parses and validates YAML text. `source` names it in error messages ("file:line:col: reason").
CoreConfig parse_config(const std::string& yaml_text, const std::string& source);

// Reads and validates a config file; throws tern::Error with file, line and reason.
CoreConfig load_config(const std::string& path);

// The first size in which `a` and `b` differ, as "key = <a's>, not <b's>"; empty when every
// size is the same (the names are not compared).
std::string config_difference(const CoreConfig& a, const CoreConfig& b);

// The SystemVerilog package `tern_cfg_pkg` holding the config as localparams.
std::string config_sv_package(const CoreConfig& cfg);

}  // namespace tern
