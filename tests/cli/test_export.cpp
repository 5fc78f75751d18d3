// End-to-end tests of `fano export` and `fano query --batch` (the tool at
// FANO_BIN) against the standard table solved once per test process.
#include <zstd.h>

#include <map>
#include <sstream>

#include "fano/analysis.hpp"
#include "fano/table_files.hpp"
#include "support.hpp"

namespace fano::testing {
namespace {

using nlohmann::json;

json plies_of(Outcome o) { return o.value == Value::kDraw ? json(nullptr) : json(o.plies); }

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = line.find(',', start);
    out.push_back(line.substr(start, comma - start));
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

std::string zstd_decompress(const std::string& frame) {
  ZSTD_DCtx* d = ZSTD_createDCtx();
  std::string out;
  std::vector<char> buf(ZSTD_DStreamOutSize());
  ZSTD_inBuffer in{frame.data(), frame.size(), 0};
  size_t r = 1;
  while (in.pos < in.size) {
    ZSTD_outBuffer o{buf.data(), buf.size(), 0};
    r = ZSTD_decompressStream(d, &o, &in);
    if (ZSTD_isError(r)) {
      ADD_FAILURE() << "zstd: " << ZSTD_getErrorName(r);
      break;
    }
    out.append(buf.data(), o.pos);
  }
  EXPECT_EQ(r, 0u) << "the zstd frame is not complete";
  ZSTD_freeDCtx(d);
  return out;
}

// One exported row, from CSV or JSON lines.
struct Row {
  std::string position, to_move, phase, value;
  int pieces = 0;
  json plies;
  std::int64_t orbit = -1;
  std::uint64_t code = 0;
};

std::vector<Row> parse_rows(const std::string& text, bool csv, bool classes) {
  std::vector<Row> rows;
  std::vector<std::string> lines = lines_of(text);
  if (csv) {
    EXPECT_FALSE(lines.empty());
    if (lines.empty()) return rows;
    EXPECT_EQ(lines[0], classes ? "position,to_move,phase,pieces,value,plies,orbit,code"
                                : "position,to_move,phase,pieces,value,plies,code");
    lines.erase(lines.begin());
  }
  rows.reserve(lines.size());
  for (const std::string& line : lines) {
    Row r;
    if (csv) {
      const std::vector<std::string> f = split_csv(line);
      EXPECT_EQ(f.size(), classes ? 8u : 7u) << line;
      if (f.size() < 7) continue;
      r.position = f[0], r.to_move = f[1], r.phase = f[2], r.pieces = std::stoi(f[3]);
      r.value = f[4];
      r.plies = f[5].empty() ? json(nullptr) : json(std::stoi(f[5]));
      if (classes && f.size() == 8) r.orbit = std::stoll(f[6]);
      r.code = std::stoull(f.back());
    } else {
      const json j = json::parse(line);
      EXPECT_EQ(j.size(), classes ? 8u : 7u) << line;
      r.position = j["position"], r.to_move = j["to_move"], r.phase = j["phase"];
      r.pieces = j["pieces"], r.value = j["value"], r.plies = j["plies"];
      if (classes) r.orbit = j["orbit"];
      r.code = j["code"];
    }
    rows.push_back(std::move(r));
  }
  return rows;
}

class ExportBatch : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    table_ = new std::string((*dir_ / "standard.fanotb").string());
    ASSERT_EQ(run_fano({"solve", "--out", *table_}).exit_code, 0);
    tb_ = new Tablebase(open_tablebase(*table_));
  }
  static void TearDownTestSuite() {
    delete tb_;
    delete table_;
    delete dir_;
  }
  static const std::string& table() { return *table_; }
  static const Tablebase& tb() { return *tb_; }

  static RunResult run(std::vector<std::string> args) {
    args.insert(args.begin() + 1, {"--tb", *table_});
    return run_fano(args);
  }

  // Checks an export's rows against the table and its header.
  static void check_rows(const std::vector<Row>& rows, bool classes) {
    const TablebaseHeader& h = tb().header();
    ASSERT_EQ(rows.size(), classes ? h.canonical : h.reachable);
    std::map<std::string, std::uint64_t> by_value;
    std::uint64_t orbits = 0, previous = 0;
    const Variant v = tb().variant();
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const Row& r = rows[i];
      const State st = parse_position(r.position, v);
      ASSERT_EQ(r.code, st.code) << "the code column is not the position's code: " << r.position;
      if (i > 0) {
        ASSERT_LT(previous, st.code) << "not in ascending code order at row " << i;
      }
      previous = st.code;
      by_value[r.value] += classes ? std::uint64_t(r.orbit) : 1;
      if (classes) {
        orbits += std::uint64_t(r.orbit);
        ASSERT_EQ(tb().symmetry().canonical(st), st) << r.position;
        ASSERT_EQ(r.orbit, tb().symmetry().orbit_size(st)) << r.position;
      }
    }
    if (classes) {
      EXPECT_EQ(orbits, h.reachable);
    }
    EXPECT_EQ(by_value["win"], h.win);
    EXPECT_EQ(by_value["loss"], h.loss);
    EXPECT_EQ(by_value["draw"], h.draw);
    EXPECT_EQ(by_value.size(), 3u);
    // A random sample of rows against the table itself.
    std::mt19937 rng(7);
    for (int k = 0; k < 3000; ++k) {
      const Row& r = rows[rng() % rows.size()];
      const State st = parse_position(r.position, v);
      const std::optional<Outcome> o = tb().probe(st);
      ASSERT_TRUE(o) << r.position;
      EXPECT_EQ(r.value, value_name(o->value)) << r.position;
      EXPECT_EQ(r.plies, plies_of(*o)) << r.position;
      EXPECT_EQ(r.to_move, colour_name(st.to_move())) << r.position;
      EXPECT_EQ(r.phase, st.placement_phase() ? "placement" : "movement") << r.position;
      EXPECT_EQ(r.pieces, st.pieces_on_board()) << r.position;
      EXPECT_EQ(format_position(st), r.position);
    }
  }

 private:
  static TempDir* dir_;
  static std::string* table_;
  static Tablebase* tb_;
};

TempDir* ExportBatch::dir_ = nullptr;
std::string* ExportBatch::table_ = nullptr;
Tablebase* ExportBatch::tb_ = nullptr;

// --- export ----------------------------------------------------------------

TEST_F(ExportBatch, CsvEveryPosition) {
  const RunResult r = run({"export"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  check_rows(parse_rows(r.out, true, false), false);
}

TEST_F(ExportBatch, JsonlEveryPosition) {
  TempDir dir;
  const fs::path out = dir / "all.jsonl";
  const RunResult r = run({"export", "--format", "jsonl", "--out", out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.empty());
  check_rows(parse_rows(read_text(out), false, false), false);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 1)
      << "a temporary file was left behind";
}

TEST_F(ExportBatch, CsvAndJsonlClasses) {
  for (const char* format : {"csv", "jsonl"}) {
    const RunResult r = run({"export", "--classes", "--format", format});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    check_rows(parse_rows(r.out, std::string(format) == "csv", true), true);
  }
}

TEST_F(ExportBatch, ZstdDecompressesToThePlainOutput) {
  TempDir dir;
  for (const bool classes : {false, true}) {
    std::vector<std::string> plain{"export", "--format", "jsonl"};
    if (classes) plain.push_back("--classes");
    std::vector<std::string> zstd = plain;
    zstd.insert(zstd.end(), {"--zstd", "--out", (dir / "out.zst").string()});
    const RunResult a = run(plain), b = run(zstd);
    ASSERT_EQ(a.exit_code, 0) << a.err;
    ASSERT_EQ(b.exit_code, 0) << b.err;
    const std::string packed = read_text(dir / "out.zst");
    EXPECT_LT(packed.size(), a.out.size() / 4);
    EXPECT_TRUE(zstd_decompress(packed) == a.out) << "classes " << classes;
  }
}

TEST_F(ExportBatch, TwoRunsGiveTheSameBytes) {
  TempDir dir;
  const RunResult a = run({"export", "--classes"}), b = run({"export", "--classes"});
  ASSERT_EQ(a.exit_code, 0);
  EXPECT_TRUE(a.out == b.out);
  const RunResult c = run({"export", "--zstd", "--out", (dir / "1.zst").string()});
  const RunResult d = run({"export", "--zstd", "--out", (dir / "2.zst").string()});
  ASSERT_EQ(c.exit_code, 0);
  ASSERT_EQ(d.exit_code, 0);
  EXPECT_TRUE(read_bytes(dir / "1.zst") == read_bytes(dir / "2.zst"));
}

TEST_F(ExportBatch, MissingFolderFailsCleanly) {
  TempDir dir;
  const fs::path out = dir / "missing" / "all.csv";
  const RunResult r = run({"export", "--out", out.string()});
  EXPECT_FALSE(r.crashed());
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(r.err_lines(), 1) << r.err;
  EXPECT_TRUE(r.out.empty());
  EXPECT_FALSE(fs::exists(dir / "missing"));
  EXPECT_TRUE(fs::is_empty(dir.path()));
}

TEST_F(ExportBatch, BadFormatIsAUsageError) {
  const RunResult r = run({"export", "--format", "xml"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err_lines(), 1) << r.err;
}

// --- query --batch -----------------------------------------------------------

const char* const kRepeatingGame =
    "C1,t1,T2,c5,T3,c4,C3,t5,2-4,1-6,1-2,5-2,4-1,4-6,1-5,6-1,5-1,6-7,1-4,7-5,4-1,5-7";

TEST_F(ExportBatch, BatchAnswersEveryLineInOrder) {
  const std::vector<std::string> input{
      "-/-/-/-/-/-/- w",
      "not a position",
      "",
      "moves: C4,t3",
      "C/-/-/-/-/-/- w",  // wrong side to move
      "   ",
      std::string("moves: ") + kRepeatingGame,
      "moves: C4,C4,C4",  // illegal: cap 2
      "-/-/-/C/-/-/- b",
  };
  std::string text;
  for (const std::string& line : input) text += line + "\n";
  TempDir dir;
  write_text(dir / "in.txt", text);
  const RunResult r = run({"query", "--batch", (dir / "in.txt").string()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  const std::vector<std::string> out = lines_of(r.out);
  // Blank lines give no answer; every other line one, in order.
  const std::vector<int> answered{1, 2, 4, 5, 7, 8, 9};
  ASSERT_EQ(out.size(), answered.size()) << r.out;
  for (std::size_t k = 0; k < out.size(); ++k) {
    const json j = parse_json(out[k]);
    const std::string& line = input[std::size_t(answered[k] - 1)];
    const bool bad = answered[k] == 2 || answered[k] == 5 || answered[k] == 8;
    if (bad) {
      EXPECT_EQ(j["line"], answered[k]);
      EXPECT_EQ(j["input"], line);
      EXPECT_TRUE(j["error"].is_string() && !j["error"].get<std::string>().empty());
      continue;
    }
    EXPECT_FALSE(j.contains("error")) << out[k];
    // The same JSON as the single query.
    const bool moves = line.rfind("moves: ", 0) == 0;
    const RunResult single = moves ? run({"query", "--json", "--moves", line.substr(7)})
                                   : run({"query", "--json", line});
    ASSERT_EQ(single.exit_code, 0) << single.err;
    EXPECT_EQ(j, parse_json(single.out)) << line;
  }
  // The repeating game: rule 3 applies, the history shows in the report.
  const json rep = parse_json(out[4]);
  EXPECT_EQ(rep["value"], "draw");
  EXPECT_NE(rep["game_over"], nullptr);
}

TEST_F(ExportBatch, AllGoodLinesExitZero) {
  const RunResult r = run_fano_with_input({"query", "--tb", table(), "--batch", "-"},
                                          "-/-/-/-/-/-/- w\nmoves: C4\n");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(lines_of(r.out).size(), 2u);
}

TEST_F(ExportBatch, ValueOnlyEqualsProbeFromStdin) {
  const Variant v = tb().variant();
  const std::vector<State> sample = sample_positions(v, 300, 11);
  std::string input;
  std::vector<std::optional<Outcome>> expected;
  std::mt19937 rng(5);
  for (const State st : sample) {
    // Symmetric images too, and a tab before the side now and then.
    State img{st.code};
    tb().symmetry().for_each_image(st, [&](std::uint64_t c) {
      if (rng() % 3 == 0) img = State{c};
    });
    std::string text = format_position(img);
    if (rng() % 10 == 0) text.replace(text.size() - 2, 1, " \t ");
    input += text + "\n";
    expected.push_back(tb().probe(img));
  }
  // Input without a final newline and with \r\n line ends.
  input += "-/-/-/-/-/-/- w\r\n-/-/-/C/-/-/- b";
  expected.push_back(tb().probe(kEmptyBoard));
  expected.push_back(tb().probe(parse_position("-/-/-/C/-/-/- b", v)));
  const RunResult r =
      run_fano_with_input({"query", "--tb", table(), "--batch", "--value-only"}, input);
  const std::vector<std::string> in_lines = lines_of(input), out = lines_of(r.out);
  ASSERT_EQ(out.size(), expected.size());
  int unreachable = 0;
  for (std::size_t k = 0; k < out.size(); ++k) {
    const json j = parse_json(out[k]);
    if (!expected[k]) {
      ++unreachable;
      EXPECT_EQ(j["line"], k + 1);
      EXPECT_TRUE(j.contains("error"));
      continue;
    }
    ASSERT_EQ(j.size(), 3u) << out[k];
    const State st = parse_position(in_lines[k], v);
    EXPECT_EQ(j["position"], format_position(st));
    EXPECT_EQ(j["value"], value_name(expected[k]->value));
    EXPECT_EQ(j["plies"], plies_of(*expected[k]));
  }
  EXPECT_EQ(r.exit_code, unreachable ? 2 : 0) << r.err;
}

TEST_F(ExportBatch, ValueOnlyOfTheWholeExport) {
  // Every reachable position, through a file: each answer equals its row.
  TempDir dir;
  const RunResult e = run({"export", "--out", (dir / "all.csv").string()});
  ASSERT_EQ(e.exit_code, 0) << e.err;
  std::vector<std::string> rows = lines_of(read_text(dir / "all.csv"));
  rows.erase(rows.begin());
  std::string input;
  for (const std::string& row : rows) input += row.substr(0, row.find(',')) + "\n";
  write_text(dir / "in.txt", input);
  const RunResult r = run({"query", "--batch", (dir / "in.txt").string(), "--value-only"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> out = lines_of(r.out);
  ASSERT_EQ(out.size(), rows.size());
  std::mt19937 rng(3);
  for (int k = 0; k < 2000; ++k) {
    const std::size_t i = rng() % rows.size();
    const std::vector<std::string> f = split_csv(rows[i]);
    const json j = parse_json(out[i]);
    EXPECT_EQ(j["position"], f[0]);
    EXPECT_EQ(j["value"], f[4]);
    EXPECT_EQ(j["plies"], f[5].empty() ? json(nullptr) : json(std::stoi(f[5])));
  }
}

TEST_F(ExportBatch, BatchUsageErrors) {
  EXPECT_EQ(run({"query", "--value-only", "-/-/-/-/-/-/- w"}).exit_code, 2);
  EXPECT_EQ(run({"query", "--batch", "/nonexistent/in.txt"}).exit_code, 2);
  EXPECT_EQ(run({"query", "--batch", "-", "--json"}).exit_code, 2);
}

}  // namespace
}  // namespace fano::testing
