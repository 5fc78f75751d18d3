// An SVG picture of the printed board: the triangle (corners 6 top, 5
// bottom-left, 3 bottom-right), its medians, the inscribed circle through 1, 2
// and 4, the spaces numbered as in the rules, every stack drawn bottom to top,
// the side to move and, optionally, the best moves.
#pragma once

#include <string>
#include <vector>

#include "fano/analysis.hpp"
#include "fano/game.hpp"

namespace fano {

struct SvgOptions {
  // Moves to mark: a movement as an arrow from its space to its target, a
  // placement as a dashed outline of the placed shape around the space.
  std::vector<Move> best;
  // Extra lines of text under the board (e.g. the value, or why the game is over).
  std::vector<std::string> notes;
  // A line (0..6) to highlight, the one that ended the game; -1 for none.
  int highlight_line = -1;
  // Every legal move, marked as `best` marks them but coloured by its result
  // for the mover (win green, draw blue, loss red; class "move win" etc.).
  std::vector<RatedMove> all_moves;
  // The rules: the supply drawn and when the placement phase ends.
  Variant variant = kStandard;
};

// The picture as a standalone SVG document. Every piece is one element with
// class "piece" (plus "white"/"black" and "circle"/"triangle"); best-move marks
// have class "best", never "piece"; in the placement phase each player's
// supply is drawn below the board (class "supply", no data-space). Spaces,
// pieces and highlight rings carry data-space="1".."7", so that a page can make
// the picture clickable. A move along the circle (1-2, 2-4, 1-4) is an arc of it;
// a placement of each shape at one space gives a circle outline around a
// triangle outline, never crossing.
std::string board_svg(State st, const SvgOptions& options = {});

// The picture's options from a position's report: the value for the side to
// move, the best moves marked (every move whose result equals the best one)
// and why the game is over, if it is.
// With all_moves, every move is marked by its result too (`fano show --all-moves`).
SvgOptions svg_options_for(const PositionReport& report, bool all_moves = false);
// Without a table: only why the game is over, if it is.
SvgOptions svg_options_for(const GameRecord& game);

}  // namespace fano
