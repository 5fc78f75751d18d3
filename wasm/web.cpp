// The explorer's engine in WebAssembly: the same Api as `fano serve`
// (fano/api.hpp), answering from tables the serial solver builds in memory
// when a variant is first asked for. The page calls four C functions
// (exported by wasm/CMakeLists.txt) through emscripten's ccall; each returns
// JSON text that stays valid until the next call.
//
//   fano_variants()                 -> [{"name", "slug", "description", "named", "solved"}]
//   fano_solve(name)                -> {"variant", "slug", "classes", "seconds", "stages",
//                                       "memory_bytes"} or
//   {"error"}
//
// "stages": where a solve's seconds went (enumerate, graph, retrograde as the
// solver times them; table: the in-memory table and its Api), for
// bench/static-explorer.py; empty when the variant was solved before.
//   fano_request(method, path, params) -> {"status", "content_type", "headers", "body"}
//
// params is a JSON array of [key, value] pairs, already decoded (the page
// builds it with URLSearchParams), so a request means what it means over HTTP.
//
//   fano_warm()                     -> {"warmed": reading}
//
// runs once what a page's first position runs (a solve, the position's
// answer, its picture) on a small reading and forgets it. A browser compiles
// a module's functions when they are first called, and the page's every
// instance of the module shares that code: the page's head starts a second
// worker that calls this while its engine loads and solves, so that the
// first position's answers do not wait for their code to be compiled.
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "fano/api.hpp"
#include "fano/board.hpp"
#include "fano/json.hpp"
#include "fano/solver.hpp"
#include "fano/version.hpp"

namespace {

using namespace fano;

struct Engine {
  std::vector<server::ServedTable> tables;  // in the order solved
  std::unique_ptr<server::Api> api;
  std::string result;  // the last answer, returned to JavaScript

  bool solved(const Variant& v) const {
    for (const auto& t : tables)
      if (t.table.variant() == v) return true;
    return false;
  }
};

Engine& engine() {
  static Engine e;
  return e;
}

const char* reply(const Json& j) {
  engine().result = j.dump();
  return engine().result.c_str();
}

// The Api answers from the tables solved so far (a new Api per solve: the
// info route and the entity tags name the tables served).
void rebuild_api() {
  Engine& e = engine();
  e.api = std::make_unique<server::Api>(e.tables, kVersion, std::size_t(16) << 20);
}

// The module's memory now: a WebAssembly memory only grows, so this is the
// peak of every solve so far (the budget bench/ and the README report).
std::size_t memory_bytes() {
#ifdef __EMSCRIPTEN__
  return __builtin_wasm_memory_size(0) * std::size_t(65536);
#else
  return 0;
#endif
}

// The readings whose solve takes more memory than a phone's browser gives a
// page: stack cap 3 on the printed board with five or six pieces a player
// (5.8 to 30 million classes, the largest readings; results/variants.md). A
// desktop browser solves them (the module may grow to 4 GB); the page says
// so before it starts one, from this note.
bool heavy_in_page(const Variant& v) {
  return v.stack_cap == 3 && v.adjacency == Adjacency::kBoard && v.circles + v.triangles >= 5;
}

// Its figures are the largest reading's, measured (docs/page.md); the other
// five take less.
constexpr const char* kHeavyNote =
    "this reading takes up to 900 megabytes of memory and up to a minute to solve in the page: "
    "a desktop browser manages, a phone's browser may close the page";

// GET /api/v2/rules in the page: the Api's answer ("served": solved in this
// page) with, for each reading, what solving it in the page asks of the
// device ("page_solve": {"heavy", "note"}).
std::string rules_in_page(const std::string& body) {
  Json j = Json::parse(body);
  for (Json& reading : j["readings"]) {
    const Variant v = *variant_from_name(reading["slug"].get<std::string>());
    const bool heavy = heavy_in_page(v);
    reading["page_solve"] = {{"heavy", heavy}, {"note", heavy ? Json(kHeavyNote) : Json(nullptr)}};
  }
  return j.dump();
}

}  // namespace

extern "C" {

// Every reading of the rules (the page reads GET /api/v2/rules instead).
const char* fano_variants() {
  Json out = Json::array();
  for (const Variant& v : every_rules())
    out.push_back({{"name", variant_short_name(v)},
                   {"slug", variant_slug(v)},
                   {"description", variant_description(v)},
                   {"named", v.rulebook_material_and_lines()},
                   {"solved", engine().solved(v)}});
  return reply(out);
}

const char* fano_solve(const char* name) {
  try {
    const auto v = variant_from_name(name);
    if (!v) return reply(Json{{"error", std::string("unknown variant '") + name + "'"}});
    Engine& e = engine();
    using Clock = std::chrono::steady_clock;
    const auto since = [](Clock::time_point t) {
      return std::chrono::duration<double>(Clock::now() - t).count();
    };
    const auto t0 = Clock::now();
    Json stages = Json::object();
    if (!e.solved(*v)) {
      Solution sol = solve(*v);
      const auto t1 = Clock::now();
      // The table takes the solution's codes (a copy was the largest
      // solve's last 228 MiB).
      e.tables.push_back({in_memory_tablebase(std::move(sol), variant_slug(*v)), "in memory"});
      rebuild_api();
      stages = Json{{"enumerate", sol.times.enumerate},
                    {"graph", sol.times.graph},
                    {"retrograde", sol.times.retrograde},
                    {"table", since(t1)}};
    }
    const double seconds = since(t0);
    for (const auto& t : e.tables)
      if (t.table.variant() == *v)
        return reply(Json{{"variant", variant_short_name(*v)},
                          {"slug", variant_slug(*v)},
                          {"classes", t.table.size()},
                          {"seconds", seconds},
                          {"stages", stages},
                          {"memory_bytes", memory_bytes()}});
    return reply(Json{{"error", "not solved"}});
  } catch (const std::exception& ex) {
    return reply(Json{{"error", ex.what()}});
  }
}

const char* fano_request(const char* method, const char* path, const char* params) {
  try {
    Engine& e = engine();
    if (!e.api) rebuild_api();
    server::Request req;
    req.method = method;
    req.path = path;
    const Json pairs = Json::parse(params);
    for (const Json& p : pairs)
      req.params.emplace(p.at(0).get<std::string>(), p.at(1).get<std::string>());
    server::Response r = e.api->handle(req);
    if (r.status == 200 && req.path == "/api/v2/rules") r.body = rules_in_page(r.body);
    Json headers = Json::array();
    for (const auto& [k, v] : r.headers) headers.push_back({k, v});
    return reply(Json{{"status", r.status},
                      {"content_type", r.content_type},
                      {"headers", headers},
                      {"body", r.body}});
  } catch (const std::exception& ex) {
    return reply(Json{{"status", 400},
                      {"content_type", "application/json"},
                      {"headers", Json::array()},
                      {"body", Json{{"error", ex.what()}}.dump()}});
  }
}

const char* fano_warm() {
  // (the smallest reading with the standard game's board, cap and line rule: the same code, and
  // done before the page's first solve is)
  constexpr const char* kReading = "standard-1c1t";
  const std::string position = std::string("/api/v2/") + kReading;
  fano_solve(kReading);
  fano_request("GET", position.c_str(), R"([["moves",""]])");
  fano_request("GET", (position + "/svg").c_str(), R"([["moves",""]])");
  Engine& e = engine();
  e.tables.clear();
  e.api.reset();
  return reply(Json{{"warmed", kReading}});
}

}  // extern "C"
