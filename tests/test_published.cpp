// results/published-analyses.md: every number in it recomputed by running the
// tools (fano perft, facts, verify, export) on a table solved into a temporary
// folder, with independent cross-checks (a separately written serial BFS, the
// published page's own lines, the reachable count of the solve).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "fano/game.hpp"
#include "fano/rules.hpp"
#include "support.hpp"

namespace fano {
namespace {

using namespace fano::testing;
using nlohmann::json;

std::string source_file(const std::string& rel) {
  return read_text(fs::path(FANO_SOURCE_DIR) / rel);
}

const std::string& md() {
  static const std::string text = source_file("results/published-analyses.md");
  return text;
}

// The document without spaces and line breaks (for lines wrapped in the text).
const std::string& md_flat() {
  static const std::string text = [] {
    std::string s;
    for (char c : md())
      if (c != ' ' && c != '\n') s += c;
    return s;
  }();
  return text;
}

void expect_in_md(const std::string& fragment) {
  EXPECT_NE(md().find(fragment), std::string::npos)
      << "results/published-analyses.md lacks: " << fragment;
}

void expect_in_md_flat(std::string fragment) {
  fragment.erase(std::remove_if(fragment.begin(), fragment.end(),
                                [](char c) { return c == ' ' || c == '\n'; }),
                 fragment.end());
  EXPECT_NE(md_flat().find(fragment), std::string::npos)
      << "results/published-analyses.md lacks (spaces ignored): " << fragment;
}

json fano_json(const std::vector<std::string>& args, int expect_exit = 0) {
  const RunResult r = run_fano(args);
  EXPECT_EQ(r.exit_code, expect_exit) << command_line(args) << "\n" << r.err;
  return parse_json(r.out);
}

const std::vector<std::uint64_t> kAiAi = {1,       14,      210,     1890,    14826,   66906,
                                          267246,  624666,  1228206, 1831170, 1583377, 1831170,
                                          1554708, 1831436, 1563658, 1831387, 1563428};

// The table solved once for the suite.
class Published : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    const RunResult r = run_fano({"solve", "--out", table(), "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    solve_ = new json(parse_json(r.out));
  }
  static void TearDownTestSuite() {
    delete solve_;
    delete dir_;
  }
  static std::string table() { return (*dir_ / "standard.fanotb").string(); }
  static TempDir* dir_;
  static json* solve_;
};
TempDir* Published::dir_ = nullptr;
json* Published::solve_ = nullptr;

// A serial BFS written apart from core's perft: exact, within and paths per depth.
struct SerialRow {
  std::uint64_t exact, within, paths, ended;
};
std::vector<SerialRow> serial_perft(const Rules& rules, int depth, bool expand) {
  std::map<std::uint64_t, std::uint64_t> layer{{kEmptyBoard.code, 1}};
  std::set<std::uint64_t> seen{kEmptyBoard.code};
  std::vector<SerialRow> out;
  for (int d = 1; d <= depth; ++d) {
    std::map<std::uint64_t, std::uint64_t> next;
    for (const auto& [code, n] : layer) {
      const State st{code};
      if (!expand && formed_lines(st)) continue;
      for (const Move& m : legal_moves(rules, st)) next[apply_move(st, m).code] += n;
    }
    SerialRow row{next.size(), 0, 0, 0};
    for (const auto& [code, n] : next) {
      seen.insert(code);
      row.paths += n;
      row.ended += game_over(rules, State{code}) != GameOver::kNone;
    }
    row.within = seen.size();
    out.push_back(row);
    layer.swap(next);
  }
  return out;
}

TEST_F(Published, DepthTable) {
  const json expand =
      fano_json({"perft", "--depth", "16", "--expand-ended", "--dfs-visited", "--json"});
  const json stop = fano_json({"perft", "--depth", "16", "--json"});
  const json& e = expand["depths"];
  const json& s = stop["depths"];
  ASSERT_EQ(e.size(), 16u);
  ASSERT_EQ(s.size(), 16u);
  EXPECT_EQ(expand["root"]["positions"], 1);
  // The table of section 1, row by row.
  expect_in_md("| 0 | 1 | 1 (the empty board) | 1 | 1 (the empty board) | 1 |");
  for (int d = 1; d <= 16; ++d) {
    const json& x = e[d - 1];
    const json& y = s[d - 1];
    std::ostringstream row;
    row << "| " << d << " | " << kAiAi[d] << " | " << x["cumulative"].get<std::uint64_t>() << " | "
        << x["within"].get<std::uint64_t>() << " | " << y["cumulative"].get<std::uint64_t>()
        << " | " << y["paths"].get<std::uint64_t>() << " |";
    expect_in_md(row.str());
    // Rows 1..9 are the expanded sum; 10..16 are not.
    if (d <= 9)
      EXPECT_EQ(x["cumulative"], kAiAi[d]) << d;
    else
      EXPECT_NE(x["cumulative"], kAiAi[d]) << d;
    // Stop-at-end matches rows up to 3 only; paths at no depth beyond 1.
    EXPECT_EQ(y["cumulative"] == kAiAi[d], d <= 3) << d;
    if (d > 1) {
      EXPECT_NE(y["paths"], kAiAi[d]) << d;
      EXPECT_NE(x["paths"], kAiAi[d]) << d;
    }
  }
  // The within count stops growing at depth 9 (1831171) and never exceeds the reachable set.
  EXPECT_EQ(e[8]["within"], 1831171);
  EXPECT_EQ(e[15]["within"], 1831171);
  EXPECT_GT(kAiAi[13], e[15]["within"].get<std::uint64_t>() - 1);
  EXPECT_GT(kAiAi[15], e[15]["within"].get<std::uint64_t>() - 1);
  EXPECT_EQ(e[9]["positions"], 602964);
  EXPECT_EQ(e[15]["positions"], 602964);
  expect_in_md("grows by 602964 a depth");
  expect_in_md("14784, not 14826");
  EXPECT_EQ(s[3]["cumulative"], 14784);
  // Stop-at-end, the within count reaches every position of the table.
  EXPECT_EQ(s[15]["within"], (*solve_)["reachable"]);
  // The DFS hypothesis row.
  const json& dfs = expand["dfs_visited"];
  ASSERT_EQ(dfs.size(), 16u);
  std::ostringstream dfs_row;
  dfs_row << "| DFS with a visited set |";
  for (int d = 9; d <= 16; ++d) dfs_row << " " << dfs[d - 1].get<std::uint64_t>() << " |";
  expect_in_md(dfs_row.str());
  for (int d = 1; d <= 9; ++d) EXPECT_EQ(dfs[d - 1], kAiAi[d]) << d;
  EXPECT_EQ(dfs[10], kAiAi[11]);
  for (int d = 11; d <= 15; d += 2) EXPECT_EQ(dfs[d - 1], 1831170) << d;
  // A separately written BFS agrees to depth 10, both ways.
  for (const bool exp : {false, true}) {
    const auto serial = serial_perft(Rules(kStandard), 10, exp);
    const json& rows = exp ? e : s;
    for (int d = 1; d <= 10; ++d) {
      EXPECT_EQ(rows[d - 1]["positions"], serial[d - 1].exact) << d;
      EXPECT_EQ(rows[d - 1]["within"], serial[d - 1].within) << d;
      EXPECT_EQ(rows[d - 1]["paths"], serial[d - 1].paths) << d;
      EXPECT_EQ(rows[d - 1]["ended_positions"], serial[d - 1].ended) << d;
    }
  }
}

TEST_F(Published, DepthTableFile) {
  // results/aiai-depths.txt holds Ai Ai's rows; depths 0..9 match, 10..16 do not.
  const std::string text = source_file("results/aiai-depths.txt");
  for (int d = 0; d <= 16; ++d) {
    std::ostringstream row;
    row << '\n' << d << ' ' << kAiAi[d] << '\n';
    EXPECT_NE(text.find(row.str()), std::string::npos) << d;
  }
  const json j =
      fano_json({"verify", "--perft",
                 (fs::path(FANO_SOURCE_DIR) / "results/aiai-depths.txt").string(), "--json"},
                4);
  ASSERT_EQ(j["depths"].size(), 17u);
  EXPECT_EQ(j["counts"], "cumulative");
  for (const json& r : j["depths"]) {
    EXPECT_EQ(r["match"], r["depth"].get<int>() <= 9) << r;
    EXPECT_EQ(r["reading"], r["depth"] == 0 ? "exact" : "cumulative") << r;
  }
}

TEST_F(Published, FortyTwoAtDepthThree) {
  const json j = fano_json({"perft", "--depth", "3", "--json"});
  EXPECT_EQ(j["depths"][2]["ended_positions"], 42);
  EXPECT_EQ(j["depths"][2]["ended_paths"], 84);
  const json x = fano_json({"perft", "--depth", "3", "--expand-ended", "--json"});
  EXPECT_EQ(x["depths"][2]["ended_positions"], 42);
  // Depth-3 positions in the table: 1680, of which 936 won for Black, 42 in 0 plies,
  // none in 1..3 plies.
  const RunResult r = run_fano({"export", "--tb", table()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream in(r.out);
  std::string line;
  std::getline(in, line);
  ASSERT_EQ(line, "position,to_move,phase,pieces,value,plies,code");
  int positions = 0, wins = 0, in0 = 0, in1to3 = 0;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::stringstream ls(line);
    for (std::string c; std::getline(ls, c, ',');) f.push_back(c);
    if (f.size() < 5 || f[3] != "3") continue;
    ++positions;
    if (f[4] != "win") continue;
    ++wins;
    const int plies = std::stoi(f[5]);
    in0 += plies == 0;
    in1to3 += plies >= 1 && plies <= 3;
  }
  EXPECT_EQ(positions, 1680);
  EXPECT_EQ(wins, 936);
  EXPECT_EQ(in0, 42);
  EXPECT_EQ(in1to3, 0);
  expect_in_md("42 positions at depth 3 are ended");
  expect_in_md("reached by 84 move sequences");
  expect_in_md("of the 1680 depth-3 positions 936 are forced wins for Black");
}

TEST_F(Published, TwelveLines) {
  const std::string path = (fs::path(FANO_SOURCE_DIR) / "results/aiai-lines.txt").string();
  // The file holds the page's twelve lines, in its order, as published.
  const json j = fano_json({"verify", "--tb", table(), "--lines", path, "--json"});
  ASSERT_EQ(j["records"], 12);
  EXPECT_EQ(j["illegal"], 0);
  EXPECT_EQ(j["claims_failed"], 0);
  int wins2 = 0;
  for (size_t i = 0; i < 12; ++i) {
    const json& l = j["lines"][i];
    EXPECT_EQ(l["claim"], "holds") << l;
    EXPECT_TRUE(l["legal"].get<bool>());
    const json& m = l["first_mistake"];
    const auto outcome = [](const json& o) {
      return o["value"] == "draw"
                 ? std::string("draw")
                 : o["value"].get<std::string>() + " in " + std::to_string(o["plies"].get<int>());
    };
    const std::string value = l["value"] == "draw"
                                  ? std::string("draw")
                                  : "win in " + std::to_string(l["plies"].get<int>());
    wins2 += value == "win in 2";
    std::ostringstream row;
    row << "| " << i + 1 << " | `" << l["final_position"].get<std::string>() << "` | " << value
        << " | " << l["winning_moves"].get<int>() << " | " << m["ply"].get<int>() << " "
        << m["move"].get<std::string>() << ", " << outcome(m["before"]) << " -> "
        << outcome(m["after"]) << " |";
    expect_in_md(row.str());
  }
  EXPECT_EQ(wins2, 9);
  // A wrong claim of each kind fails (exit 4).
  std::string text = source_file("results/aiai-lines.txt");
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"winning-moves 3; first-change 3 draw loss 9",
            "winning-moves 2; first-change 3 draw loss 9"},
           {"winning-moves 3; first-change 3 draw loss 9",
            "winning-moves 3; first-change 3 draw loss 11"},
           {"winning-moves 3; first-change 3 draw loss 9", "winning-moves 3; first-change none"},
           {"winning-moves 3; first-change 3 draw loss 9",
            "winning-moves 3; first-change 4 draw loss 9"}}) {
    std::string bad = text;
    const size_t at = bad.find(from);
    ASSERT_NE(at, std::string::npos);
    bad.replace(at, from.size(), to);
    write_text(*dir_ / "bad.txt", bad);
    const RunResult r =
        run_fano({"verify", "--tb", table(), "--lines", (*dir_ / "bad.txt").string()});
    EXPECT_EQ(r.exit_code, 4) << to << "\n" << r.err;
  }
  // A malformed claim part is a one-line usage error.
  write_text(*dir_ / "malformed.txt", "C4 # claim: draw; first-change 2 draw\n");
  const RunResult r =
      run_fano({"verify", "--tb", table(), "--lines", (*dir_ / "malformed.txt").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("first-change"), std::string::npos) << r.err;
}

TEST_F(Published, ActionsShortestGamesMirroringsLongestWin) {
  const json f = fano_json({"facts", "--tb", table(), "--json"});
  EXPECT_EQ(f["reachable"], (*solve_)["reachable"]);
  const json& a = f["actions"];
  EXPECT_EQ(a["by_rules"], 44);
  EXPECT_EQ(a["occurring"], 44);
  EXPECT_EQ(a["never_occurring"].size(), 0u);
  // Placements 2 x 7, movements the directed edges of the printed board (2 x 15).
  Rules rules(kStandard);
  int directed = 0;
  for (int s = 0; s < kSpaces; ++s) directed += std::popcount(unsigned(rules.neighbours[s]));
  EXPECT_EQ(directed, 30);
  EXPECT_EQ(a["movements_by_rules"], directed);
  const std::vector<std::pair<std::string, std::vector<std::string>>> variants = {
      {"standard (cap 2, board)", {}},
      {"cap 2, projective", {"--adjacency", "projective"}},
      {"cap 3, board", {"--stack-cap", "3"}},
      {"cap 3, projective", {"--stack-cap", "3", "--adjacency", "projective"}}};
  for (const auto& [name, flags] : variants) {
    std::vector<std::string> args{"facts", "--no-table", "--json"};
    args.insert(args.end(), flags.begin(), flags.end());
    const json v = fano_json(args);
    const json& va = v["actions"];
    std::ostringstream row;
    row << "| " << name << " | " << va["by_rules"].get<int>() << " ("
        << va["placements_by_rules"].get<int>() << " + " << va["movements_by_rules"].get<int>()
        << ") | " << va["occurring"].get<int>() << " | " << va["coloured_occurring"].get<int>()
        << " |";
    expect_in_md(row.str());
  }
  // Shortest games.
  const json& p = f["shortest_placement_end"];
  EXPECT_EQ(p["plies"], 3);
  EXPECT_EQ(p["positions"], 42);
  const json& n = f["shortest_no_move"];
  EXPECT_EQ(n["plies"], 8);
  const auto joined = [](const json& moves) {
    std::string s;
    for (const json& m : moves) {
      if (!s.empty()) s += ',';
      s += m.get<std::string>();
    }
    return s;
  };
  expect_in_md("3 plies (42 ended positions, see");
  expect_in_md("e.g. " + joined(p["line"]) + " (three circles");
  expect_in_md("8 plies, every placement done\n  (" + std::to_string(n["positions"].get<int>()) +
               " such positions at depth 8), e.g. " + joined(n["line"]) + ":");
  // Both games really end so: replayed through GameRecord.
  const GameRecord short_line = GameRecord::from_moves(rules, kEmptyBoard, joined(p["line"]));
  ASSERT_TRUE(short_line.end().has_value());
  EXPECT_EQ(short_line.end()->reason, EndReason::kLine);
  const GameRecord no_move = GameRecord::from_moves(rules, kEmptyBoard, joined(n["line"]));
  ASSERT_TRUE(no_move.end().has_value());
  EXPECT_EQ(no_move.end()->reason, EndReason::kNoMove);
  // Mirrorings.
  const json& t = f["board_transforms"];
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[0]["name"], "reflection (X axis)");
  EXPECT_FALSE(t[0]["maps_spaces_to_spaces"].get<bool>());
  EXPECT_EQ(t[1]["name"], "reflection (Y axis)");
  EXPECT_TRUE(t[1]["symmetry"].get<bool>());
  EXPECT_EQ(t[1]["image_of_spaces_1_to_7"], json::parse("[4,2,5,1,3,6,7]"));
  EXPECT_EQ(t[2]["name"], "rotation (half turn)");
  EXPECT_FALSE(t[2]["maps_spaces_to_spaces"].get<bool>());
  expect_in_md(
      "| reflection (Y axis), left and right swapped | 4 2 5 1 3 6 7 | yes (in core's group) |");
  EXPECT_EQ(fano_json({"info", "--json"})["symmetries"], 6);
  expect_in_md("(`./build/tools/fano info`: order 6)");
  // The longest forced win: the table's, its way there and its line.
  const json& w = f["longest_win"];
  EXPECT_EQ(w["plies"], 58);
  EXPECT_EQ(w["line"].size(), 58u);
  EXPECT_EQ(w["value_after_reach"]["plies"], 58);
  expect_in_md("58 plies, from `" + w["position"].get<std::string>() + "`");
  expect_in_md_flat("by " + joined(w["reach"]) + "; its line");
  expect_in_md_flat(joined(w["line"]) + ".");
  const json q = fano_json({"query", "--tb", table(), "--json", w["position"].get<std::string>()});
  EXPECT_EQ(q["value"], "win");
  EXPECT_EQ(q["plies"], 58);
  // fano verify names the same longest win.
  const json v = fano_json({"verify", "--tb", table(), "--json"});
  EXPECT_EQ(v["longest_win"]["plies"], 58);
}

// Black restricted to covering White's last piece (any move when it cannot), by
// a search written here from the rules: no forced White win in fewer than 6
// plies, one in 6, and the published line is such a game.
bool cover_win_within(const Rules& rules, std::vector<State>& seen, State st, int last_to,
                      int depth) {
  if (std::find(seen.begin(), seen.end() - 1, st) != seen.end() - 1) return false;  // rule 3
  if (const auto end = game_end(rules, st)) return end->loser == Colour::kBlack;
  if (depth == 0) return false;
  const bool white = st.to_move() == Colour::kWhite;
  std::vector<Move> moves = legal_moves(rules, st);
  if (!white) {
    std::vector<Move> covering;
    for (const Move& m : moves)
      if (m.to == last_to) covering.push_back(m);
    if (!covering.empty()) moves = covering;
  }
  for (const Move& m : moves) {
    seen.push_back(apply_move(st, m));
    const bool won = cover_win_within(rules, seen, seen.back(), m.to, depth - 1);
    seen.pop_back();
    if (won == white) return white;
  }
  return !white;
}

TEST_F(Published, CoveringLosesInSixPlies) {
  const json f = fano_json({"facts", "--no-table", "--json"});
  const json& w = f["win_against_cover"];
  ASSERT_TRUE(w.is_object()) << f.dump();
  EXPECT_EQ(w["plies"], 6);
  const Rules rules(kStandard);
  for (int depth = 0; depth <= 6; ++depth) {
    std::vector<State> seen{kEmptyBoard};
    EXPECT_EQ(cover_win_within(rules, seen, kEmptyBoard, -1, depth), depth == 6) << depth;
  }
  std::string line;
  for (const json& m : w["line"]) {
    if (!line.empty()) line += ',';
    line += m.get<std::string>();
  }
  const GameRecord game = GameRecord::from_moves(rules, kEmptyBoard, line);
  ASSERT_TRUE(game.end().has_value());
  EXPECT_EQ(game.end()->loser, Colour::kBlack);
  EXPECT_EQ(game.plies(), 6u);
  for (std::size_t i = 1; i < game.plies(); i += 2)  // Black's moves cover White's
    EXPECT_EQ(game.moves()[i].to, game.moves()[i - 1].to) << i;
  expect_in_md("White forces a win in 6 plies, e.g. " + line + ":");
  expect_in_md("**Verdict**: refuted: covering loses by force, in 6 plies.");
}

// The designer's "looking one hand ahead": search:K refuted for K = 1..4 on
// each side, each table row the command's shortest line, replayed as a game
// that the follower loses with every move of hers allowed by search:K also
// given the line's history. (The rows for K = 5..8 come from the same command
// with --lookahead 8, minutes long: results/regenerate.sh territory.)
TEST_F(Published, LookingOneHandAheadIsNotEnough) {
  const json j = fano_json({"strategy", "--tb", table(), "--lookahead", "4", "--json"});
  ASSERT_EQ(j["results"].size(), 2u) << j.dump();
  const Rules rules(kStandard);
  std::map<int, std::vector<std::string>> cells;  // K -> White's cell, Black's cell
  for (const json& side : j["results"]) {
    EXPECT_EQ(side["target"], "draw");
    EXPECT_TRUE(side["needed"].is_null()) << side.dump();
    ASSERT_EQ(side["checks"].size(), 4u);
    const Colour follower = side["side"] == "white" ? Colour::kWhite : Colour::kBlack;
    for (std::size_t k = 0; k < 4; ++k) {
      const json& c = side["checks"][k];
      ASSERT_FALSE(c["holds"].get<bool>());
      const json& r = c["refutation"];
      EXPECT_TRUE(r["allowed_with_history"].get<bool>());
      std::string line;
      for (const json& m : r["moves"]) {
        if (!line.empty()) line += ',';
        line += m.get<std::string>();
      }
      const GameRecord game = GameRecord::from_moves(rules, kEmptyBoard, line);
      ASSERT_TRUE(game.end().has_value()) << line;
      EXPECT_EQ(game.end()->loser, follower) << line;
      EXPECT_EQ(game.plies(), r["plies"].get<std::size_t>());
      cells[int(k) + 1].push_back(std::to_string(game.plies()) + " plies: `" + line + "`");
    }
  }
  for (const auto& [k, c] : cells)
    expect_in_md("| search:" + std::to_string(k) + " | " + c[0] + " | " + c[1] + " |");
  expect_in_md("**Verdict**: refuted as a way never to lose");
}

}  // namespace
}  // namespace fano
