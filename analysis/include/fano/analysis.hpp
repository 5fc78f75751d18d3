// Perfect play from a tablebase: a position's report (value, game over, every
// move rated best first, the principal variation and the engine's choice).
// One call, analyse(), gives what `fano query` prints; `fano play`, `fano show
// --best`, the HTTP server and the Python module all use it.
#pragma once

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "fano/game.hpp"
#include "fano/interrupt.hpp"
#include "fano/rules.hpp"
#include "fano/tablebase.hpp"
#include "fano/value.hpp"

namespace fano {

// A legal position that no game reaches (the table does not hold it).
class UnreachablePosition : public std::runtime_error {
 public:
  // "position '...' is legal but no game reaches it", without a reason.
  explicit UnreachablePosition(State st);
  // The same with the reason found by undoing the last move (for_each_unmove):
  // no move leads to it, or every position a move leads to it from has ended
  // the game already or is not reached itself.
  UnreachablePosition(const Tablebase& tb, const Rules& rules, State st);
  State position() const { return position_; }

 private:
  State position_;
};

// The table's value of `st` for its side to move: the one "probe or say
// unreachable" of every front end. Throws UnreachablePosition, with the reason
// found by undoing the last move, when no game reaches `st`.
Outcome probe_or_unreachable(const Tablebase& tb, const Rules& rules, State st);

// The trap a move into `child` sets for a fallible opponent who plays uniformly
// among her moves that form no line (all of her moves when each forms one):
// `errors` of her `choices` worsen her result (table values). {0, 0} when the
// game is over in `child`.
struct TrapChance {
  int errors = 0;
  int choices = 0;
};

// One legal move with the result it gives its player under perfect play.
struct RatedMove {
  Move move;
  State child;     // the position after the move
  Outcome result;  // for the player making the move
  // The move recreates an earlier position of the game: it ends the game drawn (rule 3).
  bool repeats = false;
  // The trap the move sets (trap_chance of `child`): set by analyse() for a
  // drawing move that does not repeat (a win or a loss is decided whatever
  // the opponent does, and a repetition ends the game); unset otherwise and
  // in rate_moves' answers, which do not compute it.
  std::optional<TrapChance> trap{};
};

// Every legal move of the side to move, best first (faster wins, then draws,
// then slower losses); moves of equal result keep the rules' move order
// (placements by piece then space, movements by from then to). Empty when the
// game is over in `st`. Throws TablebaseError (kCorrupt) when the table lacks a
// successor (a damaged table).
std::vector<RatedMove> rate_moves(const Tablebase& tb, const Rules& rules, State st);

// The same under the game's history (fano/history.hpp): a move into an
// earlier position is a draw (rule 3), and the other results are exact given
// every position of the game so far, the current one included. A game of no
// moves is a bare position: its moves are rated as the table rates them.
std::vector<RatedMove> rate_moves(const Tablebase& tb, const GameRecord& game);

class GameHistory;  // fano/history.hpp
// The same with the game's history kept by the caller: `history` holds
// exactly game.positions(), and a caller walking a game pushes each position
// it adds, so that each question searches only what the last one did not.
std::vector<RatedMove> rate_moves(const Tablebase& tb, const GameRecord& game,
                                  GameHistory& history);

// The value of the game's current position for its side to move, under the
// game's history (rule 3): the end's value when the game is over, else the
// best of rate_moves. Throws UnreachablePosition when the table lacks it.
Outcome game_value(const Tablebase& tb, const GameRecord& game);

// The opponent's replies from `child` whose result for the opponent equals the
// opponent's best result there: the fewer, the more traps a move into `child` sets.
int keeping_replies(const Tablebase& tb, const Rules& rules, State child);

// The trap a move into `child` sets (TrapChance).
TrapChance trap_chance(const Tablebase& tb, const Rules& rules, State child);

// The engine's choice, as an index into `rated` (rate_moves' output, non-empty):
// among the moves with the best result (same value and plies), the one whose
// trap_chance has the largest share of errors (a repeating move has none);
// then the fewest keeping_replies; remaining ties go to the first in move
// order. Deterministic. The tie-break counts are computed here, for the best
// moves only.
std::size_t choose_index(const Tablebase& tb, const Rules& rules,
                         const std::vector<RatedMove>& rated);

// rate_moves then choose_index; requires the game not to be over.
Move choose_move(const Tablebase& tb, const GameRecord& game);

// The rule of choose_index in words, for help texts.
extern const char* const kEngineChoiceRule;

// What the report should contain beyond the value and the rated moves.
struct AnalysisOptions {
  bool principal_variation = true;  // best play to the end of the game
  bool engine_choice = true;        // the engine's move (computes tie-break counts)
  std::size_t max_pv_plies = 1000;  // a bound on the variation
  // A drawn variation is cut after this many plies (pv_continues_drawn) unless
  // it ends first, at the repetition that ends the game drawn. The engine
  // prefers a move that sets a trap to the repetition, so in the larger
  // variants a drawn line wanders for hundreds of plies before it repeats,
  // and each ply costs the tie-breaks' probes; past a hundred plies the line
  // shows nothing a player reads.
  std::size_t max_drawn_pv_plies = 100;
  // Polled between the stages and once a ply of the variation (throws Interrupted).
  Interrupt interrupt{};
};

struct PositionReport {
  Variant variant;
  State position;
  Outcome value;                             // for the side to move, given the game's history
  Outcome table_value;                       // the table's value (no history)
  std::optional<GameEnd> game_over;          // the game is over in this position
  std::vector<RatedMove> moves;              // best first; empty when the game is over
  std::optional<std::size_t> engine_choice;  // index into moves
  // The principal variation: the engine's play for both sides from here to the
  // end of the game (a line, no move, or the repetition that ends a draw).
  std::vector<Move> pv;
  std::vector<State> pv_positions;  // after each move of pv
  std::optional<GameEnd> pv_end;    // how the variation ends (unset only when it is cut)
  // The variation of a draw was cut at max_drawn_pv_plies: the game goes on,
  // drawn, under best play (no end is shown).
  bool pv_continues_drawn = false;
  // Why the history changes the table's value (empty when it does not).
  std::string history_note;
};

// The report on the current position of a game (its history applies, rule 3).
// Throws UnreachablePosition when the table lacks the position, TablebaseError
// (kCorrupt) when it lacks a successor.
PositionReport analyse(const Tablebase& tb, const GameRecord& game,
                       const AnalysisOptions& options = {});
// The report on a position reached with no history.
PositionReport analyse(const Tablebase& tb, State st, const AnalysisOptions& options = {});

// "value for white (to move): loss in 1 ply": the value in one phrase, as
// `fano query`, `fano show --best` and `fano play`'s hint print it.
std::string value_sentence(const PositionReport& report);

// The engine against itself, continuing `game` until the game ends or
// max_plies moves were made.
struct EngineGame {
  GameRecord game;               // the given moves, then the engine's
  std::size_t first_ply = 0;     // the engine's moves are game.moves()[first_ply...]
  std::vector<Outcome> results;  // each engine move's result for its mover
};
EngineGame engine_game(const Tablebase& tb, GameRecord game, std::size_t max_plies);

// The principal variation alone, as a game record continuing `game`
// (`interrupt` polled once a ply).
GameRecord principal_variation(const Tablebase& tb, const GameRecord& game,
                               std::size_t max_plies = 1000, const Interrupt& interrupt = {});

}  // namespace fano
