#include "fano/svg.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <span>
#include <utility>
#include <vector>

#include "fano/analysis.hpp"
#include "fano/geometry.hpp"
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
// Where each space's number starts (its baseline), from the space: up-left or
// down-right, the quadrants a stack leaves free (its pieces go down-left to
// up-right), on the side away from the board's other lines.
constexpr std::array<Point, kSpaces> kLabelOffset{
    {{-38, -10}, {14, 34}, {14, 34}, {22, 16}, {14, 34}, {-42, 0}, {-32, -14}}};
constexpr double kOutlineCircle = kPieceR + 16;          // a placement's circle outline
constexpr double kOutlineTriangle = kPieceR * 1.3 + 20;  // its triangle's circumradius
// A space with both placements marked: the triangle inside the circle.
constexpr double kNestedCircle = kPieceR + 24, kNestedTriangle = kPieceR + 18;

// Space positions (0-based) in the picture: the printed board's geometry
// (fano/geometry.hpp) scaled to the circumradius, y down.
std::array<Point, kSpaces> space_points() {
  const auto unit = printed_board_points();
  std::array<Point, kSpaces> out{};
  for (int s = 0; s < kSpaces; ++s) out[s] = Point{kCx + kR * unit[s].x, kCy - kR * unit[s].y};
  return out;
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

// A piece of a player's supply: the piece's shape, smaller, class "supply".
std::string supply_element(Piece p, Point at) {
  const bool white = colour_of(p) == Colour::kWhite;
  const std::string cls = std::string("supply ") + (white ? "white" : "black") +
                          (shape_of(p) == Shape::kCircle ? " circle" : " triangle");
  const std::string style = white ? R"( fill="#ffffff" stroke="#000000" stroke-width="1.5")"
                                  : R"( fill="#000000" stroke="#9a9a9a" stroke-width="1")";
  if (shape_of(p) == Shape::kCircle)
    return "  <circle class=\"" + cls + "\" cx=\"" + num(at.x) + "\" cy=\"" + num(at.y) +
           "\" r=\"8\"" + style + "/>\n";
  return "  <polygon class=\"" + cls + "\" points=\"" + triangle_points(at, 10) + "\"" + style +
         "/>\n";
}

// A move to mark: its class, colour and arrowhead, and a tooltip ("" for the move alone).
struct MoveMark {
  Move move;
  std::string cls, colour, marker, title;
};

constexpr const char* kBestColour = "#1a8f3a";

const char* result_colour(Value v) {
  return v == Value::kWin ? "#1a8f3a" : v == Value::kDraw ? "#2f6fb5" : "#c0392b";
}

// Spaces 1, 2 and 4 (0-based 0, 1, 3): the circle's.
bool on_circle(int s) { return s == 0 || s == 1 || s == 3; }

std::string line(Point a, Point b, const std::string& attrs) {
  return "  <line x1=\"" + num(a.x) + "\" y1=\"" + num(a.y) + "\" x2=\"" + num(b.x) + "\" y2=\"" +
         num(b.y) + "\" " + attrs + "/>\n";
}

}  // namespace

namespace {

using Points = std::array<Point, kSpaces>;

// The document's start: size, title, arrowheads and the background.
void draw_frame(std::string& o, State st, const SvgOptions& options, double height) {
  o += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(kWidth) + "\" height=\"" +
       num(height) + "\" viewBox=\"0 0 " + num(kWidth) + " " + num(height) + "\">\n";
  o += "  <title>" + xml_escape(format_position(st)) + "</title>\n";
  auto marker = [](const std::string& id, const std::string& colour) {
    return "<marker id=\"" + id +
           "\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"6\" markerHeight=\"6\" "
           "orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"" +
           colour + "\"/></marker>";
  };
  o += "  <defs>" + marker("arrowhead", kBestColour);
  if (!options.all_moves.empty())
    for (Value v : {Value::kWin, Value::kDraw, Value::kLoss})
      o += marker("arrowhead-" + std::string(value_name(v)), result_colour(v));
  o += "</defs>\n";
  o += "  <rect x=\"0\" y=\"0\" width=\"" + num(kWidth) + "\" height=\"" + num(height) +
       "\" fill=\"#f4efe4\"/>\n";
}

// The board: triangle sides, medians and the inscribed circle; the spaces and
// their numbers (clear of a 3-piece stack).
void draw_board(std::string& o, const Points& pts) {
  const std::string board = R"(class="board" stroke="#5a4a3a" stroke-width="2" fill="none")";
  o += "  <polygon " + board + " points=\"" + num(pts[5].x) + "," + num(pts[5].y) + " " +
       num(pts[4].x) + "," + num(pts[4].y) + " " + num(pts[2].x) + "," + num(pts[2].y) + "\"/>\n";
  o += line(pts[1], pts[5], board);  // median 2-7-6
  o += line(pts[3], pts[4], board);  // median 4-7-5
  o += line(pts[0], pts[2], board);  // median 1-7-3
  o += "  <circle " + board + " cx=\"" + num(kCx) + "\" cy=\"" + num(kCy) + "\" r=\"" +
       num(kR / 2) + "\"/>\n";
  for (int s = 0; s < kSpaces; ++s) {
    o += "  <circle class=\"space\" data-space=\"" + std::to_string(s + 1) + "\" cx=\"" +
         num(pts[s].x) + "\" cy=\"" + num(pts[s].y) + "\" r=\"5\" fill=\"#5a4a3a\"/>\n";
    o += "  <text class=\"label\" x=\"" + num(pts[s].x + kLabelOffset[s].x) + "\" y=\"" +
         num(pts[s].y + kLabelOffset[s].y) +
         "\" font-family=\"sans-serif\" font-size=\"16\" font-weight=\"bold\" "
         "fill=\"#8a2a1a\">" +
         std::to_string(s + 1) + "</text>\n";
  }
}

// The line that ended the game: a ring around each of its three spaces.
void draw_highlight(std::string& o, const Points& pts, int highlight_line) {
  if (highlight_line < 0) return;
  for (int s : kLineSpaces[highlight_line])
    o += "  <circle class=\"line-highlight\" data-space=\"" + std::to_string(s + 1) + "\" cx=\"" +
         num(pts[s].x) + "\" cy=\"" + num(pts[s].y) + "\" r=\"" + num(kPieceR + 22) +
         "\" fill=\"#f2c14e\" fill-opacity=\"0.45\" stroke=\"#c0392b\" stroke-width=\"3\"/>\n";
}

// Move marks: the best moves in green, or every move coloured by its result.
std::vector<MoveMark> move_marks(const SvgOptions& options) {
  std::vector<MoveMark> marks;
  for (const Move& m : options.best) marks.push_back({m, "best", kBestColour, "arrowhead", ""});
  for (const RatedMove& r : options.all_moves) {
    const std::string result(value_name(r.result.value));
    marks.push_back({r.move, "move " + result, result_colour(r.result.value), "arrowhead-" + result,
                     format_move(r.move) + ": " + outcome_text(r.result)});
  }
  return marks;
}

std::string mark_title(const MoveMark& mk) {
  return "<title>" + xml_escape(mk.title.empty() ? format_move(mk.move) : mk.title) + "</title>";
}

// Placements as dashed outlines of the piece's shape, under the pieces (nested
// when both shapes are marked at one space).
void draw_placement_marks(std::string& o, const Points& pts, const std::vector<MoveMark>& marks) {
  for (const MoveMark& mk : marks) {
    const Move& m = mk.move;
    if (!m.is_placement()) continue;
    bool both = false;  // the other shape is marked at the same space
    for (const MoveMark& other : marks)
      both |= other.move.is_placement() && other.move.to == m.to &&
              shape_of(other.move.piece) != shape_of(m.piece);
    const std::string mark = "class=\"" + mk.cls + " placement\" data-move=\"" + format_move(m) +
                             "\" fill=\"none\" stroke=\"" + mk.colour +
                             "\" stroke-width=\"2.5\" stroke-dasharray=\"5,3\"";
    if (shape_of(m.piece) == Shape::kCircle)
      o += "  <circle " + mark + " cx=\"" + num(pts[m.to].x) + "\" cy=\"" + num(pts[m.to].y) +
           "\" r=\"" + num(both ? kNestedCircle : kOutlineCircle) + "\">" + mark_title(mk) +
           "</circle>\n";
    else
      o += "  <polygon " + mark + " points=\"" +
           triangle_points(pts[m.to], both ? kNestedTriangle : kOutlineTriangle) + "\">" +
           mark_title(mk) + "</polygon>\n";
  }
}

// Stacks, bottom to top, each piece offset up and right of the one below.
void draw_stacks(std::string& o, const Points& pts, State st) {
  for (int s = 0; s < kSpaces; ++s) {
    const int h = st.height(s);
    for (int i = 0; i < h; ++i) {
      const double k = i - (h - 1) / 2.0;
      o += piece_element(st.piece_from_bottom(s, i),
                         Point{pts[s].x + k * kStep, pts[s].y - k * kStep}, s);
    }
  }
}

// Movements as arrows over the pieces, shifted a little to their right so that
// two opposite arrows stay apart, and shortened to leave the stacks visible; a
// move along the circle follows its arc.
void draw_movement_marks(std::string& o, const Points& pts, const std::vector<MoveMark>& marks) {
  for (const MoveMark& mk : marks) {
    const Move& m = mk.move;
    if (m.is_placement()) continue;
    const Point a = pts[m.from], b = pts[m.to];
    constexpr double shift = 5, trim = 22;
    const std::string attrs = "class=\"" + mk.cls + " movement\" data-move=\"" + format_move(m) +
                              "\" fill=\"none\" stroke=\"" + mk.colour +
                              "\" stroke-width=\"3\" marker-end=\"url(#" + mk.marker + ")\"";
    if (on_circle(m.from) && on_circle(m.to)) {
      // The minor arc (120 degrees) from a to b; to the right of travel is
      // inwards when the angle grows (clockwise on screen), else outwards.
      const double ta = std::atan2(a.y - kCy, a.x - kCx);
      double d = std::atan2(b.y - kCy, b.x - kCx) - ta;
      while (d > M_PI) d -= 2 * M_PI;
      while (d < -M_PI) d += 2 * M_PI;
      const double r = kR / 2 + (d > 0 ? -shift : shift), cut = trim / r * (d > 0 ? 1 : -1);
      const Point p{kCx + r * std::cos(ta + cut), kCy + r * std::sin(ta + cut)};
      const Point q{kCx + r * std::cos(ta + d - cut), kCy + r * std::sin(ta + d - cut)};
      o += "  <path " + attrs + " d=\"M" + num(p.x) + "," + num(p.y) + " A" + num(r) + "," +
           num(r) + " 0 0 " + (d > 0 ? "1 " : "0 ") + num(q.x) + "," + num(q.y) + "\">" +
           mark_title(mk) + "</path>\n";
      continue;
    }
    const double dx = b.x - a.x, dy = b.y - a.y, len = std::hypot(dx, dy);
    const double ux = dx / len, uy = dy / len;
    const Point p{a.x + ux * trim - uy * shift, a.y + uy * trim + ux * shift};
    const Point q{b.x - ux * trim - uy * shift, b.y - uy * trim + ux * shift};
    o += "  <line " + attrs + " x1=\"" + num(p.x) + "\" y1=\"" + num(p.y) + "\" x2=\"" + num(q.x) +
         "\" y2=\"" + num(q.y) + "\">" + mark_title(mk) + "</line>\n";
  }
}

// Each player's supply, below the board on the right (placement phase): a
// row per player from kSupplyX, kSupplyStep apart, so that the largest
// material (three circles and three triangles) still ends inside the picture.
constexpr double kSupplyX = 300, kSupplyStep = 22;
static_assert(kSupplyX + 5 * kSupplyStep + 10 <= kWidth, "a supply of six pieces fits");
void draw_supply(std::string& o, State st, const Variant& variant) {
  if (!st.placement_phase(variant)) return;
  double y = kHeight - 48;
  for (Colour c : {Colour::kWhite, Colour::kBlack}) {
    // (the label ends short of the first piece, whatever the font's width)
    o += "  <text class=\"supply-label\" x=\"" + num(kSupplyX - 14) + "\" y=\"" + num(y + 5) +
         "\" text-anchor=\"end\" font-family=\"sans-serif\" font-size=\"14\" fill=\"#333333\">" +
         (c == Colour::kWhite ? "White" : "Black") + "</text>\n";
    double x = kSupplyX;
    for (Shape sh : {Shape::kCircle, Shape::kTriangle}) {
      const Piece p = make_piece(c, sh);
      for (int k = st.count_on_board(p); k < variant.copies(int(sh)); ++k, x += kSupplyStep)
        o += supply_element(p, Point{x, y});
    }
    y += 26;
  }
}

// Side to move, the position, then the notes.
void draw_footer(std::string& o, State st, const std::vector<std::string>& notes) {
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
}

}  // namespace

std::string board_svg(State st, const SvgOptions& options) {
  const Points pts = space_points();
  std::vector<std::string> notes;
  for (const std::string& note : options.notes)
    for (std::string& l : wrap_words(note, 52)) notes.push_back(std::move(l));
  const std::vector<MoveMark> marks = move_marks(options);
  std::string o;
  draw_frame(o, st, options, kHeight + 20 * double(notes.size()));
  draw_board(o, pts);
  draw_highlight(o, pts, options.highlight_line);
  draw_placement_marks(o, pts, marks);
  draw_stacks(o, pts, st);
  draw_movement_marks(o, pts, marks);
  draw_supply(o, st, options.variant);
  draw_footer(o, st, notes);
  o += "</svg>\n";
  return o;
}

SvgOptions svg_options_for(const PositionReport& r, bool all_moves) {
  SvgOptions options;
  options.variant = r.variant;
  if (all_moves) options.all_moves = r.moves;
  const State st = r.position;
  options.notes.push_back(value_sentence(r));
  std::string names;
  for (const RatedMove& m : r.moves) {
    if (!(m.result == r.moves.front().result)) break;
    if (!all_moves) options.best.push_back(m.move);
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
  options.variant = game.rules().variant;
  if (const auto end = game.end()) {
    options.notes.push_back("game over: " + describe_end(*end, game.current()));
    options.highlight_line = end->line;
  }
  return options;
}

}  // namespace fano
