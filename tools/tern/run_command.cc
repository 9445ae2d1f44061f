#include "run_command.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <ostream>

#include "common/config.h"
#include "common/error.h"
#include "common/parse.h"
#include "cmdline.h"
#include "host/npy.h"
#include "isa/asm.h"
#include "isa/program_image.h"
#include "kernels/kernels.h"
#include "runtime/device.h"
#include "common/input.h"
#include "host/files.h"

namespace tern {
namespace {

// The nominal clock for FLOP/s figures (docs/performance.md).
constexpr double kNominalGhz = 1.0;

CoreConfig resolve_config(const std::string& name) { return load_config(host::config_path(name)); }

void print_golden(std::ostream& out, const DeviceRun& run) {
  fmt::print(out, "{:6} {:>12} {:>12} {:>12} {:>8}\n", "engine", "instructions", "busy cycles",
             "wait cycles", "busy %");
  for (int i = 0; i < isa::kNumSeqs; ++i) {
    const core::SeqStats& st = run.stats.seq[size_t(i)];
    fmt::print(out, "{:6} {:>12} {:>12} {:>12} {:>7.1f}%\n", isa::seq_name(isa::Seq(i)),
               st.instructions, st.busy_cycles, st.wait_cycles,
               run.stats.cycles ? 100.0 * double(st.busy_cycles) / double(run.stats.cycles) : 0.0);
  }
  fmt::print(out, "dma: {} transfers, {} bytes read, {} bytes written\n", run.stats.dma_transfers,
             run.stats.dma_bytes_read, run.stats.dma_bytes_written);
  fmt::print(out, "estimated cycles: {}\n", run.stats.cycles);
}

// The RTL's counters, and the profile summary: the busiest engine, the top stall causes, the
// PE array's utilisation and FLOP/s at the nominal clock. "active" is the CSR's BUSY_CYCLES (the
// sequencer not idle: executing, waiting or fetching); "executing" is the timeline's (its
// instructions from start to end).
void print_rtl(std::ostream& out, const DeviceRun& run, const CoreConfig& cfg, uint64_t pe_macs) {
  const RtlRunStats& r = *run.rtl;
  const double cyc = double(std::max<uint64_t>(r.cycles, 1));
  std::map<std::string, uint64_t> executing;
  for (const core::TraceEvent& e : run.trace) executing[e.agent] += e.end - e.start;
  fmt::print(out, "{:6} {:>12} {:>9} {:>11} {:>10} {:>11} {:>13}\n", "engine", "instructions",
             "active %", "executing %", "sem wait", "fetch wait", "port conflict");
  struct Stall {
    std::string what;
    uint64_t cycles;
  };
  std::vector<Stall> stalls;
  std::string busiest;
  for (int i = 0; i < isa::kNumSeqs; ++i) {
    const size_t s = size_t(i);
    const std::string name = isa::seq_name(isa::Seq(i));
    fmt::print(out, "{:6} {:>12} {:>8.1f}% {:>10.1f}% {:>10} {:>11} {:>13}\n", name, r.retired[s],
               100.0 * double(r.busy_cycles[s]) / cyc, 100.0 * double(executing[name]) / cyc,
               r.sem_wait_cycles[s], r.fetch_wait_cycles[s], r.conflict_cycles[s]);
    if (busiest.empty() || executing[name] > executing[busiest]) busiest = name;
    stalls.push_back({name + " semaphore wait", r.sem_wait_cycles[s]});
    stalls.push_back({name + " instruction fetch", r.fetch_wait_cycles[s]});
    stalls.push_back({name + " SBUF/PSUM port conflict", r.conflict_cycles[s]});
  }
  fmt::print(out, "dma: {} transfers, {} bytes read, {} bytes written, {} transactions "
             "outstanding at most\n", run.stats.dma_transfers, r.dma_bytes_read,
             r.dma_bytes_written, r.dma_outstanding_hwm);
  fmt::print(out, "simulated cycles: {}\n", r.cycles);
  fmt::print(out, "simulation speed: {:.0f} cycles/s ({:.2f} s wall)\n",
             double(r.cycles) / std::max(r.wall_seconds, 1e-9), r.wall_seconds);
  std::sort(stalls.begin(), stalls.end(), [](const Stall& a, const Stall& b) { return a.cycles > b.cycles; });
  std::string top;
  for (size_t i = 0; i < 3 && i < stalls.size() && stalls[i].cycles > 0; ++i)
    top += fmt::format("{}{} {:.1f}%", i ? ", " : "", stalls[i].what, 100.0 * double(stalls[i].cycles) / cyc);
  fmt::print(out, "profile: busiest engine {} ({:.1f}% executing); top stalls: {}\n", busiest,
             100.0 * double(executing[busiest]) / cyc, top.empty() ? "none" : top);
  const double util = double(pe_macs) / (double(cfg.pe_rows) * cfg.pe_cols * cyc);
  fmt::print(out, "profile: {} useful MACs, PE array utilisation {:.3f}, {:.2f} GFLOP/s at a "
             "nominal {:g} GHz\n", pe_macs, util, 2.0 * double(pe_macs) / cyc * kNominalGhz,
             kNominalGhz);
  if (r.lockstep_instructions || r.scoreboard_bytes)
    fmt::print(out, "cross: {} instructions in lock-step, {} HBM bytes scoreboarded\n",
               r.lockstep_instructions, r.scoreboard_bytes);
}

// tern run's options (CLI11: tools/cmdline/cmdline.h), parsed from args; false after --help.
struct RunArgs {
  std::string kernel, config = "tiny", shape, profile, trace, asm_path, bin_path, backend = "golden";
  std::string inputs, outputs;  // a program file's tensors: NAME=FILE.npy or FILE.npy, by commas
  uint32_t seed = 1;
  bool list = false;
  DeviceOptions opt;
};

bool parse_run_args(const std::vector<std::string>& args, RunArgs& a, std::ostream& out) {
  CLI::App app{"tern run: a reference kernel on a backend; checks its result, exits 1 on a "
               "mismatch", "tern run"};
  app.footer("On rtl and cross, each engine's row (the % columns are of the simulated cycles, the rest\n"
             "counts or cycles):\n"
             "  instructions   retired by its sequencer\n"
             "  active %       the sequencer not idle: executing, waiting or fetching (BUSY_CYCLES)\n"
             "  executing %    an instruction of it in its engine (the trace port's timeline)\n"
             "  sem wait       waiting on a semaphore (another engine's result not there yet)\n"
             "  fetch wait     waiting for instructions from HBM (an instruction-cache miss)\n"
             "  port conflict  its SBUF/PSUM access lost the port to another engine or a DMA");
  app.add_option("kernel", a.kernel, "the kernel (--list shows them), or a program file: "
                 "PROG.s or PROG.tbin with its tensor table (docs/isa.md \"Program files\")");
  app.add_flag("--list", a.list, "the kernels and their shapes");
  app.add_option("--config", a.config, "tiny, small, trn2 (configs/NAME.yaml) or a config file")
      ->capture_default_str();
  app.add_option("--shape", a.shape, "the kernel's sizes, K=V,... (default: scaled to the config)");
  cli::add_uint(app, "--seed", a.seed, "the inputs' seed");
  app.add_option("--backend", a.backend, "golden, rtl (the verilated core in the SystemC "
                 "platform) or cross (both, compared; see --check); rtl and cross run in tern-rtl")
      ->capture_default_str();
  app.add_option("--check", a.opt.check, "cross: end, transfer or lockstep")->capture_default_str();
  cli::add_uint(app, "--hbm-latency", a.opt.core.hbm_timing.latency,
                "HBM latency in cycles (the RTL platform's, and the golden model's estimate's)", 1, 100000);
  app.add_option("--profile", a.profile, "a Chrome/Perfetto trace JSON of the engines' timeline");
  app.add_option("--trace", a.trace, "FILE.fst: waveforms of the RTL run (rtl/cross); FILE.json: as --profile");
  app.add_option("--asm", a.asm_path, "write the program as assembly text");
  app.add_option("--bin", a.bin_path, "write the program's binary image");
  app.add_option("--inputs", a.inputs, "a program file's inputs: FILE.npy or NAME=FILE.npy, "
                 "comma-separated (unnamed ones in the tensor table's order)");
  app.add_option("--outputs", a.outputs, "where a program file's outputs go: FILE.npy or "
                 "NAME=FILE.npy, comma-separated (unnamed ones in the table's order)");
  if (!cli::parse_command(app, "tern run", args, out)) return false;
  if (!a.list && a.kernel.empty()) throw Error("tern run: which kernel? (tern run --list, tern run --help)");
  return true;
}

bool is_program_file(const std::string& arg) { return host::ends_with(arg, ".s") || host::ends_with(arg, ".tbin"); }

// `list` ("a.npy,y=b.npy") matched to the image's inputs or outputs: a named item to its
// tensor, the unnamed ones to the rest in table order. Every file and tensor at most once.
std::vector<std::pair<const isa::TensorEntry*, std::string>> bind_files(
    const isa::ProgramImage& image, const std::string& list, bool outputs, const std::string& option) {
  std::vector<const isa::TensorEntry*> free;
  for (const isa::TensorEntry& t : image.tensors)
    if (t.output == outputs) free.push_back(&t);
  std::vector<std::pair<const isa::TensorEntry*, std::string>> bound;
  std::vector<std::string> unnamed;
  for (size_t start = 0; !list.empty() && start <= list.size();) {
    const size_t comma = std::min(list.find(',', start), list.size());
    const std::string item = list.substr(start, comma - start);
    start = comma + 1;
    if (item.empty()) throw Error(fmt::format("{} {}: an empty item", option, list));
    const size_t eq = item.find('=');
    if (eq == std::string::npos) {
      unnamed.push_back(item);
      continue;
    }
    const std::string name = item.substr(0, eq);
    auto it = std::find_if(free.begin(), free.end(), [&](const isa::TensorEntry* t) { return t->name == name; });
    if (it == free.end()) {
      const isa::TensorEntry* t = image.find(name);
      throw Error(fmt::format("{} {}: {}", option, item,
                              !t ? fmt::format("the program has no tensor '{}'", name)
                                 : t->output != outputs ? fmt::format("'{}' is an {}", name, t->output ? "output" : "input")
                                                        : fmt::format("'{}' is given twice", name)));
    }
    bound.push_back({*it, item.substr(eq + 1)});
    free.erase(it);
  }
  if (unnamed.size() > free.size())
    throw Error(fmt::format("{}: {} unnamed file(s) for {} {} left in the table", option, unnamed.size(),
                            free.size(), outputs ? "outputs" : "inputs"));
  for (size_t i = 0; i < unnamed.size(); ++i) bound.push_back({free[i], unnamed[i]});
  return bound;
}

// An input file's tensor, checked against its table entry: dtype and shape (rows x cols, or
// a vector of cols when rows is 1).
TensorBits read_input_tensor(const isa::TensorEntry& t, const std::string& path) {
  const host::HostTensor h = host::read_npy(path);
  const bool shape_ok = h.shape == std::vector<uint64_t>{t.rows, t.cols} ||
                        (t.rows == 1 && h.shape == std::vector<uint64_t>{t.cols});
  if (h.dtype != t.dtype || !shape_ok) {
    std::string shape;
    for (uint64_t d : h.shape) shape += fmt::format("{}{}", shape.empty() ? "" : ", ", d);
    throw Error(fmt::format("{}: a {} array of shape ({}{}), and tensor '{}' is {} x {} {}", path,
                            dtype_name(h.dtype), shape, h.shape.size() == 1 ? "," : "", t.name,
                            t.rows, t.cols, dtype_name(t.dtype)));
  }
  return h.bits;
}

// `tern run PROG.s|PROG.tbin --inputs ... --outputs ...`: the program on the backend, its
// outputs to .npy files; no reference to check against, so the exit status is the run's.
int run_program_file(const RunArgs& a, const DeviceOptions& opt, const std::string& profile, std::ostream& out) {
  if (!a.shape.empty()) throw Error(fmt::format("--shape: {} is a program file, its shapes are its tensor table's", a.kernel));
  const isa::ProgramImage image = host::load_program_file(a.kernel);
  isa::check_image(image, a.kernel);
  if (!a.asm_path.empty()) host::write_text_file(a.asm_path, isa::disassemble_image(image));
  if (!a.bin_path.empty()) {
    const std::vector<uint8_t> bytes = isa::image_to_binary(image);
    host::write_text_file(a.bin_path, std::string(bytes.begin(), bytes.end()));
  }
  const auto in_files = bind_files(image, a.inputs, false, "--inputs");
  const auto out_files = bind_files(image, a.outputs, true, "--outputs");
  std::vector<std::string> sources{a.kernel};
  for (const auto& [t, path] : in_files) sources.push_back(path);
  for (const auto& [t, path] : out_files) check_output_path(path, fmt::format("--outputs {}", t->name), sources);
  std::map<std::string, TensorBits> inputs;
  for (const auto& [t, path] : in_files) inputs[t->name] = read_input_tensor(*t, path);
  for (const isa::TensorEntry& t : image.tensors)
    if (!t.output && !inputs.count(t.name))
      throw Error(fmt::format("{}: input '{}' ({} x {} {}) has no file (--inputs {}=FILE.npy)", a.kernel,
                              t.name, t.rows, t.cols, dtype_name(t.dtype), t.name));
  const CoreConfig cfg = resolve_config(a.config);
  const Backend backend = parse_backend(a.backend);
  const DeviceRun run = Device(cfg, backend, opt).run(image, inputs);
  for (const auto& [t, path] : out_files)
    host::write_npy(path, host::HostTensor{t->dtype, {t->rows, t->cols}, run.outputs.at(t->name)});
  if (!profile.empty())
    host::write_text_file(profile, trace_json(run.trace, image.name.empty() ? a.kernel : image.name,
                                        run.rtl ? "RTL cycles" : "estimated cycles"));
  fmt::print(out, "program {} ({} tensors) on {}, backend {}{}\n", a.kernel, image.tensors.size(), cfg.name,
             backend_name(backend), backend == Backend::kCross ? fmt::format(" (check {}: PASS)", opt.check) : "");
  if (run.rtl) print_rtl(out, run, cfg, image.macs);
  else print_golden(out, run);
  for (const auto& [t, path] : out_files) fmt::print(out, "output {} -> {}\n", t->name, path);
  return 0;
}

}  // namespace

int run_run_command(const std::vector<std::string>& args, std::ostream& out, RtlRunner rtl) {
  RunArgs a;
  if (!parse_run_args(args, a, out)) return 0;
  if (a.list) {
    const CoreConfig cfg = resolve_config("tiny");
    for (const auto& k : kernels::reference_kernels())
      fmt::print(out, "{:10} {} (tiny: {})\n", k.name, k.summary,
                 kernels::shape_text(k.default_shape(cfg)));
    return 0;
  }
  std::string waves, profile = a.profile;
  if (!a.trace.empty()) {
    if (host::ends_with(a.trace, ".fst")) waves = a.trace;
    else if (host::ends_with(a.trace, ".json")) profile = a.trace;
    else throw Error(fmt::format("--trace {}: give a .fst (waves) or .json (profile) file", a.trace));
  }
  const Backend backend = parse_backend(a.backend);
  DeviceOptions& opt = a.opt;
  const std::string &config = a.config, &shape = a.shape, &asm_path = a.asm_path, &bin_path = a.bin_path;
  const uint32_t seed = a.seed;
  if (opt.check != "end" && opt.check != "transfer" && opt.check != "lockstep")
    throw Error(fmt::format("--check {}: the depths are end, transfer and lockstep", opt.check));
  if (backend == Backend::kGolden && !waves.empty())
    throw Error("--trace FILE.fst: waveforms come from the RTL; add --backend rtl or cross");
  const std::vector<std::pair<std::string, std::string>> outputs = {
      {profile, "--profile"}, {waves, "--trace"}, {asm_path, "--asm"}, {bin_path, "--bin"}};
  for (const auto& [path, what] : outputs) {
    if (!path.empty()) check_output_path(path, what);
  }
  if (backend != Backend::kGolden && !rtl) exec_tern_rtl(args);
  opt.rtl = std::move(rtl);
  opt.waves = waves;
  if (is_program_file(a.kernel)) return run_program_file(a, opt, profile, out);
  if (!a.inputs.empty() || !a.outputs.empty())
    throw Error("--inputs and --outputs are a program file's (PROG.s or PROG.tbin); a reference kernel makes its own");

  const kernels::RefKernel& ref = kernels::find_kernel(a.kernel);
  const CoreConfig cfg = resolve_config(config);
  const kernels::Shape s = kernels::parse_shape(ref, shape, cfg);
  kernel::Kernel k(cfg, ref.name);
  ref.build(k, s);
  const isa::Program program = k.finish();
  // The files are self-describing: `tern run FILE` runs them again with inputs of its own.
  if (!asm_path.empty()) host::write_text_file(asm_path, isa::disassemble_image(k.image(program)));
  if (!bin_path.empty()) {
    const auto image = isa::image_to_binary(k.image(program));
    host::write_text_file(bin_path, std::string(image.begin(), image.end()));
  }
  const kernels::Tensors inputs = ref.inputs(s, seed);
  Device device(cfg, backend, opt);
  const DeviceRun run = device.run(k, program, inputs);
  if (!profile.empty())
    host::write_text_file(profile, trace_json(run.trace, ref.name,
                                        run.rtl ? "RTL cycles" : "estimated cycles"));
  const kernels::CheckResult check = ref.check(s, inputs, run.outputs);
  fmt::print(out, "kernel {} on {} ({}), seed {}, backend {}{}\n", ref.name, cfg.name,
             kernels::shape_text(s), seed, backend_name(backend),
             backend == Backend::kCross ? fmt::format(" (check {}: PASS)", opt.check) : "");
  if (run.rtl) {
    // Useful work is the program's: the golden model counts the matmuls' MACs.
    const DeviceRun golden = Device(cfg).run(k, program, inputs);
    print_rtl(out, run, cfg, golden.stats.pe_macs);
  } else {
    print_golden(out, run);
  }
  fmt::print(out, "check: {} elements, worst error {:.3f} of tolerance ({}): {}\n",
             check.elements, check.worst, ref.tolerance, check.ok() ? "PASS" : "FAIL");
  if (!check.ok()) fmt::print(out, "{} failures; first: {}\n", check.failures, check.first_failure);
  return check.ok() ? 0 : 1;
}

// `tern` itself carries no RTL (so lint and FPGA flows build it in seconds): the RTL backends
// run in tern-rtl, next to it, with the same arguments.
void exec_tern_rtl(const std::vector<std::string>& args) {
  const std::string path = host::executable_dir() + "/tern-rtl";
  std::vector<std::string> owned{path};
  owned.insert(owned.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : owned) argv.push_back(a.data());
  argv.push_back(nullptr);
  execv(path.c_str(), argv.data());
  throw Error(fmt::format("--backend rtl/cross runs in {}, which could not be started (is it "
                          "built? `make build` builds it)", path));
}

}  // namespace tern
