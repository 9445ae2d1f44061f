// A verilated model owned by a testbench driver: a unique_ptr that, in a coverage build
// (`make coverage`, docs/verification.md "Coverage"), has the model's context write its
// coverage counters just before the model goes. Verilator keeps the counters inside the model
// and its context only points at them, so they cannot be read once the model is gone: every
// driver holds its models as Dut, and the context is written and emptied at the first of them
// to go (a context's other models are written then too, and their later counts are lost).
#pragma once

#include <verilated.h>

#include <memory>
#include <utility>

#ifdef TERN_COVERAGE
#include <unistd.h>
#include <verilated_cov.h>

#include <atomic>
#include <cstdlib>
#include <string>
#endif

namespace tern::tb {

// Writes `ctx`'s coverage counters to $TERN_COVERAGE_DIR/<pid>-<n>.dat and forgets them; does
// nothing unless the build verilated its models with --coverage and the variable is set.
inline void dump_coverage([[maybe_unused]] VerilatedContext* ctx) {
#ifdef TERN_COVERAGE
  static std::atomic<unsigned> files{0};
  const char* dir = std::getenv("TERN_COVERAGE_DIR");
  if (dir == nullptr || *dir == '\0') return;
  const std::string path = std::string(dir) + "/" + std::to_string(::getpid()) + "-" +
                           std::to_string(files++) + ".dat";
  ctx->coveragep()->write(path.c_str());
  ctx->coveragep()->clear();
#endif
}

template <class V>
class Dut {
 public:
  Dut() = default;
  // Implicit, as a unique_ptr's move is: `Dut<V> m = std::make_unique<V>(...)`.
  Dut(std::unique_ptr<V> m) : m_(std::move(m)) {}  // NOLINT(google-explicit-constructor)
  Dut(Dut&&) noexcept = default;
  Dut& operator=(Dut&& other) noexcept {
    reset();
    m_ = std::move(other.m_);
    return *this;
  }
  Dut(const Dut&) = delete;
  Dut& operator=(const Dut&) = delete;
  ~Dut() { reset(); }

  void reset() {
    if (!m_) return;
    dump_coverage(m_->contextp());
    m_.reset();
  }
  V* get() const { return m_.get(); }
  V* operator->() const { return m_.get(); }
  V& operator*() const { return *m_; }
  explicit operator bool() const { return m_ != nullptr; }

 private:
  std::unique_ptr<V> m_;
};

}  // namespace tern::tb
