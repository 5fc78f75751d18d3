// The numbers published in results/README.md (its standard-game section, a
// fenced ```json block between the markers below) match a fresh solve.
#include <gtest/gtest.h>
#include <zstd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <string>

#include "fano/export.hpp"
#include "fano/notation.hpp"
#include "fano/perft.hpp"
#include "fano/rules.hpp"
#include "fano/solver.hpp"
#include "fano/strategy.hpp"
#include "fano/strategy_size.hpp"
#include "fano/tablebase.hpp"
#include "support.hpp"

namespace fano {
namespace {

constexpr const char* kBegin = "<!-- BEGIN standard-game";
constexpr const char* kEnd = "<!-- END standard-game";

std::string readme() {
  const std::string path = std::string(FANO_SOURCE_DIR) + "/results/README.md";
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The standard-game section, between its markers.
std::string section(const std::string& text) {
  const size_t b = text.find(kBegin), e = text.find(kEnd);
  if (b == std::string::npos || e == std::string::npos || e < b) {
    ADD_FAILURE() << "results/README.md lacks the standard-game markers";
    return "";
  }
  return text.substr(b, e - b);
}

// The first ```json block of the section.
std::string json_block(const std::string& sec) {
  const size_t b = sec.find("```json\n");
  if (b == std::string::npos) return "";
  const size_t e = sec.find("\n```", b + 8);
  return e == std::string::npos ? "" : sec.substr(b + 8, e - (b + 8));
}

// The section's JSON block, parsed (null, with a failure, when absent or bad).
nlohmann::json block(const std::string& sec) {
  const std::string text = json_block(sec);
  if (text.empty()) {
    ADD_FAILURE() << "no ```json block in the standard-game section";
    return nullptr;
  }
  return testing::parse_json(text);
}

struct Fresh {
  Solution sol;
  std::size_t tablebase_bytes = 0;
  std::map<std::string, std::string> first_moves;  // move -> result for White
};

const Fresh& fresh() {
  static const Fresh f = [] {
    Fresh f{solve(kStandard), 0, {}};
    f.tablebase_bytes = encode_solution(f.sol).size();
    const Rules rules(kStandard);
    for_each_move(rules, kEmptyBoard, [&](const Move& m, State child) {
      f.first_moves[format_move(m)] = outcome_text(outcome_for_mover(*f.sol.lookup(child)));
    });
    return f;
  }();
  return f;
}

// The block a fresh solve gives, shown with every failure so that it can be
// pasted into results/README.md.
std::string fresh_block() {
  const Fresh& f = fresh();
  const SolveStats& s = f.sol.stats;
  const Outcome start = *f.sol.lookup(kEmptyBoard);
  nlohmann::ordered_json j = {{"variant", "standard"}, {"stack_cap", 2}, {"adjacency", "board"}};
  j["start"] = {{"value", value_name(start.value)},
                {"plies", start.value == Value::kDraw ? nlohmann::ordered_json(nullptr)
                                                      : nlohmann::ordered_json(start.plies)}};
  for (const auto& [key, v] : {std::pair{"reachable", s.reachable},
                               {"placement", s.placement},
                               {"movement", s.movement},
                               {"canonical", s.canonical},
                               {"win", s.win},
                               {"loss", s.loss},
                               {"draw", s.draw},
                               {"tablebase_bytes", std::uint64_t(f.tablebase_bytes)}})
    j[key] = v;
  j["zstd"] = ZSTD_versionString();
  j["first_moves"] = f.first_moves;
  return "```json\n" + j.dump(2) + "\n```";
}

TEST(Results, BlockIsPresent) {
  const nlohmann::json j = block(section(readme()));
  EXPECT_EQ(j.value("variant", ""), "standard");
  EXPECT_EQ(j.value("stack_cap", 0), 2);
  EXPECT_EQ(j.value("adjacency", ""), "board");
}

TEST(Results, ValueOfTheStandardGame) {
  SCOPED_TRACE("a fresh solve gives:\n" + fresh_block());
  const nlohmann::json j = block(section(readme()));
  const Outcome start = *fresh().sol.lookup(kEmptyBoard);
  ASSERT_TRUE(j.contains("start")) << j;
  EXPECT_EQ(j["start"].value("value", ""), value_name(start.value));
  if (start.value == Value::kDraw)
    EXPECT_TRUE(j["start"]["plies"].is_null());
  else
    EXPECT_EQ(j["start"]["plies"], start.plies);
}

TEST(Results, Statistics) {
  SCOPED_TRACE("a fresh solve gives:\n" + fresh_block());
  const std::string sec = section(readme());
  const nlohmann::json j = block(sec);
  const SolveStats& s = fresh().sol.stats;
  const std::map<std::string, std::uint64_t> expected = {{"reachable", s.reachable},
                                                         {"placement", s.placement},
                                                         {"movement", s.movement},
                                                         {"canonical", s.canonical},
                                                         {"win", s.win},
                                                         {"loss", s.loss},
                                                         {"draw", s.draw}};
  // The prose outside the block must quote the same numbers.
  const std::string prose = sec.substr(0, sec.find("```json"));
  for (const auto& [key, value] : expected) {
    ASSERT_TRUE(j.contains(key) && j[key].is_number_unsigned()) << key << " missing in " << j;
    EXPECT_EQ(j[key].get<std::uint64_t>(), value) << key;
    EXPECT_NE(prose.find(std::to_string(value)), std::string::npos)
        << key << " = " << value << " does not appear in the text of the section";
  }
}

TEST(Results, FirstMoves) {
  SCOPED_TRACE("a fresh solve gives:\n" + fresh_block());
  const nlohmann::json j = block(section(readme()));
  ASSERT_TRUE(j.contains("first_moves") && j["first_moves"].is_object()) << "no first_moves object";
  const auto published = j["first_moves"].get<std::map<std::string, std::string>>();
  EXPECT_EQ(published, fresh().first_moves);
}

// The compressed size depends on the zstd library: it is compared exactly only
// with the zstd version the number was produced with.
TEST(Results, TablebaseSize) {
  SCOPED_TRACE("a fresh solve gives:\n" + fresh_block());
  const std::string sec = section(readme());
  const nlohmann::json j = block(sec);
  const std::string zstd = j.value("zstd", "");
  if (zstd != ZSTD_versionString())
    GTEST_SKIP() << "results were produced with zstd " << zstd << ", this build links "
                 << ZSTD_versionString();
  EXPECT_EQ(j.value("tablebase_bytes", std::uint64_t(0)), fresh().tablebase_bytes);
  const std::string prose = sec.substr(0, sec.find("```json"));
  EXPECT_NE(prose.find(std::to_string(fresh().tablebase_bytes)), std::string::npos);
}

// The prose relates the placement count to the depth counts; its numbers are
// those of `fano perft --depth 8` (stop-at-end).
TEST(Results, PlacementAndPerftNumbersInTheText) {
  const std::string sec = section(readme());
  const auto rows = perft(Rules(kStandard), 8, false);
  ASSERT_EQ(rows.size(), 8u);
  EXPECT_EQ(fresh().sol.stats.placement, rows[6].cumulative + 1);
  for (const std::uint64_t n : {rows[6].cumulative, rows[7].cumulative, rows[7].positions})
    EXPECT_NE(sec.find(std::to_string(n)), std::string::npos) << n << " is not in the text";
}

}  // namespace
}  // namespace fano

namespace fano {
namespace {

namespace fs = std::filesystem;
using fano::testing::read_text;

// The cells of the row of results/variants.md's rule-combination table whose
// first cell is `name` (without the surrounding '|'), or empty.
std::vector<std::string> combination_row(const std::string& text, const std::string& name) {
  const std::string start = "| " + name + " |";
  // Within the rule-combination section when there is one: the tablebases'
  // table above it also has rows named after the named variants.
  const std::size_t section = text.find("## Every rule combination");
  const std::size_t at = text.find("\n" + start, section == std::string::npos ? 0 : section);
  if (at == std::string::npos) return {};
  const std::string line = text.substr(at + 1, text.find('\n', at + 1) - at - 1);
  std::vector<std::string> cells;
  std::size_t from = 1;
  for (std::size_t bar; (bar = line.find(" |", from)) != std::string::npos; from = bar + 2)
    cells.push_back(line.substr(from + 1, bar - from - 1));
  return cells;
}

// A sample of results/variants.md's rule-combination rows, recomputed: the
// counts by the solver in process, and the whole row (but the time and
// memory columns) by bench/variants.py, which wrote them: the lookahead
// needed, the decision shares and the self-play columns included.
TEST(Results, RuleCombinationRowsRecompute) {
  const std::string text = read_text(fs::path(FANO_SOURCE_DIR) / "results" / "variants.md");
  const std::vector<std::string> sample{"standard", "standard-colour-1c2t", "cap2-projective-3c3t",
                                        "standard-1c3t", "cap3-board-1c1t"};
  std::string names;
  for (const std::string& name : sample) {
    SCOPED_TRACE(name);
    const std::vector<std::string> cells = combination_row(text, name);
    ASSERT_EQ(cells.size(), 16u) << "no row for " << name << " in results/variants.md";
    const Solution s = solve(*variant_from_name(name));
    EXPECT_EQ(cells[3], std::to_string(s.stats.reachable));
    EXPECT_EQ(cells[4], std::to_string(s.stats.canonical));
    EXPECT_EQ(cells[5], std::to_string(s.stats.win) + " / " + std::to_string(s.stats.loss) + " / " +
                            std::to_string(s.stats.draw));
    names += (names.empty() ? "" : ",") + name;
  }
  const std::string cmd = "python3 '" + std::string(FANO_SOURCE_DIR) +
                          "/bench/variants.py' --rows-only --threads 1 --fano '" + FANO_BIN +
                          "' --only " + names;
  FILE* pipe = ::popen(cmd.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string out;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
  ASSERT_EQ(::pclose(pipe), 0) << cmd;
  for (const std::string& name : sample) {
    std::vector<std::string> fresh = combination_row("\n" + out, name);
    std::vector<std::string> committed = combination_row(text, name);
    ASSERT_EQ(fresh.size(), 16u) << out;
    fresh.resize(14), committed.resize(14);  // without solve time and peak memory
    EXPECT_EQ(fresh, committed) << name;
  }
}

// results/variants.md's closing summary for designers follows from its table:
// which readings are decided from the start, how many are drawn, the most
// drawish, and how many a lookahead of at most 4 plies holds, recomputed here
// from the rows (in the table's order, as the summary breaks ties).
TEST(Results, DesignersSummaryFollowsTheTable) {
  const std::string text = read_text(fs::path(FANO_SOURCE_DIR) / "results" / "variants.md");
  const std::size_t at = text.find("## Which reading makes which game");
  ASSERT_NE(at, std::string::npos) << "results/variants.md has no designers' summary";
  const std::string summary = text.substr(at);
  std::vector<std::vector<std::string>> rows;
  for (const Variant& v : every_rules()) rows.push_back(combination_row(text, variant_slug(v)));
  // the table's order: by where each row stands in the file
  std::sort(rows.begin(), rows.end(), [&](const auto& a, const auto& b) {
    return text.find("\n| " + a[0] + " |", text.find("## Every rule combination")) <
           text.find("\n| " + b[0] + " |", text.find("## Every rule combination"));
  });
  std::string decided;
  int drawn = 0, shallow = 0;
  for (const auto& r : rows) {
    ASSERT_EQ(r.size(), 16u);
    if (r[1] == "draw") {
      ++drawn;
    } else {
      decided += (decided.empty() ? "" : "; ") + r[0] + " (White: " + r[1] + ")";
    }
    // lookahead cells "K / K": every side a number or '-', at least one number
    const std::string& look = r[8];
    const std::string w = look.substr(0, look.find(" / ")), b = look.substr(look.find(" / ") + 3);
    const auto digits = [](const std::string& c) {
      return !c.empty() && std::all_of(c.begin(), c.end(), ::isdigit);
    };
    if ((digits(w) || w == "-") && (digits(b) || b == "-") && (digits(w) || digits(b))) ++shallow;
  }
  const int n = int(rows.size());
  EXPECT_NE(summary.find("**Decided from the start** (" + std::to_string(n - drawn) + " of " +
                         std::to_string(n) + "): " + decided + "."),
            std::string::npos)
      << summary;
  EXPECT_NE(summary.find("**Drawn from the start** (" + std::to_string(drawn) + " of " +
                         std::to_string(n) + ")"),
            std::string::npos);
  EXPECT_NE(
      summary.find("in " + std::to_string(shallow) + " of " + std::to_string(n) + " readings"),
      std::string::npos);
  // the most drawish: the five smallest decisive shares, stable in the table's order
  std::vector<std::vector<std::string>> by_share = rows;
  std::stable_sort(by_share.begin(), by_share.end(),
                   [](const auto& a, const auto& b) { return std::stod(a[7]) < std::stod(b[7]); });
  std::string drawish;
  for (int i = 0; i < 5; ++i)
    drawish += (i ? "; " : "") + by_share[i][0] + " (" + by_share[i][7] + ")";
  EXPECT_NE(summary.find("**The most drawish** (the same share, smallest first): " + drawish + "."),
            std::string::npos)
      << summary;
}

// Every reading of every_rules() has its row, and the timing columns (the
// only ones the recompute above leaves out) are numbers measured on a named
// machine on a date stated in the text, at most a year before this test runs.
TEST(Results, EveryReadingHasARowWithDatedTimings) {
  const std::string text = read_text(fs::path(FANO_SOURCE_DIR) / "results" / "variants.md");
  for (const Variant& v : every_rules()) {
    const std::string name = variant_slug(v);
    const std::vector<std::string> cells = combination_row(text, name);
    ASSERT_EQ(cells.size(), 16u) << "no row for " << name << " in results/variants.md";
    for (const std::size_t i : {std::size_t(14), std::size_t(15)}) {
      char* end = nullptr;
      std::strtod(cells[i].c_str(), &end);
      EXPECT_TRUE(!cells[i].empty() && *end == '\0') << name << ": '" << cells[i] << "'";
    }
  }
  std::smatch m;
  const std::regex measured(R"(measured\s+(\d{4})-(\d{2})-(\d{2})\s+on\s+([^(]+)\()");
  ASSERT_TRUE(std::regex_search(text, m, measured)) << "no 'measured YYYY-MM-DD on MACHINE ('";
  EXPECT_GT(m[4].length(), 3) << "no machine named";
  using namespace std::chrono;
  const sys_days when = year_month_day(year(std::stoi(m[1])), month(unsigned(std::stoi(m[2]))),
                                       day(unsigned(std::stoi(m[3]))));
  const sys_days today = floor<days>(system_clock::now());
  EXPECT_LE(when, today) << "the timings are dated in the future";
  EXPECT_LE((today - when).count(), 366) << "the timings are more than a year old: regenerate";
}

// results/report/data.json, the numbers behind the report's figures (written
// by bench/report.py from the fano tool's JSON), recomputed in process: the
// positions by phase and value and their remoteness (every reachable
// position of a fresh solve), the lookahead curve (lookahead_needed), the
// traps (find_traps), the openings with a single drawing move
// (single_draw_openings) and the readings' points (the rows of
// results/variants.md).
TEST(Results, ReportFiguresRecompute) {
  const fs::path root(FANO_SOURCE_DIR);
  const nlohmann::json d =
      testing::parse_json(read_text(root / "results" / "report" / "data.json"));
  const Tablebase tb = in_memory_tablebase(fresh().sol, "standard");
  std::map<std::string, std::map<std::string, std::uint64_t>> values;
  std::map<std::string, std::uint64_t> remote;
  for_each_reachable(tb, [&](std::span<const ExportRow> rows) {
    for (const ExportRow& r : rows) {
      const std::string key =
          r.placement ? std::to_string(r.position.pieces_on_board()) : "movement";
      ++values[key][std::string(value_name(r.outcome.value))];
      if (r.outcome.value != Value::kDraw) ++remote[std::to_string(r.outcome.plies)];
    }
  });
  for (auto& [key, counts] : values)  // the page's data names every value, zero or not
    for (const char* v : {"win", "loss", "draw"}) counts[v] += 0;
  EXPECT_EQ(d["values"].get<decltype(values)>(), values);
  EXPECT_EQ(d["remoteness"].get<decltype(remote)>(), remote);
  for (const Colour side : {Colour::kWhite, Colour::kBlack}) {
    const LookaheadResult r = lookahead_needed(tb, kEmptyBoard, side, 4);
    std::map<std::string, std::size_t> plies;
    for (std::size_t k = 0; k < r.checks.size(); ++k)
      if (r.checks[k].refutation)
        plies[std::to_string(k + 1)] = r.checks[k].refutation->moves.size();
    EXPECT_EQ((d["lookahead"][colour_name(side)].get<std::map<std::string, std::size_t>>()), plies);
  }
  for (const int depth : {1, 2}) {
    const nlohmann::json& t = d["traps"][std::to_string(depth)];
    const TrapReport r = find_traps(tb, depth, t["ranked"].size());
    EXPECT_EQ(t["traps"], r.traps);
    EXPECT_EQ(t["to_keep"], r.to_keep);
    ASSERT_EQ(t["ranked"].size(), r.ranked.size());
    for (std::size_t i = 0; i < r.ranked.size(); ++i) {
      EXPECT_EQ(t["ranked"][i]["position"], format_position(r.ranked[i].position));
      EXPECT_EQ(t["ranked"][i]["move"], format_move(r.ranked[i].move));
      EXPECT_EQ(t["ranked"][i]["loses_in"], r.ranked[i].result.plies);
    }
  }
  const nlohmann::json& sd = d["single_draw"];
  const SingleDrawReport single = single_draw_openings(tb, sd["plies"].get<int>());
  EXPECT_EQ(sd["drawn_by_ply"], single.drawn_by_ply);
  EXPECT_EQ(sd["single_by_ply"], single.single_by_ply);
  EXPECT_EQ(sd["single_classes_by_ply"], single.single_classes_by_ply);
  ASSERT_LE(sd["shallowest"].size(), single.openings.size());
  for (std::size_t i = 0; i < sd["shallowest"].size(); ++i) {
    std::vector<std::string> line;
    for (const Move& m : single.openings[i].line) line.push_back(format_move(m));
    EXPECT_EQ(sd["shallowest"][i]["line"], line);
    EXPECT_EQ(sd["shallowest"][i]["position"], format_position(single.openings[i].position));
    EXPECT_EQ(sd["shallowest"][i]["move"], format_move(single.openings[i].move));
  }
  const std::string table = read_text(root / "results" / "variants.md");
  ASSERT_EQ(d["variants"].size(), every_rules().size());
  for (const nlohmann::json& v : d["variants"]) {
    const std::vector<std::string> cells = combination_row(table, v["name"]);
    ASSERT_EQ(cells.size(), 16u) << v;
    EXPECT_EQ(std::stod(cells[7]), v["decisive"].get<double>()) << v;
    EXPECT_EQ(std::stod(cells[12]), v["plies_fallible"].get<double>()) << v;
    EXPECT_EQ(cells[1].substr(0, cells[1].find(' ')), v["start"]) << v;
  }
}

// The standard output of a shell command, and whether it exited with 0.
std::pair<std::string, bool> command_output(const std::string& cmd) {
  FILE* pipe = ::popen(cmd.c_str(), "r");
  if (!pipe) return {"", false};
  std::string out;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
  return {out, ::pclose(pipe) == 0};
}

// results/strategy-size.md and the JSON it is laid out from: the commands
// bench/strategy_size.py ran (their options are in the JSON) run again on a
// fresh table print the same JSON (every number: the strategies' sizes, the
// rule lists' exceptions, the checker's verdict on the written strategy, the
// single-draw openings), and the file is what the script lays out from it.
TEST(Results, StrategySizeRecomputes) {
  const fs::path root(FANO_SOURCE_DIR);
  const nlohmann::json d = testing::parse_json(read_text(root / "results" / "strategy-size.json"));
  testing::TempDir dir;
  const std::string table = (dir / "standard.fanotb").string();
  const std::string fano = std::string("'") + FANO_BIN + "'";
  ASSERT_TRUE(command_output(fano + " solve --out '" + table + "' >/dev/null").second);
  const nlohmann::json& o = d["options"];
  ASSERT_EQ(d["size"].size(), 2u);
  for (const nlohmann::json& saved : d["size"]) {
    const std::string side = saved["follower"];
    SCOPED_TRACE(side);
    const std::string file = (dir / (side + ".jsonl")).string();
    std::string cmd = fano + " strategy --tb '" + table + "' --size --side " + side + " --passes " +
                      std::to_string(o["passes"].get<int>()) + " --restarts " +
                      std::to_string(o["restarts"].get<int>());
    for (const nlohmann::json& list : o["rule_lists"])
      cmd += " --rule-list " + list.get<std::string>();
    const auto [out, ok] = command_output(cmd + " --allowed-out '" + file + "' --json");
    ASSERT_TRUE(ok) << cmd;
    nlohmann::json expected = saved;
    expected.erase("checker");
    expected.erase("file_lines");
    EXPECT_EQ(testing::parse_json(out)["results"][0], expected);
    const auto [checked, fine] =
        command_output(fano + " strategy --tb '" + table + "' --allowed '" + file + "' --side " +
                       side + " --json");
    ASSERT_TRUE(fine);
    nlohmann::json checker = saved["checker"];
    checker["rule"] = "";  // names the file, in a folder of the script's
    nlohmann::json fresh = testing::parse_json(checked)["results"][0];
    fresh["rule"] = "";
    EXPECT_EQ(fresh, checker);
    EXPECT_TRUE(fresh["holds"].get<bool>());
    EXPECT_EQ(fresh["follower_positions"], saved["smallest"]["decisions"]);
    std::size_t lines = 0;
    for (const char c : read_text(file)) lines += c == '\n';
    EXPECT_EQ(lines, saved["file_lines"].get<std::size_t>());
  }
  const auto [single, ok] =
      command_output(fano + " strategy --tb '" + table + "' --single-draw " +
                     std::to_string(o["single_draw_plies"].get<int>()) + " --limit " +
                     std::to_string(o["single_draw_shown"].get<int>()) + " --json");
  ASSERT_TRUE(ok);
  EXPECT_EQ(testing::parse_json(single)["single_draw"], d["single_draw"]);
  const auto [page, rendered] =
      command_output("python3 '" + (root / "bench" / "strategy_size.py").string() + "' --render '" +
                     (root / "results" / "strategy-size.json").string() + "'");
  ASSERT_TRUE(rendered);
  EXPECT_EQ(page, read_text(root / "results" / "strategy-size.md"))
      << "results/strategy-size.md is not what bench/strategy_size.py lays out from its JSON";
}

}  // namespace
}  // namespace fano
