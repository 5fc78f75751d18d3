// A game record: a start position, the moves played from it and every position
// reached, with the end of the game as data. Rule 3 (a repeated position ends
// the game, drawn) is applied here and nowhere else.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "fano/rules.hpp"
#include "fano/state.hpp"

namespace fano {

// Why a game is over.
enum class EndReason : std::uint8_t {
  kLine,        // rule 1: a line of three tops of one colour or one shape stands
  kNoMove,      // rule 2: the side to move has no legal move
  kRepetition,  // rule 3: the position occurred earlier in the game (a draw)
};
std::string_view end_reason_name(EndReason r);  // "line", "no_move", "repetition"

struct GameEnd {
  EndReason reason = EndReason::kLine;
  int line = -1;                // kLine: the first standing line (0-based index), else -1
  std::optional<Colour> loser;  // nullopt for a repetition
  int repeated_ply = -1;        // kRepetition: the earlier ply with the same position, else -1
};

// The end of the game in `st` by rules 1 and 2 alone (no history), or nullopt.
std::optional<GameEnd> game_end(const Rules& rules, State st);

// One line of words for an end, e.g. "line {2,7,6} has three triangles on top:
// Black, who moved last, lost"; `st` is the position in which the game ended.
std::string describe_end(const GameEnd& end, State st);

class GameRecord {
 public:
  // An empty record starting at `start` (which must be valid for the variant).
  explicit GameRecord(const Rules& rules, State start = kEmptyBoard);

  // Parses and plays a move list (commas or spaces). Throws NotationError
  // naming the move's number, token and reason for an illegal or late move.
  static GameRecord from_moves(const Rules& rules, State start, std::string_view moves);

  const Rules& rules() const { return rules_; }
  State start() const { return positions_.front(); }
  State current() const { return positions_.back(); }
  // positions()[p] is the position after ply p (0 = start); moves()[p] leads from p to p + 1.
  const std::vector<State>& positions() const { return positions_; }
  const std::vector<Move>& moves() const { return moves_; }
  std::size_t plies() const { return moves_.size(); }
  // The positions before the current one, oldest first (rule 3's history).
  std::span<const State> earlier() const {
    return std::span<const State>(positions_).first(positions_.size() - 1);
  }

  // The end of the game at the current position (rules 1, 2, then 3), or nullopt.
  std::optional<GameEnd> end() const;
  bool over() const { return end().has_value(); }
  // The earlier ply whose position equals the current one, or -1.
  int repeated_ply() const { return repeated_ply_; }

  // Plays a legal move. Throws NotationError when the game is already over.
  void play(const Move& move);
  // Parses, checks and plays one token; returns the move. Throws NotationError
  // (the token, the rule it breaks, or that the game is over).
  Move play(std::string_view token);
  // Takes back the last move; requires plies() > 0.
  void undo();

  // "C4,t3,7-5" (empty for no moves).
  std::string move_list() const;

 private:
  void check_not_over() const;  // throws NotationError when the game is over

  Rules rules_;
  std::vector<State> positions_;
  std::vector<Move> moves_;
  int repeated_ply_ = -1;
};

}  // namespace fano
