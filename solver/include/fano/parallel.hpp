// The parallel primitives of the solver layer, in one place: oneTBB's where
// the build has it (FANO_HAVE_TBB, a public definition of fano::solver), else
// the same calls run serially, in order, on the calling thread (the
// WebAssembly build, or -DFANO_WITH_TBB=OFF).
//
// Why this is sound: every parallel loop in the project writes disjoint
// slots or per-thread parts that are combined in a fixed order, and its
// results are the same for any thread count (the solver's tables are
// byte-identical on 1 and 2 threads, tested). A serial run is the 1-thread
// schedule, so it gives the same bytes.
#pragma once

#include <atomic>

#if FANO_HAVE_TBB
#include <tbb/blocked_range.h>
#include <tbb/combinable.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>
#include <tbb/parallel_sort.h>
#include <tbb/task_arena.h>
#include <tbb/task_group.h>
#else
#include <algorithm>
#include <cstddef>
#include <functional>
#include <utility>
#include <vector>
#endif

namespace fano::par {

// f(a...) as a function of its own, never inlined into its caller. A
// WebAssembly engine that first runs a quickly compiled function and swaps
// in its optimised code later (V8) swaps it in only at a call: a solve's
// loops inlined into one call of the solve would run unoptimised to the end
// (and the engine would optimise the whole solve meanwhile, for nothing),
// while called piece by piece they run optimised from the first pieces on.
template <class F, class... A>
[[gnu::noinline]] decltype(auto) call_apart(const F& f, const A&... a) {
  return f(a...);
}

// std::atomic_ref where the standard library has it. libc++ 14 (emscripten's)
// does not; a build without threads needs none, so there the same calls are
// plain loads and stores.
#if defined(__cpp_lib_atomic_ref)
template <class T>
using atomic_ref = std::atomic_ref<T>;
#elif !FANO_HAVE_TBB
template <class T>
class atomic_ref {
 public:
  explicit atomic_ref(T& ref) : ref_(ref) {}
  T load(std::memory_order = std::memory_order_seq_cst) const { return ref_; }
  void store(T v, std::memory_order = std::memory_order_seq_cst) const { ref_ = v; }
  T fetch_sub(T v, std::memory_order = std::memory_order_seq_cst) const {
    const T old = ref_;
    ref_ = T(old - v);
    return old;
  }
  bool compare_exchange_weak(T& expected, T desired,
                             std::memory_order = std::memory_order_seq_cst) const {
    if (ref_ != expected) {
      expected = ref_;
      return false;
    }
    ref_ = desired;
    return true;
  }

 private:
  T& ref_;
};
#else
#error "the parallel solver needs std::atomic_ref (C++20)"
#endif

#if FANO_HAVE_TBB

using tbb::blocked_range;
using tbb::combinable;
using tbb::enumerable_thread_specific;
using tbb::parallel_for;
using tbb::parallel_invoke;
using tbb::parallel_sort;
using tbb::task_arena;
using tbb::task_group;
// The number of threads a default arena runs (all cores).
inline int default_concurrency() { return tbb::info::default_concurrency(); }
// The number of threads of the arena the caller runs in.
inline int max_concurrency() { return tbb::this_task_arena::max_concurrency(); }

#else

// [begin, end), as tbb::blocked_range.
template <class T>
class blocked_range {
 public:
  blocked_range(T begin, T end, std::size_t grain = 1)
      : begin_(begin), end_(end), grain_(grain ? grain : 1) {}
  T begin() const { return begin_; }
  T end() const { return end_; }
  std::size_t size() const { return std::size_t(end_ - begin_); }
  bool empty() const { return !(begin_ < end_); }
  std::size_t grainsize() const { return grain_; }

 private:
  T begin_, end_;
  std::size_t grain_;
};

// The range in pieces of the grain size, in order, as one thread of TBB may
// see it.
template <class T, class F>
void parallel_for(const blocked_range<T>& range, const F& f) {
  for (T b = range.begin(); b < range.end();) {
    const T e =
        std::size_t(range.end() - b) > range.grainsize() ? T(b + range.grainsize()) : range.end();
    call_apart(f, blocked_range<T>(b, e, range.grainsize()));
    b = e;
  }
}
// f(i) for i = first .. last - 1, in order.
template <class Index, class F>
void parallel_for(Index first, Index last, const F& f) {
  for (Index i = first; i < last; ++i) call_apart(f, i);
}
template <class... F>
void parallel_invoke(const F&... f) {
  (f(), ...);
}
template <class It>
void parallel_sort(It first, It last) {
  std::sort(first, last);
}

// Runs its work on the calling thread; the thread count is ignored.
class task_arena {
 public:
  explicit task_arena(int = 1) {}
  template <class F>
  decltype(auto) execute(F&& f) {
    return std::forward<F>(f)();
  }
};

// run() does the work at once; wait() has nothing to wait for.
class task_group {
 public:
  template <class F>
  void run(F&& f) {
    std::forward<F>(f)();
  }
  void wait() {}
};

// One thread, so one copy, made on first use.
template <class T>
class enumerable_thread_specific {
 public:
  T& local() {
    if (copies_.empty()) copies_.emplace_back();
    return copies_.front();
  }
  auto begin() { return copies_.begin(); }
  auto end() { return copies_.end(); }
  auto begin() const { return copies_.begin(); }
  auto end() const { return copies_.end(); }
  void clear() { copies_.clear(); }

 private:
  std::vector<T> copies_;
};

template <class T>
class combinable {
 public:
  combinable() : make_([] { return T(); }) {}
  template <class Make>
  explicit combinable(Make make) : make_(std::move(make)) {}
  T& local() {
    if (copies_.empty()) copies_.push_back(make_());
    return copies_.front();
  }
  template <class F>
  T combine(F f) {
    if (copies_.empty()) return make_();
    T acc = copies_.front();
    for (std::size_t i = 1; i < copies_.size(); ++i) acc = f(acc, copies_[i]);
    return acc;
  }
  template <class F>
  void combine_each(F f) {
    for (T& t : copies_) f(t);
  }

 private:
  std::function<T()> make_;
  std::vector<T> copies_;
};

inline int default_concurrency() { return 1; }
inline int max_concurrency() { return 1; }

#endif

}  // namespace fano::par
