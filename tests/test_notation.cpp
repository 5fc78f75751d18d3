// Tests of position and move notation: parsing, validation errors, formatting,
// move sequences, and round trips over random playouts.

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "fano/notation.hpp"
#include "fano/rules.hpp"
#include "support.hpp"

namespace fano {
namespace {

using namespace fano::testing;

constexpr Variant kCap3Board{3, Adjacency::kBoard};

// The message of the NotationError thrown by f, or "" (and a test failure) when
// nothing is thrown.
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const NotationError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.find('\n'), std::string::npos) << "message is not one line: " << what;
    EXPECT_FALSE(what.empty());
    return what;
  }
  ADD_FAILURE() << "no NotationError thrown";
  return "";
}

std::string position_error(std::string_view text, const Variant& v = kStandard) {
  return error_of([&] { parse_position(text, v); });
}

std::string move_error(std::string_view token) {
  return error_of([&] { parse_move_text(token); });
}

#define EXPECT_CONTAINS(haystack, needle)                          \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos) \
      << "expected \"" << (needle) << "\" in \"" << (haystack) << "\""

// ---------------------------------------------------------------------------
// Positions

TEST(ParsePosition, AcceptsValidPositions) {
  EXPECT_EQ(parse_position("-/-/-/-/-/-/- w", kStandard), kEmptyBoard);
  // Surrounding white space and several blanks before the side are tolerated.
  EXPECT_EQ(parse_position("  -/-/-/-/-/-/-   w \n", kStandard), kEmptyBoard);
  // After White's first move Black is to move.
  EXPECT_EQ(format_position(parse_position("-/-/-/C/-/-/- b", kStandard)), "-/-/-/C/-/-/- b");
  // Movement phase (8 pieces): either side may be to move.
  EXPECT_NO_THROW(parse_position("-/-/-/CT/tT/Cc/tc w", kStandard));
  EXPECT_NO_THROW(parse_position("-/-/-/CT/tT/Cc/tc b", kStandard));
  // A three-high stack is valid under cap 3 only.
  EXPECT_NO_THROW(parse_position("CTc/-/-/-/-/-/- b", kCap3Board));
}

TEST(ParsePosition, UnknownCharacter) {
  const std::string e = position_error("-/-/-/x/-/-/- w");
  EXPECT_CONTAINS(e, "unknown character 'x'");
  EXPECT_CONTAINS(e, "stack 4");
  EXPECT_CONTAINS(position_error("-/-/-/-/-/-/R w"), "unknown character 'R'");
  // '-' inside a stack is not a piece.
  EXPECT_CONTAINS(position_error("C-/-/-/-/-/-/- b"), "unknown character '-'");
}

TEST(ParsePosition, WrongNumberOfStacks) {
  const std::string e = position_error("-/-/- w");
  EXPECT_CONTAINS(e, "expected 7 stacks");
  EXPECT_CONTAINS(e, "got 3");
  EXPECT_CONTAINS(position_error("-/-/-/-/-/-/-/- w"), "got 8");
  // An empty field between slashes is not an empty stack.
  EXPECT_CONTAINS(position_error("-//-/-/-/-/- w"), "write '-' for an empty stack");
}

TEST(ParsePosition, StackOverTheCap) {
  // Three pieces on 1: W2 B1, Black to move -- legal under cap 3, not under cap 2.
  const std::string e = position_error("CTc/-/-/-/-/-/- b");
  EXPECT_CONTAINS(e, "stack 1");
  EXPECT_CONTAINS(e, "over the stack cap of 2");
  EXPECT_CONTAINS(position_error("CTct/-/-/-/-/-/- w", kCap3Board), "over the stack cap of 3");
}

TEST(ParsePosition, TwoIdenticalPiecesInAStack) {
  const std::string e = position_error("-/CC/-/-/-/-/- w");
  EXPECT_CONTAINS(e, "stack 2");
  EXPECT_CONTAINS(e, "two white circles");
  EXPECT_CONTAINS(e, "stacking rule");
  EXPECT_CONTAINS(position_error("tCt/-/-/-/-/-/- w", kCap3Board), "two black triangles");
}

TEST(ParsePosition, MoreThanTwoOfAKind) {
  const std::string e = position_error("T/T/T/c/c/t/- b");
  EXPECT_CONTAINS(e, "3 white triangles");
  EXPECT_CONTAINS(e, "only 2");
  EXPECT_CONTAINS(position_error("c/c/c/C/C/T/- w"), "3 black circles");
}

TEST(ParsePosition, SideToMoveMustMatchPlacementCounts) {
  // One white piece placed: Black is to move.
  const std::string e = position_error("C/-/-/-/-/-/- w");
  EXPECT_CONTAINS(e, "side to move 'w' is inconsistent");
  EXPECT_CONTAINS(e, "black is to move");
  // Equal counts: White is to move.
  EXPECT_CONTAINS(position_error("C/c/-/-/-/-/- b"), "white is to move");
  EXPECT_CONTAINS(position_error("-/-/-/-/-/-/- b"), "white is to move");
  // White two ahead, or Black ahead: no side can be to move.
  EXPECT_CONTAINS(position_error("C/T/-/-/-/-/- b"), "White has placed 2 and Black 0");
  EXPECT_CONTAINS(position_error("c/-/-/-/-/-/- w"), "White has placed 0 and Black 1");
}

TEST(ParsePosition, MissingOrBadSide) {
  EXPECT_CONTAINS(position_error("-/-/-/-/-/-/-"), "no side to move");
  EXPECT_CONTAINS(position_error("-/-/-/-/-/-/- x"), "side to move must be 'w' or 'b'");
  EXPECT_CONTAINS(position_error("-/-/-/-/-/-/- w b"), "side to move must be 'w' or 'b'");
  EXPECT_CONTAINS(position_error("-/-/-/-/-/-/- W"), "side to move must be 'w' or 'b'");
  EXPECT_CONTAINS(position_error("   "), "empty position");
}

// '_' for the space before the side: the same position as
// with the space, for sampled positions of every variant; errors as before.
TEST(ParsePosition, UnderscoreStandsForTheSpace) {
  for (const Variant& v : {kStandard, kCap3Board}) {
    for (const State st : sample_positions(v, 200, 16)) {
      std::string text = format_position(st);
      std::replace(text.begin(), text.end(), ' ', '_');
      EXPECT_EQ(parse_position(text, v), st) << text;
      EXPECT_EQ(parse_position("  " + text + "\n", v), st) << text;
    }
  }
  EXPECT_EQ(parse_position("-/-/-/C/-/-/-_b", kStandard),
            kEmptyBoard.with_pushed(3, Piece::kWhiteCircle).with_to_move(Colour::kBlack));
  EXPECT_CONTAINS(position_error("-/-/-/-/-/-/-_x"), "side to move must be 'w' or 'b', got 'x'");
  EXPECT_CONTAINS(position_error("-/-/-/-/-/-/-_"), "side to move must be 'w' or 'b', got ''");
  EXPECT_CONTAINS(position_error("-/-/-/-/-/-/-__w"), "stack 7 '-_'");
  EXPECT_CONTAINS(position_error("-/-/_/-/-/-/- w"), "unknown character '_'");
  EXPECT_CONTAINS(position_error("-/-/_/-/-/-/-_w"), "unknown character '_'");
}

TEST(FormatPosition, EmptyBoardAndStacksPrintBottomToTop) {
  EXPECT_EQ(format_position(kEmptyBoard), "-/-/-/-/-/-/- w");
  const State st = kEmptyBoard.with_pushed(3, Piece::kWhiteCircle)
                       .with_pushed(3, Piece::kWhiteTriangle)
                       .with_pushed(4, Piece::kBlackTriangle)
                       .with_pushed(4, Piece::kWhiteTriangle)
                       .with_pushed(5, Piece::kWhiteCircle)
                       .with_pushed(5, Piece::kBlackCircle)
                       .with_pushed(6, Piece::kBlackTriangle)
                       .with_pushed(6, Piece::kBlackCircle);
  EXPECT_EQ(format_position(st), "-/-/-/CT/tT/Cc/tc w");
  EXPECT_EQ(format_position(st.with_side_flipped()), "-/-/-/CT/tT/Cc/tc b");
}

// ---------------------------------------------------------------------------
// Moves

TEST(ParseMove, Placements) {
  // Each spelling names a shape and space 4 (0-based 3); colour is never taken
  // from the letter's case.
  struct Case {
    const char* token;
    Shape shape;
  };
  for (const Case& c : {Case{"C4", Shape::kCircle}, Case{"T4", Shape::kTriangle},
                        Case{"c4", Shape::kCircle}, Case{"t4", Shape::kTriangle},
                        Case{"Round4", Shape::kCircle}, Case{"Triangle4", Shape::kTriangle},
                        Case{"round4", Shape::kCircle}, Case{"TRIANGLE4", Shape::kTriangle}}) {
    const MoveText mt = parse_move_text(c.token);
    EXPECT_TRUE(mt.placement) << c.token;
    EXPECT_EQ(mt.shape, c.shape) << c.token;
    EXPECT_EQ(mt.to, 3) << c.token;
  }
  EXPECT_EQ(parse_move_text("T1").to, 0);
  EXPECT_EQ(parse_move_text("c7").to, 6);
}

TEST(ParseMove, Movements) {
  const MoveText mt = parse_move_text("7-5");
  EXPECT_FALSE(mt.placement);
  EXPECT_EQ(mt.from, 6);
  EXPECT_EQ(mt.to, 4);
  EXPECT_EQ(parse_move_text("1-2").from, 0);
}

TEST(ParseMove, RejectsGarbage) {
  EXPECT_CONTAINS(move_error("Q4"), "not a move");
  EXPECT_CONTAINS(move_error("C9"), "space '9' is not a space number 1..7");
  EXPECT_CONTAINS(move_error("C0"), "space '0'");
  EXPECT_CONTAINS(move_error("C44"), "space '44'");
  EXPECT_CONTAINS(move_error("C"), "names no space");
  EXPECT_CONTAINS(move_error("Round"), "names no space");
  EXPECT_CONTAINS(move_error("7-7"), "must move to another space");
  EXPECT_CONTAINS(move_error("7-"), "from-to");
  EXPECT_CONTAINS(move_error("-5"), "from-to");
  EXPECT_CONTAINS(move_error("8-1"), "space '8'");
  EXPECT_CONTAINS(move_error("7-5-3"), "space '5-3'");
  EXPECT_CONTAINS(move_error(""), "empty move");
  // Every message quotes the token.
  EXPECT_CONTAINS(move_error("Q4"), "'Q4'");
}

TEST(FormatMove, PlacementsAndMovements) {
  EXPECT_EQ(format_move(Move{Move::kFromSupply, 3, Piece::kWhiteCircle}), "C4");
  EXPECT_EQ(format_move(Move{Move::kFromSupply, 3, Piece::kWhiteTriangle}), "T4");
  EXPECT_EQ(format_move(Move{Move::kFromSupply, 0, Piece::kBlackCircle}), "c1");
  EXPECT_EQ(format_move(Move{Move::kFromSupply, 6, Piece::kBlackTriangle}), "t7");
  EXPECT_EQ(format_move(Move{6, 4, Piece::kBlackTriangle}), "7-5");
}

TEST(SplitMoves, CommasAndSpaces) {
  using V = std::vector<std::string>;
  EXPECT_EQ(split_moves("C4 t5 7-5"), (V{"C4", "t5", "7-5"}));
  EXPECT_EQ(split_moves("C4,t5,7-5"), (V{"C4", "t5", "7-5"}));
  EXPECT_EQ(split_moves("  C4, t5 ,,7-5\tT1\n"), (V{"C4", "t5", "7-5", "T1"}));
  EXPECT_EQ(split_moves(""), V{});
  EXPECT_EQ(split_moves(" , ,"), V{});
}

TEST(ResolveMove, ColourIsTheMovers) {
  const Rules rules(kStandard);
  // Black to move: "C2" and "Round2" place a black circle.
  const State st = parse_position("C/-/-/-/-/-/- b", kStandard);
  for (const char* tok : {"C2", "c2", "Round2"}) {
    const Move m = resolve_move(rules, st, parse_move_text(tok), tok);
    EXPECT_EQ(m, (Move{Move::kFromSupply, 1, Piece::kBlackCircle})) << tok;
  }
  const Move t = resolve_move(rules, st, parse_move_text("Triangle1"), "Triangle1");
  EXPECT_EQ(t, (Move{Move::kFromSupply, 0, Piece::kBlackTriangle}));
}

TEST(ResolveMove, IllegalMovesSayWhy) {
  const Rules rules(kStandard);
  auto why = [&](std::string_view position, const char* tok) {
    const State st = parse_position(position, kStandard);
    return error_of([&] { resolve_move(rules, st, parse_move_text(tok), tok); });
  };
  // Placement phase.
  EXPECT_CONTAINS(why("C/c/-/-/-/-/- w", "C1"), "already holds a white circle (stacking rule)");
  EXPECT_CONTAINS(why("Cc/-/-/-/-/-/- w", "T1"), "already holds 2 pieces (stack cap 2)");
  EXPECT_CONTAINS(why("-/-/C/-/C/c/c w", "C1"), "white has no circle left in supply");
  EXPECT_CONTAINS(why("C/c/-/-/-/-/- w", "1-2"), "pieces move only in the movement phase");
  // Movement phase: "Cc/t/T/-/Tc/-/Ct w", White's only top is the T on 3.
  const char* corner = "Cc/t/T/-/Tc/-/Ct w";
  EXPECT_CONTAINS(why(corner, "T4"), "all pieces are on the board");
  EXPECT_CONTAINS(why(corner, "4-3"), "space 4 is empty");
  EXPECT_CONTAINS(why(corner, "1-2"), "the top piece on space 1 is black's, not white's");
  EXPECT_CONTAINS(why(corner, "3-6"), "space 6 is not adjacent to 3 (board adjacency)");
  EXPECT_CONTAINS(why(corner, "3-7"), "space 7 already holds 2 pieces");
}

TEST(PlayMoves, PlaysASequence) {
  const Rules rules(kStandard);
  std::vector<Move> played;
  const State st = play_moves(rules, kEmptyBoard, "C1, c2 T3", &played);
  EXPECT_EQ(format_position(st), "C/c/T/-/-/-/- b");
  ASSERT_EQ(played.size(), 3u);
  EXPECT_EQ(played[1], (Move{Move::kFromSupply, 1, Piece::kBlackCircle}));
  EXPECT_EQ(play_moves(rules, kEmptyBoard, ""), kEmptyBoard);
  // A movement in the movement phase: the corner position, White's T 3-4.
  const State moved = play_moves(rules, parse_position("Cc/t/T/-/Tc/-/Ct w", kStandard), "3-4");
  EXPECT_EQ(format_position(moved), "Cc/t/-/T/Tc/-/Ct b");
}

TEST(PlayMoves, ReportsTheIllegalMoveWithItsNumberAndReason) {
  const Rules rules(kStandard);
  // Move 3 is White's second circle on top of her first.
  std::string e = error_of([&] { play_moves(rules, kEmptyBoard, "C1 c2 C1 t4"); });
  EXPECT_CONTAINS(e, "move 3");
  EXPECT_CONTAINS(e, "'C1'");
  EXPECT_CONTAINS(e, "stacking rule");
  // An unparsable token is reported with its number too.
  e = error_of([&] { play_moves(rules, kEmptyBoard, "C1,Q2"); });
  EXPECT_CONTAINS(e, "move 2");
  EXPECT_CONTAINS(e, "not a move");
}

TEST(PlayMoves, RefusesAMoveAfterTheGameEnded) {
  const Rules rules(kStandard);
  // C1 c2 C4 makes three circles on {1,2,4}: the game is over after move 3.
  std::string e = error_of([&] { play_moves(rules, kEmptyBoard, "C1 c2 C4 t7"); });
  EXPECT_CONTAINS(e, "move 4");
  EXPECT_CONTAINS(e, "'t7'");
  EXPECT_CONTAINS(e, "game is already over (a line stands)");
  // White without a legal move: "-/-/Cc/-/Ct/Tc/Tt w" (all white pieces covered).
  e = error_of([&] { play_moves(rules, parse_position("-/-/Cc/-/Ct/Tc/Tt w", kStandard), "3-4"); });
  EXPECT_CONTAINS(e, "move 1");
  EXPECT_CONTAINS(e, "game is already over (no legal move)");
}

// ---------------------------------------------------------------------------
// Round trips over random playouts

class NotationVariantTest : public ::testing::TestWithParam<Variant> {};

TEST_P(NotationVariantTest, MovesAndGamesRoundTrip) {
  const Variant v = GetParam();
  const Rules rules(v);
  std::mt19937 rng(2024);
  for (int game = 0; game < 500; ++game) {
    State st = kEmptyBoard;
    std::string record;
    std::vector<State> seen{st};  // rule 3: a repeated position ends the game (drawn)
    bool repeated = false;
    while (!repeated && game_over(rules, st) == GameOver::kNone && record.size() < 400) {
      const std::vector<Move> moves = legal_moves(rules, st);
      // Every legal move survives format -> parse -> resolve.
      for (const Move& m : moves) {
        const std::string tok = format_move(m);
        ASSERT_EQ(resolve_move(rules, st, parse_move_text(tok), tok), m) << tok;
      }
      // Careful games avoid forming a line when possible, to go deep.
      const std::vector<Move> pick = game % 2 == 0 ? careful_moves(st, moves) : moves;
      const Move m = pick[rng() % pick.size()];
      record += (record.empty() ? "" : (game % 2 ? ", " : " ")) + format_move(m);
      st = apply_move(st, m);
      ASSERT_EQ(parse_position(format_position(st), v), st);
      repeated = std::find(seen.begin(), seen.end(), st) != seen.end();
      seen.push_back(st);
    }
    // Replaying the record reproduces the game, and sees the repetition.
    std::vector<Move> played;
    int repeats_ply = -2;
    EXPECT_EQ(play_moves(rules, kEmptyBoard, record, &played, &repeats_ply), st) << record;
    EXPECT_EQ(repeats_ply >= 0, repeated) << record;
  }
}

INSTANTIATE_TEST_SUITE_P(AllVariants, NotationVariantTest, ::testing::ValuesIn(kAllVariants),
                         variant_param_name);

}  // namespace
}  // namespace fano

namespace fano {
namespace {

using namespace fano::testing;

// A move list that repeats a position must stop: rule 3 ends it drawn at the repetition.
constexpr const char* kRepeatingMoves =
    "T2,t7,T1,t1,C2,c4,C7,c3,7-3,1-4,3-7,4-1";  // ply 12 = ply 8

TEST(PlayMoves, StopsAtARepetition) {
  const Rules rules(kStandard);
  int repeats = -2;
  play_moves(rules, kEmptyBoard, kRepeatingMoves, nullptr, &repeats);
  EXPECT_EQ(repeats, 8);
  play_moves(rules, kEmptyBoard, "T2,t7,T1,t1,C2,c4,C7,c3,7-3,1-4,3-7", nullptr, &repeats);
  EXPECT_EQ(repeats, -1);
  try {
    play_moves(rules, kEmptyBoard, std::string(kRepeatingMoves) + ",7-3");
    ADD_FAILURE() << "a move after a repetition was accepted";
  } catch (const NotationError& e) {
    EXPECT_NE(std::string(e.what()).find("move 13"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("repetition"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace fano
