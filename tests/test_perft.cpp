// Perft: distinct positions at each depth from the empty board, in both
// counting modes (stop at a finished game / keep expanding it), pinned as
// oracles, cross-checked against a plain serial search, and through the
// `fano perft` command.
//
// Sources of the pinned numbers:
//  - depth 1 = 14 and depth 2 = 196 (cumulative 210) in both modes (counted by hand from RULES.md).
//  - depth 3 = 1680 (cap 2) and 1708 (cap 3), and the 42 positions by which the
//    modes first differ at depth 4: derived by hand in the comments below.
//  - everything else: computed by this program (fano perft) and pinned as
//    regression values.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <tbb/global_control.h>

#include <algorithm>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "fano/perft.hpp"
#include "fano/rules.hpp"
#include "support.hpp"

namespace fano {
namespace {

using namespace fano::testing;

std::vector<std::uint64_t> positions_of(const std::vector<PerftRow>& rows) {
  std::vector<std::uint64_t> out;
  for (const PerftRow& r : rows) out.push_back(r.positions);
  return out;
}

// A straightforward serial breadth-first count with std::set, independent of
// perft()'s parallel sort-and-unique layers.
std::vector<std::uint64_t> serial_counts(const Rules& rules, int depth, bool expand_ended) {
  std::set<std::uint64_t> layer{kEmptyBoard.code};
  std::vector<std::uint64_t> counts;
  for (int d = 1; d <= depth; ++d) {
    std::set<std::uint64_t> next;
    for (std::uint64_t code : layer) {
      const State st{code};
      if (!expand_ended && game_over(rules, st) != GameOver::kNone) continue;
      for_each_move(rules, st, [&](const Move&, State child) { next.insert(child.code); });
    }
    counts.push_back(next.size());
    layer = std::move(next);
  }
  return counts;
}

TEST(Perft, StandardStopAtEndDepth9) {
  // Depths 1, 2: 14 placements, then 14 replies each. Depth 3, by hand: White's two pieces and
  // Black's one.
  //  - two C (or two T) on distinct spaces {p,q} (21 pairs), Black's c or t (2)
  //    alone on one of 5 other spaces, or on p or q either under or over the
  //    white piece there (2 x 2): 21 * 2 * 9 = 378, twice (CC, TT): 756;
  //  - C and T stacked on one space (7 x 2 orders), Black's piece (2) on one of
  //    the 6 other spaces: 168;
  //  - C on p and T on q != p (42), Black's piece (2) placed as above (9): 756.
  //  Total 756 + 168 + 756 = 1680. Depths 4..9: regression values.
  const std::vector<PerftRow> rows = perft(Rules(kStandard), 9, false);
  ASSERT_EQ(rows.size(), 9u);
  const std::vector<std::uint64_t> expected{14,     196,    1680,   12894, 51912,
                                            183456, 326256, 429996, 517272};
  EXPECT_EQ(positions_of(rows), expected);
  std::uint64_t sum = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    sum += expected[i];
    EXPECT_EQ(rows[i].depth, int(i) + 1);
    EXPECT_EQ(rows[i].cumulative, sum);
  }
  EXPECT_EQ(rows[1].cumulative, 210u);
  EXPECT_EQ(rows[8].cumulative, 1523676u);
}

TEST(Perft, StandardExpandEndedDepth6) {
  const std::vector<PerftRow> rows = perft(Rules(kStandard), 6, true);
  EXPECT_EQ(positions_of(rows), (std::vector<std::uint64_t>{14, 196, 1680, 12936, 52080, 200340}));
  EXPECT_EQ(rows[1].cumulative, 210u);
  EXPECT_EQ(rows[5].cumulative, 267246u);
}

TEST(Perft, ModesFirstDifferAtDepth4) {
  // No line can stand before 3 pieces are down, so depths 1..3 agree. At depth 4
  // expand-ended adds the positions reachable only through a line at ply 3.
  // That line uses all three pieces (two white, one black) as tops, all of one
  // shape: C C c or T T t on one of 7 lines, the black piece on any of its 3
  // spaces. If Black's second piece lies anywhere else it could have been placed
  // first, avoiding the line; only when it covers her own first piece is the
  // order forced. So 2 shapes * 7 lines * 3 spaces = 42 extra positions.
  const Rules rules(kStandard);
  const auto stop = perft(rules, 4, false), expand = perft(rules, 4, true);
  for (int d = 0; d < 3; ++d) EXPECT_EQ(stop[d].positions, expand[d].positions) << d + 1;
  EXPECT_EQ(expand[3].positions - stop[3].positions, 42u);
}

TEST(Perft, OtherVariantsByHandAndRegression) {
  // Depths 1 and 2 do not depend on the variant (14 = 2 shapes x 7 spaces; 196 =
  // 14 x 14, Black's piece fits everywhere). Cap 3 adds at depth 3 the
  // three-high stacks W, b, W' on one space: 2 white orders x 2 black pieces x
  // 7 spaces = 28, so 1680 + 28 = 1708.
  const auto cap3 = perft(Rules(kCap3Board), 6, false);
  EXPECT_EQ(positions_of(cap3), (std::vector<std::uint64_t>{14, 196, 1708, 14238, 69216, 313488}));
  // Depths 1..8 are placements only, where adjacency plays no part: projective
  // equals board until the first movement at depth 9.
  const auto proj = perft(Rules(kCap2Projective), 9, false);
  const auto board = perft(Rules(kStandard), 9, false);
  for (int d = 0; d < 8; ++d) EXPECT_EQ(proj[d].positions, board[d].positions) << d + 1;
  EXPECT_EQ(proj[8].positions, 559272u);
  EXPECT_NE(proj[8].positions, board[8].positions);
  const auto cap3proj = perft(Rules(kCap3Projective), 6, false);
  EXPECT_EQ(positions_of(cap3proj), positions_of(cap3));
}

TEST(Perft, MatchesASerialSearch) {
  for (const Variant v : {kStandard, kCap2Projective, kCap3Board, kCap3Projective})
    for (bool expand : {false, true}) {
      const Rules rules(v);
      EXPECT_EQ(positions_of(perft(rules, 5, expand)), serial_counts(rules, 5, expand))
          << variant_slug(v) << (expand ? " expand-ended" : " stop-at-end");
    }
  // Into the movement phase for the standard game.
  const Rules rules(kStandard);
  EXPECT_EQ(positions_of(perft(rules, 10, false)), serial_counts(rules, 10, false));
}

TEST(Perft, IndependentOfThreadCount) {
  const Rules rules(kStandard);
  const auto parallel = perft(rules, 8, false);
  std::vector<PerftRow> serial;
  {
    tbb::global_control one_thread(tbb::global_control::max_allowed_parallelism, 1);
    serial = perft(rules, 8, false);
  }
  EXPECT_EQ(positions_of(serial), positions_of(parallel));
}

TEST(Perft, ReportsEachRow) {
  std::vector<PerftRow> seen;
  const auto rows =
      perft(Rules(kStandard), 3, false, [&](const PerftRow& r) { seen.push_back(r); });
  ASSERT_EQ(seen.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(seen[i].depth, rows[i].depth);
    EXPECT_EQ(seen[i].positions, rows[i].positions);
    EXPECT_EQ(seen[i].cumulative, rows[i].cumulative);
  }
}

TEST(ExpandLayer, SortedDistinctChildren) {
  const Rules rules(kStandard);
  const auto one = expand_layer(rules, {kEmptyBoard.code}, false);
  ASSERT_EQ(one.size(), 14u);
  EXPECT_TRUE(std::is_sorted(one.begin(), one.end()));
  // The least child is White's C on space 1 with Black to move: 0x40 | side bit.
  EXPECT_EQ(one.front(), (1ull << 56) | 0x40);
  const auto two = expand_layer(rules, one, false);
  EXPECT_EQ(two.size(), 196u);
  EXPECT_EQ(std::adjacent_find(two.begin(), two.end()), two.end());
}

TEST(ExpandLayer, EndedParentsOnlyWhenAsked) {
  // After C1 c2 C4 a line of circles stands: stop-at-end gives no children;
  // expand-ended gives Black's placements: her second c anywhere but on the c at
  // 2 (c1 c3 c4 c5 c6 c7: 6) and a t on any of the 7 spaces: 13.
  const Rules rules(kStandard);
  State st = kEmptyBoard.with_pushed(0, Piece::kWhiteCircle)
                 .with_pushed(1, Piece::kBlackCircle)
                 .with_pushed(3, Piece::kWhiteCircle)
                 .with_to_move(Colour::kBlack);
  ASSERT_EQ(game_over(rules, st), GameOver::kLine);
  EXPECT_TRUE(expand_layer(rules, {st.code}, false).empty());
  EXPECT_EQ(expand_layer(rules, {st.code}, true).size(), 13u);
}

// ---------------------------------------------------------------------------
// `fano perft`, end to end

TEST(FanoPerft, JsonDepth2BothModes) {
  const nlohmann::json depths = nlohmann::json::parse(
      R"([{"depth":1,"positions":14,"cumulative":14,"within":15,"paths":14,"ended_positions":0,"ended_paths":0},)"
      R"({"depth":2,"positions":196,"cumulative":210,"within":211,"paths":196,"ended_positions":0,"ended_paths":0}])");
  for (const bool expand : {false, true}) {
    const RunResult r = run_fano_shell(
        expand ? "perft --depth 2 --expand-ended --json" : "perft --depth 2 --json", false);
    EXPECT_EQ(r.exit_code, 0);
    const nlohmann::json j = parse_json(r.out);
    EXPECT_EQ(j["depths"], depths) << j;
    EXPECT_EQ(j["expand_ended"], expand) << j;
  }
}

TEST(FanoPerft, JsonDepth9) {
  const RunResult r = run_fano_shell("perft --depth 9 --json", false);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("{\"depth\":9,\"positions\":517272,\"cumulative\":1523676,"),
            std::string::npos)
      << r.out;
}

TEST(FanoPerft, BadFlagIsAOneLineError) {
  const RunResult r = run_fano_shell("perft --depth 2 --stack-cap 4", true);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  EXPECT_NE(r.out.find("--stack-cap"), std::string::npos) << r.out;
  for (const char* args :
       {"perft --depth 0", "perft --depth 2 --adjacency hex", "perft", "perft --depth 2 --bogus"}) {
    const RunResult bad = run_fano_shell(args, true);
    EXPECT_NE(bad.exit_code, 0) << args;
    EXPECT_EQ(std::count(bad.out.begin(), bad.out.end(), '\n'), 1) << args << ": " << bad.out;
  }
}

}  // namespace
}  // namespace fano
