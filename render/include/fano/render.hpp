// The text picture of the printed board, shared by every front end.
#pragma once

#include <string>
#include <vector>

#include "fano/state.hpp"

namespace fano {

// A small multi-line ASCII picture of the printed board with each stack
// (bottom to top) and the side to move. `stack_cap` (2 or 3) sets the cell width.
std::string render_board(State st, int stack_cap);
// The same under any rules (the supply and the phase follow its material).
std::string render_board(State st, const Variant& rules);

// Splits text at spaces into lines of at most `width` characters (a longer
// word stays whole on its own line); always at least one line.
std::vector<std::string> wrap_words(const std::string& text, std::size_t width);

}  // namespace fano
