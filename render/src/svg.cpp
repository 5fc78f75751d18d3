#include "fano/svg.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <span>
#include <utility>
#include <vector>

#include "fano/analysis.hpp"
#include "fano/notation.hpp"
#include "fano/render.hpp"
#include "fano/tablebase.hpp"

namespace fano {
namespace {

struct Point {
  double x, y;
};

constexpr double kWidth = 420, kHeight = 440;
constexpr double kCx = 210, kCy = 215, kR = 160;  // centroid and circumradius
constexpr double kPieceR = 12;                    // circle radius / triangle size
constexpr double kStep = 16;                      // offset between stacked pieces

// Space positions (0-based): corners 6 top, 5 bottom-left, 3 bottom-right;
// midpoints 1 (side 6-5), 4 (side 6-3), 2 (side 5-3); centre 7.
std::array<Point, kSpaces> space_points() {
  const double h = kR * std::sqrt(3.0) / 2;
  const Point c6{kCx, kCy - kR}, c5{kCx - h, kCy + kR / 2}, c3{kCx + h, kCy + kR / 2};
  auto mid = [](Point a, Point b) { return Point{(a.x + b.x) / 2, (a.y + b.y) / 2}; };
  return {mid(c6, c5), mid(c5, c3), c3, mid(c6, c3), c5, c6, Point{kCx, kCy}};
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string xml_escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// An upward triangle centred (centroid) on p with circumradius r.
std::string triangle_points(Point p, double r) {
  const double h = r * std::sqrt(3.0) / 2;
  return num(p.x) + "," + num(p.y - r) + " " + num(p.x - h) + "," + num(p.y + r / 2) + " " +
         num(p.x + h) + "," + num(p.y + r / 2);
}

std::string piece_element(Piece p, Point at, int space) {
  const bool white = colour_of(p) == Colour::kWhite;
  const bool circle = shape_of(p) == Shape::kCircle;
  const std::string cls = std::string("piece ") + (white ? "white" : "black") +
                          (circle ? " circle" : " triangle") + "\" data-space=\"" +
                          std::to_string(space + 1);
  // Black pieces get a grey outline so two stacked black pieces stay distinct.
  const std::string style = white ? R"( fill="#ffffff" stroke="#000000" stroke-width="2")"
                                  : R"( fill="#000000" stroke="#9a9a9a" stroke-width="1.5")";
  if (circle)
    return "  <circle class=\"" + cls + "\" cx=\"" + num(at.x) + "\" cy=\"" + num(at.y) +
           "\" r=\"" + num(kPieceR) + "\"" + style + "/>\n";
  return "  <polygon class=\"" + cls + "\" points=\"" + triangle_points(at, kPieceR * 1.3) + "\"" +
         style + "/>\n";
}

std::string line(Point a, Point b, const std::string& attrs) {
  return "  <line x1=\"" + num(a.x) + "\" y1=\"" + num(a.y) + "\" x2=\"" + num(b.x) + "\" y2=\"" +
         num(b.y) + "\" " + attrs + "/>\n";
}

}  // namespace

std::string board_svg(State st, const SvgOptions& options) {
  const auto pts = space_points();
  std::vector<std::string> notes;
  for (const std::string& note : options.notes)
    for (std::string& l : wrap_words(note, 52)) notes.push_back(std::move(l));
  const double height = kHeight + 20 * double(notes.size());
  std::string o;
  o += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(kWidth) + "\" height=\"" +
       num(height) + "\" viewBox=\"0 0 " + num(kWidth) + " " + num(height) + "\">\n";
  o += "  <title>" + xml_escape(format_position(st)) + "</title>\n";
  o += "  <defs><marker id=\"arrowhead\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" "
       "markerWidth=\"6\" markerHeight=\"6\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" "
       "fill=\"#1a8f3a\"/></marker></defs>\n";
  o += "  <rect x=\"0\" y=\"0\" width=\"" + num(kWidth) + "\" height=\"" + num(height) +
       "\" fill=\"#f4efe4\"/>\n";
  // The board: triangle sides, medians and the inscribed circle.
  const std::string board = R"(class="board" stroke="#5a4a3a" stroke-width="2" fill="none")";
  o += "  <polygon " + board + " points=\"" + num(pts[5].x) + "," + num(pts[5].y) + " " +
       num(pts[4].x) + "," + num(pts[4].y) + " " + num(pts[2].x) + "," + num(pts[2].y) + "\"/>\n";
  o += line(pts[1], pts[5], board);  // median 2-7-6
  o += line(pts[3], pts[4], board);  // median 4-7-5
  o += line(pts[0], pts[2], board);  // median 1-7-3
  o += "  <circle " + board + " cx=\"" + num(kCx) + "\" cy=\"" + num(kCy) + "\" r=\"" +
       num(kR / 2) + "\"/>\n";
  // Spaces and their numbers (below left of the space, clear of the stack).
  for (int s = 0; s < kSpaces; ++s) {
    o += "  <circle class=\"space\" data-space=\"" + std::to_string(s + 1) + "\" cx=\"" +
         num(pts[s].x) + "\" cy=\"" + num(pts[s].y) + "\" r=\"5\" fill=\"#5a4a3a\"/>\n";
    o += "  <text class=\"label\" x=\"" + num(pts[s].x - 30) + "\" y=\"" + num(pts[s].y + 30) +
         "\" font-family=\"sans-serif\" font-size=\"16\" font-weight=\"bold\" "
         "fill=\"#8a2a1a\">" +
         std::to_string(s + 1) + "</text>\n";
  }
  // The line that ended the game: a ring around each of its three spaces.
  if (options.highlight_line >= 0)
    for (int s : kLineSpaces[options.highlight_line])
      o += "  <circle class=\"line-highlight\" data-space=\"" + std::to_string(s + 1) + "\" cx=\"" +
           num(pts[s].x) + "\" cy=\"" + num(pts[s].y) + "\" r=\"" + num(kPieceR + 22) +
           "\" fill=\"#f2c14e\" fill-opacity=\"0.45\" stroke=\"#c0392b\" stroke-width=\"3\"/>\n";
  // Best-move marks under the pieces: dashed outlines for placements.
  for (const Move& m : options.best) {
    if (!m.is_placement()) continue;
    const std::string mark = R"(class="best placement" fill="none" stroke="#1a8f3a" )"
                             R"(stroke-width="2.5" stroke-dasharray="5,3")";
    if (shape_of(m.piece) == Shape::kCircle)
      o += "  <circle " + mark + " cx=\"" + num(pts[m.to].x) + "\" cy=\"" + num(pts[m.to].y) +
           "\" r=\"" + num(kPieceR + 16) + "\"><title>" + format_move(m) + "</title></circle>\n";
    else
      o += "  <polygon " + mark + " points=\"" + triangle_points(pts[m.to], kPieceR * 1.3 + 20) +
           "\"><title>" + format_move(m) + "</title></polygon>\n";
  }
  // Stacks, bottom to top, each piece offset up and right of the one below.
  for (int s = 0; s < kSpaces; ++s) {
    const int h = st.height(s);
    for (int i = 0; i < h; ++i) {
      const double k = i - (h - 1) / 2.0;
      o += piece_element(st.piece_from_bottom(s, i),
                         Point{pts[s].x + k * kStep, pts[s].y - k * kStep}, s);
    }
  }
  // Movements as arrows over the pieces, shifted a little to their right so
  // that two opposite arrows stay apart, and shortened to leave the stacks visible.
  for (const Move& m : options.best) {
    if (m.is_placement()) continue;
    const Point a = pts[m.from], b = pts[m.to];
    const double dx = b.x - a.x, dy = b.y - a.y, len = std::hypot(dx, dy);
    const double ux = dx / len, uy = dy / len, shift = 5, trim = 22;
    const Point p{a.x + ux * trim - uy * shift, a.y + uy * trim + ux * shift};
    const Point q{b.x - ux * trim - uy * shift, b.y - uy * trim + ux * shift};
    o += "  <line class=\"best movement\" x1=\"" + num(p.x) + "\" y1=\"" + num(p.y) + "\" x2=\"" +
         num(q.x) + "\" y2=\"" + num(q.y) +
         "\" stroke=\"#1a8f3a\" stroke-width=\"3\" marker-end=\"url(#arrowhead)\"><title>" +
         format_move(m) + "</title></line>\n";
  }
  // Side to move, then the notes.
  const bool white = st.to_move() == Colour::kWhite;
  double y = kHeight - 42;
  o += "  <text class=\"to-move\" x=\"20\" y=\"" + num(y) +
       "\" font-family=\"sans-serif\" font-size=\"18\" fill=\"#000000\">" +
       (white ? "White" : "Black") + " to move</text>\n";
  y += 24;
  o += "  <text class=\"position\" x=\"20\" y=\"" + num(y) +
       "\" font-family=\"monospace\" font-size=\"14\" fill=\"#333333\">" +
       xml_escape(format_position(st)) + "</text>\n";
  for (const std::string& note : notes) {
    y += 20;
    o += "  <text class=\"note\" x=\"20\" y=\"" + num(y) +
         "\" font-family=\"sans-serif\" font-size=\"14\" fill=\"#333333\">" + xml_escape(note) +
         "</text>\n";
  }
  o += "</svg>\n";
  return o;
}

SvgOptions svg_options_for(const PositionReport& r) {
  SvgOptions options;
  const State st = r.position;
  options.notes.push_back(value_sentence(r));
  std::string names;
  for (const RatedMove& m : r.moves) {
    if (!(m.result == r.moves.front().result)) break;
    options.best.push_back(m.move);
    if (!names.empty()) names += ", ";
    names += format_move(m.move);
  }
  if (!r.moves.empty())
    options.notes.push_back("best (" + outcome_text(r.moves.front().result) + "): " + names);
  if (r.game_over) {
    options.notes.push_back("game over: " + describe_end(*r.game_over, st));
    options.highlight_line = r.game_over->line;
  }
  return options;
}

SvgOptions svg_options_for(const GameRecord& game) {
  SvgOptions options;
  if (const auto end = game.end()) {
    options.notes.push_back("game over: " + describe_end(*end, game.current()));
    options.highlight_line = end->line;
  }
  return options;
}

}  // namespace fano
