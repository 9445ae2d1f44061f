#include "fp_blocks.h"

#include "Vtern_fp32_add.h"
#include "Vtern_fp32_arith.h"
#include "Vtern_fp_downconvert.h"
#include "Vtern_fp_mac.h"
#include "Vtern_fp_upconvert.h"
#include "Vtern_sr_rng.h"

namespace tern::tb {

Waves::Waves() = default;
Waves::~Waves() { close(); }

void Waves::dump(uint64_t time) {
  if (fst_) fst_->dump(time);
}

void Waves::close() {
  if (fst_) fst_->close();
  fst_.reset();
}

RtlFp::RtlFp()
    : add_(std::make_unique<Vtern_fp32_add>(ctx_.get(), "add")),
      arith_(std::make_unique<Vtern_fp32_arith>(ctx_.get(), "arith")),
      mac_(std::make_unique<Vtern_fp_mac>(ctx_.get(), "mac")),
      down_(std::make_unique<Vtern_fp_downconvert>(ctx_.get(), "down")),
      up_(std::make_unique<Vtern_fp_upconvert>(ctx_.get(), "up")) {}

RtlFp::~RtlFp() { close_trace(); }

void RtlFp::trace(Block block, const std::string& path) {
  switch (block) {  // Verilator traces one model per file
    case Block::kFp32Add: add_waves_.open(*add_, path); break;
    case Block::kFp32Arith: arith_waves_.open(*arith_, path); break;
    case Block::kMac: mac_waves_.open(*mac_, path); break;
    case Block::kDownConvert: down_waves_.open(*down_, path); break;
    case Block::kUpConvert: up_waves_.open(*up_, path); break;
  }
}

void RtlFp::close_trace() {
  add_waves_.close();
  arith_waves_.close();
  mac_waves_.close();
  down_waves_.close();
  up_waves_.close();
}

void RtlFp::tick() {
  ++time_;
  add_waves_.dump(time_);
  arith_waves_.dump(time_);
  mac_waves_.dump(time_);
  down_waves_.dump(time_);
  up_waves_.dump(time_);
}

uint32_t RtlFp::fp32_add(uint32_t a, uint32_t b) {
  add_->a_i = a;
  add_->b_i = b;
  add_->eval();
  tick();
  return add_->sum_o;
}

uint32_t RtlFp::arith(uint8_t op, uint32_t a, uint32_t b) {
  arith_->op_i = op;
  arith_->a_i = a;
  arith_->b_i = b;
  arith_->eval();
  tick();
  return arith_->result_o;
}

uint32_t RtlFp::mac_step(uint32_t acc, Dtype ta, uint32_t a, Dtype tb, uint32_t b) {
  mac_->acc_i = acc;
  mac_->a_dtype_i = static_cast<uint8_t>(ta);
  mac_->a_i = a;
  mac_->b_dtype_i = static_cast<uint8_t>(tb);
  mac_->b_i = b;
  mac_->eval();
  tick();
  if (!mac_->mac_ok_o) throw Error("tern_fp_mac flagged a non-MAC operand dtype");
  return mac_->acc_o;
}

uint32_t RtlFp::convert_from_fp32(Dtype to, uint32_t fp32, ConvertMode mode, uint32_t random) {
  down_->dtype_i = static_cast<uint8_t>(to);
  down_->fp32_i = fp32;
  down_->round_mode_i = mode.rounding == Rounding::kStochastic;
  down_->saturate_i = mode.saturate;
  down_->random_i = random;
  down_->eval();
  tick();
  if (!down_->dtype_ok_o) throw Error("tern_fp_downconvert flagged a non-float target dtype");
  return down_->bits_o;
}

uint32_t RtlFp::convert_to_fp32(Dtype from, uint32_t bits) {
  up_->dtype_i = static_cast<uint8_t>(from);
  up_->bits_i = bits;
  up_->eval();
  tick();
  if (!up_->dtype_ok_o) throw Error("tern_fp_upconvert flagged a non-float source dtype");
  return up_->fp32_o;
}

RtlSrRng::RtlSrRng(uint32_t lane)
    : rng_(std::make_unique<Vtern_sr_rng>(ctx_.get(), "rng")) {
  rng_->lane_i = lane;
  rng_->clk_i = 0;
  rng_->rst_ni = 0;
  rng_->eval();
  rng_->rst_ni = 1;
  rng_->eval();
}

RtlSrRng::~RtlSrRng() { waves_.close(); }

void RtlSrRng::trace(const std::string& path) { waves_.open(*rng_, path); }

void RtlSrRng::cycle() {
  waves_.dump(time_++);
  rng_->clk_i = 1;
  rng_->eval();
  waves_.dump(time_++);
  rng_->clk_i = 0;
  rng_->eval();
}

void RtlSrRng::seed(uint32_t seed) {
  rng_->seed_i = seed;
  rng_->seed_load_i = 1;
  rng_->draw_i = 0;
  cycle();
  rng_->seed_load_i = 0;
  // The seed's hash is a pipeline: clock until the state holds it.
  for (int i = 0; rng_->seeding_o; ++i) {
    if (i > 64) throw Error("tern_sr_rng: seeding_o still high 64 cycles after the load");
    cycle();
  }
}

uint32_t RtlSrRng::draw() {
  rng_->draw_i = 1;
  rng_->eval();
  const uint32_t value = rng_->random_o;
  cycle();
  rng_->draw_i = 0;
  return value;
}

}  // namespace tern::tb
