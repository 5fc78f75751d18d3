#include "fano/api.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

#include "fano/analysis.hpp"
#include "fano/analysis_json.hpp"
#include "fano/batch.hpp"
#include "fano/json.hpp"
#include "fano/notation.hpp"
#include "fano/players.hpp"
#include "fano/rules_options.hpp"
#include "fano/svg.hpp"
#include "fano/tablebase_json.hpp"
#include "web_assets.hpp"

namespace fano::server {
namespace {

constexpr std::size_t kMaxParamBytes = 4096;  // a position is ~20 bytes, 1000 moves ~4 KB

struct ApiError {
  int status;
  std::string message;
};

Response json_response(int status, const Json& body) {
  Response r;
  r.status = status;
  r.body = json_text(body);
  return r;
}

Response error_response(int status, const std::string& message) {
  return json_response(status, Json{{"error", message}});
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
constexpr std::array<std::string_view, 4> kParams{"moves", "player", "position", "seed"};

bool is_read_param(std::string_view key) {
  return std::find(kParams.begin(), kParams.end(), key) != kParams.end();
}

// The one value of a query parameter, if given; 400 when repeated, too long,
// or not text.
std::optional<std::string> param(const Request& req, const std::string& key) {
  if (!is_read_param(key)) throw std::logic_error("parameter '" + key + "' is not in kParams");
  const auto [lo, hi] = req.params.equal_range(key);
  if (lo == hi) return std::nullopt;
  if (std::next(lo) != hi) throw ApiError{400, "parameter '" + key + "' given more than once"};
  if (lo->second.size() > kMaxParamBytes)
    throw ApiError{
        400, "parameter '" + key + "' is longer than " + std::to_string(kMaxParamBytes) + " bytes"};
  if (const auto problem = byte_problem(lo->second))
    throw ApiError{400, "parameter '" + key + "' contains " + *problem};
  return lo->second;
}

// The game a request names: position= (no history), moves= (from the empty
// board, rule 3 applied), or both (the moves played from the position).
GameRecord game_of(const Request& req, const Rules& rules) {
  std::optional<std::string> position = param(req, "position");
  const std::optional<std::string> moves = param(req, "moves");
  if (!position && !moves) throw ApiError{400, "give position= or moves= (or both)"};
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

Json head_json(const Variant& v, const GameRecord& game) {
  Json j{{"variant", variant_short_name(v)}};
  j.update(variant_json(v));
  Json played = Json::array();
  for (const Move& m : game.moves()) played.push_back(format_move(m));
  j["start"] = format_position(game.start());
  j["moves_played"] = std::move(played);
  return j;
}

// v2: the one vocabulary (schema/fano.schema.json): the report of `fano
// query --json` (analysis_json.hpp) with the request's game and the supply.
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

Json trap_json(const Tablebase& tb, const Rules& rules, const RatedMove& m) {
  if (m.result.value != Value::kDraw || m.repeats) return nullptr;
  const TrapChance t = trap_chance(tb, rules, m.child);
  return Json{{"errors", t.errors}, {"choices", t.choices}};
}

// v1 (the explorer page's shape, kept): a move's "category" is its position's
// value for the side to move there (Lichess's convention), not the mover's result.
// A drawing move also carries its trap (the engine's model of a fallible
// opponent, trap_chance): how many of the opponent's replies lose, of those she
// would choose among; null for the other moves and for a repeating move (it
// ends the game).
Json position_json(const Tablebase& tb, const Variant& v, const GameRecord& game,
                   const PositionReport& r) {
  const Rules rules(v);
  Json j = head_json(v, game);
  const State st = r.position;
  j["position"] = format_position(st);
  j["to_move"] = colour_name(st.to_move());
  j["category"] = value_name(r.value.value);
  j["plies"] = plies_json(r.value);
  j["table_category"] = value_name(r.table_value.value);
  j["table_plies"] = plies_json(r.table_value);
  j["game_over"] = r.game_over ? game_end_json(*r.game_over, st) : Json(nullptr);
  j["history_note"] = r.history_note.empty() ? Json(nullptr) : Json(r.history_note);
  j["supply"] = supply_json(st, v);
  Json moves = Json::array();
  for (const RatedMove& m : r.moves) {
    const Outcome o = after_move(m.result);
    moves.push_back(
        {{"move", format_move(m.move)},
         {"from", m.move.is_placement() ? Json(nullptr) : Json(m.move.from + 1)},
         {"to", m.move.to + 1},
         {"shape", m.move.is_placement()
                       ? Json(shape_of(m.move.piece) == Shape::kCircle ? "circle" : "triangle")
                       : Json(nullptr)},
         {"position", format_position(m.child)},
         {"category", value_name(o.value)},
         {"plies", plies_json(o)},
         {"repeats", m.repeats},
         {"trap", trap_json(tb, rules, m)}});
  }
  j["moves"] = std::move(moves);
  j["engine_move"] =
      r.engine_choice ? Json(format_move(r.moves[*r.engine_choice].move)) : Json(nullptr);
  return j;
}

// Best play from the game's position: each move with the position it reaches
// and that position's value for its side to move. Along a principal variation
// every move keeps the value, so the value after k moves is the start's value
// seen k plies later (a draw stays a draw).
Json mainline_json(const Variant& v, const GameRecord& game, const PositionReport& r) {
  Json j = head_json(v, game);
  j["position"] = format_position(r.position);
  j["to_move"] = colour_name(r.position.to_move());
  j["category"] = value_name(r.value.value);
  j["plies"] = plies_json(r.value);
  Json line = Json::array();
  Outcome o = r.value;
  for (std::size_t i = 0; i < r.pv.size(); ++i) {
    o = after_move(o);
    line.push_back({{"move", format_move(r.pv[i])},
                    {"position", format_position(r.pv_positions[i])},
                    {"category", value_name(o.value)},
                    {"plies", plies_json(o)}});
  }
  j["mainline"] = std::move(line);
  const State last = r.pv_positions.empty() ? r.position : r.pv_positions.back();
  j["end"] = r.pv_end ? game_end_json(*r.pv_end, last) : Json(nullptr);
  j["continues_drawn"] = r.pv_continues_drawn;
  j["winner"] =
      r.pv_end && r.pv_end->loser ? Json(colour_name(opponent(*r.pv_end->loser))) : Json(nullptr);
  return j;
}

// POST /api/v2/{variant}/batch: the items of `fano query --batch` (a position,
// or "moves: ..." from the empty board) as a JSON array, answered in order
// with the CLI's lines (report_json, or value_only's three fields). All or
// nothing: the first bad item refuses the whole request, naming it.
Response batch_response(const Tablebase& tb, const Rules& rules, const std::string& body,
                        const Interrupt& interrupt) {
  Json request;
  try {
    request = Json::parse(body);
  } catch (const std::exception&) {
    throw ApiError{400, "the batch body is not JSON (expected {\"items\": [...]})"};
  }
  if (!request.is_object() || !request.contains("items") || !request["items"].is_array())
    throw ApiError{400, "the batch body needs \"items\": an array of positions or \"moves: ...\""};
  for (const auto& [key, val] : request.items())
    if (key != "items" && key != "value_only")
      throw ApiError{400, "unknown batch field '" + key + "' (items, value_only)"};
  bool value_only = false;
  if (request.contains("value_only")) {
    if (!request["value_only"].is_boolean())
      throw ApiError{400, "batch field 'value_only' must be true or false"};
    value_only = request["value_only"].get<bool>();
  }
  const Json& items = request["items"];
  if (items.size() > kMaxBatchItems)
    throw ApiError{413, "too many batch items: " + std::to_string(items.size()) + " (at most " +
                            std::to_string(kMaxBatchItems) + ")"};
  Json answers = Json::array();
  std::string line;
  for (std::size_t i = 0; i < items.size(); ++i) {
    interrupt.poll();
    const std::string where = "batch item " + std::to_string(i + 1);
    if (!items[i].is_string()) throw ApiError{400, where + " is not a string"};
    const std::string text = items[i].get<std::string>();
    if (text.size() > kMaxParamBytes)
      throw ApiError{400, where + " is longer than " + std::to_string(kMaxParamBytes) + " bytes"};
    if (const auto problem = byte_problem(text))
      throw ApiError{400, where + " contains " + *problem};
    if (blank_batch_line(text)) throw ApiError{400, where + " is empty"};
    line.clear();
    if (!answer_batch_line(tb, rules, BatchLine{text, i + 1}, value_only, line)) {
      const Json bad = Json::parse(line);
      // A position no game reaches is 422, as on the GET routes.
      const std::string message = bad["error"].get<std::string>();
      throw ApiError{message.find("no game reaches") != std::string::npos ? 422 : 400,
                     where + " ('" + text + "'): " + message};
    }
    answers.push_back(Json::parse(line));
  }
  return json_response(200, Json{{"variant", variant_slug(tb.variant())},
                                 {"value_only", value_only},
                                 {"answers", std::move(answers)}});
}

// GET /api/v2/{variant}/player?player=P&seed=S&moves=...: the move a self-play
// player (fano/players.hpp: random, greedy, search:K, perfect, perfect:P,
// nonlosing, engine, ...)
// makes in the game's position, with game_rng(seed, ply) as its generator, so
// that a seeded game is the same on every front end and every run.
constexpr int kMaxApiSearchDepth = 4;  // deeper searches take seconds in a browser

Json player_json(const Tablebase& tb, const Variant& v, const GameRecord& game,
                 const Request& req) {
  const std::optional<std::string> name = param(req, "player");
  if (!name)
    throw ApiError{
        400, "give player= (random, greedy, search:K, nonlosing, perfect:P, perfect, engine)"};
  std::uint64_t seed = 1;
  if (const std::optional<std::string> s = param(req, "seed")) {
    const auto [end, ec] = std::from_chars(s->data(), s->data() + s->size(), seed);
    if (s->empty() || ec != std::errc() || end != s->data() + s->size())
      throw ApiError{400, "seed must be a whole number from 0 to 2^64-1, not '" + *s + "'"};
  }
  PlayerSpec spec;
  try {
    spec = parse_player(*name);
  } catch (const std::invalid_argument& e) {
    throw ApiError{400, e.what()};
  }
  if (spec.kind == PlayerKind::kSearch && spec.depth > kMaxApiSearchDepth)
    throw ApiError{400, "player '" + *name + "': the API searches at most " +
                            std::to_string(kMaxApiSearchDepth) + " plies deep"};
  probe_or_unreachable(tb, game.rules(), game.current());
  if (game.over()) throw ApiError{400, "the game is over: no move to choose"};
  Rng rng = game_rng(seed, game.moves().size());
  const PlayerMove m = choose_player_move(spec, &tb, game, rng);
  Json j = v2_head(v, game);
  j["player"] = player_name(spec);
  j["seed"] = seed;
  j["move"] = format_move(m.move);
  return j;
}

// A move forms a line (and loses at once): its result is a loss in 1 ply.
bool loses_at_once(const RatedMove& m) {
  return m.result.value == Value::kLoss && m.result.plies == 1;
}

// GET /api/v2/{variant}/puzzle?seed=S: a position of the table (a bare
// position, no history) in which exactly one move keeps the side to move's
// value (the only winning move, or the only move that does not lose), drawn
// with game_rng(seed, 0) among the table's classes. Its difficulty grows with
// the plies to the end and with the tempting moves (those that form no line
// but give the value away).
Json puzzle_json(const Tablebase& tb, const Request& req) {
  std::uint64_t seed = 1;
  if (const std::optional<std::string> s = param(req, "seed")) {
    const auto [end, ec] = std::from_chars(s->data(), s->data() + s->size(), seed);
    if (s->empty() || ec != std::errc() || end != s->data() + s->size())
      throw ApiError{400, "seed must be a whole number from 0 to 2^64-1, not '" + *s + "'"};
  }
  const Rules rules(tb.variant());
  Rng rng = game_rng(seed, 0);
  for (int attempt = 0; attempt < 200000; ++attempt) {
    const State st = tb.position_at(std::size_t(rng.below(tb.size())));
    const Outcome value = *tb.probe(st);
    if (value.value == Value::kLoss) continue;
    const std::vector<RatedMove> moves = rate_moves(tb, rules, st);
    if (moves.size() < 3) continue;
    int keeping = 0, tempting = 0;
    for (const RatedMove& m : moves) {
      if (m.result.value == value.value)
        ++keeping;
      else if (!loses_at_once(m))
        ++tempting;
    }
    if (keeping != 1 || tempting == 0) continue;
    const int score = (value.value == Value::kWin ? value.plies : 12) / 2 + 2 * tempting;
    Json j{{"variant", variant_slug(tb.variant())},
           {"seed", seed},
           {"position", format_position(st)},
           {"to_move", colour_name(st.to_move())},
           {"value", value_name(value.value)},
           {"plies", plies_json(value)},
           {"moves", moves.size()},
           {"tempting", tempting},
           {"difficulty", score < 6    ? "easy"
                          : score < 12 ? "medium"
                                       : "hard"},
           {"score", score},
           {"solution", format_move(moves.front().move)}};
    return j;
  }
  throw ApiError{404, "no puzzle found for seed " + std::to_string(seed)};
}

// GET /api/v2/{variant}/stats: the reachable positions won and lost by plies
// to the end (each class counted as many times as it has members), their
// totals, and the longest wins with their lines.
Json stats_json(const Tablebase& tb) {
  std::map<int, std::array<std::uint64_t, 2>> by_plies;  // plies -> {wins, losses}
  std::uint64_t draws = 0;
  int longest = -1;
  const Symmetry& sym = symmetry_of(tb.variant());
  for (std::size_t i = 0; i < tb.size(); ++i) {
    const Outcome o = tb.outcome_at(i);
    if (o.value == Value::kDraw) {
      ++draws;
      continue;
    }
    by_plies[o.plies][o.value == Value::kWin ? 0 : 1] +=
        std::uint64_t(sym.orbit_size(tb.position_at(i)));
    if (o.value == Value::kWin) longest = std::max(longest, int(o.plies));
  }
  Json rows = Json::array();
  for (const auto& [plies, n] : by_plies)
    rows.push_back({{"plies", plies}, {"win", n[0]}, {"loss", n[1]}});
  // The classes with the longest wins (at most 5), each with its principal variation.
  Json wins = Json::array();
  for (std::size_t i = 0; i < tb.size() && wins.size() < 5; ++i) {
    const Outcome o = tb.outcome_at(i);
    if (o.value != Value::kWin || int(o.plies) != longest) continue;
    const PositionReport r = analyse(tb, tb.position_at(i));
    Json line = Json::array();
    for (const Move& m : r.pv) line.push_back(format_move(m));
    wins.push_back({{"position", format_position(r.position)},
                    {"value", value_name(r.value.value)},
                    {"plies", plies_json(r.value)},
                    {"line", std::move(line)}});
  }
  const TablebaseHeader& h = tb.header();
  return Json{{"variant", variant_slug(tb.variant())},
              {"classes", tb.size()},
              {"positions",
               {{"reachable", h.reachable}, {"win", h.win}, {"draw", h.draw}, {"loss", h.loss}}},
              {"draw_classes", draws},
              {"by_plies", std::move(rows)},
              {"longest_wins", std::move(wins)}};
}

Response asset(const char* content_type, std::string_view body) {
  Response r;
  r.content_type = content_type;
  r.body = std::string(body);
  return r;
}

}  // namespace

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

Api::~Api() = default;

Api::Api(std::vector<ServedTable> tables, std::string version, std::size_t cache_bytes)
    : tables_(std::move(tables)),
      version_(std::move(version)),
      cache_(cache_bytes ? std::make_unique<Cache>(cache_bytes) : nullptr) {
  Json variants = Json::array();
  for (const ServedTable& t : tables_) {
    const TablebaseHeader& h = t.table.header();
    Json v{{"name", variant_short_name(t.table.variant())},
           {"slug", variant_slug(t.table.variant())}};
    v.update(header_json(h));
    v.erase("version");
    v["checksum"] = hex64(h.checksum);
    // The file's name alone: a folder of the server's machine is none of a client's business.
    v["table"] = t.path.substr(t.path.find_last_of('/') + 1);
    variants.push_back(std::move(v));
    etag_seed_ += hex64(h.checksum);
  }
  info_body_ = json_text(Json{{"name", "fano"}, {"version", version_}, {"variants", variants}});
  etag_seed_ += version_;
}

// GET /api/v2/rules: the rules options' description and every reading of
// the rules (rules_catalog_json), each with whether a table for it is loaded.
Json Api::rules_json() const {
  Json out = rules_catalog_json();
  for (Json& reading : out["readings"]) {
    const Variant v = *variant_from_name(reading["slug"].get<std::string>());
    bool served = false;
    for (const ServedTable& t : tables_) served = served || t.table.variant() == v;
    reading["served"] = served;
  }
  return out;
}

const ServedTable* Api::table_for(std::string_view name) const {
  const std::optional<Variant> v = variant_from_name(name);
  if (!v) return nullptr;
  for (const ServedTable& t : tables_)
    if (t.table.variant() == *v) return &t;
  return nullptr;
}

Response Api::route(const Request& req) const {
  const std::string& path = req.path;
  if (path == "/" || path == "/index.html") return asset("text/html; charset=utf-8", kIndexHtml);
  if (path == "/api" || path == "/api/") return asset("text/html; charset=utf-8", kApiHtml);
  if (path == "/api/v1/info") {
    Response r;
    r.body = info_body_;
    return r;
  }
  if (path == "/api/v2/rules") return json_response(200, rules_json());
  // /api/v1/ (the explorer's shape) or /api/v2/ (the one vocabulary).
  const bool v2 = path.rfind("/api/v2/", 0) == 0;
  if (path.rfind("/api/v1/", 0) != 0 && !v2) throw ApiError{404, "no such route: " + path};
  std::string_view rest = std::string_view(path).substr(std::string_view("/api/v1/").size());
  std::string_view name = rest, what;
  if (const std::size_t slash = rest.find('/'); slash != std::string_view::npos) {
    name = rest.substr(0, slash);
    what = rest.substr(slash + 1);
  }
  const bool batch = v2 && what == "batch";
  if (!what.empty() && what != "mainline" && what != "svg" && what != "player" &&
      what != "puzzle" && what != "stats" && !batch)
    throw ApiError{404, "no such route: " + path};
  if (batch != (req.method == "POST"))
    throw ApiError{405, batch ? "method " + req.method + " is not allowed (POST a batch)"
                              : "method " + req.method + " is not allowed (GET or HEAD)"};
  const ServedTable* t = table_for(name);
  if (!t) {
    if (variant_from_name(name))
      throw ApiError{404, "variant '" + std::string(name) +
                              "' is not served (no table loaded: 'fano solve --rules " +
                              std::string(name) + " --tables DIR' makes it)"};
    std::string served;
    for (const ServedTable& s : tables_)
      served += (served.empty() ? "" : ", ") + variant_short_name(s.table.variant());
    throw ApiError{404, "unknown variant '" + std::string(name) + "' (served here: " + served +
                            "; /api/v1/info lists them)"};
  }
  const Variant v = t->table.variant();
  const Rules rules(v);
  if (batch) return batch_response(t->table, rules, req.body, req.interrupt);
  if (what == "puzzle" || what == "stats") {
    if (!v2) throw ApiError{404, "no such route: " + path + " (under /api/v2/)"};
    return json_response(200, what == "puzzle" ? puzzle_json(t->table, req) : stats_json(t->table));
  }
  const GameRecord game = game_of(req, rules);
  if (what == "player") {
    if (!v2) throw ApiError{404, "no such route: " + path + " (the players are under /api/v2/)"};
    return json_response(200, player_json(t->table, v, game, req));
  }
  if (what == "svg") {
    // The picture of a position no game reaches is refused as the JSON route refuses it.
    probe_or_unreachable(t->table, rules, game.current());
    SvgOptions options = svg_options_for(game);
    options.notes.clear();
    return asset("image/svg+xml", board_svg(game.current(), options));
  }
  AnalysisOptions options;
  options.principal_variation = v2 || what == "mainline";  // v2 is the whole report
  options.interrupt = req.interrupt;
  const PositionReport report = analyse(t->table, game, options);
  if (v2)
    return json_response(200, what == "mainline" ? v2_mainline_json(v, game, report)
                                                 : v2_position_json(v, game, report));
  return json_response(200, what == "mainline" ? mainline_json(v, game, report)
                                               : position_json(t->table, v, game, report));
}

Response Api::handle(const Request& req) const {
  Response r;
  try {
    // POST only for the batch route (route() checks which); its answers are not cached.
    const bool post = req.method == "POST";
    const bool batch_path = req.path.rfind("/api/v2/", 0) == 0 && req.path.size() > 6 &&
                            req.path.compare(req.path.size() - 6, 6, "/batch") == 0;
    if (req.method != "GET" && req.method != "HEAD" && !(post && batch_path))
      throw ApiError{405, "method " + req.method + " is not allowed (GET or HEAD" +
                              (batch_path ? "; POST a batch)" : ")")};
    // The parameters in name order (a multimap), the ones no route reads left out.
    std::string key = req.path;
    for (const auto& [k, val] : req.params)
      if (is_read_param(k)) key += "\n" + k + "=" + val;
    std::optional<Response> cached = cache_ && !post ? cache_->find(key) : std::nullopt;
    if (post) {
      r = route(req);
      r.headers.push_back({"Cache-Control", "no-store"});
    } else if (cached) {
      r = std::move(*cached);
    } else {
      r = route(req);
      // The answer is a function of the request and the tables: an entity tag
      // from the tables' checksums and the request lets clients revalidate.
      const auto bytes = [](const std::string& t) {
        return std::span(reinterpret_cast<const std::uint8_t*>(t.data()), t.size());
      };
      r.headers.push_back(
          {"ETag", "\"" + hex64(fnv1a64(bytes(key), fnv1a64(bytes(etag_seed_)))) + "\""});
      // API answers never change for these tables; the pages change with the version.
      r.headers.push_back({"Cache-Control", (req.path.rfind("/api/v1/", 0) == 0 ||
                                             req.path.rfind("/api/v2/", 0) == 0)
                                                ? "public, max-age=86400"
                                                : "no-cache"});
      if (cache_) cache_->put(key, r);
    }
    const std::string& etag = r.headers.front().second;  // route() adds no header
    if (!post && !req.if_none_match.empty() && req.if_none_match == etag) {
      r.status = 304;
      r.body.clear();
    }
  } catch (const ApiError& e) {
    r = error_response(e.status, e.message);
  } catch (const Interrupted& e) {
    // Not cached (thrown before the answer is kept): asked again, it is computed again.
    r = error_response(503, std::string(e.what()) +
                                (e.reason() == Interrupted::Reason::kDeadline
                                     ? " (the server's limit for one request); retry later, or "
                                       "ask about a shorter game"
                                     : " (the client closed its connection)"));
  } catch (const NotationError& e) {
    r = error_response(error_info(ErrorKind::kBadInput).http_status, e.what());
  } catch (const UnreachablePosition& e) {
    r = error_response(error_info(ErrorKind::kUnreachable).http_status, e.what());
  } catch (const TablebaseError& e) {
    r = error_response(error_info(e.kind()).http_status, e.what());
  } catch (const std::exception& e) {
    r = error_response(error_info(ErrorKind::kInternal).http_status,
                       std::string("internal error: ") + e.what());
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
