// The HTTP API as a function (fano::api's Api, no network): answers against
// `fano query --json` and the table itself, every error case, history (rule
// 3), the main line, the batch, the players, puzzles and statistics, caching
// and security headers, and the route table. The HTTP server's tests are in
// test_server.cpp and test_server_http.cpp.
#include <atomic>
#include <set>
#include <thread>

#include "api_fixtures.hpp"
#include "fano/analysis.hpp"
#include "fano/analysis_json.hpp"
#include "fano/game_facts.hpp"
#include "fano/json.hpp"
#include "fano/notation.hpp"
#include "fano/players.hpp"
#include "fano/puzzles.hpp"
#include "fano/review.hpp"
#include "fano/rules_options.hpp"
#include "fano/stats.hpp"

namespace fano {
namespace {

using namespace fano::testing;
using nlohmann::json;
using server::Api;
using server::Request;
using server::Response;

// The API's plies, written out from an outcome (independently of the server's
// own conversion).
json plies_of(Outcome o) { return o.value == Value::kDraw ? json(nullptr) : json(o.plies); }

// A move's trap counted here from the table's probes of every reply: of the
// opponent's replies that form no line (all of them when each does), those
// whose result for her is worse than her value in the position the move reaches.
json trap_of(const Tablebase& tb, const Rules& rules, State child) {
  const Outcome best = *tb.probe(child);
  int errors = 0, choices = 0, all_errors = 0, all = 0;
  for (const Move& reply : legal_moves(rules, child)) {
    const State grandchild = apply_move(child, reply);
    const bool errs = !(outcome_for_mover(*tb.probe(grandchild)) == best);
    ++all, all_errors += errs;
    if (game_over(rules, grandchild) != GameOver::kLine) ++choices, errors += errs;
  }
  if (choices == 0) errors = all_errors, choices = all;
  return json{{"errors", errors}, {"choices", choices}};
}

// ---------------------------------------------------------------------------
// Positions: the API against the table and against `fano query --json`

// Every field of a position answer (of a position with no history) against
// the table: the value of the side to move; each move's result for its mover,
// its spaces and shape read from its notation, and a drawing move's trap.
void expect_answer_matches_table(const json& j, const Tablebase& tb, State st) {
  const Rules rules(tb.variant());
  const Outcome value = *tb.probe(st);
  EXPECT_EQ(j["position"], format_position(st));
  EXPECT_EQ(j["to_move"], colour_name(st.to_move()));
  EXPECT_EQ(j["value"], value_name(value.value));
  EXPECT_EQ(j["plies"], plies_of(value));
  const bool over = game_over(rules, st) != GameOver::kNone;
  EXPECT_EQ(j["game_over"].is_null(), !over) << j;
  ASSERT_EQ(j["moves"].size(), over ? 0u : legal_moves(rules, st).size()) << j;
  for (const json& m : j["moves"]) {
    const std::string text = m["move"];
    const State child = apply_move(st, resolve_move(rules, st, parse_move_text(text), text));
    EXPECT_EQ(m["position"], format_position(child));
    // For the mover: a win in n + 1 where the opponent loses in n.
    const Outcome c = *tb.probe(child);
    const Value mine = c.value == Value::kWin    ? Value::kLoss
                       : c.value == Value::kLoss ? Value::kWin
                                                 : Value::kDraw;
    EXPECT_EQ(m["result"], value_name(mine)) << m;
    EXPECT_EQ(m["plies"], c.value == Value::kDraw ? json(nullptr) : json(c.plies + 1)) << m;
    EXPECT_EQ(m["repeats"], false) << m;
    // "C4": a placement of a circle on 4 (from null); "1-7": a movement (shape null).
    if (text.find('-') == std::string::npos) {
      EXPECT_TRUE(m["from"].is_null()) << m;
      EXPECT_EQ(m["shape"], text[0] == 'C' || text[0] == 'c' ? "circle" : "triangle") << m;
      EXPECT_EQ(m["to"], text[1] - '0') << m;
    } else {
      EXPECT_EQ(m["from"], text[0] - '0') << m;
      EXPECT_TRUE(m["shape"].is_null()) << m;
      EXPECT_EQ(m["to"], text[2] - '0') << m;
    }
    EXPECT_EQ(m["trap"], mine == Value::kDraw ? trap_of(tb, rules, child) : json(nullptr)) << m;
  }
  // Best first for the mover.
  for (std::size_t i = 1; i < j["moves"].size(); ++i) {
    const auto outcome = [](const json& m) {
      const std::string r = m["result"];
      return Outcome{r == "win"    ? Value::kWin
                     : r == "loss" ? Value::kLoss
                                   : Value::kDraw,
                     std::uint16_t(m["plies"].is_null() ? 0 : int(m["plies"]))};
    };
    EXPECT_FALSE(better_for_mover(outcome(j["moves"][i]), outcome(j["moves"][i - 1])))
        << "not best first at " << j["moves"][i];
  }
}

// The report's fields of an API answer: every field of `fano query --json`,
// which the API's answer carries unchanged (the one serialiser).
json api_core(const json& a, const json& q) {
  json out = json::object();
  for (const auto& [k, v] : q.items()) out[k] = a.contains(k) ? a[k] : json("(missing)");
  return out;
}

class ApiVariant : public ::testing::TestWithParam<Variant> {};

TEST_P(ApiVariant, SampledPositionsMatchTheTableAndFanoQuery) {
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
    const json j = get_json("/api/v2/" + name, {{"position", text}});
    expect_answer_matches_table(j, tb, st);
    EXPECT_EQ(j["variant"], variant_slug(v));
    EXPECT_EQ(j["stack_cap"], v.stack_cap);
    // A subsample against the command line tool's own answer.
    if (rng() % 8 == 0 && queried < 12) {
      ++queried;
      const RunResult q = run_fano({"query", "--json", "--tb", table_path(v), format_position(st)});
      ASSERT_EQ(q.exit_code, 0) << q.err;
      const json query = parse_json(q.out);
      EXPECT_EQ(api_core(j, query), query) << format_position(st);
    }
  }
  EXPECT_GT(queried, 3);
  EXPECT_GT(sample.size(), 200u);
}

INSTANTIATE_TEST_SUITE_P(AllVariants, ApiVariant, ::testing::ValuesIn(kAllVariants),
                         variant_param_name);

TEST(Api, VariantNamesAndSlugs) {
  for (const Variant& v : kAllVariants) {
    EXPECT_EQ(variant_from_name(variant_short_name(v)), v);
    EXPECT_EQ(variant_from_name(variant_slug(v)), v);
    for (const std::string& name : {variant_slug(v), variant_short_name(v)}) {
      const json a = get_json("/api/v2/" + name, {{"moves", "C4"}});
      EXPECT_EQ(a["variant"], variant_slug(v));
    }
  }
  EXPECT_EQ(variant_short_name(kStandard), "standard");
  EXPECT_FALSE(variant_from_name("cap4"));
}

// Any rules' table is served under every name of its rules (the library's
// one parser), with the rules' supply and value.
TEST(Api, OtherRulesAreServedByName) {
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
TEST(Api, RulesRouteListsTheOptionsAndEveryReading) {
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

TEST(Api, MovesApplyFromTheEmptyBoardOrAPosition) {
  const Rules rules(kStandard);
  const json a = get_json("/api/v2/standard", {{"moves", "C4,t3"}});
  EXPECT_EQ(a["position"], "-/-/t/C/-/-/- w");
  EXPECT_EQ(a["moves_played"], json::array({"C4", "t3"}));
  expect_answer_matches_table(a, table_of(kStandard), play_moves(rules, kEmptyBoard, "C4,t3"));
  const json b = get_json("/api/v2/standard", {{"position", "-/-/-/C/-/-/- b"}, {"moves", "t3"}});
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

TEST(Api, GameOverAsData) {
  const json j = get_json("/api/v2/standard", {{"moves", "C1,c2,C4"}});
  EXPECT_EQ(j["value"], "win");
  EXPECT_EQ(j["plies"], 0);
  EXPECT_EQ(j["game_over"]["reason"], "line");
  EXPECT_EQ(j["game_over"]["line"], json::array({1, 2, 4}));
  EXPECT_EQ(j["game_over"]["loser"], "white");
  EXPECT_EQ(j["moves"], json::array());
  EXPECT_TRUE(j["engine_move"].is_null());
}

// A game into the movement phase that returns to an earlier position: rule 3
// ends it drawn, whatever the table says of the position alone.
TEST(Api, RepetitionEndsTheGameDrawn) {
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
    const json j = get_json("/api/v2/standard", {{"moves", rec.move_list()}});
    EXPECT_EQ(j["value"], "draw") << rec.move_list();
    EXPECT_TRUE(j["plies"].is_null());
    EXPECT_EQ(j["game_over"]["reason"], "repetition");
    EXPECT_EQ(j["table_value"], value_name(tb.probe(rec.current())->value));
    // One ply earlier, the repeating move is listed as a draw that repeats,
    // and sets no trap: the game ends with it.
    rec.undo();
    const json before = get_json("/api/v2/standard", {{"moves", rec.move_list()}});
    bool saw_repeat = false;
    for (const json& m : before["moves"])
      if (m["repeats"] == true) {
        saw_repeat = true;
        EXPECT_EQ(m["result"], "draw") << m;
        EXPECT_TRUE(m["plies"].is_null()) << m;
        EXPECT_TRUE(m["trap"].is_null()) << m;
      }
    EXPECT_TRUE(saw_repeat) << rec.move_list();
  }
  EXPECT_EQ(found, 5);
}

TEST(Api, MainlinePlaysBestToTheEnd) {
  const Rules rules(kStandard);
  const Tablebase& tb = table_of(kStandard);
  for (const std::string& moves :
       {std::string("C4,t3,C3"), std::string("C1,c2"), std::string("C4")}) {
    SCOPED_TRACE(moves);
    const json j = get_json("/api/v2/standard/mainline", {{"moves", moves}});
    GameRecord rec = GameRecord::from_moves(rules, kEmptyBoard, moves);
    const Outcome start = *tb.probe(rec.current());
    EXPECT_EQ(j["value"], value_name(start.value));
    ASSERT_TRUE(j["mainline"].is_array());
    for (const json& step : j["mainline"]) {
      const Outcome before = *tb.probe(rec.current());
      rec.play(std::string(step["move"]));
      EXPECT_EQ(step["position"], format_position(rec.current()));
      // Each move keeps the value: its result for its mover is the value of
      // the position it is played in.
      const Outcome after = *tb.probe(rec.current());
      if (rec.end() && rec.end()->reason == EndReason::kRepetition) break;
      EXPECT_EQ(outcome_for_mover(after), before) << step;
      EXPECT_EQ(step["result"], value_name(before.value)) << step;
      EXPECT_EQ(step["plies"], plies_of(before)) << step;
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

TEST(Api, InfoListsEveryTableWithItsCounts) {
  const json j = get_json("/api/v2/info");
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

TEST(Api, ErrorsNameTheProblem) {
  struct Case {
    std::string path;
    std::multimap<std::string, std::string> params;
    int status;
    std::string words;
  };
  const std::string long_moves(5000, 'C');
  const std::vector<Case> cases = {
      {"/api/v2/standard", {}, 400, "position= or moves="},
      {"/api/v2/standard", {{"position", "x/-/-/-/-/-/- w"}}, 400, "unknown character"},
      {"/api/v2/standard", {{"position", "-/-/-/-/-/- w"}}, 400, "7 stacks"},
      {"/api/v2/standard", {{"position", "CTc/-/-/-/-/-/- b"}}, 400, "stack cap"},
      {"/api/v2/standard", {{"moves", "C4,Q9"}}, 400, "Q9"},
      {"/api/v2/standard", {{"moves", "C1,c2,C4,c3"}}, 400, "already over"},
      {"/api/v2/standard", {{"moves", "C4"}, {"moves", "C5"}}, 400, "more than once"},
      {"/api/v2/standard", {{"moves", long_moves}}, 400, "longer than"},
      {"/api/v2/standard",
       {{"position", std::string("-/-/-\0/-/-/-/- w", 16)}},
       400,
       "control character"},
      {"/api/v2/standard", {{"position", "-/-/-/\xff/-/-/- w"}}, 400, "not UTF-8"},
      {"/api/v2/standard", {{"position", "-/-/-/\xc3/-/-/- w"}}, 400, "not UTF-8"},
      {"/api/v2/standard", {{"position", "C/T/c/C/t/-/c w"}}, 422, "no game reaches"},
      {"/api/v2/cap4", {{"moves", "C4"}}, 404, "unknown variant"},
      {"/api/v2/cap4", {{"moves", "C4"}}, 404, "/api/v2/rules lists them"},
      {"/api/v2/standard/nothing", {{"moves", "C4"}}, 404, "no such route"},
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
  post.path = "/api/v2/standard";
  EXPECT_EQ(api().handle(post).status, 405);
}

TEST(Api, ANotServedVariantIs404) {
  std::vector<server::ServedTable> one;
  one.push_back({open_tablebase(table_path(kStandard), kStandard), table_path(kStandard)});
  const Api only(std::move(one), "test");
  Request r;
  r.path = "/api/v2/cap3";
  r.params = {{"moves", "C4"}};
  const Response res = only.handle(r);
  EXPECT_EQ(res.status, 404);
  EXPECT_NE(res.body.find("not served"), std::string::npos) << res.body;
  EXPECT_EQ(parse_json(only.handle(Request{"GET", "/api/v2/info", {}, ""}).body)["variants"].size(),
            1u);
}

// The answer cache: a small one, overflowing many times, answers exactly as
// no cache does (and as a second ask of the same question).
TEST(Api, ABoundedCacheAnswersAsNoCache) {
  const auto tables = [] {
    std::vector<server::ServedTable> t;
    t.push_back({open_tablebase(table_path(kStandard), kStandard), table_path(kStandard)});
    return t;
  };
  const Api small(tables(), "test", 64 * 1024), none(tables(), "test", 0);
  const std::vector<State> sample = sample_positions(kStandard, 60, 5, 40, 40);
  for (int pass = 0; pass < 2; ++pass)
    for (const State st : sample) {
      const Request r{"GET", "/api/v2/standard", {{"position", format_position(st)}}, ""};
      const Response a = small.handle(r), b = none.handle(r);
      ASSERT_EQ(a.status, 200);
      EXPECT_EQ(a.body, b.body);
      EXPECT_EQ(a.headers, b.headers);
    }
  EXPECT_GT(sample.size(), 500u);
}

TEST(Api, CachingAndCorsHeaders) {
  const auto header = [](const Response& r, const std::string& key) {
    for (const auto& [k, v] : r.headers)
      if (k == key) return v;
    return std::string();
  };
  const Response a = get("/api/v2/standard", {{"moves", "C4"}});
  EXPECT_EQ(header(a, "Access-Control-Allow-Origin"), "*");
  EXPECT_NE(header(a, "Cache-Control").find("max-age="), std::string::npos);
  const std::string etag = header(a, "ETag");
  ASSERT_FALSE(etag.empty());
  EXPECT_EQ(header(get("/api/v2/standard", {{"moves", "C4"}}), "ETag"), etag);
  EXPECT_NE(header(get("/api/v2/standard", {{"moves", "C5"}}), "ETag"), etag);
  Request again{"GET", "/api/v2/standard", {{"moves", "C4"}}, etag};
  const Response cached = api().handle(again);
  EXPECT_EQ(cached.status, 304);
  EXPECT_TRUE(cached.body.empty());
  // Errors are not cached.
  EXPECT_TRUE(header(get("/api/v2/standard", {{"moves", "Q9"}}), "ETag").empty());
}

// A request whose Interrupt fires (the server's deadline, here already
// past; or its client gone) is answered 503 naming why, and that answer is
// not kept: the same request without it is computed (200, the report).
TEST(Api, AnInterruptedAnalysisIs503AndNotCached) {
  for (const char* route : {"/api/v2/cap3-projective", "/api/v2/cap3-projective/mainline"}) {
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

TEST(Api, ParametersNoRouteReadsShareTheCachedAnswer) {
  const auto etag_of = [](const Response& r) {
    for (const auto& [k, v] : r.headers)
      if (k == "ETag") return v;
    return std::string();
  };
  const Response plain = get("/api/v2/standard", {{"moves", "C4,t3"}});
  ASSERT_EQ(plain.status, 200);
  for (const auto& extra : {std::pair<std::string, std::string>{"_", "1733400000"},
                            {"cachebuster", "x"},
                            {"zz", "C5"}}) {
    const Response r = get("/api/v2/standard", {{"moves", "C4,t3"}, extra});
    EXPECT_EQ(r.status, 200) << extra.first;
    EXPECT_EQ(r.body, plain.body) << extra.first;
    EXPECT_EQ(etag_of(r), etag_of(plain)) << extra.first;
  }
  // A parameter a route reads still tells answers apart.
  EXPECT_NE(etag_of(get("/api/v2/standard", {{"moves", "C4,t3"}, {"position", "-/-/-/-/-/-/- w"}})),
            etag_of(plain));
}

TEST(Api, PagesAndBoardPicture) {
  const Response page = get("/");
  EXPECT_EQ(page.status, 200);
  EXPECT_EQ(page.content_type, "text/html; charset=utf-8");
  EXPECT_NE(page.body.find("<html"), std::string::npos);
  EXPECT_EQ(page.body.find("https://"), std::string::npos)
      << "the page must not load from the network";
  const Response doc = get("/api");
  EXPECT_NE(doc.body.find("/api/v2/{variant}/mainline"), std::string::npos);
  EXPECT_EQ(doc.body.find("/api/v1"), std::string::npos);
  const Response svg = get("/api/v2/standard/svg", {{"moves", "C1,c2,C4"}});
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
TEST(Api, EveryAnswerCarriesSecurityHeaders) {
  const std::vector<Response> answers = {
      get("/api/v2/standard", {{"moves", "C4"}}),
      get("/api/v2/standard", {{"moves", "Q9"}}),
      get("/api/v2/standard/svg", {{"moves", "C4"}}),
      get("/api/v2/info"),
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
  Request again{"GET", "/api/v2/standard", {{"moves", "C4"}}, header_of(answers[0], "ETag")};
  const Response not_modified = api().handle(again);
  EXPECT_EQ(not_modified.status, 304);
  EXPECT_EQ(header_of(not_modified, "X-Content-Type-Options"), "nosniff");
}

// The tables are named by their file, not by a folder of the server's machine.
TEST(Api, InfoNamesEachTableByItsFileNameOnly) {
  const json j = get_json("/api/v2/info");
  ASSERT_EQ(j["variants"].size(), 4u);
  for (const json& v : j["variants"]) {
    const Variant variant = *variant_from_name(std::string(v["name"]));
    EXPECT_EQ(v["table"], fs::path(table_path(variant)).filename().string());
  }
  EXPECT_EQ(get("/api/v2/info").body.find(tables_folder()), std::string::npos);
}

// The picture of a position no game reaches is refused as its JSON is.
TEST(Api, SvgOfAnUnreachablePositionIs422) {
  const std::multimap<std::string, std::string> unreachable{{"position", "C/T/c/C/t/-/c w"}};
  const json j = get_json("/api/v2/standard/svg", unreachable, 422);
  EXPECT_EQ(j, get_json("/api/v2/standard", unreachable, 422));
  // A position with moves played from it: the position reached is what counts.
  EXPECT_EQ(get("/api/v2/standard/svg", {{"position", "-/-/-/C/-/-/- b"}, {"moves", "t3"}}).status,
            200);
}

// The batch route: each item answered as the GET route answers it alone (the
// same report), or with value_only as the table's probe says.

TEST_P(ApiVariant, BatchAnswersEachItemAsTheSingleRouteDoes) {
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

TEST(Api, BatchIsBoundedAndRefusesBadItemsWhole) {
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
  EXPECT_EQ(post_batch("/api/v1/standard/batch", R"({"items":[]})").status, 404);
  EXPECT_EQ(post_batch("/api/v2/cap4/batch", R"({"items":[]})").status, 404);
}

// The players' route: each player's move is legal and is the move the player
// (fano/players.hpp) makes with game_rng(seed, ply); a weaker player loses to
// the engine in a seeded game played through the route.
TEST(Api, PlayersMoveLegallyAsTheLibraryChooses) {
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
      const json pos = get_json("/api/v2/standard", {{"moves", moves}});
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

// A puzzle's numbers recomputed here, apart from the route: each move's
// result from the table's probe of its child (not the analysis' ratings),
// "a 1- or 2-ply look calls it safe" from the 2-ply minimax search (no table),
// and the grade from the boundaries docs/api.md states.
struct PuzzleCheck {
  int keeping = 0, tempting = 0, depth = 0;
  std::string solution;
};

PuzzleCheck recompute_puzzle(const Tablebase& tb, const Rules& rules, State st, Outcome value) {
  PuzzleCheck c;
  const std::vector<Move> moves = legal_moves(rules, st);
  const std::vector<int> look = search_move_scores(GameRecord(rules, st), 2);
  EXPECT_EQ(look.size(), moves.size());
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const State child = apply_move(st, moves[i]);
    Outcome mine{Value::kLoss, 1};  // a line formed: the mover has lost
    if (game_over(rules, child) != GameOver::kLine) {
      const Outcome theirs = *tb.probe(child);
      mine = theirs.value == Value::kWin    ? Outcome{Value::kLoss, std::uint16_t(theirs.plies + 1)}
             : theirs.value == Value::kLoss ? Outcome{Value::kWin, std::uint16_t(theirs.plies + 1)}
                                            : Outcome{};
    }
    // the shallow look and the table agree on what it sees: a loss within 2 plies
    const bool look_sees_loss = look[i] < 0;
    EXPECT_EQ(look_sees_loss, mine.value == Value::kLoss && mine.plies <= 2)
        << format_position(st) << " " << format_move(moves[i]);
    if (mine.value == value.value) {
      ++c.keeping;
      c.solution = format_move(moves[i]);
    } else if (!look_sees_loss) {
      ++c.tempting;
      c.depth = std::max(c.depth, mine.value == Value::kLoss ? int(mine.plies) : int(value.plies));
    }
  }
  return c;
}

std::string grade_of(int depth, int tempting) {
  if (depth <= 5 && tempting <= 2) return "easy";
  if (depth >= 12 || tempting >= 4) return "hard";
  return "medium";
}

// Puzzles: in the position given, exactly one move keeps the side to move's
// value and at least one is tempting; the reported counts and grade are
// recomputed; a seed gives the same puzzle, a grade asked for is the one
// given; a bad grade is refused.
TEST_P(ApiVariant, PuzzleHasOneKeepingMoveAndTheGradeOfItsTrap) {
  const Variant v = GetParam();
  const Rules rules(v);
  const Tablebase& tb = table_of(v);
  const std::string path = "/api/v2/" + variant_slug(v) + "/puzzle";
  std::map<std::string, int> grades;
  for (int seed = 1; seed <= 40; ++seed) {
    for (const char* grade : {"", "easy", "medium", "hard"}) {
      std::multimap<std::string, std::string> params{{"seed", std::to_string(seed)}};
      if (*grade) params.insert({"grade", grade});
      const json p = get_json(path, params);
      ASSERT_TRUE(p.contains("position")) << p;
      EXPECT_EQ(p, get_json(path, params));
      const State st = parse_position(std::string(p["position"]), v);
      const Outcome value = *tb.probe(st);
      EXPECT_EQ(p["value"], value_name(value.value));
      EXPECT_EQ(p["plies"], plies_of(value));
      EXPECT_NE(value.value, Value::kLoss);
      const PuzzleCheck c = recompute_puzzle(tb, rules, st, value);
      EXPECT_EQ(c.keeping, 1) << p;
      EXPECT_GE(c.tempting, 1) << p;
      EXPECT_EQ(p["solution"], c.solution);
      EXPECT_EQ(p["moves"], legal_moves(rules, st).size());
      EXPECT_EQ(p["tempting"], c.tempting) << p;
      EXPECT_EQ(p["trap_plies"], c.depth) << p;
      EXPECT_EQ(p["difficulty"], grade_of(c.depth, c.tempting)) << p;
      if (*grade) {
        EXPECT_EQ(p["difficulty"], grade);
      }
      ++grades[p["difficulty"]];
    }
  }
  EXPECT_EQ(grades.size(), 3u);  // every grade drawn
  const json bad = get_json(path, {{"seed", "1"}, {"grade", "tricky"}}, 400);
  EXPECT_EQ(bad["error"], "grade must be easy, medium or hard, not 'tricky'");
  EXPECT_EQ(get(path, {{"seed", "x"}}).status, 400);
}

// A grade the table has no puzzle of: 404 naming it; a grade it has: that
// grade. Which grades a small reading's table holds is found here by
// recomputing every class of it as a puzzle.
TEST(Api, AGradeTheTableHasNoPuzzleOfIs404) {
  Variant v = kCap2Projective;
  v.circles = 1, v.triangles = 1;
  const Solution sol = solve(v);
  std::vector<server::ServedTable> tables;
  tables.push_back({in_memory_tablebase(sol, "memory"), "memory"});
  const Api small(std::move(tables), "test");
  const Tablebase& tb = small.tables().front()->table;
  const Rules rules(v);
  std::set<std::string> held;
  for (std::size_t i = 0; i < tb.size(); ++i) {
    const State st = tb.position_at(i);
    const Outcome value = *tb.probe(st);
    if (value.value == Value::kLoss || legal_moves(rules, st).size() < 3) continue;
    const PuzzleCheck c = recompute_puzzle(tb, rules, st, value);
    if (c.keeping == 1 && c.tempting >= 1) held.insert(grade_of(c.depth, c.tempting));
  }
  ASSERT_FALSE(held.empty());
  ASSERT_LT(held.size(), 3u);  // a grade is missing: the 404 is met
  for (const std::string grade : {"easy", "medium", "hard"}) {
    Request r;
    r.path = "/api/v2/projective-1c1t/puzzle";
    r.params = {{"seed", "1"}, {"grade", grade}};
    const Response res = small.handle(r);
    const json a = parse_json(res.body);
    if (held.count(grade)) {
      EXPECT_EQ(res.status, 200) << res.body;
      EXPECT_EQ(a["difficulty"], grade);
    } else {
      EXPECT_EQ(res.status, 404) << res.body;
      EXPECT_EQ(a["error"], "the table of 'cap2-projective-1c1t' has no puzzle of grade " + grade);
    }
  }
}

// Statistics: every reachable position counted once (the sums by plies equal
// the solver's totals in the header), the longest win as `fano facts` finds
// it, each longest line a game that ends with the side to move's opponent losing.
TEST(Api, StatsCountEveryPositionAndTheLongestWins) {
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
// The route table

// Every row answers its method on its path (a table probe for the routes of
// a reading), and refuses another method with 405; a path no row has is 404:
// each status the error kind's (fano/errors.hpp).
TEST(Api, EveryRouteOfTheTableAnswersItsMethodAndRefusesOthers) {
  const int not_allowed = error_info(ErrorKind::kMethodNotAllowed).http_status;
  for (const server::Route& route : server::routes()) {
    std::string path(route.pattern);
    if (const std::size_t at = path.find("{variant}"); at != std::string::npos)
      path.replace(at, 9, "standard");
    SCOPED_TRACE(std::string(route.method) + " " + path);
    Request r;
    r.method = std::string(route.method);
    r.path = path;
    if (path.find("/player") != std::string::npos) r.params = {{"player", "random"}};
    if (path.find("standard") != std::string::npos && r.method == "GET")
      r.params.insert({"moves", "C4"});
    r.body = R"({"items": ["moves: C4"]})";
    const server::RouteMatch m = server::match_route(r.method, r.path);
    ASSERT_EQ(m.route, &route);
    const Response answered = api().handle(r);
    EXPECT_EQ(answered.status, 200) << answered.body;
    r.method = route.method == "GET" ? "POST" : "GET";
    EXPECT_EQ(api().handle(r).status, not_allowed);
    r.method = "DELETE";
    EXPECT_EQ(api().handle(r).status, not_allowed);
    EXPECT_EQ(server::match_route("DELETE", path).refusal, ErrorKind::kMethodNotAllowed);
  }
  EXPECT_EQ(server::match_route("GET", "/api/v2/standard/nothing").route, nullptr);
  EXPECT_EQ(server::match_route("GET", "/api/v2/standard/nothing").refusal, ErrorKind::kNotFound);
  EXPECT_EQ(get("/api/v2/standard/nothing").status, error_info(ErrorKind::kNotFound).http_status);
}

// Version 1 of the API is gone: no row of the table is under /api/v1, and any
// request to a path there, whatever its method, is a 404 naming its path under
// /api/v2 (which answers it, for the routes version 1 had).
TEST(Api, VersionOnePathsAre404NamingVersionTwo) {
  for (const server::Route& route : server::routes())
    EXPECT_NE(route.pattern.rfind("/api/v1", 0), 0u) << route.pattern;
  for (const std::string tail : {"/info", "/standard", "/standard/mainline", "/standard/svg",
                                 "/standard/stats", "/standard/batch", "", "/nothing"}) {
    for (const char* method : {"GET", "HEAD", "POST", "DELETE"}) {
      SCOPED_TRACE(std::string(method) + " /api/v1" + tail);
      Request r;
      r.method = method;
      r.path = "/api/v1" + tail;
      r.params = {{"moves", "C4"}};
      const Response res = api().handle(r);
      EXPECT_EQ(res.status, error_info(ErrorKind::kNotFound).http_status);
      EXPECT_EQ(res.content_type, "application/json");
      const json j = parse_json(res.body);
      EXPECT_NE(std::string(j["error"]).find("ask '/api/v2" + tail + "' instead"),
                std::string::npos)
          << j;
    }
  }
  // The version 2 path of each route version 1 had answers.
  for (const std::string path :
       {"/api/v2/info", "/api/v2/standard", "/api/v2/standard/mainline", "/api/v2/standard/svg"})
    EXPECT_EQ(get(path, {{"moves", "C4"}}).status, 200) << path;
}

// The levels offered to people: player_levels_json (the one list, strongest
// first with its measured ratings), each one a name the player route takes
// and reads back unchanged; the older names the page offered still play.
TEST(Api, PlayersRouteListsTheLevelsThePlayerRouteTakes) {
  const json j = get_json("/api/v2/players");
  EXPECT_EQ(j, parse_json(json_text(player_levels_json())));
  ASSERT_EQ(j["players"].size(), player_levels().size());
  ASSERT_GE(j["players"].size(), 4u);
  std::size_t i = 0;
  int previous = 1 << 30;
  for (const json& p : j["players"]) {
    const std::string name = p["name"];
    const PlayerLevel& level = player_levels()[i++];
    EXPECT_EQ(name, level.name);
    EXPECT_EQ(p["label"], std::string(level.label));
    EXPECT_EQ(p["rating"], level.rating);
    EXPECT_EQ(p["interval"], json::array({level.low, level.high}));
    EXPECT_FALSE(std::string(p["description"]).empty()) << p;
    EXPECT_LT(p["rating"].get<int>(), previous) << "not strongest first: " << p;
    previous = p["rating"].get<int>();
    EXPECT_EQ(player_name(parse_player(name)), name);
    const json move =
        get_json("/api/v2/standard/player", {{"player", name}, {"seed", "3"}, {"moves", "C4"}});
    EXPECT_EQ(move["player"], name);
  }
  EXPECT_EQ(j["players"][0]["label"], "Perfect");
  EXPECT_EQ(j["players"].back()["label"], "Beginner");
  for (const char* old : {"perfect:0.5", "perfect:0.8", "nonlosing", "search:3", "greedy", "random",
                          "perfect", "engine"}) {
    const json move =
        get_json("/api/v2/standard/player", {{"player", old}, {"seed", "3"}, {"moves", "C4"}});
    EXPECT_EQ(move["player"], old);
  }
}

// The cost the server's limit reads is the route's: a probe is cheap, a
// long history or a principal variation from one is not, a batch never is.
TEST(Api, RouteCostsAreDeclaredPerRoute) {
  const auto cost = [](std::string_view method, std::string_view path) {
    const server::RouteMatch m = server::match_route(method, path);
    EXPECT_NE(m.route, nullptr) << path;
    return m.route ? m.route->cost : server::RouteCost::kCheap;
  };
  EXPECT_EQ(cost("GET", "/api/v2/info"), server::RouteCost::kCheap);
  EXPECT_EQ(cost("GET", "/api/v2/rules"), server::RouteCost::kCheap);
  EXPECT_EQ(cost("GET", "/api/v2/players"), server::RouteCost::kCheap);
  EXPECT_EQ(cost("HEAD", "/"), server::RouteCost::kCheap);
  EXPECT_EQ(cost("GET", "/api/v2/standard/svg"), server::RouteCost::kLongHistory);
  EXPECT_EQ(cost("GET", "/api/v2/standard/mainline"), server::RouteCost::kAnyHistory);
  EXPECT_EQ(cost("GET", "/api/v2/cap3"), server::RouteCost::kAnyHistory);
  EXPECT_EQ(cost("POST", "/api/v2/standard/batch"), server::RouteCost::kExpensive);
  EXPECT_EQ(server::match_route("POST", "/api/v2/standard/batch").route->max_items,
            server::kMaxBatchItems);
}

// ---------------------------------------------------------------------------
// Tables that come while the Api answers

// A reading on its way is 503 with Retry-After and its progress, never kept
// in the cache; once its table is added, it is answered, listed by the info
// and rules routes, and the lists kept before are not served again.
TEST(Api, AReadingOnItsWayIs503WithProgressThenAnswered) {
  Variant small = kStandard;
  small.circles = 1, small.triangles = 1;
  std::vector<server::ServedTable> tables;
  tables.push_back({open_tablebase(table_path(kStandard), kStandard), table_path(kStandard)});
  Api a(std::move(tables), "test");
  std::atomic<int> asked{0};
  a.set_pending([&](const Variant& v, const std::string&) -> std::optional<server::TableProgress> {
    ++asked;
    if (v != small) return std::nullopt;
    server::TableProgress p;
    p.state = "solving";
    p.stage = "enumerate: depth 3";
    p.seconds = 0.5;
    p.retry_after = 3;
    return p;
  });
  const Request r{"GET", "/api/v2/standard-1c1t", {{"moves", "C4"}}, ""};
  const Request info{"GET", "/api/v2/info", {}, ""};
  const std::string info_before = a.handle(info).body;
  for (int i = 0; i < 2; ++i) {
    const Response busy = a.handle(r);
    EXPECT_EQ(busy.status, error_info(ErrorKind::kUnavailable).http_status);
    EXPECT_EQ(header_of(busy, "Retry-After"), "3");
    EXPECT_TRUE(header_of(busy, "ETag").empty());
    const json j = parse_json(busy.body);
    EXPECT_EQ(j["progress"],
              json::parse(R"({"reading":"standard-1c1t","state":"solving","ahead":0,)"
                          R"("stage":"enumerate: depth 3","seconds":0.5})"));
    EXPECT_NE(std::string(j["error"]).find("retry after 3 s"), std::string::npos) << j;
  }
  EXPECT_EQ(asked, 2);  // not cached: asked each time
  // A reading that will not come is 404, as with no pending tables.
  EXPECT_EQ(a.handle(Request{"GET", "/api/v2/cap3", {{"moves", "C4"}}, ""}).status, 404);
  const Solution sol = solve(small);
  a.add_table({in_memory_tablebase(sol, "memory"), "memory"});
  const Response answered = a.handle(r);
  ASSERT_EQ(answered.status, 200) << answered.body;
  const State after = parse_position("-/-/-/C/-/-/- b", small);
  EXPECT_EQ(parse_json(answered.body)["value"], value_name(sol.lookup(after)->value));
  EXPECT_EQ(asked, 3);
  const json listed = parse_json(a.handle(info).body);
  EXPECT_NE(a.handle(info).body, info_before);
  ASSERT_EQ(listed["variants"].size(), 2u);
  EXPECT_EQ(listed["variants"][1]["slug"], "standard-1c1t");
  EXPECT_EQ(header_of(a.handle(info), "Cache-Control"), "no-cache");
  bool served = false;
  const Response rules = a.handle(Request{"GET", "/api/v2/rules", {}, ""});
  const json catalog = parse_json(rules.body);
  for (const json& reading : catalog["readings"])
    if (reading["slug"] == "standard-1c1t") served = reading["served"];
  EXPECT_TRUE(served);
}

// A reading whose solve failed is a 503 naming why, with Retry-After the
// time until it is tried again (the failure may pass: memory freed, a disk
// with room); one the server refuses (over its memory bound) a 404 naming why.
TEST(Api, AReadingThatFailedIs503UntilItsRetryAndOneRefusedSaysWhy) {
  Api a({}, "test");
  a.set_pending([](const Variant& v, const std::string&) -> std::optional<server::TableProgress> {
    server::TableProgress p;
    p.state = v == kCap3Board ? "failed" : "refused";
    p.stage = v == kCap3Board ? "out of memory" : "past this server's limit";
    p.retry_after = 40;
    return p;
  });
  const Response failed = a.handle(Request{"GET", "/api/v2/cap3", {{"moves", "C4"}}, ""});
  EXPECT_EQ(failed.status, 503);
  EXPECT_EQ(header_of(failed, "Retry-After"), "40");
  const json j = parse_json(failed.body);
  EXPECT_NE(std::string(j["error"]).find("out of memory"), std::string::npos) << j;
  EXPECT_EQ(j["progress"]["state"], "failed");
  EXPECT_EQ(j["progress"]["stage"], "out of memory");
  const Response refused = a.handle(Request{"GET", "/api/v2/standard", {{"moves", "C4"}}, ""});
  EXPECT_EQ(refused.status, 404);
  EXPECT_NE(refused.body.find("past this server's limit"), std::string::npos) << refused.body;
  EXPECT_TRUE(header_of(refused, "Retry-After").empty());
}

// ---------------------------------------------------------------------------
// The review of a game

// The review route answers the library's review of the game it names (the
// same bytes as review_json, as `fano review --json` and Python print it),
// from the empty board or a position, in every reading; its cost is the
// position route's (any moves= history is expensive).
TEST(Api, ReviewRouteIsTheLibrarysReview) {
  std::mt19937 rng(56);
  for (const Variant& v : kAllVariants) {
    const Rules rules(v);
    for (int g = 0; g < 3; ++g) {
      GameRecord game(rules);
      while (!game.over() && game.plies() < std::size_t(10 + 20 * g)) {
        std::vector<Move> moves = legal_moves(rules, game.current());
        if (g > 0) moves = careful_moves(game.current(), moves);
        game.play(moves[rng() % moves.size()]);
      }
      SCOPED_TRACE(variant_slug(v) + " " + game.move_list());
      const std::string path = "/api/v2/" + variant_slug(v) + "/review";
      const Response r = get(path, {{"moves", game.move_list()}});
      ASSERT_EQ(r.status, 200) << r.body;
      EXPECT_EQ(r.body, json_text(review_json(review_game(table_of(v), game))));
      // The same moves from the position two plies in: a bare start there.
      if (game.plies() < 3) continue;
      GameRecord tail(rules, game.positions()[2]);
      for (std::size_t i = 2; i < game.plies(); ++i) tail.play(game.moves()[i]);
      const std::string rest = tail.move_list();
      const Response from =
          get(path, {{"position", format_position(tail.start())}, {"moves", rest}});
      ASSERT_EQ(from.status, 200) << from.body;
      EXPECT_EQ(from.body, json_text(review_json(review_game(table_of(v), tail))));
      EXPECT_EQ(parse_json(from.body)["plies"].size(), tail.plies());
    }
  }
  EXPECT_EQ(server::match_route("GET", "/api/v2/standard/review").route->cost,
            server::RouteCost::kAnyHistory);
}

// A bad game is refused as the position route refuses it (the same status
// and message); a review whose request is interrupted is 503, not kept.
TEST(Api, ReviewRefusesWhatThePositionRouteRefuses) {
  const std::vector<std::multimap<std::string, std::string>> cases = {
      {},
      {{"moves", "C4,Q9"}},
      {{"moves", "C1,c2,C4,c3"}},
      {{"moves", "C4"}, {"moves", "C5"}},
      {{"position", "x/-/-/-/-/-/- w"}},
      {{"position", "C/T/c/C/t/-/c w"}},
      {{"position", "-/-/-/\xff/-/-/- w"}},
  };
  for (const auto& params : cases) {
    SCOPED_TRACE(params.empty() ? "no parameter" : params.begin()->second);
    const Response review = get("/api/v2/standard/review", params);
    const Response position = get("/api/v2/standard", params);
    EXPECT_GE(review.status, 400);
    EXPECT_EQ(review.status, position.status);
    EXPECT_EQ(review.body, position.body);
  }
  Request r;
  r.path = "/api/v2/cap3-projective/review";
  r.params = {{"moves", "C4,t1,C5,c6,T1,t4,T4,c2,1-5,6-1,5-1"}};
  r.interrupt = Interrupt().until(Interrupt::Clock::now());
  const Response stopped = api().handle(r);
  EXPECT_EQ(stopped.status, 503);
  EXPECT_NE(stopped.body.find("deadline"), std::string::npos) << stopped.body;
  r.interrupt = {};
  EXPECT_EQ(api().handle(r).status, 200);
}

// What is computed once a table: puzzles listed, statistics counted, answers kept

// A request whose deadline has passed before it starts (Interrupt::until a
// moment ago): a step of work at most, then it stops.
Request expired(const std::string& path, std::multimap<std::string, std::string> params = {}) {
  Request r;
  r.path = path;
  r.params = std::move(params);
  r.interrupt.until(Interrupt::Clock::now() - std::chrono::seconds(1));
  return r;
}

// A puzzle is the first of the seed's quick draws (sample_puzzle) or, when
// they meet none, the seed's draw among the table's listing of every puzzle
// (PuzzleIndex, made once a table); once the table is listed, a grade it
// lacks is 404 at once, however short the request's deadline.
TEST(Api, APuzzleIsTheSeedsSampleOrItsDrawFromTheListing) {
  Variant v = kCap2Projective;
  v.circles = 1, v.triangles = 1;
  const Solution sol = solve(v);
  std::vector<server::ServedTable> tables;
  tables.push_back({in_memory_tablebase(sol, "memory"), "memory"});
  const Api a(std::move(tables), "test", 0);  // no answer cache: every request reaches the route
  const Tablebase& tb = a.tables().front()->table;
  PuzzleIndex whole(tb);
  whole.list();
  std::optional<PuzzleGrade> lacking;
  for (const std::uint64_t seed : {1ull, 2ull, 99ull, 1ull << 40}) {
    for (const std::optional<PuzzleGrade> grade :
         {std::optional<PuzzleGrade>(), std::optional(PuzzleGrade::kEasy),
          std::optional(PuzzleGrade::kMedium), std::optional(PuzzleGrade::kHard)}) {
      Request r;
      r.path = "/api/v2/projective-1c1t/puzzle";
      r.params = {{"seed", std::to_string(seed)}};
      if (grade) r.params.insert({"grade", std::string(grade_name(*grade))});
      const Response res = a.handle(r);
      std::optional<Puzzle> p = sample_puzzle(tb, seed, grade);
      if (!p) p = whole.draw(seed, grade);
      if (!p) {
        EXPECT_EQ(res.status, 404) << res.body;
        lacking = grade;
        continue;
      }
      ASSERT_EQ(res.status, 200) << res.body;
      EXPECT_EQ(parse_json(res.body), puzzle_json(v, seed, *p));
    }
  }
  ASSERT_TRUE(lacking);  // the table lacks a grade (AGradeTheTableHasNoPuzzleOfIs404)
  const Response fast =
      a.handle(expired("/api/v2/projective-1c1t/puzzle",
                       {{"seed", "5"}, {"grade", std::string(grade_name(*lacking))}}));
  EXPECT_EQ(fast.status, 404) << fast.body;
}

// The statistics: counted once a table in the same steps; the answer
// equals a count made at once.
TEST(Api, StatisticsStoppedByTheirDeadlineAreResumedByTheNextRequest) {
  std::vector<server::ServedTable> tables;
  tables.push_back({open_tablebase(table_path(kCap3Board), kCap3Board), table_path(kCap3Board)});
  const Api a(std::move(tables), "test", 0);
  const Tablebase& tb = a.tables().front()->table;
  int stopped = 0;
  Response r;
  for (; stopped < 1000; ++stopped) {
    r = a.handle(expired("/api/v2/cap3/stats"));
    if (r.status != 503) break;
  }
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_GT(stopped, 1);
  TableStatsCount whole(tb);
  whole.count();
  EXPECT_EQ(parse_json(r.body), table_stats_json(tb, whole.stats()));
}

// A table added (a reading solved while serving) leaves the answers kept
// for the other tables: asked again, with its client gone, a reading's
// answer still comes from the cache (computing it would stop at once).
TEST(Api, AddingATableKeepsTheOtherTablesAnswers) {
  std::vector<server::ServedTable> tables;
  tables.push_back({open_tablebase(table_path(kStandard), kStandard), table_path(kStandard)});
  Api a(std::move(tables), "test");
  const Request r{"GET", "/api/v2/standard", {{"moves", "C4,t3"}}, ""};
  const Response first = a.handle(r);
  ASSERT_EQ(first.status, 200) << first.body;
  Variant small = kStandard;
  small.circles = 1, small.triangles = 1;
  a.add_table({in_memory_tablebase(solve(small), "memory"), "memory"});
  // Kept: the server answers it as a lookup, without an expensive slot.
  EXPECT_TRUE(a.answer_kept(r));
  EXPECT_FALSE(a.answer_kept(Request{"GET", "/api/v2/standard", {{"moves", "C4,t5"}}, ""}));
  Request gone = r;
  gone.interrupt = Interrupt::when_set(std::make_shared<std::atomic<bool>>(true));
  const Response again = a.handle(gone);
  EXPECT_EQ(again.status, 200) << again.body;
  EXPECT_EQ(again.body, first.body);
}

// Identical requests in flight are computed once: the first holds its
// computation (the Api's hook) until the seven others have joined it; all
// eight get the answer a lone request gets, from one run of the route.
// Without the single flight each would compute it (the hook would see eight
// and the others would never join).
TEST(Api, IdenticalRequestsInFlightAreComputedOnce) {
  std::vector<server::ServedTable> tables;
  tables.push_back({open_tablebase(table_path(kStandard), kStandard), table_path(kStandard)});
  Api a(std::move(tables), "test", 0);  // no answer cache: only the flight shares an answer
  constexpr int kClients = 8;
  std::atomic<int> hooked{0};
  a.set_before_computing([&](const Request&) {
    ++hooked;
    for (int i = 0; i < 1000 && a.counts().joined < kClients - 1; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  });
  const Request stats{"GET", "/api/v2/standard/stats", {}, ""};
  std::vector<Response> answers(kClients);
  std::vector<std::thread> clients;
  for (int i = 0; i < kClients; ++i) clients.emplace_back([&, i] { answers[i] = a.handle(stats); });
  for (std::thread& t : clients) t.join();
  EXPECT_EQ(hooked, 1);
  EXPECT_EQ(a.counts().computed, 1u);
  EXPECT_EQ(a.counts().joined, std::uint64_t(kClients - 1));
  TableStatsCount whole(a.tables().front()->table);
  whole.count();
  const json expected = table_stats_json(a.tables().front()->table, whole.stats());
  for (const Response& r : answers) {
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(parse_json(r.body), expected);
  }
  // Asked again afterwards (nothing in flight, no cache): computed again.
  a.set_before_computing({});
  EXPECT_EQ(a.handle(stats).status, 200);
  EXPECT_EQ(a.counts().computed, 2u);
}

// Whatever a request sends (control characters, a 100 KB parameter, path
// segment, method or batch field), every route's error message is bounded
// and holds no raw control character: what it echoes goes through quote().
TEST(Api, ErrorsEchoNoControlCharactersAndStayShort) {
  const std::string controls = std::string("C4\x1b[2J\x07\x00\r\nX", 11) + "\x7f\xc2\x9b";
  const std::string huge(100 * 1024, 'x');
  const std::string huge_controls = [&] {
    std::string s;
    while (s.size() < 100 * 1024) s += controls;
    return s;
  }();
  std::vector<Request> requests;
  for (const std::string& bad : {controls, huge, huge_controls}) {
    for (const server::Route& route : server::routes()) {
      std::string path(route.pattern);
      const std::string method(route.method);
      // The reading's segment itself, then each parameter a route reads.
      if (const std::size_t at = path.find("{variant}"); at != std::string::npos) {
        requests.push_back({method, std::string(path).replace(at, 9, bad), {{"moves", "C4"}}, ""});
        path.replace(at, 9, "standard");
      }
      for (const char* key : {"grade", "moves", "player", "position", "seed"})
        requests.push_back({method, path, {{key, bad}}, ""});
      requests.push_back({method, path + "/" + bad, {}, ""});
      Request posted{method, path, {}, ""};
      posted.body = json{{"items", {bad, "moves: " + bad}}}.dump(-1, ' ', false,
                                                                 json::error_handler_t::replace);
      requests.push_back(posted);
      posted.body =
          json{{"items", {"C4"}}, {bad, true}}.dump(-1, ' ', false, json::error_handler_t::replace);
      requests.push_back(posted);
    }
    requests.push_back({bad, "/api/v2/standard", {{"moves", "C4"}}, ""});
    requests.push_back({"GET", "/api/v1/" + bad, {}, ""});
    requests.push_back({"GET", "/" + bad, {}, ""});
  }
  std::size_t errors = 0;
  for (const Request& r : requests) {
    const Response res = api().handle(r);
    if (res.status < 400) continue;
    ++errors;
    ASSERT_EQ(res.content_type, "application/json") << r.method << " " << r.path.substr(0, 60);
    const std::string message = parse_json(res.body)["error"];
    EXPECT_LE(message.size(), 1000u)
        << r.method << " " << r.path.substr(0, 60) << ": " << message.substr(0, 200);
    for (const char c : message) {
      const unsigned char u = static_cast<unsigned char>(c);
      EXPECT_FALSE(u < 0x20 || u == 0x7f) << "a raw control byte in: " << escape_text(message);
    }
    EXPECT_EQ(message.find("\xc2\x9b"), std::string::npos) << "a raw C1 control in: " << message;
  }
  EXPECT_GT(errors, requests.size() / 2);
}

}  // namespace
}  // namespace fano
