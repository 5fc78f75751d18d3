// Facts about a variant that published analyses state: the distinct actions
// (moves named without the position), the shortest games by how they end, and
// the longest forced win with its line (`fano facts`).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fano/json.hpp"
#include "fano/rules.hpp"
#include "fano/tablebase.hpp"
#include "fano/value.hpp"

namespace fano {

// Actions named as Ai Ai names them, without colour: a placement "Round6" is
// (shape, space), a movement "7-5" is (from, to).
struct ActionCount {
  int placements_by_rules = 0;   // 2 shapes x 7 spaces
  int movements_by_rules = 0;    // directed edges of the adjacency
  int placements_occurring = 0;  // legal in some reachable, unfinished position
  int movements_occurring = 0;
  int coloured_occurring = 0;                // the same with the mover's colour told apart
  std::vector<std::string> never_occurring;  // actions of the rules no position allows
};

// One shortest game of a kind, found breadth-first (moves in the rules' order).
struct ShortestGame {
  int plies = 0;
  std::uint64_t positions = 0;  // distinct ended positions of this kind at that depth
  std::vector<Move> line;       // one game from the empty board, the first found
  GameOver how = GameOver::kNone;
};

struct GameFacts {
  Variant variant;
  std::uint64_t reachable = 0;  // positions reachable from the empty board
  ActionCount actions;
  std::optional<ShortestGame> shortest_placement_end;  // ends during the 8 placements
  std::optional<ShortestGame> shortest_no_move;        // ends because a player cannot move
};

// Every reachable position visited breadth-first (serial, deterministic).
GameFacts game_facts(const Rules& rules);

struct LongestWin {
  Outcome value;            // the longest forced win stored (for the side to move)
  State position;           // the first stored class with it
  std::vector<Move> reach;  // a shortest way there from the empty board
  std::vector<Move> line;   // the principal variation from it (no history) to the end
  std::optional<Outcome> value_after_reach;  // the value under the history of `reach` (rule 3)
};

// The longest win in the table, where it is and its line. Throws when the table holds no win.
LongestWin longest_forced_win(const Tablebase& tb);

// A shortest move list from the empty board to `target` (BFS); throws
// UnreachablePosition when no game reaches it.
std::vector<Move> shortest_path_to(const Rules& rules, State target);

// A mirroring transformation of the printed board (corner 6 top, 5 bottom left,
// 3 bottom right, centre 7), as Ai Ai names them, about the centroid (space 7):
// "reflection (X axis)" (top and bottom swapped), "reflection (Y axis)" (left and
// right swapped), "rotation (half turn)". `perm` is set when every space's image
// is a space; `symmetry` when that permutation is one of the variant's
// move-graph symmetries (fano/symmetry.hpp).
struct BoardTransform {
  std::string name;
  std::optional<std::array<std::uint8_t, kSpaces>> perm;
  bool symmetry = false;
};
std::vector<BoardTransform> printed_board_transforms(Adjacency adjacency);

// The BoardGameGeek covering strategy, solved exactly: Black may play only
// cover_moves (fano/players.hpp: onto the space of White's last move, any legal
// move when there is none) and chooses freely among them; White plays freely.
// `plies` is White's fastest forced win from the empty board (rule 3 applies);
// `line` is one game of that length in which Black resists longest.
struct CoverWin {
  int plies = 0;
  std::vector<Move> line;
};
// The fastest forced win within max_plies, or nullopt (then covering holds that long).
std::optional<CoverWin> fastest_win_against_cover(const Rules& rules, int max_plies = 16);

Json game_facts_json(const GameFacts& f);
Json cover_win_json(const CoverWin& w);
Json board_transforms_json(const std::vector<BoardTransform>& t);
Json longest_win_json(const LongestWin& w);

}  // namespace fano
