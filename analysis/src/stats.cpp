#include "fano/stats.hpp"

#include <algorithm>

namespace fano {

void TableStatsCount::count(const Interrupt& interrupt) {
  const Tablebase& tb = *table_;
  const Symmetry& sym = symmetry_of(tb.variant());
  // One step at least a call (see PuzzleIndex::list).
  while (next_ < tb.size()) {
    const std::size_t end = std::min(tb.size(), next_ + kCountStep);
    for (std::size_t i = next_; i < end; ++i) {
      const Outcome o = tb.outcome_at(i);
      if (o.value == Value::kDraw) {
        ++stats_.draw_classes;
        continue;
      }
      stats_.by_plies[o.plies][o.value == Value::kWin ? 0 : 1] +=
          std::uint64_t(sym.orbit_size(tb.position_at(i)));
      if (o.value != Value::kWin) continue;
      if (int(o.plies) > stats_.longest_win) {
        stats_.longest_win = int(o.plies);
        longest_.clear();
      }
      if (int(o.plies) == stats_.longest_win && longest_.size() < kLongestWins)
        longest_.push_back(i);
    }
    next_ = end;
    interrupt.poll();
  }
  // The longest wins' lines, each kept once made.
  while (stats_.longest_wins.size() < longest_.size()) {
    stats_.longest_wins.push_back(
        analyse(tb, tb.position_at(longest_[stats_.longest_wins.size()])));
    if (stats_.longest_wins.size() < longest_.size()) interrupt.poll();
  }
  done_ = true;
}

}  // namespace fano
