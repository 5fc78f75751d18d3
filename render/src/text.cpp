#include <cassert>
#include <cmath>
#include <string>
#include <vector>

#include "fano/notation.hpp"
#include "fano/render.hpp"

namespace fano {
namespace {

// A character canvas on which the board is drawn in real geometry: the
// triangle (rows 0..kBase), its medians, the inscribed circle through 1, 2
// and 4, then the cells over them.
constexpr int kBase = 12;        // the row of corners 5 and 3
constexpr double kAspect = 2.0;  // columns per row (a character is about twice as tall as wide)

struct Canvas {
  int rows, cols;
  std::vector<std::string> grid;
  Canvas(int r, int c) : rows(r), cols(c), grid(std::size_t(r), std::string(std::size_t(c), ' ')) {}
  // Draws ch at (r, c) unless something else is there; a crossing becomes '+'.
  void put(double r, double c, char ch) {
    const int ri = int(std::lround(r)), ci = int(std::lround(c));
    if (ri < 0 || ri >= rows || ci < 0 || ci >= cols) return;
    char& at = grid[std::size_t(ri)][std::size_t(ci)];
    at = at == ' ' || at == ch ? ch : '+';
  }
};

struct Spot {
  double row, col;
};

// A straight line between two spots: '|', '/', '\' one character a row when
// steep, '-' with '.' and '\'' for its slope when shallow.
void segment(Canvas& cv, Spot a, Spot b) {
  const double dr = b.row - a.row, dc = b.col - a.col;
  if (std::abs(dr) < 1e-9) {
    for (double c = std::min(a.col, b.col); c <= std::max(a.col, b.col); c += 1)
      cv.put(a.row, c, '-');
    return;
  }
  const double slope = dc / dr;  // columns per row
  if (std::abs(slope) <= 3) {
    const char ch = std::abs(slope) < 0.5 ? '|' : slope > 0 ? '\\' : '/';
    const int step = dr > 0 ? 1 : -1;
    for (double r = a.row; (r - b.row) * step <= 1e-9; r += step)
      cv.put(r, a.col + slope * (r - a.row), ch);
    return;
  }
  const int step = dc > 0 ? 1 : -1;
  for (double c = a.col; (c - b.col) * step <= 1e-9; c += step) {
    const double r = a.row + (c - a.col) / slope, frac = r - std::round(r);
    cv.put(r, c, std::abs(frac) < 0.25 ? '-' : frac > 0 ? '.' : '\'');
  }
}

}  // namespace

std::vector<std::string> wrap_words(const std::string& text, std::size_t width) {
  std::vector<std::string> lines;
  std::string cur;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t j = text.find(' ', i);
    if (j == std::string::npos) j = text.size();
    const std::string word = text.substr(i, j - i);
    if (!cur.empty() && cur.size() + 1 + word.size() > width) {
      lines.push_back(cur);
      cur.clear();
    }
    if (!word.empty()) {
      if (!cur.empty()) cur += ' ';
      cur += word;
    }
    i = j + 1;
  }
  if (!cur.empty() || lines.empty()) lines.push_back(cur);
  return lines;
}

std::string render_board(State st, int stack_cap) {
  return render_board(st, Variant{stack_cap, Adjacency::kBoard});
}

std::string render_board(State st, const Variant& rules) {
  const int stack_cap = rules.stack_cap;
  assert(stack_cap == 2 || stack_cap == 3);
  const int width = 4 + stack_cap;  // "[6:CT]"
  const double half_base = kBase / std::sqrt(3.0) * kAspect;
  const int centre = int(std::lround(half_base)) + width;
  Canvas cv(kBase + 1, 2 * centre + 1);
  // Corner 6 at the top, 5 and 3 at the bottom; 1, 4 and 2 the sides'
  // midpoints; 7 the centre.
  const Spot c6{0, double(centre)}, c5{kBase, centre - half_base}, c3{kBase, centre + half_base};
  auto mid = [](Spot a, Spot b) { return Spot{(a.row + b.row) / 2, (a.col + b.col) / 2}; };
  const Spot spots[kSpaces] = {
      mid(c6, c5), mid(c5, c3), c3, mid(c6, c3), c5, c6, Spot{kBase * 2.0 / 3, double(centre)}};
  for (const auto& l : kLineSpaces) {
    if (l[0] == 0 && l[1] == 1) continue;  // the circle {1,2,4}, drawn below
    segment(cv, spots[l[0]], spots[l[1]]);
    segment(cv, spots[l[1]], spots[l[2]]);
  }
  const double radius = kBase / 3.0;
  for (int k = 0; k < 720; ++k) {
    const double t = 2 * M_PI * k / 720;
    const Spot p{spots[6].row + radius * std::sin(t),
                 spots[6].col + radius * kAspect * std::cos(t)};
    const int r = int(std::lround(p.row)), c = int(std::lround(p.col));
    if (r >= 0 && r < cv.rows && c >= 0 && c < cv.cols && cv.grid[r][c] == ' ') cv.grid[r][c] = '*';
  }
  // The cells, each "[n:" then the stack bottom to top, over the drawing; the
  // space number sits on the spot's column, so the vertical median 6-7-2 runs
  // through the same column of each of its cells at either cap.
  for (int s = 0; s < kSpaces; ++s) {
    std::string cell{'[', char('1' + s), ':'};
    for (int i = 0; i < st.height(s); ++i) cell += piece_char(st.piece_from_bottom(s, i));
    if (st.empty(s)) cell += '-';
    cell.resize(std::size_t(width - 1), ' ');
    cell += ']';
    const int row = int(std::lround(spots[s].row));
    int col = int(std::lround(spots[s].col)) - 1;
    col = std::max(0, std::min(col, cv.cols - width));
    cv.grid[std::size_t(row)].replace(std::size_t(col), std::size_t(width), cell);
  }
  std::string out;
  for (std::string& line : cv.grid) {
    line.erase(line.find_last_not_of(' ') + 1);
    out += line + "\n";
  }
  out += "stacks bottom to top: the last piece is on top (only tops count and move)\n";
  if (st.placement_phase(rules)) {
    out += "supply:";
    for (Colour c : {Colour::kWhite, Colour::kBlack}) {
      out += c == Colour::kWhite ? " White" : ", Black";
      std::string left;
      for (Shape sh : {Shape::kCircle, Shape::kTriangle}) {
        const Piece p = make_piece(c, sh);
        for (int k = st.count_on_board(p); k < rules.copies(int(sh)); ++k)
          left += std::string(" ") + piece_char(p);
      }
      out += left.empty() ? " none" : left;
    }
    out += "\n";
  }
  out += std::string(st.to_move() == Colour::kWhite ? "White" : "Black") + " to move\n";
  return out;
}

}  // namespace fano
