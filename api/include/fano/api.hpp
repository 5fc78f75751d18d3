// The explorer's API as a pure function: a request (method, path, query)
// answered from the tables, with no sockets. `fano serve` puts it on a port
// (fano/server.hpp); the static explorer calls it in WebAssembly
// (wasm/web.cpp); the tests call it directly. Every front end therefore
// sends the same JSON. Portable (no threads needed, no file system).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fano/errors.hpp"
#include "fano/interrupt.hpp"
#include "fano/json.hpp"
#include "fano/rules.hpp"
#include "fano/tablebase.hpp"

namespace fano::server {

// A table the server answers from.
struct ServedTable {
  Tablebase table;
  std::string path;  // where it was read from, for /api/v2/info
};

struct Request {
  std::string method = "GET";
  std::string path;                                // decoded, without the query
  std::multimap<std::string, std::string> params;  // decoded query parameters
  std::string if_none_match;                       // the If-None-Match header, if any
  std::string body{};  // a POST's body (the batch route); {}: aggregate initialisers may omit it
  // Stops a long analysis (the server's deadline, or the client gone): the
  // answer is then 503 and is not cached.
  Interrupt interrupt{};
  // Who asks (the peer's address; "" in-process): the queue of background
  // solves holds a few of each client's at most.
  std::string client{};
};

struct Response {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
};

// A reading whose table is on its way (`fano serve` solves the missing ones
// in the background): what a request for it is answered meanwhile, 503 with
// Retry-After and this progress.
struct TableProgress {
  // "queued", "solving"; "busy" (the queue is full, or holds as many of
  // this client's solves as it takes: not queued, 503); "failed" (the solve
  // or its file failed, `stage` saying why: 503, tried again after
  // retry_after seconds); or it will not come: "refused" (over the server's
  // memory bound, or a table that fails --verify-tables: 404), `stage`
  // saying why.
  std::string state;
  std::size_t ahead = 0;  // solves to finish before this one starts
  std::string stage;      // the solver's last progress line ("" before it starts)
  double seconds = 0;     // since its solve started
  int retry_after = 1;    // seconds, for Retry-After
};

// Asked for a reading with no table held: starts or finds its table's way
// (then its progress: 503), or says it will not come (nullopt: 404 "not
// served"; or the progress's "failed" or "refused"). Called from the
// answering threads at once: thread-safe.
using PendingTables =
    std::function<std::optional<TableProgress>(const Variant&, const std::string& client)>;

// The most items a batch takes (413 beyond).
inline constexpr std::size_t kMaxBatchItems = 1000;
// A moves= history of at most this many moves is cheap to analyse (a
// longer one counts as expensive on the routes that say so).
inline constexpr std::size_t kCheapMoves = 8;

// How much a route's answer costs, for the server's limit on long analyses
// (`server::is_expensive`, fano/server.hpp).
enum class RouteCost : std::uint8_t {
  kCheap,        // a page, a list, a table probe
  kLongHistory,  // expensive with a moves= history of more than kCheapMoves moves
  kAnyHistory,   // expensive with any moves= history (a principal variation from it)
  kExpensive,    // always (a batch: up to kMaxBatchItems analyses)
};

// How an answer may be kept (Cache-Control, the Api's own answer cache).
enum class RouteCaching : std::uint8_t {
  kPage,    // no-cache: the page changes with the version
  kAnswer,  // public, a day: an answer never changes for its table
  kList,    // no-cache: the tables held change while a server solves
  kNever,   // no-store, never kept (a POST)
};

struct RouteCall;  // api.cpp: the request, the Api's tables, the table named

// One route of the HTTP API. The table (routes()) is the one description:
// the Api answers by it (method, path, handler, caching) and the HTTP
// server limits expensive requests by it (server::is_expensive).
struct Route {
  std::string_view method;   // "GET" (HEAD answered as GET) or "POST"
  std::string_view pattern;  // "/api/v2/{variant}/mainline": "{variant}" is one path segment
  RouteCost cost;
  RouteCaching caching;
  std::size_t max_items;  // the most items its body takes (the batch), else 0
  Response (*answer)(const RouteCall&);
};

// Every route, first match first (a literal segment before "{variant}").
std::span<const Route> routes();

// What a request's method and path name: the route, or the error kind and
// message of the refusal (404 no such route, 405 a method the path does not
// take; a path of the API's version 1, gone, is a 404 naming its version 2
// path). `variant` is the "{variant}" segment, when the route has one.
struct RouteMatch {
  const Route* route = nullptr;
  std::string_view variant;
  ErrorKind refusal = ErrorKind::kNotFound;  // when no route
  std::string why;                           // when no route
};
RouteMatch match_route(std::string_view method, std::string_view path);

struct ApiTables;  // api.cpp: the tables held, with what is derived from them

class Api {
 public:
  // One table per served variant (at most one each); `version` is reported by
  // /api/v2/info. Answers are kept in a cache of at most `cache_bytes` (0: none).
  Api(std::vector<ServedTable> tables, std::string version, std::size_t cache_bytes = 64 << 20);
  ~Api();

  // Thread-safe; never throws (an unexpected failure becomes a 500 naming it).
  Response handle(const Request& request) const;

  // Whether the answer to `request` is kept (the answer cache): answering it
  // is then a lookup, whatever its route costs. Thread-safe.
  bool answer_kept(const Request& request) const;

  // The tables held now.
  std::vector<std::shared_ptr<const ServedTable>> tables() const;

  // Holds one more table (one solved while serving), answering from it from
  // now on; the answers kept for the other tables stay (the lists change).
  // Thread-safe. A table of a variant already held replaces it.
  void add_table(ServedTable table);
  // What answers a request for a reading with no table (default, or empty:
  // 404). Thread-safe.
  void set_pending(PendingTables pending);

  // How the answers of the cached routes were come by so far: computed by
  // their route, or taken from an identical request in flight (which
  // computed it once for all of them). Thread-safe.
  struct Counts {
    std::uint64_t computed = 0;  // a route's handler ran
    std::uint64_t joined = 0;    // a request waited for an identical one's answer
  };
  Counts counts() const;
  // Called by a request that is about to compute an answer, before it does
  // (empty: nothing). For tests, which hold a computation there while
  // identical requests arrive. Thread-safe.
  void set_before_computing(std::function<void(const Request&)> hook);

 private:
  std::shared_ptr<const ApiTables> held() const;
  Response route(const Request& request, const RouteMatch& match,
                 std::shared_ptr<const ApiTables> tables) const;

  std::string version_;
  mutable std::mutex mutex_;  // guards tables_ and pending_
  std::shared_ptr<const ApiTables> tables_;
  std::shared_ptr<const PendingTables> pending_;
  struct Cache;
  std::unique_ptr<Cache> cache_;
  struct Flights;  // identical requests in flight, computed once
  std::unique_ptr<Flights> flights_;
  std::shared_ptr<const std::function<void(const Request&)>> before_computing_;  // under mutex_
  mutable std::atomic<std::uint64_t> computed_{0}, joined_{0};
};

// The headers every answer carries, whatever its status: nosniff, the
// Content-Security-Policy of the path (the explorer's inline script allowed
// by its hash; nothing loaded by anything else), framing refused and no
// referrer sent.
std::vector<std::pair<std::string, std::string>> security_headers(std::string_view path);

}  // namespace fano::server
