// Tests of the symmetry groups: the 168 collineations of the Fano plane, the
// subgroup preserving each variant's move graph, the shape swap, the rules'
// full group (their product), canonical forms, and that every element commutes
// with move generation, game-over detection and reachability.

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdio>
#include <random>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "fano/notation.hpp"
#include "fano/rules.hpp"
#include "fano/symmetry.hpp"
#include "support.hpp"

namespace fano {
namespace {

using namespace fano::testing;

constexpr Permutation kIdentity{0, 1, 2, 3, 4, 5, 6};

Permutation compose(const Permutation& f, const Permutation& g) {  // f after g
  Permutation out{};
  for (int s = 0; s < kSpaces; ++s) out[s] = f[g[s]];
  return out;
}

Permutation inverse(const Permutation& p) {
  Permutation out{};
  for (int s = 0; s < kSpaces; ++s) out[p[s]] = std::uint8_t(s);
  return out;
}

SpaceMask image(SpaceMask m, const Permutation& p) {
  SpaceMask out = 0;
  for (int s = 0; s < kSpaces; ++s)
    if (m >> s & 1) out |= SpaceMask(1u << p[s]);
  return out;
}

bool is_line(SpaceMask m) {
  return std::find(kLineMasks.begin(), kLineMasks.end(), m) != kLineMasks.end();
}

bool contains(const std::vector<Permutation>& group, const Permutation& p) {
  return std::find(group.begin(), group.end(), p) != group.end();
}

// From 1-based images of spaces 1..7.
Permutation perm1(std::initializer_list<int> images) {
  Permutation p{};
  int s = 0;
  for (int i : images) p[s++] = std::uint8_t(i - 1);
  return p;
}

std::vector<std::uint64_t> sorted_children(const Rules& rules, State st) {
  std::vector<std::uint64_t> out;
  for_each_move(rules, st, [&](const Move&, State c) { out.push_back(c.code); });
  std::sort(out.begin(), out.end());
  return out;
}

// Distinct positions from seeded playouts (test_util.hpp) up to ply 60; each
// game not over by then still draws a 61st move, which is not kept.
std::vector<State> symmetry_sample(const Variant& v, int games, unsigned seed) {
  return sample_positions(v, games, seed, 61, 60);
}

// ---------------------------------------------------------------------------
// The collineation group

TEST(Collineations, Has168ElementsMappingLinesToLines) {
  const auto& group = collineations();
  ASSERT_EQ(group.size(), 168u);
  EXPECT_EQ(group.front(), kIdentity);
  EXPECT_TRUE(std::is_sorted(group.begin(), group.end()));
  EXPECT_EQ(std::set<Permutation>(group.begin(), group.end()).size(), 168u);
  for (const Permutation& p : group) {
    // A bijection of the seven spaces...
    EXPECT_EQ(std::set<int>(p.begin(), p.end()).size(), 7u);
    // ...mapping each line onto a line, hence the seven lines onto the seven lines.
    std::set<SpaceMask> images;
    for (SpaceMask l : kLineMasks) {
      EXPECT_TRUE(is_line(image(l, p)));
      images.insert(image(l, p));
    }
    EXPECT_EQ(images.size(), 7u);
  }
}

TEST(Collineations, DeterminedByTheImageOfAFrame) {
  // 168 = 7 * 6 * 4: a collineation is fixed by the images of spaces 1, 2, 3
  // (not collinear: {1,2,3} is no line), which may be any ordered triple of
  // non-collinear spaces -- 7 choices, then 6, then the 4 off their line.
  const auto& group = collineations();
  std::set<std::array<int, 3>> triples;
  for (const Permutation& p : group) {
    const SpaceMask t = SpaceMask(1u << p[0] | 1u << p[1] | 1u << p[2]);
    EXPECT_FALSE(is_line(t));
    triples.insert({p[0], p[1], p[2]});
  }
  EXPECT_EQ(triples.size(), 168u);
}

TEST(Collineations, FormAGroup) {
  const auto& group = collineations();
  for (const Permutation& f : group) {
    EXPECT_TRUE(contains(group, inverse(f)));
    for (size_t i = 0; i < group.size(); i += 7)  // a spread of right factors
      EXPECT_TRUE(contains(group, compose(f, group[i])));
  }
}

// ---------------------------------------------------------------------------
// Move-graph symmetries

TEST(MoveGraphSymmetries, BoardHasSix) {
  const auto board = move_graph_symmetries(Adjacency::kBoard);
  ASSERT_EQ(board.size(), 6u);
  EXPECT_EQ(board.front(), kIdentity);
  // The board's symmetries are those of the drawn triangle: they fix the
  // centre 7 (the only space with 6 neighbours), permute the corners {3,5,6}
  // and the midpoints {1,2,4}, and all 3! permutations of the corners occur.
  std::set<std::array<int, 3>> corner_images;
  for (const Permutation& p : board) {
    EXPECT_EQ(p[6], 6);
    for (int corner : {2, 4, 5}) EXPECT_TRUE(p[corner] == 2 || p[corner] == 4 || p[corner] == 5);
    for (int mid : {0, 1, 3}) EXPECT_TRUE(p[mid] == 0 || p[mid] == 1 || p[mid] == 3);
    corner_images.insert({p[2], p[4], p[5]});
  }
  EXPECT_EQ(corner_images.size(), 6u);
  // Hand-checked element: the reflection through corner 3 and its opposite
  // midpoint 1 swaps 2<->4 and 5<->6. Lines: {1,2,4}->{1,4,2}, {5,2,3}->{6,4,3},
  // {3,4,6}->{3,2,5}, {6,1,5}->{5,1,6}, {2,7,6}->{4,7,5}, {4,7,5}->{2,7,6},
  // {1,7,3}->{1,7,3}; edges 1-2<->1-4, 2-3<->4-3, 5-2<->6-4, 1-5<->1-6, ...
  EXPECT_TRUE(contains(board, perm1({1, 4, 3, 2, 6, 5, 7})));
}

TEST(MoveGraphSymmetries, ProjectiveHasAll168) {
  EXPECT_EQ(move_graph_symmetries(Adjacency::kProjective), collineations());
}

TEST(MoveGraphSymmetries, BoardSubgroupIsClosed) {
  const auto board = move_graph_symmetries(Adjacency::kBoard);
  for (const Permutation& f : board) {
    EXPECT_TRUE(contains(board, inverse(f)));
    for (const Permutation& g : board) EXPECT_TRUE(contains(board, compose(f, g)));
  }
  for (const Permutation& f : board) EXPECT_TRUE(contains(collineations(), f));
}

TEST(MoveGraphSymmetries, EachMapsEdgesOntoEdges) {
  for (Adjacency a : {Adjacency::kBoard, Adjacency::kProjective}) {
    const auto edges = edge_list(a);
    const std::set<std::pair<int, int>> edge_set(edges.begin(), edges.end());
    for (const Permutation& p : move_graph_symmetries(a))
      for (auto [x, y] : edges) {
        const int u = p[x - 1] + 1, w = p[y - 1] + 1;
        EXPECT_TRUE(edge_set.count({std::min(u, w), std::max(u, w)}));
      }
  }
}

TEST(MoveGraphSymmetries, CollineationOutsideTheBoardSubgroupBreaksAdjacency) {
  // g = (3 7)(5 6), fixing 1, 2, 4. It is a collineation: {1,2,4}->{1,2,4},
  // {5,2,3}->{6,2,7}, {3,4,6}->{7,4,5}, {6,1,5}->{5,1,6}, {2,7,6}->{2,3,5},
  // {4,7,5}->{4,3,6}, {1,7,3}->{1,3,7}: all lines.
  const Permutation g = perm1({1, 2, 7, 4, 6, 5, 3});
  EXPECT_TRUE(contains(collineations(), g));
  EXPECT_FALSE(contains(move_graph_symmetries(Adjacency::kBoard), g));
  // It maps the board edge 5-2 (side {5,2,3}) to 6-2, the two ends of the
  // median {2,7,6}: not an edge. Likewise 1-7 goes to 1-3.
  const auto edges = edge_list(Adjacency::kBoard);
  const std::set<std::pair<int, int>> edge_set(edges.begin(), edges.end());
  EXPECT_TRUE(edge_set.count({2, 5}));
  EXPECT_EQ(g[4] + 1, 6);
  EXPECT_EQ(g[1] + 1, 2);
  EXPECT_FALSE(edge_set.count({2, 6}));
  EXPECT_TRUE(edge_set.count({1, 7}));
  EXPECT_FALSE(edge_set.count({1, 3}));
  // And it changes a position's fate. In "-/Cc/cT/Ct/-/-/Tt w" White's only top
  // piece is the T on corner 3, whose neighbours 2, 4, 7 are full (cap 2): no
  // legal move, a loss. g moves that stack to the centre 7, adjacent to the
  // empty 1, 5, 6: three moves. Lines are preserved, so neither has a line.
  const Rules rules(kStandard);
  const State st = parse_position("-/Cc/cT/Ct/-/-/Tt w", kStandard);
  const State img = permute(st, g);
  EXPECT_EQ(format_position(img), "-/Cc/Tt/Ct/-/-/cT w");
  EXPECT_EQ(game_over(rules, st), GameOver::kNoMove);
  EXPECT_EQ(game_over(rules, img), GameOver::kNone);
  EXPECT_EQ(legal_moves(rules, img).size(), 3u);
  // Under projective adjacency g is a symmetry and both have the same moves.
  const Rules proj(Variant{2, Adjacency::kProjective});
  EXPECT_EQ(legal_moves(proj, st).size(), legal_moves(proj, img).size());
}

// ---------------------------------------------------------------------------
// Permuting positions, canonical forms

TEST(Permute, MovesStacksAndKeepsTheSide) {
  // The board reflection 2<->4, 5<->6 moves "CT" from 4 to 2.
  const Permutation r = perm1({1, 4, 3, 2, 6, 5, 7});
  const State st = parse_position("-/-/-/CT/tT/Cc/tc b", kStandard);
  EXPECT_EQ(format_position(permute(st, r)), "-/CT/-/-/Cc/tT/tc b");
  EXPECT_EQ(permute(permute(st, r), r), st);
  EXPECT_EQ(permute(st, kIdentity), st);
}

TEST(Canonical, HandCheckedOrbits) {
  // A lone white circle (Black to move). The code of "C on space s" is
  // 0x40 << 8(s-1) plus the side bit, and a lone T is one more, so the least
  // image is a circle on the lowest-numbered space of its orbit.
  const Symmetry board(Adjacency::kBoard), proj(Adjacency::kProjective);
  EXPECT_EQ(board.order(), 12);
  EXPECT_EQ(proj.order(), 336);
  auto one = [](int space, char piece = 'C') {
    std::string s = "-/-/-/-/-/-/- b";
    s[2 * (space - 1)] = piece;
    return parse_position(s, kStandard);
  };
  // Board: spatial orbits {7}, {1,2,4} (midpoints), {3,5,6} (corners), each
  // doubled by the shape swap (C <-> T).
  EXPECT_EQ(board.orbit_size(one(7)), 2);
  EXPECT_EQ(board.orbit_size(one(2)), 6);
  EXPECT_EQ(board.orbit_size(one(5)), 6);
  EXPECT_EQ(board.canonical(one(7)), one(7));
  EXPECT_EQ(board.canonical(one(7, 'T')), one(7));
  EXPECT_EQ(board.canonical(one(4)), one(1));
  EXPECT_EQ(board.canonical(one(4, 'T')), one(1));
  EXPECT_EQ(board.canonical(one(6)), one(3));
  EXPECT_EQ(board.canonical(one(6, 'T')), one(3));
  // Projective: all seven spaces are one orbit, times the two shapes.
  for (int s = 1; s <= 7; ++s) {
    EXPECT_EQ(proj.orbit_size(one(s)), 14);
    EXPECT_EQ(proj.canonical(one(s)), one(1));
    EXPECT_EQ(proj.canonical(one(s, 'T')), one(1));
  }
  EXPECT_EQ(board.orbit_size(kEmptyBoard), 1);
  EXPECT_EQ(board.canonical(kEmptyBoard), kEmptyBoard);
  // A stack on the centre alone: every spatial element fixes it, so its orbit
  // is the stack and its shape-swapped image.
  EXPECT_EQ(board.orbit_size(parse_position("-/-/-/-/-/-/Ct w", kStandard)), 2);
  EXPECT_EQ(board.canonical(parse_position("-/-/-/-/-/-/Tc w", kStandard)),
            parse_position("-/-/-/-/-/-/Ct w", kStandard));
  EXPECT_EQ(board.orbit_size(parse_position("-/-/-/-/-/-/CTc b", kCap3Board)), 2);
}

// ---------------------------------------------------------------------------
// The shape swap and the rules' full group

TEST(ShapeSwap, HandChecked) {
  // Each piece keeps its colour and changes shape; stacks keep their order.
  const State st = parse_position("C/Tc/ct/-/tCT/-/- b", kCap3Board);
  EXPECT_EQ(format_position(swap_shapes(st)), "T/Ct/tc/-/cTC/-/- b");
  EXPECT_EQ(swap_shapes(swap_shapes(st)), st);
  EXPECT_EQ(swap_shapes(kEmptyBoard), kEmptyBoard);
  EXPECT_EQ(swap_shapes(st.with_side_flipped()), swap_shapes(st).with_side_flipped());
}

TEST(ShapeSwap, EveryValidStackByte) {
  // Against a slot-by-slot definition, on every valid stack of cap 3.
  for (int b = 0; b < 256; ++b) {
    if (!kStackInfo[b].valid) continue;
    int expect = b;
    for (int i = 0; i < kStackInfo[b].height; ++i) expect ^= 1 << (2 * i);
    for (int s = 0; s < kSpaces; ++s) {
      const State st{std::uint64_t(b) << (8 * s)};
      EXPECT_EQ(swap_shapes(st).stack(s), expect) << "byte " << b;
      EXPECT_TRUE(kStackInfo[swap_shapes(st).stack(s)].valid);
    }
  }
}

TEST(ShapeSwap, LinesOfOneShapeGoToLinesOfTheOtherShape) {
  // The swap moves no piece, so the same lines stand: a circle line becomes a
  // triangle line and a colour line stays a colour line.
  const State circles = parse_position("C/c/-/C/-/-/- b", kStandard);  // {1,2,4}: circles
  ASSERT_EQ(formed_lines(circles), 1);
  const State triangles = swap_shapes(circles);
  EXPECT_EQ(format_position(triangles), "T/t/-/T/-/-/- b");
  EXPECT_EQ(formed_lines(triangles), 1);
  const TopMasks a = top_masks(circles), b = top_masks(triangles);
  EXPECT_EQ(a.white, b.white);
  EXPECT_EQ(b.circle, 0);
  EXPECT_EQ(a.circle, a.occupied);
}

TEST(RuleSymmetries, AreTheMoveGraphSymmetriesTimesTheSwap) {
  for (Adjacency adj : {Adjacency::kBoard, Adjacency::kProjective}) {
    const auto spatial = move_graph_symmetries(adj);
    const auto group = rule_symmetries(adj);
    ASSERT_EQ(group.size(), 2 * spatial.size());
    EXPECT_EQ(group.front(), (SymmetryElement{kIdentity, false}));
    for (size_t i = 0; i < spatial.size(); ++i) {
      EXPECT_EQ(group[i], (SymmetryElement{spatial[i], false}));
      EXPECT_EQ(group[spatial.size() + i], (SymmetryElement{spatial[i], true}));
    }
    EXPECT_EQ(std::set<SymmetryElement>(group.begin(), group.end()).size(), group.size());
    EXPECT_EQ(Symmetry(adj).group(), group);
  }
  EXPECT_EQ(rule_symmetries(Adjacency::kBoard).size(), 12u);
  EXPECT_EQ(rule_symmetries(Adjacency::kProjective).size(), 336u);
}

TEST(RuleSymmetries, ActionOnPositionsIsAGroupAction) {
  // apply(apply(st, g), h) = apply(st, h after g), and the swap commutes with
  // every relabelling.
  const auto group = rule_symmetries(Adjacency::kBoard);
  const State st = parse_position("C/Tc/ct/-/tC/T/- b", kStandard);
  std::set<std::uint64_t> images;
  for (const SymmetryElement& g : group) {
    EXPECT_EQ(swap_shapes(permute(st, g.perm)), permute(swap_shapes(st), g.perm));
    images.insert(apply(st, g).code);
    for (const SymmetryElement& h : group) {
      const SymmetryElement hg{compose(h.perm, g.perm), g.swap != h.swap};
      EXPECT_TRUE(std::find(group.begin(), group.end(), hg) != group.end());
      EXPECT_EQ(apply(apply(st, g), h), apply(st, hg));
    }
  }
  EXPECT_EQ(images.size(), 12u);  // this position has a trivial stabiliser
}

// ---------------------------------------------------------------------------
// Property tests: the subgroup commutes with the rules

// Fewer sampled games for the rule combinations beyond the named variants
// (forty combinations in all), so the suite stays quick.
int sample_divisor(const Variant& v) { return v.rulebook_material_and_lines() ? 1 : 5; }

class SymmetryVariantTest : public ::testing::TestWithParam<Variant> {};

TEST_P(SymmetryVariantTest, GroupCommutesWithMovesAndGameOver) {
  const Variant v = GetParam();
  const Rules rules(v);
  const Symmetry sym(v);
  // Fewer positions for the 336-element group keep the test fast.
  const int games = (v.adjacency == Adjacency::kBoard ? 2000 : 150) / sample_divisor(v);
  for (State st : symmetry_sample(v, games, 31337)) {
    const std::vector<std::uint64_t> children = sorted_children(rules, st);
    const GameOver over = game_over(rules, st);
    for (const SymmetryElement& g : sym.group()) {
      const State img = apply(st, g);
      std::vector<std::uint64_t> mapped;
      for (std::uint64_t c : children) mapped.push_back(apply(State{c}, g).code);
      std::sort(mapped.begin(), mapped.end());
      ASSERT_EQ(mapped, sorted_children(rules, img)) << format_position(st);
      ASSERT_EQ(game_over(rules, img), over) << format_position(st);
      ASSERT_EQ(img.placement_phase(v), st.placement_phase(v));
      ASSERT_TRUE(is_valid_position(img, v)) << format_position(st);
      ASSERT_EQ(img.to_move(), st.to_move());
      // Lines go to lines: the formed-line sets are images of each other.
      SpaceMask lines_img = 0, lines_st = 0;
      for (int l = 0; l < kLines; ++l) {
        if (formed_lines(rules, st) >> l & 1) lines_st |= SpaceMask(1u << l);
        if (formed_lines(rules, img) >> l & 1) lines_img |= SpaceMask(1u << l);
      }
      SpaceMask mapped_lines = 0;
      for (int l = 0; l < kLines; ++l)
        if (lines_st >> l & 1) {
          const SpaceMask m = image(kLineMasks[l], g.perm);
          mapped_lines |= SpaceMask(
              1u << (std::find(kLineMasks.begin(), kLineMasks.end(), m) - kLineMasks.begin()));
        }
      ASSERT_EQ(mapped_lines, lines_img) << format_position(st);
    }
  }
}

// Reachability: the image of a whole random game under any element is a game
// (each step a legal move, none made after the game ended), so the image of
// every reachable position is reachable.
TEST_P(SymmetryVariantTest, ImagesOfGamesAreGames) {
  const Variant v = GetParam();
  const Rules rules(v);
  const Symmetry sym(v);
  std::mt19937 rng(4242);
  const int games = (v.adjacency == Adjacency::kBoard ? 300 : 20) / sample_divisor(v);
  for (int n = 0; n < games; ++n) {
    const std::vector<State> game = playout(rules, rng, 80, n % 2 == 0);
    for (const SymmetryElement& g : sym.group()) {
      ASSERT_EQ(apply(game.front(), g), kEmptyBoard);
      for (size_t i = 0; i + 1 < game.size(); ++i) {
        const State from = apply(game[i], g), to = apply(game[i + 1], g);
        ASSERT_EQ(game_over(rules, from), GameOver::kNone) << format_position(from);
        const auto children = sorted_children(rules, from);
        ASSERT_TRUE(std::binary_search(children.begin(), children.end(), to.code))
            << format_position(from) << " -> " << format_position(to);
      }
    }
  }
}

// The group is derived from the rules: the shape swap belongs to it exactly
// when each player has as many circles as triangles, and without it some
// reachable position's swapped image breaks the rules (it shows more pieces of
// a shape than a player owns), so the swap could not be added.
TEST_P(SymmetryVariantTest, GroupHasTheShapeSwapExactlyWhenCountsAreEqual) {
  const Variant v = GetParam();
  const Symmetry sym(v);
  const int spatial = v.adjacency == Adjacency::kBoard ? 6 : 168;
  const bool has_swap = std::any_of(sym.group().begin(), sym.group().end(),
                                    [](const SymmetryElement& g) { return g.swap; });
  EXPECT_EQ(has_swap, v.circles == v.triangles) << variant_slug(v);
  EXPECT_EQ(sym.order(), v.circles == v.triangles ? 2 * spatial : spatial);
  EXPECT_EQ(&symmetry_of(v), &symmetry_of(v));
  EXPECT_EQ(symmetry_of(v).group(), sym.group());
  if (v.circles == v.triangles) return;
  bool broken = false;
  for (State st : symmetry_sample(v, 50, 99)) broken |= !is_valid_position(swap_shapes(st), v);
  EXPECT_TRUE(broken) << "the shape swap kept every sampled position valid";
}

TEST_P(SymmetryVariantTest, CanonicalIsInvariantUnderTheGroup) {
  const Variant v = GetParam();
  const Symmetry sym(v);
  const int games = (v.adjacency == Adjacency::kBoard ? 2000 : 300) / sample_divisor(v);
  for (State st : symmetry_sample(v, games, 8080)) {
    const State canon = sym.canonical(st);
    // The canonical form is the least code in the orbit (computed here directly).
    std::set<std::uint64_t> orbit;
    for (const SymmetryElement& g : sym.group()) orbit.insert(apply(st, g).code);
    ASSERT_EQ(canon.code, *orbit.begin()) << format_position(st);
    ASSERT_EQ(sym.orbit_size(st), int(orbit.size())) << format_position(st);
    ASSERT_EQ(sym.order() % int(orbit.size()), 0);
    // Every image has the same canonical form; for_each_image lists the group's images in order.
    for (const SymmetryElement& g : sym.group())
      ASSERT_EQ(sym.canonical(apply(st, g)), canon) << format_position(st);
    std::vector<std::uint64_t> listed;
    sym.for_each_image(st, [&](std::uint64_t c) { listed.push_back(c); });
    ASSERT_EQ(listed.size(), sym.group().size());
    for (size_t i = 0; i < listed.size(); ++i) ASSERT_EQ(listed[i], apply(st, sym.group()[i]).code);
    ASSERT_EQ(canon.to_move(), st.to_move());
  }
}

// canonicalise (a whole array in one call, as the search does) against the
// least image of each code, computed here from the group directly.
TEST_P(SymmetryVariantTest, CanonicaliseGivesEachCodesLeastImage) {
  const Variant v = GetParam();
  const Symmetry sym(v);
  const int games = (v.adjacency == Adjacency::kBoard ? 500 : 100) / sample_divisor(v);
  std::vector<std::uint64_t> codes, want;
  for (State st : symmetry_sample(v, games, 9191)) {
    codes.push_back(st.code);
    std::uint64_t least = st.code;
    for (const SymmetryElement& g : sym.group()) least = std::min(least, apply(st, g).code);
    want.push_back(least);
  }
  ASSERT_FALSE(codes.empty());
  sym.canonicalise(codes.data(), codes.size());
  EXPECT_TRUE(codes == want);
  sym.canonicalise(codes.data(), 0);  // nothing to do
  EXPECT_TRUE(codes == want);
}

INSTANTIATE_TEST_SUITE_P(AllRules, SymmetryVariantTest,
                         ::testing::ValuesIn(all_rule_combinations()), variant_param_name);

// ---------------------------------------------------------------------------
// `fano info`, end to end

TEST(FanoInfo, JsonBoard) {
  const RunResult r = run_fano({"info", "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  const nlohmann::json j = parse_json(r.out);
  EXPECT_EQ(j["collineations"], 168);
  EXPECT_EQ(j["symmetries"], 6);
  EXPECT_EQ(j["rule_symmetries"], 12);  // with the circle/triangle swap
  EXPECT_EQ(j["stack_cap"], 2);
  EXPECT_EQ(j["adjacency"], "board");
  // RULES.md's lines and its 15 edges, sorted.
  EXPECT_EQ(j["lines"],
            nlohmann::json::parse("[[1,2,4],[5,2,3],[3,4,6],[6,1,5],[2,7,6],[4,7,5],[1,7,3]]"));
  EXPECT_EQ(j["edges"],
            nlohmann::json::parse("[[1,2],[1,4],[1,5],[1,6],[1,7],[2,3],[2,4],[2,5],[2,7],"
                                  "[3,4],[3,7],[4,6],[4,7],[5,7],[6,7]]"));
}

TEST(FanoInfo, JsonProjective) {
  const RunResult r = run_fano({"info", "--adjacency", "projective", "--stack-cap", "3", "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  const nlohmann::json j = parse_json(r.out);
  EXPECT_EQ(j["collineations"], 168);
  EXPECT_EQ(j["symmetries"], 168);
  EXPECT_EQ(j["rule_symmetries"], 336);
  EXPECT_EQ(j["stack_cap"], 3);
  EXPECT_EQ(j["edges"].size(), 21u) << j;  // every pair of points
}

TEST(FanoInfo, BadFlagValues) {
  for (const char* args : {"info --stack-cap 4", "info --adjacency hex"}) {
    const RunResult r = run_fano_shell(args);
    EXPECT_NE(r.exit_code, 0) << args;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  }
  EXPECT_NE(run_fano_shell("info --stack-cap 4").out.find("--stack-cap"), std::string::npos);
  EXPECT_NE(run_fano_shell("info --adjacency hex").out.find("--adjacency"), std::string::npos);
}

}  // namespace
}  // namespace fano
