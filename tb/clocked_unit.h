// One small verilated block with a clk_i/rst_ni pair, in its own VerilatedContext, reset on
// construction. Assertion failures are recorded rather than fatal, so a test can expect one
// (assertion_failed) or check there was none. Shared by the primitive and pipelined-unit tests.
#pragma once

#include <verilated.h>

#include "dut.h"
#include "owned_context.h"

#include <memory>

namespace tern::tb {

template <class Model>
class ClockedUnit {
 public:
  ClockedUnit() {
    ctx_->fatalOnError(false);
    m_ = std::make_unique<Model>(ctx_.get());
    m_->clk_i = 0;
    m_->rst_ni = 0;
    m_->eval();
    m_->rst_ni = 1;
    m_->eval();
  }
  ClockedUnit(const ClockedUnit&) = delete;
  ClockedUnit& operator=(const ClockedUnit&) = delete;

  Model& operator*() { return *m_; }
  Model* operator->() { return m_.get(); }
  // Inputs are set while the clock is low; the rising edge samples them (and the assertions).
  void tick() {
    m_->clk_i = 1;
    m_->eval();
    m_->clk_i = 0;
    m_->eval();
  }
  bool assertion_failed() const { return ctx_->gotError(); }

 private:
  OwnedContext ctx_;
  Dut<Model> m_;
};

}  // namespace tern::tb
