// Stopping a long analysis from outside: a deadline, or a flag another thread
// sets (the server's network thread, when the client has gone away). The
// history-aware analysis polls it once a ply of the principal variation and
// between its stages, and throws Interrupted. Portable: no thread is needed
// (WebAssembly without threads never sets the flag), and a default Interrupt
// never stops anything.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>

namespace fano {

class Interrupted : public std::runtime_error {
 public:
  enum class Reason { kCancelled, kDeadline };
  // budget_ms: the deadline's distance from the start, when known (0: not).
  explicit Interrupted(Reason reason, long long budget_ms = 0)
      : std::runtime_error(reason == Reason::kCancelled ? "the analysis was cancelled"
                           : budget_ms > 0 ? "the analysis went past its deadline of " +
                                                 std::to_string(budget_ms) + " ms"
                                           : "the analysis went past its deadline"),
        reason_(reason) {}
  Reason reason() const { return reason_; }

 private:
  Reason reason_;
};

class Interrupt {
 public:
  using Clock = std::chrono::steady_clock;

  Interrupt() = default;
  // Stop once `flag` is set (by any thread).
  static Interrupt when_set(std::shared_ptr<const std::atomic<bool>> flag) {
    Interrupt i;
    i.flag_ = std::move(flag);
    return i;
  }
  // Also stop at `deadline`.
  Interrupt& until(Clock::time_point deadline) {
    deadline_ = deadline;
    has_deadline_ = true;
    budget_ms_ = 0;
    return *this;
  }
  // Also stop `budget` from now (the error names it).
  Interrupt& within(std::chrono::milliseconds budget) {
    until(Clock::now() + budget);
    budget_ms_ = budget.count();
    return *this;
  }

  // Throws Interrupted when the flag is set or the deadline has passed.
  void poll() const {
    if (flag_ && flag_->load(std::memory_order_relaxed))
      throw Interrupted(Interrupted::Reason::kCancelled);
    if (has_deadline_ && Clock::now() >= deadline_)
      throw Interrupted(Interrupted::Reason::kDeadline, budget_ms_);
  }

 private:
  std::shared_ptr<const std::atomic<bool>> flag_;
  Clock::time_point deadline_{};
  bool has_deadline_ = false;
  long long budget_ms_ = 0;
};

}  // namespace fano
