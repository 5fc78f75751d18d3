// How much a player must know to never lose: fixed strategies (one move in
// every position the follower can face when the opponent plays anything),
// their size, a search for a small one, a short list of rules plus a table
// of exceptions, and the openings where a side has a single drawing move.
//
// "Never lose" is the value to keep: a fixed strategy holds when no line in
// which the follower plays its moves ends in her loss (rules 1 and 2); a
// line that repeats a position ends drawn (rule 3), so a cycle is fine. A
// strategy that plays, in every position it reaches, a move whose table
// result for the mover is not a loss holds, and every strategy that holds
// does that (a lost position cannot be kept from losing); the search
// therefore chooses among those moves only.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "fano/interrupt.hpp"
#include "fano/rules.hpp"
#include "fano/strategy.hpp"
#include "fano/tablebase.hpp"
#include "fano/value.hpp"

namespace fano {

// One move in each position of the follower that the strategy reaches from
// `start` (where the game goes on), in breadth-first order.
struct FixedStrategy {
  State start;
  Colour follower = Colour::kWhite;
  std::vector<std::pair<State, Move>> decisions;
  std::uint64_t reached = 0;  // every position reached (either side to move, ended included)
};

// A strategy's size: the follower's decisions (positions where she moves)
// and their symmetry classes, by phase; every position reached (either side
// to move, ended games included).
struct StrategySize {
  std::uint64_t placement = 0, movement = 0;  // decisions, by phase
  std::uint64_t placement_classes = 0, movement_classes = 0;
  std::uint64_t reached = 0;
  std::uint64_t decisions() const { return placement + movement; }
  std::uint64_t classes() const { return placement_classes + movement_classes; }
};

// The follower's move in a position (never asked where the game is over).
using MoveChoice = std::function<Move(State)>;

// The strategy `choose` plays from `start`: every position reached when the
// follower plays its move and the opponent any move, each follower position
// with its move. Polls `interrupt` once every 4096 positions.
FixedStrategy fix_strategy(const Rules& rules, State start, Colour follower,
                           const MoveChoice& choose, const Interrupt& interrupt = {});
StrategySize strategy_size(const Tablebase& tb, const FixedStrategy& strategy);
AllowedTable strategy_table(const Tablebase& tb, const FixedStrategy& strategy);

// The smallest never-lose strategy the search finds for `follower` from the
// empty board of a drawn game (else std::invalid_argument: a side with a win
// to keep needs more than never losing, a lost side cannot).
//
// baseline: the table's keeping move (players.hpp, keeping_move) everywhere.
// greedy: breadth-first from the start, each new follower class takes the
//   keeping move into a class already reached if there is one, else into the
//   class of the smallest estimated subtree (the size of the tree the
//   follower's cheapest choices leave within `horizon` plies).
// smallest: the greedy strategy improved by local search over symmetry
//   classes: each pass tries, at every follower class reached, each other
//   non-losing move, and keeps a change that lowers the number of follower
//   classes reached; it stops after `passes` passes or a pass without gain.
//   A change is judged from the current reach: it loses the class's
//   descendants in the reach's dominator tree and gains what a walk from the
//   new move meets before joining the rest (new classes there preferring a
//   move into a class reached, as the greedy walk does).
//   Then `restarts` rounds of iterated local search: one in a hundred of the
//   follower classes reached (at least one) moved to another non-losing
//   move (a seeded generator: the same on every machine), the local search
//   again, the result kept when it reaches no more classes.
// The class choice is played in each position by the first move (in move
// order) into the chosen class: a function of the position.
struct SmallStrategy {
  Colour follower = Colour::kWhite;
  StrategySize baseline, greedy, smallest;
  int passes = 0;                  // local-search passes run (every round)
  int restarts = 0;                // rounds of iterated local search run
  std::uint64_t trials = 0;        // changes tried
  std::uint64_t improvements = 0;  // changes kept by a local search (in any round)
  FixedStrategy strategy;          // the smallest
};
// on_round, when given, is called after each round of the iterated local
// search with the round's number (from 1) and the follower classes the
// smallest strategy so far reaches: a long search's progress.
using SearchRound = std::function<void(int round, std::uint64_t classes)>;
SmallStrategy smallest_strategy(const Tablebase& tb, Colour follower, int passes, int restarts = 0,
                                int horizon = 12, const Interrupt& interrupt = {},
                                const SearchRound& on_round = {});

// A short rule list: filters applied in order to the legal moves, each
// keeping the remaining moves of the best score by its feature, then the
// first remaining in move order:
//   search:K   the depth-K minimax score without the table (players.hpp)
//   no-centre  a move that does not put a piece on the centre (space 7)
//   quiet      fewest lines left with two tops of one colour or one shape
//              beside an empty space
//   corner     a destination with the fewest neighbours
// Throws std::invalid_argument for an unknown name.
Move rule_list_move(const Rules& rules, State st, const std::vector<std::string>& list);

// The rule list with a table of exceptions: the list's move where the table
// says it does not lose, else the exception's move (the smallest strategy's
// move where it has one, else the table's keeping move). Counted over the
// positions this combined strategy reaches.
struct RuleListResult {
  std::vector<std::string> list;
  StrategySize size;  // the combined strategy
  std::uint64_t placement_exceptions = 0, movement_exceptions = 0;
  std::uint64_t placement_exception_classes = 0, movement_exception_classes = 0;
  // Over the smallest strategy's own decisions instead: where the list's move
  // loses (the list alone, not followed: its positions are not these).
  std::uint64_t placement_losing_in_smallest = 0, movement_losing_in_smallest = 0;
  FixedStrategy strategy;
};
RuleListResult rule_list_with_exceptions(const Tablebase& tb, const FixedStrategy& smallest,
                                         const std::vector<std::string>& list,
                                         const Interrupt& interrupt = {});

// The openings where the side to move has a single move that keeps the
// draw: every drawn position reached from the empty board within `plies`
// plies when both sides keep the draw, where the game goes on and exactly
// one move keeps it. Shallowest first (then breadth-first order).
struct SingleDrawOpening {
  std::vector<Move> line;  // from the empty board (one shortest line)
  State position;
  Move move;                                     // the one drawing move
  std::vector<std::pair<Move, Outcome>> others;  // the other moves, result for the mover
};
struct SingleDrawReport {
  int plies = 0;
  std::vector<std::uint64_t> drawn_by_ply;   // drawn positions reached at ply 0..plies-1
  std::vector<std::uint64_t> single_by_ply;  // of those, with a single drawing move
  std::vector<std::uint64_t> single_classes_by_ply;
  // One a class (the first position of the class reached), shallowest first.
  std::vector<SingleDrawOpening> openings;
};
SingleDrawReport single_draw_openings(const Tablebase& tb, int plies,
                                      const Interrupt& interrupt = {});

}  // namespace fano
