#include "fano/perft.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>

#include <algorithm>

namespace fano {

std::vector<std::uint64_t> expand_layer(const Rules& rules, const std::vector<std::uint64_t>& layer,
                                        bool expand_ended) {
  tbb::enumerable_thread_specific<std::vector<std::uint64_t>> local;
  tbb::parallel_for(
      tbb::blocked_range<size_t>(0, layer.size(), 4096), [&](const tbb::blocked_range<size_t>& r) {
        auto& out = local.local();
        for (size_t i = r.begin(); i != r.end(); ++i) {
          const State st{layer[i]};
          if (!expand_ended && formed_lines(st)) continue;
          for_each_move(rules, st, [&](const Move&, State child) { out.push_back(child.code); });
        }
      });
  std::vector<std::uint64_t> next;
  size_t total = 0;
  for (auto& v : local) total += v.size();
  next.reserve(total);
  for (auto& v : local) next.insert(next.end(), v.begin(), v.end());
  tbb::parallel_sort(next.begin(), next.end());
  next.erase(std::unique(next.begin(), next.end()), next.end());
  return next;
}

std::vector<PerftRow> perft(const Rules& rules, int max_depth, bool expand_ended,
                            const std::function<void(const PerftRow&)>& on_row) {
  std::vector<PerftRow> rows;
  std::vector<std::uint64_t> layer{kEmptyBoard.code};
  std::uint64_t cumulative = 0;
  for (int d = 1; d <= max_depth; ++d) {
    layer = expand_layer(rules, layer, expand_ended);
    cumulative += layer.size();
    rows.push_back(PerftRow{d, layer.size(), cumulative});
    if (on_row) on_row(rows.back());
  }
  return rows;
}

}  // namespace fano
