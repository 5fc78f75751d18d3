// Values under a game's history (rule 3): once a position has occurred, moving
// into it again ends the game drawn. The table's values assume no history;
// these are exact for a real game. The reasoning is in src/history.cpp.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "fano/rules.hpp"
#include "fano/tablebase.hpp"
#include "fano/value.hpp"

namespace fano {

// The table's value of a reachable position; throws TablebaseError (kCorrupt)
// when the table lacks it (a damaged table).
Outcome probe_reachable(const Tablebase& tb, State st);

// What the search looked at, for benchmarks and the history note.
struct HistoryStats {
  std::size_t earlier_decisive = 0;  // earlier movement-phase positions with a decisive table value
  std::size_t region = 0;            // positions whose value may differ from the table's
  std::size_t solved = 0;            // of those, the ones the roots reach (re-solved)
};

// The positions of a game so far, and what the values under them need, kept
// from one question to the next while the game grows: a line played move by
// move (the principal variation, the engine's game) asks after every ply.
// Asked afresh each ply, every earlier position was probed again and the
// region searched and solved again, so a 1000-ply line cost the square of
// its length. Here each position is probed once (table_value keeps every
// value looked up), the region only grows (a larger region gives the same
// values, see src/history.cpp), each region position's moves are generated
// once, and a question re-solves only the part of the region its roots
// reach. Holds a pointer to the table: the table must outlive it.
class GameHistory {
 public:
  GameHistory(const Tablebase& tb, const Rules& rules, std::span<const State> positions = {});
  GameHistory(GameHistory&&) noexcept;
  GameHistory& operator=(GameHistory&&) noexcept;
  ~GameHistory();

  // `s` has occurred (again or for the first time).
  void push(State s);
  bool contains(State s) const;
  // probe_reachable(tb, s), each position probed once (kept for the next questions).
  Outcome table_value(State s);

  // As values_given_history with the positions pushed so far as `earlier`.
  std::vector<Outcome> values(std::span<const State> roots, HistoryStats* stats = nullptr);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The value of each of `roots` for its side to move, in a game in which the
// positions `earlier` have occurred (a move into one of them ends the game
// drawn; a root that is itself earlier is a draw). Roots must be reachable
// positions of the table's variant. Exact. Throws TablebaseError (kCorrupt)
// when the table lacks a reachable position.
std::vector<Outcome> values_given_history(const Tablebase& tb, const Rules& rules,
                                          std::span<const State> earlier,
                                          std::span<const State> roots,
                                          HistoryStats* stats = nullptr);

}  // namespace fano
