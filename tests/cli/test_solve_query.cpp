// End-to-end tests of `fano solve` and `fano query` (the tool at FANO_BIN):
// JSON fields and real values, exit codes and one-line error messages.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "fano/analysis.hpp"
#include "fano/notation.hpp"
#include "fano/rules.hpp"
#include "fano/solver.hpp"
#include "fano/table_files.hpp"
#include "fano/tablebase.hpp"
#include "support.hpp"

namespace fano {
namespace {

using namespace fano::testing;

using nlohmann::json;

// The tool's JSON `plies` for an outcome: null for a draw, else the count.
json plies_of(Outcome o) { return o.value == Value::kDraw ? json(nullptr) : json(o.plies); }

// --- shared fixture: one solved standard table per test process --------------

class ToolsEndToEnd : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    table_ = new std::string((*dir_ / "standard.fanotb").string());
    solve_run_ = new RunResult(run_fano({"solve", "--json", "--out", *table_}));
  }
  static void TearDownTestSuite() {
    delete solve_run_;
    delete table_;
    delete dir_;
  }
  static const std::string& table() { return *table_; }
  static const RunResult& solve_run() { return *solve_run_; }

  static RunResult query(std::vector<std::string> args) {
    args.insert(args.begin(), {"query", "--tb", *table_});
    return run_fano(args);
  }

 private:
  static TempDir* dir_;
  static std::string* table_;
  static RunResult* solve_run_;
};

TempDir* ToolsEndToEnd::dir_ = nullptr;
std::string* ToolsEndToEnd::table_ = nullptr;
RunResult* ToolsEndToEnd::solve_run_ = nullptr;

// --- solve -------------------------------------------------------------------

TEST_F(ToolsEndToEnd, SolveJsonHasEveryFieldWithRealValues) {
  const RunResult& r = solve_run();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string& j = r.out;
  ASSERT_FALSE(j.empty());
  EXPECT_EQ(j.front(), '{');
  EXPECT_EQ(j.find('\n'), j.size() - 1) << "one line of JSON";
  const Solution sol = solve(kStandard);
  const json o = parse_json(j);
  EXPECT_EQ(o["stack_cap"], 2);
  EXPECT_EQ(o["adjacency"], "board");
  EXPECT_EQ(o["reachable"], sol.stats.reachable);
  EXPECT_EQ(o["placement"], sol.stats.placement);
  EXPECT_EQ(o["movement"], sol.stats.movement);
  EXPECT_EQ(o["canonical"], sol.stats.canonical);
  EXPECT_EQ(o["win"], sol.stats.win);
  EXPECT_EQ(o["loss"], sol.stats.loss);
  EXPECT_EQ(o["draw"], sol.stats.draw);
  EXPECT_EQ(o["reachable"], 1639939u);
  EXPECT_EQ(o["start"]["value"], "draw");
  EXPECT_TRUE(o["start"]["plies"].is_null()) << o["start"];
  EXPECT_EQ(o["tablebase"], table());
  EXPECT_EQ(o["tablebase_bytes"], fs::file_size(table()));
  ASSERT_TRUE(o["seconds"].is_object()) << o;
  EXPECT_TRUE(o["seconds"]["total"].is_number()) << o["seconds"];
  // The written table holds the same counts.
  const Tablebase tb = open_tablebase(table(), kStandard);
  EXPECT_EQ(tb.header().reachable, sol.stats.reachable);
  EXPECT_EQ(tb.size(), sol.positions.size());
}

TEST_F(ToolsEndToEnd, SolveWritesTheSameBytesForAnyThreadCount) {
  TempDir dir;
  const std::string one = (dir / "one.fanotb").string(), two = (dir / "two.fanotb").string();
  ASSERT_EQ(run_fano({"solve", "--threads", "1", "--out", one}).exit_code, 0);
  ASSERT_EQ(run_fano({"solve", "--threads", "2", "--out", two}).exit_code, 0);
  const std::string a = read_text(one), b = read_text(two);
  EXPECT_FALSE(a.empty());
  EXPECT_TRUE(a == b) << "tables differ between --threads 1 and 2";
  EXPECT_TRUE(a == read_text(table())) << "differs from the default thread count";
}

// --- query -------------------------------------------------------------------

// Checks a query's JSON against the table read by the library: the value, and
// every move's result (the mover's view of the child), best first.
void expect_query_matches_table(const std::string& text, const Tablebase& tb, State st) {
  const Rules rules(tb.variant());
  const auto outcome = tb.probe(st);
  ASSERT_TRUE(outcome.has_value());
  const json j = parse_json(text);
  EXPECT_EQ(j["position"], format_position(st));
  EXPECT_EQ(j["to_move"], colour_name(st.to_move()));
  EXPECT_EQ(j["value"], value_name(outcome->value));
  EXPECT_EQ(j["plies"], plies_of(*outcome));
  const json& moves = j["moves"];
  ASSERT_TRUE(moves.is_array()) << j;
  const bool over = game_over(rules, st) != GameOver::kNone;
  EXPECT_EQ(j["game_over"].is_null(), !over);
  EXPECT_EQ(moves.size(), over ? 0u : legal_moves(rules, st).size());
  std::optional<Outcome> previous;
  for (const json& m : moves) {
    const std::string move = m.value("move", "");
    const State child = apply_move(st, resolve_move(rules, st, parse_move_text(move), move));
    EXPECT_EQ(m["position"], format_position(child));
    const auto c = tb.probe(child);
    ASSERT_TRUE(c.has_value()) << format_position(child);
    const Outcome mine = outcome_for_mover(*c);
    EXPECT_EQ(m["result"], value_name(mine.value)) << m;
    EXPECT_EQ(m["plies"], plies_of(mine)) << m;
    if (previous) {
      EXPECT_FALSE(better_for_mover(mine, *previous)) << "not best first at " << m;
    }
    previous = mine;
  }
}

TEST_F(ToolsEndToEnd, QueryStartPositionJson) {
  const RunResult r = query({"--json", "-/-/-/-/-/-/- w"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = parse_json(r.out);
  EXPECT_EQ(j["value"], "draw");
  EXPECT_TRUE(j["plies"].is_null()) << j["plies"];
  EXPECT_TRUE(j["game_over"].is_null()) << j["game_over"];
  EXPECT_EQ(j["moves"].size(), 14u);
  expect_query_matches_table(r.out, open_tablebase(table()), kEmptyBoard);
}

TEST_F(ToolsEndToEnd, QueryMovesJson) {
  const Rules rules(kStandard);
  const Tablebase tb = open_tablebase(table());
  // A game into the movement phase: the first seeded random game that lasts
  // 12 plies, its moves written in the notation.
  std::string long_game;
  for (unsigned seed = 1; long_game.empty(); ++seed) {
    std::mt19937 rng(seed);
    State st = kEmptyBoard;
    std::string moves;
    for (int ply = 0; ply < 12 && game_over(rules, st) == GameOver::kNone; ++ply) {
      const auto legal = legal_moves(rules, st);
      const Move m = legal[std::uniform_int_distribution<size_t>(0, legal.size() - 1)(rng)];
      if (!moves.empty()) moves += ',';
      moves += format_move(m);
      st = apply_move(st, m);
      if (ply == 11 && game_over(rules, st) == GameOver::kNone) long_game = moves;
    }
  }
  ASSERT_FALSE(play_moves(rules, kEmptyBoard, long_game).placement_phase());
  // Placement-phase games: the history cannot recur, the table's values hold.
  for (const std::string& moves : {std::string("C4,t3"), std::string("C4 t3 T7")}) {
    SCOPED_TRACE(moves);
    const RunResult r = query({"--json", "--moves", moves});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    expect_query_matches_table(r.out, tb, play_moves(rules, kEmptyBoard, moves));
  }
  // Into the movement phase the results are those of the game's history
  // (test_history checks them against a brute force): the tool prints the
  // library's ratings, and the table's value of the position.
  const RunResult lr = query({"--json", "--moves", long_game});
  ASSERT_EQ(lr.exit_code, 0) << lr.err;
  const json j = parse_json(lr.out);
  const GameRecord game = GameRecord::from_moves(rules, kEmptyBoard, long_game);
  const auto rated = rate_moves(tb, game);
  ASSERT_EQ(j["moves"].size(), rated.size());
  for (std::size_t i = 0; i < rated.size(); ++i) {
    EXPECT_EQ(j["moves"][i]["move"], format_move(rated[i].move));
    EXPECT_EQ(j["moves"][i]["result"], value_name(rated[i].result.value));
    EXPECT_EQ(j["moves"][i]["plies"], plies_of(rated[i].result));
  }
  EXPECT_EQ(j["table_value"], value_name(tb.probe(game.current())->value));
  EXPECT_EQ(j["value"], value_name(rated.front().result.value));
  const RunResult r = query({"--json", "--moves", "C4,t3"});
  EXPECT_EQ(parse_json(r.out)["position"], "-/-/t/C/-/-/- w");
}

TEST_F(ToolsEndToEnd, QueryGameOverSaysWhy) {
  // White C1, Black c2, White C4: three circles on {1,2,4}; Black has won.
  const RunResult r = query({"--json", "--moves", "C1,c2,C4"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = parse_json(r.out);
  EXPECT_EQ(j["value"], "win");
  EXPECT_EQ(j["plies"], 0);
  ASSERT_TRUE(j["game_over"].is_object()) << j;
  EXPECT_EQ(j["game_over"]["reason"], "line");
  EXPECT_EQ(j["game_over"]["loser"], "white");
  EXPECT_EQ(j["game_over"]["line"], json::array({1, 2, 4}));
  EXPECT_NE(j["game_over"].value("text", "").find("{1,2,4}"), std::string::npos) << j;
  EXPECT_EQ(j["moves"], json::array());
  // No move may follow.
  const RunResult after = query({"--json", "--moves", "C1,c2,C4,c3"});
  EXPECT_EQ(after.exit_code, 2);
  EXPECT_EQ(after.err_lines(), 1) << after.err;
  EXPECT_NE(after.err.find("already over"), std::string::npos) << after.err;
}

TEST_F(ToolsEndToEnd, QueryTextOutput) {
  const RunResult r = query({"-/-/-/-/-/-/- w"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("value for white (to move): draw"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("moves (14)"), std::string::npos) << r.out;
}

// A legal position no game reaches: a line stands, and every way to undo
// Black's last placement (the only kind of move that leads to a placement
// position with White to move) leaves a line standing, so the game had
// already ended one ply earlier.
TEST_F(ToolsEndToEnd, QueryUnreachablePositionExits3) {
  const std::string text = "C/T/c/C/t/-/c w";
  const State st = parse_position(text, kStandard);  // legal
  ASSERT_NE(formed_lines(st), 0);
  int parents = 0;
  for (int s = 0; s < kSpaces; ++s) {
    if (st.empty(s) || colour_of(st.top(s)) != Colour::kBlack) continue;
    ++parents;
    EXPECT_NE(formed_lines(st.with_popped(s).with_to_move(Colour::kBlack)), 0);
  }
  ASSERT_EQ(parents, 3);
  for (const bool json : {false, true}) {
    const RunResult r = json ? query({"--json", text}) : query({text});
    EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_EQ(r.err_lines(), 1) << r.err;
    EXPECT_EQ(r.err.rfind("fano query: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(text), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("reach"), std::string::npos) << "should say it is unreachable: " << r.err;
  }
}

TEST_F(ToolsEndToEnd, QueryBadPositionExits2WithOneLine) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"C/C/C/-/-/-/- b", "white circles"},      // three copies of a piece
      {"-/-/-/-/-/- w", "7 stacks"},             // six stacks
      {"x/-/-/-/-/-/- w", "unknown character"},  // not a piece
      {"CTc/-/-/-/-/-/- b", "stack cap"},        // over the cap
      {"CC/-/-/-/-/-/- b", "stacking rule"},     // two identical pieces in a stack
      {"-/-/-/-/-/-/- x", "side to move"},       // not w or b
      {"-/-/-/-/-/-/- b", "inconsistent"},       // Black cannot be to move
      {"-/-/-/-/-/-/-", "side to move"},         // missing side
  };
  for (const auto& [text, problem] : cases) {
    SCOPED_TRACE(text);
    const RunResult r = query({"--json", text});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_EQ(r.err_lines(), 1) << r.err;
    EXPECT_EQ(r.err.rfind("fano query: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(problem), std::string::npos) << r.err;
  }
}

TEST_F(ToolsEndToEnd, PositionStartingWithDashIsAPositionalArgument) {
  const std::string text = "-/C/-/-/-/-/- b";
  for (const auto& args : std::vector<std::vector<std::string>>{{"--json", text},
                                                                {text, "--json"},
                                                                {"--json", "-p", text},
                                                                {"--json", "--position", text}}) {
    const RunResult r = query(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json j = parse_json(r.out);
    EXPECT_EQ(j["position"], text);
    EXPECT_EQ(j["to_move"], "black");
  }
  const RunResult r = query({"--json", "-/-/-/-/-/-/- w"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_query_matches_table(r.out, open_tablebase(table()), kEmptyBoard);
}

TEST_F(ToolsEndToEnd, QueryMissingTableNamesTheFile) {
  TempDir dir;
  const std::string missing = (dir / "none.fanotb").string();
  const RunResult r = run_fano({"query", "--tb", missing, "-/-/-/-/-/-/- w"});
  EXPECT_EQ(r.exit_code, exit_code_of(TablebaseErrorKind::kMissing));
  EXPECT_EQ(r.err_lines(), 1) << r.err;
  EXPECT_NE(r.err.find(missing), std::string::npos) << r.err;
}

}  // namespace
}  // namespace fano

namespace fano {
namespace {

using namespace fano::testing;

// A move list that repeats a position must stop: rule 3 ends it drawn at the repetition.
constexpr const char* kRepeating = "T2,t7,T1,t1,C2,c4,C7,c3,7-3,1-4,3-7,4-1";  // ply 12 = ply 8

TEST_F(ToolsEndToEnd, QueryReportsADrawByRepetition) {
  // The full cap-2 projective table; these moves are legal there too.
  const fs::path table = fs::path(FANO_SOURCE_DIR) / "fuzz/corpus/tablebase/full_cap2_projective";
  const RunResult r = run_fano({"query", "--tb", table.string(), "--json", "--moves", kRepeating});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = parse_json(r.out);
  EXPECT_EQ(j["game_over"]["reason"], "repetition") << r.out;
  EXPECT_EQ(j["game_over"]["loser"], nullptr) << r.out;
  EXPECT_NE(j["game_over"]["text"].get<std::string>().find("draw by repetition"), std::string::npos)
      << r.out;
  EXPECT_EQ(j["value"], "draw") << r.out;
  EXPECT_EQ(j["plies"], nullptr) << r.out;
  EXPECT_TRUE(j["moves"].empty()) << r.out;
}

// POSITION and --moves together: the moves are played from the position, whose
// history starts there (as the API's position= and moves=), so returning to
// it is a repetition.
TEST_F(ToolsEndToEnd, QueryPlaysTheMovesFromTheGivenPosition) {
  const fs::path table = fs::path(FANO_SOURCE_DIR) / "fuzz/corpus/tablebase/full_cap2_projective";
  const Rules rules(kCap2Projective);
  const State start = play_moves(rules, kEmptyBoard, "T2,t7,T1,t1,C2,c4,C7,c3");
  const RunResult r = run_fano({"query", "--tb", table.string(), "--json", format_position(start),
                                "--moves", "7-3,1-4,3-7,4-1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = parse_json(r.out);
  EXPECT_EQ(j["position"], format_position(start)) << r.out;
  EXPECT_EQ(j["game_over"]["reason"], "repetition") << r.out;
  // Two of the four moves: no repetition yet, the position two plies on.
  const RunResult half = run_fano(
      {"query", "--tb", table.string(), "--json", format_position(start), "--moves", "7-3,1-4"});
  ASSERT_EQ(half.exit_code, 0) << half.err;
  EXPECT_EQ(parse_json(half.out)["position"], format_position(play_moves(rules, start, "7-3,1-4")));
  EXPECT_TRUE(parse_json(half.out)["game_over"].is_null());
  // Neither: one line naming both ways.
  const RunResult none = run_fano({"query", "--tb", table.string()});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("give a POSITION or --moves, or both"), std::string::npos) << none.err;
}

}  // namespace
}  // namespace fano

namespace fano {
namespace {

using namespace fano::testing;
using nlohmann::json;

// --- fano review --------------------------------------------------------------

std::string first_moves(const std::vector<std::string>& moves, std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < n; ++i) out += (i ? "," : "") + moves[i];
  return out;
}

// `fano review --json` equals a walk of `fano query --moves ... --json` over
// every prefix of seeded random games (one careful, deep into the movement
// phase): each ply's value before, the move's result, the mistakes, the
// first class change, the best moves (the engine's first) and the
// refutation (the next query's principal variation, cut at 40 plies).
TEST_F(ToolsEndToEnd, ReviewIsAWalkOfQuery) {
  const Rules rules(kStandard);
  std::mt19937 rng(53);
  int mistakes_seen = 0;
  for (const bool careful : {false, true}) {
    GameRecord game(rules);
    while (!game.over() && game.plies() < 30) {
      std::vector<Move> moves = legal_moves(rules, game.current());
      if (careful) moves = careful_moves(game.current(), moves);
      game.play(moves[rng() % moves.size()]);
    }
    std::vector<std::string> moves;
    for (const Move& m : game.moves()) moves.push_back(format_move(m));
    SCOPED_TRACE(game.move_list());
    const RunResult r =
        run_fano({"review", "--tb", table(), "--moves", game.move_list(), "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json review = parse_json(r.out);
    ASSERT_EQ(review["plies"].size(), moves.size());
    std::vector<json> queries;
    for (std::size_t i = 0; i <= moves.size(); ++i) {
      const RunResult q = query({"--json", "--moves", first_moves(moves, i)});
      ASSERT_EQ(q.exit_code, 0) << q.err;
      queries.push_back(parse_json(q.out));
    }
    json first_decisive = nullptr;
    int white = 0, black = 0;
    for (std::size_t i = 0; i < moves.size(); ++i) {
      const json& p = review["plies"][i];
      const json& q = queries[i];
      EXPECT_EQ(p["ply"], i + 1);
      EXPECT_EQ(p["move"], moves[i]);
      EXPECT_EQ(p["position"], q["position"]);
      EXPECT_EQ(p["mover"], q["to_move"]);
      EXPECT_EQ(p["before"], (json{{"result", q["value"]}, {"plies", q["plies"]}}));
      json row;
      for (const json& m : q["moves"])
        if (m["move"] == moves[i]) row = m;
      ASSERT_TRUE(row.is_object());
      EXPECT_EQ(p["after"], (json{{"result", row["result"]}, {"plies", row["plies"]}}));
      const bool mistake = p["before"] != p["after"];
      EXPECT_EQ(p["mistake"], mistake);
      const bool decisive =
          mistake && first_decisive.is_null() && p["before"]["result"] != p["after"]["result"];
      EXPECT_EQ(p["decisive"], decisive);
      if (decisive) first_decisive = i + 1;
      if (!mistake) {
        EXPECT_TRUE(p["best"].is_null() && p["refutation"].is_null() && p["text"].is_null());
        continue;
      }
      (q["to_move"] == "white" ? white : black) += 1;
      std::set<std::string> keeping, best;
      for (const json& m : q["moves"])
        if (m["result"] == q["value"] && m["plies"] == q["plies"]) keeping.insert(m["move"]);
      for (const json& m : p["best"]) best.insert(m.get<std::string>());
      EXPECT_EQ(best, keeping);
      EXPECT_EQ(p["best"][0], q["engine_move"]);
      json line = queries[i + 1]["pv"];
      if (line.size() > 40) line.erase(line.begin() + 40, line.end());
      EXPECT_EQ(p["refutation"], line);
    }
    EXPECT_EQ(review["first_decisive"], first_decisive);
    EXPECT_EQ(review["mistakes"], (json{{"white", white}, {"black", black}}));
    EXPECT_EQ(review["moves_played"], json(moves));
    EXPECT_EQ(review["end"]["over"], game.over());
    if (!game.over()) {
      EXPECT_EQ(review["end"]["value"], queries.back()["value"]);
      EXPECT_EQ(review["end"]["plies"], queries.back()["plies"]);
    } else {
      EXPECT_EQ(review["end"]["game_over"], queries.back()["game_over"]);
      EXPECT_EQ(review["end"]["text"], queries.back()["game_over"]["text"]);
    }
    mistakes_seen += white + black;
    // The text form lists each side's mistakes by their sentences.
    const RunResult text = run_fano({"review", "--tb", table(), "--moves", game.move_list()});
    ASSERT_EQ(text.exit_code, 0) << text.err;
    EXPECT_NE(text.out.find("White: " + std::string(white ? std::to_string(white) : "no") +
                            (white == 1 ? " mistake\n" : " mistakes\n")),
              std::string::npos)
        << text.out;
    EXPECT_NE(text.out.find("Black: " + std::string(black ? std::to_string(black) : "no") +
                            (black == 1 ? " mistake\n" : " mistakes\n")),
              std::string::npos)
        << text.out;
    for (const json& p : review["plies"])
      if (p["mistake"] == true) {
        EXPECT_NE(text.out.find("  " + p["text"].get<std::string>() + "\n"), std::string::npos)
            << text.out;
      }
    EXPECT_NE(text.out.find("end: " + review["end"]["text"].get<std::string>() + "\n"),
              std::string::npos)
        << text.out;
  }
  EXPECT_GT(mistakes_seen, 0);
}

// Bad input is refused as `fano query` refuses it: the same one-line message
// (after the command's name) and exit code, and nothing on stdout.
TEST_F(ToolsEndToEnd, ReviewRefusesBadInputAsQueryDoes) {
  const std::vector<std::vector<std::string>> cases = {
      {"--moves", "C4,Q9"},              // not a move
      {"--moves", "C4,c1,C4"},           // two identical pieces in a stack
      {"--moves", "C4,t3,T5,t1,C7,c2"},  // a move after C7 formed a line
      {"C/C/C/-/-/-/- b"},               // not a position
      {"C/T/c/C/t/-/c w"},               // legal, but no game reaches it (exit 3)
      {"C/T/c/C/t/-/c w", "--moves", "1-2"},
      {},  // neither a position nor moves
  };
  for (const std::vector<std::string>& args : cases) {
    SCOPED_TRACE(command_line(args));
    std::vector<std::string> r_args{"review", "--tb", table()};
    r_args.insert(r_args.end(), args.begin(), args.end());
    const RunResult r = run_fano(r_args), q = query(args);
    ASSERT_NE(q.exit_code, 0) << q.out;
    EXPECT_EQ(r.exit_code, q.exit_code);
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_EQ(r.err_lines(), 1) << r.err;
    ASSERT_EQ(r.err.rfind("fano review: ", 0), 0u) << r.err;
    std::string expected = q.err.substr(std::string("fano query: ").size());
    const std::string query_help = "'fano query --help'";
    if (const std::size_t at = expected.find(query_help); at != std::string::npos)
      expected.replace(at, query_help.size(), "'fano review --help'");
    EXPECT_EQ(r.err.substr(std::string("fano review: ").size()), expected);
  }
  const RunResult help = run_fano({"review", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("\nexamples:\n  fano review"), std::string::npos) << help.out;
}

}  // namespace
}  // namespace fano
