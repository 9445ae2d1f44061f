// The states of an RTL sequencer (rtl/core/tern_seq.sv), as its trace port shows them to the
// testbench and the profiler: one table (seq_state.cc), generated into tern_csr_pkg as the
// enum seq_state_e (SeqSt*), which tern_seq's state register has as its type.
#pragma once

#include <cstdint>
#include <vector>

namespace tern::core {

enum class SeqState : uint8_t {
  kIdle = 0,
  kFetch = 1,
  kFetchWait = 2,
  kWait = 4,
  kExec = 5,
  kMem = 6,
  kMemWait = 7,
  kEng = 8,
  kEngWait = 9,
  kDma = 10,
  kHalted = 11,
  kError = 12,
};

struct SeqStateInfo {
  SeqState state;
  const char* sv_name;  // tern_csr_pkg::SeqSt<sv_name>
  const char* meaning;
};
const std::vector<SeqStateInfo>& seq_state_table();

}  // namespace tern::core
