// `fano verify`: whole-table verification (a deliberately wrong entry is named),
// published depth counts, game records with claims, and the committed results
// table against a fresh computation of every variant.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <thread>

#include "fano/notation.hpp"
#include "fano/perft.hpp"
#include "fano/solver.hpp"
#include "fano/table_files.hpp"
#include "fano/tablebase.hpp"
#include "fano/verify.hpp"
#include "fano/verify_json.hpp"
#include "support.hpp"

namespace fano {
namespace {

namespace fs = std::filesystem;
using verify::Category;
using namespace fano::testing;
using nlohmann::json;

// The standard variant, solved once for the whole suite.
class Standard : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    solution_ = std::make_unique<Solution>(solve(kStandard));
    bytes_ = std::make_unique<std::vector<std::uint8_t>>(encode_tablebase(
        kStandard, tablebase_counts(*solution_), solution_->positions, solution_->outcomes));
  }
  static void TearDownTestSuite() {
    solution_.reset();
    bytes_.reset();
  }
  static Tablebase table() { return Tablebase::from_bytes(*bytes_, "standard"); }

  // The table with outcome i replaced, written to a file and opened again.
  static Tablebase corrupted(size_t i, Outcome wrong, const fs::path& file) {
    auto outcomes = solution_->outcomes;
    outcomes[i] = wrong;
    const auto bytes =
        encode_tablebase(kStandard, tablebase_counts(*solution_), solution_->positions, outcomes);
    write_file_atomically(file.string(), bytes);
    return open_tablebase(file.string());
  }

  // The first class past `from` without a standing line whose outcome has value v.
  static size_t find_class(Value v, size_t from) {
    const auto& s = *solution_;
    for (size_t i = from; i < s.positions.size(); ++i)
      if (s.outcomes[i].value == v && !formed_lines(State{s.positions[i]}) &&
          (v == Value::kDraw || s.outcomes[i].plies > 0))
        return i;
    ADD_FAILURE() << "no class of value " << value_name(v);
    return 0;
  }

  static std::unique_ptr<Solution> solution_;
  static std::unique_ptr<std::vector<std::uint8_t>> bytes_;
};
std::unique_ptr<Solution> Standard::solution_;
std::unique_ptr<std::vector<std::uint8_t>> Standard::bytes_;

TEST_F(Standard, CorrectTablePasses) {
  const Tablebase tb = table();
  const auto r = verify::verify_tablebase(tb);
  EXPECT_EQ(r.errors, 0u) << (r.first_error ? r.first_error->problem : "");
  EXPECT_FALSE(r.first_error.has_value());
  for (int c = 0; c < verify::kCategories; ++c) EXPECT_TRUE(r.ok(Category(c))) << c;
  EXPECT_TRUE(r.checksum_ok);
  EXPECT_EQ(r.classes, solution_->positions.size());
  EXPECT_EQ(r.recount.reachable, solution_->stats.reachable);
  EXPECT_EQ(r.recount.win, solution_->stats.win);
  ASSERT_TRUE(r.start.has_value());
  EXPECT_EQ(r.start->value, Value::kDraw);
  EXPECT_EQ(r.first_moves.size(), 14u);  // two shapes on seven spaces
  ASSERT_TRUE(r.longest_win.has_value());
  // The example of the longest win is stored with exactly that outcome.
  const auto probe = tb.probe(parse_position(r.longest_win_position, kStandard));
  ASSERT_TRUE(probe.has_value());
  EXPECT_EQ(*probe, *r.longest_win);
}

// One wrong entry of each kind is caught, and the first error names it (not
// one of its predecessors, which fail too).
TEST_F(Standard, WrongEntryIsNamed) {
  TempDir dir;
  struct Case {
    size_t index;
    Outcome wrong;
  };
  const size_t n = solution_->positions.size();
  std::vector<Case> cases;
  for (size_t from : {size_t(0), n / 3, 2 * n / 3}) {
    const size_t w = find_class(Value::kWin, from);
    cases.push_back({w, Outcome{Value::kLoss, solution_->outcomes[w].plies}});
    const size_t l = find_class(Value::kLoss, from);
    cases.push_back({l, Outcome{Value::kLoss, std::uint16_t(solution_->outcomes[l].plies + 2)}});
    const size_t d = find_class(Value::kDraw, from);
    cases.push_back({d, Outcome{Value::kWin, 3}});
  }
  for (const Case& c : cases) {
    const std::string pos = format_position(State{solution_->positions[c.index]});
    SCOPED_TRACE(pos + " stored as " + outcome_text(c.wrong));
    const Tablebase tb = corrupted(c.index, c.wrong, dir.path() / "wrong.fanotb");
    const auto r = verify::verify_tablebase(tb);
    EXPECT_GE(r.errors, 1u);
    EXPECT_FALSE(r.ok(Category::kValues));
    EXPECT_TRUE(r.ok(Category::kReachableSet));
    EXPECT_TRUE(r.ok(Category::kSuccessors));
    // The header counts the true values.
    EXPECT_EQ(r.ok(Category::kCounts), c.wrong.value == solution_->outcomes[c.index].value);
    ASSERT_TRUE(r.first_error.has_value());
    EXPECT_EQ(r.first_error->category, Category::kValues);
    ASSERT_TRUE(r.first_error->position.has_value());
    EXPECT_EQ(*r.first_error->position, pos);
    EXPECT_NE(r.first_error->problem.find("stored " + outcome_text(c.wrong)), std::string::npos)
        << r.first_error->problem;
  }
}

TEST_F(Standard, CommandNamesWrongEntryAndExitsFour) {
  TempDir dir;
  const size_t i = find_class(Value::kWin, solution_->positions.size() / 2);
  const std::string pos = format_position(State{solution_->positions[i]});
  corrupted(i, Outcome{Value::kDraw, 0}, dir.path() / "wrong.fanotb");
  const RunResult r = run_fano({"verify", "--json", "--tb", (dir / "wrong.fanotb").string()});
  EXPECT_EQ(r.exit_code, 4) << r.err;
  const json j = parse_json(r.out);
  EXPECT_EQ(j["values_ok"], false) << j;
  EXPECT_EQ(j["checksum_ok"], true) << j;
  ASSERT_TRUE(j["first_error"].is_object()) << j;
  EXPECT_EQ(j["first_error"]["position"], pos) << j;
  EXPECT_NE(r.err.find(pos), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;

  write_file_atomically((dir.path() / "good.fanotb").string(), *bytes_);
  const RunResult ok = run_fano({"verify", "--json", "--tb", (dir / "good.fanotb").string()});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  const json good = parse_json(ok.out);
  EXPECT_EQ(good["errors"], 0) << good;
  EXPECT_TRUE(good["first_error"].is_null()) << good;
}

TEST_F(Standard, MissingClassBreaksReachableSetAndSuccessors) {
  auto codes = solution_->positions;
  auto outcomes = solution_->outcomes;
  const size_t i = find_class(Value::kDraw, codes.size() / 2);
  const std::string pos = format_position(State{codes[i]});
  codes.erase(codes.begin() + std::ptrdiff_t(i));
  outcomes.erase(outcomes.begin() + std::ptrdiff_t(i));
  const auto bytes = encode_tablebase(kStandard, tablebase_counts(*solution_), codes, outcomes);
  const auto r = verify::verify_tablebase(Tablebase::from_bytes(bytes, "missing"));
  EXPECT_FALSE(r.ok(Category::kReachableSet));
  EXPECT_EQ(r.result(Category::kReachableSet).errors, 1u);
  EXPECT_FALSE(r.ok(Category::kSuccessors));
  ASSERT_TRUE(r.first_error.has_value());
  EXPECT_EQ(r.first_error->category, Category::kReachableSet);
  EXPECT_EQ(r.first_error->position.value_or(""), pos);
  EXPECT_NE(r.first_error->problem.find("not stored"), std::string::npos);
}

TEST_F(Standard, WrongHeaderCountIsCaught) {
  TablebaseCounts c = tablebase_counts(*solution_);
  c.draw += 1;
  const auto bytes = encode_tablebase(kStandard, c, solution_->positions, solution_->outcomes);
  const auto r = verify::verify_tablebase(Tablebase::from_bytes(bytes, "counts"));
  EXPECT_EQ(r.errors, 1u);
  EXPECT_TRUE(r.ok(Category::kValues));
  ASSERT_TRUE(r.first_error.has_value());
  EXPECT_EQ(r.first_error->category, Category::kCounts);
  EXPECT_NE(r.first_error->problem.find("draw"), std::string::npos);
}

// The table's bytes with a header count changed and the checksum computed
// again, as anyone changing a table on purpose can: the reader accepts it.
std::vector<std::uint8_t> with_count_changed(std::vector<std::uint8_t> bytes) {
  TablebaseHeader h;
  std::memcpy(&h, bytes.data(), sizeof h);
  h.draw += 2;
  h.win -= 2;
  std::memcpy(bytes.data(), &h, sizeof h);
  h.checksum = tablebase_checksum(bytes);
  std::memcpy(bytes.data(), &h, sizeof h);
  return bytes;
}

// The quick check (fano serve --verify-tables) passes the true table and
// catches what the checksum cannot: a value, a count or a class changed with
// the checksum computed again.
TEST_F(Standard, QuickCheckCatchesChangesWhoseChecksumWasComputedAgain) {
  verify::TablebaseOptions quick;
  quick.search_reachable = false;
  const auto good = verify::verify_tablebase(table(), quick);
  EXPECT_EQ(good.errors, 0u) << (good.first_error ? good.first_error->problem : "");
  EXPECT_EQ(good.result(Category::kReachableSet).summary,
            "not searched; the empty board is stored");
  EXPECT_EQ(good.recount.reachable, solution_->stats.reachable);

  // A value: the reader accepts the table and answers the changed value.
  TempDir dir;
  const size_t i = find_class(Value::kWin, solution_->positions.size() / 3);
  const State st{solution_->positions[i]};
  const Outcome wrong{Value::kDraw, 0};
  const Tablebase changed = corrupted(i, wrong, dir.path() / "changed.fanotb");
  EXPECT_EQ(changed.probe(st), wrong);
  const auto r = verify::verify_tablebase(changed, quick);
  ASSERT_TRUE(r.first_error.has_value());
  EXPECT_EQ(r.first_error->category, Category::kValues);
  EXPECT_EQ(r.first_error->position.value_or(""), format_position(st));
  EXPECT_NE(r.first_error->problem.find("stored draw"), std::string::npos)
      << r.first_error->problem;

  // A count in the header.
  const auto counts = with_count_changed(*bytes_);
  const auto c = verify::verify_tablebase(Tablebase::from_bytes(counts, "counts"), quick);
  ASSERT_TRUE(c.first_error.has_value());
  EXPECT_EQ(c.first_error->category, Category::kCounts);
  EXPECT_NE(c.first_error->problem.find("header says win"), std::string::npos)
      << c.first_error->problem;

  // A class left out: its predecessors' successors are missing.
  auto codes = solution_->positions;
  auto outcomes = solution_->outcomes;
  const size_t k = find_class(Value::kDraw, codes.size() / 2);
  codes.erase(codes.begin() + std::ptrdiff_t(k));
  outcomes.erase(outcomes.begin() + std::ptrdiff_t(k));
  const auto m = verify::verify_tablebase(
      Tablebase::from_bytes(
          encode_tablebase(kStandard, tablebase_counts(*solution_), codes, outcomes), "missing"),
      quick);
  EXPECT_TRUE(m.ok(Category::kReachableSet));
  EXPECT_FALSE(m.ok(Category::kSuccessors));
}

// `fano serve --verify-tables` refuses a table changed with its checksum
// computed again, naming it and the position, before it listens; with true
// tables it serves.
TEST_F(Standard, ServeWithVerifyTablesRefusesAChangedTable) {
  TempDir tables;
  const std::string path = default_tablebase_path(kStandard, tables.path().string());
  const size_t i = find_class(Value::kLoss, solution_->positions.size() / 2);
  const std::string pos = format_position(State{solution_->positions[i]});
  corrupted(i, Outcome{Value::kWin, 3}, path);
  const std::vector<std::string> args{"serve", "--port", "0", "--tables", tables.path().string(),
                                      "--web", "none"};
  std::vector<std::string> checked = args;
  checked.push_back("--verify-tables");
  const RunResult r = run_fano(checked);
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_EQ(r.out, "") << "nothing is served";
  EXPECT_NE(r.err.find("fano serve: table " + path + " fails its check (values: position " + pos +
                       ": stored win in 3, but"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("); not served\n"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;

  // A count changed: refused as well.
  write_file_atomically(path, with_count_changed(*bytes_));
  const RunResult counts = run_fano(checked);
  EXPECT_EQ(counts.exit_code, 4) << counts.err;
  EXPECT_NE(counts.err.find("(counts: header says win"), std::string::npos) << counts.err;

  // The true table: served (the URL printed), then stopped.
  write_file_atomically(path, *bytes_);
  TempDir dir;
  const pid_t pid = spawn_fano(checked, (dir / "out").string(), (dir / "err").string());
  std::string out;
  for (int i = 0; i < 600 && out.find('\n') == std::string::npos; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    out = read_text(dir / "out");
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) break;  // it exited: failed below
  }
  ::kill(pid, SIGTERM);
  const RunResult stopped = wait_fano(pid);
  EXPECT_EQ(out.rfind("http://127.0.0.1:", 0), 0u) << out << read_text(dir / "err");
  EXPECT_EQ(stopped.exit_code, 0) << read_text(dir / "err");
}

// ---------------------------------------------------------------------------
// Game records. White's first move C7 loses in 13 plies; this is best play after it.
constexpr const char* kLostGame = "C7,t7,T1,c3,T2,c6,C1,t3,2-5,6-4,5-2,4-2,1-4";

TEST_F(Standard, RecordsClaimsAndMistakes) {
  const Tablebase tb = table();
  const std::string text = std::string("# comment line\n\n") + kLostGame +
                           "  # claim: win 0\n"
                           "C7 t7 T1 c3 T2 c6 C1 t3 # claim: loss 5\n"
                           "C7 t7 T1 c3 T2 c6 C1 t3 # claim: win 5\n"
                           "Round4 Triangle3 T7 # claim: draw\n"
                           "C4 t3 T7 c4\n";
  const auto recs = verify::verify_lines(tb, text);
  ASSERT_EQ(recs.size(), 5u);

  EXPECT_EQ(recs[0].line, 3);
  EXPECT_TRUE(recs[0].legal);
  EXPECT_EQ(recs[0].ended_at, 13);
  EXPECT_NE(recs[0].game_over.find("{1,7,3}"), std::string::npos) << recs[0].game_over;
  EXPECT_EQ(recs[0].value, (Outcome{Value::kWin, 0}));
  ASSERT_TRUE(recs[0].first_mistake.has_value());
  EXPECT_EQ(recs[0].first_mistake->ply, 1);
  EXPECT_EQ(recs[0].first_mistake->move, "C7");
  EXPECT_EQ(recs[0].first_mistake->from, Value::kDraw);
  EXPECT_EQ(recs[0].first_mistake->to, Value::kLoss);
  EXPECT_EQ(recs[0].claim_holds, true);

  EXPECT_EQ(recs[1].ended_at, std::nullopt);
  EXPECT_EQ(recs[1].value, (Outcome{Value::kLoss, 5}));
  EXPECT_EQ(recs[1].claim_holds, true);
  EXPECT_EQ(recs[2].claim_holds, false);  // the true claim is loss 5

  EXPECT_EQ(recs[3].value, (Outcome{Value::kDraw, 0}));
  EXPECT_FALSE(recs[3].first_mistake.has_value());
  EXPECT_EQ(recs[3].claim_holds, true);

  // Black's c4 onto White's circle loses: the first mistake, at ply 4.
  EXPECT_FALSE(recs[4].claim.has_value());
  EXPECT_FALSE(recs[4].claim_holds.has_value());
  ASSERT_TRUE(recs[4].first_mistake.has_value());
  EXPECT_EQ(recs[4].first_mistake->ply, 4);
  EXPECT_EQ(recs[4].first_mistake->move, "c4");
}

TEST_F(Standard, IllegalMovesAreReportedWithTheirPly) {
  const Tablebase tb = table();
  const std::string text = std::string(kLostGame) + ",2-5\n" +
                           "C4 t3 C9\n"
                           "C4 t4 T4 # claim: draw\n"
                           "C4 t3 T7 c1 7-5\n";
  const auto recs = verify::verify_lines(tb, text);
  ASSERT_EQ(recs.size(), 4u);
  // A move after the game ended.
  EXPECT_FALSE(recs[0].legal);
  ASSERT_TRUE(recs[0].illegal.has_value());
  EXPECT_EQ(recs[0].illegal->ply, 14);
  EXPECT_EQ(recs[0].illegal->move, "2-5");
  EXPECT_NE(recs[0].illegal->reason.find("ended at ply 13"), std::string::npos);
  EXPECT_EQ(recs[0].ended_at, 13);
  // No such space.
  ASSERT_TRUE(recs[1].illegal.has_value());
  EXPECT_EQ(recs[1].illegal->ply, 3);
  EXPECT_NE(recs[1].illegal->reason.find("'9'"), std::string::npos) << recs[1].illegal->reason;
  // A stack already at the cap: the claim of an illegal record fails.
  ASSERT_TRUE(recs[2].illegal.has_value());
  EXPECT_EQ(recs[2].illegal->ply, 3);
  EXPECT_NE(recs[2].illegal->reason.find("stack cap"), std::string::npos)
      << recs[2].illegal->reason;
  EXPECT_EQ(recs[2].claim_holds, false);
  // A movement before all pieces are placed.
  ASSERT_TRUE(recs[3].illegal.has_value());
  EXPECT_EQ(recs[3].illegal->ply, 5);
  EXPECT_EQ(recs[3].illegal->move, "7-5");
  EXPECT_NE(recs[3].illegal->reason.find("movement phase"), std::string::npos)
      << recs[3].illegal->reason;
  EXPECT_EQ(recs[3].final_position, "c/-/t/C/-/-/T w");
}

TEST_F(Standard, MalformedClaimIsAnError) {
  const Tablebase tb = table();
  try {
    verify::verify_lines(tb, "C4\nC4 t3 # claim: victory\n");
    FAIL() << "no error";
  } catch (const verify::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("line 2"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'victory'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(verify::verify_lines(tb, "C4 # claim: draw 4\n"), verify::InputError);
}

// Binary data is refused at its first line holding a control character,
// where a record line of noise would otherwise be reported as
// an illegal game and the next one read, for ever.
TEST_F(Standard, RecordLineWithAControlCharacterIsAnInputError) {
  const Tablebase tb = table();
  try {
    verify::verify_lines(tb, std::string("C4\nC4 t3\nC4\x1b[2J") + '\0' + "\nC5\n");
    FAIL() << "no error";
  } catch (const verify::InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "line 3: a control character (byte 0x1b) at byte 3: not a line of text");
  }
  // Tabs, carriage returns and bytes that are not UTF-8 are text enough.
  EXPECT_EQ(verify::verify_lines(tb, "C4\tt3\r\nC4 # \xff\n").size(), 2u);
}

// The line-at-a-time checker gives the reports verify_lines gives, and nothing
// for a line without moves.
TEST_F(Standard, RecordCheckerReportsLineByLine) {
  const Tablebase tb = table();
  const std::string text = std::string(kLostGame) + " # claim: win 0\n# comment\nC4 t3\n";
  const auto all = verify::verify_lines(tb, text);
  const verify::RecordChecker checker(tb);
  const auto first = checker.check_line(std::string(kLostGame) + " # claim: win 0", 1);
  ASSERT_TRUE(first);
  EXPECT_FALSE(checker.check_line("# comment", 2));
  const auto third = checker.check_line("C4 t3", 3);
  ASSERT_TRUE(third);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(verify::record_json(*first, kStandard), verify::record_json(all[0], kStandard));
  EXPECT_EQ(verify::record_json(*third, kStandard), verify::record_json(all[1], kStandard));
}

// The report printed in pieces as records arrive has the bytes of the whole document.
TEST_F(Standard, RecordsJsonInPiecesIsTheWholeDocument) {
  const Tablebase tb = table();
  const auto recs =
      verify::verify_lines(tb, std::string(kLostGame) + "\nC4 t3 # claim: draw\nQ9\n");
  ASSERT_EQ(recs.size(), 3u);
  std::string pieces = verify::records_report_json_head(kStandard, "games.txt");
  for (std::size_t i = 0; i < recs.size(); ++i) {
    if (i) pieces += ',';
    pieces += json_text(verify::record_json(recs[i], kStandard));
  }
  pieces += verify::records_report_json_tail(3, 1, 0, 0.25);
  EXPECT_EQ(pieces, json_text(verify::records_report_json(recs, kStandard, "games.txt", 0.25)));
}

// ---------------------------------------------------------------------------
// Published depth counts

TEST(VerifyPerft, MatchingTable) {
  const auto t = verify::parse_perft_table(
      "# counts of distinct positions\n"
      "depth positions (exact, stop-at-end)\n"
      "1 14\n"
      "2 196   # all pairs\n"
      "\n"
      "3 1680\n"
      "4 12894\n");
  EXPECT_EQ(t.reading, PerftReading::kExact);
  EXPECT_FALSE(t.expand_ended);
  ASSERT_EQ(t.rows.size(), 4u);
  EXPECT_EQ(t.rows[2].line, 6);
  const auto checks = verify::check_perft(Rules(kStandard), t);
  for (const auto& c : checks) EXPECT_TRUE(c.match()) << c.depth;

  // Cumulative counts agree with core's perft() too.
  const auto rows = perft(Rules(kStandard), 5, false);
  const auto cum = verify::parse_perft_table("cumulative stop-at-end\n5 " +
                                             std::to_string(rows[4].cumulative) + "\n");
  EXPECT_TRUE(verify::check_perft(Rules(kStandard), cum)[0].match());
}

TEST(VerifyPerft, DepthZeroAndEveryReading) {
  // A depth-0 row is the empty board under every reading; the others follow the header.
  const auto rows = perft(Rules(kStandard), 4, true);
  for (const PerftReading r : {PerftReading::kExact, PerftReading::kCumulative,
                               PerftReading::kWithin, PerftReading::kPaths}) {
    const std::string text = std::string(perft_reading_name(r)) + " expand-ended\n0 1\n4 " +
                             std::to_string(perft_count(rows[3], r)) + "\n";
    const auto t = verify::parse_perft_table(text);
    EXPECT_EQ(t.reading, r);
    const auto checks = verify::check_perft(Rules(kStandard), t);
    ASSERT_EQ(checks.size(), 2u);
    EXPECT_TRUE(checks[0].match()) << text;
    EXPECT_EQ(checks[0].reading, PerftReading::kExact);
    EXPECT_TRUE(checks[1].match()) << text;
    EXPECT_EQ(checks[1].reading, r);
  }
  // Expanded, the readings differ at depth 4: 12936 exact, 14826 summed, 14827 within, 31752 paths.
  EXPECT_EQ(rows[3].positions, 12936u);
  EXPECT_EQ(rows[3].cumulative, 14826u);
  EXPECT_EQ(rows[3].within, 14827u);
  EXPECT_EQ(rows[3].paths, 31752u);
}

TEST(VerifyPerft, MismatchIsReportedPerDepth) {
  // The exact counts given as cumulative, and an expand-ended table checked as such.
  const auto t = verify::parse_perft_table("cumulative stop-at-end\n1 14\n2 196\n3 1890\n");
  const auto checks = verify::check_perft(Rules(kStandard), t);
  ASSERT_EQ(checks.size(), 3u);
  EXPECT_TRUE(checks[0].match());
  EXPECT_FALSE(checks[1].match());
  EXPECT_EQ(checks[1].published, 196u);
  EXPECT_EQ(checks[1].computed, 210u);
  EXPECT_TRUE(checks[2].match());

  // Expanding ended games gives more positions from depth 7 on.
  const auto stop = perft(Rules(kStandard), 7, false), expand = perft(Rules(kStandard), 7, true);
  ASSERT_NE(stop[6].positions, expand[6].positions);
  const auto e = verify::parse_perft_table("exact expand-ended\n7 " +
                                           std::to_string(stop[6].positions) + "\n");
  EXPECT_FALSE(verify::check_perft(Rules(kStandard), e)[0].match());
}

TEST(VerifyPerft, CommandExitCodes) {
  TempDir dir;
  write_text(dir.path() / "good.txt", "exact stop-at-end\n1 14\n2 196\n");
  write_text(dir.path() / "bad.txt", "exact stop-at-end\n1 14\n2 197\n");
  write_text(dir.path() / "malformed.txt", "exact stop-at-end\n1 14\n2 1g6\n");
  const RunResult good = run_fano({"verify", "--perft", (dir / "good.txt").string()});
  EXPECT_EQ(good.exit_code, 0) << good.err;
  EXPECT_NE(good.out.find("depth 2 (exact): 196 match"), std::string::npos) << good.out;
  const RunResult bad = run_fano({"verify", "--perft", (dir / "bad.txt").string()});
  EXPECT_EQ(bad.exit_code, 4);
  EXPECT_NE(bad.out.find("published 197, computed 196"), std::string::npos) << bad.out;
  const RunResult mal = run_fano({"verify", "--perft", (dir / "malformed.txt").string()});
  EXPECT_EQ(mal.exit_code, 2);
  EXPECT_NE(mal.err.find("line 3"), std::string::npos) << mal.err;
  EXPECT_NE(mal.err.find("'1g6'"), std::string::npos) << mal.err;
  EXPECT_EQ(std::count(mal.err.begin(), mal.err.end(), '\n'), 1) << mal.err;
}

TEST(VerifyPerft, MalformedTables) {
  struct Case {
    const char* text;
    const char* expect;  // in the message
  };
  const Case cases[] = {
      {"1 14\nexact stop-at-end\n", "line 1"},
      {"exact\n1 14\n", "'expand-ended' or 'stop-at-end'"},
      {"stop-at-end\n1 14\n", "'exact', 'cumulative', 'within' or 'paths'"},
      {"within paths stop-at-end\n1 14\n", "both 'within' and 'paths'"},
      {"exact cumulative stop-at-end\n1 14\n", "both"},
      {"exact stop-at-end\n1 x4\n", "line 2: count 'x4'"},
      {"exact stop-at-end\n0 1\n0 1\n", "line 3: depth '0' was already given on line 2"},
      {"exact stop-at-end\n65 1\n", "depth '65'"},
      {"exact stop-at-end\n1 14 15\n", "unexpected token '15'"},
      {"exact stop-at-end\n1\n", "no count"},
      {"exact stop-at-end\n1 14\n1 14\n", "line 3: depth '1' was already given on line 2"},
      {"exact stop-at-end\nexact stop-at-end\n", "second header"},
      {"depth count\nexact stop-at-end\n1 14\n", "line 1: token 'depth'"},
      {"exact stop-at-end\n1 99999999999999999999999\n", "count"},
      {"exact stop-at-end\n# nothing\n", "no 'depth count' rows"},
      {"", "no header line"},
  };
  for (const Case& c : cases) {
    try {
      verify::parse_perft_table(c.text);
      ADD_FAILURE() << "accepted: " << c.text;
    } catch (const verify::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(c.expect), std::string::npos)
          << "text: " << c.text << "\nmessage: " << e.what();
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
    }
  }
}

// A table read a line at a time is refused at its first bad line, before any
// later line is seen (an endless input of noise).
TEST(VerifyPerft, ParserRefusesTheFirstBadLineAsItArrives) {
  verify::PerftTableParser parser;
  parser.add_line("# published", 1);
  parser.add_line("exact stop-at-end", 2);
  parser.add_line("1 14", 3);
  try {
    parser.add_line(std::string("2 1\x00"
                                "96",
                                6),
                    4);
    FAIL() << "no error";
  } catch (const verify::InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "line 4: a control character (byte 0x00) at byte 4: not a line of text");
  }
  verify::PerftTableParser good;
  good.add_line("cumulative expand-ended", 1);
  good.add_line("1 14", 2);
  good.add_line("2 210", 3);
  EXPECT_EQ(good.finish().rows.size(), 2u);
  EXPECT_THROW(verify::PerftTableParser().finish(), verify::InputError);
}

// ---------------------------------------------------------------------------
// results/variants.md holds, for every variant, the row a fresh solve and
// verification gives (the sha256 column lives in a separate table, since the
// bytes depend on the zstd library).
TEST(VerifyResults, CommittedTableMatchesFreshComputation) {
  const fs::path path = fs::path(FANO_SOURCE_DIR) / "results" / "variants.md";
  const std::string committed = read_text(path);
  ASSERT_FALSE(committed.empty()) << "cannot read " << path;
  EXPECT_NE(committed.find(verify::markdown_table_header()), std::string::npos)
      << "the table header changed; run results/regenerate.sh";
  for (int cap : {2, 3})
    for (Adjacency adj : {Adjacency::kBoard, Adjacency::kProjective}) {
      const Variant v{cap, adj};
      SCOPED_TRACE(variant_slug(v));
      const Solution s = solve(v);
      const auto bytes = encode_tablebase(v, tablebase_counts(s), s.positions, s.outcomes);
      const auto r = verify::verify_tablebase(Tablebase::from_bytes(bytes, variant_slug(v)));
      EXPECT_EQ(r.errors, 0u);
      const std::string row = verify::markdown_row(r);
      EXPECT_NE(committed.find(row), std::string::npos)
          << "results/variants.md lacks the fresh row (run results/regenerate.sh):\n"
          << row;
    }
}

}  // namespace
}  // namespace fano
