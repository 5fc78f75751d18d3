// The HTTP API (fano::server): answers against `fano query --json` and the
// table itself, every error case, history (rule 3), the main line, caching
// headers; then real HTTP on an ephemeral port of 127.0.0.1: concurrent
// clients, hostile clients (oversized, malformed, slow, dropped connections)
// and `fano serve` as a process.
#include <arpa/inet.h>
#include <httplib.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <thread>

#include "fano/analysis.hpp"
#include "fano/game_facts.hpp"
#include "fano/json.hpp"
#include "fano/notation.hpp"
#include "fano/players.hpp"
#include "fano/server.hpp"
#include "fano/solver.hpp"
#include "fano/table_files.hpp"
#include "support.hpp"

namespace fano {
namespace {

using namespace fano::testing;
using nlohmann::json;
using server::Api;
using server::Request;
using server::Response;

// The tables of every variant, solved once per test process into a
// temporary folder (tables are not committed; test_verify checks the solver).
const std::string& tables_folder() {
  static TempDir dir;
  static const std::string path = [] {
    for (const Variant& v : kAllVariants)
      write_file_atomically(default_tablebase_path(v, dir.path().string()),
                            encode_solution(solve(v)));
    return dir.path().string();
  }();
  return path;
}

std::string table_path(const Variant& v) { return default_tablebase_path(v, tables_folder()); }

// The tables of every variant, loaded once.
const Api& api() {
  static const Api a = [] {
    std::vector<server::ServedTable> tables;
    for (const Variant& v : kAllVariants)
      tables.push_back({open_tablebase(table_path(v), v), table_path(v)});
    return Api(std::move(tables), "test");
  }();
  return a;
}

const Tablebase& table_of(const Variant& v) {
  for (const auto& t : api().tables())
    if (t.table.variant() == v) return t.table;
  throw std::logic_error("no table");
}

Response get(const std::string& path, std::multimap<std::string, std::string> params = {}) {
  Request r;
  r.path = path;
  r.params = std::move(params);
  return api().handle(r);
}

json get_json(const std::string& path, std::multimap<std::string, std::string> params = {},
              int status = 200) {
  const Response r = get(path, std::move(params));
  EXPECT_EQ(r.status, status) << path << ": " << r.body;
  EXPECT_EQ(r.content_type, "application/json");
  return parse_json(r.body);
}

// The API's category and plies, written out from a value seen by the side to
// move (independently of the server's own conversion).
json plies_of(Outcome o) { return o.value == Value::kDraw ? json(nullptr) : json(o.plies); }

// ---------------------------------------------------------------------------
// Positions: the API against the table and against `fano query --json`

// Every field of a position answer against the table: the value of the side
// to move, and each move's category for the side to move after it.
void expect_answer_matches_table(const json& j, const Tablebase& tb, State st) {
  const Rules rules(tb.variant());
  const Outcome value = *tb.probe(st);
  EXPECT_EQ(j["position"], format_position(st));
  EXPECT_EQ(j["to_move"], colour_name(st.to_move()));
  EXPECT_EQ(j["category"], value_name(value.value));
  EXPECT_EQ(j["plies"], plies_of(value));
  const bool over = game_over(rules, st) != GameOver::kNone;
  EXPECT_EQ(j["game_over"].is_null(), !over) << j;
  ASSERT_EQ(j["moves"].size(), over ? 0u : legal_moves(rules, st).size()) << j;
  for (const json& m : j["moves"]) {
    const std::string text = m["move"];
    const State child = apply_move(st, resolve_move(rules, st, parse_move_text(text), text));
    EXPECT_EQ(m["position"], format_position(child));
    const Outcome c = *tb.probe(child);  // for the side to move after the move
    EXPECT_EQ(m["category"], value_name(c.value)) << m;
    EXPECT_EQ(m["plies"], plies_of(c)) << m;
  }
  // Best first for the side to move: the opponent's outcomes worst first.
  for (std::size_t i = 1; i < j["moves"].size(); ++i) {
    const auto outcome = [](const json& m) {
      const std::string cat = m["category"];
      return Outcome{cat == "win"    ? Value::kWin
                     : cat == "loss" ? Value::kLoss
                                     : Value::kDraw,
                     std::uint16_t(m["plies"].is_null() ? 0 : int(m["plies"]))};
    };
    EXPECT_FALSE(better_for_mover(outcome_for_mover(outcome(j["moves"][i])),
                                  outcome_for_mover(outcome(j["moves"][i - 1]))))
        << "not best first at " << j["moves"][i];
  }
}

// `fano query --json` converted to the API's point of view.
json query_as_api(const json& q) {
  json out{{"position", q["position"]},
           {"to_move", q["to_move"]},
           {"category", q["value"]},
           {"plies", q["plies"]},
           {"game_over", q["game_over"]}};
  json moves = json::array();
  for (const json& m : q["moves"]) {
    const std::string r = m["result"];
    moves.push_back({{"move", m["move"]},
                     {"position", m["position"]},
                     {"category", r == "win"    ? "loss"
                                  : r == "loss" ? "win"
                                                : "draw"},
                     {"plies", r == "draw" ? json(nullptr) : json(int(m["plies"]) - 1)}});
  }
  out["moves"] = std::move(moves);
  return out;
}

json api_core(const json& a) {
  json out{{"position", a["position"]},
           {"to_move", a["to_move"]},
           {"category", a["category"]},
           {"plies", a["plies"]},
           {"game_over", a["game_over"]}};
  json moves = json::array();
  for (const json& m : a["moves"])
    moves.push_back({{"move", m["move"]},
                     {"position", m["position"]},
                     {"category", m["category"]},
                     {"plies", m["plies"]}});
  out["moves"] = std::move(moves);
  return out;
}

class ServerVariant : public ::testing::TestWithParam<Variant> {};

TEST_P(ServerVariant, SampledPositionsMatchTheTableAndFanoQuery) {
  const Variant v = GetParam();
  const std::string name = variant_short_name(v);
  const Tablebase& tb = table_of(v);
  const std::vector<State> sample = sample_positions(v, 30, 20261203u + v.stack_cap, 40, 40);
  std::mt19937 rng(7);
  int queried = 0;
  for (std::size_t i = 0; i < sample.size(); ++i) {
    const State st = sample[i];
    std::string text = format_position(st);
    if (i % 2) std::replace(text.begin(), text.end(), ' ', '_');  // '_' for the space
    const json j = get_json("/api/v1/" + name, {{"position", text}});
    expect_answer_matches_table(j, tb, st);
    EXPECT_EQ(j["variant"], name);
    EXPECT_EQ(j["stack_cap"], v.stack_cap);
    // A subsample against the command line tool's own answer.
    if (rng() % 8 == 0 && queried < 12) {
      ++queried;
      const RunResult q = run_fano({"query", "--json", "--tb", table_path(v), format_position(st)});
      ASSERT_EQ(q.exit_code, 0) << q.err;
      EXPECT_EQ(api_core(j), query_as_api(parse_json(q.out))) << format_position(st);
    }
  }
  EXPECT_GT(queried, 3);
  EXPECT_GT(sample.size(), 200u);
}

INSTANTIATE_TEST_SUITE_P(AllVariants, ServerVariant, ::testing::ValuesIn(kAllVariants),
                         variant_param_name);

TEST(ServerApi, VariantNamesAndSlugs) {
  for (const Variant& v : kAllVariants) {
    EXPECT_EQ(variant_from_name(variant_short_name(v)), v);
    EXPECT_EQ(variant_from_name(variant_slug(v)), v);
    const json a = get_json("/api/v1/" + variant_slug(v), {{"moves", "C4"}});
    EXPECT_EQ(a["variant"], variant_short_name(v));
  }
  EXPECT_EQ(variant_short_name(kStandard), "standard");
  EXPECT_FALSE(variant_from_name("cap4"));
}

// Any rules' table is served under every name of its rules (the library's
// one parser), with the rules' supply and value.
TEST(ServerApi, OtherRulesAreServedByName) {
  Variant v = kCap2Projective;
  v.lines = Lines::kColourOnly, v.circles = 2, v.triangles = 1;
  const Solution sol = solve(v);
  std::vector<server::ServedTable> tables;
  tables.push_back({in_memory_tablebase(sol, "memory"), "memory"});
  const Api other(std::move(tables), "test");
  for (const std::string name : {"cap2-projective-colour-2c1t", "projective-colour-2c1t"}) {
    Request r;
    r.path = "/api/v2/" + name;
    r.params = {{"moves", "C4"}};
    const Response res = other.handle(r);
    ASSERT_EQ(res.status, 200) << res.body;
    const json a = parse_json(res.body);
    EXPECT_EQ(a["variant"], "cap2-projective-colour-2c1t");
    EXPECT_EQ(a["line_rule"], "colour");
    EXPECT_EQ(a["circles"], 2);
    EXPECT_EQ(a["triangles"], 1);
    EXPECT_EQ(a["supply"], json::parse(R"({"white":{"circle":1,"triangle":1},)"
                                       R"("black":{"circle":2,"triangle":1}})"));
    const State st = parse_position("-/-/-/C/-/-/- b", v);
    EXPECT_EQ(a["value"], value_name(sol.lookup(st)->value));
  }
  Request bad;
  bad.path = "/api/v2/standard-4c4t";
  EXPECT_EQ(other.handle(bad).status, 404);
}

// GET /api/v2/rules: the rules options' description and every reading, each
// saying whether this server has its table (here, only the one loaded).
TEST(ServerApi, RulesRouteListsTheOptionsAndEveryReading) {
  Variant v = kCap2Projective;
  v.circles = 1, v.triangles = 1;
  std::vector<server::ServedTable> tables;
  tables.push_back({in_memory_tablebase(solve(v), "memory"), "memory"});
  const Api one(std::move(tables), "test");
  Request r;
  r.path = "/api/v2/rules";
  const Response res = one.handle(r);
  ASSERT_EQ(res.status, 200) << res.body;
  json body = parse_json(res.body);
  int served = 0;
  for (json& reading : body["readings"]) {
    const bool is_it = reading["slug"] == variant_slug(v);
    EXPECT_EQ(reading["served"], is_it) << reading["slug"];
    served += is_it;
    reading.erase("served");
  }
  EXPECT_EQ(served, 1);
  EXPECT_EQ(body, rules_catalog_json());
}

TEST(ServerApi, MovesApplyFromTheEmptyBoardOrAPosition) {
  const Rules rules(kStandard);
  const json a = get_json("/api/v1/standard", {{"moves", "C4,t3"}});
  EXPECT_EQ(a["position"], "-/-/t/C/-/-/- w");
  EXPECT_EQ(a["moves_played"], json::array({"C4", "t3"}));
  expect_answer_matches_table(a, table_of(kStandard), play_moves(rules, kEmptyBoard, "C4,t3"));
  const json b = get_json("/api/v1/standard", {{"position", "-/-/-/C/-/-/- b"}, {"moves", "t3"}});
  EXPECT_EQ(b["position"], "-/-/t/C/-/-/- w");
  EXPECT_EQ(b["start"], "-/-/-/C/-/-/- b");
  // The supply: two of each kind less those on the board.
  EXPECT_EQ(
      a["supply"],
      json::parse(R"({"white":{"circle":1,"triangle":2},"black":{"circle":2,"triangle":1}})"));
  // Structured moves: a placement names its shape and space.
  for (const json& m : a["moves"]) {
    EXPECT_TRUE(m["from"].is_null());
    EXPECT_EQ(std::string(m["move"]),
              std::string(m["shape"] == "circle" ? "C" : "T") + std::to_string(int(m["to"])));
  }
}

TEST(ServerApi, GameOverAsData) {
  const json j = get_json("/api/v1/standard", {{"moves", "C1,c2,C4"}});
  EXPECT_EQ(j["category"], "win");
  EXPECT_EQ(j["plies"], 0);
  EXPECT_EQ(j["game_over"]["reason"], "line");
  EXPECT_EQ(j["game_over"]["line"], json::array({1, 2, 4}));
  EXPECT_EQ(j["game_over"]["loser"], "white");
  EXPECT_EQ(j["moves"], json::array());
  EXPECT_TRUE(j["engine_move"].is_null());
}

// A game into the movement phase that returns to an earlier position: rule 3
// ends it drawn, whatever the table says of the position alone.
TEST(ServerApi, RepetitionEndsTheGameDrawn) {
  const Rules rules(kStandard);
  const Tablebase& tb = table_of(kStandard);
  std::mt19937 rng(11);
  int found = 0;
  for (int game = 0; game < 400 && found < 5; ++game) {
    GameRecord rec(rules);
    while (!rec.over() && rec.plies() < 200) {
      const auto moves = careful_moves(rec.current(), legal_moves(rules, rec.current()));
      rec.play(moves[rng() % moves.size()]);
    }
    const auto end = rec.end();
    if (!end || end->reason != EndReason::kRepetition) continue;
    ++found;
    const json j = get_json("/api/v1/standard", {{"moves", rec.move_list()}});
    EXPECT_EQ(j["category"], "draw") << rec.move_list();
    EXPECT_TRUE(j["plies"].is_null());
    EXPECT_EQ(j["game_over"]["reason"], "repetition");
    EXPECT_EQ(j["table_category"], value_name(tb.probe(rec.current())->value));
    // One ply earlier, the repeating move is listed as a draw that repeats.
    rec.undo();
    const json before = get_json("/api/v1/standard", {{"moves", rec.move_list()}});
    bool saw_repeat = false;
    for (const json& m : before["moves"])
      if (m["repeats"] == true) {
        saw_repeat = true;
        EXPECT_EQ(m["category"], "draw") << m;
        EXPECT_TRUE(m["plies"].is_null()) << m;
      }
    EXPECT_TRUE(saw_repeat) << rec.move_list();
  }
  EXPECT_EQ(found, 5);
}

TEST(ServerApi, MainlinePlaysBestToTheEnd) {
  const Rules rules(kStandard);
  const Tablebase& tb = table_of(kStandard);
  for (const std::string& moves :
       {std::string("C4,t3,C3"), std::string("C1,c2"), std::string("C4")}) {
    SCOPED_TRACE(moves);
    const json j = get_json("/api/v1/standard/mainline", {{"moves", moves}});
    GameRecord rec = GameRecord::from_moves(rules, kEmptyBoard, moves);
    const Outcome start = *tb.probe(rec.current());
    EXPECT_EQ(j["category"], value_name(start.value));
    ASSERT_TRUE(j["mainline"].is_array());
    for (const json& step : j["mainline"]) {
      const Outcome before = *tb.probe(rec.current());
      rec.play(std::string(step["move"]));
      EXPECT_EQ(step["position"], format_position(rec.current()));
      // Each move keeps the value: the side to move after it has the
      // previous value seen from the other side, one ply later.
      const Outcome after = *tb.probe(rec.current());
      if (rec.end() && rec.end()->reason == EndReason::kRepetition) break;
      EXPECT_EQ(outcome_for_mover(after), before) << step;
      EXPECT_EQ(step["category"], value_name(after.value)) << step;
      EXPECT_EQ(step["plies"], plies_of(after)) << step;
    }
    ASSERT_TRUE(rec.over()) << "the main line stops before the end";
    EXPECT_EQ(j["end"]["reason"], end_reason_name(rec.end()->reason));
    if (start.value == Value::kDraw) {
      EXPECT_TRUE(j["winner"].is_null());
    } else {
      EXPECT_EQ(rec.plies() - GameRecord::from_moves(rules, kEmptyBoard, moves).plies(),
                start.plies);
      const Colour side = GameRecord::from_moves(rules, kEmptyBoard, moves).current().to_move();
      EXPECT_EQ(j["winner"], colour_name(start.value == Value::kWin ? side : opponent(side)));
    }
  }
}

TEST(ServerApi, InfoListsEveryTableWithItsCounts) {
  const json j = get_json("/api/v1/info");
  EXPECT_EQ(j["version"], "test");
  ASSERT_EQ(j["variants"].size(), 4u);
  for (const json& v : j["variants"]) {
    const Variant variant = *variant_from_name(std::string(v["name"]));
    const TablebaseHeader& h = table_of(variant).header();
    EXPECT_EQ(v["reachable"], h.reachable);
    EXPECT_EQ(v["win"], h.win);
    EXPECT_EQ(v["loss"], h.loss);
    EXPECT_EQ(v["draw"], h.draw);
    EXPECT_EQ(v["win"].get<std::uint64_t>() + v["loss"].get<std::uint64_t>() +
                  v["draw"].get<std::uint64_t>(),
              h.reachable);
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h.checksum));
    EXPECT_EQ(v["checksum"], hex);
  }
}

TEST(ServerApi, ErrorsNameTheProblem) {
  struct Case {
    std::string path;
    std::multimap<std::string, std::string> params;
    int status;
    std::string words;
  };
  const std::string long_moves(5000, 'C');
  const std::vector<Case> cases = {
      {"/api/v1/standard", {}, 400, "position= or moves="},
      {"/api/v1/standard", {{"position", "x/-/-/-/-/-/- w"}}, 400, "unknown character"},
      {"/api/v1/standard", {{"position", "-/-/-/-/-/- w"}}, 400, "7 stacks"},
      {"/api/v1/standard", {{"position", "CTc/-/-/-/-/-/- b"}}, 400, "stack cap"},
      {"/api/v1/standard", {{"moves", "C4,Q9"}}, 400, "Q9"},
      {"/api/v1/standard", {{"moves", "C1,c2,C4,c3"}}, 400, "already over"},
      {"/api/v1/standard", {{"moves", "C4"}, {"moves", "C5"}}, 400, "more than once"},
      {"/api/v1/standard", {{"moves", long_moves}}, 400, "longer than"},
      {"/api/v1/standard",
       {{"position", std::string("-/-/-\0/-/-/-/- w", 16)}},
       400,
       "control character"},
      {"/api/v1/standard", {{"position", "-/-/-/\xff/-/-/- w"}}, 400, "not UTF-8"},
      {"/api/v1/standard", {{"position", "-/-/-/\xc3/-/-/- w"}}, 400, "not UTF-8"},
      {"/api/v1/standard", {{"position", "C/T/c/C/t/-/c w"}}, 422, "no game reaches"},
      {"/api/v1/cap4", {{"moves", "C4"}}, 404, "unknown variant"},
      {"/api/v1/standard/nothing", {{"moves", "C4"}}, 404, "no such route"},
      {"/nothing", {}, 404, "no such route"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.path + " " + (c.params.empty() ? "" : c.params.begin()->second.substr(0, 40)));
    const Response r = get(c.path, c.params);
    EXPECT_EQ(r.status, c.status) << r.body;
    EXPECT_EQ(r.content_type, "application/json");
    const json j = parse_json(r.body);  // valid JSON even for invalid UTF-8 input
    ASSERT_TRUE(j.is_object() && j["error"].is_string()) << r.body;
    EXPECT_NE(std::string(j["error"]).find(c.words), std::string::npos) << j;
    EXPECT_EQ(j.size(), 1u);
  }
  Request post;
  post.method = "POST";
  post.path = "/api/v1/standard";
  EXPECT_EQ(api().handle(post).status, 405);
}

TEST(ServerApi, ANotServedVariantIs404) {
  std::vector<server::ServedTable> one;
  one.push_back({open_tablebase(table_path(kStandard), kStandard), table_path(kStandard)});
  const Api only(std::move(one), "test");
  Request r;
  r.path = "/api/v1/cap3";
  r.params = {{"moves", "C4"}};
  const Response res = only.handle(r);
  EXPECT_EQ(res.status, 404);
  EXPECT_NE(res.body.find("not served"), std::string::npos) << res.body;
  EXPECT_EQ(parse_json(only.handle(Request{"GET", "/api/v1/info", {}, ""}).body)["variants"].size(),
            1u);
}

// The answer cache: a small one, overflowing many times, answers exactly as
// no cache does (and as a second ask of the same question).
TEST(ServerApi, ABoundedCacheAnswersAsNoCache) {
  const auto tables = [] {
    std::vector<server::ServedTable> t;
    t.push_back({open_tablebase(table_path(kStandard), kStandard), table_path(kStandard)});
    return t;
  };
  const Api small(tables(), "test", 64 * 1024), none(tables(), "test", 0);
  const std::vector<State> sample = sample_positions(kStandard, 60, 5, 40, 40);
  for (int pass = 0; pass < 2; ++pass)
    for (const State st : sample) {
      const Request r{"GET", "/api/v1/standard", {{"position", format_position(st)}}, ""};
      const Response a = small.handle(r), b = none.handle(r);
      ASSERT_EQ(a.status, 200);
      EXPECT_EQ(a.body, b.body);
      EXPECT_EQ(a.headers, b.headers);
    }
  EXPECT_GT(sample.size(), 500u);
}

TEST(ServerApi, CachingAndCorsHeaders) {
  const auto header = [](const Response& r, const std::string& key) {
    for (const auto& [k, v] : r.headers)
      if (k == key) return v;
    return std::string();
  };
  const Response a = get("/api/v1/standard", {{"moves", "C4"}});
  EXPECT_EQ(header(a, "Access-Control-Allow-Origin"), "*");
  EXPECT_NE(header(a, "Cache-Control").find("max-age="), std::string::npos);
  const std::string etag = header(a, "ETag");
  ASSERT_FALSE(etag.empty());
  EXPECT_EQ(header(get("/api/v1/standard", {{"moves", "C4"}}), "ETag"), etag);
  EXPECT_NE(header(get("/api/v1/standard", {{"moves", "C5"}}), "ETag"), etag);
  Request again{"GET", "/api/v1/standard", {{"moves", "C4"}}, etag};
  const Response cached = api().handle(again);
  EXPECT_EQ(cached.status, 304);
  EXPECT_TRUE(cached.body.empty());
  // Errors are not cached.
  EXPECT_TRUE(header(get("/api/v1/standard", {{"moves", "Q9"}}), "ETag").empty());
}

// A request whose Interrupt fires (the server's deadline, here already
// past; or its client gone) is answered 503 naming why, and that answer is
// not kept: the same request without it is computed (200, the report).
TEST(ServerApi, AnInterruptedAnalysisIs503AndNotCached) {
  for (const char* route : {"/api/v2/cap3-projective", "/api/v1/cap3-projective/mainline"}) {
    SCOPED_TRACE(route);
    Request r;
    r.path = route;
    r.params = {{"moves", "C4,t1,C5,c6,T1,t4,T4,c2,1-5,6-1,5-1"}};
    r.interrupt = Interrupt().until(Interrupt::Clock::now());
    const Response stopped = api().handle(r);
    EXPECT_EQ(stopped.status, 503);
    EXPECT_NE(json::parse(stopped.body)["error"].get<std::string>().find("deadline"),
              std::string::npos)
        << stopped.body;
    auto flag = std::make_shared<std::atomic<bool>>(true);
    r.interrupt = Interrupt::when_set(flag);
    const Response gone = api().handle(r);
    EXPECT_EQ(gone.status, 503);
    EXPECT_NE(gone.body.find("cancelled"), std::string::npos) << gone.body;
    r.interrupt = {};
    const Response answered = api().handle(r);
    EXPECT_EQ(answered.status, 200) << answered.body;
    EXPECT_EQ(json::parse(answered.body)["position"],
              format_position(GameRecord::from_moves(Rules(kCap3Projective), kEmptyBoard,
                                                     "C4,t1,C5,c6,T1,t4,T4,c2,1-5,6-1,5-1")
                                  .current()));
  }
  // A batch polls once an item.
  Request post;
  post.method = "POST";
  post.path = "/api/v2/standard/batch";
  post.body = R"({"items": ["moves: C4,t3"]})";
  post.interrupt = Interrupt().until(Interrupt::Clock::now());
  EXPECT_EQ(api().handle(post).status, 503);
}

TEST(ServerApi, ParametersNoRouteReadsShareTheCachedAnswer) {
  const auto etag_of = [](const Response& r) {
    for (const auto& [k, v] : r.headers)
      if (k == "ETag") return v;
    return std::string();
  };
  const Response plain = get("/api/v1/standard", {{"moves", "C4,t3"}});
  ASSERT_EQ(plain.status, 200);
  for (const auto& extra : {std::pair<std::string, std::string>{"_", "1733400000"},
                            {"cachebuster", "x"},
                            {"zz", "C5"}}) {
    const Response r = get("/api/v1/standard", {{"moves", "C4,t3"}, extra});
    EXPECT_EQ(r.status, 200) << extra.first;
    EXPECT_EQ(r.body, plain.body) << extra.first;
    EXPECT_EQ(etag_of(r), etag_of(plain)) << extra.first;
  }
  // A parameter a route reads still tells answers apart.
  EXPECT_NE(etag_of(get("/api/v1/standard", {{"moves", "C4,t3"}, {"position", "-/-/-/-/-/-/- w"}})),
            etag_of(plain));
}

TEST(ServerApi, PagesAndBoardPicture) {
  const Response page = get("/");
  EXPECT_EQ(page.status, 200);
  EXPECT_EQ(page.content_type, "text/html; charset=utf-8");
  EXPECT_NE(page.body.find("<html"), std::string::npos);
  EXPECT_EQ(page.body.find("https://"), std::string::npos)
      << "the page must not load from the network";
  const Response doc = get("/api");
  EXPECT_NE(doc.body.find("/api/v1/{variant}/mainline"), std::string::npos);
  const Response svg = get("/api/v1/standard/svg", {{"moves", "C1,c2,C4"}});
  EXPECT_EQ(svg.status, 200);
  EXPECT_EQ(svg.content_type, "image/svg+xml");
  EXPECT_NE(svg.body.find("<title>C/c/-/C/-/-/- b</title>"), std::string::npos);
  for (const int s : {1, 2, 4})
    EXPECT_NE(svg.body.find("class=\"line-highlight\" data-space=\"" + std::to_string(s) + "\""),
              std::string::npos)
        << s;
  for (int s = 1; s <= 7; ++s)
    EXPECT_NE(svg.body.find("class=\"space\" data-space=\"" + std::to_string(s) + "\""),
              std::string::npos);
}

// The value of a response header, or "" (the first of that name).
std::string header_of(const Response& r, const std::string& key) {
  for (const auto& [k, v] : r.headers)
    if (k == key) return v;
  return "";
}

// Every answer, errors and pages included, forbids sniffing,
// framing and referrers and carries a Content-Security-Policy; the explorer's
// allows its own script by hash, never inline scripts at large.
TEST(ServerApi, EveryAnswerCarriesSecurityHeaders) {
  const std::vector<Response> answers = {
      get("/api/v1/standard", {{"moves", "C4"}}),
      get("/api/v1/standard", {{"moves", "Q9"}}),
      get("/api/v1/standard/svg", {{"moves", "C4"}}),
      get("/api/v1/info"),
      get("/nothing"),
      get("/"),
      get("/api"),
  };
  for (const Response& r : answers) {
    SCOPED_TRACE(r.content_type + " " + std::to_string(r.status));
    EXPECT_EQ(header_of(r, "X-Content-Type-Options"), "nosniff");
    EXPECT_EQ(header_of(r, "X-Frame-Options"), "DENY");
    EXPECT_EQ(header_of(r, "Referrer-Policy"), "no-referrer");
    const std::string csp = header_of(r, "Content-Security-Policy");
    EXPECT_NE(csp.find("default-src 'none'"), std::string::npos) << csp;
    EXPECT_NE(csp.find("frame-ancestors 'none'"), std::string::npos) << csp;
  }
  const std::string page = header_of(answers[5], "Content-Security-Policy");
  const std::size_t script = page.find("script-src ");
  ASSERT_NE(script, std::string::npos) << page;
  const std::string sources = page.substr(script, page.find(';', script) - script);
  EXPECT_NE(sources.find("'sha256-"), std::string::npos) << sources;
  EXPECT_EQ(sources.find("unsafe"), std::string::npos) << sources;
  EXPECT_NE(page.find("connect-src 'self'"), std::string::npos) << page;
  // A revalidated answer keeps them.
  Request again{"GET", "/api/v1/standard", {{"moves", "C4"}}, header_of(answers[0], "ETag")};
  const Response not_modified = api().handle(again);
  EXPECT_EQ(not_modified.status, 304);
  EXPECT_EQ(header_of(not_modified, "X-Content-Type-Options"), "nosniff");
}

// The tables are named by their file, not by a folder of the server's machine.
TEST(ServerApi, InfoNamesEachTableByItsFileNameOnly) {
  const json j = get_json("/api/v1/info");
  ASSERT_EQ(j["variants"].size(), 4u);
  for (const json& v : j["variants"]) {
    const Variant variant = *variant_from_name(std::string(v["name"]));
    EXPECT_EQ(v["table"], fs::path(table_path(variant)).filename().string());
  }
  EXPECT_EQ(get("/api/v1/info").body.find(tables_folder()), std::string::npos);
}

// The picture of a position no game reaches is refused as its JSON is.
TEST(ServerApi, SvgOfAnUnreachablePositionIs422) {
  const std::multimap<std::string, std::string> unreachable{{"position", "C/T/c/C/t/-/c w"}};
  const json j = get_json("/api/v1/standard/svg", unreachable, 422);
  EXPECT_EQ(j, get_json("/api/v1/standard", unreachable, 422));
  // A position with moves played from it: the position reached is what counts.
  EXPECT_EQ(get("/api/v1/standard/svg", {{"position", "-/-/-/C/-/-/- b"}, {"moves", "t3"}}).status,
            200);
}

// The batch route: each item answered as the GET route answers it alone (the
// same report), or with value_only as the table's probe says.
Response post_batch(const std::string& path, const std::string& body) {
  Request r;
  r.method = "POST";
  r.path = path;
  r.body = body;
  return api().handle(r);
}

TEST_P(ServerVariant, BatchAnswersEachItemAsTheSingleRouteDoes) {
  const Variant v = GetParam();
  const Tablebase& tb = table_of(v);
  const std::vector<State> sample = sample_positions(v, 8, 777u + v.stack_cap, 40, 40);
  ASSERT_GT(sample.size(), 20u);
  json items = json::array();
  for (const State st : sample) items.push_back(format_position(st));
  items.push_back("moves: C4,t3");
  const std::string path = "/api/v2/" + variant_slug(v) + "/batch";
  for (const bool value_only : {false, true}) {
    const Response r = post_batch(path, json{{"items", items}, {"value_only", value_only}}.dump());
    ASSERT_EQ(r.status, 200) << r.body;
    const json j = parse_json(r.body);
    EXPECT_EQ(j["variant"], variant_slug(v));
    ASSERT_EQ(j["answers"].size(), items.size());
    for (std::size_t i = 0; i < items.size(); ++i) {
      const json& a = j["answers"][i];
      const std::string item = items[i];
      const bool moves = item.rfind("moves: ", 0) == 0;
      const json single = get_json("/api/v2/" + variant_slug(v),
                                   {{moves ? "moves" : "position", moves ? item.substr(7) : item}});
      if (value_only) {
        const State st = moves ? play_moves(Rules(v), kEmptyBoard, "C4,t3") : sample[i];
        const Outcome o = *tb.probe(st);
        EXPECT_EQ(a, (json{{"position", format_position(st)},
                           {"value", value_name(o.value)},
                           {"plies", plies_of(o)}}));
      } else {
        for (const char* k :
             {"position", "value", "plies", "moves", "engine_move", "pv", "game_over"})
          EXPECT_EQ(a[k], single[k]) << item << " " << k;
      }
    }
  }
}

TEST(ServerApi, BatchIsBoundedAndRefusesBadItemsWhole) {
  const std::string path = "/api/v2/standard/batch";
  const auto error_of = [&](const std::string& body, int status) {
    const Response r = post_batch(path, body);
    EXPECT_EQ(r.status, status) << body.substr(0, 80) << ": " << r.body;
    const json j = parse_json(r.body);
    EXPECT_EQ(j.size(), 1u);
    return std::string(j["error"]);
  };
  json many = json::array();
  for (std::size_t i = 0; i <= server::kMaxBatchItems; ++i) many.push_back("moves: C4");
  EXPECT_NE(error_of(json{{"items", many}}.dump(), 413).find("at most 1000"), std::string::npos);
  many.erase(many.begin());  // exactly the bound is answered
  EXPECT_EQ(post_batch(path, json{{"items", many}, {"value_only", true}}.dump()).status, 200);
  EXPECT_NE(error_of("[1,2", 400).find("not JSON"), std::string::npos);
  EXPECT_NE(error_of(R"({"positions":[]})", 400).find("items"), std::string::npos);
  EXPECT_NE(error_of(R"({"items":["moves: C4"],"value_only":"yes"})", 400).find("value_only"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"items":["moves: C4", 7]})", 400).find("batch item 2 is not a string"),
            std::string::npos);
  const std::string bad = error_of(R"({"items":["moves: C4", "moves: C4,Q9"]})", 400);
  EXPECT_NE(bad.find("batch item 2"), std::string::npos) << bad;
  EXPECT_NE(bad.find("Q9"), std::string::npos) << bad;
  EXPECT_NE(error_of(R"({"items":["C/T/c/C/t/-/c w"]})", 422).find("no game reaches"),
            std::string::npos);
  // The route takes POST only, and POST reaches no other route.
  EXPECT_EQ(get(path).status, 405);
  EXPECT_EQ(post_batch("/api/v2/standard", R"({"items":[]})").status, 405);
  EXPECT_EQ(post_batch("/api/v1/standard/batch", R"({"items":[]})").status, 405);
  EXPECT_EQ(post_batch("/api/v2/cap4/batch", R"({"items":[]})").status, 404);
}

// The limits docs/api.md gives a client are the server's: its numbers and
// its quoted refusals, at the bound and one past it.
TEST(ServerApi, TheLimitsTheApiReferenceDocumentsAreTheServers) {
  const std::string doc = read_text(fs::path(FANO_SOURCE_DIR) / "docs" / "api.md");
  const std::size_t at = doc.find("\n## Limits\n");
  ASSERT_NE(at, std::string::npos) << "docs/api.md has no Limits section";
  const std::string limits = doc.substr(at, doc.find("\n## ", at + 1) - at);
  for (const std::string& said : {std::string("4,096 bytes"), std::string("at most 1,000 items"),
                                  std::to_string(server::kBodyLimit / 1024) + " KiB",
                                  std::to_string(server::kHeaderLimit / 1024) + " KiB",
                                  std::string("parameter 'moves' is longer than 4096 bytes"),
                                  std::string("batch item N is longer than 4096 bytes"),
                                  std::string("too many batch items: N (at most 1000)")})
    EXPECT_NE(limits.find(said), std::string::npos) << said;
  EXPECT_EQ(server::kMaxBatchItems, 1000u);

  // 4,096 bytes of moves= are read (C4 and spaces), one more is refused.
  const std::string moves = "C4" + std::string(4094, ' ');
  EXPECT_EQ(get("/api/v2/standard", {{"moves", moves}}).status, 200);
  const Response longer = get("/api/v2/standard", {{"moves", moves + " "}});
  EXPECT_EQ(longer.status, 400);
  EXPECT_EQ(parse_json(longer.body)["error"], "parameter 'moves' is longer than 4096 bytes");
  const Response item = post_batch("/api/v2/standard/batch",
                                   json{{"items", {"moves: C4" + std::string(4088, ' ')}}}.dump());
  EXPECT_EQ(item.status, 400);
  EXPECT_EQ(parse_json(item.body)["error"], "batch item 1 is longer than 4096 bytes");
  EXPECT_EQ(post_batch("/api/v2/standard/batch",
                       json{{"items", {"moves: C4" + std::string(4087, ' ')}}}.dump())
                .status,
            200);
}

// The players' route: each player's move is legal and is the move the player
// (fano/players.hpp) makes with game_rng(seed, ply); a weaker player loses to
// the engine in a seeded game played through the route.
TEST(ServerApi, PlayersMoveLegallyAsTheLibraryChooses) {
  const Rules rules(kStandard);
  const Tablebase& tb = table_of(kStandard);
  // the empty board, an opening, and a movement-phase position the engine's game reaches
  std::string ten;
  const EngineGame opening = engine_game(tb, GameRecord(rules, kEmptyBoard), 10);
  for (const Move& m : opening.game.moves()) ten += (ten.empty() ? "" : ",") + format_move(m);
  for (const char* name : {"random", "greedy", "search:1", "search:3", "perfect", "engine"}) {
    for (const std::string& moves : {std::string(), std::string("C4,t3"), ten}) {
      const GameRecord game = GameRecord::from_moves(rules, kEmptyBoard, moves);
      const json j =
          get_json("/api/v2/standard/player", {{"player", name}, {"seed", "42"}, {"moves", moves}});
      Rng rng = game_rng(42, game.moves().size());
      const Move want = choose_player_move(parse_player(name), &tb, game, rng).move;
      EXPECT_EQ(j["move"], format_move(want)) << name << " " << moves;
      const auto legal = legal_moves(rules, game.current());
      EXPECT_NE(std::find(legal.begin(), legal.end(), want), legal.end());
      EXPECT_EQ(j["player"], name);
    }
  }
  EXPECT_NE(std::string(get_json("/api/v2/standard/player", {{"player", "search:5"}, {"moves", ""}},
                                 400)["error"])
                .find("at most 4"),
            std::string::npos);
  EXPECT_NE(std::string(get_json("/api/v2/standard/player", {{"player", "best"}, {"moves", ""}},
                                 400)["error"])
                .find("unknown player"),
            std::string::npos);
  EXPECT_NE(
      std::string(get_json("/api/v2/standard/player",
                           {{"player", "greedy"}, {"seed", "-1"}, {"moves", ""}}, 400)["error"])
          .find("seed"),
      std::string::npos);
  EXPECT_EQ(get("/api/v2/standard/player", {{"player", "greedy"}, {"moves", "C1,c2,C4"}}).status,
            400);
  EXPECT_EQ(get("/api/v1/standard/player", {{"player", "greedy"}, {"moves", ""}}).status, 404);

  // The levels for people: nonlosing never picks a losing move when another
  // exists; perfect:1 always keeps the value; perfect:0.5 sometimes does not.
  // Judged by the table's probe of the position each move reaches.
  const auto mover_value = [&](const GameRecord& g, const std::string& text) {
    GameRecord after = g;
    after.play(std::string_view(text));
    if (after.over())
      return after.end()->loser ? Value::kLoss : Value::kDraw;  // the mover formed a line
    const Value theirs = tb.probe(after.current())->value;
    return theirs == Value::kWin    ? Value::kLoss
           : theirs == Value::kLoss ? Value::kWin
                                    : Value::kDraw;
  };
  int slips = 0;
  for (int seed = 1; seed <= 12; ++seed) {
    const GameRecord g = GameRecord::from_moves(rules, kEmptyBoard, ten);
    const Value best = tb.probe(g.current())->value;
    bool any_safe = false;
    for (const Move& m : legal_moves(rules, g.current()))
      any_safe |= mover_value(g, format_move(m)) != Value::kLoss;
    const std::multimap<std::string, std::string> q{{"seed", std::to_string(seed)}, {"moves", ten}};
    auto with = [&](const char* player) {
      auto p = q;
      p.emplace("player", player);
      return std::string(get_json("/api/v2/standard/player", p)["move"]);
    };
    if (any_safe) {
      EXPECT_NE(mover_value(g, with("nonlosing")), Value::kLoss);
    }
    EXPECT_EQ(mover_value(g, with("perfect:1")), best);
    slips += mover_value(g, with("perfect:0.5")) != best;
  }
  EXPECT_GT(slips, 0);
  EXPECT_EQ(get("/api/v2/standard/player", {{"player", "perfect:1.5"}, {"moves", ""}}).status, 400);

  // greedy (White) against the engine (Black), seeded: the table says who should win.
  int engine_wins = 0;
  for (const std::string seed : {"1", "2", "3", "4", "5", "6", "7", "8"}) {
    std::string moves;
    for (int ply = 0; ply < 200; ++ply) {
      const json pos = get_json("/api/v1/standard", {{"moves", moves}});
      if (!pos["game_over"].is_null()) {
        if (pos["game_over"]["loser"] == "white") ++engine_wins;
        break;
      }
      const json m =
          get_json("/api/v2/standard/player",
                   {{"player", ply % 2 ? "engine" : "greedy"}, {"seed", seed}, {"moves", moves}});
      if (!moves.empty()) moves += ',';
      moves += m["move"].get<std::string>();
    }
  }
  EXPECT_GT(engine_wins, 0);
}

// Puzzles: in the position given, exactly one move keeps the side to move's
// value, counted here from the table's probes of every child (not the
// analysis' ratings); the same seed gives the same puzzle.
TEST_P(ServerVariant, PuzzleHasExactlyOneMoveKeepingTheValue) {
  const Variant v = GetParam();
  const Rules rules(v);
  const Tablebase& tb = table_of(v);
  const std::string path = "/api/v2/" + variant_slug(v) + "/puzzle";
  for (const char* seed : {"1", "2", "3", "99"}) {
    const json p = get_json(path, {{"seed", seed}});
    ASSERT_TRUE(p.contains("position")) << p;
    EXPECT_EQ(p, get_json(path, {{"seed", seed}}));
    const State st = parse_position(std::string(p["position"]), v);
    const Outcome value = *tb.probe(st);
    EXPECT_EQ(p["value"], value_name(value.value));
    EXPECT_NE(value.value, Value::kLoss);
    int keeping = 0, tempting = 0;
    std::string solution;
    for (const Move& m : legal_moves(rules, st)) {
      const State child = apply_move(st, m);
      const bool line_formed = game_over(rules, child) == GameOver::kLine;
      const Value theirs = tb.probe(child)->value;
      const Value mine = line_formed              ? Value::kLoss
                         : theirs == Value::kWin  ? Value::kLoss
                         : theirs == Value::kLoss ? Value::kWin
                                                  : Value::kDraw;
      if (mine == value.value) {
        ++keeping;
        solution = format_move(m);
      } else if (!line_formed) {
        ++tempting;
      }
    }
    EXPECT_EQ(keeping, 1) << p;
    EXPECT_EQ(p["solution"], solution);
    EXPECT_EQ(p["tempting"], tempting);
  }
  EXPECT_EQ(get(path, {{"seed", "x"}}).status, 400);
}

// Statistics: every reachable position counted once (the sums by plies equal
// the solver's totals in the header), the longest win as `fano facts` finds
// it, each longest line a game that ends with the side to move's opponent losing.
TEST(ServerApi, StatsCountEveryPositionAndTheLongestWins) {
  const Tablebase& tb = table_of(kStandard);
  const json s = get_json("/api/v2/standard/stats");
  std::uint64_t wins = 0, losses = 0, draw_classes = 0;
  int longest = 0;
  for (const json& r : s["by_plies"]) {
    wins += std::uint64_t(r["win"]);
    losses += std::uint64_t(r["loss"]);
    if (r["win"] > 0) longest = std::max(longest, int(r["plies"]));
  }
  EXPECT_EQ(wins, tb.header().win);
  EXPECT_EQ(losses, tb.header().loss);
  for (std::size_t i = 0; i < tb.size(); ++i)
    draw_classes += tb.outcome_at(i).value == Value::kDraw;
  EXPECT_EQ(s["draw_classes"], draw_classes);
  EXPECT_EQ(s["classes"], tb.size());
  EXPECT_EQ(s["positions"]["reachable"], tb.header().reachable);
  EXPECT_EQ(longest, longest_forced_win(tb).value.plies);
  const Rules rules(kStandard);
  ASSERT_FALSE(s["longest_wins"].empty());
  for (const json& w : s["longest_wins"]) {
    EXPECT_EQ(w["plies"], longest);
    GameRecord game(rules, parse_position(std::string(w["position"]), kStandard));
    const Colour winner = game.current().to_move();
    for (const json& m : w["line"]) game.play(std::string(m));
    ASSERT_TRUE(game.over());
    EXPECT_EQ(game.end()->loser, opponent(winner));
    EXPECT_EQ(w["line"].size(), std::size_t(longest));
  }
}

// ---------------------------------------------------------------------------
// Real HTTP on 127.0.0.1, an ephemeral port

class LiveServer : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server::ServerOptions o;
    o.port = 0;
    o.threads = 32;
    o.read_timeout = std::chrono::milliseconds(1000);
    http_ = new server::HttpServer(api(), o);
    port_ = http_->start();
    thread_ = new std::thread([] { http_->run(); });
  }
  static void TearDownTestSuite() {
    http_->stop();
    thread_->join();
    delete thread_;
    delete http_;
  }
  static httplib::Client client() {
    httplib::Client c("127.0.0.1", port_);
    c.set_read_timeout(10, 0);
    return c;
  }
  // Sends raw bytes on a new connection and returns everything the server
  // sends back until it closes the connection (or `wait_ms` pass in silence).
  static std::string raw(const std::string& bytes, int wait_ms = 3000, bool* closed = nullptr) {
    const int fd = connect_socket();
    if (fd < 0) return "";
    (void)!::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    std::string out = read_until_closed(fd, wait_ms, closed);
    ::close(fd);
    return out;
  }
  static int connect_socket() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(std::uint16_t(port_));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
      ::close(fd);
      return -1;
    }
    return fd;
  }
  static int port_;
  static server::HttpServer* http_;
  static std::thread* thread_;
};

int LiveServer::port_ = 0;
server::HttpServer* LiveServer::http_ = nullptr;
std::thread* LiveServer::thread_ = nullptr;

// Every byte but letters, digits and "-._~/," as %XX.
std::string percent_encoded(const std::string& s) {
  std::string out;
  for (const unsigned char c : s) {
    if (std::isalnum(c) || std::strchr("-._~/,", c)) {
      out += char(c);
    } else {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      out += buf;
    }
  }
  return out;
}

long rss_kib() {
  std::ifstream in("/proc/self/status");
  std::string key;
  long value = 0;
  while (in >> key)
    if (key == "VmRSS:" && in >> value) return value;
  return -1;
}

TEST_F(LiveServer, AnswersOverHttpWithHeaders) {
  httplib::Client c = client();
  const auto r = c.Get("/api/v1/standard?moves=C4,t3");
  ASSERT_TRUE(r) << httplib::to_string(r.error());
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->get_header_value("Content-Type"), "application/json");
  EXPECT_EQ(r->get_header_value("Access-Control-Allow-Origin"), "*");
  EXPECT_EQ(r->body, get("/api/v1/standard", {{"moves", "C4,t3"}}).body);
  // '+' and %20 decode to the space of a position, like '_'.
  for (const char* q : {"-/-/t/C/-/-/-+w", "-/-/t/C/-/-/-%20w", "-/-/t/C/-/-/-_w"}) {
    const auto p = c.Get((std::string("/api/v1/standard?position=") + q).c_str());
    ASSERT_TRUE(p);
    EXPECT_EQ(p->status, 200) << q << p->body;
    EXPECT_EQ(parse_json(p->body)["position"], "-/-/t/C/-/-/- w");
  }
  const auto etag = r->get_header_value("ETag");
  const auto cached = c.Get("/api/v1/standard?moves=C4,t3", {{"If-None-Match", etag}});
  ASSERT_TRUE(cached);
  EXPECT_EQ(cached->status, 304);
  const auto page = c.Get("/");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  const auto missing = c.Get("/api/v1/cap4?moves=C4");
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->status, 404);
  EXPECT_TRUE(parse_json(missing->body)["error"].is_string());
}

TEST_F(LiveServer, BatchIsPostedOverHttp) {
  httplib::Client c = client();
  const std::string body = R"({"items":["moves: C4,t3","-/-/t/C/-/-/- w"],"value_only":true})";
  const auto r = c.Post("/api/v2/standard/batch", body, "application/json");
  ASSERT_TRUE(r) << httplib::to_string(r.error());
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body, post_batch("/api/v2/standard/batch", body).body);
  EXPECT_EQ(parse_json(r->body)["answers"].size(), 2u);
  // A body over the server's 64 KB: refused before the Api, in the same JSON.
  std::string big = R"({"items":[)";
  for (int i = 0; i < 4000; ++i) big += std::string(i ? "," : "") + R"("moves: C4,t3")";
  big += "]}";
  const auto large = c.Post("/api/v2/standard/batch", big, "application/json");
  ASSERT_TRUE(large) << httplib::to_string(large.error());
  EXPECT_EQ(large->status, 413);
  EXPECT_TRUE(parse_json(large->body)["error"].is_string()) << large->body;
}

// A repeated parameter is refused whether or not its values differ
// (httplib's own parser drops a repeated "key=value" pair), with the security
// headers, as are httplib's own errors.
TEST_F(LiveServer, ARepeatedParameterIsRefusedEvenWithTheSameValue) {
  httplib::Client c = client();
  for (const char* path :
       {"/api/v1/standard?moves=C4&moves=C4", "/api/v1/standard?moves=C4&moves=t3",
        "/api/v1/standard?moves=C4&mo%76es=C4",
        "/api/v1/standard/svg?position=-/-/-/-/-/-/-_w&position=-/-/-/-/-/-/-_w"}) {
    SCOPED_TRACE(path);
    const auto r = c.Get(path);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 400);
    const json j = parse_json(r->body);
    ASSERT_TRUE(j.is_object() && j["error"].is_string()) << r->body;
    EXPECT_NE(std::string(j["error"]).find("given more than once"), std::string::npos) << j;
    EXPECT_EQ(r->get_header_value("X-Content-Type-Options"), "nosniff");
  }
  const auto once = c.Get("/api/v1/standard?moves=C4&position=-/-/-/-/-/-/-_w");
  ASSERT_TRUE(once);
  EXPECT_EQ(once->status, 200) << once->body;
  const std::string reply =
      raw("GET /?" + std::string(100 * 1024, 'a') + " HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(reply.substr(9, 3), "414") << reply.substr(0, 200);
  EXPECT_NE(reply.find("X-Content-Type-Options: nosniff"), std::string::npos)
      << reply.substr(0, 400);
}

TEST_F(LiveServer, ConcurrentClientsAllAnsweredRight) {
  // The expected answers, from the Api directly, for positions of a sample.
  const std::vector<State> sample = sample_positions(kStandard, 20, 99, 40, 40);
  std::vector<std::pair<std::string, std::string>> expected;
  for (const State st : sample) {
    std::string text = format_position(st);
    std::replace(text.begin(), text.end(), ' ', '_');
    expected.push_back({"/api/v1/standard?position=" + percent_encoded(text),
                        get("/api/v1/standard", {{"position", text}}).body});
  }
  std::atomic<int> right{0}, wrong{0};
  std::vector<std::thread> clients;
  for (int t = 0; t < 8; ++t)
    clients.emplace_back([&, t] {
      httplib::Client c = client();
      for (int i = 0; i < 500; ++i) {
        const auto& [path, body] =
            expected[(std::size_t(t) * 131 + std::size_t(i)) % expected.size()];
        const auto r = c.Get(path.c_str());
        (r && r->status == 200 && r->body == body ? right : wrong)++;
      }
    });
  for (auto& th : clients) th.join();
  EXPECT_EQ(right, 4000);
  EXPECT_EQ(wrong, 0);
}

TEST_F(LiveServer, HostileRequestsGet4xxAndTheServerKeepsAnswering) {
  struct Case {
    std::string request;
    std::string status;
  };
  const std::string big(100 * 1024, 'a');
  const std::vector<Case> cases = {
      {"GET /api/v1/standard?position=" + big + " HTTP/1.1\r\nHost: x\r\n\r\n", "414"},
      {"GET /api/v1/standard?moves=%zz%4 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", "400"},
      {"GET /api/v1/standard?position=-/-/%00/-/-/-/-_w HTTP/1.1\r\nHost: x\r\nConnection: "
       "close\r\n\r\n",
       "400"},
      {std::string(
           "GET /api/v1/standard?moves=C4\0 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 66),
       "400"},
      {"GET /api/v1/standard?position=%ff%fe HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
       "400"},
      {"GET /api/v1/standard HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", "400"},
      {"BREW /api/v1/standard?moves=C4 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", "400"},
      {"DELETE /api/v1/standard?moves=C4 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", "405"},
      {"GET /api/v1/standard?moves=C4 HTTP/1.1\r\nHost: x\r\nX: " + std::string(20000, 'h') +
           "\r\n\r\n",
       "4"},
      {std::string("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 not http\r\n\r\n", 25), "400"},
      {"GET /\r\n\r\n", "4"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(::testing::PrintToString(c.request.substr(0, 60)));
    const std::string reply = raw(c.request);
    ASSERT_GE(reply.size(), 12u) << "no answer";
    EXPECT_EQ(reply.substr(9, c.status.size()), c.status) << reply.substr(0, 200);
    EXPECT_NE(reply.find("\r\n\r\n{\"error\":"), std::string::npos) << reply.substr(0, 300);
  }
  // A request that never ends its line is dropped at the read timeout (1 s);
  // bytes that cannot start a request are refused at once.
  bool closed = false;
  EXPECT_EQ(raw("GET /api/v1/sta", 60000, &closed), "");
  EXPECT_TRUE(closed) << "the server held a connection that sent nothing more";
  EXPECT_EQ(raw("\x16\x03\x01\x02", 60000, &closed).substr(0, 12), "HTTP/1.1 400");
  EXPECT_TRUE(closed);
  httplib::Client cl = client();
  const auto r = cl.Get("/api/v1/standard?moves=C4");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
}

TEST_F(LiveServer, ASlowClientDoesNotHoldTheServer) {
  // A client that sends its request one byte every 300 ms, on four connections.
  std::atomic<bool> done{false};
  std::vector<std::thread> slow;
  for (int k = 0; k < 4; ++k)
    slow.emplace_back([&] {
      const int fd = connect_socket();
      const std::string req = "GET /api/v1/standard?moves=C4 HTTP/1.1\r\nHost: x\r\n\r\n";
      for (std::size_t i = 0; i < req.size() && !done; ++i) {
        if (::send(fd, &req[i], 1, MSG_NOSIGNAL) != 1) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
      }
      ::close(fd);
    });
  // A client that sends half a request and then nothing is dropped after the
  // read timeout (1 s here).
  const int idle = connect_socket();
  ASSERT_GE(idle, 0);
  (void)!::send(idle, "GET /api/v1/sta", 15, MSG_NOSIGNAL);
  // Meanwhile everyone else is answered.
  httplib::Client c = client();
  for (int i = 0; i < 200; ++i) {
    const auto r = c.Get("/api/v1/standard?moves=C4,t3");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200);
  }
  bool closed = false;
  const std::string idle_reply = read_until_closed(idle, 60000, &closed);
  ::close(idle);
  EXPECT_TRUE(closed) << "the server held a connection that sent half a request";
  EXPECT_TRUE(idle_reply.empty() || idle_reply.rfind("HTTP/1.1 4", 0) == 0) << idle_reply;
  done = true;
  for (auto& th : slow) th.join();
}

TEST_F(LiveServer, ThousandsOfDroppedConnectionsAndBoundedMemory) {
  httplib::Client c = client();
  ASSERT_TRUE(c.Get("/api/v1/standard?moves=C4"));
  const long before = rss_kib();
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 1000; ++i) {
      const int fd = connect_socket();
      ASSERT_GE(fd, 0) << "connection " << i << " refused";
      if (i % 3 == 1) (void)!::send(fd, "GET /api/v1/standard?mo", 23, MSG_NOSIGNAL);
      if (i % 3 == 2) {
        linger l{1, 0};  // a reset instead of a close
        ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof l);
      }
      ::close(fd);
    }
    for (int i = 0; i < 300; ++i) {
      const auto r = c.Get("/api/v1/standard?moves=C4,t3");
      ASSERT_TRUE(r) << "round " << round << " request " << i;
      EXPECT_EQ(r->status, 200);
    }
  }
  const long after = rss_kib();
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer keeps freed memory in quarantine: no bound on resident memory";
#endif
  EXPECT_LT(after - before, 64 * 1024)
      << "resident memory grew from " << before << " to " << after << " KiB";
}

// ---------------------------------------------------------------------------
// `fano serve`, the process

// Starts `fano serve --port 0` with `args`; returns its pid and URL (read from
// its first line of stdout, within 120 s).
struct ServeProcess {
  pid_t pid = -1;
  std::string url;
  TempDir dir;

  explicit ServeProcess(const std::vector<std::string>& args) {
    std::vector<std::string> all{"serve", "--port", "0"};
    all.insert(all.end(), args.begin(), args.end());
    pid = spawn_fano(all, (dir / "out").string(), (dir / "err").string());
    for (int i = 0; i < 1200 && url.empty(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      const std::string out = read_text(dir / "out");
      if (out.find('\n') != std::string::npos) url = out.substr(0, out.find('\n'));
    }
  }
  int port() const { return std::stoi(url.substr(url.rfind(':') + 1)); }
  std::string err() const { return read_text(dir / "err"); }
};

TEST(FanoServe, SolvesTheMissingTablesServesAndStopsOnSigterm) {
  TempDir tables;
  ServeProcess s({"--tables", tables.path().string()});
  ASSERT_FALSE(s.url.empty()) << s.err();
  EXPECT_EQ(s.url.rfind("http://127.0.0.1:", 0), 0u) << s.url;
  for (const Variant& v : kAllVariants)
    EXPECT_TRUE(fs::exists(tables / (variant_slug(v) + ".fanotb")))
        << "the solved table was not written: " << variant_slug(v);
  httplib::Client c("127.0.0.1", s.port());
  const auto r = c.Get("/api/v1/standard?moves=C4");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(parse_json(r->body)["category"], "draw");
  const auto other = c.Get("/api/v1/cap3?moves=C4");
  ASSERT_TRUE(other);
  EXPECT_EQ(other->status, 200);
  const auto info = c.Get("/api/v1/info");
  ASSERT_TRUE(info);
  EXPECT_EQ(parse_json(info->body)["variants"].size(), 4u);
  ::kill(s.pid, SIGTERM);
  const RunResult done = wait_fano(s.pid);
  EXPECT_EQ(done.exit_code, 0) << s.err();
}

TEST(FanoServe, ServesTheCommittedTablesAndStopsOnSigint) {
  ServeProcess s({"--tables", tables_folder(), "--threads", "4"});
  ASSERT_FALSE(s.url.empty()) << s.err();
  httplib::Client c("127.0.0.1", s.port());
  const auto info = c.Get("/api/v1/info");
  ASSERT_TRUE(info);
  EXPECT_EQ(parse_json(info->body)["variants"].size(), 4u);
  ::kill(s.pid, SIGINT);
  EXPECT_EQ(wait_fano(s.pid).exit_code, 0) << s.err();
}

TEST(FanoServe, BadArgumentsAndADamagedTable) {
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"serve", "--port", "70000"},
           {"serve", "--threads", "0"},
           {"serve", "--expensive", "0"},
           {"serve", "--read-timeout", "5"},
           {"serve", "--bind", "not-an-address", "--port", "0", "--tables", tables_folder()}}) {
    const RunResult r = run_fano(args);
    EXPECT_NE(r.exit_code, 0) << command_line(args);
    EXPECT_EQ(r.err_lines(), 1) << r.err;
  }
  TempDir tables;
  std::vector<std::uint8_t> bytes = read_bytes(table_path(kStandard));
  bytes[bytes.size() / 2] ^= 0x40;
  write_bytes(tables / "standard.fanotb", bytes);
  const RunResult r = run_fano({"serve", "--port", "0", "--tables", tables.path().string()});
  EXPECT_EQ(r.exit_code, exit_code_of(TablebaseErrorKind::kChecksum)) << r.err;
  EXPECT_EQ(r.err_lines(), 1) << r.err;
}

}  // namespace
}  // namespace fano
