// A VerilatedContext that, when it goes, leaves the thread on Verilator's default context.
// Verilator 5.006 makes each new context the thread's context and never clears that pointer,
// and a model with scopes (every model built with --assert) erases them through the thread's
// context when it is destroyed: after another context had died first, that locked a freed
// mutex and hung. Every driver owns its context through this type.
#pragma once

#include <verilated.h>

#include <memory>

namespace tern::tb {

class OwnedContext {
 public:
  OwnedContext() : ctx_(std::make_unique<VerilatedContext>()) {}
  ~OwnedContext() {
    ctx_.reset();
    Verilated::threadContextp(Verilated::defaultContextp());
  }
  OwnedContext(const OwnedContext&) = delete;
  OwnedContext& operator=(const OwnedContext&) = delete;

  VerilatedContext* get() const { return ctx_.get(); }
  VerilatedContext* operator->() const { return ctx_.get(); }

 private:
  std::unique_ptr<VerilatedContext> ctx_;
};

}  // namespace tern::tb
