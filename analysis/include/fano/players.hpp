// Players for self-play (`fano selfplay`): fallible and perfect move choosers,
// each a pure function of the game so far and a seeded random generator, so
// that a game is reproducible from its seed. Rule 3 applies throughout: every
// player sees the whole game (GameRecord) and a move into an earlier position
// ends the game drawn.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "fano/game.hpp"
#include "fano/geometry.hpp"
#include "fano/rules.hpp"
#include "fano/tablebase.hpp"

namespace fano {

// SplitMix64 (Steele, Lea and Flood 2014): a small generator that gives the
// same numbers on every platform and compiler (unlike the std distributions).
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  // Uniform in [0, n), n > 0 (rejection: no modulo bias).
  std::uint64_t below(std::uint64_t n);

 private:
  std::uint64_t state_;
};

// The generator of game `index` (0-based) of a run with `seed`: seeded with
// splitmix64(splitmix64(seed) ^ index), so games are independent of each other
// and of the order in which they are played.
Rng game_rng(std::uint64_t seed, std::uint64_t index);

enum class PlayerKind : std::uint8_t {
  kRandom,   // uniform over the legal moves
  kGreedy,   // uniform over the moves that do not lose at once (form no line), if any
  kSearch,   // depth-K minimax without the table, uniform among the best-scored moves
  kPerfect,  // uniform among the moves of the best result by the table, under the history
  kEngine,   // the play engine's choice (choose_move in analysis.hpp): deterministic
  kKeeping,  // the engine's earlier rule (keeping_moves): deterministic
  kCover,    // uniform among the moves that cover the opponent's last piece, else any
  kMirror,   // the image of the opponent's last move under a map of the board, else random
  // Two levels for people, from the table's ratings:
  kNonlosing,  // uniform among the moves whose result is not a loss, any move when all lose
  kPerfectP,   // with probability P a perfect move (as kPerfect), else a uniformly random one
  // The levels offered to people (player_levels) read ahead a bounded number of plies:
  kHorizon,  // uniform among the best moves as seen H plies ahead (horizon_moves), by the table
};

// Maps of the printed board (corners 6 top, 5 bottom-left, 3 bottom-right, centre
// 7; midpoints 1 on side 6-5, 2 on 5-3, 4 on 3-6) for the mirroring players.
// The first four are Ai Ai's: copy (the identity), reflection in the X axis
// (horizontal, through the centre), in the Y axis (vertical, through 6, 7, 2)
// and the half turn about the centre. Of these only copy and the Y reflection
// map the board onto itself: the X reflection and the half turn send every
// space but the centre off the board (a triangle pointing up becomes one
// pointing down). The others are the rest of the board's symmetry group:
// the turns by 120 and 240 degrees (anticlockwise) and the reflections in the
// axes through corner 5 and through corner 3.
// The maps are the printed board's (fano/geometry.hpp).
using MirrorMap = PlaneMap;
inline constexpr MirrorMap kAllMirrorMaps[] = {
    MirrorMap::kCopy,      MirrorMap::kReflectX,  MirrorMap::kReflectY, MirrorMap::kHalfTurn,
    MirrorMap::kRotate120, MirrorMap::kRotate240, MirrorMap::kReflect5, MirrorMap::kReflect3};

// "copy", "reflect-x", "reflect-y", "half-turn", "rotate-120", "rotate-240",
// "reflect-5", "reflect-3".
std::string_view mirror_map_name(MirrorMap map);
// The image of space s (0-based) under the map, or -1 when the geometric
// image of the space is not a space of the board.
int mirror_image(MirrorMap map, int space);

struct PlayerSpec {
  PlayerKind kind = PlayerKind::kRandom;
  int depth = 0;  // kSearch: plies looked ahead (1..kMaxSearchDepth); kHorizon: H (1..kMaxHorizon)
  MirrorMap map = MirrorMap::kCopy;  // kMirror
  double probability = 1;            // kPerfectP: P, 0..1
  bool operator==(const PlayerSpec&) const = default;
};
inline constexpr int kMaxSearchDepth = 8;
// More than the longest forced win of any reading (58 plies, standard): at
// that horizon the player sees every result and plays perfectly.
inline constexpr int kMaxHorizon = 99;

// Parses "random", "greedy", "search:K", "perfect", "engine", "keeping", "cover",
// "mirror:<map>", "nonlosing", "perfect:P" (P a plain decimal 0..1: 0 or 1,
// or either with a point and 1 to 4 digits; no sign or exponent) or
// "horizon:H"; throws
// std::invalid_argument naming what is wrong.
PlayerSpec parse_player(std::string_view text);
// The name parse_player reads back ("search:3", "mirror:reflect-y", "perfect:0.8":
// the shortest decimal that reads back as P).
std::string player_name(const PlayerSpec& player);
// The levels a person may choose an opponent from (the explorer's opponent
// chooser through GET /api/v2/players, Python's fano.player_levels(), `fano
// selfplay --list-players`), strongest first: each a name that parse_player
// reads and player_name writes back, a word a player understands, a line on
// how it plays, and its measured strength: the rating on one Elo scale and its
// 95% interval, fitted by bench/levels.py to a round-robin of the levels
// (results/levels.md; the numbers are generated into level_ratings.inc, and a
// test fails when they or the order disagree with results/levels.json).
// Every level avoids a move that forms a line at once when another exists.
struct PlayerLevel {
  std::string_view name;         // the player spec ("horizon:4")
  std::string_view label;        // "Beginner" ... "Perfect"
  std::string_view description;  // how it plays, in a few words
  int rating = 0;                // measured (results/levels.md)
  int low = 0, high = 0;         // the rating's 95% interval
};
std::span<const PlayerLevel> player_levels();

// True for players that read the tablebase (perfect, engine, keeping, nonlosing,
// perfect:P, horizon:H).
bool needs_table(const PlayerSpec& player);

// A player's move and, for a mirroring player, whether the image was unavailable.
struct PlayerMove {
  Move move;
  bool mirrored = false;  // kMirror: a move was due to mirror (the opponent had moved)
  bool fallback = false;  // kMirror: no legal image (or opening centre), a random move instead
};

// The move `player` makes in the game's current position; requires the game
// not to be over, and `tb` (of the game's variant) for perfect and engine.
// Throws UnreachablePosition / TablebaseError from the table.
PlayerMove choose_player_move(const PlayerSpec& player, const Tablebase* tb, const GameRecord& game,
                              Rng& rng);

// The move sets the players choose from, uniformly (for tests and the docs).
// greedy: the moves that form no line, or every move when each forms one.
std::vector<Move> greedy_moves(const Rules& rules, State st);
// search:K: the moves of the best minimax score K plies deep (search_score).
std::vector<Move> search_best_moves(const GameRecord& game, int depth);
// perfect: the moves whose result (value and plies, under the history) equals the best.
std::vector<Move> perfect_moves(const Tablebase& tb, const GameRecord& game);
// nonlosing: the moves whose result (under the history) is not a loss, or every
// legal move when each loses; in the rules' move order.
std::vector<Move> nonlosing_moves(const Tablebase& tb, const GameRecord& game);
// horizon:H: the moves of the best result as a player reading H plies ahead
// sees it, by the table under the game's history: a win or a loss in at most H
// plies is seen exactly (faster wins and slower losses preferred, as search:K
// scores them: horizon_score), any other result (a draw, or a win or a loss
// further away) looks like a draw. A move that forms a line loses in 1 ply,
// so from H = 1 on the player never forms a line while another move exists;
// H plies of the table's exact results equal a depth-H search's scores, at
// the cost of one probe per move. In the rules' move order.
std::vector<Move> horizon_moves(const Tablebase& tb, const GameRecord& game, int horizon);
// The score horizon:H gives a move of result `result` (for its mover):
// kSearchWin - p for a win in p <= H plies, -(kSearchWin - p) for a loss in
// p <= H plies, 0 otherwise.
int horizon_score(const Outcome& result, int horizon);
// keeping: the engine's earlier rule, kept to measure the trap rule's
// gain: among the moves of the best result (as perfect_moves), the first in
// move order of those leaving the opponent the fewest keeping_replies (a move
// that repeats a position counts as leaving none).
Move keeping_move(const Tablebase& tb, const GameRecord& game);
// cover: the legal moves that end on the space where the opponent's last move
// put its piece (a placement on it, or a movement onto it); every legal move
// when there are none or the opponent has not moved in this record.
std::vector<Move> cover_moves(const GameRecord& game);
// mirror: the image of the opponent's last move, if legal: a placement of the
// same shape on the image space, or a movement between the images of its
// spaces. With no last move (the mirroring side moves first) the opening rule
// applies instead (Ai Ai's "attempt to play in the centre"): see mirror_moves.
std::optional<Move> mirror_move(MirrorMap map, const GameRecord& game);
// The moves a mirroring player picks from: {its image} when legal (mirrored,
// no fallback); with no last move, the legal moves onto the centre (7), or
// every legal move when none reaches it (neither mirrored nor a fallback);
// when the image is not legal, every legal move (mirrored and a fallback).
std::vector<Move> mirror_moves(MirrorMap map, const GameRecord& game, bool& mirrored,
                               bool& fallback);

// The depth-limited minimax score, for the mover, of each legal move of the
// game's current position (in the rules' move order), the move's ply counted
// as the first of `depth`: at a position where a line stands the side to move
// has won (score kSearchWin - p, p plies below the root), where the side to
// move has no move she has lost (-(kSearchWin - p)), a position that occurred
// earlier in the game or in the search is a draw (0, rule 3), and a position
// at the depth limit is unknown (0). Faster wins and slower losses score higher.
inline constexpr int kSearchWin = 1000;
std::vector<int> search_move_scores(const GameRecord& game, int depth);

}  // namespace fano
