// Strategy checking: does a player rule secure at least the game's value for
// the side that follows it, against every opponent? Exact, by a breadth-first
// search of every position the rule lets the game reach; when the rule fails,
// a shortest line in which the follower obeys it and does worse than the
// value (her loss, or a repetition when the value was a win).
//
// A rule names, for a position, the moves the follower may make; where it
// allows several, the opponent is assumed to pick among them too (a rule that
// holds, holds however its ties are broken). The rule is asked about each
// position alone (a game record of no moves starting there): its choice is a
// function of the position. Rule 3 applies to the game: a line ends drawn at
// its first repetition, so every refutation line is a game. A rule that reads
// the game's history (search:K scores an earlier position as a draw, perfect
// rates a move into one as a draw) may choose differently after a history;
// each refutation is therefore also replayed with its own history, and
// `allowed_with_history` says whether every follower move stays allowed then.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "fano/game.hpp"
#include "fano/interrupt.hpp"
#include "fano/players.hpp"
#include "fano/rules.hpp"
#include "fano/tablebase.hpp"
#include "fano/value.hpp"

namespace fano {

// The moves a rule allows in the current position of `game` (a subset of the
// legal moves, non-empty when the game is not over).
using AllowedMoves = std::function<std::vector<Move>(const GameRecord& game)>;

struct StrategyRule {
  std::string name;
  AllowedMoves allowed;
  // A rule given as a table may not cover every position: an empty answer is
  // then the rule's failure where the follower reaches it (a refutation that
  // ends there, `uncovered`), not a broken rule.
  bool partial = false;
};

// A rule given as a set of allowed moves per position (exact positions, not
// symmetry classes: a table states what the player knows, and a symmetric
// image is another position to know).
struct AllowedTable {
  std::unordered_map<std::uint64_t, std::vector<Move>> moves;  // by State::code
};

// Adds the moves allowed in `position`. Throws std::invalid_argument when the
// game is over there, a move is not legal there (or given twice), no move is
// given, or the position is already in the table.
void add_allowed(AllowedTable& table, const Rules& rules, State position,
                 const std::vector<Move>& moves);

// Reads a table written as JSON lines, one position a line:
//   {"position": "-/-/-/C/-/-/- b", "moves": ["c3", "t5"]}
// Blank lines are skipped. A line is one JSON object and nothing else (a NUL
// byte is refused, not read as its end), each field given once. Fed a line
// at a time (a file is streamed: nothing is kept of a line once it is read
// but its position and moves), add() throws std::invalid_argument
// "line N: ..." naming the first bad line and what is wrong with it (input
// echoed through quote(): bounded); finish() refuses a table with no
// position.
class AllowedLinesReader {
 public:
  explicit AllowedLinesReader(const Variant& variant);
  void add(std::string_view line);
  AllowedTable finish() &&;

 private:
  Rules rules_;
  AllowedTable table_;
  std::size_t lines_ = 0;
};

// The whole text through AllowedLinesReader (lines split on '\n').
AllowedTable parse_allowed_lines(std::string_view text, const Variant& variant);

// One line of that format for `position` (without the newline).
std::string allowed_line(State position, const std::vector<Move>& moves);

// The table as a rule: the table's moves where it covers the position, none
// (a failure of the rule) where it does not. The table must outlive the rule.
StrategyRule table_rule(const AllowedTable& table, std::string name);

// A built-in player as a rule: random (every legal move), greedy, search:K,
// perfect, nonlosing, perfect:P (perfect's moves when P = 1, else every legal
// move: a random move may be any), engine and keeping (their one move).
// cover and mirror:MAP are refused with std::invalid_argument: they answer the
// opponent's last move, which a position alone does not have. `tb` is needed
// by the table's players (needs_table) and must outlive the rule.
StrategyRule player_rule(const PlayerSpec& player, const Tablebase* tb);

// The moves of the best depth-K minimax score (search_move_scores): the same
// set as search_best_moves, computed with alpha-beta cut-offs.
std::vector<Move> search_allowed_moves(const GameRecord& game, int depth);

struct StrategyRefutation {
  std::vector<Move> moves;       // from the start; the follower's moves obey the rule
  std::vector<State> positions;  // after each move
  GameEnd end;                   // the follower's loss, or a repetition (a drawn line)
  // Each follower move is also allowed by the rule asked with the line's
  // history before it (the whole game record, not the position alone).
  bool allowed_with_history = true;
  // The line ends where the game goes on and the rule (a partial table) has
  // no move for the follower: `end` is then meaningless.
  bool uncovered = false;
};

struct StrategyCheck {
  Variant variant;
  State start;
  Colour follower = Colour::kWhite;
  std::string rule;
  Value target = Value::kDraw;  // the table's value of the start for the follower
  bool holds = true;
  // False when the search stopped at its budget of positions before a verdict
  // (holds is then false and there is no refutation).
  bool decided = true;
  std::optional<StrategyRefutation> refutation;  // when it does not hold
  std::uint64_t positions = 0;                   // distinct positions the search reached
  std::uint64_t follower_positions = 0;  // of those, the follower's decisions asked of the rule
};

// Whether `rule` secures at least the table's value of `start` for `follower`
// (a loss is always secured). Throws UnreachablePosition when the table lacks
// `start`, std::invalid_argument when the rule allows no move (unless it is
// partial: then that is a refutation), or a move that is not legal, in a
// position where the game goes on; polls `interrupt` once
// every 4096 positions. With max_positions > 0 the search stops undecided
// once it has reached more positions than that (a bound on time and memory
// that gives the same answer on every machine).
StrategyCheck check_strategy(const Tablebase& tb, const StrategyRule& rule, State start,
                             Colour follower, const Interrupt& interrupt = {},
                             std::uint64_t max_positions = 0);

// The lookahead a side needs: search:K for K = 1..max_depth, each checked
// from `start` (stopping at the first K that holds).
struct LookaheadResult {
  Colour side = Colour::kWhite;
  Value target = Value::kDraw;
  std::optional<int> needed;          // the smallest K that holds, if any was found
  std::vector<StrategyCheck> checks;  // K = 1, 2, ... (the last holds when needed is set,
                                      // or is undecided: the search stops there)
};
LookaheadResult lookahead_needed(const Tablebase& tb, State start, Colour side, int max_depth,
                                 const Interrupt& interrupt = {}, std::uint64_t max_positions = 0);

// How a game's decisions look to a player, over every reachable position
// where the game goes on (each stored class counted by its number of
// positions; values are the table's, without history).
struct DecisionStats {
  std::uint64_t decisions = 0;     // positions where the side to move has a move
  std::uint64_t to_keep = 0;       // of those, won or drawn: a value to keep
  std::uint64_t one_way = 0;       // of those, exactly one move keeps the value
  std::uint64_t moves = 0;         // legal moves over every decision
  std::uint64_t lose_at_once = 0;  // of those, moves that form a line (the mover loses)
};
DecisionStats decision_stats(const Tablebase& tb, const Interrupt& interrupt = {});

// Traps: positions with a value to keep (won or drawn) where a move that a
// depth-K look calls safe loses. "Safe" is a depth-K minimax score of the
// move that is not a loss (search_move_scores >= 0: no loss seen within K
// plies); "loses" is the table's result for the mover. One entry per stored
// class (its canonical position), with the safe-looking losing move whose
// loss is slowest (the first in move order among equals).
struct Trap {
  State position;
  Outcome value;       // for the side to move: a win or a draw
  Move move;           // looks safe K plies deep, loses
  Outcome result;      // the move's result for the mover (a loss)
  int keeping = 0;     // moves that keep the value
  int moves = 0;       // legal moves
  int looks_safe = 0;  // moves the depth-K look calls safe
};
struct TrapReport {
  int depth = 0;
  std::uint64_t to_keep = 0;  // positions with a value to keep where the game goes on
  std::uint64_t traps = 0;    // of those, positions with a trap (counted by position)
  // The deepest traps first (slowest loss), then the fewest keeping moves,
  // then the most safe-looking moves, then code order; at most `limit`.
  std::vector<Trap> ranked;
};
TrapReport find_traps(const Tablebase& tb, int depth, std::size_t limit,
                      const Interrupt& interrupt = {});

}  // namespace fano
