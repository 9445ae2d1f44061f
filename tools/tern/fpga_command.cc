#include "fpga_command.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <ostream>
#include <optional>
#include <random>

#include "common/config.h"
#include "common/error.h"
#include "common/parse.h"
#include "cmdline.h"
#include "pe/tensor_engine.h"
#include "psum/psum.h"
#include "common/input.h"
#include "host/files.h"

namespace tern {

namespace {

constexpr const char* kAbout = R"(Writes the SystemVerilog package tern_fpga_rom_pkg, the ROMs of fpga/tern_fpga_top.sv: a
bf16 GEMM (M = 2C, K = 4R, N = 5) on an R x C Tensor Engine slice with the config's PSUM
banks, and the PSUM words the golden model leaves (docs/fpga.md).)";

// ROM word layouts: defined here only, and written into the package as localparams
// (Cmd<Field>Lsb/W, Chk<Field>Lsb/W, EndBit) that fpga/tern_fpga_top.sv decodes with.
struct Field {
  const char* name;
  int lsb, width;
};
constexpr Field kCmdFields[] = {{"Op", 0, 2},  {"Dtype", 2, 4},   {"K", 6, 8},       {"M", 14, 8},
                                {"N", 22, 16}, {"Bank", 38, 4}, {"Offset", 42, 16}, {"Acc", 58, 1}};
constexpr Field kChkFields[] = {{"Value", 0, 32}, {"Addr", 32, 16}, {"Part", 48, 8}};
constexpr int kEndBit = 63;  // ends the command and check lists
constexpr uint64_t kEnd = uint64_t{1} << kEndBit;

// Values in the order of `fields`, each masked to its width.
template <size_t N>
uint64_t pack(const Field (&fields)[N], const uint64_t (&values)[N]) {
  uint64_t w = 0;
  for (size_t i = 0; i < N; ++i) w |= (values[i] & ((uint64_t{1} << fields[i].width) - 1)) << fields[i].lsb;
  return w;
}

template <size_t N>
std::string field_params(const char* prefix, const Field (&fields)[N]) {
  std::string text;
  for (const Field& f : fields) {
    text += fmt::format("  localparam int unsigned {0}{1}Lsb = {2};\n  localparam int unsigned {0}{1}W = {3};\n",
                        prefix, f.name, f.lsb, f.width);
  }
  return text;
}

uint64_t command_word(const PeCommand& c) {
  return pack(kCmdFields, {uint64_t(c.op), uint64_t(c.dtype), c.k, c.m, c.n, c.bank, c.offset, c.accumulate});
}

uint64_t check_word(uint32_t partition, uint32_t addr, uint32_t value) {
  return pack(kChkFields, {value, addr, partition});
}

// bf16 values of magnitude 1/8 .. 8 with random signs, and a zero now and then.
uint32_t random_bf16(std::mt19937& rng) {
  if (rng() % 16 == 0) return (rng() & 1) << 15;
  const uint32_t sign = rng() & 1, exp = 124 + rng() % 7, man = rng() & 0x7F;
  return sign << 15 | exp << 7 | man;
}

constexpr size_t kRomDepth = 256;  // the ROM index is 8 bits

// One ROM as a package function: word i of `words` (lanes of 32 bits, lane 0 lowest).
std::string rom_function(const std::string& name, const std::string& what,
                         const std::vector<std::vector<uint32_t>>& words, size_t lanes) {
  std::string text = fmt::format("  // {}\n  function automatic logic [{}:0] {}(logic [7:0] i);\n"
                                 "    unique case (i)\n", what, 32 * lanes - 1, name);
  for (size_t i = 0; i < words.size(); ++i) {
    std::string hex;
    for (size_t l = lanes; l-- > 0;) hex += fmt::format("{:08x}", words[i][l]);
    text += fmt::format("      8'd{}: {} = {}'h{};\n", i, name, 32 * lanes, hex);
  }
  text += fmt::format("      default: {} = '0;\n    endcase\n  endfunction\n\n", name);
  return text;
}

// A 64-bit word as two lanes.
std::vector<uint32_t> lanes64(uint64_t w) { return {uint32_t(w), uint32_t(w >> 32)}; }

struct Slice {
  CoreConfig cfg;
  uint32_t seed = 1;
  std::string out;
};

// `tern fpga rom` (CLI11); nullopt after --help, printed to out. R and C are read once the
// config is, since its array bounds them.
std::optional<Slice> parse_args(const std::vector<std::string>& args, std::ostream& out) {
  CLI::App app{"tern fpga: the iCE40 bitstream's self-checking GEMM ROMs", "tern fpga"};
  app.require_subcommand(1);
  CLI::App* rom = app.add_subcommand("rom", "the ROM package for an R x C slice");
  rom->footer(kAbout);
  std::string config, rows_text, cols_text;
  Slice s;
  rom->add_option("config", config, "the config (configs/fpga.yaml)")->required();
  rom->add_option("--rows", rows_text, "R, 1 .. the config's pe_rows")->required()->type_name("UINT");
  rom->add_option("--cols", cols_text, "C, 1 .. the config's pe_cols")->required()->type_name("UINT");
  rom->add_option_function<std::string>("--seed", [&s](const std::string& v) {
    s.seed = uint32_t(parse_uint(v, "tern fpga rom: --seed", 1, UINT32_MAX));
  }, "the operands' seed, 1 .. 2^32 - 1")->default_str("1")->type_name("UINT");
  rom->add_option("-o", s.out, "the package to write")->required()->type_name("FILE");
  if (!cli::parse_command(app, "tern fpga", args, out)) return std::nullopt;
  s.cfg = load_config(config);
  const uint32_t rows = uint32_t(parse_uint(rows_text, "tern fpga rom: --rows", 1, s.cfg.pe_rows));
  const uint32_t cols = uint32_t(parse_uint(cols_text, "tern fpga rom: --cols", 1, s.cfg.pe_cols));
  check_output_path(s.out, "tern fpga rom -o");
  s.cfg.pe_rows = rows;
  s.cfg.pe_cols = cols;
  s.cfg.partitions = cols;
  return s;
}

// The GEMM C[M][N] = sum_k A[m][k] * B[k][n] as the engine runs it: per M tile of C rows and
// K tile of R rows, a LoadStationary of A's tile and a MultiplyMoving of B's, accumulating
// in PSUM (partition m, word mt * N + n). Streams are in the order the engine takes them.
int write_roms(const Slice& s, std::ostream& out) {
  const uint32_t R = s.cfg.pe_rows, C = s.cfg.pe_cols, M = 2 * C, K = 4 * R, N = 5;
  if (2 * N > s.cfg.psum_bank_bytes / 4) throw Error("tern fpga rom: the config's PSUM bank is too small");
  std::mt19937 rng(s.seed);
  std::vector<std::vector<uint32_t>> a(M, std::vector<uint32_t>(K)), b(K, std::vector<uint32_t>(N));
  for (auto& row : a) for (auto& x : row) x = random_bf16(rng);
  for (auto& row : b) for (auto& x : row) x = random_bf16(rng);

  TensorEngine te(s.cfg);
  Psum psum(C, s.cfg.psum_banks, s.cfg.psum_bank_bytes / 4);
  std::vector<std::vector<uint32_t>> cmd, stat, mov, check;
  for (uint32_t mt = 0; mt < M / C; ++mt) {
    for (uint32_t kt = 0; kt < K / R; ++kt) {
      const PeCommand ls{PeOp::kLoadStationary, Dtype::kBf16, R, C};
      const PeCommand mm{PeOp::kMultiplyMoving, Dtype::kBf16, 0, 0, N, 0, mt * N, kt > 0};
      Tile st(R, std::vector<uint32_t>(C)), mv(R, std::vector<uint32_t>(N));
      for (uint32_t k = 0; k < R; ++k) {
        for (uint32_t m = 0; m < C; ++m) st[k][m] = a[mt * C + m][kt * R + k];
        for (uint32_t n = 0; n < N; ++n) mv[k][n] = b[kt * R + k][n];
      }
      if (te.load_stationary(ls, st) != PeError::kNone || te.multiply_moving(mm, mv, psum) != PeError::kNone) {
        throw Error("tern fpga rom: the golden engine rejected the GEMM's commands");
      }
      cmd.push_back(lanes64(command_word(ls)));
      cmd.push_back(lanes64(command_word(mm)));
      // One stream word per beat: lane k of a column or vector in bits 32k +: 32.
      for (uint32_t m = 0; m < C; ++m) {
        stat.emplace_back(R);
        for (uint32_t k = 0; k < R; ++k) stat.back()[k] = st[k][m];
      }
      for (uint32_t n = 0; n < N; ++n) {
        mov.emplace_back(R);
        for (uint32_t k = 0; k < R; ++k) mov.back()[k] = mv[k][n];
      }
    }
    for (uint32_t m = 0; m < C; ++m) {
      for (uint32_t n = 0; n < N; ++n) check.push_back(lanes64(check_word(m, mt * N + n, psum.read(m, mt * N + n))));
    }
  }
  cmd.push_back(lanes64(kEnd));
  check.push_back(lanes64(kEnd));
  if (std::max({cmd.size(), stat.size(), mov.size(), check.size()}) > kRomDepth) {
    throw Error(fmt::format("tern fpga rom: a {}x{} slice's GEMM needs more than {} ROM words", R, C, kRomDepth));
  }
  const std::string text =
      fmt::format("// Generated by `tern fpga rom` (tools/tern/fpga_command.cc): do not edit.\n"
                  "// A {0}x{1}x{2} bf16 GEMM on a {3}x{4} Tensor Engine slice, seed {5}.\n"
                  "package tern_fpga_rom_pkg;\n\n"
                  "  /* verilator lint_off UNUSEDPARAM */  // the slice's size and the ROM word layouts\n"
                  "  localparam int unsigned Rows = {3};\n  localparam int unsigned Cols = {4};\n"
                  "  localparam int unsigned EndBit = {6};\n",
                  M, K, N, R, C, s.seed, kEndBit) +
      field_params("Cmd", kCmdFields) + field_params("Chk", kChkFields) +
      "  /* verilator lint_on UNUSEDPARAM */\n\n" +
      rom_function("cmd_word", "commands (Cmd* fields); bit EndBit ends the list", cmd, 2) +
      rom_function("stat_word", "stationary stream, one column a word", stat, R) +
      rom_function("mov_word", "moving stream, one vector a word", mov, R) +
      rom_function("check_word", "PSUM words to check (Chk* fields); bit EndBit ends the list", check, 2) +
      "endpackage\n";
  host::write_text_file(s.out, text);
  out << fmt::format("tern fpga rom: {}x{} slice, GEMM {}x{}x{} bf16, {} commands, {} words checked, seed {} -> {}\n",
                     R, C, M, K, N, cmd.size() - 1, check.size() - 1, s.seed, s.out);
  return 0;
}

}  // namespace

int run_fpga_command(const std::vector<std::string>& args, std::ostream& out) {
  const std::optional<Slice> s = parse_args(args, out);
  return s ? write_roms(*s, out) : 0;
}

}  // namespace tern
