// Whole-table statistics: the reachable positions won and lost by plies to
// the end (each class counted as many times as it has members), the drawn
// classes, and the longest wins with their principal variations. Computed
// once a table, in steps that an interrupt may end and a later call
// resumes (a large table takes about a second). Portable.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

#include "fano/analysis.hpp"
#include "fano/interrupt.hpp"
#include "fano/tablebase.hpp"

namespace fano {

struct TableStats {
  std::map<int, std::array<std::uint64_t, 2>> by_plies;  // plies -> {wins, losses}, positions
  std::uint64_t draw_classes = 0;
  int longest_win = -1;                      // plies; -1 when the table has no win
  std::vector<PositionReport> longest_wins;  // the first kLongestWins classes of it, in order
};
inline constexpr std::size_t kLongestWins = 5;

// Not thread-safe: the caller serialises the calls (one count a table).
class TableStatsCount {
 public:
  static constexpr std::size_t kCountStep = 1 << 16;  // about 2 ms
  explicit TableStatsCount(const Tablebase& table) : table_(&table) {}
  // Counts from where the last call stopped until done, polling `interrupt`
  // between steps of kCountStep classes and between the longest wins' lines,
  // one step at least (Interrupted leaves the count so far, kept).
  void count(const Interrupt& interrupt = {});
  bool done() const { return done_; }
  std::size_t classes_counted() const { return next_; }
  const TableStats& stats() const { return stats_; }  // complete when done()

 private:
  const Tablebase* table_;
  std::size_t next_ = 0;
  std::vector<std::size_t> longest_;  // the first classes of the longest win so far
  bool done_ = false;
  TableStats stats_;
};

}  // namespace fano
