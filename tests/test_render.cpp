// The render library: the text board and the SVG picture, drawn from a
// position alone (the reports they can mark come from fano::analysis).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "fano/notation.hpp"
#include "fano/render.hpp"
#include "fano/rules.hpp"
#include "fano/svg.hpp"
#include "support.hpp"

namespace fano {
namespace {

// The stacks of a position as its notation spells them, space by space
// (bottom to top, "" for an empty space): read from the text, not the State.
std::array<std::string, kSpaces> stacks_of(State st) {
  const std::string text = format_position(st);
  std::array<std::string, kSpaces> out{};
  std::size_t space = 0;
  for (const char c : text.substr(0, text.find(' ')))
    if (c == '/')
      ++space;
    else if (c != '-')
      out[space] += c;
  return out;
}

// Positions of random games (30 plies at most, each ply kept) of `v`.
std::vector<State> random_positions(const Variant& v, unsigned seed) {
  const Rules rules(v);
  std::mt19937 rng(seed);
  std::vector<State> out;
  State st = kEmptyBoard;
  for (int ply = 0; ply < 30 && game_over(rules, st) == GameOver::kNone; ++ply) {
    out.push_back(st);
    const auto moves = legal_moves(rules, st);
    st = apply_move(st, moves[rng() % moves.size()]);
  }
  out.push_back(st);
  return out;
}

// The readings the drawing tests cover: both caps and adjacencies, and
// material other than the rulebook's (more circles, fewer triangles).
std::vector<Variant> drawn_readings() {
  return {kStandard, kCap3Projective, *variant_from_name("cap3-board-3c1t"),
          *variant_from_name("standard-1c2t")};
}

TEST(Render, ShowsEveryStackAndTheSide) {
  const std::string pic = render_board(parse_position("-/-/-/CT/tT/Cc/tc w", kStandard), 2);
  for (const char* cell : {"[1:- ]", "[4:CT]", "[5:tT]", "[6:Cc]", "[7:tc]"})
    EXPECT_NE(pic.find(cell), std::string::npos) << cell << "\n" << pic;
  EXPECT_NE(pic.find("White to move"), std::string::npos) << pic;
}

// Each piece on the board is one SVG element of class "piece" with its
// colour, its shape and its space: counted here from the markup against the
// position's stacks, over random games of two readings.
TEST(Svg, EveryPieceIsOneElementOnItsSpace) {
  const std::regex piece(
      R"re(class="piece (white|black) (circle|triangle)" data-space="([1-7])")re");
  std::mt19937 rng(7);
  for (const Variant& v : {kStandard, kCap3Projective}) {
    const Rules rules(v);
    State st = kEmptyBoard;
    for (int ply = 0; ply < 30 && game_over(rules, st) == GameOver::kNone; ++ply) {
      SvgOptions options;
      options.variant = v;
      const std::string svg = board_svg(st, options);
      std::array<std::string, kSpaces> drawn{};  // per space, the letters drawn
      for (std::sregex_iterator it(svg.begin(), svg.end(), piece), end; it != end; ++it) {
        const std::smatch& m = *it;
        const char letter = m[2] == "circle" ? 'C' : 'T';
        drawn[m[3].str()[0] - '1'] += m[1] == "white" ? letter : char(letter - 'A' + 'a');
      }
      const std::string stacks = format_position(st);
      std::array<std::string, kSpaces> expected{};
      std::size_t space = 0;
      for (char c : stacks.substr(0, stacks.find(' ')))
        if (c == '/')
          ++space;
        else if (c != '-')
          expected[space] += c;
      EXPECT_EQ(drawn, expected) << stacks;
      const auto moves = legal_moves(rules, st);
      st = apply_move(st, moves[rng() % moves.size()]);
    }
  }
}

// The text board shows every space's stack bottom to top ("[4:CT]") and the
// side to move, for every position of random games of several readings.
TEST(Render, TextBoardShowsEveryStackOfRandomGames) {
  const std::regex cell(R"re(\[([1-7]):([-CTct ]*)\])re");
  for (const Variant& v : drawn_readings())
    for (const State st : random_positions(v, 11)) {
      const std::string pic = render_board(st, v);
      std::array<std::string, kSpaces> drawn{};
      int cells = 0;
      for (std::sregex_iterator it(pic.begin(), pic.end(), cell), end; it != end; ++it, ++cells) {
        std::string stack = (*it)[2];
        std::erase(stack, ' ');
        if (stack != "-") drawn[(*it)[1].str()[0] - '1'] = stack;
      }
      EXPECT_EQ(cells, kSpaces) << pic;
      EXPECT_EQ(drawn, stacks_of(st)) << pic;
      const std::string side = format_position(st).back() == 'w' ? "White" : "Black";
      EXPECT_NE(pic.find(side + " to move"), std::string::npos) << pic;
    }
}

// A piece's centre in the SVG markup: a circle's (cx, cy), a triangle's
// centroid (the mean of its three points).
struct Drawn {
  std::string kind;  // "white circle", "black triangle", ...
  int space;
  double x, y;
};

std::vector<Drawn> drawn_pieces(const std::string& svg) {
  const std::regex element(
      R"re(<(circle|polygon) class="piece (\w+ \w+)" data-space="([1-7])" (?:cx="([-\d.]+)" cy="([-\d.]+)"|points="([-\d., ]+)"))re");
  std::vector<Drawn> out;
  for (std::sregex_iterator it(svg.begin(), svg.end(), element), end; it != end; ++it) {
    const std::smatch& m = *it;
    Drawn d{m[2], m[3].str()[0] - '0', 0, 0};
    if (m[1] == "circle") {
      d.x = std::stod(m[4]), d.y = std::stod(m[5]);
    } else {
      std::istringstream points(m[6]);
      double px, py;
      char comma;
      for (int i = 0; i < 3 && points >> px >> comma >> py; ++i) d.x += px / 3, d.y += py / 3;
    }
    out.push_back(d);
  }
  return out;
}

// In a stack each higher piece is drawn after the one beneath it (so on top
// of it), up and to the right of it (the legend of the page says so), and
// every piece of every kind is drawn as its own shape and colour.
TEST(Svg, AStacksPiecesRiseUpAndRightBottomToTop) {
  for (const Variant& v : drawn_readings())
    for (const State st : random_positions(v, 23)) {
      SvgOptions options;
      options.variant = v;
      const std::vector<Drawn> pieces = drawn_pieces(board_svg(st, options));
      const auto stacks = stacks_of(st);
      for (int s = 0; s < kSpaces; ++s) {
        std::vector<Drawn> here;
        for (const Drawn& d : pieces)
          if (d.space == s + 1) here.push_back(d);
        ASSERT_EQ(here.size(), stacks[s].size()) << format_position(st) << " space " << s + 1;
        for (std::size_t k = 0; k < here.size(); ++k) {
          const char c = stacks[s][k];
          const std::string kind =
              std::string(std::isupper(static_cast<unsigned char>(c)) ? "white" : "black") +
              (std::tolower(static_cast<unsigned char>(c)) == 'c' ? " circle" : " triangle");
          EXPECT_EQ(here[k].kind, kind) << format_position(st) << " space " << s + 1;
          if (k > 0) {
            EXPECT_GT(here[k].x, here[k - 1].x) << format_position(st) << " space " << s + 1;
            EXPECT_LT(here[k].y, here[k - 1].y) << format_position(st) << " space " << s + 1;
          }
        }
      }
    }
}

// In the placement phase each player's supply shows the pieces not yet on
// the board, by colour and shape: the reading's material less what the
// position's notation shows placed. None once placement is over.
TEST(Svg, SupplyShowsEachPlayersUnplacedPieces) {
  const std::regex supply(R"re(class="supply (white|black) (circle|triangle)")re");
  for (const Variant& v : drawn_readings())
    for (const State st : random_positions(v, 5)) {
      SvgOptions options;
      options.variant = v;
      const std::string svg = board_svg(st, options);
      std::map<char, int> shown,
          left{{'C', v.circles}, {'T', v.triangles}, {'c', v.circles}, {'t', v.triangles}};
      for (std::sregex_iterator it(svg.begin(), svg.end(), supply), end; it != end; ++it) {
        const char letter = (*it)[2] == "circle" ? 'C' : 'T';
        ++shown[(*it)[1] == "white" ? letter : char(std::tolower(letter))];
      }
      int unplaced = 0;
      for (const std::string& stack : stacks_of(st))
        for (const char c : stack) --left[c];
      for (const auto& [piece, n] : left) unplaced += n;
      for (auto& [piece, n] : left)
        EXPECT_EQ(shown[piece], unplaced ? n : 0) << format_position(st) << " piece " << piece;
    }
}

// A drawn element's box: x and y from..to.
struct Box {
  double x0, x1, y0, y1;
};

// The supply's elements of `svg` by kind ('C', 'T', 'c', 't') with their
// boxes, read from the circles' centres and radii and the triangles' corners.
std::map<char, std::vector<Box>> supply_boxes(const std::string& svg) {
  const std::regex element(
      R"re(<(circle|polygon) class="supply (white|black) (circle|triangle)"([^>]*)>)re");
  const std::regex attr(R"re(([a-z]+)="([^"]*)")re");
  std::map<char, std::vector<Box>> out;
  for (std::sregex_iterator it(svg.begin(), svg.end(), element), end; it != end; ++it) {
    const char letter = (*it)[3] == "circle" ? 'C' : 'T';
    const char kind = (*it)[2] == "white" ? letter : char(std::tolower(letter));
    const std::string attrs = (*it)[4];
    std::map<std::string, std::string> a;
    for (std::sregex_iterator at(attrs.begin(), attrs.end(), attr), e2; at != e2; ++at)
      a[(*at)[1]] = (*at)[2];
    Box b{1e9, -1e9, 1e9, -1e9};
    if ((*it)[1] == "circle") {
      const double cx = std::stod(a.at("cx")), cy = std::stod(a.at("cy")), r = std::stod(a.at("r"));
      b = Box{cx - r, cx + r, cy - r, cy + r};
    } else {
      std::istringstream corners(a.at("points"));
      double x = 0, y = 0;
      char comma = 0;
      while (corners >> x >> comma >> y)
        b = Box{std::min(b.x0, x), std::max(b.x1, x), std::min(b.y0, y), std::max(b.y1, y)};
    }
    out[kind].push_back(b);
  }
  return out;
}

// Every reading's largest supply (the empty board: every piece unplaced) is
// drawn whole: as many pieces of each kind as the reading gives each player,
// each one inside the picture and clear of the others.
TEST(Svg, SupplyOfEveryReadingIsDrawnWholeInsideThePicture) {
  const std::vector<Variant> readings = every_rules();
  ASSERT_EQ(readings.size(), 72u);
  for (const Variant& v : readings) {
    SvgOptions options;
    options.variant = v;
    const std::string svg = board_svg(kEmptyBoard, options);
    std::smatch size;
    ASSERT_TRUE(
        std::regex_search(svg, size, std::regex(R"re(width="([0-9.]+)" height="([0-9.]+)")re")));
    const double width = std::stod(size[1]), height = std::stod(size[2]);
    const auto boxes = supply_boxes(svg);
    const std::map<char, int> want{
        {'C', v.circles}, {'T', v.triangles}, {'c', v.circles}, {'t', v.triangles}};
    std::vector<Box> all;
    for (const auto& [kind, n] : want) {
      const auto found = boxes.find(kind);
      const int drawn = found == boxes.end() ? 0 : int(found->second.size());
      EXPECT_EQ(drawn, n) << variant_short_name(v) << " piece " << kind;
      if (found != boxes.end()) all.insert(all.end(), found->second.begin(), found->second.end());
    }
    for (std::size_t i = 0; i < all.size(); ++i) {
      const Box& b = all[i];
      EXPECT_TRUE(b.x0 >= 0 && b.x1 <= width && b.y0 >= 0 && b.y1 <= height)
          << variant_short_name(v) << ": a supply piece from x " << b.x0 << " to " << b.x1
          << " in a picture " << width << " wide";
      for (std::size_t j = 0; j < i; ++j) {
        const Box& o = all[j];
        EXPECT_FALSE(b.x0 < o.x1 && o.x0 < b.x1 && b.y0 < o.y1 && o.y0 < b.y1)
            << variant_short_name(v) << ": two supply pieces overlap at x " << b.x0 << " and "
            << o.x0;
      }
    }
  }
}

// A highlighted line rings exactly its three spaces: each of the seven lines
// of the rulebook (RULES.md "Board", written out here), once.
TEST(Svg, HighlightedLineRingsItsThreeSpaces) {
  const std::set<std::set<int>> rulebook_lines{{1, 2, 4}, {5, 2, 3}, {3, 4, 6}, {6, 1, 5},
                                               {2, 7, 6}, {4, 7, 5}, {1, 7, 3}};
  const std::regex ring(R"re(class="line-highlight" data-space="([1-7])")re");
  std::set<std::set<int>> rung;
  for (int l = 0; l < kLines; ++l) {
    SvgOptions options;
    options.highlight_line = l;
    const std::string svg = board_svg(kEmptyBoard, options);
    std::set<int> spaces;
    for (std::sregex_iterator it(svg.begin(), svg.end(), ring), end; it != end; ++it)
      spaces.insert((*it)[1].str()[0] - '0');
    EXPECT_EQ(spaces.size(), 3u) << "line " << l;
    EXPECT_TRUE(rulebook_lines.count(spaces)) << "line " << l;
    rung.insert(spaces);
  }
  EXPECT_EQ(rung, rulebook_lines);
  EXPECT_EQ(board_svg(kEmptyBoard).find("line-highlight"), std::string::npos);
}

}  // namespace
}  // namespace fano
