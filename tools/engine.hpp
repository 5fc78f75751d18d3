// Perfect play from a tablebase: every move of a position rated, and the
// engine's choice among them. Shared by `fano query` (the ranking) and
// `fano play` (the choice), so the ranking exists once.
#pragma once

#include <string>
#include <vector>

#include "fano/rules.hpp"
#include "fano/tablebase.hpp"
#include "fano/value.hpp"

namespace fano {

// One legal move with the result it gives its player under perfect play.
struct RatedMove {
  Move move;
  State child;     // the position after the move
  Outcome result;  // for the player making the move
  // The opponent's replies from `child` that keep the opponent's result there
  // (their outcome for the opponent equals the child's value): the fewer, the
  // more traps the move sets. 0 when the game is over in `child`.
  int keeping_replies = 0;
};

// Every legal move of the side to move, best first (faster wins, then draws,
// then slower losses); moves of equal result keep the rules' move order
// (placements by piece then space, movements by from then to). Empty when the
// game is over in `st` (a line stands, or no legal move). Throws
// std::runtime_error when the table lacks a successor (a damaged table).
std::vector<RatedMove> rate_moves(const Tablebase& tb, const Rules& rules, State st);

// The opponent's replies from `child` whose result for the opponent equals the
// opponent's best result there (see RatedMove::keeping_replies).
int keeping_replies(const Tablebase& tb, const Rules& rules, State child);

// The engine's choice: among the moves with the best result (same value and
// plies), the one leaving the opponent the fewest replies that keep the
// opponent's result; ties go to the first in move order. Deterministic.
// Returns the index into `rated` (which must be rate_moves' output, non-empty).
std::size_t choose_index(const std::vector<RatedMove>& rated);

// rate_moves then choose_index; requires the game not to be over in `st`.
Move choose_move(const Tablebase& tb, const Rules& rules, State st);

// "draw", "win in 5", "loss in 3" (no unit), as `fano query` prints results.
std::string outcome_text(Outcome o);

}  // namespace fano
