#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>

#include <algorithm>
#include <iterator>

#include "fano/solver.hpp"

namespace fano {

// Breadth-first search over symmetry classes. The reachable set is closed under
// the move-graph symmetries (the empty board is fixed by them and they commute
// with move generation), so canonicalising every child finds exactly the
// classes of the reachable positions.
std::vector<std::uint64_t> enumerate_reachable(const Rules& rules, const Symmetry& sym,
                                               const SolveOptions& options) {
  std::vector<std::uint64_t> visited{kEmptyBoard.code};
  std::vector<std::uint64_t> frontier = visited;
  int depth = 0;
  while (!frontier.empty()) {
    tbb::enumerable_thread_specific<std::vector<std::uint64_t>> local;
    tbb::parallel_for(tbb::blocked_range<size_t>(0, frontier.size(), 2048),
                      [&](const tbb::blocked_range<size_t>& r) {
                        auto& out = local.local();
                        for (size_t i = r.begin(); i != r.end(); ++i) {
                          const State st{frontier[i]};
                          if (formed_lines(st)) continue;  // the game has ended here
                          for_each_move(rules, st, [&](const Move&, State child) {
                            out.push_back(sym.canonical(child).code);
                          });
                        }
                      });
    std::vector<std::uint64_t> next;
    for (auto& v : local) next.insert(next.end(), v.begin(), v.end());
    tbb::parallel_sort(next.begin(), next.end());
    next.erase(std::unique(next.begin(), next.end()), next.end());
    std::vector<std::uint64_t> fresh;
    fresh.reserve(next.size());
    std::set_difference(next.begin(), next.end(), visited.begin(), visited.end(),
                        std::back_inserter(fresh));
    std::vector<std::uint64_t> merged;
    merged.reserve(visited.size() + fresh.size());
    std::merge(visited.begin(), visited.end(), fresh.begin(), fresh.end(),
               std::back_inserter(merged));
    visited.swap(merged);
    frontier.swap(fresh);
    ++depth;
    if (options.progress && !frontier.empty())
      options.progress("enumerate: depth " + std::to_string(depth) + ", " +
                       std::to_string(visited.size()) + " classes");
  }
  return visited;
}

}  // namespace fano
