#include "fano/api.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <string_view>
#include <thread>
#include <unordered_map>

#include "fano/analysis.hpp"
#include "fano/analysis_json.hpp"
#include "fano/batch.hpp"
#include "fano/json.hpp"
#include "fano/notation.hpp"
#include "fano/players.hpp"
#include "fano/puzzles.hpp"
#include "fano/review.hpp"
#include "fano/rules_options.hpp"
#include "fano/svg.hpp"
#include "fano/tablebase_json.hpp"
#include "web_assets.hpp"

namespace fano::server {
namespace {

constexpr std::size_t kMaxParamBytes = 4096;  // a position is ~20 bytes, 1000 moves ~4 KB

// A refusal: its kind gives the status (fano/errors.hpp), never the route.
struct ApiError {
  ErrorKind kind;
  std::string message;
  Json extra = nullptr;  // more fields of the error's body (a pending table's progress)
  int retry_after = 0;   // seconds for Retry-After, or 0
};

Response json_response(int status, const Json& body) {
  Response r;
  r.status = status;
  r.body = json_text(body);
  return r;
}

Response error_response(ErrorKind kind, const std::string& message) {
  return json_response(error_info(kind).http_status, Json{{"error", message}});
}

std::string hex64(std::uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

// The first problem of a parameter's bytes for the notation: a control
// character (a NUL would cut a message short) or bytes that are not UTF-8.
std::optional<std::string> byte_problem(std::string_view v) {
  for (std::size_t i = 0; i < v.size();) {
    const unsigned char c = static_cast<unsigned char>(v[i]);
    if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "0x%02x", c);
      return std::string("a control character (byte ") + buf + ") at byte " + std::to_string(i);
    }
    const std::size_t n = c < 0x80         ? 1
                          : (c >> 5) == 6  ? 2
                          : (c >> 4) == 14 ? 3
                          : (c >> 3) == 30 ? 4
                                           : 0;
    bool ok = n != 0 && i + n <= v.size();
    for (std::size_t k = 1; ok && k < n; ++k) ok = (static_cast<unsigned char>(v[i + k]) >> 6) == 2;
    if (!ok) return "bytes that are not UTF-8 at byte " + std::to_string(i);
    i += n;
  }
  return std::nullopt;
}

// Every query parameter a route reads. The answer cache's key holds these
// alone, so requests that differ only by a parameter no route reads (a
// client's cache buster, a typo) share one entry and one ETag.
constexpr std::array<std::string_view, 5> kParams{"grade", "moves", "player", "position", "seed"};

bool is_read_param(std::string_view key) {
  return std::find(kParams.begin(), kParams.end(), key) != kParams.end();
}

// The one value of a query parameter, if given; 400 when repeated, too long,
// or not text.
std::optional<std::string> param(const Request& req, const std::string& key) {
  if (!is_read_param(key)) throw std::logic_error("parameter '" + key + "' is not in kParams");
  const auto [lo, hi] = req.params.equal_range(key);
  if (lo == hi) return std::nullopt;
  if (std::next(lo) != hi)
    throw ApiError{ErrorKind::kBadInput, "parameter '" + key + "' given more than once"};
  if (lo->second.size() > kMaxParamBytes)
    throw ApiError{ErrorKind::kBadInput, "parameter '" + key + "' is longer than " +
                                             std::to_string(kMaxParamBytes) + " bytes"};
  if (const auto problem = byte_problem(lo->second))
    throw ApiError{ErrorKind::kBadInput, "parameter '" + key + "' contains " + *problem};
  return lo->second;
}

// The game a request names: position= (no history), moves= (from the empty
// board, rule 3 applied), or both (the moves played from the position).
GameRecord game_of(const Request& req, const Rules& rules) {
  std::optional<std::string> position = param(req, "position");
  const std::optional<std::string> moves = param(req, "moves");
  if (!position && !moves)
    throw ApiError{ErrorKind::kBadInput, "give position= or moves= (or both)"};
  State start = kEmptyBoard;
  if (position) {
    for (char& c : *position)
      if (c == '+') c = ' ';  // a form's space (the notation itself accepts '_')
    start = parse_position(*position, rules.variant);
  }
  std::string list = moves.value_or("");
  for (char& c : list)
    if (c == '+') c = ' ';  // a form's space
  return GameRecord::from_moves(rules, start, list);
}

Json supply_json(State st, const Variant& v) {
  Json out = Json::object();
  for (const Colour c : {Colour::kWhite, Colour::kBlack}) {
    Json side = Json::object();
    for (const Shape s : {Shape::kCircle, Shape::kTriangle})
      side[s == Shape::kCircle ? "circle" : "triangle"] =
          v.copies(int(s)) - st.count_on_board(make_piece(c, s));
    out[colour_name(c)] = std::move(side);
  }
  return out;
}

// The one vocabulary (schema/fano.schema.json): the report of `fano query
// --json` (analysis_json.hpp) with the request's game and the supply.
Json v2_head(const Variant& v, const GameRecord& game) {
  Json played = Json::array();
  for (const Move& m : game.moves()) played.push_back(format_move(m));
  Json j{{"variant", variant_slug(v)}};
  j.update(variant_json(v));
  j["start"] = format_position(game.start());
  j["moves_played"] = std::move(played);
  return j;
}

Json v2_position_json(const Variant& v, const GameRecord& game, const PositionReport& r) {
  Json j = v2_head(v, game);
  j.update(report_json(r));
  j["supply"] = supply_json(r.position, v);
  return j;
}

Json v2_mainline_json(const Variant& v, const GameRecord& game, const PositionReport& r) {
  Json j = v2_head(v, game);
  j.update(principal_variation_json(r));
  return j;
}

// POST /api/v2/{variant}/batch: the items of `fano query --batch` (a position,
// or "moves: ..." from the empty board) as a JSON array, answered in order
// with the CLI's lines (report_json, or value_only's three fields). All or
// nothing: the first bad item refuses the whole request, naming it.
Response batch_response(const Tablebase& tb, const Rules& rules, const std::string& body,
                        const Interrupt& interrupt, std::size_t max_items) {
  Json request;
  try {
    request = Json::parse(body);
  } catch (const std::exception&) {
    throw ApiError{ErrorKind::kBadInput,
                   "the batch body is not JSON (expected {\"items\": [...]})"};
  }
  if (!request.is_object() || !request.contains("items") || !request["items"].is_array())
    throw ApiError{ErrorKind::kBadInput,
                   "the batch body needs \"items\": an array of positions or \"moves: ...\""};
  for (const auto& [key, val] : request.items())
    if (key != "items" && key != "value_only")
      throw ApiError{ErrorKind::kBadInput,
                     "unknown batch field " + quote(key) + " (items, value_only)"};
  bool value_only = false;
  if (request.contains("value_only")) {
    if (!request["value_only"].is_boolean())
      throw ApiError{ErrorKind::kBadInput, "batch field 'value_only' must be true or false"};
    value_only = request["value_only"].get<bool>();
  }
  const Json& items = request["items"];
  if (items.size() > max_items)
    throw ApiError{ErrorKind::kTooLarge, "too many batch items: " + std::to_string(items.size()) +
                                             " (at most " + std::to_string(max_items) + ")"};
  Json answers = Json::array();
  std::string line;
  for (std::size_t i = 0; i < items.size(); ++i) {
    interrupt.poll();
    const std::string where = "batch item " + std::to_string(i + 1);
    if (!items[i].is_string()) throw ApiError{ErrorKind::kBadInput, where + " is not a string"};
    const std::string text = items[i].get<std::string>();
    if (text.size() > kMaxParamBytes)
      throw ApiError{ErrorKind::kBadInput,
                     where + " is longer than " + std::to_string(kMaxParamBytes) + " bytes"};
    if (const auto problem = byte_problem(text))
      throw ApiError{ErrorKind::kBadInput, where + " contains " + *problem};
    if (blank_batch_line(text)) throw ApiError{ErrorKind::kBadInput, where + " is empty"};
    line.clear();
    try {
      answer_batch_item(tb, rules, text, value_only, line);
    } catch (const Interrupted&) {
      throw;
    } catch (const UnreachablePosition& e) {
      // As on the GET routes: a legal position no game reaches.
      throw ApiError{ErrorKind::kUnreachable, where + " (" + quote(text) + "): " + e.what()};
    } catch (const std::exception& e) {
      throw ApiError{ErrorKind::kBadInput, where + " (" + quote(text) + "): " + e.what()};
    }
    answers.push_back(Json::parse(line));
  }
  return json_response(200, Json{{"variant", variant_slug(tb.variant())},
                                 {"value_only", value_only},
                                 {"answers", std::move(answers)}});
}

// The request's seed= (default 1): a whole number from 0 to 2^64-1.
std::uint64_t seed_param(const Request& req) {
  std::uint64_t seed = 1;
  if (const std::optional<std::string> s = param(req, "seed")) {
    const auto [end, ec] = std::from_chars(s->data(), s->data() + s->size(), seed);
    if (s->empty() || ec != std::errc() || end != s->data() + s->size())
      throw ApiError{ErrorKind::kBadInput,
                     "seed must be a whole number from 0 to 2^64-1, not " + quote(*s)};
  }
  return seed;
}

// GET /api/v2/{variant}/player?player=P&seed=S&moves=...: the move a self-play
// player (fano/players.hpp: random, greedy, search:K, horizon:H, perfect,
// perfect:P, nonlosing, engine, ...)
// makes in the game's position, with game_rng(seed, ply) as its generator, so
// that a seeded game is the same on every front end and every run.
constexpr int kMaxApiSearchDepth = 4;  // deeper searches take seconds in a browser

Json player_json(const Tablebase& tb, const Variant& v, const GameRecord& game,
                 const Request& req) {
  const std::optional<std::string> name = param(req, "player");
  if (!name)
    throw ApiError{ErrorKind::kBadInput,
                   "give player= (random, greedy, search:K, horizon:H, nonlosing, perfect:P, "
                   "perfect, engine)"};
  const std::uint64_t seed = seed_param(req);
  PlayerSpec spec;
  try {
    spec = parse_player(*name);
  } catch (const std::invalid_argument& e) {
    throw ApiError{ErrorKind::kBadInput, e.what()};
  }
  if (spec.kind == PlayerKind::kSearch && spec.depth > kMaxApiSearchDepth)
    throw ApiError{ErrorKind::kBadInput, "player " + quote(*name) + ": the API searches at most " +
                                             std::to_string(kMaxApiSearchDepth) + " plies deep"};
  probe_or_unreachable(tb, game.rules(), game.current());
  if (game.over()) throw ApiError{ErrorKind::kBadInput, "the game is over: no move to choose"};
  Rng rng = game_rng(seed, game.moves().size());
  const PlayerMove m = choose_player_move(spec, &tb, game, rng);
  Json j = v2_head(v, game);
  j["player"] = player_name(spec);
  j["seed"] = seed;
  j["move"] = format_move(m.move);
  return j;
}

Response asset(const char* content_type, std::string_view body) {
  Response r;
  r.content_type = content_type;
  r.body = std::string(body);
  return r;
}

}  // namespace

// The tables held, with what is derived from them; replaced whole when a
// table is added, so that a request answers from one consistent set.
// What the Api derives from a table once and keeps while it holds the
// table (across tables added): its puzzles by grade and its statistics,
// each made in steps under the requests' deadlines, a step resumed by the
// next request, one request at a time.
struct TableMemo {
  explicit TableMemo(const Tablebase& t) : puzzles(t), stats(t) {}
  std::mutex puzzles_mutex;
  PuzzleIndex puzzles;
  std::mutex stats_mutex;
  TableStatsCount stats;
};

struct ApiTables {
  std::vector<std::shared_ptr<const ServedTable>> list;
  std::map<const ServedTable*, std::shared_ptr<TableMemo>> memos;  // one a table of `list`
  std::string info_body;
  std::string etag_seed;         // the tables' checksums: answers change only with them
  std::uint64_t generation = 0;  // in the answer cache's keys
};

// What a route's handler is given.
struct RouteCall {
  const Request& req;
  const ApiTables& tables;
  const ServedTable* table;  // the {variant}'s, or nullptr for a route without one
  const Route& route;
};

namespace {

std::shared_ptr<const ApiTables> make_tables(std::vector<std::shared_ptr<const ServedTable>> list,
                                             const std::string& version, std::uint64_t generation,
                                             const ApiTables* previous = nullptr) {
  auto out = std::make_shared<ApiTables>();
  for (const auto& t : list) {
    std::shared_ptr<TableMemo> memo;
    if (previous)
      if (const auto kept = previous->memos.find(t.get()); kept != previous->memos.end())
        memo = kept->second;
    out->memos[t.get()] = memo ? std::move(memo) : std::make_shared<TableMemo>(t->table);
  }
  Json variants = Json::array();
  for (const auto& t : list) {
    const TablebaseHeader& h = t->table.header();
    Json v{{"name", variant_short_name(t->table.variant())},
           {"slug", variant_slug(t->table.variant())}};
    v.update(header_json(h));
    v.erase("version");
    v["checksum"] = hex64(h.checksum);
    // The file's name alone: a folder of the server's machine is none of a client's business.
    v["table"] = t->path.substr(t->path.find_last_of('/') + 1);
    variants.push_back(std::move(v));
    out->etag_seed += hex64(h.checksum);
  }
  out->info_body = json_text(Json{{"name", "fano"}, {"version", version}, {"variants", variants}});
  out->etag_seed += version;
  out->list = std::move(list);
  out->generation = generation;
  return out;
}

const ServedTable* table_for(const ApiTables& tables, const Variant& v) {
  for (const auto& t : tables.list)
    if (t->table.variant() == v) return t.get();
  return nullptr;
}

// ---------------------------------------------------------------------------
// The routes' handlers

Response index_page(const RouteCall&) { return asset("text/html; charset=utf-8", kIndexHtml); }
Response api_page(const RouteCall&) { return asset("text/html; charset=utf-8", kApiHtml); }

// GET /api/v2/info: the tables held, their counts and checksums.
Response info(const RouteCall& c) {
  Response r;
  r.body = c.tables.info_body;
  return r;
}

// GET /api/v2/rules: the rules options' description and every reading of
// the rules (rules_catalog_json), each with whether a table for it is loaded.
Response rules(const RouteCall& c) {
  Json out = rules_catalog_json();
  for (Json& reading : out["readings"]) {
    const Variant v = *variant_from_name(reading["slug"].get<std::string>());
    reading["served"] = table_for(c.tables, v) != nullptr;
  }
  return json_response(200, out);
}

// GET /api/v2/players: the levels a person may choose a computer opponent
// from, strongest first with their measured ratings (player_levels_json),
// each a name the player route takes.
Response players(const RouteCall&) { return json_response(200, player_levels_json()); }

// A position's report in the one vocabulary (always with the principal
// variation): the whole report, or its principal variation as move objects.
Response analysed(const RouteCall& c, bool mainline) {
  const Tablebase& tb = c.table->table;
  const Variant v = tb.variant();
  const Rules rules(v);
  const GameRecord game = game_of(c.req, rules);
  AnalysisOptions options;
  options.interrupt = c.req.interrupt;
  const PositionReport report = analyse(tb, game, options);
  return json_response(
      200, mainline ? v2_mainline_json(v, game, report) : v2_position_json(v, game, report));
}

Response v2_position(const RouteCall& c) { return analysed(c, false); }
Response v2_mainline(const RouteCall& c) { return analysed(c, true); }

Response board_picture(const RouteCall& c) {
  const Rules rules(c.table->table.variant());
  const GameRecord game = game_of(c.req, rules);
  // The picture of a position no game reaches is refused as the JSON route refuses it.
  probe_or_unreachable(c.table->table, rules, game.current());
  SvgOptions options = svg_options_for(game);
  options.notes.clear();
  return asset("image/svg+xml", board_svg(game.current(), options));
}

Response v2_player(const RouteCall& c) {
  const Variant v = c.table->table.variant();
  const GameRecord game = game_of(c.req, Rules(v));
  return json_response(200, player_json(c.table->table, v, game, c.req));
}

// Runs `work` under `m`, waiting for the request that holds it (the same
// table's listing) while polling the request's interrupt.
template <class Work>
void one_at_a_time(std::mutex& m, const Interrupt& interrupt, Work work) {
  std::unique_lock lock(m, std::defer_lock);
  while (!lock.try_lock()) {
    interrupt.poll();
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  work();
}

// A table's listing stopped by the request's deadline: 503, the listing
// kept and resumed by the next request.
[[noreturn]] void still_listing(const RouteCall& c, const Interrupted& e, const std::string& what,
                                std::size_t done) {
  if (e.reason() == Interrupted::Reason::kCancelled) throw e;
  throw ApiError{ErrorKind::kUnavailable,
                 "the " + what + " of '" + variant_slug(c.table->table.variant()) +
                     "' are being counted (" + std::to_string(done) + " of " +
                     std::to_string(c.table->table.size()) +
                     " classes so far, kept); retry after 1 s",
                 nullptr, 1};
}

TableMemo& memo_of(const RouteCall& c) { return *c.tables.memos.at(c.table); }

// GET /api/v2/{variant}/puzzle?seed=S[&grade=G]: a puzzle of the table
// (fano/puzzles.hpp): the first of the grade among kPuzzleSampleAttempts
// classes drawn with game_rng(seed, 0); when none is, one drawn with the
// seed among every puzzle of the grade (the table's listing, made once);
// 404 when the table has none (known at once once it is listed).
Response v2_puzzle(const RouteCall& c) {
  const std::uint64_t seed = seed_param(c.req);
  const std::optional<std::string> grade_text = param(c.req, "grade");
  std::optional<PuzzleGrade> grade;
  if (grade_text && !(grade = grade_from_name(*grade_text)))
    throw ApiError{ErrorKind::kBadInput,
                   "grade must be easy, medium or hard, not " + quote(*grade_text)};
  TableMemo& memo = memo_of(c);
  std::optional<Puzzle> puzzle;
  bool none = false;  // the table is listed and has no puzzle of the grade
  one_at_a_time(memo.puzzles_mutex, c.req.interrupt,
                [&] { none = memo.puzzles.listed() && memo.puzzles.count(grade) == 0; });
  if (!none)
    puzzle = sample_puzzle(c.table->table, seed, grade, kPuzzleSampleAttempts, c.req.interrupt);
  if (!puzzle && !none)
    one_at_a_time(memo.puzzles_mutex, c.req.interrupt, [&] {
      try {
        memo.puzzles.list(c.req.interrupt);
      } catch (const Interrupted& e) {
        still_listing(c, e, "puzzles", memo.puzzles.classes_listed());
      }
      puzzle = memo.puzzles.draw(seed, grade);
    });
  const Variant v = c.table->table.variant();
  if (!puzzle)
    throw ApiError{ErrorKind::kNotFound, "the table of '" + variant_slug(v) + "' has no puzzle" +
                                             (grade_text ? " of grade " + *grade_text : "")};
  return json_response(200, puzzle_json(v, seed, *puzzle));
}

// GET /api/v2/{variant}/stats: the table's statistics (fano/stats.hpp).
Response v2_stats(const RouteCall& c) {
  TableMemo& memo = memo_of(c);
  Json answer;
  one_at_a_time(memo.stats_mutex, c.req.interrupt, [&] {
    try {
      memo.stats.count(c.req.interrupt);
    } catch (const Interrupted& e) {
      still_listing(c, e, "statistics", memo.stats.classes_counted());
    }
    answer = table_stats_json(c.table->table, memo.stats.stats());
  });
  return json_response(200, answer);
}

// GET /api/v2/{variant}/review?moves=...: the game's review (review_json),
// its walk polling the request's Interrupt once a ply.
Response v2_review(const RouteCall& c) {
  const Tablebase& tb = c.table->table;
  const GameRecord game = game_of(c.req, Rules(tb.variant()));
  ReviewOptions options;
  options.interrupt = c.req.interrupt;
  return json_response(200, review_json(review_game(tb, game, options)));
}

Response v2_batch(const RouteCall& c) {
  return batch_response(c.table->table, Rules(c.table->table.variant()), c.req.body,
                        c.req.interrupt, c.route.max_items);
}

// The one route table (README, "HTTP API"; /api documents it).
constexpr RouteCost kCheap = RouteCost::kCheap, kLong = RouteCost::kLongHistory,
                    kAny = RouteCost::kAnyHistory, kExpensive = RouteCost::kExpensive;
constexpr RouteCaching kPage = RouteCaching::kPage, kAnswer = RouteCaching::kAnswer,
                       kList = RouteCaching::kList;
constexpr std::array<Route, 15> kRoutes{{
    {"GET", "/", kCheap, kPage, 0, index_page},
    {"GET", "/index.html", kCheap, kPage, 0, index_page},
    {"GET", "/api", kCheap, kPage, 0, api_page},
    {"GET", "/api/", kCheap, kPage, 0, api_page},
    {"GET", "/api/v2/info", kCheap, kList, 0, info},
    {"GET", "/api/v2/rules", kCheap, kList, 0, rules},
    // The list is compiled in: it changes with the version, as the pages do.
    {"GET", "/api/v2/players", kCheap, kPage, 0, players},
    {"GET", "/api/v2/{variant}", kAny, kAnswer, 0, v2_position},
    {"GET", "/api/v2/{variant}/mainline", kAny, kAnswer, 0, v2_mainline},
    {"GET", "/api/v2/{variant}/svg", kLong, kAnswer, 0, board_picture},
    // An analysis of every ply of the game, and a refutation of each mistake.
    {"GET", "/api/v2/{variant}/review", kAny, kAnswer, 0, v2_review},
    // Their moves= is a principal variation's worth of analysis at most.
    {"GET", "/api/v2/{variant}/player", kAny, kAnswer, 0, v2_player},
    // Measured: listing a table's puzzles or counting its statistics takes
    // up to seconds of CPU, once a table (kept, resumed under each deadline).
    {"GET", "/api/v2/{variant}/puzzle", kExpensive, kAnswer, 0, v2_puzzle},
    {"GET", "/api/v2/{variant}/stats", kExpensive, kAnswer, 0, v2_stats},
    {"POST", "/api/v2/{variant}/batch", kExpensive, RouteCaching::kNever, kMaxBatchItems, v2_batch},
}};

// Whether `path` has the pattern's segments; the "{variant}" segment's text
// goes to `variant`.
bool matches(std::string_view pattern, std::string_view path, std::string_view& variant) {
  std::string_view v;
  while (true) {
    const std::size_t p = pattern.find('/', 1), q = path.find('/', 1);
    const std::string_view ps = pattern.substr(0, p), qs = path.substr(0, q);
    if (ps == "/{variant}")
      v = qs.substr(std::min<std::size_t>(1, qs.size()));
    else if (ps != qs)
      return false;
    if (p == std::string_view::npos || q == std::string_view::npos) {
      if (p != q) return false;
      variant = v;
      return true;
    }
    pattern.remove_prefix(p);
    path.remove_prefix(q);
  }
}

}  // namespace

std::span<const Route> routes() { return kRoutes; }

RouteMatch match_route(std::string_view method, std::string_view path) {
  const std::string_view wanted = method == "HEAD" ? "GET" : method;
  RouteMatch m;
  std::string allowed;
  for (const Route& r : kRoutes) {
    std::string_view variant;
    if (!matches(r.pattern, path, variant)) continue;
    if (r.method == wanted) {
      m.route = &r;
      m.variant = variant;
      return m;
    }
    if (allowed.find(r.method) == std::string::npos)
      allowed += std::string(allowed.empty() ? "" : " or ") +
                 (r.method == "GET" ? "GET or HEAD" : std::string(r.method));
  }
  // Version 1 of the API is gone, whatever the method: its clients are told
  // where its questions went (no route has the path, so allowed is empty).
  if (path == "/api/v1" || path.rfind("/api/v1/", 0) == 0) {
    m.why = "no such route: " + quote(path) + " (the API's version 1 is gone: ask " +
            quote("/api/v2" + std::string(path.substr(7))) + " instead; /api lists the routes)";
    return m;
  }
  // A method no route of the path takes; a method other than GET and HEAD
  // is refused whatever the path.
  if (!allowed.empty() || wanted != "GET") {
    m.refusal = ErrorKind::kMethodNotAllowed;
    m.why = "method " + quote(method) + " is not allowed (" +
            (allowed.empty() ? std::string("GET or HEAD") : allowed) + ")";
    return m;
  }
  m.why = "no such route: " + quote(path);
  return m;
}

// Successful answers by request, in 16 shards each cleared whole when over its
// share of the budget: memory stays bounded whatever clients ask, and a
// repeated question (an explorer's every click asks for the position again)
// costs a lookup instead of an analysis.
struct Api::Cache {
  static constexpr std::size_t kShards = 16;
  struct Shard {
    std::mutex mutex;
    std::unordered_map<std::string, Response> answers;
    std::size_t bytes = 0;
  };
  explicit Cache(std::size_t budget) : shard_budget(budget / kShards) {}
  std::size_t shard_budget;
  std::array<Shard, kShards> shards;

  Shard& shard_of(const std::string& key) {
    return shards[std::hash<std::string>{}(key) % kShards];
  }
  std::optional<Response> find(const std::string& key) {
    Shard& s = shard_of(key);
    const std::lock_guard lock(s.mutex);
    const auto it = s.answers.find(key);
    if (it == s.answers.end()) return std::nullopt;
    return it->second;
  }
  void put(const std::string& key, const Response& r) {
    const std::size_t size = key.size() + r.body.size() + 256;
    if (size > shard_budget) return;
    Shard& s = shard_of(key);
    const std::lock_guard lock(s.mutex);
    if (s.bytes + size > shard_budget) {
      s.answers.clear();
      s.bytes = 0;
    }
    if (s.answers.emplace(key, r).second) s.bytes += size;
  }
};

// Identical requests in flight (the same cache key): the first computes the
// answer, the others wait for it (polling their own interrupt) instead of
// computing it again. A failed or stopped first leaves them to compute it.
struct Api::Flights {
  struct Flight {
    std::mutex mutex;
    std::condition_variable done_cv;
    bool done = false;
    std::optional<Response> answer;
  };
  std::mutex mutex;
  std::unordered_map<std::string, std::shared_ptr<Flight>> running;

  // The flight of `key`, and whether this request leads it.
  std::pair<std::shared_ptr<Flight>, bool> join(const std::string& key) {
    const std::lock_guard lock(mutex);
    auto [it, added] = running.try_emplace(key);
    if (added) it->second = std::make_shared<Flight>();
    return {it->second, added};
  }
  void land(const std::string& key, const std::shared_ptr<Flight>& f,
            std::optional<Response> answer) {
    {
      const std::lock_guard lock(mutex);
      running.erase(key);
    }
    {
      const std::lock_guard lock(f->mutex);
      f->done = true;
      f->answer = std::move(answer);
    }
    f->done_cv.notify_all();
  }
  // The leader's answer, or nullopt when it failed.
  static std::optional<Response> wait(Flight& f, const Interrupt& interrupt) {
    std::unique_lock lock(f.mutex);
    while (!f.done) {
      f.done_cv.wait_for(lock, std::chrono::milliseconds(10));
      if (!f.done) interrupt.poll();
    }
    return f.answer;
  }
};

namespace {

// The request as the answer cache knows it: the path and the parameters in
// name order (a multimap), the ones no route reads left out.
std::string request_key(const Request& req) {
  std::string key = req.path;
  for (const auto& [k, val] : req.params)
    if (is_read_param(k)) key += "\n" + k + "=" + val;
  return key;
}

// What an answer depends on besides the request: a reading's answers on its
// table alone (kept when another table is added); the others on the tables held.
std::string answer_scope(const RouteMatch& match, const ApiTables& tables) {
  if (!match.variant.empty())
    if (const std::optional<Variant> v = variant_from_name(std::string(match.variant)))
      if (const ServedTable* t = table_for(tables, *v))
        return "table " + hex64(t->table.header().checksum);
  return std::to_string(tables.generation);
}

}  // namespace

bool Api::answer_kept(const Request& req) const {
  if (!cache_) return false;
  const RouteMatch match = match_route(req.method, req.path);
  if (!match.route || match.route->caching == RouteCaching::kNever) return false;
  return cache_->find(answer_scope(match, *held()) + "\n" + request_key(req)).has_value();
}

Api::~Api() = default;

Api::Api(std::vector<ServedTable> tables, std::string version, std::size_t cache_bytes)
    : version_(std::move(version)),
      cache_(cache_bytes ? std::make_unique<Cache>(cache_bytes) : nullptr),
      flights_(std::make_unique<Flights>()) {
  std::vector<std::shared_ptr<const ServedTable>> list;
  for (ServedTable& t : tables) list.push_back(std::make_shared<const ServedTable>(std::move(t)));
  tables_ = make_tables(std::move(list), version_, 0);
}

std::shared_ptr<const ApiTables> Api::held() const {
  const std::lock_guard lock(mutex_);
  return tables_;
}

std::vector<std::shared_ptr<const ServedTable>> Api::tables() const { return held()->list; }

void Api::add_table(ServedTable table) {
  auto added = std::make_shared<const ServedTable>(std::move(table));
  {
    const std::lock_guard lock(mutex_);
    std::vector<std::shared_ptr<const ServedTable>> list;
    for (const auto& t : tables_->list)
      if (t->table.variant() != added->table.variant()) list.push_back(t);
    list.push_back(std::move(added));
    tables_ = make_tables(std::move(list), version_, tables_->generation + 1, tables_.get());
  }
  // The answers kept stay: a reading's answers are keyed by its table's
  // checksum, the lists' by the generation (the old ones age out).
}

void Api::set_pending(PendingTables pending) {
  auto p = std::make_shared<const PendingTables>(std::move(pending));
  const std::lock_guard lock(mutex_);
  pending_ = std::move(p);
}

Api::Counts Api::counts() const { return Counts{computed_.load(), joined_.load()}; }

void Api::set_before_computing(std::function<void(const Request&)> hook) {
  auto h = std::make_shared<const std::function<void(const Request&)>>(std::move(hook));
  const std::lock_guard lock(mutex_);
  before_computing_ = std::move(h);
}

Response Api::route(const Request& req, const RouteMatch& match,
                    std::shared_ptr<const ApiTables> tables) const {
  const Route& route = *match.route;
  const ServedTable* table = nullptr;
  if (route.pattern.find("{variant}") != std::string_view::npos) {
    const std::string name(match.variant);
    const std::optional<Variant> v = variant_from_name(name);
    if (v) table = table_for(*tables, *v);
    std::shared_ptr<const PendingTables> pending;
    if (!table && v) {
      const std::lock_guard lock(mutex_);
      pending = pending_;
    }
    if (pending && *pending) {
      if (const std::optional<TableProgress> p = (*pending)(*v, req.client)) {
        const std::string slug = variant_slug(*v);
        if (p->state == "refused")
          throw ApiError{ErrorKind::kMissing,
                         "variant " + quote(name) + " is not served: " + p->stage};
        Json progress{{"reading", slug},
                      {"state", p->state},
                      {"ahead", p->ahead},
                      {"stage", p->stage},
                      {"seconds", p->seconds}};
        const std::string why =
            p->state == "failed" ? "could not be made (" + p->stage + "); it is tried again in " +
                                       std::to_string(p->retry_after) + " s"
            : p->state == "busy"
                ? "is not queued: " + p->stage + "; retry after " + std::to_string(p->retry_after) +
                      " s"
                : "is being made (" + p->state +
                      (p->state == "queued" ? ", " + std::to_string(p->ahead) + " ahead" : "") +
                      "); retry after " + std::to_string(p->retry_after) + " s";
        throw ApiError{ErrorKind::kUnavailable, "the table of '" + slug + "' " + why,
                       Json{{"progress", std::move(progress)}}, p->retry_after};
      }
    }
    if (!table && v)
      throw ApiError{ErrorKind::kMissing, "variant " + quote(name) +
                                              " is not served (no table loaded: 'fano solve "
                                              "--rules " +
                                              variant_short_name(*v) + " --tables DIR' makes it)"};
    if (!table) {
      std::string served;
      for (const auto& s : tables->list)
        served += (served.empty() ? "" : ", ") + variant_short_name(s->table.variant());
      throw ApiError{ErrorKind::kNotFound, "unknown variant " + quote(name) + " (served here: " +
                                               served + "; /api/v2/rules lists them)"};
    }
  }
  return route.answer(RouteCall{req, *tables, table, route});
}

Response Api::handle(const Request& req) const {
  Response r;
  try {
    const RouteMatch match = match_route(req.method, req.path);
    if (!match.route) throw ApiError{match.refusal, match.why};
    const RouteCaching caching = match.route->caching;
    std::shared_ptr<const ApiTables> tables = held();
    if (caching == RouteCaching::kNever) {
      r = route(req, match, std::move(tables));
      r.headers.push_back({"Cache-Control", "no-store"});
    } else {
      const std::string key = request_key(req);
      const std::string cache_key = answer_scope(match, *tables) + "\n" + key;
      std::optional<Response> cached = cache_ ? cache_->find(cache_key) : std::nullopt;
      if (!cached) {
        const auto [flight, leader] = flights_->join(cache_key);
        if (!leader) {
          ++joined_;
          cached = Flights::wait(*flight, req.interrupt);
        }
        if (cached) {
          // the first identical request's answer
        } else {
          std::optional<Response> answer;
          // The waiting ones are released whatever happens here.
          struct Landing {
            Flights& flights;
            const std::string& key;
            const std::shared_ptr<Flights::Flight>& flight;
            bool leader;
            std::optional<Response>& answer;
            ~Landing() {
              if (leader) flights.land(key, flight, std::move(answer));
            }
          } landing{*flights_, cache_key, flight, leader, answer};
          const std::string seed = tables->etag_seed;
          std::shared_ptr<const std::function<void(const Request&)>> hook;
          {
            const std::lock_guard lock(mutex_);
            hook = before_computing_;
          }
          if (hook && *hook) (*hook)(req);
          ++computed_;
          r = route(req, match, std::move(tables));
          // The answer is a function of the request and the tables: an entity tag
          // from the tables' checksums and the request lets clients revalidate.
          const auto bytes = [](const std::string& t) {
            return std::span(reinterpret_cast<const std::uint8_t*>(t.data()), t.size());
          };
          r.headers.push_back(
              {"ETag", "\"" + hex64(fnv1a64(bytes(key), fnv1a64(bytes(seed)))) + "\""});
          // An answer never changes for its table; the pages change with the
          // version, the lists with the tables held.
          r.headers.push_back({"Cache-Control", caching == RouteCaching::kAnswer
                                                    ? "public, max-age=86400"
                                                    : "no-cache"});
          if (cache_) cache_->put(cache_key, r);
          answer = r;
        }
      }
      if (cached) r = std::move(*cached);
      const std::string& etag = r.headers.front().second;  // route() adds no header
      if (!req.if_none_match.empty() && req.if_none_match == etag) {
        r.status = 304;
        r.body.clear();
      }
    }
  } catch (const ApiError& e) {
    Json body{{"error", e.message}};
    if (e.extra.is_object()) body.update(e.extra);
    r = json_response(error_info(e.kind).http_status, body);
    if (e.retry_after > 0) r.headers.push_back({"Retry-After", std::to_string(e.retry_after)});
  } catch (const Interrupted& e) {
    // Not cached (thrown before the answer is kept): asked again, it is computed again.
    r = error_response(
        ErrorKind::kUnavailable,
        std::string(e.what()) + (e.reason() == Interrupted::Reason::kDeadline
                                     ? " (the server's limit for one request); retry later, or "
                                       "ask about a shorter game"
                                     : " (the client closed its connection)"));
  } catch (const NotationError& e) {
    r = error_response(ErrorKind::kBadInput, e.what());
  } catch (const UnreachablePosition& e) {
    r = error_response(ErrorKind::kUnreachable, e.what());
  } catch (const TablebaseError& e) {
    r = error_response(e.kind(), e.what());
  } catch (const std::exception& e) {
    r = error_response(ErrorKind::kInternal, "internal error: " + quote(e.what()));
  }
  if (r.content_type == "application/json")
    r.headers.push_back({"Access-Control-Allow-Origin", "*"});
  for (auto& h : security_headers(req.path)) r.headers.push_back(std::move(h));
  return r;
}

std::vector<std::pair<std::string, std::string>> security_headers(std::string_view path) {
  // The explorer runs its one inline script (allowed by its hash, computed
  // when the page is embedded) and talks to this server only; inline styles
  // are allowed (a style attribute, the SVG board's). The API page has no
  // script. Everything else (JSON, SVG) may load nothing at all.
  static const std::string kLocked =
      "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
  static const std::string kExplorer = "default-src 'none'; script-src " +
                                       std::string(kIndexHtml_script_hashes) +
                                       "; style-src 'unsafe-inline'; img-src data:; "
                                       "connect-src 'self'; base-uri 'none'; form-action 'none'; "
                                       "frame-ancestors 'none'";
  static const std::string kApiPage =
      "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; "
      "form-action 'none'; frame-ancestors 'none'";
  const std::string& policy = path == "/" || path == "/index.html" ? kExplorer
                              : path == "/api" || path == "/api/"  ? kApiPage
                                                                   : kLocked;
  return {{"X-Content-Type-Options", "nosniff"},
          {"Content-Security-Policy", policy},
          {"X-Frame-Options", "DENY"},  // frame-ancestors for browsers without CSP 2
          {"Referrer-Policy", "no-referrer"}};
}

}  // namespace fano::server
