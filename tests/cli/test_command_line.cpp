// The command line as people use it: operands
// after "--", positions split into words by the shell, --version, `fano help
// CMD`, help text wrapped at the terminal width with examples, the text board
// (circle, median, cap 3, top piece, supply) and the wording of values and times.
#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "fano/errors.hpp"
#include "fano/json.hpp"
#include "fano/notation.hpp"
#include "fano/render.hpp"
#include "fano/rules.hpp"
#include "fano/rules_options.hpp"
#include "support.hpp"

namespace fano {
namespace {

using namespace fano::testing;

constexpr Variant kCap3{3, Adjacency::kBoard};

const std::vector<std::string> kCommands{"info", "perft", "solve",  "query",  "play",
                                         "show", "serve", "export", "verify", "bench"};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// `fano <args>` with COLUMNS set (or unset when columns is empty), stdout only.
RunResult run_with_columns(const std::string& columns, const std::string& args) {
  const std::string env = columns.empty() ? "env -u COLUMNS " : "env COLUMNS=" + columns + " ";
  RunResult r;
  const auto status = run_shell(env + shell_quote(FANO_BIN) + " " + args + " 2>/dev/null", r.out);
  r.exit_code = status && WIFEXITED(*status) ? WEXITSTATUS(*status) : -1;
  return r;
}

// --- Operands after "--" ------------------------------------------------------

// A position that starts with '-' goes to the parser as --position=...: a
// stray word after it is named, not reported as a second --position the
// user never typed; two --position options are still that.
TEST(CommandLine, AStrayWordAfterAPositionIsNamed) {
  const RunResult stray = run_fano({"query", "-/-/-/-/-/-/- w", "extra"});
  EXPECT_EQ(stray.exit_code, 2) << stray.err;
  EXPECT_EQ(stray.err_lines(), 1) << stray.err;
  EXPECT_NE(stray.err.find("unexpected argument 'extra'"), std::string::npos) << stray.err;
  EXPECT_EQ(stray.err.find("--position"), std::string::npos) << stray.err;
  const RunResult twice = run_fano({"query", "-p", "-/-/-/-/-/-/- w", "-p", "C/-/-/-/-/-/- b"});
  EXPECT_EQ(twice.exit_code, 2) << twice.err;
  EXPECT_NE(twice.err.find("'--position' cannot be specified more than once"), std::string::npos)
      << twice.err;
}

TEST(CommandLine, DoubleDashOperandsAreUsageErrorsNamingTheWord) {
  const RunResult two = run_fano({"query", "--", "a", "b"});
  EXPECT_EQ(two.exit_code, 2) << two.err;
  EXPECT_EQ(two.err_lines(), 1) << two.err;
  EXPECT_NE(two.err.find("unexpected argument 'b'"), std::string::npos) << two.err;
  // A command without operands names the first word.
  const RunResult info = run_fano({"info", "--", "x"});
  EXPECT_EQ(info.exit_code, 2);
  EXPECT_NE(info.err.find("unexpected argument 'x'"), std::string::npos) << info.err;
  // One operand after "--" is the position, even one that starts with '-'.
  const RunResult one = run_fano({"show", "--", "-/-/-/C/-/-/- b"});
  EXPECT_EQ(one.exit_code, 0) << one.err;
  EXPECT_EQ(one.out.rfind("-/-/-/C/-/-/- b\n", 0), 0u) << one.out;
  // "--" as an option's value is a value, not the end of the options.
  const RunResult value = run_fano({"show", "--moves", "--", "x"});
  EXPECT_EQ(value.exit_code, 2);
  EXPECT_EQ(value.err_lines(), 1) << value.err;
}

// --- A position split into words, '_' for its space -----------------------------

// Every rules option of the description is a flag of the rules-dependent
// commands, its help lists every value, each value reaches the rules (as the
// JSON of `fano info` shows), and a bad word is one line naming the values.
TEST(CommandLine, EveryRulesOptionIsAFlagWithItsValues) {
  const RunResult help = run_fano({"info", "--help"});
  ASSERT_EQ(help.exit_code, 0) << help.err;
  for (const RulesOption& option : rules_options()) {
    const std::string flag = "--" + std::string(option.flag);
    EXPECT_NE(help.out.find(flag), std::string::npos) << flag;
    for (const RulesOptionValue& value : option.values) {
      EXPECT_NE(help.out.find(std::string(value.text)), std::string::npos) << flag;
      const RunResult r = run_fano({"info", flag, std::string(value.text), "--json"});
      ASSERT_EQ(r.exit_code, 0) << flag << " " << value.text << ": " << r.err;
      Variant expected;
      option.set(expected, value.code);
      const nlohmann::json j = parse_json(r.out);
      const nlohmann::json fields = variant_json(expected);
      for (const auto& [key, field] : fields.items())
        EXPECT_EQ(j[key], field) << flag << " " << value.text << " " << key;
    }
    const RunResult bad = run_fano({"info", flag, "zz"});
    EXPECT_EQ(bad.exit_code, 2) << flag;
    EXPECT_EQ(bad.err, "fano info: " + flag + " " + option.values_error("zz") + "\n");
  }
  // `fano rules --json` is the description and every reading.
  const RunResult rules = run_fano({"rules", "--json"});
  ASSERT_EQ(rules.exit_code, 0) << rules.err;
  EXPECT_EQ(parse_json(rules.out), rules_catalog_json());
  const RunResult text = run_fano({"rules"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  for (const Variant& v : every_rules())
    EXPECT_NE(text.out.find(variant_short_name(v)), std::string::npos) << variant_slug(v);
}

// --threads is one option wherever it is taken: the same range check and
// message, 0 meaning the cores (serve's workers too).
TEST(CommandLine, ThreadsIsOneOptionWithOneRangeCheck) {
  for (const std::string command : {"solve", "verify", "selfplay", "serve"}) {
    std::vector<std::string> args{command, "--threads", "1025"};
    if (command == "selfplay") args.insert(args.end(), {"--white", "random", "--black", "random"});
    const RunResult r = run_fano(args);
    EXPECT_EQ(r.exit_code, 2) << command << ": " << r.err;
    EXPECT_EQ(r.err, "fano " + command + ": --threads must be 0..1024, got " + args[2] + "\n");
    const RunResult help = run_fano({command, "--help"});
    EXPECT_NE(help.out.find("0..1024 (0: all cores)"), std::string::npos) << command;
  }
}

// The rules by name or by flags: every command takes them; a bad value is a
// one-line usage error naming it; a table solved under other rules is
// verified and queried with its rules.
TEST(CommandLine, RulesByNameAndFlags) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"solve", "--rules", "cap4"},
           {"query", "--rules", "standard-4c1t", "-/-/-/-/-/-/- w"},
           {"solve", "--circles", "0"},
           {"verify", "--triangles", "4"},
           {"solve", "--line-rule", "shape"}}) {
    const RunResult r = run_fano(args);
    EXPECT_EQ(r.exit_code, 2) << args[1] << " " << args[2] << ": " << r.err;
    EXPECT_EQ(r.err_lines(), 1) << r.err;
    EXPECT_NE(r.err.find(args[2]), std::string::npos) << r.err;
  }
  TempDir dir;
  const std::string table = (dir / "t.fanotb").string();
  // --rules, then a flag overriding one part: cap3 (board) with colour-only lines, 2 + 1.
  const RunResult solved = run_fano({"solve", "--rules", "cap3-1c1t", "--line-rule", "colour",
                                     "--circles", "2", "--out", table, "--json"});
  ASSERT_EQ(solved.exit_code, 0) << solved.err;
  const nlohmann::json s = parse_json(solved.out);
  EXPECT_EQ(s["rules"], "cap3-board-colour-2c1t");
  EXPECT_EQ(s["line_rule"], "colour");
  EXPECT_EQ(s["circles"], 2);
  EXPECT_EQ(s["triangles"], 1);
  const RunResult verified = run_fano({"verify", "--tb", table});
  EXPECT_EQ(verified.exit_code, 0) << verified.out << verified.err;
  // The same rules by another name agree with the file; other rules do not.
  const RunResult q = run_fano(
      {"query", "--rules", "cap3-colour-2c1t", "--tb", table, "--json", "C/-/-/-/-/-/- b"});
  ASSERT_EQ(q.exit_code, 0) << q.err;
  EXPECT_EQ(parse_json(q.out)["moves"].size(), 14u);  // c or t on any of 7 spaces
  const RunResult wrong =
      run_fano({"query", "--rules", "cap3-board", "--tb", table, "-/-/-/-/-/-/- w"});
  EXPECT_NE(wrong.exit_code, 0);
  EXPECT_NE(wrong.err.find("colour-only lines"), std::string::npos) << wrong.err;
  // A position with more circles than the rules give is refused by name.
  const RunResult over = run_fano({"query", "--tb", table, "C/C/C/c/c/-/- b"});
  EXPECT_EQ(over.exit_code, 2) << over.err;
  EXPECT_NE(over.err.find("3 white circles"), std::string::npos) << over.err;
}

TEST(CommandLine, SplitPositionSaysToQuoteIt) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"query", "-/-/-/C/-/-/-", "b"},
        std::vector<std::string>{"show", "-/-/-/C/-/-/-", "b"},
        std::vector<std::string>{"show", "--position", "-/-/-/C/-/-/-", "b"},
        std::vector<std::string>{"play", "-/-/-/C/-/-/-", "b"}}) {
    const RunResult r = run_fano(args);
    EXPECT_EQ(r.exit_code, 2) << command_line(args);
    EXPECT_EQ(r.err_lines(), 1) << r.err;
    EXPECT_NE(r.err.find("is split into two words: quote it (fano " + args[0] +
                         " '-/-/-/C/-/-/- b') or write '_' for the space (-/-/-/C/-/-/-_b)"),
              std::string::npos)
        << r.err;
  }
  // Not starting with '-' either.
  const RunResult plain = run_fano({"show", "C/-/-/-/-/-/-", "b"});
  EXPECT_EQ(plain.exit_code, 2);
  EXPECT_NE(plain.err.find("quote it"), std::string::npos) << plain.err;
  // The '_' form is one word and works as the quoted one does.
  const RunResult quoted = run_fano({"show", "-/-/-/C/-/-/- b"});
  const RunResult underscore = run_fano({"show", "-/-/-/C/-/-/-_b"});
  EXPECT_EQ(underscore.exit_code, 0) << underscore.err;
  EXPECT_EQ(underscore.out, quoted.out);
  const RunResult unquoted = run_fano_shell("show -/-/-/C/-/-/-_b");
  EXPECT_EQ(unquoted.exit_code, 0) << unquoted.out;
}

// --- --version, help CMD, wrapped help with examples --------------------------

TEST(CommandLine, VersionNamesTheCommitAndLibraries) {
  const RunResult r = run_fano({"--version"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::regex form(
      "fano [0-9]+\\.[0-9]+\\.[0-9]+ \\(commit ([0-9a-f]{12}|unknown)\\)\n"
      "zstd ([0-9.]+)\n"
      "oneTBB [0-9]+\\.[0-9]+ \\(built with [0-9]+\\.[0-9]+\\)\n");
  std::smatch m;
  ASSERT_TRUE(std::regex_match(r.out, m, form)) << r.out;
  // The zstd version as pkg-config reports the installed library.
  std::string zstd;
  if (run_shell("pkg-config --modversion libzstd 2>/dev/null", zstd) == 0 && !zstd.empty()) {
    while (!zstd.empty() && zstd.back() == '\n') zstd.pop_back();
    EXPECT_EQ(m[2].str(), zstd);
  }
  // Built from a git checkout, the commit is one of the repository's.
  std::string head;
  if (m[1] != "unknown") {
    ASSERT_EQ(
        run_shell("git -C " + shell_quote(FANO_SOURCE_DIR) + " cat-file -t " + m[1].str() + " 2>&1",
                  head),
        0)
        << head;
    EXPECT_EQ(head, "commit\n");
  }
}

TEST(CommandLine, HelpCommandPrintsThatCommandsHelp) {
  for (const std::string& cmd : kCommands) {
    const RunResult help = run_fano({"help", cmd}), direct = run_fano({cmd, "--help"});
    EXPECT_EQ(help.exit_code, 0) << cmd << ": " << help.err;
    EXPECT_EQ(help.out, direct.out) << cmd;
    EXPECT_EQ(help.out.rfind("usage: fano " + cmd + " ", 0), 0u) << help.out;
  }
  const RunResult unknown = run_fano({"help", "nosuch"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_EQ(unknown.err_lines(), 1) << unknown.err;
  const RunResult overview = run_fano({"help"});
  EXPECT_EQ(overview.exit_code, 0);
  EXPECT_NE(overview.out.find("fano --version"), std::string::npos) << overview.out;
  EXPECT_NE(overview.out.find("examples:"), std::string::npos) << overview.out;
}

TEST(CommandLine, EveryHelpHasExamplesAndWrapsAtTheWidth) {
  for (const std::string columns : {"", "60", "120"}) {
    const std::size_t width = columns.empty() ? 80 : std::stoul(columns);
    std::size_t longest = 0;
    for (const std::string& cmd : kCommands) {
      const RunResult r = run_with_columns(columns, cmd + " --help");
      ASSERT_EQ(r.exit_code, 0) << cmd;
      for (const std::string& l : lines_of(r.out)) {
        EXPECT_LE(l.size(), width) << cmd << " at " << width << " columns: '" << l << "'";
        longest = std::max(longest, l.size());
      }
      // Examples: a heading, then indented command lines of this command.
      EXPECT_NE(r.out.find("\nexamples:\n  fano " + cmd), std::string::npos) << r.out;
    }
    // The text uses the width it is given, not a fixed one.
    EXPECT_GT(longest, width - 10) << width << " columns";
  }
}

// --- The text board ------------------------------------------------------------

struct Cell {
  int row = -1, col = -1;  // of the space number
  std::string body;        // between ':' and ']'
};

// Every "[n:...]" cell of a board picture, by space (0-based).
std::vector<Cell> cells_of(const std::vector<std::string>& rows) {
  std::vector<Cell> cells(kSpaces);
  for (int r = 0; r < int(rows.size()); ++r) {
    const std::string& l = rows[r];
    for (std::size_t c = 0; c + 2 < l.size(); ++c) {
      if (l[c] != '[' || l[c + 1] < '1' || l[c + 1] > '7' || l[c + 2] != ':') continue;
      const std::size_t close = l.find(']', c);
      if (close == std::string::npos) continue;
      Cell& cell = cells[l[c + 1] - '1'];
      EXPECT_EQ(cell.row, -1) << "space " << l[c + 1] << " drawn twice";
      cell = Cell{r, int(c) + 1, l.substr(c + 3, close - c - 3)};
    }
  }
  return cells;
}

// The board part of render_board (the rows before the legend).
std::vector<std::string> board_rows(const std::string& pic) {
  std::vector<std::string> rows = lines_of(pic);
  while (!rows.empty() && rows.back().find('[') == std::string::npos) rows.pop_back();
  return rows;
}

TEST(TextBoard, EveryStackInItsCellAtEitherCap) {
  for (const Variant& v : {kStandard, kCap3}) {
    for (const State st : sample_positions(v, 300, 10)) {
      const std::string pic = render_board(st, v.stack_cap);
      const std::vector<Cell> cells = cells_of(board_rows(pic));
      // The notation's stacks, independently of the picture.
      std::vector<std::string> stacks;
      std::string text = format_position(st);
      text = text.substr(0, text.find(' '));
      for (std::size_t a = 0;;) {
        const std::size_t b = text.find('/', a);
        stacks.push_back(text.substr(a, b - a));
        if (b == std::string::npos) break;
        a = b + 1;
      }
      for (int s = 0; s < kSpaces; ++s) {
        ASSERT_GE(cells[s].row, 0) << pic;
        std::string want = stacks[s];
        want.resize(std::size_t(v.stack_cap), ' ');
        EXPECT_EQ(cells[s].body, want) << pic;
      }
    }
  }
}

TEST(TextBoard, MedianAlignedAndCircleDrawnAtEitherCap) {
  for (const Variant& v : {kStandard, kCap3}) {
    const State st = v.stack_cap == 3 ? parse_position("CtT/c/-/-/-/C/t w", v)
                                      : parse_position("T/Cc/tc/C/-/tT/- b", v);
    const std::vector<std::string> rows = board_rows(render_board(st, v.stack_cap));
    const std::vector<Cell> cells = cells_of(rows);
    const Cell &c6 = cells[5], &c7 = cells[6], &c2 = cells[1], &c1 = cells[0], &c4 = cells[3];
    // 6, 7 and 2 in one column, and the median '|' in that column on every row between.
    EXPECT_EQ(c6.col, c7.col);
    EXPECT_EQ(c7.col, c2.col);
    for (int r = c6.row + 1; r < c2.row; ++r) {
      if (r == c7.row) continue;
      ASSERT_GT(int(rows[r].size()), c6.col) << "row " << r;
      EXPECT_TRUE(rows[r][c6.col] == '|' || rows[r][c6.col] == '+')
          << "row " << r << ": '" << rows[r] << "'";
    }
    // 1 and 4 mirror each other about the median, on one row; 5, 2, 3 on the last.
    EXPECT_EQ(c1.row, c4.row);
    EXPECT_EQ(c6.col - c1.col, c4.col - c6.col);
    EXPECT_EQ(cells[4].row, c2.row);
    EXPECT_EQ(cells[2].row, c2.row);
    // The circle: '*' marks on the ellipse centred on 7 through 1, 2 and 4
    // (fitted to the cells' positions), on each of its three arcs.
    const double cy = c7.row, cx = c7.col, b = c2.row - cy;
    const double dy1 = c1.row - cy, a = (cx - c1.col) / std::sqrt(1 - (dy1 / b) * (dy1 / b));
    int arc[3] = {0, 0, 0};  // 1-4 (above 1 and 4), 1-2 (left), 2-4 (right)
    for (int r = 0; r < int(rows.size()); ++r)
      for (int c = 0; c < int(rows[r].size()); ++c) {
        if (rows[r][c] != '*') continue;
        const double x = (c - cx) / a, y = (r - cy) / b;
        EXPECT_NEAR(std::hypot(x, y), 1.0, 0.3) << "'*' off the circle at " << r << "," << c;
        ++arc[r < c1.row ? 0 : c < cx ? 1 : 2];
      }
    for (int k = 0; k < 3; ++k) EXPECT_GE(arc[k], 6) << "arc " << k;
  }
}

TEST(TextBoard, SaysWhichPieceIsOnTopAndShowsTheSupply) {
  const State placing = parse_position("C/cT/t/-/-/-/- w", kStandard);
  const std::string pic = render_board(placing, 2);
  EXPECT_NE(pic.find("stacks bottom to top: the last piece is on top"), std::string::npos) << pic;
  // White has placed C and T, Black c and t: one of each left.
  EXPECT_NE(pic.find("\nsupply: White C T, Black c t\n"), std::string::npos) << pic;
  EXPECT_NE(render_board(kEmptyBoard, 2).find("supply: White C C T T, Black c c t t\n"),
            std::string::npos);
  // Movement phase: no supply.
  const std::string moving = render_board(parse_position("T/Cc/tc/C/-/tT/- b", kStandard), 2);
  EXPECT_EQ(moving.find("supply"), std::string::npos) << moving;
  EXPECT_NE(moving.find("Black to move\n"), std::string::npos);
}

// --- Wording -------------------------------------------------------------------

TEST(Wording, SolveTimesInSecondsToTheMillisecond) {
  TempDir dir;
  const RunResult r = run_fano({"solve", "--stack-cap", "3", "--adjacency", "projective", "--out",
                                (dir / "t.fanotb").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::regex_search(
      r.out, std::regex("\ntimes: enumerate [0-9]+\\.[0-9]{3} s, graph [0-9]+\\.[0-9]{3} s, "
                        "retrograde [0-9]+\\.[0-9]{3} s, write [0-9]+\\.[0-9]{3} s, total "
                        "[0-9]+\\.[0-9]{3} s\n")))
      << r.out;
}

}  // namespace
}  // namespace fano

namespace fano {
namespace {

// The one table of error kinds (fano/errors.hpp) against what docs/cli.md
// promises: distinct codes and names, the table kinds as 10..18 in order.
TEST(ExitCodes, EachErrorKindHasItsOwnCodeAndTheDocsListIt) {
  std::set<int> codes;
  std::set<std::string_view> names;
  for (const ErrorKindInfo& k : kErrorKinds) {
    EXPECT_TRUE(codes.insert(k.exit_code).second) << k.name;
    EXPECT_TRUE(names.insert(k.name).second) << k.name;
    EXPECT_GE(k.http_status, 400) << k.name;
    EXPECT_LT(k.http_status, 600) << k.name;
  }
  int expected = 10;
  for (std::size_t i = std::size_t(ErrorKind::kMissing); i <= std::size_t(ErrorKind::kIo); ++i)
    EXPECT_EQ(kErrorKinds[i].exit_code, expected++) << kErrorKinds[i].name;
  const std::string readme = testing::read_text(fs::path(FANO_SOURCE_DIR) / "docs" / "cli.md");
  const auto at = readme.find("Exit codes: 0 success");
  ASSERT_NE(at, std::string::npos);
  const std::string para = readme.substr(at, readme.find("\n\n", at) - at);
  for (const ErrorKindInfo& k : kErrorKinds) {
    if (k.exit_code >= 10) continue;  // the table kinds: "10..18"
    EXPECT_NE(para.find(std::to_string(k.exit_code) + " "), std::string::npos) << k.name;
  }
  EXPECT_NE(para.find("10..18"), std::string::npos);
  EXPECT_EQ(error_info(ErrorKind::kUnreachable).http_status, 422);
  EXPECT_EQ(error_info(ErrorKind::kBadInput).http_status, 400);
}

}  // namespace
}  // namespace fano
