#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>

#include <algorithm>

#include "code_table.hpp"
#include "move_graph.hpp"

namespace fano {
namespace detail {

// Breadth-first search over symmetry classes. The reachable set is closed under
// the move-graph symmetries (the empty board is fixed by them and they commute
// with move generation), so canonicalising every child finds exactly the
// classes of the reachable positions.
//
// Each layer is expanded in parallel into per-thread batches (parents, their
// number of moves, and their children's canonical codes in move order); the
// children are then inserted into a concurrent hash set and the new ones form
// the next layer. The batches are kept to build the successor lists once every
// class has its index (its rank among the sorted codes).
namespace {

struct Batch {
  std::vector<std::uint64_t> parents;
  std::vector<std::uint8_t> degrees;
  std::vector<std::uint64_t> children;
};

}  // namespace

MoveGraph build_move_graph(const Rules& rules, const Symmetry& sym, const SolveOptions& options,
                           bool with_edges) {
  CodeTable table(1 << 16);
  table.insert(kEmptyBoard.code);
  std::vector<std::uint64_t> discovered{kEmptyBoard.code};
  std::vector<std::uint64_t> frontier{kEmptyBoard.code};
  std::vector<Batch> all_batches;
  for (int depth = 1; !frontier.empty(); ++depth) {
    tbb::enumerable_thread_specific<Batch> batches;
    tbb::parallel_for(tbb::blocked_range<size_t>(0, frontier.size(), 512),
                      [&](const tbb::blocked_range<size_t>& r) {
                        Batch& b = batches.local();
                        for (size_t i = r.begin(); i != r.end(); ++i) {
                          const State st{frontier[i]};
                          if (formed_lines(st)) continue;  // the game has ended here
                          const size_t before = b.children.size();
                          for_each_move(rules, st, [&](const Move&, State child) {
                            b.children.push_back(sym.canonical(child).code);
                          });
                          b.parents.push_back(st.code);
                          b.degrees.push_back(std::uint8_t(b.children.size() - before));
                        }
                      });
    size_t children = 0;
    for (const Batch& b : batches) children += b.children.size();
    table.reserve(discovered.size() + children);
    tbb::enumerable_thread_specific<std::vector<std::uint64_t>> fresh;
    for (const Batch& b : batches)
      tbb::parallel_for(tbb::blocked_range<size_t>(0, b.children.size(), 1 << 14),
                        [&](const tbb::blocked_range<size_t>& r) {
                          auto& out = fresh.local();
                          for (size_t i = r.begin(); i != r.end(); ++i)
                            if (table.insert(b.children[i])) out.push_back(b.children[i]);
                        });
    frontier.clear();
    // The frontier's order does not matter: classes are indexed by sorted code.
    for (auto& f : fresh) frontier.insert(frontier.end(), f.begin(), f.end());
    discovered.insert(discovered.end(), frontier.begin(), frontier.end());
    if (with_edges)
      for (Batch& b : batches) all_batches.push_back(std::move(b));
    if (options.progress && !frontier.empty())
      options.progress("enumerate: depth " + std::to_string(depth) + ", " +
                       std::to_string(discovered.size()) + " classes");
  }
  MoveGraph g;
  g.positions = std::move(discovered);
  tbb::parallel_sort(g.positions.begin(), g.positions.end());
  const size_t n = g.positions.size();
  if (!with_edges) return g;

  g.line_formed.resize(n);
  tbb::parallel_for(tbb::blocked_range<size_t>(0, n, 4096), [&](const auto& r) {
    for (size_t i = r.begin(); i != r.end(); ++i) {
      g.line_formed[i] = formed_lines(State{g.positions[i]}) != 0;
      table.value(table.find(g.positions[i])) = std::uint32_t(i);
    }
  });
  auto index_of = [&](std::uint64_t code) { return table.value(table.find(code)); };
  g.out_begin.assign(n + 1, 0);
  tbb::parallel_for(size_t(0), all_batches.size(), [&](size_t v) {
    const Batch& b = all_batches[v];
    for (size_t i = 0; i < b.parents.size(); ++i)
      g.out_begin[index_of(b.parents[i]) + 1] = b.degrees[i];
  });
  for (size_t i = 0; i < n; ++i) g.out_begin[i + 1] += g.out_begin[i];
  g.out_edges.resize(g.out_begin[n]);
  tbb::parallel_for(size_t(0), all_batches.size(), [&](size_t v) {
    const Batch& b = all_batches[v];
    for (size_t i = 0, c = 0; i < b.parents.size(); ++i) {
      std::uint32_t k = g.out_begin[index_of(b.parents[i])];
      for (unsigned d = 0; d < b.degrees[i]; ++d) g.out_edges[k++] = index_of(b.children[c++]);
    }
  });
  return g;
}

}  // namespace detail

std::vector<std::uint64_t> enumerate_reachable(const Rules& rules, const Symmetry& sym,
                                               const SolveOptions& options) {
  return detail::build_move_graph(rules, sym, options, false).positions;
}

}  // namespace fano
