// The render library: the text board and the SVG picture, drawn from a
// position alone (the reports they can mark come from fano::analysis).
#include <gtest/gtest.h>

#include <array>
#include <random>
#include <regex>
#include <string>

#include "fano/notation.hpp"
#include "fano/render.hpp"
#include "fano/rules.hpp"
#include "fano/svg.hpp"
#include "support.hpp"

namespace fano {
namespace {

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

}  // namespace
}  // namespace fano
