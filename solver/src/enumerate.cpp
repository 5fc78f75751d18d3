#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <stdexcept>

#include "code_table.hpp"
#include "fano/numbering.hpp"
#include "move_graph.hpp"
#include "radix_sort.hpp"

namespace fano {
namespace detail {

// Breadth-first search over symmetry classes. The reachable set is closed under
// the move-graph symmetries (the empty board is fixed by them and they commute
// with move generation), so canonicalising every child finds exactly the
// classes of the reachable positions.
//
// Each layer is expanded in parallel into per-thread batches (parents, their
// number of moves, and their children's canonical codes in move order); the
// children are then inserted into a concurrent hash set, and the new ones get
// ids (numbers in discovery order, stored in the table) after the layer, one
// thread-local list at a time: a shared counter bumped on every insertion
// would bounce between the cores. The new ones form the next layer. Ids depend
// on thread timing, so at the end every class is indexed instead by its rank
// among the sorted codes, and the successor lists are rewritten with ranks:
// the graph is the same for any thread count.
namespace {

// One per thread, kept across layers so that its buffers grow instead of being
// allocated (and faulted in) again for every layer; with edges it holds every
// layer this thread expanded, in order.
struct Batch {
  UninitVector<std::uint32_t> parents;  // ids
  UninitVector<std::uint8_t> degrees;
  UninitVector<std::uint64_t> children;  // codes, then ids once inserted
  std::size_t layer = 0;                 // children[layer..] belong to the current layer
};

}  // namespace

MoveGraph build_move_graph(const Rules& rules, const Symmetry& sym, const SolveOptions& options,
                           bool with_edges) {
  // 2^18 slots (3 MiB) hold the standard game (138,125 classes, a bound of
  // 231,272 keys in its largest layer) without a rehash; larger variants grow
  // between layers (see CodeTable::reserve).
  CodeTable table(1 << 18);
  bool inserted = false;
  UninitVector<std::uint64_t> code_of{kEmptyBoard.code};  // by id
  table.value(table.insert(kEmptyBoard.code, inserted)) = 0;
  UninitVector<std::uint32_t> frontier{0};
  tbb::enumerable_thread_specific<Batch> batches;
  tbb::enumerable_thread_specific<UninitVector<std::uint32_t>> fresh;  // new slots, per thread
  for (int depth = 1; !frontier.empty(); ++depth) {
    for (Batch& b : batches) {
      if (!with_edges) b.parents.clear(), b.degrees.clear(), b.children.clear();
      b.layer = b.children.size();
    }
    tbb::parallel_for(tbb::blocked_range<size_t>(0, frontier.size(), 512),
                      [&](const tbb::blocked_range<size_t>& r) {
                        Batch& b = batches.local();
                        for (size_t i = r.begin(); i != r.end(); ++i) {
                          const State st{code_of[frontier[i]]};
                          if (formed_lines(st)) continue;  // the game has ended here
                          const size_t before = b.children.size();
                          for_each_move(rules, st, [&](const Move&, State child) {
                            b.children.push_back(sym.canonical(child).code);
                          });
                          b.parents.push_back(frontier[i]);
                          b.degrees.push_back(std::uint8_t(b.children.size() - before));
                        }
                      });
    size_t children = 0;
    for (const Batch& b : batches) children += b.children.size() - b.layer;
    table.reserve(code_of.size() + children);
    // Insert: children hold table slots for now; new slots are listed per thread.
    for (auto& f : fresh) f.clear();
    for (Batch& b : batches)
      tbb::parallel_for(tbb::blocked_range<size_t>(b.layer, b.children.size(), 1 << 14),
                        [&](const tbb::blocked_range<size_t>& r) {
                          auto& out = fresh.local();
                          bool is_new = false;
                          for (size_t i = r.begin(); i != r.end(); ++i) {
                            const std::uint32_t slot = table.insert(b.children[i], is_new);
                            if (is_new) out.push_back(slot);
                            b.children[i] = slot;
                          }
                        });
    // Number the new classes list by list, then turn children's slots into ids.
    std::vector<std::pair<UninitVector<std::uint32_t>*, std::uint32_t>> lists;  // list, first id
    std::uint32_t next_id = std::uint32_t(code_of.size());
    for (auto& f : fresh) lists.emplace_back(&f, next_id), next_id += std::uint32_t(f.size());
    code_of.resize(next_id);
    tbb::parallel_for(size_t(0), lists.size(), [&](size_t l) {
      std::uint32_t id = lists[l].second;
      for (std::uint32_t& slot : *lists[l].first) {
        table.value(slot) = id;
        code_of[id] = table.key(slot);
        slot = id++;
      }
    });
    for (Batch& b : batches)
      tbb::parallel_for(tbb::blocked_range<size_t>(b.layer, b.children.size(), 1 << 14),
                        [&](const tbb::blocked_range<size_t>& r) {
                          for (size_t i = r.begin(); i != r.end(); ++i)
                            b.children[i] = table.value(std::uint32_t(b.children[i]));
                        });
    frontier.clear();
    for (auto& f : fresh) frontier.insert(frontier.end(), f.begin(), f.end());
    if (options.progress && !frontier.empty())
      options.progress("enumerate: depth " + std::to_string(depth) + ", " +
                       std::to_string(code_of.size()) + " classes");
  }
  // Sort (class number, id) packed in one word: the class number (below 2^39,
  // see numbering.hpp) orders like the code, and the id in the low bits gives
  // each class's rank without a lookup.
  const size_t n = code_of.size();
  constexpr int kIdBits = 24;
  if (n >= (size_t(1) << kIdBits)) throw std::length_error("too many classes to rank");
  const Numbering numbering(rules.stack_cap());
  UninitVector<std::uint64_t> keys(n);
  tbb::parallel_for(tbb::blocked_range<size_t>(0, n, 1 << 14), [&](const auto& r) {
    for (size_t id = r.begin(); id != r.end(); ++id)
      keys[id] = numbering.number(State{code_of[id]}) << kIdBits | id;
  });
  radix_sort(keys, kIdBits);
  MoveGraph g;
  g.positions.resize(n);
  UninitVector<std::uint32_t> rank(with_edges ? n : 0);  // rank[id]: index among sorted codes
  if (with_edges) g.line_formed.resize(n);
  tbb::parallel_for(tbb::blocked_range<size_t>(0, n, 1 << 14), [&](const auto& r) {
    for (size_t i = r.begin(); i != r.end(); ++i) {
      const std::uint32_t id = std::uint32_t(keys[i] & ((std::uint64_t(1) << kIdBits) - 1));
      g.positions[i] = code_of[id];
      if (!with_edges) continue;
      rank[id] = std::uint32_t(i);
      g.line_formed[i] = formed_lines(State{code_of[id]}) != 0;
    }
  });
  if (!with_edges) return g;
  std::vector<const Batch*> all_batches;
  for (const Batch& b : batches) all_batches.push_back(&b);
  g.out_begin.resize(n + 1);
  g.out_begin[0] = 0;  // every other entry is a parent's degree (an ended position's is 0)
  tbb::parallel_for(tbb::blocked_range<size_t>(0, n, 1 << 14), [&](const auto& r) {
    for (size_t i = r.begin(); i != r.end(); ++i)
      if (g.line_formed[i]) g.out_begin[i + 1] = 0;
  });
  tbb::parallel_for(size_t(0), all_batches.size(), [&](size_t v) {
    const Batch& b = *all_batches[v];
    for (size_t i = 0; i < b.parents.size(); ++i)
      g.out_begin[rank[b.parents[i]] + 1] = b.degrees[i];
  });
  for (size_t i = 0; i < n; ++i) g.out_begin[i + 1] += g.out_begin[i];
  g.out_edges.resize(g.out_begin[n]);
  tbb::parallel_for(size_t(0), all_batches.size(), [&](size_t v) {
    const Batch& b = *all_batches[v];
    for (size_t i = 0, c = 0; i < b.parents.size(); ++i) {
      std::uint32_t k = g.out_begin[rank[b.parents[i]]];
      for (unsigned d = 0; d < b.degrees[i]; ++d) g.out_edges[k++] = rank[b.children[c++]];
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
