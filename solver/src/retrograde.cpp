
#include <algorithm>
#include <array>
#include <atomic>
#include <cassert>
#include <chrono>
#include <ctime>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>

#include "fano/buffer.hpp"
#include "fano/parallel.hpp"
#include "fano/solver.hpp"
#include "fano/stopwatch.hpp"
#include "move_graph.hpp"
#include "sections.hpp"
namespace fano {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::uint16_t kUnknown = std::numeric_limits<std::uint16_t>::max();

// Packed per-position state during the analysis: value in the top two bits,
// plies below; kUnknown while undetermined.
constexpr std::uint16_t pack(Value v, unsigned plies) {
  return std::uint16_t(unsigned(v) << 14 | plies);
}

// The predecessor lists: in_edges[in_begin[j] .. in_begin[j+1]) are the ids
// with a move to id j, in ascending order, then possibly copies of the id
// `classes` (one past the last; see Retrograde's sentinel) up to the end of a
// segment: no row crosses a segment of in_edges, so each row is one stretch.
struct Predecessors {
  UninitVector<std::uint32_t> in_begin;
  detail::EdgeArray in_edges;
};

// The counters and cursors below are hit at random: each pass asks for the
// entry kAhead moves on before it needs it.
constexpr std::uint32_t kAhead = 16;

// `a` if `pick`, else `b`, without a branch: for a choice that is a coin
// flip from one move to the next (GCC compiled a ?: there into a branch,
// mispredicted on half the moves: results/solve-memory.md).
inline std::size_t pick_without_branch(bool pick, std::size_t a, std::size_t b) {
  const std::size_t mask = std::size_t(0) - std::size_t(pick);
  return (a & mask) | (b & ~mask);
}

// The rows' places in in_edges, row after row: a row that would cross into
// the next segment starts there, and the rest of the segment (a gap, filled
// with the sentinel afterwards) is recorded.
struct RowLayout {
  std::size_t offset = 0;   // where the next row starts
  std::size_t counted = 0;  // the entries of the rows placed
  std::vector<std::pair<std::size_t, std::size_t>> gaps;

  // The start of the next row, of `row` entries.
  std::size_t place(std::uint32_t row) {
    using detail::EdgeArray;
    counted += row;
    if (row > EdgeArray::kSegment)
      throw std::length_error("a class with more predecessors than a segment holds");
    if ((offset & (EdgeArray::kSegment - 1)) + row > EdgeArray::kSegment) {
      const std::size_t next = (offset | (EdgeArray::kSegment - 1)) + 1;
      gaps.emplace_back(offset, next);
      offset = next;
    }
    if (offset + row > std::numeric_limits<std::uint32_t>::max())
      throw std::length_error("too many moves for the predecessor lists");
    const std::size_t start = offset;
    offset += row;
    return start;
  }
};

// Predecessor lists by a counting sort over a few fixed chunks of sources:
// each chunk counts its moves per target, the counts become per-chunk
// write offsets within the row (chunk after chunk), and each chunk writes its
// sources in order. Every row comes out sorted by source, the same layout
// for any thread count, without an atomic counter per move. The counts and
// offsets are 16-bit (a row fits a segment of 2^15 entries), half the memory
// of a chunk's cursor. For games up to kCountersUpTo classes (see
// build_predecessors).
Predecessors predecessors_by_sources(const detail::MoveGraph& g) {
  const auto& degree = g.degree;
  const auto& out_edges = g.out_edges;
  const std::size_t n = degree.size();
  const std::size_t chunks = std::clamp<std::size_t>(std::size_t(par::max_concurrency()), 1, 8);
  const std::size_t per_chunk = (n + chunks - 1) / chunks;
  // out_begin[c]: where chunk c's sources' successors start (the rows follow
  // the sources in id order, a row's length its degree).
  const auto moves_of = [&](std::size_t i) -> std::uint32_t {
    return degree[i] == detail::kLineStands ? 0 : degree[i];
  };
  std::vector<std::size_t> out_begin(chunks + 1, 0);
  par::parallel_for(std::size_t(0), chunks, [&](std::size_t c) {
    std::size_t moves = 0;
    for (std::size_t i = c * per_chunk, e = std::min(n, (c + 1) * per_chunk); i < e; ++i)
      moves += moves_of(i);
    out_begin[c + 1] = moves;
  });
  for (std::size_t c = 0; c < chunks; ++c) out_begin[c + 1] += out_begin[c];
  // cursor[c * n + j]: chunk c's count of moves to j, then its offset in j's row
  UninitVector<std::uint16_t> cursor(chunks * n);
  par::parallel_for(std::size_t(0), chunks, [&](std::size_t c) {
    std::uint16_t* count = cursor.data() + c * n;
    std::fill(count, count + n, 0);
    const std::size_t first = out_begin[c], end = out_begin[c + 1];
    out_edges.for_each_stretch(first, end, [&](std::size_t, const std::uint32_t* e, std::size_t m) {
      for (std::size_t k = 0; k < m; ++k) {
        if (k + kAhead < m) __builtin_prefetch(count + e[k + kAhead]);
        ++count[e[k]];
      }
    });
  });
  // Row starts (RowLayout), and each chunk's offset within its rows.
  Predecessors pred;
  auto& in_begin = pred.in_begin;
  in_begin.resize(n + 1);
  RowLayout layout;
  for (std::size_t j = 0; j < n; ++j) {
    std::uint32_t row = 0;
    for (std::size_t c = 0; c < chunks; ++c) row += cursor[c * n + j];
    in_begin[j] = std::uint32_t(layout.place(row));
    std::uint16_t at = 0;
    for (std::size_t c = 0; c < chunks; ++c) {
      const std::uint16_t count = cursor[c * n + j];
      cursor[c * n + j] = at;
      at = std::uint16_t(at + count);
    }
  }
  // A count above 2^16 - 1 would have wrapped and lost moves.
  if (layout.counted != out_edges.size())
    throw std::length_error("a class with more predecessors than a segment holds");
  const std::size_t offset = layout.offset;
  in_begin[n] = std::uint32_t(offset);
  auto& in_edges = pred.in_edges;
  in_edges.resize(offset);
  for (const auto& [first, end] : layout.gaps)
    for (std::size_t k = first; k < end; ++k) in_edges[k] = std::uint32_t(n);
  par::parallel_for(std::size_t(0), chunks, [&](std::size_t c) {
    std::uint16_t* next_slot = cursor.data() + c * n;
    const std::size_t first = out_begin[c], end = out_begin[c + 1];
    // The source of move k (rows in order), and its moves after k.
    std::size_t i = c * per_chunk;
    std::uint32_t left = i < n ? moves_of(i) : 0;
    out_edges.for_each_stretch(first, end, [&](std::size_t, const std::uint32_t* e, std::size_t m) {
      for (std::size_t k = 0; k < m; ++k) {
        while (left == 0) left = moves_of(++i);
        --left;
        if (k + kAhead < m) {
          __builtin_prefetch(next_slot + e[k + kAhead]);
          __builtin_prefetch(in_begin.data() + e[k + kAhead]);
        }
        in_edges[in_begin[e[k]] + next_slot[e[k]]++] = std::uint32_t(i);
      }
    });
  });
  return pred;
}

// Drops from the successor lists the moves into targets [lo, hi), keeping the
// others in order, and counts them off their sources' moves left (`left`,
// by id); the segments emptied at the end are freed. In place: each part of
// the sources (one per thread) closes up its own moves towards its first,
// then one thread moves each part's kept moves down behind the part before
// (a plain copy, a fraction of the pass). Nothing is allocated: a copy on 2
// threads into new segments, each old one freed once read, held no more
// memory but took six times as long as the whole drop on one thread (its
// frees gave pages back to the system while the other thread worked, and
// the new segments' pages were faulted in afresh: results/solve-memory.md).
void drop_moves_into(detail::EdgeArray& out_edges, UninitVector<std::uint8_t>& left,
                     std::uint32_t lo, std::uint32_t hi) {
  using detail::EdgeArray;
  const std::size_t moves = out_edges.size();
  if (moves == 0) return;
  const std::size_t n = left.size();
  const std::size_t parts = std::clamp<std::size_t>(std::size_t(par::max_concurrency()), 1, 8);
  const auto first_source = [&](std::size_t p) { return n * p / parts; };
  // Each part's first move, and then its moves kept.
  std::vector<std::size_t> begin(parts + 1, 0), kept(parts, 0);
  par::parallel_for(std::size_t(0), parts, [&](std::size_t p) {
    std::size_t m = 0;
    for (std::size_t i = first_source(p), e = first_source(p + 1); i < e; ++i) m += left[i];
    begin[p + 1] = m;
  });
  for (std::size_t p = 0; p < parts; ++p) begin[p + 1] += begin[p];
  if (begin[parts] != moves) throw std::logic_error("drop_moves_into: moves miscounted");
  const std::uint32_t span = hi - lo;
  par::parallel_for(std::size_t(0), parts, [&](std::size_t p) {
    const std::size_t first = begin[p], end = begin[p + 1];
    if (first == end) return;
    std::size_t to = first;
    std::uint32_t* out = out_edges.at(first);
    std::size_t i = first_source(p);
    std::uint32_t rest = left[i], kept_here = 0;  // source i's moves left to read, and kept
    out_edges.for_each_stretch(first, end, [&](std::size_t, const std::uint32_t* e, std::size_t m) {
      for (std::size_t k = 0; k < m; ++k) {
        while (rest == 0) left[i] = std::uint8_t(kept_here), kept_here = 0, rest = left[++i];
        --rest;
        // Without a branch on whether the move is kept (a coin flip): every
        // move is written at `to`, which it has read already (to <= k),
        // and only a kept one moves `to` on.
        const std::uint32_t t = e[k];
        const bool keep = t - lo >= span;
        *out = t;
        out += keep, kept_here += keep, to += keep;
        if ((to & (EdgeArray::kSegment - 1)) == 0 && to < end) out = out_edges.at(to);
      }
    });
    left[i] = std::uint8_t(kept_here);
    kept[p] = to - first;
  });
  // The parts' kept moves closed up, in order: each goes to or below where
  // it is, past the part before's, so a forward copy never overwrites what
  // it has still to read.
  std::size_t to = kept[0];
  for (std::size_t p = 1; p < parts; ++p) {
    for (std::size_t from = begin[p], end = begin[p] + kept[p]; from < end;) {
      const std::size_t count =
          std::min({end - from, EdgeArray::kSegment - (from & (EdgeArray::kSegment - 1)),
                    EdgeArray::kSegment - (to & (EdgeArray::kSegment - 1))});
      if (to != from) std::copy_n(out_edges.at(from), count, out_edges.at(to));
      from += count, to += count;
    }
  }
  out_edges.shrink(to);
}

// Predecessor lists by a counting sort split by target, in one range of
// targets or (target_ranges) several one after the other: for each, each part (one
// per thread) owns a share of the range, scans every move left and counts those into its share in
// in_begin itself; the counts become row ends; a second scan, the sources in descending order,
// writes each source at its target's row end moving down, so every row comes out sorted by source,
// the same layout for any thread count (and any number of ranges: the rows are laid out in target
// order either way). Then the moves into the range are dropped from the successor lists
// (drop_moves_into), so that the two lists together hold about 1 + 1 / kTargetRanges arrays of the
// moves rather than two (the largest moment of the largest solves: results/solve-memory.md). No
// counter array beside in_begin (the chunks of sources keep two bytes per class and chunk). A part
// passes over the moves into other parts without a branch (whether a move is its own is a coin
// flip: a branch on it made the 2-thread stage twice as long), through a counter past in_begin's
// end and a cell past in_edges' end of its own, a cache line from the other parts', and asks ahead
// only for its own targets' counters (asking for every move's made the first range's count, where
// half the moves are another range's, four times as long a move as the last's). Consumes the
// successor lists.
//
// How many ranges: each one more reads the moves left once more and drops
// them once more (on one thread), for 1 / ranges of the moves fewer alive.
// From 2^22 classes two (the mid readings of 5.8 to 7 M classes peaked in
// one range's two arrays of the moves), from 2^24 three (the largest
// reading peaked in two ranges' 1.5 arrays), below 2^22 one: the readings
// of 1 to 1.5 M classes peak elsewhere (results/solve-memory.md).
constexpr std::size_t kTwoRangesFrom = std::size_t(1) << 22;
constexpr std::size_t kThreeRangesFrom = std::size_t(1) << 24;

std::size_t target_ranges(std::size_t n, int forced) {
  if (forced > 0) return std::size_t(forced);
  return n >= kThreeRangesFrom ? 3 : n >= kTwoRangesFrom ? 2 : 1;
}

Predecessors predecessors_by_targets(detail::MoveGraph& g, std::size_t ranges) {
  using detail::EdgeArray;
  const auto& degree = g.degree;
  auto& out_edges = g.out_edges;
  const std::size_t n = degree.size();
  const std::size_t moves = out_edges.size();
  if (n >= std::numeric_limits<std::uint32_t>::max())
    throw std::length_error("too many classes for the predecessor lists");
  const std::size_t parts = std::clamp<std::size_t>(std::size_t(par::max_concurrency()), 1, 8);
  // Part p's counter and cell for other parts' moves: entry kApart * p
  // past the end.
  constexpr std::size_t kApart = 16;
  Predecessors pred;
  auto& in_begin = pred.in_begin;
  // The row starts before the moves left, which are freed first: in
  // WebAssembly the hole the moves left leave then joins the free memory
  // above them, where the analysis's words go (a memory never shrinks).
  in_begin.resize(n + 1 + kApart * parts);
  // By id, each source's moves still in the successor lists.
  UninitVector<std::uint8_t> left(n);
  par::parallel_for(par::blocked_range<std::size_t>(0, n, 1 << 16), [&](const auto& r) {
    for (std::size_t i = r.begin(); i != r.end(); ++i)
      left[i] = degree[i] == detail::kLineStands ? 0 : degree[i];
  });
  auto& in_edges = pred.in_edges;
  RowLayout layout;
  std::size_t gaps_filled = 0;
  const std::size_t per_range = (n + ranges - 1) / ranges;
  for (std::size_t range = 0; range < ranges; ++range) {
    const std::size_t lo = std::min(n, range * per_range), hi = std::min(n, lo + per_range);
    const std::size_t per_part = (hi - lo + parts - 1) / parts;
    const std::size_t left_moves = out_edges.size();
    const auto share = [&](std::size_t p) {
      const std::size_t first = std::min(hi, lo + p * per_part);
      return std::pair{std::uint32_t(first), std::uint32_t(std::min(hi, first + per_part) - first)};
    };
    par::parallel_for(std::size_t(0), parts, [&](std::size_t p) {
      // (copies: emscripten's clang 14 refuses a structured binding captured by a lambda)
      const std::uint32_t first = share(p).first, span = share(p).second;
      const std::size_t elsewhere = n + 1 + kApart * p;
      std::uint32_t* const count = in_begin.data();
      std::fill(count + first, count + first + span, 0);
      count[elsewhere] = 0;
      out_edges.for_each_stretch(
          0, left_moves, [&](std::size_t, const std::uint32_t* e, std::size_t m) {
            for (std::size_t k = 0; k < m; ++k) {
              // (another part's target: its own counter, in the cache)
              if (k + kAhead < m) {
                const std::uint32_t later = e[k + kAhead];
                __builtin_prefetch(count +
                                   pick_without_branch(later - first < span, later, elsewhere));
              }
              const std::uint32_t t = e[k];
              ++count[pick_without_branch(t - first < span, t, elsewhere)];
            }
          });
    });
    // Row ends (RowLayout: the rows' starts plus their lengths).
    for (std::size_t j = lo; j < hi; ++j) {
      const std::uint32_t row = in_begin[j];
      in_begin[j] = std::uint32_t(layout.place(row) + row);
    }
    const std::size_t offset = layout.offset;
    for (std::size_t p = 0; p < parts; ++p)
      in_begin[n + 1 + kApart * p] = std::uint32_t(offset + kApart * p);
    in_edges.resize(offset + kApart * parts);
    for (; gaps_filled < layout.gaps.size(); ++gaps_filled)
      for (std::size_t k = layout.gaps[gaps_filled].first; k < layout.gaps[gaps_filled].second; ++k)
        in_edges[k] = std::uint32_t(n);
    par::parallel_for(std::size_t(0), parts, [&](std::size_t p) {
      const auto [first, span] = share(p);
      const std::size_t elsewhere = n + 1 + kApart * p;
      std::uint32_t* const end = in_begin.data();
      // The moves from the last, segment by segment, their sources walked
      // down from the last id.
      std::size_t i = n;
      std::uint32_t rest = 0;  // source i's moves before the one at hand
      for (std::size_t stop = left_moves; stop > 0;) {
        const std::size_t start = (stop - 1) & ~(EdgeArray::kSegment - 1);
        const std::uint32_t* const e = out_edges.at(start);
        for (std::size_t k = stop - start; k-- > 0;) {
          while (rest == 0) rest = left[--i];
          --rest;
          if (k >= kAhead) {
            const std::uint32_t later = e[k - kAhead];
            __builtin_prefetch(end + pick_without_branch(later - first < span, later, elsewhere));
          }
          const std::uint32_t t = e[k];
          const bool mine = t - first < span;
          std::uint32_t& at = end[pick_without_branch(mine, t, elsewhere)];
          at -= std::uint32_t(mine);
          in_edges[at] = std::uint32_t(i);
        }
        stop = start;
      }
    });
    if (range + 1 < ranges) drop_moves_into(out_edges, left, std::uint32_t(lo), std::uint32_t(hi));
  }
  if (layout.counted != moves) throw std::logic_error("build_predecessors: moves miscounted");
  in_begin[n] = std::uint32_t(layout.offset);
  in_begin.resize(n + 1);
  free_buffer(out_edges);
  return pred;
}

// Up to this many classes the predecessor lists are built by chunks of
// sources with their counters (2 bytes a class and chunk): each thread reads
// its share of the moves only, where a part by targets reads them all, which
// made the standard game's stage slower on 2 threads (its counters sit in
// the caches, so reading the moves is most of the work:
// results/solve-memory.md). Above it the counters are memory the largest
// readings cannot spare, and their work is the random accesses. The two
// give the same lists.
constexpr std::size_t kCountersUpTo = std::size_t(1) << 20;

// Above this many classes the ranking runs before the predecessor lists
// (see solve).
constexpr std::size_t kRankFirstFrom = std::size_t(1) << 20;

// Frees the successor lists (by targets, as it goes; by sources, at the end).
Predecessors build_predecessors(detail::MoveGraph& g, int forced_ranges) {
  const std::size_t n = g.degree.size();
  if (n > kCountersUpTo || forced_ranges > 0)
    return predecessors_by_targets(g, target_ranges(n, forced_ranges));
  Predecessors pred = predecessors_by_sources(g);
  free_buffer(g.out_edges);
  return pred;
}

// The table's sections of a solution: the codes from the ranking's deltas
// (freed once compressed), and beside them on another thread (if any) the
// outcomes, the statistics first. The codes' zstd frame, the longer of the
// two, goes last: oneTBB runs parallel_invoke's last function on the
// calling thread at once and hands the others to a worker, which must
// steal them first, so the longer branch starts sooner (results/cold-solve.md).
void encode_sections([[maybe_unused]] Solution& sol,
                     [[maybe_unused]] UninitVector<std::uint8_t>& deltas,
                     [[maybe_unused]] const std::function<void()>& stats) {
#if FANO_HAVE_ZSTD
  if (sol.codes_section) {  // compressed beside the levels (see solve)
    par::parallel_invoke(stats, [&] {
      sol.outcomes_section = detail::outcomes_section_of_solution(sol.variant, sol.outcomes);
    });
    return;
  }
  par::parallel_invoke(
      [&] {
        stats();
        sol.outcomes_section = detail::outcomes_section_of_solution(sol.variant, sol.outcomes);
      },
      [&] {
        sol.codes_section =
            detail::codes_section_from_deltas(sol.variant, sol.outcomes.size(), deltas);
        free_buffer(deltas);
      });
#else
  throw std::logic_error("encode_sections: this build has no table writer (no zstd)");
#endif
}

// The codes section of the ranking's deltas of n classes (kept for
// decode_positions).
CodesSection codes_section_of([[maybe_unused]] const Solution& sol,
                              [[maybe_unused]] const detail::MoveGraph& g,
                              [[maybe_unused]] std::size_t n) {
#if FANO_HAVE_ZSTD
  return detail::codes_section_from_deltas(sol.variant, n, g.code_deltas);
#else
  throw std::logic_error("encode_sections: this build has no table writer (no zstd)");
#endif
}

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
  Retrograde(std::size_t classes, const Predecessors& pred)
      : in_begin_(pred.in_begin), in_edges_(pred.in_edges), n_(classes), word_store_(n_ + 1) {
    // The sentinel that pads the predecessor lists: decided, so it is skipped.
    word_store_[n_] = std::uint32_t(pack(Value::kWin, 0)) << 16;
  }

  // Level 0: the ended games, and every position's count of undecided moves,
  // from the degrees (a standing line marked in place of one; by id).
  // The level's list is in id order, and sized to it: the frontier buffers
  // grow with the levels instead of holding every class.
  void decide_ended_games(const UninitVector<std::uint8_t>& degree) {
    constexpr std::size_t kRange = 8192;
    const std::size_t ranges = (n_ + kRange - 1) / kRange;
    std::vector<std::size_t> at(ranges + 1, 0);  // each range's ended games, then offsets
    // Both passes without a branch on whether a game has ended: a line
    // stands at about half the classes, at random (results/cold-solve.md).
    constexpr std::uint16_t kWonNow = pack(Value::kWin, 0), kLostNow = pack(Value::kLoss, 0);
    par::parallel_for(std::size_t(0), ranges, [&](std::size_t c) {
      std::size_t ended = 0;
      for (size_t i = c * kRange, e = std::min(n_, i + kRange); i != e; ++i) {
        const bool line = degree[i] == detail::kLineStands;
        const std::uint32_t deg = line ? 0 : degree[i];
        const bool stuck = deg == 0;
        const std::uint16_t p = line ? kWonNow : stuck ? kLostNow : kUnknown;
        word(i).store(std::uint32_t(p) << 16 | deg, std::memory_order_relaxed);
        ended += line | stuck;
      }
      at[c + 1] = ended;
    });
    for (std::size_t c = 0; c < ranges; ++c) at[c + 1] += at[c];
    frontier_.resize(at[ranges]);
    par::parallel_for(std::size_t(0), ranges, [&](std::size_t c) {
      // Every id is written and kept where its game has ended; the range's
      // list is copied out once complete (a write past it would be the next
      // range's, which another thread may be writing).
      std::array<std::uint32_t, kRange> ids;
      std::size_t k = 0;
      for (size_t i = c * kRange, e = std::min(n_, i + kRange); i != e; ++i) {
        ids[k] = std::uint32_t(i);
        k += value_of(word(i).load(std::memory_order_relaxed)) != kUnknown;
      }
      std::copy_n(ids.begin(), k, frontier_.data() + at[c]);
    });
  }

  // Levels 1, 2, ... until one decides nothing.
  void run_levels(const std::function<void()>& check_stop) {
    for (unsigned level = 0; !frontier_.empty(); ++level) {
      if (check_stop) check_stop();
      const std::uint16_t win_next = pack(Value::kWin, level + 1);
      const std::uint16_t loss_next = pack(Value::kLoss, level + 1);
      // Levels run on one thread unless they are very large. The visits are
      // random atomic updates of words the other core wrote a moment ago, so
      // on the project's 2-core VM every parallel split tried was slower than
      // one thread (results/design-measurements.md). The table's codes
      // section is compressed after the levels, not beside them: zstd's 3.5
      // MiB next to the levels' arrays took a fifth huge page (see solve).
      constexpr std::size_t kParallelLevel = std::size_t(1) << 17;
      next_.clear();
      if (frontier_.size() < kParallelLevel) {
        relax<false>(0, frontier_.size(), win_next, loss_next,
                     [&](std::uint32_t i) { next_.push_back(i); });
      } else {
        std::mutex appending;
        par::parallel_for(par::blocked_range<size_t>(0, frontier_.size(), 4096),
                          [&](const auto& r) {
                            std::vector<std::uint32_t> found;
                            relax<true>(r.begin(), r.end(), win_next, loss_next,
                                        [&](std::uint32_t i) { found.push_back(i); });
                            const std::lock_guard lock(appending);
                            next_.insert(next_.end(), found.begin(), found.end());
                          });
      }
      // The next level's order does not matter (see above), so it is not sorted.
      frontier_.swap(next_);
    }
    free_buffer(frontier_), free_buffer(next_);
  }

  // Back from ids to code order; whatever is still undecided is a draw. The
  // last call: the words are freed.
  template <class Ids>
  void outcomes_in_code_order(const Ids& id_of, UninitVector<Outcome>& outcomes) {
    outcomes.resize(n_);
    par::parallel_for(par::blocked_range<size_t>(0, n_, 4096), [&](const auto& r) {
      for (size_t i = r.begin(); i != r.end(); ++i) {
        if (i + kAhead < r.end()) __builtin_prefetch(word_store_.data() + id_of[i + kAhead]);
        const std::uint16_t p = value_of(word(id_of[i]).load(std::memory_order_relaxed));
        outcomes[i] = p == kUnknown ? Outcome{Value::kDraw, 0}
                                    : Outcome{Value(p >> 14), std::uint16_t(p & 0x3fff)};
      }
    });
    // Done with: the positions are decoded next, into the memory this frees.
    free_buffer(word_store_);
  }

 private:
  par::atomic_ref<std::uint32_t> word(size_t i) {
    return par::atomic_ref<std::uint32_t>(word_store_[i]);
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
        if (in_begin[later + 1] > in_begin[later]) __builtin_prefetch(in_edges.at(in_begin[later]));
        __builtin_prefetch(word_store.data() + later);
      }
      const std::uint32_t j = frontier[f];
      const std::uint32_t wj = kShared ? word(j).load(std::memory_order_relaxed) : word_store[j];
      const bool child_lost = (value_of(wj) >> 14) == unsigned(Value::kLoss);
      const std::uint32_t row = in_begin[j + 1] - in_begin[j];
      const std::uint32_t* preds = row > 0 ? in_edges.at(in_begin[j]) : nullptr;
      for (std::uint32_t k = 0; k < row; ++k) {
        const std::uint32_t i = preds[k];
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

  const UninitVector<std::uint32_t>& in_begin_;
  const detail::EdgeArray& in_edges_;
  const std::size_t n_;
  // One word per position: the packed value (see pack) above, the number of
  // undecided successors below (a degree is below 256), so a visit touches
  // one cache line and updates it with one atomic operation. The count never
  // goes below zero (each move is counted down at most once), so it never
  // borrows from the value. Left uninitialised by the constructor (no serial
  // memset): the parallel loop of decide_ended_games writes every entry
  // first, and all later accesses go through atomic_ref.
  UninitVector<std::uint32_t> word_store_;
  // The level being relaxed and the next one (parallel chunks append what
  // they found under a lock).
  UninitVector<std::uint32_t> frontier_, next_;
};

// Statistics over all positions: a class counts as many times as it has
// members. The orbit sizes are computed here, in code order, rather than kept
// by id from the search: an array less alive through the analysis.
SolveStats solution_stats(const Variant& variant, const Symmetry& sym,
                          const UninitVector<std::uint64_t>& pos,
                          const UninitVector<Outcome>& outcomes) {
  par::combinable<SolveStats> partial;
  par::parallel_for(par::blocked_range<size_t>(0, pos.size(), 4096), [&](const auto& r) {
    // Sums indexed by phase and value rather than chosen by branches: both
    // are coin flips from one class to the next.
    std::array<std::uint64_t, 2> by_phase{};  // movement, placement
    std::array<std::uint64_t, 3> by_value{};  // indexed by Value
    for (size_t i = r.begin(); i != r.end(); ++i) {
      const State st{pos[i]};
      const std::uint64_t w = sym.orbit_size(st);
      by_phase[st.placement_phase(variant)] += w;
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

Tablebase in_memory_tablebase(Solution&& s, const std::string& name) {
  Tablebase tb = Tablebase::from_classes(s.variant, tablebase_counts(s), std::move(s.positions),
                                         s.outcomes, name);
  free_buffer(s.positions), free_buffer(s.outcomes);
  return tb;
}

std::optional<Outcome> Solution::lookup(State st) const {
  const Symmetry& sym = symmetry_of(variant);
  const auto i = index_of(sym.canonical(st).code);
  if (!i) return std::nullopt;
  return outcomes[*i];
}

// The stages run in the order that keeps the fewest arrays alive at once,
// so that a solve's buffers fit in few huge pages (results/cold-solve.md):
// the predecessor lists and the ended games while the successor lists are
// still there, the ranking once they are gone (beside the levels; for games
// above 2^20 classes before the predecessor lists, see solve), and the
// sections' compression (zstd's level-6 tables take 3.5 MiB) last, once only
// the classes and their outcomes remain: four huge pages for the standard
// game on any thread count. (Above 2^20 classes the codes section is
// compressed beside the levels instead, from the ranking's deltas.)
Solution solve(const Variant& variant, const SolveOptions& options) {
  const int threads = options.threads > 0 ? options.threads : par::default_concurrency();
  par::task_arena arena(threads);
  Solution sol;
  sol.variant = variant;
  arena.execute([&] {
    const Rules rules(variant);
    auto t0 = Clock::now();
    // Each step's wall and CPU seconds, from the end of the one before.
    auto step = t0;
    std::clock_t step_cpu = std::clock();
    const auto step_done = [&](StageTimes::Step& into) {
      const auto now = Clock::now();
      const std::clock_t cpu = std::clock();
      into.seconds = std::chrono::duration<double>(now - step).count();
      into.cpu_seconds = double(cpu - step_cpu) / CLOCKS_PER_SEC;
      step = now, step_cpu = cpu;
    };
    detail::MoveGraph g = detail::build_move_graph(rules, symmetry_of(variant), options, true);
    step_done(sol.times.search);
    sol.times.enumerate = seconds_since(t0);
    const std::size_t n = g.code_of.size();
    if (n > kRankFirstFrom && kFreedMemoryKept) {
      // The search's table and batches leave holes between the arrays it
      // made: those move down, the longest-lived first, so that the free
      // memory is one range above them for the stages after (in
      // WebAssembly: see kFreedMemoryKept).
      g.out_edges.lower(), lower_buffer(g.degree), g.code_of.lower();
    }
    if (options.check_stop) options.check_stop();
    if (options.progress)
      options.progress("enumerate: " + std::to_string(n) + " classes, " +
                       std::to_string(g.out_edges.size()) + " moves in " +
                       std::to_string(sol.times.enumerate) + " s");
    {
      t0 = step = Clock::now();
      step_cpu = std::clock();
      // Above 2^20 classes the ranking runs first, while only the codes by
      // id, the successor lists and the degrees are alive, and leaves the
      // classes as the codes section's deltas (1.5 bytes a class) and each
      // one's id in code order (4): the codes by id (8) are gone before the
      // predecessor lists and the levels, the largest solves' peaks after
      // the search (results/solve-memory.md). Below, the ranking runs beside
      // the levels, in their shadow, and decodes the codes there.
      const bool rank_first = n > kRankFirstFrom;
      // The stages after the search of a game that large give the pages of
      // the arrays they free back at once: the ranking's buckets, the
      // successor lists and the predecessor lists otherwise leave holes that
      // the next stage's arrays do not fill, and the process's peak was the
      // arena's high-water mark, a third above what was ever live at once.
      std::optional<BufferReleaseScope> releasing;
      if (rank_first) releasing.emplace();
      if (rank_first) detail::rank_classes(g, rules, detail::RankedIds::kCodesLater, true);
      step_done(sol.times.rank);
      if (rank_first && kFreedMemoryKept) {
        // What outlives the ranking moves down, the longest-lived first, so
        // that the predecessor lists' row starts find the free memory in one
        // range above it (in WebAssembly: see kFreedMemoryKept).
        g.ids_in_code_order.lower(), g.out_edges.lower();
        lower_buffer(g.code_deltas), lower_buffer(g.degree);
      }
      Predecessors pred = build_predecessors(g, options.predecessor_ranges);
      if (rank_first && kFreedMemoryKept) {
        // The same for the analysis's words and its first level.
        lower_buffer(g.code_deltas), g.ids_in_code_order.lower(), pred.in_edges.lower();
        lower_buffer(pred.in_begin), lower_buffer(g.degree);
      }
      step_done(sol.times.predecessors);
      Retrograde analysis(n, pred);
      analysis.decide_ended_games(g.degree);
      free_buffer(g.degree);
      step_done(sol.times.ended);
      sol.times.graph = seconds_since(t0);
      if (options.progress)
        options.progress("graph: predecessor lists in " + std::to_string(sol.times.graph) + " s");
      if (options.check_stop) options.check_stop();

      // The levels (by id, on one thread) and the ranking (parallel) need
      // nothing of each other: the ranking takes whatever threads the levels
      // leave.
      t0 = step = Clock::now();
      step_cpu = std::clock();
      if (rank_first) {
        // The codes section needs only the ranking's deltas, so it is
        // compressed beside the levels: they run on one thread unless a
        // level is very large, and zstd's frame is one thread's work too
        // (after the levels it was most of the last stage on 2 threads:
        // results/solve-memory.md). The levels go last: the calling thread
        // starts them at once, a worker takes the frame (see encode_sections).
        par::parallel_invoke(
            [&] {
              if (options.encode_sections) sol.codes_section = codes_section_of(sol, g, n);
            },
            [&] { analysis.run_levels(options.check_stop); });
      } else {
        par::parallel_invoke([&] { analysis.run_levels(options.check_stop); },
                             [&] {
                               detail::rank_classes(g, rules, detail::RankedIds::kById,
                                                    options.encode_sections);
                             });
      }
      free_buffer(pred.in_begin), free_buffer(pred.in_edges);
      step_done(sol.times.levels);
      if (rank_first)
        analysis.outcomes_in_code_order(g.ids_in_code_order, sol.outcomes);
      else
        analysis.outcomes_in_code_order(g.id_of, sol.outcomes);
      free_buffer(g.id_of), free_buffer(g.ids_in_code_order);
      // And for the positions, decoded next.
      if (rank_first && kFreedMemoryKept) lower_buffer(g.code_deltas), lower_buffer(sol.outcomes);
      if (rank_first) {
        detail::decode_positions(g, rules, n);
        free_buffer(g.code_deltas);  // compressed already, if asked for
      }
      step_done(sol.times.outcomes);
    }
    step = Clock::now(), step_cpu = std::clock();
    // What outlives the analysis moves down into the holes its arrays left,
    // so that zstd's tables find room above it.
    if (options.check_stop) options.check_stop();
    lower_buffer(g.positions), lower_buffer(g.code_deltas), lower_buffer(sol.outcomes);
    const auto stats = [&] {
      sol.stats = solution_stats(variant, symmetry_of(variant), g.positions, sol.outcomes);
    };
    if (options.encode_sections)
      encode_sections(sol, g.code_deltas, stats);
    else
      stats();
    step_done(sol.times.sections);
    sol.times.retrograde = seconds_since(t0);
    sol.positions = std::move(g.positions);
  });
  return sol;
}

}  // namespace fano
