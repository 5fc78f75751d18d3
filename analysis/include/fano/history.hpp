// Values under a game's history (rule 3): once a position has occurred, moving
// into it again ends the game drawn. The table's values assume no history;
// these are exact for a real game. The reasoning is in src/history.cpp.
#pragma once

#include <cstddef>
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
  std::size_t region = 0;            // positions whose value had to be recomputed
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
