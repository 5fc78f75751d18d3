#include "fano/perft.hpp"

#include <algorithm>
#include <unordered_set>
#include <utility>

#include "fano/parallel.hpp"

namespace fano {
namespace {

std::uint64_t add_saturating(std::uint64_t a, std::uint64_t b) {
  return a > kPathsOverflow - b ? kPathsOverflow : a + b;
}

// A layer: distinct positions, sorted, each with the number of move sequences reaching it.
using Counted = std::pair<std::uint64_t, std::uint64_t>;

std::vector<Counted> expand_counted(const Rules& rules, const std::vector<Counted>& layer,
                                    bool expand_ended) {
  par::enumerable_thread_specific<std::vector<Counted>> local;
  par::parallel_for(par::blocked_range<size_t>(0, layer.size(), 4096),
                    [&](const par::blocked_range<size_t>& r) {
                      auto& out = local.local();
                      for (size_t i = r.begin(); i != r.end(); ++i) {
                        const State st{layer[i].first};
                        if (!expand_ended && formed_lines(rules, st)) continue;
                        for_each_move(rules, st, [&](const Move&, State child) {
                          out.emplace_back(child.code, layer[i].second);
                        });
                      }
                    });
  std::vector<Counted> all;
  size_t total = 0;
  for (auto& v : local) total += v.size();
  all.reserve(total);
  for (auto& v : local) all.insert(all.end(), v.begin(), v.end());
  // Sorting by code and then count makes the merge independent of the thread split.
  par::parallel_sort(all.begin(), all.end());
  std::vector<Counted> next;
  for (const Counted& c : all) {
    if (!next.empty() && next.back().first == c.first)
      next.back().second = add_saturating(next.back().second, c.second);
    else
      next.push_back(c);
  }
  return next;
}

}  // namespace

PerftRow perft_root() { return PerftRow{0, 1, 0, 1, 1, 0, 0}; }

std::string_view perft_reading_name(PerftReading r) {
  switch (r) {
    case PerftReading::kExact:
      return "exact";
    case PerftReading::kCumulative:
      return "cumulative";
    case PerftReading::kWithin:
      return "within";
    case PerftReading::kPaths:
      return "paths";
  }
  return "?";
}

std::optional<PerftReading> parse_perft_reading(std::string_view word) {
  for (PerftReading r : {PerftReading::kExact, PerftReading::kCumulative, PerftReading::kWithin,
                         PerftReading::kPaths})
    if (word == perft_reading_name(r)) return r;
  return std::nullopt;
}

std::uint64_t perft_count(const PerftRow& row, PerftReading r) {
  switch (r) {
    case PerftReading::kExact:
      return row.positions;
    case PerftReading::kCumulative:
      return row.cumulative;
    case PerftReading::kWithin:
      return row.within;
    case PerftReading::kPaths:
      return row.paths;
  }
  return 0;
}

std::vector<std::uint64_t> expand_layer(const Rules& rules, const std::vector<std::uint64_t>& layer,
                                        bool expand_ended) {
  par::enumerable_thread_specific<std::vector<std::uint64_t>> local;
  par::parallel_for(
      par::blocked_range<size_t>(0, layer.size(), 4096), [&](const par::blocked_range<size_t>& r) {
        auto& out = local.local();
        for (size_t i = r.begin(); i != r.end(); ++i) {
          const State st{layer[i]};
          if (!expand_ended && formed_lines(rules, st)) continue;
          for_each_move(rules, st, [&](const Move&, State child) { out.push_back(child.code); });
        }
      });
  std::vector<std::uint64_t> next;
  size_t total = 0;
  for (auto& v : local) total += v.size();
  next.reserve(total);
  for (auto& v : local) next.insert(next.end(), v.begin(), v.end());
  par::parallel_sort(next.begin(), next.end());
  next.erase(std::unique(next.begin(), next.end()), next.end());
  return next;
}

std::vector<PerftRow> perft(const Rules& rules, int max_depth, bool expand_ended,
                            const std::function<void(const PerftRow&)>& on_row) {
  std::vector<PerftRow> rows;
  std::vector<Counted> layer{{kEmptyBoard.code, 1}};
  std::vector<std::uint64_t> seen{kEmptyBoard.code};  // every position so far, sorted
  std::uint64_t cumulative = 0;
  for (int d = 1; d <= max_depth; ++d) {
    layer = expand_counted(rules, layer, expand_ended);
    PerftRow row{d, layer.size(), cumulative += layer.size()};
    std::vector<std::uint64_t> codes(layer.size());
    for (size_t i = 0; i < layer.size(); ++i) {
      codes[i] = layer[i].first;
      row.paths = add_saturating(row.paths, layer[i].second);
      if (game_over(rules, State{layer[i].first}) != GameOver::kNone) {
        ++row.ended_positions;
        row.ended_paths = add_saturating(row.ended_paths, layer[i].second);
      }
    }
    std::vector<std::uint64_t> merged;
    merged.reserve(seen.size() + codes.size());
    std::set_union(seen.begin(), seen.end(), codes.begin(), codes.end(),
                   std::back_inserter(merged));
    seen.swap(merged);
    row.within = seen.size();
    rows.push_back(row);
    if (on_row) on_row(rows.back());
  }
  return rows;
}

std::vector<std::uint64_t> dfs_visited_counts(const Rules& rules, int max_depth,
                                              bool expand_ended) {
  std::vector<std::uint64_t> out;
  std::unordered_set<std::uint64_t> visited;
  for (int n = 1; n <= max_depth; ++n) {
    visited.clear();
    visited.reserve(4u << 20);
    visited.insert(kEmptyBoard.code);
    std::uint64_t count = 0;
    const auto dfs = [&](auto&& self, State st, int depth) -> void {
      if (depth == n || (!expand_ended && formed_lines(rules, st))) return;
      std::vector<State> children;
      for_each_move(rules, st, [&](const Move&, State child) { children.push_back(child); });
      for (const State child : children) {
        if (!visited.insert(child.code).second) continue;
        ++count;
        self(self, child, depth + 1);
      }
    };
    dfs(dfs, kEmptyBoard, 0);
    out.push_back(count);
  }
  return out;
}

}  // namespace fano
