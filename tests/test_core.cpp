// Tests of the engine: board facts, the 64-bit State, move generation on
// hand-checked positions, game-over detection, and property tests (round trips,
// moves versus unmoves) over random playouts of every variant.
//
// Positions are written in the project's notation (RULES.md): seven
// stacks for spaces 1..7, each bottom to top, C T c t, '-' when empty, then the
// side to move. Spaces are 1-based in comments and notation, 0-based in code.

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "fano/actions.hpp"
#include "fano/board.hpp"
#include "fano/geometry.hpp"
#include "fano/json.hpp"
#include "fano/notation.hpp"
#include "fano/numbering.hpp"
#include "fano/rules.hpp"
#include "fano/rules_options.hpp"
#include "fano/rules_text.hpp"
#include "fano/state.hpp"
#include "support.hpp"

namespace fano {
namespace {

using namespace fano::testing;

constexpr Variant kCap2Board = kStandard;

// The 15 edges of the printed board, copied by hand from RULES.md ("Adjacency"):
// circle 1-2 2-4 1-4; sides 5-2 2-3 3-4 4-6 6-1 1-5; medians 2-7 7-6 4-7 7-5 1-7 7-3.
const std::set<std::pair<int, int>> kRulesBoardEdges = {
    {1, 2}, {2, 4}, {1, 4}, {2, 5}, {2, 3}, {3, 4}, {4, 6}, {1, 6},
    {1, 5}, {2, 7}, {6, 7}, {4, 7}, {5, 7}, {1, 7}, {3, 7},
};

bool rules_adjacent(Adjacency adjacency, int from0, int to0) {
  if (from0 == to0) return false;
  if (adjacency == Adjacency::kProjective) return true;  // every pair shares a line
  const int a = std::min(from0, to0) + 1, b = std::max(from0, to0) + 1;
  return kRulesBoardEdges.count({a, b}) > 0;
}

State pos(std::string_view text, int cap = 2) {
  return parse_position(text, Variant{cap, Adjacency::kBoard});
}

std::vector<std::string> move_strings(const Rules& rules, State st) {
  std::vector<std::string> out;
  for (const Move& m : legal_moves(rules, st)) out.push_back(format_move(m));
  return out;
}

std::vector<std::string> split(std::string_view text) { return split_moves(text); }

// ---------------------------------------------------------------------------
// Board

TEST(Board, LinesAreTheRulebookLines) {
  // RULES.md "Board": L1 {1,2,4} L2 {5,2,3} L3 {3,4,6} L4 {6,1,5} L5 {2,7,6}
  // L6 {4,7,5} L7 {1,7,3}, 1-based, middle space in the middle.
  const int expected[kLines][3] = {{1, 2, 4}, {5, 2, 3}, {3, 4, 6}, {6, 1, 5},
                                   {2, 7, 6}, {4, 7, 5}, {1, 7, 3}};
  for (int l = 0; l < kLines; ++l)
    for (int i = 0; i < 3; ++i) EXPECT_EQ(kLineSpaces[l][i] + 1, expected[l][i]) << "line " << l;
  // Fano plane: every pair of spaces lies on exactly one line.
  for (int a = 0; a < kSpaces; ++a)
    for (int b = a + 1; b < kSpaces; ++b) {
      int lines = 0;
      for (SpaceMask m : kLineMasks) lines += (m >> a & 1) && (m >> b & 1);
      EXPECT_EQ(lines, 1) << a + 1 << "," << b + 1;
    }
}

TEST(Board, BoardEdgesMatchRules) {
  const auto edges = edge_list(Adjacency::kBoard);
  EXPECT_EQ(edges.size(), 15u);
  const std::set<std::pair<int, int>> edge_set(edges.begin(), edges.end());
  EXPECT_EQ(edge_set, kRulesBoardEdges);
  EXPECT_EQ(edge_list(Adjacency::kProjective).size(), 21u);  // C(7,2)
}

TEST(Board, NeighbourCounts) {
  // RULES.md: the centre 7 has 6 neighbours, each midpoint (1,2,4) 5, each
  // corner (3,5,6) 3; projective: 6 each.
  const Rules board(kCap2Board), proj(kCap2Projective);
  const int expected_board[kSpaces] = {5, 5, 3, 5, 3, 3, 6};
  for (int s = 0; s < kSpaces; ++s) {
    EXPECT_EQ(std::popcount(unsigned(board.neighbours[s])), expected_board[s]) << "space " << s + 1;
    EXPECT_EQ(std::popcount(unsigned(proj.neighbours[s])), 6) << "space " << s + 1;
    EXPECT_FALSE(board.neighbours[s] >> s & 1);
    for (int t = 0; t < kSpaces; ++t)
      EXPECT_EQ(bool(board.neighbours[s] >> t & 1), rules_adjacent(Adjacency::kBoard, s, t));
  }
  // Corner 3's neighbours are exactly 2, 4, 7 (sides 5-2-3, 3-4-6; median 1-7-3).
  EXPECT_EQ(board.neighbours[2], SpaceMask(1u << 1 | 1u << 3 | 1u << 6));
}

TEST(Board, VariantNames) {
  EXPECT_EQ(variant_slug(kStandard), "standard");
  EXPECT_EQ(variant_slug(kCap3Projective), "cap3-projective");
  Adjacency a = Adjacency::kBoard;
  EXPECT_TRUE(parse_adjacency("projective", a));
  EXPECT_EQ(a, Adjacency::kProjective);
  EXPECT_FALSE(parse_adjacency("hex", a));
}

// every_rules() is every valid value, counted here over the fields' whole
// ranges (valid or not), once each, the named variants first; the tabulated
// combinations are among them.
TEST(Board, EveryRulesIsEveryValidValueOnce) {
  std::set<std::string> valid;
  for (int cap = 0; cap <= 4; ++cap)
    for (int adj = 0; adj <= 2; ++adj)
      for (int lines = 0; lines <= 2; ++lines)
        for (int c = 0; c <= 4; ++c)
          for (int t = 0; t <= 4; ++t) {
            const Variant v{cap, Adjacency(adj), Lines(lines), c, t};
            if (is_valid_rules(v)) valid.insert(variant_slug(v));
          }
  const auto every = every_rules();
  std::set<std::string> slugs;
  for (const Variant& v : every) slugs.insert(variant_slug(v));
  EXPECT_EQ(valid.size(), 72u);
  EXPECT_EQ(every.size(), slugs.size());
  EXPECT_EQ(slugs, valid);
  EXPECT_TRUE(std::equal(kAllVariants.begin(), kAllVariants.end(), every.begin()));
  for (const Variant& v : all_rule_combinations())
    EXPECT_TRUE(slugs.count(variant_slug(v))) << variant_slug(v);
}

// The rules options' description (fano/rules_options.hpp) spans exactly the
// valid rules: every combination of its values is one reading of
// every_rules(), set through the description's setters and read back by its
// getters; the default codes are the rulebook's game.
TEST(RulesOptions, TheirValuesSpanEveryReadingOnce) {
  std::vector<Variant> spanned{Variant{}};
  for (const RulesOption& option : rules_options()) {
    std::vector<Variant> next;
    for (const Variant& v : spanned)
      for (const RulesOptionValue& value : option.values) {
        Variant w = v;
        option.set(w, value.code);
        EXPECT_EQ(option.get(w), value.code) << option.key;
        next.push_back(w);
      }
    spanned = std::move(next);
  }
  std::set<std::string> from_options, from_rules;
  for (const Variant& v : spanned) {
    EXPECT_TRUE(is_valid_rules(v)) << variant_slug(v);
    from_options.insert(variant_slug(v));
  }
  for (const Variant& v : every_rules()) from_rules.insert(variant_slug(v));
  EXPECT_EQ(spanned.size(), 72u);
  EXPECT_EQ(from_options, from_rules);
  Variant defaults;
  for (const RulesOption& option : rules_options()) option.set(defaults, option.default_code);
  EXPECT_EQ(defaults, kStandard);
}

// Each value's text reads back as its code; other words are refused with a
// message naming every value; keys and flags find their option.
TEST(RulesOptions, TextsReadBackAndBadWordsAreNamed) {
  std::set<std::string_view> keys;
  for (const RulesOption& option : rules_options()) {
    keys.insert(option.key);
    EXPECT_EQ(find_rules_option(option.key), &option);
    EXPECT_EQ(find_rules_option(option.flag), &option);
    for (const RulesOptionValue& value : option.values) {
      EXPECT_EQ(option.parse(value.text), value.code) << option.key << " " << value.text;
      EXPECT_EQ(option.text_of(value.code), value.text);
    }
    EXPECT_EQ(option.parse("7"), std::nullopt) << option.key;
    EXPECT_EQ(option.parse(""), std::nullopt) << option.key;
  }
  EXPECT_EQ(keys.size(), rules_options().size());
  EXPECT_EQ(find_rules_option("nonsense"), nullptr);
  EXPECT_EQ(find_rules_option("stack-cap")->values_error("4"), "must be 2 or 3, got '4'");
  EXPECT_EQ(find_rules_option("adjacency")->values_error("hex"),
            "must be 'board' or 'projective', got 'hex'");
  EXPECT_EQ(find_rules_option("circles")->values_error("0"), "must be 1, 2 or 3, got '0'");
}

// A rules value's JSON names the base options always, and every option with
// the slug for rules other than the rulebook's lines and material.
TEST(RulesOptions, JsonOfARulesValueFollowsTheDescription) {
  for (const Variant& v : every_rules()) {
    const Json j = variant_json(v);
    for (const RulesOption& option : rules_options()) {
      const bool shown = option.base || !v.rulebook_material_and_lines();
      ASSERT_EQ(j.contains(std::string(option.key)), shown) << variant_slug(v) << option.key;
      if (!shown) continue;
      const Json& value = j[std::string(option.key)];
      const std::string text =
          value.is_number() ? std::to_string(value.get<int>()) : value.get<std::string>();
      EXPECT_EQ(option.parse(text), option.get(v)) << variant_slug(v) << option.key;
    }
    EXPECT_EQ(j.contains("rules"), !v.rulebook_material_and_lines());
  }
  const Json catalog = rules_catalog_json();
  ASSERT_EQ(catalog["readings"].size(), every_rules().size());
  ASSERT_EQ(catalog["options"].size(), rules_options().size());
  for (const Json& reading : catalog["readings"]) {
    const std::optional<Variant> v = variant_from_name(reading["name"].get<std::string>());
    ASSERT_TRUE(v);
    EXPECT_EQ(variant_slug(*v), reading["slug"]);
    for (const RulesOption& option : rules_options())
      EXPECT_EQ(reading["options"][std::string(option.key)],
                rules_option_json(option, option.get(*v)));
  }
}

// Every rule combination has two names (slug and short name) that read back
// as exactly it; the named variants keep their names; bad names are refused.
TEST(Board, EveryRulesNameReadsBack) {
  const auto all = every_rules();
  ASSERT_EQ(all.size(), 72u);
  std::set<std::string> slugs;
  for (const Variant& v : all) {
    ASSERT_TRUE(is_valid_rules(v));
    EXPECT_EQ(variant_from_name(variant_slug(v)), v) << variant_slug(v);
    EXPECT_EQ(variant_from_name(variant_short_name(v)), v) << variant_short_name(v);
    slugs.insert(variant_slug(v));
  }
  EXPECT_EQ(slugs.size(), all.size());
  EXPECT_EQ(variant_slug(kCap2Projective), "cap2-projective");
  EXPECT_EQ(variant_short_name(kCap3Board), "cap3");
  Variant v = kCap3Projective;
  v.lines = Lines::kColourOnly;
  EXPECT_EQ(variant_slug(v), "cap3-projective-colour");
  EXPECT_EQ(variant_from_name("cap3-projective-colour"), v);
  Variant m = kStandard;
  m.circles = 3, m.triangles = 3;
  EXPECT_EQ(variant_slug(m), "standard-3c3t");
  EXPECT_EQ(variant_from_name("standard-3c3t"), m);
  EXPECT_EQ(variant_from_name("cap3-colour-1c2t")->triangles, 2);
  for (const char* bad :
       {"", "cap4", "standard-", "standard-colour-colour", "standard-4c1t", "standard-0c1t",
        "standard-2c2t2", "cap3-board-shape", "-colour", "standard-2c2t-2c2t"})
    EXPECT_FALSE(variant_from_name(bad).has_value()) << bad;
  EXPECT_NE(variant_name_error("cap4").find("'cap4'"), std::string::npos);
}

// Colour-only lines: three tops of one shape and mixed colours stand no line,
// three of one colour do; the rulebook's lines see both.
TEST(Rules, ColourOnlyLinesIgnoreShape) {
  Variant colour = kStandard;
  colour.lines = Lines::kColourOnly;
  // Line {1,2,4}: white circle, black circle, white circle (one shape, mixed colours).
  const State shapes = parse_position("C/c/-/C/-/-/- b", kStandard);
  EXPECT_NE(formed_lines(Rules(kStandard), shapes), 0);
  EXPECT_EQ(formed_lines(Rules(colour), shapes), 0);
  EXPECT_EQ(game_over(Rules(colour), shapes), GameOver::kNone);
  const State colours = parse_position("C/T/c/C/t/c/- w", kStandard);
  EXPECT_NE(formed_lines(Rules(colour), colours), 0);
  EXPECT_EQ(game_over(Rules(colour), colours), GameOver::kLine);
}

// Material: placement ends when all the rules' pieces are on the board, and
// the supply holds the rules' counts.
TEST(Rules, PlacementFollowsTheMaterial) {
  Variant small = kStandard;
  small.circles = 1, small.triangles = 1;
  const Rules rules(small);
  const State four = parse_position("C/t/T/c/-/-/- w", small);
  EXPECT_FALSE(rules.placement_phase(four));
  EXPECT_TRUE(four.placement_phase());  // the rulebook's eight
  EXPECT_THROW(parse_position("C/C/-/-/-/-/- b", small), NotationError);
  Variant big = kCap3Board;
  big.circles = 3, big.triangles = 3;
  // White has placed all six, Black three circles and two triangles.
  const State st = parse_position("CT/CT/CT/ct/ct/c/- b", big);
  EXPECT_TRUE(Rules(big).placement_phase(st));
  int placements = 0;
  for_each_move(Rules(big), st, [&](const Move& m, State) {
    EXPECT_EQ(m.piece, Piece::kBlackTriangle);
    placements += m.is_placement();
  });
  EXPECT_EQ(placements, 5);  // spaces 1, 2, 3, 6, 7
  EXPECT_FALSE(is_valid_position(st.with_to_move(Colour::kWhite), big));
  EXPECT_THROW(parse_position("CT/CT/CT/ct/ct/c/- b", kCap3Board), NotationError);
}

// ---------------------------------------------------------------------------
// State: bit layout

TEST(State, EmptyBoard) {
  EXPECT_EQ(kEmptyBoard.code, 0u);
  EXPECT_EQ(format_position(kEmptyBoard), "-/-/-/-/-/-/- w");
  EXPECT_EQ(pos("-/-/-/-/-/-/- w"), kEmptyBoard);
  EXPECT_EQ(kEmptyBoard.pieces_on_board(), 0);
  EXPECT_TRUE(kEmptyBoard.placement_phase());
}

TEST(State, TriangleOnCircleAtSpaceFourPacksToByte0x81) {
  // Space 4 = byte 3 (bits 24..31). "CT" = height 2 (0b10 in bits 7..6 -> 0x80),
  // top T = 01 in bits 1..0, C = 00 in bits 3..2: byte 0x81.
  const State t_on_c =
      kEmptyBoard.with_pushed(3, Piece::kWhiteCircle).with_pushed(3, Piece::kWhiteTriangle);
  EXPECT_EQ(t_on_c.code, 0x81ull << 24);
  // "-/-/-/CT/tT/Cc/tc w": 5 = tT -> 0x80|t(11)<<2|T(01) = 0x8D; 6 = Cc -> 0x80|0<<2|c(10) = 0x82;
  // 7 = tc -> 0x80|t(11)<<2|c(10) = 0x8E; side bit 56 clear (White).
  const State st = pos("-/-/-/CT/tT/Cc/tc w");
  EXPECT_EQ(st.code, 0x008E828D81000000ull);
  EXPECT_EQ(st.pieces_on_board(), 8);
  EXPECT_FALSE(st.placement_phase());
  EXPECT_EQ(st.to_move(), Colour::kWhite);
  // The same stacks with Black to move differ by bit 56 only.
  EXPECT_EQ(pos("-/-/-/CT/tT/Cc/tc b").code, 0x018E828D81000000ull);
  EXPECT_EQ(st.with_side_flipped().code, 0x018E828D81000000ull);
  EXPECT_EQ(st.with_to_move(Colour::kBlack), st.with_side_flipped());
  EXPECT_EQ(st.with_to_move(Colour::kWhite), st);
  EXPECT_EQ(format_position(State{0x008E828D81000000ull}), "-/-/-/CT/tT/Cc/tc w");
}

TEST(State, Accessors) {
  const State st = pos("-/-/-/CT/tT/Cc/tc w");
  EXPECT_EQ(st.height(3), 2);
  EXPECT_TRUE(st.empty(0));
  EXPECT_EQ(st.top(3), Piece::kWhiteTriangle);
  EXPECT_EQ(st.piece_from_bottom(3, 0), Piece::kWhiteCircle);
  EXPECT_EQ(st.piece_from_bottom(3, 1), Piece::kWhiteTriangle);
  EXPECT_EQ(st.top(4), Piece::kWhiteTriangle);
  EXPECT_EQ(st.piece_from_bottom(4, 0), Piece::kBlackTriangle);
  EXPECT_EQ(st.top(6), Piece::kBlackCircle);
  for (int p = 0; p < kPieceKinds; ++p) EXPECT_EQ(st.count_on_board(Piece(p)), 2);
  EXPECT_EQ(colour_count(st, Colour::kWhite), 4);
  EXPECT_EQ(colour_count(st, Colour::kBlack), 4);
  const StackInfo& in = st.info(3);
  EXPECT_EQ(in.height, 2);
  EXPECT_EQ(in.top, 1);
  EXPECT_EQ(in.kinds, 0b0011);  // C and T
  EXPECT_TRUE(in.valid);
}

TEST(State, ThreeHighStack) {
  // "CTc" at space 1 (cap 3): height 3 -> 0xC0, C in bits 5..4 (00), T in 3..2
  // (01 -> 0x04), c on top in 1..0 (10 -> 0x02): 0xC6. W2 B1 -> Black to move.
  const State st = pos("CTc/-/-/-/-/-/- b", 3);
  EXPECT_EQ(st.code, (1ull << 56) | 0xC6);
  EXPECT_EQ(st.pieces_on_board(), 3);
  EXPECT_EQ(st.piece_from_bottom(0, 0), Piece::kWhiteCircle);
  EXPECT_EQ(st.piece_from_bottom(0, 2), Piece::kBlackCircle);
  // Popping peels from the top.
  EXPECT_EQ(format_position(st.with_popped(0)), "CT/-/-/-/-/-/- b");
  EXPECT_EQ(format_position(st.with_popped(0).with_popped(0).with_popped(0)), "-/-/-/-/-/-/- b");
}

TEST(State, PushPopRoundTrip) {
  // Push every piece kind on every space of an arbitrary position and pop it again.
  const State base = pos("Ct/c/-/T/-/-/- w", 3);
  for (int s = 0; s < kSpaces; ++s)
    for (int p = 0; p < kPieceKinds; ++p) {
      if (base.height(s) == 3) continue;
      const State up = base.with_pushed(s, Piece(p));
      EXPECT_EQ(up.height(s), base.height(s) + 1);
      EXPECT_EQ(up.top(s), Piece(p));
      EXPECT_EQ(up.pieces_on_board(), base.pieces_on_board() + 1);
      EXPECT_EQ(up.with_popped(s), base);
      for (int o = 0; o < kSpaces; ++o) {
        if (o == s) continue;
        EXPECT_EQ(up.stack(o), base.stack(o));
      }
    }
}

TEST(State, PiecesOnBoardSumsHeights) {
  // Heights 3,3,2 (=8) with the side bit set: the side bit must not leak in.
  State st = pos("CTc/tcT/Ct/-/-/-/- b", 3);  // counts C2 T2 c2 t2: movement phase
  EXPECT_EQ(st.pieces_on_board(), 8);
  EXPECT_EQ(st.with_side_flipped().pieces_on_board(), 8);
}

TEST(State, StackInfoTable) {
  // 0x81: height 2, T on C.
  EXPECT_TRUE(kStackInfo[0x81].valid);
  EXPECT_EQ(kStackInfo[0x81].height, 2);
  // 0x85: height 2, T (01) on T (01): two identical pieces.
  EXPECT_FALSE(kStackInfo[0x85].valid);
  // 0x45: height 1 but the second slot is non-zero.
  EXPECT_FALSE(kStackInfo[0x45].valid);
  // 0x00: empty stack.
  EXPECT_TRUE(kStackInfo[0x00].valid);
  EXPECT_EQ(kStackInfo[0x00].kinds, 0);
  // Exactly 1 + 4 + 12 + 24 = 41 valid bytes (empty, one piece, ordered pairs and
  // triples of distinct kinds).
  int valid = 0;
  for (const StackInfo& in : kStackInfo) valid += in.valid;
  EXPECT_EQ(valid, 41);
}

// ---------------------------------------------------------------------------
// Move generation, hand-checked

TEST(Moves, EmptyBoardHasFourteenPlacements) {
  // White places a circle or a triangle on any of the 7 empty spaces: 2 x 7.
  const Rules rules(kStandard);
  EXPECT_EQ(move_strings(rules, kEmptyBoard), split("C1 C2 C3 C4 C5 C6 C7 T1 T2 T3 T4 T5 T6 T7"));
  for (const Move& m : legal_moves(rules, kEmptyBoard)) {
    EXPECT_TRUE(m.is_placement());
    EXPECT_EQ(colour_of(m.piece), Colour::kWhite);
  }
}

TEST(Moves, NoIdenticalPieceInAStack) {
  // White C on 1, black c on 2, White to move: C may not go on 1 (already a white
  // circle) but may go on the black circle at 2; T may go anywhere.
  const Rules rules(kStandard);
  EXPECT_EQ(move_strings(rules, pos("C/c/-/-/-/-/- w")),
            split("C2 C3 C4 C5 C6 C7 T1 T2 T3 T4 T5 T6 T7"));
}

TEST(Moves, StackCap) {
  // "Cc" at 1: full under cap 2, so nothing goes there; under cap 3 a T may go
  // on top (no T in the stack) but not a C.
  const State st = pos("Cc/-/-/-/-/-/- w");
  EXPECT_EQ(move_strings(Rules(kCap2Board), st), split("C2 C3 C4 C5 C6 C7 T2 T3 T4 T5 T6 T7"));
  EXPECT_EQ(move_strings(Rules(kCap3Board), st), split("C2 C3 C4 C5 C6 C7 T1 T2 T3 T4 T5 T6 T7"));
  // Black to move on "CT/c": c never on 2 (a c is there); 1 is full under cap 2
  // and open to c and t under cap 3.
  const State b = pos("CT/c/-/-/-/-/- b");
  EXPECT_EQ(move_strings(Rules(kCap2Board), b), split("c3 c4 c5 c6 c7 t2 t3 t4 t5 t6 t7"));
  EXPECT_EQ(move_strings(Rules(kCap3Board), b), split("c1 c3 c4 c5 c6 c7 t1 t2 t3 t4 t5 t6 t7"));
  // A three-high stack is full under cap 3.
  const State three = pos("CTc/-/-/-/-/-/- b", 3);
  EXPECT_EQ(move_strings(Rules(kCap3Board), three), split("c2 c3 c4 c5 c6 c7 t2 t3 t4 t5 t6 t7"));
}

TEST(Moves, ExhaustedSupply) {
  // White has placed both circles (on 3 and 5): only triangles remain. (Circles
  // on {3,5,6,7}, the complement of line {1,2,4}, form no line.)
  const Rules rules(kStandard);
  const State st = pos("-/-/C/-/C/c/c w");
  EXPECT_EQ(game_over(rules, st), GameOver::kNone);
  EXPECT_EQ(move_strings(rules, st), split("T1 T2 T3 T4 T5 T6 T7"));
}

// Movement-phase position used below (all 8 pieces):
//   1 "Cc"  2 "t"  3 "T"  4 -  5 "Tc"  6 -  7 "Ct"
// Tops 1:c 2:t 3:T 5:c 7:t. No line: every line with three tops must avoid the
// empty 4 and 6, leaving {5,2,3} (c t T) and {1,7,3} (c t T), both mixed in
// colour and shape. White's only top piece is the T on corner 3; her circles
// lie under black pieces and the other T is under the c on 5.
constexpr const char* kCornerPosition = "Cc/t/T/-/Tc/-/Ct w";

TEST(Moves, OnlyTheTopPieceMovesAlongEdges) {
  const State st = pos(kCornerPosition);
  // Board: 3's neighbours are 2, 4, 7. Cap 2: 2 ("t") and 4 (empty) accept a T,
  // 7 ("Ct") is full.
  EXPECT_EQ(move_strings(Rules(kCap2Board), st), split("3-2 3-4"));
  // Cap 3: 7 ("Ct", height 2, no T) accepts it too.
  EXPECT_EQ(move_strings(Rules(kCap3Board), st), split("3-2 3-4 3-7"));
  // Projective: all six others are neighbours. Cap 2: 1, 5, 7 are full; 2, 4, 6 open.
  EXPECT_EQ(move_strings(Rules(kCap2Projective), st), split("3-2 3-4 3-6"));
  // Cap 3: all but 5 ("Tc" holds the other T).
  EXPECT_EQ(move_strings(Rules(kCap3Projective), st), split("3-1 3-2 3-4 3-6 3-7"));
}

TEST(Moves, BlackMovementsOnTheBoard) {
  // The same stacks, Black to move, cap 2, board edges. Black's tops: c on 1,
  // t on 2, c on 5, t on 7 (the T under the c on 5 cannot move). Open targets:
  // 2 and 3 (height 1), 4 and 6 (empty); 1, 5, 7 are full.
  //   1 (c) -> neighbours 2 4 5 6 7: 2 (t) ok, 4 ok, 6 ok          : 1-2 1-4 1-6
  //   2 (t) -> neighbours 1 3 4 5 7: 3 (T) ok, 4 ok                : 2-3 2-4
  //   5 (c) -> neighbours 1 2 7:     2 (t) ok                      : 5-2
  //   7 (t) -> neighbours 1..6: 2 holds a t, 3 (T) ok, 4 ok, 6 ok  : 7-3 7-4 7-6
  const Rules rules(kCap2Board);
  const State st = pos("Cc/t/T/-/Tc/-/Ct b");
  EXPECT_EQ(move_strings(rules, st), split("1-2 1-4 1-6 2-3 2-4 5-2 7-3 7-4 7-6"));
  for (const Move& m : legal_moves(rules, st)) {
    EXPECT_EQ(m.piece, st.top(m.from));
    const State child = apply_move(st, m);
    EXPECT_EQ(child.top(m.to), m.piece);
    EXPECT_EQ(child.height(m.from), st.height(m.from) - 1);
  }
  // 1-2 uncovers the white C on 1 and puts the c on the t at 2: tops 1:C 2:c 3:T
  // 5:c 7:t; full lines {5,2,3} (c c T) and {1,7,3} (C t T) are mixed: no line.
  // 1-4 also uncovers the C on 1 and puts the c on 4: {4,7,5} is c t c, three
  // black pieces, so Black loses by her own line ({1,2,4} is C t c, mixed).
  EXPECT_EQ(game_over(rules, apply_move(st, legal_moves(rules, st)[0])), GameOver::kNone);
  const State after14 = play_moves(rules, st, "1-4");
  EXPECT_EQ(formed_lines(after14), 1u << 5);  // L6 {4,7,5}
}

TEST(Moves, CentreMovesEverywhereOnTheBoard) {
  // "-/Cc/Tt/Ct/-/-/cT w": White's only top is the T on the centre 7. The
  // centre is adjacent to all six spaces on the board. Cap 2: 1, 5, 6 empty,
  // 2, 3, 4 full. Cap 3: 3 ("Tt") holds the other T; the rest accept.
  const State st = pos("-/Cc/Tt/Ct/-/-/cT w");
  EXPECT_EQ(move_strings(Rules(kCap2Board), st), split("7-1 7-5 7-6"));
  EXPECT_EQ(move_strings(Rules(kCap3Board), st), split("7-1 7-2 7-4 7-5 7-6"));
  EXPECT_EQ(move_strings(Rules(kCap3Projective), st), split("7-1 7-2 7-4 7-5 7-6"));
}

TEST(Moves, PlacementVersusMovementPhase) {
  // With 7 pieces on the board the mover places; with 8 she moves.
  const Rules rules(kStandard);
  const State seven = pos("Cc/t/T/-/Tc/-/C b");  // W4 B3: Black places her last t
  EXPECT_TRUE(seven.placement_phase());
  for (const Move& m : legal_moves(rules, seven)) {
    EXPECT_TRUE(m.is_placement());
    EXPECT_EQ(m.piece, Piece::kBlackTriangle);  // both black circles are placed
  }
  // t may go on 3 (T) and 4, 6 (empty), 7 (C); not 2 (t), not the full 1 and 5.
  EXPECT_EQ(move_strings(rules, seven), split("t3 t4 t6 t7"));
}

// ---------------------------------------------------------------------------
// Game over

TEST(GameOver, OneShapeLineOfBothColours) {
  // C1 c2 C4: line {1,2,4} holds C c C, three circles of mixed colour. White
  // moved last and loses; game_over reports the standing line.
  const Rules rules(kStandard);
  const State st = play_moves(rules, kEmptyBoard, "C1 c2 C4");
  EXPECT_EQ(formed_lines(st), 1u << 0);
  EXPECT_EQ(game_over(rules, st), GameOver::kLine);
  EXPECT_NE(describe_game_over(rules, st).find("White, who moved last, lost"), std::string::npos);
  EXPECT_NE(describe_game_over(rules, st).find("three circles"), std::string::npos);
  // Three triangles: T1 t2 T4.
  EXPECT_EQ(formed_lines(play_moves(rules, kEmptyBoard, "T1 t2 T4")), 1u << 0);
}

TEST(GameOver, OneColourLineOfBothShapes) {
  // C1 c5 T2 t6 C4. Before the last move the only full line is {6,1,5}: t C c,
  // mixed. After C4, {1,2,4} holds C T C: three white pieces, two shapes. The
  // other lines through 4 ({3,4,6}, {4,7,5}) have an empty space.
  const Rules rules(kStandard);
  const State before = play_moves(rules, kEmptyBoard, "C1 c5 T2 t6");
  EXPECT_EQ(game_over(rules, before), GameOver::kNone);
  const State st = play_moves(rules, before, "C4");
  EXPECT_EQ(formed_lines(st), 1u << 0);
  EXPECT_EQ(game_over(rules, st), GameOver::kLine);
  EXPECT_NE(describe_game_over(rules, st).find("three white pieces"), std::string::npos);
}

TEST(GameOver, OnlyFullLinesOfTopPiecesCount) {
  const Rules rules(kStandard);
  EXPECT_EQ(formed_lines(play_moves(rules, kEmptyBoard, "C1 c2")), 0u);
  // A buried piece does not count: in C1 c2 T2 c4 the c on 2 lies under White's
  // T, so {1,2,4} has tops C T c, mixed in colour and shape.
  EXPECT_EQ(formed_lines(play_moves(rules, kEmptyBoard, "C1 c2 T2 c4")), 0u);
  // Same pieces with c2 on top: C1 T2 c2 C4 -> tops C c C on {1,2,4}.
  EXPECT_EQ(formed_lines(play_moves(rules, kEmptyBoard, "C1 c5 T2 c2 C4")), 1u << 0);
}

TEST(GameOver, LineRevealedByLiftingAPieceCountsAgainstTheMover) {
  // "Ct/cC/cT/Tt/-/-/- w": tops 1:t 2:C 3:T 4:t. The only full line is {1,2,4}:
  // t C t, mixed colours and shapes, so the game is on. White's tops are C on 2
  // and T on 3. Legal moves (cap 2, board): C from 2 to 5 or 7 (1, 3, 4 full);
  // T from 3 to 7 (2 and 4 full).
  const Rules rules(kStandard);
  const State st = pos("Ct/cC/cT/Tt/-/-/- w");
  EXPECT_EQ(game_over(rules, st), GameOver::kNone);
  EXPECT_EQ(move_strings(rules, st), split("2-5 2-7 3-7"));
  // 2-5 lifts White's C and uncovers the black c on 2: line {1,2,4} is now
  // t c t, three black pieces -- the opponent's colour -- formed by White's own
  // move, so White has lost. The C lands on 5, which is not on that line; the
  // other lines through 5 are {5,2,3} (C c T, mixed), {6,1,5} and {4,7,5} (empty 6, 7).
  const State child = play_moves(rules, st, "2-5");
  EXPECT_EQ(format_position(child), "Ct/c/cT/Tt/C/-/- b");
  EXPECT_EQ(formed_lines(child), 1u << 0);
  EXPECT_EQ(game_over(rules, child), GameOver::kLine);
  EXPECT_NE(describe_game_over(rules, child).find("three black pieces"), std::string::npos);
  EXPECT_NE(describe_game_over(rules, child).find("White, who moved last, lost"),
            std::string::npos);
  // 2-7 reveals the same line.
  EXPECT_EQ(formed_lines(play_moves(rules, st, "2-7")) & 1u, 1u);
  // 3-7 reveals a c on 3: {1,7,3} is t T c and the other lines through 3 and 7
  // have an empty space: no line.
  EXPECT_EQ(game_over(rules, play_moves(rules, st, "3-7")), GameOver::kNone);
}

TEST(GameOver, NoTopPieceIsALossForTheSideToMove) {
  // "-/-/Cc/-/Ct/Tc/Tt w": every white piece lies under a black one. Black's tops
  // on {3,5,6,7}, the complement of line {1,2,4}, contain no line. White has no
  // legal move in every variant: she loses.
  const State st = pos("-/-/Cc/-/Ct/Tc/Tt w");
  for (const Variant& v : {kCap2Board, kCap2Projective, kCap3Board, kCap3Projective}) {
    const Rules rules(v);
    EXPECT_EQ(formed_lines(st), 0u);
    EXPECT_TRUE(legal_moves(rules, st).empty());
    EXPECT_FALSE(has_legal_move(rules, st));
    EXPECT_EQ(game_over(rules, st), GameOver::kNoMove) << variant_slug(v);
    // Black, to move in the same stacks, has moves.
    EXPECT_EQ(game_over(rules, st.with_side_flipped()), GameOver::kNone) << variant_slug(v);
  }
  EXPECT_EQ(describe_game_over(Rules(kStandard), st), "White has no legal move and lost");
}

TEST(GameOver, BlockedTopPieceIsALossOnlyWhereItIsBlocked) {
  // "-/Cc/cT/Ct/-/-/Tt w": White's only top is the T on corner 3. Tops 2:c 3:T
  // 4:t 7:t; 1, 5, 6 (line {6,1,5}) are empty, so no line is full.
  const State st = pos("-/Cc/cT/Ct/-/-/Tt w");
  // Board, cap 2: 3's neighbours 2, 4, 7 all hold two pieces: no move, loss.
  EXPECT_EQ(game_over(Rules(kCap2Board), st), GameOver::kNoMove);
  // Projective, cap 2: 1, 5, 6 are neighbours too, and empty.
  EXPECT_EQ(move_strings(Rules(kCap2Projective), st), split("3-1 3-5 3-6"));
  // Board, cap 3: 2 ("Cc") and 4 ("Ct") accept a T; 7 ("Tt") does not.
  EXPECT_EQ(move_strings(Rules(kCap3Board), st), split("3-2 3-4"));
  EXPECT_EQ(game_over(Rules(kCap3Board), st), GameOver::kNone);
}

TEST(GameOver, LineTakesPrecedenceOverNoMove) {
  // "Cc/Tt/-/Ct/-/-/Tc w": black tops c t t on {1,2,4} form a black line, and
  // White has no top piece either. The line ended the game first.
  const Rules rules(kStandard);
  const State st = pos("Cc/Tt/-/Ct/-/-/Tc w");
  EXPECT_EQ(formed_lines(st), 1u << 0);
  EXPECT_TRUE(legal_moves(rules, st).empty());
  EXPECT_EQ(game_over(rules, st), GameOver::kLine);
}

// ---------------------------------------------------------------------------
// Property tests over random playouts, every variant

class VariantTest : public ::testing::TestWithParam<Variant> {};

TEST_P(VariantTest, PositionRoundTripsThroughNotation) {
  const Variant v = GetParam();
  int count = 0;
  std::unordered_set<std::string> texts;
  for (State st : sample_positions(v, 3000, 12345)) {
    const std::string text = format_position(st);
    ASSERT_EQ(parse_position(text, v), st) << text;
    // One code per position: distinct codes have distinct notations.
    EXPECT_TRUE(texts.insert(text).second) << text;
    ++count;
  }
  EXPECT_GT(count, 3000);
}

TEST_P(VariantTest, PositionsFromPlayoutsAreWellFormed) {
  const Variant v = GetParam();
  for (State st : sample_positions(v, 1000, 777)) {
    EXPECT_EQ(st.code >> 57, 0u);
    for (int s = 0; s < kSpaces; ++s) {
      EXPECT_TRUE(st.info(s).valid);
      EXPECT_LE(st.height(s), v.stack_cap);
    }
    const int w = colour_count(st, Colour::kWhite), b = colour_count(st, Colour::kBlack);
    if (st.placement_phase()) {
      EXPECT_EQ(st.to_move(), w == b ? Colour::kWhite : Colour::kBlack) << format_position(st);
    }
  }
}

// Every legal move, in the documented order, against a generator written
// here from RULES.md with none of the move generator's tables or masks: every
// (piece, space) or (from, to) pair in order, kept when the rules allow it
// (the stack's kinds read piece by piece).
TEST_P(VariantTest, MovesAreExactlyThoseOfAPlainGenerator) {
  const Variant v = GetParam();
  const Rules rules(v);
  const auto takes = [&](State st, int s, Piece p) {
    if (st.height(s) >= v.stack_cap) return false;
    for (int i = 0; i < st.height(s); ++i)
      if (st.piece_from_bottom(s, i) == p) return false;
    return true;
  };
  for (State st : sample_positions(v, 1000, 5151)) {
    const Colour me = st.to_move();
    std::vector<Move> want;
    if (st.pieces_on_board() < v.total_pieces()) {
      for (int shape = 0; shape < 2; ++shape) {
        const Piece p = make_piece(me, Shape(shape));
        if (st.count_on_board(p) >= v.copies(shape)) continue;
        for (int s = 0; s < kSpaces; ++s)
          if (takes(st, s, p)) want.push_back(Move{Move::kFromSupply, std::int8_t(s), p});
      }
    } else {
      for (int from = 0; from < kSpaces; ++from) {
        if (st.empty(from) || colour_of(st.top(from)) != me) continue;
        for (int to = 0; to < kSpaces; ++to)
          if (to != from && rules_adjacent(v.adjacency, from, to) && takes(st, to, st.top(from)))
            want.push_back(Move{std::int8_t(from), std::int8_t(to), st.top(from)});
      }
    }
    EXPECT_EQ(legal_moves(rules, st), want) << format_position(st);
  }
}

TEST_P(VariantTest, MovesApplyAndFollowTheRules) {
  const Variant v = GetParam();
  const Rules rules(v);
  std::set<std::pair<int, int>> movements_seen;
  for (State st : sample_positions(v, 1000, 4242)) {
    std::vector<Move> moves;
    for_each_move(rules, st, [&](const Move& m, State child) {
      moves.push_back(m);
      EXPECT_EQ(apply_move(st, m), child);
      EXPECT_EQ(child.to_move(), opponent(st.to_move()));
      EXPECT_EQ(colour_of(m.piece), st.to_move());
      EXPECT_EQ(child.top(m.to), m.piece);
      EXPECT_FALSE(st.info(m.to).kinds >> int(m.piece) & 1);
      EXPECT_LT(st.height(m.to), v.stack_cap);
      if (st.placement_phase()) {
        EXPECT_TRUE(m.is_placement());
        EXPECT_EQ(child.pieces_on_board(), st.pieces_on_board() + 1);
        EXPECT_LT(st.count_on_board(m.piece), kCopiesPerKind);
      } else {
        ASSERT_FALSE(m.is_placement());
        EXPECT_EQ(st.top(m.from), m.piece);  // only a top piece moves
        EXPECT_TRUE(rules_adjacent(v.adjacency, m.from, m.to)) << format_move(m);
        EXPECT_EQ(child.pieces_on_board(), kTotalPieces);
        movements_seen.insert({m.from, m.to});
      }
    });
    EXPECT_EQ(moves, legal_moves(rules, st));
    EXPECT_EQ(has_legal_move(rules, st), !moves.empty());
    // RULES.md: with CAP >= 2 a player always has a legal placement.
    if (st.placement_phase()) {
      EXPECT_FALSE(moves.empty()) << format_position(st);
    }
    // game_over as RULES.md defines it: a standing line, else no legal move.
    const GameOver expected = formed_lines(st) ? GameOver::kLine
                              : moves.empty()  ? GameOver::kNoMove
                                               : GameOver::kNone;
    EXPECT_EQ(game_over(rules, st), expected);
  }
  // The playouts exercise every edge of the move graph in both directions.
  EXPECT_EQ(movements_seen.size(), 2 * edge_list(v.adjacency).size());
}

TEST_P(VariantTest, UnmovesInvertMoves) {
  const Variant v = GetParam();
  const Rules rules(v);
  for (State parent : sample_positions(v, 400, 99)) {
    for_each_move(rules, parent, [&](const Move&, State child) {
      // The parent is among the child's unmoves, exactly once.
      int found = 0;
      for_each_unmove(rules, child, [&](State p) {
        found += p == parent;
        // Every unmove parent is a legal, consistent position (parse validates it)...
        ASSERT_NO_THROW(parse_position(format_position(p), v)) << format_position(p);
        // ...and generates the child, by exactly one move.
        int makes = 0;
        for_each_move(rules, p, [&](const Move&, State c) { makes += c == child; });
        EXPECT_EQ(makes, 1) << format_position(p) << " -> " << format_position(child);
      });
      EXPECT_EQ(found, 1) << format_position(parent) << " -> " << format_position(child);
    });
  }
}

TEST_P(VariantTest, EmptyBoardHasNoUnmoves) {
  const Rules rules(GetParam());
  int n = 0;
  for_each_unmove(rules, kEmptyBoard, [&](State) { ++n; });
  EXPECT_EQ(n, 0);
  // After C4 the only parent is the empty board.
  std::vector<State> parents;
  for_each_unmove(rules, pos("-/-/-/C/-/-/- b"), [&](State p) { parents.push_back(p); });
  EXPECT_EQ(parents, std::vector<State>{kEmptyBoard});
}

INSTANTIATE_TEST_SUITE_P(AllVariants, VariantTest, ::testing::ValuesIn(kAllVariants),
                         variant_param_name);

}  // namespace
}  // namespace fano

namespace fano {
namespace {

// The decoder's cursor steps through ascending numbers exactly as state()
// decodes each one, for steps of every size, and refuses to pass the last
// number (2 * radix^7 - 1).
TEST(Numbering, CursorAgreesWithDecodingEachNumber) {
  for (const int cap : {2, 3}) {
    const Numbering numbering(cap);
    std::uint64_t end = 2;
    for (int s = 0; s < kSpaces; ++s) end *= numbering.radix();
    std::mt19937_64 rng(20261203 + cap);
    Numbering::Cursor cursor;
    std::uint64_t number = 0;
    for (int step = 0; step < 200000; ++step) {
      // Mostly small steps (as between neighbouring classes), sometimes huge ones.
      const std::uint64_t d = step % 1000 == 999 ? rng() % (end / 50) : rng() % 3000;
      if (number + d >= end) break;
      ASSERT_TRUE(numbering.advance(cursor, d)) << number << " + " << d;
      number += d;
      State want;
      ASSERT_TRUE(numbering.state(number, want));
      ASSERT_EQ(cursor.state, want) << "number " << number << ", cap " << cap;
      ASSERT_EQ(numbering.number(cursor.state), number);
    }
    Numbering::Cursor last;
    EXPECT_TRUE(numbering.advance(last, end - 1));
    State want;
    ASSERT_TRUE(numbering.state(end - 1, want));
    EXPECT_EQ(last.state, want);
    EXPECT_FALSE(numbering.advance(last, 1)) << "past the last number, cap " << cap;
  }
}

// The printed board's maps (fano/geometry.hpp) send the spaces where the
// README says (1-based, 0 off the board): computed from the drawn positions,
// checked against the images written out by hand.
TEST(Geometry, PlaneMapsSendSpacesWhereThePrintedBoardShows) {
  const std::array<std::array<int, kSpaces>, kPlaneMaps> by_hand{{
      {1, 2, 3, 4, 5, 6, 7},  // identity
      {0, 0, 0, 0, 0, 0, 7},  // reflect-x: only the centre lands on a space
      {4, 2, 5, 1, 3, 6, 7},  // reflect-y: 1<->4, 3<->5; 2, 6, 7 fixed
      {0, 0, 0, 0, 0, 0, 7},  // half-turn: only the centre lands on a space
      {2, 4, 6, 1, 3, 5, 7},  // rotate-120: 6->5->3->6, 1->2->4->1
      {4, 1, 5, 2, 6, 3, 7},  // rotate-240: the inverse
      {2, 1, 6, 4, 5, 3, 7},  // reflect-5: 1<->2, 3<->6; 4, 5, 7 fixed
      {1, 4, 3, 2, 6, 5, 7},  // reflect-3: 2<->4, 5<->6; 1, 3, 7 fixed
  }};
  for (int m = 0; m < kPlaneMaps; ++m) {
    const auto images = space_images(PlaneMap(m));
    for (int s = 0; s < kSpaces; ++s)
      EXPECT_EQ(images[s] ? *images[s] + 1 : 0, by_hand[m][s]) << "map " << m << " space " << s + 1;
  }
  // Corners 6 top, 5 bottom-left, 3 bottom-right; the centre at the origin.
  const auto at = printed_board_points();
  EXPECT_DOUBLE_EQ(at[5].y, 1.0);
  EXPECT_LT(at[4].x, 0.0);
  EXPECT_GT(at[2].x, 0.0);
  EXPECT_DOUBLE_EQ(at[6].x, 0.0);
}

// The rules in sentences name each reading's own material, cap, adjacency and
// lines: checked against what its slug spells (read here from the name's
// text, not from the rules value), for all 72 readings, and no two readings
// read alike.
TEST(Board, RulesTextSaysEachReadingsRules) {
  const std::vector<std::string> words{"no",    "one",   "two",  "three", "four",   "five",  "six",
                                       "seven", "eight", "nine", "ten",   "eleven", "twelve"};
  std::set<std::string> texts;
  for (const Variant& v : every_rules()) {
    const std::string slug = variant_slug(v);
    int circles = 2, triangles = 2;
    if (const std::size_t c = slug.find_last_of('c');
        slug.size() > 4 && slug.compare(slug.size() - 1, 1, "t") == 0 && c == slug.size() - 3) {
      circles = slug[c - 1] - '0';
      triangles = slug[c + 1] - '0';
    }
    const int cap = slug.rfind("cap3", 0) == 0 ? 3 : 2;
    const bool projective = slug.find("projective") != std::string::npos;
    const bool colour_only = slug.find("-colour") != std::string::npos;
    const std::vector<std::string> sentences = rules_text(v);
    ASSERT_EQ(sentences.size(), 6u) << slug;
    std::string all;
    for (const std::string& s : sentences) {
      EXPECT_FALSE(s.empty()) << slug;
      EXPECT_EQ(s.back(), '.') << slug << ": " << s;
      all += s + " ";
    }
    const auto has = [&](const std::string& part) { return all.find(part) != std::string::npos; };
    EXPECT_TRUE(has("each have " + words[circles] +
                    (circles == 1 ? " circle and " : " circles and ") + words[triangles] +
                    (triangles == 1 ? " triangle;" : " triangles;")))
        << slug << ": " << all;
    EXPECT_TRUE(has("a stack holds " + words[cap] + " pieces at most")) << slug;
    EXPECT_TRUE(has("Once all " + words[2 * (circles + triangles)] + " pieces are placed")) << slug;
    EXPECT_EQ(has("any other space"), projective) << slug;
    EXPECT_EQ(has("a neighbouring space"), !projective) << slug;
    EXPECT_EQ(has("all of one colour or all of one shape"), !colour_only) << slug;
    EXPECT_TRUE(has("all of one colour")) << slug;
    EXPECT_TRUE(texts.insert(all).second) << slug << " reads like another reading";
  }
  EXPECT_EQ(texts.size(), 72u);
  // The catalog serves the same sentences.
  const Json catalog = rules_catalog_json();
  for (const Json& reading : catalog["readings"])
    EXPECT_EQ(reading["rules_text"],
              Json(rules_text(*variant_from_name(reading["slug"].get<std::string>()))));
}

// quote(): text from outside as a message shows it. Control characters (a
// NUL, ESC, BEL, C1) and bytes that are not UTF-8 are written out, other
// UTF-8 kept; a long text is cut at a character's start with its length said.
TEST(Quote, ControlBytesAreWrittenOutAndLongTextIsCut) {
  EXPECT_EQ(quote("C4"), "'C4'");
  EXPECT_EQ(quote(std::string("a\0b", 3)), "'a\\x00b'");
  EXPECT_EQ(quote("\x1b[2J\x07\n\t\r\x7f"), "'\\x1b[2J\\x07\\n\\t\\r\\x7f'");
  EXPECT_EQ(quote("\xc2\x9b"
                  "1m"),
            "'\\xc2\\x9b1m'");  // U+009B, a terminal's CSI
  EXPECT_EQ(quote("\xff\xfe"), "'\\xff\\xfe'");
  EXPECT_EQ(quote("caf\xc3\xa9"), "'caf\xc3\xa9'");
  EXPECT_EQ(escape_text("a\x1b"), "a\\x1b");
  const std::string exact(kMaxQuotedBytes, 'x');
  EXPECT_EQ(quote(exact), "'" + exact + "'");
  const std::string huge(60000, 'x');
  EXPECT_EQ(quote(huge), "'" + exact + "...' (60000 bytes)");
  // A cut never splits a character: 'é' is two bytes, the 80th byte starts one.
  const std::string accents = std::string(kMaxQuotedBytes - 1, 'x') + "\xc3\xa9" + "yyy";
  EXPECT_EQ(quote(accents), "'" + std::string(kMaxQuotedBytes - 1, 'x') + "...' (" +
                                std::to_string(accents.size()) + " bytes)");
  // Escaping happens after the cut: a line of NULs stays bounded too.
  EXPECT_LT(quote(std::string(100000, '\0')).size(), 4 * kMaxQuotedBytes + 32);
}

// Messages that echo a name, a flag's value or a move go through quote().
TEST(Quote, MessagesEchoInputQuoted) {
  const std::string name = "\x1b[2J" + std::string(5000, 'z');
  const std::string error = variant_name_error(name);
  EXPECT_EQ(error.find('\x1b'), std::string::npos);
  EXPECT_NE(error.find("'\\x1b[2J"), std::string::npos) << error;
  EXPECT_LT(error.size(), 600u);
  const std::string values = find_rules_option("stack-cap")->values_error("\a" + name);
  EXPECT_EQ(values.find('\a'), std::string::npos);
  EXPECT_LT(values.size(), 300u);
  try {
    parse_position(std::string("-/-/-/-/-/-/- w") + '\0' + " and more", kStandard);
    ADD_FAILURE() << "accepted";
  } catch (const NotationError& e) {
    EXPECT_NE(std::string(e.what()).find("\\x00 and more"), std::string::npos) << e.what();
  }
}

// The action encoding, written out here as the docs state it: a circle on
// space s is s - 1, a triangle 7 + s - 1, a movement from f to t
// 14 + (f - 1) * 7 + (t - 1).
int documented_action(const MoveText& m) {
  if (m.placement) return (m.shape == Shape::kCircle ? 0 : 7) + m.to;
  return 14 + m.from * 7 + m.to;
}

// Every action is either a move's, whose text reads back to it, or one of
// the 7 movements onto their own space, refused; the legal moves of sampled
// positions map one to one onto their actions and back.
TEST(Actions, EveryActionReadsBackOrIsRefused) {
  int moves = 0;
  for (int a = -3; a < kDistinctActions + 3; ++a) {
    SCOPED_TRACE(a);
    const std::optional<MoveText> m = action_move(a);
    const bool onto_itself = a >= 14 && a < 63 && (a - 14) / 7 == (a - 14) % 7;
    if (a < 0 || a >= 63 || onto_itself) {
      EXPECT_FALSE(m);
      EXPECT_THROW(action_text(a), std::invalid_argument);
      EXPECT_NE(action_error(a).find(onto_itself ? "onto itself" : "out of range (0..62)"),
                std::string::npos)
          << action_error(a);
      continue;
    }
    ++moves;
    ASSERT_TRUE(m);
    EXPECT_EQ(documented_action(*m), a);
    EXPECT_EQ(action_of(parse_move_text(action_text(a))), a) << action_text(a);
  }
  EXPECT_EQ(moves, 56);
  EXPECT_EQ(action_text(3), "C4");
  EXPECT_EQ(action_text(10), "T4");
  EXPECT_EQ(action_text(60), "7-5");
  for (const Variant& v : {kStandard, *variant_from_name("cap3-projective")}) {
    const Rules rules(v);
    std::mt19937 rng(7);
    for (const State st : testing::playout(rules, rng, 60, false)) {
      const GameRecord game(rules, st);
      const std::vector<int> actions = legal_actions(game);
      if (game.over()) {  // a line stands: no move, no action
        EXPECT_TRUE(actions.empty());
        EXPECT_THROW(move_of_action(game, 0), std::invalid_argument);
        continue;
      }
      const std::vector<Move> legal = legal_moves(rules, st);
      ASSERT_EQ(actions.size(), legal.size()) << format_position(st);
      EXPECT_TRUE(std::is_sorted(actions.begin(), actions.end()));
      for (const Move& mv : legal) {
        EXPECT_EQ(action_of(mv), documented_action(parse_move_text(format_move(mv))));
        EXPECT_EQ(move_of_action(game, action_of(mv)), mv);
      }
      for (int a = 0; a < kDistinctActions; ++a)
        if (std::find(actions.begin(), actions.end(), a) == actions.end()) {
          try {
            move_of_action(game, a);
            ADD_FAILURE() << a << " in " << format_position(st);
          } catch (const std::invalid_argument& e) {
            if (action_move(a)) {
              EXPECT_NE(std::string(e.what()).find(format_position(st)), std::string::npos)
                  << e.what();
            }
          }
        }
    }
  }
}

// The observation's planes: one per piece kind over (space, height from the
// bottom), then ones when Black is to move; read back into the position.
TEST(Actions, ObservationHoldsThePositionAndTheSideToMove) {
  const Rules rules(*variant_from_name("cap3-projective"));
  std::mt19937 rng(11);
  for (const State st : testing::playout(rules, rng, 80, false)) {
    const auto o = observation(st);
    const auto at = [&](int p, int s, int h) {
      return o[(std::size_t(p) * kSpaces + std::size_t(s)) * kMaxStackCap + std::size_t(h)];
    };
    for (int s = 0; s < kSpaces; ++s)
      for (int h = 0; h < kMaxStackCap; ++h) {
        float sum = 0;
        for (int p = 0; p < kPieceKinds; ++p) sum += at(p, s, h);
        EXPECT_EQ(sum, h < st.height(s) ? 1.0f : 0.0f);
        if (h < st.height(s)) {
          EXPECT_EQ(at(int(st.piece_from_bottom(s, h)), s, h), 1.0f);
        }
        EXPECT_EQ(at(kObservationPlanes - 1, s, h), st.to_move() == Colour::kBlack ? 1.0f : 0.0f);
      }
  }
}

}  // namespace
}  // namespace fano
