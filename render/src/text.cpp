#include <cassert>
#include <sstream>

#include "fano/notation.hpp"
#include "fano/render.hpp"

namespace fano {

std::string render_board(State st, int stack_cap) {
  assert(stack_cap == 2 || stack_cap == 3);
  auto cell = [&](int s) {
    std::string body;
    for (int i = 0; i < st.height(s); ++i) body += piece_char(st.piece_from_bottom(s, i));
    if (body.empty()) body.push_back('-');
    body.resize(size_t(stack_cap), ' ');
    std::string out(1, '[');
    out.append(1, char('1' + s)).append(1, ':').append(body).append(1, ']');
    return out;
  };
  // Corner 6 at the top, 5 and 3 at the bottom; 1, 4 and 2 the sides' midpoints;
  // 7 the centre. The circle passes through 1, 2 and 4.
  std::ostringstream o;
  o << "              " << cell(5) << "\n";
  o << "             /  |  \\\n";
  o << "      " << cell(0) << "  |  " << cell(3) << "\n";
  o << "       /    \\   |   /    \\\n";
  o << "      /      " << cell(6) << "      \\\n";
  o << "     /       /  |  \\       \\\n";
  o << "  " << cell(4) << "-----" << cell(1) << "-----" << cell(2) << "\n";
  o << "  " << (st.to_move() == Colour::kWhite ? "White" : "Black") << " to move\n";
  return o.str();
}

}  // namespace fano
