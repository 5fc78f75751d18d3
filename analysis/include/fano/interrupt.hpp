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

namespace fano {

class Interrupted : public std::runtime_error {
 public:
  enum class Reason { kCancelled, kDeadline };
  explicit Interrupted(Reason reason)
      : std::runtime_error(reason == Reason::kCancelled ? "the analysis was cancelled"
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
  // Stop once `flag` is set (by any thread; it must outlive every poll).
  static Interrupt when_set(std::shared_ptr<const std::atomic<bool>> flag) {
    Interrupt i;
    i.flag_ = std::move(flag);
    return i;
  }
  // Also stop at `deadline`.
  Interrupt& until(Clock::time_point deadline) {
    deadline_ = deadline;
    has_deadline_ = true;
    return *this;
  }

  // Throws Interrupted when the flag is set or the deadline has passed.
  void poll() const {
    if (flag_ && flag_->load(std::memory_order_relaxed))
      throw Interrupted(Interrupted::Reason::kCancelled);
    if (has_deadline_ && Clock::now() >= deadline_)
      throw Interrupted(Interrupted::Reason::kDeadline);
  }

 private:
  std::shared_ptr<const std::atomic<bool>> flag_;
  Clock::time_point deadline_{};
  bool has_deadline_ = false;
};

}  // namespace fano
