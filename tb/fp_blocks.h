// Drivers for the verilated numerics blocks of rtl/fp/: one call per transaction, with the same
// signature as the golden functions in model/numerics, so tests, the regression benches and
// `tern fp --backend rtl` all drive the RTL the same way.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include <verilated.h>
#include <verilated_fst_c.h>

#include "dut.h"
#include "owned_context.h"
#include "common/error.h"
#include "numerics/numerics.h"

class Vtern_fp32_add;
class Vtern_fp32_arith;
class Vtern_fp_mac;
class Vtern_fp_downconvert;
class Vtern_fp_upconvert;
class Vtern_sr_rng;
class Vtern_mac_lane;

namespace tern::tb {

// Waveform dumping for one verilated model; off unless a file name is given.
class Waves {
 public:
  Waves();
  ~Waves();
  Waves(const Waves&) = delete;
  Waves& operator=(const Waves&) = delete;
  template <typename Model>
  void open(Model& model, const std::string& path, int depth = 99) {
    model.contextp()->traceEverOn(true);
    fst_ = std::make_unique<VerilatedFstC>();
    model.trace(fst_.get(), depth);
    fst_->open(path.c_str());
    if (!fst_->isOpen()) throw Error("cannot open waveform file " + path);
  }
  void dump(uint64_t time);
  void close();
  bool enabled() const { return fst_ != nullptr; }

 private:
  std::unique_ptr<VerilatedFstC> fst_;
};

// Combinational blocks: each call sets the inputs, evaluates and returns the output.
class RtlFp {
 public:
  RtlFp();
  ~RtlFp();
  RtlFp(const RtlFp&) = delete;
  RtlFp& operator=(const RtlFp&) = delete;

  uint32_t fp32_add(uint32_t a, uint32_t b);
  uint32_t fp32_mul(uint32_t a, uint32_t b) { return arith(0, a, b); }
  uint32_t fp32_div(uint32_t a, uint32_t b) { return arith(1, a, b); }
  uint32_t fp32_sqrt(uint32_t a) { return arith(2, a, 0); }
  uint32_t mac_step(uint32_t acc, Dtype ta, uint32_t a, Dtype tb, uint32_t b);
  uint32_t convert_from_fp32(Dtype to, uint32_t fp32, ConvertMode mode, uint32_t random);
  uint32_t convert_to_fp32(Dtype from, uint32_t bits);

  enum class Block { kFp32Add, kFp32Arith, kMac, kDownConvert, kUpConvert };
  // FST waves of one block, one time step per call to it; off unless asked for.
  void trace(Block block, const std::string& path);
  void close_trace();

 private:
  void tick();
  uint32_t arith(uint8_t op, uint32_t a, uint32_t b);
  OwnedContext ctx_;
  Dut<Vtern_fp32_add> add_;
  Dut<Vtern_fp32_arith> arith_;
  Dut<Vtern_fp_mac> mac_;
  Dut<Vtern_fp_downconvert> down_;
  Dut<Vtern_fp_upconvert> up_;
  Waves add_waves_, arith_waves_, mac_waves_, down_waves_, up_waves_;
  uint64_t time_ = 0;
};

// The clocked SR generator of one lane.
class RtlSrRng {
 public:
  explicit RtlSrRng(uint32_t lane);
  void trace(const std::string& path);
  ~RtlSrRng();
  RtlSrRng(const RtlSrRng&) = delete;
  RtlSrRng& operator=(const RtlSrRng&) = delete;
  void seed(uint32_t seed);
  uint32_t draw();

 private:
  void cycle();
  OwnedContext ctx_;
  Dut<Vtern_sr_rng> rng_;
  Waves waves_;
  uint64_t time_ = 0;
};

}  // namespace tern::tb
