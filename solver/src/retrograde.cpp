
#include <algorithm>
#include <array>
#include <atomic>
#include <cassert>
#include <chrono>
#include <limits>
#include <memory>
#include <stdexcept>

#include "codes_section.hpp"
#include "fano/buffer.hpp"
#include "fano/parallel.hpp"
#include "fano/solver.hpp"
#include "move_graph.hpp"

namespace fano {
namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

constexpr std::uint16_t kUnknown = std::numeric_limits<std::uint16_t>::max();

// Packed per-position state during the analysis: value in the top two bits,
// plies below; kUnknown while undetermined.
constexpr std::uint16_t pack(Value v, unsigned plies) {
  return std::uint16_t(unsigned(v) << 14 | plies);
}

// The predecessor lists: in_edges[in_begin[j] .. in_begin[j+1]) are the
// ids with a move to id j, in ascending order.
struct Predecessors {
  UninitVector<std::uint32_t> in_begin;
  UninitVector<std::uint32_t> in_edges;
};

// The counters and cursors below are hit at random: each pass asks for the
// entry kAhead moves on before it needs it.
constexpr std::uint32_t kAhead = 16;

// Predecessor lists by a counting sort over a few fixed chunks of sources:
// each chunk counts its moves per target, the counts become per-chunk
// write offsets (chunk after chunk within a row), and each chunk writes its
// sources in order. Every row comes out sorted by source, the same layout
// for any thread count, without an atomic counter per move.
Predecessors build_predecessors(const detail::MoveGraph& g) {
  const auto& out_begin = g.out_begin;
  const auto& out_edges = g.out_edges;
  const std::size_t n = out_begin.size() - 1;
  const std::size_t chunks = std::clamp<std::size_t>(std::size_t(par::max_concurrency()), 1, 8);
  const std::size_t per_chunk = (n + chunks - 1) / chunks;
  UninitVector<std::uint32_t> cursor(chunks *
                                     n);  // cursor[c * n + j]: chunk c's count, then offset
  par::parallel_for(std::size_t(0), chunks, [&](std::size_t c) {
    std::uint32_t* count = cursor.data() + c * n;
    std::fill(count, count + n, 0);
    const std::uint32_t first = out_begin[std::min(n, c * per_chunk)];
    const std::uint32_t end = out_begin[std::min(n, (c + 1) * per_chunk)];
    out_edges.for_each_stretch(first, end, [&](std::size_t, const std::uint32_t* e, std::size_t m) {
      for (std::size_t k = 0; k < m; ++k) {
        if (k + kAhead < m) __builtin_prefetch(count + e[k + kAhead]);
        ++count[e[k]];
      }
    });
  });
  Predecessors pred;
  auto& in_begin = pred.in_begin;
  in_begin.resize(n + 1);
  in_begin[0] = 0;
  for (std::size_t j = 0; j < n; ++j) {
    std::uint32_t offset = in_begin[j];
    for (std::size_t c = 0; c < chunks; ++c) {
      const std::uint32_t count = cursor[c * n + j];
      cursor[c * n + j] = offset;
      offset += count;
    }
    in_begin[j + 1] = offset;
  }
  auto& in_edges = pred.in_edges;
  in_edges.resize(in_begin[n]);
  par::parallel_for(std::size_t(0), chunks, [&](std::size_t c) {
    std::uint32_t* next_slot = cursor.data() + c * n;
    const std::uint32_t first = out_begin[std::min(n, c * per_chunk)];
    const std::uint32_t end = out_begin[std::min(n, (c + 1) * per_chunk)];
    std::size_t i = c * per_chunk;  // the source of move k (rows in order)
    out_edges.for_each_stretch(first, end,
                               [&](std::size_t k0, const std::uint32_t* e, std::size_t m) {
                                 for (std::size_t k = 0; k < m; ++k) {
                                   while (k0 + k >= out_begin[i + 1]) ++i;
                                   if (k + kAhead < m)
                                     __builtin_prefetch(next_slot + e[k + kAhead]);
                                   in_edges[next_slot[e[k]]++] = std::uint32_t(i);
                                 }
                               });
  });
  return pred;
}

// Work that needs only the classes (the table's codes section) runs beside
// the analysis's levels, which run on one thread (see Retrograde::run_levels),
// on whichever thread is free.
class BesideWork {
 public:
  BesideWork() = default;
  BesideWork(const BesideWork&) = delete;
  BesideWork& operator=(const BesideWork&) = delete;
  // Waits for that work on every way out of the caller's scope.
  ~BesideWork() {
    if (!joined_) try {
        group_.wait();
      } catch (...) {  // already unwinding from the analysis' own exception
      }
  }

  // Compresses the codes section from the search's deltas (freed once done).
  void encode_codes_section(const Variant& variant, std::size_t classes,
                            UninitVector<std::uint8_t>& deltas,
                            std::optional<CodesSection>& section) {
    group_.run([&variant, classes, &deltas, &section] {
      section = compress_codes_section(variant, classes, deltas);
    });
  }

  // The same, on the calling thread.
  static CodesSection compress_codes_section([[maybe_unused]] const Variant& variant,
                                             [[maybe_unused]] std::size_t classes,
                                             [[maybe_unused]] UninitVector<std::uint8_t>& deltas) {
#if FANO_HAVE_ZSTD
    CodesSection section = detail::codes_section_from_deltas(variant, classes, deltas);
    free_buffer(deltas);
    return section;
#else
    throw std::logic_error("encode_codes: this build has no table writer (no zstd)");
#endif
  }

  void join() { joined_ = true, group_.wait(); }

 private:
  par::task_group group_;
  bool joined_ = false;
};

constexpr std::uint16_t value_of(std::uint32_t word) { return std::uint16_t(word >> 16); }

// Retrograde analysis, one ply level at a time.
//
// Level 0 holds the ended games: a standing line is a win for the side to
// move, no legal move a loss. Processing level k, every predecessor of a
// loss-in-k becomes a win-in-(k+1) unless already decided (a win at an
// earlier level is shorter, so the first one found is the fastest); every
// predecessor of a win-in-k loses one undecided successor, and when none
// remain all its moves lead to opponent wins, the last of which was found
// at level k, so it is a loss-in-(k+1), the slowest possible. A position
// with a losing successor never reaches zero, so the two rules never
// conflict, and the order inside a level does not matter: the result is
// the same for any thread count, and for any numbering of the positions
// (the graph's ids come from a parallel search). Whatever is undecided at
// the end is a draw.
class Retrograde {
 public:
  Retrograde(const detail::MoveGraph& g, const Predecessors& pred)
      : g_(g),
        in_begin_(pred.in_begin),
        in_edges_(pred.in_edges),
        n_(g.out_begin.size() - 1),
        word_store_(n_),
        frontier_(n_),
        next_(n_) {}

  // Level 0: the ended games, and every position's count of undecided moves.
  void decide_ended_games() {
    const auto& out_begin = g_.out_begin;
    const auto& line_formed = g_.line_formed;
    par::parallel_for(par::blocked_range<size_t>(0, n_, 8192), [&](const auto& r) {
      std::vector<std::uint32_t> found;
      for (size_t i = r.begin(); i != r.end(); ++i) {
        const std::uint32_t deg = out_begin[i + 1] - out_begin[i];
        assert(deg < 0x10000);
        std::uint16_t p = kUnknown;
        if (line_formed[i])
          p = pack(Value::kWin, 0);
        else if (deg == 0)
          p = pack(Value::kLoss, 0);
        word(i).store(std::uint32_t(p) << 16 | deg, std::memory_order_relaxed);
        if (p != kUnknown) found.push_back(std::uint32_t(i));
      }
      append(found);
    });
    frontier_size_ = next_size_.exchange(0);
    frontier_.swap(next_);
  }

  // Levels 1, 2, ... until one decides nothing.
  void run_levels() {
    for (unsigned level = 0; frontier_size_ > 0; ++level) {
      const std::uint16_t win_next = pack(Value::kWin, level + 1);
      const std::uint16_t loss_next = pack(Value::kLoss, level + 1);
      // Levels run on one thread unless they are very large. The visits are
      // random atomic updates of words the other core wrote a moment ago, so
      // on the project's 2-core VM every parallel split tried was slower than
      // one thread (results/design-measurements.md). The other core meanwhile
      // does the work beside the analysis (see BesideWork).
      constexpr std::size_t kParallelLevel = std::size_t(1) << 17;
      if (frontier_size_ < kParallelLevel) {
        std::uint32_t* out = next_.data();  // the next level, written in place
        relax<false>(0, frontier_size_, win_next, loss_next, [&](std::uint32_t i) { *out++ = i; });
        next_size_.store(std::size_t(out - next_.data()), std::memory_order_relaxed);
      } else {
        par::parallel_for(par::blocked_range<size_t>(0, frontier_size_, 4096), [&](const auto& r) {
          std::vector<std::uint32_t> found;
          relax<true>(r.begin(), r.end(), win_next, loss_next,
                      [&](std::uint32_t i) { found.push_back(i); });
          append(found);
        });
      }
      // The next level's order does not matter (see above), so it is not sorted.
      frontier_size_ = next_size_.exchange(0);
      frontier_.swap(next_);
    }
    free_buffer(frontier_), free_buffer(next_);
  }

  // Back from ids to code order; whatever is still undecided is a draw.
  void outcomes_in_code_order(UninitVector<Outcome>& outcomes) {
    const auto& id_of = g_.id_of;
    outcomes.resize(n_);
    par::parallel_for(par::blocked_range<size_t>(0, n_, 4096), [&](const auto& r) {
      for (size_t i = r.begin(); i != r.end(); ++i) {
        if (i + kAhead < r.end()) __builtin_prefetch(word_store_.data() + id_of[i + kAhead]);
        const std::uint16_t p = value_of(word(id_of[i]).load(std::memory_order_relaxed));
        outcomes[i] = p == kUnknown ? Outcome{Value::kDraw, 0}
                                    : Outcome{Value(p >> 14), std::uint16_t(p & 0x3fff)};
      }
    });
  }

 private:
  par::atomic_ref<std::uint32_t> word(size_t i) {
    return par::atomic_ref<std::uint32_t>(word_store_[i]);
  }

  // Adds what a parallel chunk found to the next level with a single atomic
  // reservation.
  void append(const std::vector<std::uint32_t>& found) {
    if (found.empty()) return;
    const std::size_t at = next_size_.fetch_add(found.size(), std::memory_order_relaxed);
    std::copy(found.begin(), found.end(), next_.data() + at);
  }

  // Relaxes frontier[first, end), handing each position it decides to
  // `decided`. Shared: other threads relax the same level, so every
  // access is atomic; alone: plain loads and stores (no atomic_ref is
  // alive meanwhile).
  template <bool kShared, class Decided>
  void relax(std::size_t first, std::size_t end, std::uint16_t win_next, std::uint16_t loss_next,
             Decided&& decided) {
    const auto& in_begin = in_begin_;
    const auto& in_edges = in_edges_;
    const auto& frontier = frontier_;
    auto& word_store = word_store_;
    for (size_t f = first; f != end; ++f) {
      // Rows and predecessors are at random: ask for later ones early.
      if (f + 8 < end) __builtin_prefetch(in_begin.data() + frontier[f + 8]);
      if (f + 4 < end) {
        const std::uint32_t later = frontier[f + 4];
        __builtin_prefetch(in_edges.data() + in_begin[later]);
        __builtin_prefetch(word_store.data() + later);
      }
      const std::uint32_t j = frontier[f];
      const std::uint32_t wj = kShared ? word(j).load(std::memory_order_relaxed) : word_store[j];
      const bool child_lost = (value_of(wj) >> 14) == unsigned(Value::kLoss);
      for (std::uint32_t k = in_begin[j]; k < in_begin[j + 1]; ++k) {
        const std::uint32_t i = in_edges[k];
        if constexpr (kShared) {
          std::uint32_t w = word(i).load(std::memory_order_relaxed);
          if (value_of(w) != kUnknown) continue;
          if (child_lost) {
            // Fails only if another thread decided i or counted it down.
            while (!word(i).compare_exchange_weak(w, std::uint32_t(win_next) << 16 | (w & 0xffff),
                                                  std::memory_order_relaxed))
              if (value_of(w) != kUnknown) break;
            if (value_of(w) == kUnknown) decided(i);
          } else if ((word(i).fetch_sub(1, std::memory_order_relaxed) & 0xffff) == 1) {
            // The last undecided move: i has no losing successor, so no
            // thread can be deciding it as a win.
            word(i).store(std::uint32_t(loss_next) << 16, std::memory_order_relaxed);
            decided(i);
          }
        } else {
          std::uint32_t& w = word_store[i];
          if (value_of(w) != kUnknown) continue;
          if (child_lost) {
            w = std::uint32_t(win_next) << 16 | (w & 0xffff);
            decided(i);
          } else if ((w & 0xffff) == 1) {
            w = std::uint32_t(loss_next) << 16;
            decided(i);
          } else {
            --w;
          }
        }
      }
    }
  }

  const detail::MoveGraph& g_;
  const UninitVector<std::uint32_t>& in_begin_;
  const UninitVector<std::uint32_t>& in_edges_;
  const std::size_t n_;
  // One word per position: the packed value (see pack) above, the number of
  // undecided successors below (a degree is below 256), so a visit touches
  // one cache line and updates it with one atomic operation. The count never
  // goes below zero (each move is counted down at most once), so it never
  // borrows from the value. Left uninitialised by the constructor (no serial
  // memset): the parallel loop of decide_ended_games writes every entry
  // first, and all later accesses go through atomic_ref.
  UninitVector<std::uint32_t> word_store_;
  // Two frontier buffers; each parallel chunk appends what it found with a
  // single atomic reservation.
  UninitVector<std::uint32_t> frontier_, next_;
  std::atomic<std::size_t> next_size_{0};
  std::size_t frontier_size_ = 0;
};

// Statistics over all positions: a class counts as many times as it has members.
SolveStats solution_stats(const Variant& variant, const detail::MoveGraph& g,
                          const UninitVector<std::uint64_t>& pos,
                          const UninitVector<Outcome>& outcomes) {
  par::combinable<SolveStats> partial;
  par::parallel_for(par::blocked_range<size_t>(0, pos.size(), 4096), [&](const auto& r) {
    // Sums indexed by phase and value rather than chosen by branches: both
    // are coin flips from one class to the next.
    std::array<std::uint64_t, 2> by_phase{};  // movement, placement
    std::array<std::uint64_t, 3> by_value{};  // indexed by Value
    for (size_t i = r.begin(); i != r.end(); ++i) {
      const std::uint64_t w = g.orbit[g.id_of[i]];
      by_phase[State{pos[i]}.placement_phase(variant)] += w;
      by_value[std::size_t(outcomes[i].value)] += w;
    }
    SolveStats& s = partial.local();
    s.placement += by_phase[1], s.movement += by_phase[0];
    s.reachable += by_phase[0] + by_phase[1];
    s.win += by_value[std::size_t(Value::kWin)], s.loss += by_value[std::size_t(Value::kLoss)];
    s.draw += by_value[std::size_t(Value::kDraw)];
  });
  SolveStats stats = partial.combine([](SolveStats a, const SolveStats& b) {
    a.reachable += b.reachable, a.placement += b.placement, a.movement += b.movement;
    a.win += b.win, a.loss += b.loss, a.draw += b.draw;
    return a;
  });
  stats.canonical = pos.size();
  return stats;
}

}  // namespace

std::optional<std::size_t> Solution::index_of(std::uint64_t code) const {
  auto it = std::lower_bound(positions.begin(), positions.end(), code);
  if (it == positions.end() || *it != code) return std::nullopt;
  return std::size_t(it - positions.begin());
}

TablebaseCounts tablebase_counts(const Solution& s) {
  return {s.stats.reachable, s.stats.placement, s.stats.movement,
          s.stats.win,       s.stats.loss,      s.stats.draw};
}

Tablebase in_memory_tablebase(const Solution& s, const std::string& name) {
  return Tablebase::from_classes(s.variant, tablebase_counts(s), s.positions, s.outcomes, name);
}

std::optional<Outcome> Solution::lookup(State st) const {
  const Symmetry& sym = symmetry_of(variant);
  const auto i = index_of(sym.canonical(st).code);
  if (!i) return std::nullopt;
  return outcomes[*i];
}

Solution solve(const Variant& variant, const SolveOptions& options) {
  const int threads = options.threads > 0 ? options.threads : par::default_concurrency();
  par::task_arena arena(threads);
  Solution sol;
  sol.variant = variant;
  arena.execute([&] {
    // On one thread the codes section is compressed last, once the search's
    // and the analysis's arrays are gone: the task beside the levels would
    // only run at the join anyway, and there zstd's 3.5 MiB found the arena
    // fragmented and took a huge page more (results/cold-solve.md).
    UninitVector<std::uint8_t> deltas_last;
    {
      const Rules rules(variant);
      const Symmetry& sym = symmetry_of(variant);
      auto t0 = Clock::now();
      detail::MoveGraph g = detail::build_move_graph(rules, sym, options, true);
      sol.times.enumerate = seconds_since(t0);
      sol.positions = std::move(g.positions);
      const std::size_t n = sol.positions.size();
      if (options.progress)
        options.progress("enumerate: " + std::to_string(n) + " classes, " +
                         std::to_string(g.out_edges.size()) + " moves in " +
                         std::to_string(sol.times.enumerate) + " s");

      t0 = Clock::now();
      Predecessors pred = build_predecessors(g);
      free_buffer(g.out_edges);  // the analysis walks the predecessor lists only
      sol.times.graph = seconds_since(t0);
      if (options.progress)
        options.progress("graph: predecessor lists in " + std::to_string(sol.times.graph) + " s");

      BesideWork beside;
      t0 = Clock::now();
      Retrograde analysis(g, pred);
      analysis.decide_ended_games();
      free_buffer(g.out_begin), free_buffer(g.line_formed);  // read by the ended games only
      // The codes section needs only the classes: its compression (zstd's
      // level-6 tables take 3.5 MiB) runs on the other core beside the levels,
      // which run on one thread.
      if (options.encode_codes && threads > 1)
        beside.encode_codes_section(variant, n, g.code_deltas, sol.codes_section);
      else if (options.encode_codes)
        deltas_last = std::move(g.code_deltas);
      analysis.run_levels();
      free_buffer(pred.in_begin), free_buffer(pred.in_edges);
      analysis.outcomes_in_code_order(sol.outcomes);
      sol.times.retrograde = seconds_since(t0);

      beside.join();
      sol.stats = solution_stats(variant, g, sol.positions, sol.outcomes);
    }
    if (!deltas_last.empty())
      sol.codes_section =
          BesideWork::compress_codes_section(variant, sol.positions.size(), deltas_last);
  });
  return sol;
}

}  // namespace fano
