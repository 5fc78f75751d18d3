// Play and see: `fano play` scripted through stdin and engine against
// engine, the engine's choice rule, and `fano show` / `fano query --svg`
// pictures. End-to-end through the fano tool (FANO_BIN); the choice rule also
// in process through the fano_engine library.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "fano/analysis.hpp"
#include "fano/notation.hpp"
#include "fano/render.hpp"
#include "fano/rules.hpp"
#include "fano/svg.hpp"
#include "fano/table_files.hpp"
#include "fano/tablebase.hpp"
#include "support.hpp"

namespace fano {
namespace {

using namespace fano::testing;

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + what.size()))
    ++n;
  return n;
}

// The standard game's table, solved once by the tool for the whole suite.
class Play : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    table_ = (*dir_ / "standard.fanotb").string();
    const std::vector<std::string> args{"solve", "--out", table_};
    const RunResult r = run_fano(args);
    ASSERT_EQ(r.exit_code, 0) << command_line(args) << ": " << r.err;
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }

  static RunResult play(std::vector<std::string> args, const std::string& input) {
    args.insert(args.begin(), {"play", "--tb", table_});
    return run_fano_with_input(args, input);
  }

  static TempDir* dir_;
  static std::string table_;
};

TempDir* Play::dir_ = nullptr;
std::string Play::table_;

// Black to move, movement phase: 1 T, 2 C under c, 3 t under c, 4 C, 6 t under
// T, 5 and 7 empty. Black's tops are c2 and c3: 2-1, 2-4, 2-5, 2-7 (2-3: 3 is
// full) and 3-4, 3-7 (3-2: 2 is full), six moves. Two of them draw, 2-4 and
// 3-4, 2-4 first in move order (from-space 2 before 3).
//   After 3-4 (1 T, 2 Cc, 3 t, 4 Cc, 6 tT): White's tops are T1 and T6; 1-2
//   and 1-4 hit full stacks, 1-6 full, 6-4 full, 6-1 would put T on T: White
//   has exactly 1-5, 1-7 and 6-7. 6-7 uncovers t6 and loses at once (lines
//   {3,4,6} all black and {1,7,3} all triangles). The table says 1-5 draws and
//   1-7 loses in 3: one reply keeps White's draw.
//   After 2-4, White has seven replies of which three keep the draw.
// So the engine plays 3-4: of White's replies that form no line (1-5, 1-7),
// half lose; after 2-4 fewer of them do.
constexpr const char* kChoicePosition = "T/Cc/tc/C/-/tT/- b";
constexpr const char* kAfterChoice = "T/Cc/t/Cc/-/tT/- w";

TEST_F(Play, EngineChoiceRuleOnAHandCheckedPosition) {
  const Tablebase tb = open_tablebase(table_, kStandard);
  const Rules rules(kStandard);
  const State st = parse_position(kChoicePosition, kStandard);
  const std::vector<RatedMove> rated = rate_moves(tb, rules, st);
  ASSERT_EQ(rated.size(), 6u);
  ASSERT_EQ(format_move(rated[0].move), "2-4");
  ASSERT_EQ(format_move(rated[1].move), "3-4");
  EXPECT_EQ(rated[0].result, (Outcome{Value::kDraw, 0}));
  EXPECT_EQ(rated[1].result, (Outcome{Value::kDraw, 0}));
  EXPECT_NE(rated[2].result.value, Value::kDraw);
  EXPECT_EQ(legal_moves(rules, rated[0].child).size(), 7u);
  EXPECT_EQ(keeping_replies(tb, rules, rated[0].child), 3);
  EXPECT_EQ(legal_moves(rules, rated[1].child).size(), 3u);
  EXPECT_EQ(keeping_replies(tb, rules, rated[1].child), 1);
  EXPECT_EQ(format_position(rated[1].child), kAfterChoice);
  // The trap rule: after 3-4 one of White's two moves that form no line loses.
  EXPECT_EQ(trap_chance(tb, rules, rated[1].child).errors, 1);
  EXPECT_EQ(trap_chance(tb, rules, rated[1].child).choices, 2);
  const TrapChance after_2_4 = trap_chance(tb, rules, rated[0].child);
  EXPECT_LT(2 * after_2_4.errors, after_2_4.choices)
      << after_2_4.errors << " of " << after_2_4.choices;
  EXPECT_EQ(choose_index(tb, rules, rated), 1u);
  EXPECT_EQ(format_move(choose_move(tb, GameRecord(rules, st))), "3-4");
  // The reply 6-7 loses at once, so it cannot keep the draw.
  const State lost = apply_move(rated[1].child, Move{5, 6, Piece::kWhiteTriangle});
  EXPECT_EQ(game_over(rules, lost), GameOver::kLine);
  // The tool plays the same move when it is the engine's turn.
  const RunResult r = play({kChoicePosition}, "");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("ply 1: Black (engine) plays 3-4 (black: draw)"), std::string::npos)
      << r.out;
}

// The engine's trap rule, recomputed from the table's ratings of the
// opponent's replies: the share of her moves that form no line (all of them
// when each does) whose result is worse than her best.
double trap_share(const Tablebase& tb, const Rules& rules, const RatedMove& m) {
  if (m.repeats) return 0;
  const std::vector<RatedMove> replies = rate_moves(tb, rules, m.child);
  if (replies.empty()) return 0;
  int safe = 0, safe_errors = 0, errors = 0;
  for (const RatedMove& r : replies) {
    const bool err = !(r.result == replies.front().result);
    errors += err;
    if (!formed_lines(r.child)) ++safe, safe_errors += err;
  }
  return safe ? double(safe_errors) / safe : double(errors) / double(replies.size());
}

TEST_F(Play, ChoiceIsAmongTheBestAndDeterministic) {
  const Tablebase tb = open_tablebase(table_, kStandard);
  const Rules rules(kStandard);
  GameRecord game(rules);
  for (int ply = 0; ply < 30 && !game.over(); ++ply) {
    const std::vector<RatedMove> rated = rate_moves(tb, game);
    const std::size_t i = choose_index(tb, rules, rated);
    EXPECT_EQ(rated[i].result, rated[0].result);
    const auto keeping = [&](std::size_t k) {
      return rated[k].repeats ? 1 << 20 : keeping_replies(tb, rules, rated[k].child);
    };
    const double share = trap_share(tb, rules, rated[i]);
    for (std::size_t j = 0; j < rated.size() && rated[j].result == rated[0].result; ++j) {
      const double other = trap_share(tb, rules, rated[j]);
      EXPECT_GE(share + 1e-12, other) << "ply " << ply << ": " << format_move(rated[j].move);
      if (std::abs(share - other) < 1e-12) {
        EXPECT_LE(keeping(i), keeping(j));
        if (j < i) {
          EXPECT_LT(keeping(i), keeping(j));
        }
      }
    }
    EXPECT_EQ(choose_move(tb, game), rated[i].move);
    game.play(rated[i].move);
  }
}

TEST_F(Play, ScriptedSessionEndsInALossByALine) {
  // White to move after the engine's 3-4 above; 6-7 forms a line.
  const RunResult r = play({kAfterChoice}, "6-7\n");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  EXPECT_NE(r.out.find("ply 1: White (you) plays 6-7"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("game over: line {3,4,6} has three black pieces on top: White, who "
                       "moved last, lost"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("result: White (you) lost, Black (engine) won"), std::string::npos) << r.out;
  // The board is shown after the move: the stacks of the final position.
  EXPECT_NE(r.out.find("[7:T ]"), std::string::npos) << r.out;
  // Moves after the end are refused; the session still ends cleanly at EOF.
  const RunResult more = play({kAfterChoice}, "6-7\n1-5\n");
  EXPECT_EQ(more.exit_code, 0);
  EXPECT_NE(more.out.find("the game is over"), std::string::npos) << more.out;
}

TEST_F(Play, ScriptedSessionFromTheEmptyBoard) {
  // A whole session: moves, an illegal move, a command and quit.
  const RunResult r = play({}, "C4\n1-2\nmoves\nquit\nC5\n");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("you play white against perfect play"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ply 1: White (you) plays C4"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ply 2: Black (engine) plays "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("not played: move '1-2'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("moves: C4,"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("plays C5"), std::string::npos) << "input after quit was read";
  // Board after every move: the start, the human's move and the engine's reply.
  EXPECT_EQ(count(r.out, " to move\n"), 3) << r.out;
  // No input at all: the board, one prompt, a clean end.
  const RunResult empty = play({}, "");
  EXPECT_EQ(empty.exit_code, 0);
  EXPECT_EQ(count(empty.out, "White (you) to move> "), 1) << empty.out;
}

TEST_F(Play, UndoTakesBackTheMovePair) {
  const RunResult r = play({}, "C4\nundo\nmoves\n");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("took back: C4, [ct][1-7]\n"))) << r.out;
  EXPECT_NE(r.out.find("moves: (none)"), std::string::npos) << r.out;
  // After a loss, undo takes back the losing move alone; play goes on.
  const RunResult after_loss = play({kAfterChoice}, "6-7\nundo\n1-5\nmoves\n");
  EXPECT_NE(after_loss.out.find("took back: 6-7\n"), std::string::npos) << after_loss.out;
  EXPECT_NE(after_loss.out.find("ply 1: White (you) plays 1-5"), std::string::npos);
  EXPECT_NE(after_loss.out.find("ply 2: Black (engine) plays "), std::string::npos);
  // Playing Black, the engine's first move alone cannot be taken back.
  const RunResult black = play({"--as", "black"}, "undo\n");
  EXPECT_NE(black.out.find("ply 1: White (engine) plays "), std::string::npos) << black.out;
  EXPECT_NE(black.out.find("nothing to undo"), std::string::npos) << black.out;
}

TEST_F(Play, HintListsEveryMoveAsQueryDoes) {
  const RunResult r = play({}, "hint\n");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> qargs{"query", "--tb", table_, "-/-/-/-/-/-/- w"};
  const RunResult query = run_fano(qargs);
  ASSERT_EQ(query.exit_code, 0) << query.err;
  const std::size_t from = query.out.find("moves (14), best first:");
  const std::string list = query.out.substr(from, query.out.find("engine: ") - from);
  EXPECT_NE(r.out.find(list), std::string::npos) << r.out << "\n---\n" << list;
  EXPECT_NE(r.out.find("value for white (to move): draw"), std::string::npos);
  EXPECT_NE(r.out.find("  T7  loss in 13 plies\n"), std::string::npos);
}

TEST_F(Play, EngineAgainstEngineEndsByRepetition) {
  const std::vector<std::string> args{"play", "--tb", table_, "--engine-vs-engine"};
  const RunResult r = run_fano(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("draw by repetition: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("result: draw"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(" lost"), std::string::npos) << r.out;
  // Replay the printed moves: every position new until the last, which repeats one.
  const size_t at = r.out.rfind("moves: ");
  ASSERT_NE(at, std::string::npos);
  const std::string list = r.out.substr(at + 7, r.out.find('\n', at) - at - 7);
  const Rules rules(kStandard);
  std::vector<Move> played;
  play_moves(rules, kEmptyBoard, list, &played);
  ASSERT_GT(played.size(), 8u);
  ASSERT_LT(played.size(), 200u);
  std::vector<State> seen{kEmptyBoard};
  for (size_t i = 0; i < played.size(); ++i) {
    const State next = apply_move(seen.back(), played[i]);
    const bool repeats = std::find(seen.begin(), seen.end(), next) != seen.end();
    EXPECT_EQ(repeats, i + 1 == played.size()) << "ply " << i + 1;
    seen.push_back(next);
  }
  EXPECT_EQ(count(r.out, " (white: draw)\n") + count(r.out, " (black: draw)\n"),
            int(played.size()));
  // --max-plies stops early.
  const RunResult short_game =
      run_fano({"play", "--tb", table_, "--engine-vs-engine", "--max-plies", "5"});
  EXPECT_EQ(short_game.exit_code, 0);
  EXPECT_NE(short_game.out.find("stopped after 5 plies"), std::string::npos) << short_game.out;
  EXPECT_EQ(count(short_game.out, "\nply "), 5);
}

TEST_F(Play, HelpDocumentsTheChoiceRule) {
  const RunResult r = run_fano({"play", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  // The help is wrapped at the terminal width: read it as one line.
  const std::string flat = std::regex_replace(r.out, std::regex("\\s+"), " ");
  EXPECT_NE(flat.find("sets the likeliest trap for a fallible opponent"), std::string::npos)
      << r.out;
  EXPECT_NE(flat.find("fewest replies keeping her result"), std::string::npos) << r.out;
  EXPECT_EQ(run_fano({"show", "--help"}).exit_code, 0);
  const RunResult bad = play({"--as", "green"}, "");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.err_lines(), 1) << bad.err;
}

// Minimal XML check: every tag closed in order, no stray '<' or '&'.
::testing::AssertionResult well_formed_svg(const std::string& svg) {
  std::string s = svg;
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  if (s.rfind("<svg", 0) != 0) return ::testing::AssertionFailure() << "does not start with <svg";
  if (s.size() < 6 || s.compare(s.size() - 6, 6, "</svg>") != 0)
    return ::testing::AssertionFailure() << "does not end with </svg>";
  std::vector<std::string> open;
  size_t i = 0;
  while (i < s.size()) {
    if (s[i] == '&') {
      const size_t semi = s.find(';', i);
      if (semi == std::string::npos || semi - i > 6)
        return ::testing::AssertionFailure() << "stray & at " << i;
      i = semi + 1;
      continue;
    }
    if (s[i] == '>') return ::testing::AssertionFailure() << "stray > at " << i;
    if (s[i] != '<') {
      ++i;
      continue;
    }
    // A tag: find its end outside quoted attribute values.
    size_t j = i + 1;
    bool quoted = false;
    while (j < s.size() && (quoted || s[j] != '>')) {
      if (s[j] == '"') quoted = !quoted;
      if (!quoted && s[j] == '<') return ::testing::AssertionFailure() << "'<' inside a tag";
      ++j;
    }
    if (j == s.size()) return ::testing::AssertionFailure() << "unterminated tag";
    const std::string tag = s.substr(i + 1, j - i - 1);
    if (tag.empty()) return ::testing::AssertionFailure() << "empty tag";
    if (tag[0] == '/') {
      const std::string name = tag.substr(1);
      if (open.empty() || open.back() != name)
        return ::testing::AssertionFailure()
               << "</" << name << "> closes " << (open.empty() ? "nothing" : open.back());
      open.pop_back();
    } else if (tag.back() != '/') {
      open.push_back(tag.substr(0, tag.find_first_of(" \t\n")));
    }
    i = j + 1;
  }
  if (!open.empty()) return ::testing::AssertionFailure() << "<" << open.back() << "> not closed";
  return ::testing::AssertionSuccess();
}

TEST_F(Play, ShowWritesAWellFormedSvgWithOneShapePerPiece) {
  struct Case {
    std::vector<std::string> extra;
    std::string position;
    int pieces;
  };
  const std::vector<Case> cases{
      {{}, "-/-/-/-/-/-/- w", 0},
      {{}, kChoicePosition, 8},
      {{"--best", "--tb", table_}, kChoicePosition, 8},
      {{"--best", "--tb", table_}, "-/-/-/C/-/c/- w", 2},
      {{"--stack-cap", "3"}, "CtT/c/-/-/-/C/t w", 6},
  };
  for (const Case& c : cases) {
    const std::string file = (*dir_ / "board.svg").string();
    std::vector<std::string> args{"show", c.position, "--svg", file};
    args.insert(args.end(), c.extra.begin(), c.extra.end());
    const RunResult r = run_fano(args);
    ASSERT_EQ(r.exit_code, 0) << command_line(args) << ": " << r.err;
    const std::string svg = read_text(file);
    EXPECT_TRUE(well_formed_svg(svg)) << command_line(args);
    EXPECT_EQ(count(svg, "class=\"piece "), c.pieces) << command_line(args);
    EXPECT_EQ(count(svg, "class=\"piece white circle\"") +
                  count(svg, "class=\"piece white triangle\"") +
                  count(svg, "class=\"piece black circle\"") +
                  count(svg, "class=\"piece black triangle\""),
              c.pieces);
    EXPECT_EQ(count(svg, "class=\"label\""), 7) << "the seven spaces are numbered";
    EXPECT_NE(svg.find(c.position.back() == 'w' ? "White to move" : "Black to move"),
              std::string::npos);
  }
  // A three-high stack, bottom to top: C, t, T drawn in that order.
  const std::string file = (*dir_ / "cap3.svg").string();
  ASSERT_EQ(run_fano({"show", "--stack-cap", "3", "CtT/c/-/-/-/C/t w", "--svg", file}).exit_code,
            0);
  const std::string svg = read_text(file);
  const size_t a = svg.find("piece white circle"), b = svg.find("piece black triangle"),
               c = svg.find("piece white triangle");
  EXPECT_TRUE(a < b && b < c) << svg;
}

TEST_F(Play, BestMovesAndQuerySvg) {
  // The two drawing moves of the hand-checked position are both movements: two arrows.
  const std::string shown = (*dir_ / "shown.svg").string();
  ASSERT_EQ(run_fano({"show", kChoicePosition, "--svg", shown, "--best", "--tb", table_}).exit_code,
            0);
  const std::string svg = read_text(shown);
  EXPECT_EQ(count(svg, "class=\"best movement\""), 2) << svg;
  EXPECT_EQ(count(svg, "class=\"best placement\""), 0);
  EXPECT_NE(svg.find("<title>2-4</title>"), std::string::npos);
  EXPECT_NE(svg.find("<title>3-4</title>"), std::string::npos);
  // Placements as outlines: C4 then c6 leaves White 11 placements, 10 of them best.
  const std::string placed = (*dir_ / "placed.svg").string();
  ASSERT_EQ(
      run_fano({"show", "--moves", "C4,c6", "--svg", placed, "--best", "--tb", table_}).exit_code,
      0);
  EXPECT_GT(count(read_text(placed), "class=\"best placement\""), 0);
  EXPECT_EQ(count(read_text(placed), "class=\"best movement\""), 0);
  // query --svg writes the same picture; its text output is unchanged.
  const std::string queried = (*dir_ / "queried.svg").string();
  const RunResult with = run_fano({"query", "--tb", table_, kChoicePosition, "--svg", queried});
  const RunResult without = run_fano({"query", "--tb", table_, kChoicePosition});
  ASSERT_EQ(with.exit_code, 0) << with.err;
  EXPECT_EQ(with.out, without.out);
  EXPECT_EQ(read_text(queried), svg);
  // Errors: one line, non-zero exit, nothing written.
  const RunResult to_dir = run_fano({"show", kChoicePosition, "--svg", dir_->path().string()});
  EXPECT_NE(to_dir.exit_code, 0);
  EXPECT_EQ(to_dir.err_lines(), 1) << to_dir.err;
  const std::string never = (*dir_ / "never.svg").string();
  const RunResult bad = run_fano({"show", "-/-/-/-/-/-/- x", "--svg", never});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.err_lines(), 1) << bad.err;
  EXPECT_FALSE(fs::exists(never));
  const RunResult no_table =
      run_fano({"show", kChoicePosition, "--best", "--tb", (*dir_ / "none.fanotb").string()});
  EXPECT_EQ(no_table.exit_code, 10);
  EXPECT_EQ(no_table.err_lines(), 1) << no_table.err;
}

// --- messages, pictures and scripts ---------------------------------------------

TEST_F(Play, HumanMoveThatChangesTheResultIsSaid) {
  // C7 loses in 13 (the table: the reply position is Black's win in 12); the
  // empty board is a draw for White.
  const Tablebase tb = open_tablebase(table_, kStandard);
  const Rules rules(kStandard);
  const Outcome after = outcome_for_mover(
      *tb.probe(apply_move(kEmptyBoard, Move{Move::kFromSupply, 6, Piece::kWhiteCircle})));
  ASSERT_EQ(outcome_text(after), "loss in 13");
  const RunResult r = play({}, "C7\n");
  EXPECT_NE(r.out.find("ply 1: White (you) plays C7\nC7: draw -> loss in 13 plies\n"),
            std::string::npos)
      << r.out;
  // A move keeping the draw says nothing.
  const RunResult keep = play({}, "C1\n");
  EXPECT_EQ(keep.out.find(" -> "), std::string::npos) << keep.out;
}

// `review` lists each side's mistakes so far as `fano review` does, during the
// game and after it ends (the end's message offers it).
TEST_F(Play, ReviewListsTheMistakesAsTheReviewCommand) {
  const RunResult r = play({}, "C7\nreview\n");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::size_t at = r.out.find("moves: C7,");
  ASSERT_NE(at, std::string::npos) << r.out;
  // The engine's reply is the second move of the game reviewed.
  const std::string moves = r.out.substr(at + 7, r.out.find(' ', at + 7) - at - 7);
  const RunResult review = run_fano({"review", "--tb", table_, "--moves", moves});
  ASSERT_EQ(review.exit_code, 0) << review.err;
  EXPECT_NE(r.out.find(review.out), std::string::npos) << r.out << review.out;
  EXPECT_NE(review.out.find("  1. C7 ?? gives the draw away: it loses in 13 plies"),
            std::string::npos)
      << review.out;
  const RunResult ended = play({kAfterChoice}, "6-7\nreview\n");
  EXPECT_NE(ended.out.find("type 'review' for each side's mistakes"), std::string::npos)
      << ended.out;
  EXPECT_NE(ended.out.find("end: "), std::string::npos) << ended.out;
}

TEST_F(Play, NewGameAfterTheEnd) {
  const RunResult r = play({kAfterChoice}, "6-7\nnew\nmoves\n1-5\n");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("type 'new' for a new game, 'undo' to take back moves, or 'quit'"),
            std::string::npos)
      << r.out;
  const std::size_t at = r.out.find("new game\n");
  ASSERT_NE(at, std::string::npos) << r.out;
  EXPECT_NE(r.out.find("moves: (none)", at), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ply 1: White (you) plays 1-5", at), std::string::npos) << r.out;
  // From --moves, a new game starts after those moves.
  const RunResult set_up = play({"--moves", "C4,t3"}, "T1\nnew\nmoves\n");
  EXPECT_NE(set_up.out.find("new game"), std::string::npos);
  EXPECT_NE(set_up.out.find("moves: C4,t3\n", set_up.out.find("new game")), std::string::npos)
      << set_up.out;
}

TEST_F(Play, UndoNeverTakesBackTheSetUpMoves) {
  const RunResult r = play({"--moves", "C4,t3"}, "undo\nT1\nundo\nmoves\nundo\n");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(count(r.out, "nothing to undo (the moves given with --moves stay)\n"), 2) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("took back: T1, [ct][1-7]\n"))) << r.out;
  EXPECT_NE(r.out.find("moves: C4,t3\n"), std::string::npos) << r.out;
}

TEST_F(Play, UnknownWordIsAnUnknownCommand) {
  const RunResult r = play({}, "clearhint\nC9\nround\nHINTS\n");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("unknown command 'clearhint' (type 'help' for commands)"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("unknown command 'HINTS'"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("not played: move 'clearhint'"), std::string::npos) << r.out;
  // Move-like words are still moves, with the notation's message.
  EXPECT_NE(r.out.find("not played: move 'C9'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("not played: move 'round'"), std::string::npos) << r.out;
}

// Typed (or piped) bytes come back escaped as in every other message: a
// control character or a byte that is not UTF-8 never reaches the terminal,
// neither in the echo of a scripted line nor in the refusal of a move.
TEST_F(Play, InputIsEchoedAndRefusedWithItsBytesEscaped) {
  const RunResult r = play({}, "C4\xff\xfe\n\x1b]0;pwned\x07\nhint\x1b[2J\nquit\n");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char raw : {'\x1b', '\x07', '\xff', '\xfe'})
    EXPECT_EQ(r.out.find(raw), std::string::npos) << int(static_cast<unsigned char>(raw));
  EXPECT_NE(r.out.find("> C4\\xff\\xfe\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("not played: move 'C4\\xff\\xfe'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("> \\x1b]0;pwned\\x07\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("not played: move '\\x1b]0;pwned\\x07'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("not played: move 'hint\\x1b[2J'"), std::string::npos) << r.out;
  // Text in UTF-8 is kept as typed.
  const RunResult utf8 = play({}, "C4\u00e9\nquit\n");
  EXPECT_NE(utf8.out.find("not played: move 'C4\u00e9'"), std::string::npos) << utf8.out;
}

TEST_F(Play, OutputEndsWithANewline) {
  for (const auto& [args, input] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{}, ""}, {{}, "quit\n"}, {{}, "C4"}, {{}, "C4\nhint"}, {{kAfterChoice}, "6-7\n"}}) {
    const RunResult r = play(args, input);
    EXPECT_EQ(r.exit_code, 0) << input;
    ASSERT_FALSE(r.out.empty());
    EXPECT_EQ(r.out.back(), '\n') << "input '" << input << "': " << r.out;
  }
}

TEST_F(Play, EngineAgainstEngineAsJson) {
  const RunResult r = run_fano({"play", "--tb", table_, "--engine-vs-engine", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = parse_json(r.out);
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j["start"], "-/-/-/-/-/-/- w");
  EXPECT_EQ(j["variant"]["stack_cap"], 2);
  // Replayed through the rules: every position and mover as the JSON says.
  const Rules rules(kStandard);
  State st = kEmptyBoard;
  int ply = 0;
  for (const nlohmann::json& m : j["moves"]) {
    EXPECT_EQ(m["ply"], ++ply);
    EXPECT_EQ(m["mover"], colour_name(st.to_move()));
    st = play_moves(rules, st, m["move"].get<std::string>());
    EXPECT_EQ(m["position"], format_position(st));
    EXPECT_EQ(m["result"], "draw");  // the standard game is a draw, and the engine keeps it
    EXPECT_TRUE(m["plies"].is_null());
  }
  EXPECT_GT(ply, 8);
  EXPECT_EQ(j["end"]["reason"], "repetition");
  EXPECT_TRUE(j["winner"].is_null());
  // The same game as the text output's.
  const RunResult text = run_fano({"play", "--tb", table_, "--engine-vs-engine"});
  const std::size_t at = text.out.rfind("moves: ");
  ASSERT_NE(at, std::string::npos);
  EXPECT_EQ(j["move_list"], text.out.substr(at + 7, text.out.find('\n', at) - at - 7));
  // Stopped by --max-plies: no end.
  const RunResult cut =
      run_fano({"play", "--tb", table_, "--engine-vs-engine", "--max-plies", "5", "--json"});
  const nlohmann::json c = parse_json(cut.out);
  EXPECT_EQ(c["moves"].size(), 5u);
  EXPECT_TRUE(c["end"].is_null());
}

TEST_F(Play, MaxPliesAndJsonNeedEngineVsEngine) {
  for (const std::vector<std::string>& extra :
       {std::vector<std::string>{"--max-plies", "5"}, std::vector<std::string>{"--json"}}) {
    const RunResult r = play(extra, "C4\n");
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_EQ(r.err_lines(), 1) << r.err;
    EXPECT_NE(r.err.find("needs --engine-vs-engine"), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("plays"), std::string::npos) << "a game was played";
  }
}

// The first line of text starting with `prefix`, or "".
std::string line_starting(const std::string& text, const std::string& prefix) {
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);)
    if (l.rfind(prefix, 0) == 0) return l;
  return "";
}

TEST_F(Play, WordingOnePlyAndOneValuePhrase) {
  // After the engine's 3-4, White's 6-7 forms a line: a loss in 1 ply.
  const RunResult q = run_fano({"query", "--tb", table_, kAfterChoice});
  ASSERT_EQ(q.exit_code, 0) << q.err;
  EXPECT_NE(q.out.find("  6-7  loss in 1 ply\n"), std::string::npos) << q.out;
  EXPECT_EQ(q.out.find(" 1 plies"), std::string::npos) << q.out;
  // The value in one phrase in query, show --best and play's hint.
  const std::string value = line_starting(q.out, "value for ");
  EXPECT_EQ(value, "value for white (to move): draw");
  const RunResult show = run_fano({"show", "--tb", table_, "--best", kAfterChoice});
  EXPECT_EQ(line_starting(show.out, "value for "), value) << show.out;
  const RunResult hint = play({kAfterChoice}, "hint\n");
  EXPECT_EQ(line_starting(hint.out.substr(hint.out.find("hint\n")), "value for "), value);
  // A decisive value: "loss in 13 plies" in both.
  const RunResult q7 = run_fano({"query", "--tb", table_, "-/-/-/-/-/-/C b"});
  const RunResult s7 = run_fano({"show", "--tb", table_, "--best", "-/-/-/-/-/-/C b"});
  EXPECT_EQ(line_starting(q7.out, "value for "), "value for black (to move): win in 12 plies");
  EXPECT_EQ(line_starting(s7.out, "value for "), line_starting(q7.out, "value for "));
}

// --- SVG structure --------------------------------------------------------------

struct Element {
  std::string name;
  std::map<std::string, std::string> attrs;
  std::string text;  // up to the next tag
  bool has_class(const std::string& c) const {
    const auto it = attrs.find("class");
    if (it == attrs.end()) return false;
    std::istringstream words(it->second);
    for (std::string w; words >> w;)
      if (w == c) return true;
    return false;
  }
  double num(const std::string& a) const { return std::stod(attrs.at(a)); }
};

// Every start tag of an SVG document, in order, with its attributes.
std::vector<Element> svg_elements(const std::string& svg) {
  std::vector<Element> out;
  const std::regex attr("([A-Za-z_:][-A-Za-z0-9_:.]*)=\"([^\"]*)\"");
  for (std::size_t i = svg.find('<'); i != std::string::npos; i = svg.find('<', i + 1)) {
    if (svg[i + 1] == '/' || svg[i + 1] == '?' || svg[i + 1] == '!') continue;
    const std::size_t end = svg.find('>', i);
    const std::string tag = svg.substr(i + 1, end - i - 1);
    Element e;
    e.name = tag.substr(0, tag.find_first_of(" />"));
    for (std::sregex_iterator it(tag.begin(), tag.end(), attr), stop; it != stop; ++it)
      e.attrs[(*it)[1]] = (*it)[2];
    const std::size_t next = svg.find('<', end);
    if (tag.back() != '/') e.text = svg.substr(end + 1, next - end - 1);
    out.push_back(e);
  }
  return out;
}

struct Pt {
  double x, y;
};

std::vector<Pt> polygon_points(const Element& e) {
  std::vector<Pt> pts;
  std::istringstream in(e.attrs.at("points"));
  for (std::string p; in >> p;) pts.push_back({std::stod(p), std::stod(p.substr(p.find(',') + 1))});
  return pts;
}

// A piece's bounding circle: a circle's own, a triangle's circumcircle.
void bounding_circle(const Element& e, Pt& c, double& r) {
  if (e.name == "circle") {
    c = {e.num("cx"), e.num("cy")}, r = e.num("r");
    return;
  }
  const std::vector<Pt> pts = polygon_points(e);
  c = {0, 0};
  for (const Pt& p : pts) c.x += p.x / double(pts.size()), c.y += p.y / double(pts.size());
  r = 0;
  for (const Pt& p : pts) r = std::max(r, std::hypot(p.x - c.x, p.y - c.y));
}

TEST_F(Play, SvgHighlightsTheLineThatEndedTheGame) {
  const Rules rules(kStandard);
  const State end = play_moves(rules, parse_position(kAfterChoice, kStandard), "6-7");
  const auto over = game_end(rules, end);
  ASSERT_TRUE(over && over->reason == EndReason::kLine);
  std::set<std::string> want;
  for (int s : kLineSpaces[over->line]) want.insert(std::to_string(s + 1));
  const std::string file = (*dir_ / "ended.svg").string();
  ASSERT_EQ(run_fano({"show", format_position(end), "--svg", file}).exit_code, 0);
  std::set<std::string> got;
  for (const Element& e : svg_elements(read_text(file)))
    if (e.has_class("line-highlight")) got.insert(e.attrs.at("data-space"));
  EXPECT_EQ(got, want);
  EXPECT_EQ(want, (std::set<std::string>{"3", "4", "6"}));  // the hand-checked line
}

TEST_F(Play, SvgDrawsEachPlayersSupply) {
  for (const State st : sample_positions(kStandard, 100, 13)) {
    std::map<std::string, int> drawn;
    for (const Element& e : svg_elements(board_svg(st))) {
      if (!e.has_class("supply")) continue;
      EXPECT_EQ(e.attrs.count("data-space"), 0u) << "a supply piece is not on a space";
      EXPECT_FALSE(e.has_class("piece"));
      drawn[std::string(e.has_class("white") ? "white" : "black") +
            (e.has_class("circle") ? " circle" : " triangle")]++;
    }
    // The supply from the notation: two of each kind, less those on the board.
    const std::string text = format_position(st);
    const std::string board = text.substr(0, text.find(' '));
    const std::map<std::string, char> kinds{{"white circle", 'C'},
                                            {"white triangle", 'T'},
                                            {"black circle", 'c'},
                                            {"black triangle", 't'}};
    for (const auto& [name, ch] : kinds) {
      const int left = 2 - int(std::count(board.begin(), board.end(), ch));
      EXPECT_EQ(drawn[name], st.placement_phase() ? left : 0) << text << " " << name;
    }
  }
}

// Checks that no space has two placement outlines that cross: when both
// shapes are marked at a space, the triangle lies inside the circle.
void expect_outlines_apart(const std::string& svg, int& nested) {
  std::map<std::string, std::vector<Element>> at;  // by the space's centre
  for (const Element& e : svg_elements(svg))
    if (e.has_class("placement")) {
      Pt c;
      double r;
      bounding_circle(e, c, r);
      at[std::to_string(std::lround(c.x)) + "," + std::to_string(std::lround(c.y))].push_back(e);
    }
  for (const auto& [where, marks] : at) {
    ASSERT_LE(marks.size(), 2u) << where;
    if (marks.size() < 2) continue;
    const Element& circle = marks[0].name == "circle" ? marks[0] : marks[1];
    const Element& triangle = marks[0].name == "circle" ? marks[1] : marks[0];
    ASSERT_EQ(circle.name, "circle") << where;
    ASSERT_EQ(triangle.name, "polygon") << where;
    const Pt c{circle.num("cx"), circle.num("cy")};
    for (const Pt& p : polygon_points(triangle))
      EXPECT_LT(std::hypot(p.x - c.x, p.y - c.y), circle.num("r") - 3) << where;
    ++nested;
  }
}

TEST_F(Play, SvgPlacementOutlinesNeverCross) {
  const Tablebase tb = open_tablebase(table_, kStandard);
  const Rules rules(kStandard);
  int nested = 0;
  for (const State st : sample_positions(kStandard, 60, 7, 8, 8)) {
    if (game_over(rules, st) != GameOver::kNone) continue;
    const PositionReport r =
        analyse(tb, st, {.principal_variation = false, .engine_choice = false});
    expect_outlines_apart(board_svg(st, svg_options_for(r)), nested);
    expect_outlines_apart(board_svg(st, svg_options_for(r, true)), nested);
  }
  EXPECT_GT(nested, 50);
  // The empty board through the tool: every space has both shapes marked.
  const std::string file = (*dir_ / "all.svg").string();
  ASSERT_EQ(
      run_fano({"show", "-/-/-/-/-/-/- w", "--all-moves", "--tb", table_, "--svg", file}).exit_code,
      0);
  int empty_board = 0;
  expect_outlines_apart(read_text(file), empty_board);
  EXPECT_EQ(empty_board, 7);
}

TEST_F(Play, SvgCircleMovesFollowTheArc) {
  const Rules rules(kStandard);
  int arcs = 0, lines = 0;
  for (const State st : sample_positions(kStandard, 200, 21)) {
    if (st.placement_phase() || game_over(rules, st) != GameOver::kNone) continue;
    SvgOptions options;
    options.best = legal_moves(rules, st);
    const std::vector<Element> els = svg_elements(board_svg(st, options));
    Pt centre{0, 0};
    double radius = 0;
    for (const Element& e : els)
      if (e.name == "circle" && e.has_class("board"))
        centre = {e.num("cx"), e.num("cy")}, radius = e.num("r");
    ASSERT_GT(radius, 0);
    for (const Element& e : els) {
      if (!e.has_class("movement")) continue;
      const std::string m = e.attrs.at("data-move");
      const auto circle = [](char s) { return s == '1' || s == '2' || s == '4'; };
      if (!(circle(m[0]) && circle(m[2]))) {
        EXPECT_EQ(e.name, "line") << m;
        ++lines;
        continue;
      }
      // "Mx,y Ar,r 0 0 s x2,y2": both ends and the arc on the circle (within
      // the 5-unit shift that keeps opposite arrows apart).
      ASSERT_EQ(e.name, "path") << m;
      double x1, y1, rx, ry, rot, large, sweep, x2, y2;
      ASSERT_EQ(std::sscanf(e.attrs.at("d").c_str(), "M%lf,%lf A%lf,%lf %lf %lf %lf %lf,%lf", &x1,
                            &y1, &rx, &ry, &rot, &large, &sweep, &x2, &y2),
                9)
          << e.attrs.at("d");
      EXPECT_NEAR(rx, radius, 5.5) << m;
      EXPECT_EQ(rx, ry);
      EXPECT_EQ(large, 0) << m << ": the short arc";
      EXPECT_NEAR(std::hypot(x1 - centre.x, y1 - centre.y), rx, 0.2) << m;
      EXPECT_NEAR(std::hypot(x2 - centre.x, y2 - centre.y), rx, 0.2) << m;
      ++arcs;
    }
  }
  EXPECT_GT(arcs, 10);
  EXPECT_GT(lines, 10);
}

TEST_F(Play, SvgLabelsClearOfThreePieceStacks) {
  const Variant cap3{3, Adjacency::kBoard};
  for (int s = 0; s < kSpaces; ++s) {
    // A 3-piece stack on space s, and a black circle elsewhere.
    std::string stacks[kSpaces] = {"-", "-", "-", "-", "-", "-", "-"};
    stacks[s] = "CtT";
    stacks[(s + 1) % kSpaces] = "c";
    std::string text;
    for (int k = 0; k < kSpaces; ++k) text += (k ? "/" : "") + stacks[k];
    const State st = parse_position(text + " w", cap3);
    const std::vector<Element> els = svg_elements(board_svg(st));
    int labels = 0;
    for (const Element& label : els) {
      if (!label.has_class("label")) continue;
      ++labels;
      // The digit's box at font-size 16: 10 wide, 12 high above the baseline.
      const double x0 = label.num("x"), y1 = label.num("y"), x1 = x0 + 10, y0 = y1 - 12;
      for (const Element& piece : els) {
        if (!piece.has_class("piece")) continue;
        Pt c;
        double r;
        bounding_circle(piece, c, r);
        const double dx = std::max({x0 - c.x, 0.0, c.x - x1}),
                     dy = std::max({y0 - c.y, 0.0, c.y - y1});
        EXPECT_GT(std::hypot(dx, dy), r + 1)
            << text << ": label " << label.text << " under a piece of space "
            << piece.attrs.at("data-space");
      }
    }
    EXPECT_EQ(labels, 7);
  }
}

TEST_F(Play, SvgAllMovesColouredByResult) {
  const std::string file = (*dir_ / "rated.svg").string();
  ASSERT_EQ(
      run_fano({"show", kChoicePosition, "--all-moves", "--tb", table_, "--svg", file}).exit_code,
      0);
  const RunResult q = run_fano({"query", "--tb", table_, kChoicePosition, "--json"});
  const nlohmann::json report = parse_json(q.out);
  std::map<std::string, std::string> result;  // move -> win/draw/loss, from query
  for (const nlohmann::json& m : report["moves"]) result[m["move"]] = m["result"];
  ASSERT_EQ(result.size(), 6u);
  std::map<std::string, std::string> colour_of;  // result -> stroke
  std::set<std::string> marked;
  const std::vector<Element> els = svg_elements(read_text(file));
  for (std::size_t i = 0; i + 1 < els.size(); ++i) {
    const Element& e = els[i];
    if (!e.attrs.count("data-move")) continue;
    const std::string m = e.attrs.at("data-move");
    EXPECT_TRUE(marked.insert(m).second) << m << " marked twice";
    ASSERT_TRUE(result.count(m)) << m;
    EXPECT_TRUE(e.has_class("move") && e.has_class(result[m])) << m << ": " << e.attrs.at("class");
    EXPECT_FALSE(e.has_class("best"));
    const auto [it, fresh] = colour_of.emplace(result[m], e.attrs.at("stroke"));
    EXPECT_EQ(it->second, e.attrs.at("stroke")) << "one colour per result";
    // Its tooltip: the move and its result.
    EXPECT_EQ(els[i + 1].name, "title");
    EXPECT_EQ(els[i + 1].text.rfind(m + ": " + result[m], 0), 0u) << els[i + 1].text;
  }
  EXPECT_EQ(marked.size(), 6u);
  std::set<std::string> colours;
  for (const auto& [r, c] : colour_of) colours.insert(c);
  EXPECT_EQ(colours.size(), colour_of.size()) << "each result its own colour";
  EXPECT_GE(colour_of.size(), 2u);  // draws and losses here
}

}  // namespace
}  // namespace fano
