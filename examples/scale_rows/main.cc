// y = 2x + 1 over a 200 x 96 fp32 tensor, tiled over the config's partitions: built with the
// kernel API, run on a backend (golden, the default; rtl: the verilated core in the SystemC
// platform; cross: both, compared), checked against the host's arithmetic and written as a
// .npy file (`scale_rows OUT.npy [golden|rtl|cross]`). Exits 0 when every element matches.
// A program linking tern::rtl starts at sc_main, SystemC's entry point: SystemC's library holds
// main, which calls it.
#include <fmt/format.h>

#include <vector>
#include <exception>

#include "common/config.h"
#include "host/npy.h"
#include "host/values.h"
#include "kernel/kernel.h"
#include "runtime/device.h"
#include "runtime/rtl_backend.h"

using namespace tern;
using kernel::Index;

int sc_main(int argc, char** argv) {
  if (argc != 2 && argc != 3) {
    fmt::print(stderr, "usage: scale_rows OUT.npy [golden|rtl|cross]\n");
    return 2;
  }
  try {
    const Backend backend = argc == 3 ? parse_backend(argv[2]) : Backend::kGolden;
    const CoreConfig cfg = load_config(std::string(TERN_CONFIG_DIR) + "/tiny.yaml");
    constexpr uint32_t kRows = 200, kCols = 96;
    kernel::Kernel k(cfg, "scale_rows");
    const auto& x = k.input("x", kRows, kCols, Dtype::kFp32);
    const auto& y = k.output("y", kRows, kCols, Dtype::kFp32);
    auto io = k.sbuf_pool("io", 4);
    kernel::tile_loop(k, 0, kRows, cfg.partitions, [&](Index r0, uint32_t rows) {
      const kernel::Tile t = io.tile(rows, kCols, Dtype::kFp32, "t");
      k.dma_copy(k.all(t), kernel::window(x, r0, 0, rows, kCols));
      kernel::DveArgs a;
      a.alu0 = DveAlu::kMultiply;
      a.imm0 = 2.0f;
      a.alu1 = DveAlu::kAdd;
      a.imm1 = 1.0f;
      const kernel::Tile u = io.tile(rows, kCols, Dtype::kFp32, "u");
      k.tensor_scalar(k.all(u), k.all(t), a);
      k.dma_copy(kernel::window(y, r0, 0, rows, kCols), k.all(u));
    });
    const isa::Program program = k.finish();

    std::vector<float> x_values(size_t(kRows) * kCols);
    for (size_t i = 0; i < x_values.size(); ++i) x_values[i] = float(int(i % 97) - 48) / 8;
    DeviceOptions options;
    options.rtl = rtl_runner();
    const DeviceRun run =
        Device(cfg, backend, options).run(k, program, {{"x", host::encode_floats(Dtype::kFp32, x_values)}});
    const TensorBits& out = run.outputs.at("y");
    const std::vector<float> y_values = host::decode_floats(Dtype::kFp32, out);
    size_t wrong = 0;
    for (size_t i = 0; i < x_values.size(); ++i) wrong += y_values[i] != 2 * x_values[i] + 1;
    host::write_npy(argv[1], host::HostTensor{Dtype::kFp32, {kRows, kCols}, out});
    const std::string cycles = run.rtl ? fmt::format("{} RTL cycles", run.rtl->cycles)
                                       : fmt::format("{} cycles (estimated)", run.stats.cycles);
    fmt::print("scale_rows on {}, {}: {}, {} of {} elements wrong: {}\n", cfg.name, backend_name(backend),
               cycles, wrong, out.size(), wrong == 0 ? "PASS" : "FAIL");
    return wrong == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    fmt::print(stderr, "scale_rows: {}\n", e.what());
    return 1;
  }
}
