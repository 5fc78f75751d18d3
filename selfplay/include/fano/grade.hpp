// Grading a player against perfect play (Python's fano.grade): seeded games
// of the graded player against an opponent, every move of the graded player
// judged by the table under the game's history (rule 3): did it keep the
// value of its position (a win stays a win, a draw a draw), or was it a
// blunder, and in which phase. Game i is played with game_rng(seed, i) as
// `fano selfplay` plays it, so a built-in player graded as White (Black)
// plays the very games of `fano selfplay --white P --black O` (--white O
// --black P) with the same seed.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "fano/game.hpp"
#include "fano/json.hpp"
#include "fano/players.hpp"
#include "fano/selfplay.hpp"
#include "fano/tablebase.hpp"

namespace fano {

// The side the graded player takes: every game as White, as Black, or both
// in turn (White in the even games 0, 2, ..., Black in the odd ones).
enum class GradeSide : std::uint8_t { kBoth, kWhite, kBlack };
std::string_view grade_side_name(GradeSide side);  // "both", "white", "black"

struct GradeOptions {
  PlayerSpec opponent{PlayerKind::kPerfect};
  std::size_t games = 100;
  std::uint64_t seed = 1;
  GradeSide side = GradeSide::kBoth;
  State start = kEmptyBoard;        // a bare position (no history); the game must not be over
  std::size_t max_blunders = 1000;  // blunders listed (all are counted)
};

// The graded player: a built-in one, or a function from the game so far to
// its move (called in game order, on the calling thread).
struct GradedPlayer {
  std::optional<PlayerSpec> spec;
  std::function<Move(const GameRecord&)> choose;  // when spec is not set
  std::string name;                               // for the report ("search:2", "my agent")
};

// A move that changed the value of the graded player's position.
struct Blunder {
  std::size_t game = 0, ply = 0;  // ply: the move's index in the game (0 = the first move)
  State position;                 // before the move
  std::string moves;              // the game up to that position ("C4,t3,..."): its history
  Move move;
  Outcome before, after;  // for the mover: the position's value and the move's result
};

struct GradeReport {
  Variant variant;
  GradeOptions options;
  std::string player;
  Proportion wins, draws, losses;           // of the graded player's games
  double score = 0;                         // (wins + draws / 2) / games
  std::array<std::uint64_t, 2> moves{};     // the graded player's moves: placement, movement
  std::array<std::uint64_t, 2> blunders{};  // of those, moves that changed the value
  Proportion kept;                          // moves that kept the value, of all its moves
  std::uint64_t winning_moves = 0;          // moves made in a won position
  std::uint64_t missed_wins = 0;  // of those, moves that let the win go (a draw or a loss)
  std::vector<std::optional<Colour>> winners;  // by game (nullopt: a draw)
  std::vector<Colour> colours;                 // by game: the graded player's colour
  std::vector<Blunder> blunder_list;           // the first max_blunders, in game order
};

// Plays and grades options.games games. Throws std::invalid_argument for a
// start whose game is over or a move of the graded player that is not legal,
// and whatever the player's function throws.
GradeReport grade_player(const Rules& rules, const Tablebase& tb, const GradedPlayer& player,
                         const GradeOptions& options);

// {"variant", "player", "opponent", "side", "games", "seed", "results": {"wins", "draws",
//  "losses": {count, total, rate, low, high}, "score"}, "moves": {"total", "placement",
//  "movement"}, "kept": {count, total, rate, low, high}, "blunders": {"total", "placement",
//  "movement"}, "missed_wins": {"count", "of"}, "blunder_positions": [{game, ply, position,
//  moves, move, value, result, plies_before, plies_after}], "games_list": [{colour, result}]}.
Json grade_json(const GradeReport& report);

}  // namespace fano
