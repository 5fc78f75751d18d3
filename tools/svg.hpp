// An SVG picture of the printed board: the triangle (corners 6 top, 5
// bottom-left, 3 bottom-right), its medians, the inscribed circle through 1, 2
// and 4, the spaces numbered as in the rules, every stack drawn bottom to top,
// the side to move and, optionally, the best moves.
#pragma once

#include <string>
#include <vector>

#include "fano/rules.hpp"
#include "fano/tablebase.hpp"

namespace fano {

struct SvgOptions {
  // Moves to mark: a movement as an arrow from its space to its target, a
  // placement as a dashed outline of the placed shape around the space.
  std::vector<Move> best;
  // Extra lines of text under the board (e.g. the value, or why the game is over).
  std::vector<std::string> notes;
};

// The picture as a standalone SVG document. Every piece is one element with
// class "piece" (plus "white"/"black" and "circle"/"triangle"); best-move marks
// have class "best", never "piece".
std::string board_svg(State st, const SvgOptions& options = {});

// The picture's options for a position: why the game is over, if it is; and,
// given a table, the value for the side to move and the best moves marked
// (every move whose result equals the best one). The position must be in the
// table (check reachability first).
SvgOptions svg_options_for(const Rules& rules, State st, const Tablebase* tb);

// Writes text to path atomically (a temporary file renamed over path).
// Throws TablebaseError (kIo) naming the file when it cannot be written.
void write_text_atomically(const std::string& path, const std::string& text);

}  // namespace fano
