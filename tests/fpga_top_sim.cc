// The iCE40 top (fpga/tern_fpga_top.sv) in simulation, as the board runs it: reset, then the
// clock until a LED says pass or fail. Exits 0 when the self-checking GEMM passed, 1 when it
// failed (led_o names the word that differed), 2 when neither LED lit in time.
#include <cstdio>
#include <memory>

#include "Vtern_fpga_top.h"
#include "dut.h"
#include "verilated.h"

int main(int argc, char** argv) {
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->commandArgs(argc, argv);
  tern::tb::Dut<Vtern_fpga_top> top = std::make_unique<Vtern_fpga_top>(ctx.get());
  const auto tick = [&] {
    top->clk_i = 0;
    top->eval();
    top->clk_i = 1;
    top->eval();
  };
  top->rst_ni = 0;
  for (int i = 0; i < 4; ++i) tick();
  top->rst_ni = 1;
  constexpr int kMaxCycles = 100000;
  for (int cycle = 1; cycle <= kMaxCycles; ++cycle) {
    tick();
    if (!top->led_green_no) {
      std::printf("tern_fpga_top: pass after %d cycles (leds %02x)\n", cycle, unsigned(top->led_o));
      return 0;
    }
    if (!top->led_red_no) {
      std::printf("tern_fpga_top: FAIL after %d cycles at check word %u\n", cycle, unsigned(top->led_o));
      return 1;
    }
  }
  std::printf("tern_fpga_top: neither pass nor fail after %d cycles\n", kMaxCycles);
  return 2;
}
