// The numbers published in results/README.md (its standard-game section, a
// fenced ```json block between the markers below) match a fresh solve.
#include <gtest/gtest.h>
#include <zstd.h>

#include <fstream>
#include <iterator>
#include <map>
#include <string>

#include "fano/notation.hpp"
#include "fano/perft.hpp"
#include "fano/rules.hpp"
#include "fano/solver.hpp"
#include "fano/tablebase.hpp"

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

// The raw text after "key": up to the next ',', '}' or newline (strings keep
// their quotes), or the whole {...} object; empty when the key is absent.
std::string raw(const std::string& json, const std::string& key) {
  const std::string needle = "\"" + key + "\":";
  size_t i = json.find(needle);
  if (i == std::string::npos) return "";
  i += needle.size();
  while (i < json.size() && json[i] == ' ') ++i;
  if (i < json.size() && json[i] == '{') return json.substr(i, json.find('}', i) + 1 - i);
  size_t j = i;
  if (i < json.size() && json[i] == '"') {
    j = json.find('"', i + 1) + 1;
  } else {
    while (j < json.size() && json[j] != ',' && json[j] != '}' && json[j] != '\n') ++j;
  }
  return json.substr(i, j - i);
}

std::string str(const std::string& json, const std::string& key) {
  const std::string r = raw(json, key);
  return r.size() >= 2 && r.front() == '"' ? r.substr(1, r.size() - 2) : "<missing " + key + ">";
}

std::uint64_t num(const std::string& json, const std::string& key) {
  const std::string r = raw(json, key);
  if (r.empty() || r.find_first_not_of("0123456789") != std::string::npos) {
    ADD_FAILURE() << "no number for \"" << key << "\" in the results block (got '" << r << "')";
    return ~std::uint64_t(0);
  }
  return std::stoull(r);
}

// "draw", "win in N" or "loss in N".
std::string outcome_words(Outcome o) {
  if (o.value == Value::kDraw) return "draw";
  return std::string(value_name(o.value)) + " in " + std::to_string(o.plies);
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
      f.first_moves[format_move(m)] = outcome_words(outcome_for_mover(*f.sol.lookup(child)));
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
  std::string moves;
  for (const auto& [m, r] : f.first_moves) {
    if (!moves.empty()) moves += ",\n";
    moves += "    \"" + m + "\": \"" + r + "\"";
  }
  auto line = [](const char* key, std::uint64_t v) {
    return "  \"" + std::string(key) + "\": " + std::to_string(v) + ",\n";
  };
  return "```json\n{\n  \"variant\": \"standard\",\n  \"stack_cap\": 2,\n"
         "  \"adjacency\": \"board\",\n  \"start\": {\"value\": \"" +
         std::string(value_name(start.value)) + "\", \"plies\": " +
         (start.value == Value::kDraw ? std::string("null") : std::to_string(start.plies)) +
         "},\n" + line("reachable", s.reachable) + line("placement", s.placement) +
         line("movement", s.movement) + line("canonical", s.canonical) + line("win", s.win) +
         line("loss", s.loss) + line("draw", s.draw) + line("tablebase_bytes", f.tablebase_bytes) +
         "  \"zstd\": \"" + ZSTD_versionString() + "\",\n  \"first_moves\": {\n" + moves +
         "\n  }\n}\n```";
}

TEST(Results, BlockIsPresent) {
  const std::string j = json_block(section(readme()));
  ASSERT_FALSE(j.empty()) << "no ```json block in the standard-game section";
  EXPECT_EQ(str(j, "variant"), "standard");
  EXPECT_EQ(num(j, "stack_cap"), 2u);
  EXPECT_EQ(str(j, "adjacency"), "board");
}

TEST(Results, ValueOfTheStandardGame) {
  SCOPED_TRACE("a fresh solve gives:\n" + fresh_block());
  const std::string j = json_block(section(readme()));
  const Outcome start = *fresh().sol.lookup(kEmptyBoard);
  const std::string s = raw(j, "start");
  EXPECT_EQ(str(s, "value"), value_name(start.value));
  EXPECT_EQ(raw(s, "plies"), start.value == Value::kDraw ? "null" : std::to_string(start.plies));
}

TEST(Results, Statistics) {
  SCOPED_TRACE("a fresh solve gives:\n" + fresh_block());
  const std::string sec = section(readme());
  const std::string j = json_block(sec);
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
    EXPECT_EQ(num(j, key), value) << key;
    EXPECT_NE(prose.find(std::to_string(value)), std::string::npos)
        << key << " = " << value << " does not appear in the text of the section";
  }
}

TEST(Results, FirstMoves) {
  SCOPED_TRACE("a fresh solve gives:\n" + fresh_block());
  const std::string j = json_block(section(readme()));
  const std::string moves = raw(j, "first_moves");
  ASSERT_FALSE(moves.empty()) << "no first_moves object";
  std::map<std::string, std::string> published;
  for (size_t i = 0; (i = moves.find('"', i)) != std::string::npos;) {
    const size_t k = moves.find('"', i + 1);
    const std::string key = moves.substr(i + 1, k - i - 1);
    published[key] = str(moves.substr(i), key);
    i = moves.find(',', k);
    if (i == std::string::npos) break;
  }
  EXPECT_EQ(published, fresh().first_moves);
}

// The compressed size depends on the zstd library: it is compared exactly only
// with the zstd version the number was produced with.
TEST(Results, TablebaseSize) {
  SCOPED_TRACE("a fresh solve gives:\n" + fresh_block());
  const std::string sec = section(readme());
  const std::string j = json_block(sec);
  const std::string zstd = str(j, "zstd");
  if (zstd != ZSTD_versionString())
    GTEST_SKIP() << "results were produced with zstd " << zstd << ", this build links "
                 << ZSTD_versionString();
  EXPECT_EQ(num(j, "tablebase_bytes"), fresh().tablebase_bytes);
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
