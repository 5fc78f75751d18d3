// The explorer's API as a pure function: a request (method, path, query)
// answered from the tables, with no sockets. `fano serve` puts it on a port
// (fano/server.hpp); the static explorer calls it in WebAssembly
// (wasm/web.cpp); the tests call it directly. Every front end therefore
// sends the same JSON. Portable (no threads needed, no file system).
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fano/interrupt.hpp"
#include "fano/json.hpp"
#include "fano/rules.hpp"
#include "fano/tablebase.hpp"

namespace fano::server {

// A table the server answers from.
struct ServedTable {
  Tablebase table;
  std::string path;  // where it was read from, for /api/v1/info
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
};

struct Response {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
};

// The routes (README, "HTTP API"):
//   GET /api/v1/info
//   GET /api/v1/{variant}?position=...|moves=...        (both: moves from position)
//   GET /api/v1/{variant}/mainline?position=...|moves=...
//   GET /api/v1/{variant}/svg?position=...|moves=...    (the board picture)
//   GET /api/v2/{variant}/player?player=P&seed=S&moves=...  (a self-play player's move)
//   GET /api/v2/{variant}/puzzle?seed=S   (a position where exactly one move keeps the value)
//   GET /api/v2/{variant}/stats           (values by plies, the longest wins with their lines)
//   POST /api/v2/{variant}/batch   body {"items": [position | "moves: ..."], "value_only": bool}
//   GET / (the explorer page), GET /api (the API's documentation page)
// Errors: 400 bad input, 404 unknown route or variant, 405 a method other
// than GET or HEAD (POST for the batch route), 413 a batch of more than
// kMaxBatchItems items, 422 a legal position no game reaches, 503 an
// analysis stopped by the request's interrupt; the body is {"error": "..."}.
inline constexpr std::size_t kMaxBatchItems = 1000;
class Api {
 public:
  // One table per served variant (at most one each); `version` is reported by
  // /api/v1/info. Answers are kept in a cache of at most `cache_bytes` (0: none).
  Api(std::vector<ServedTable> tables, std::string version, std::size_t cache_bytes = 64 << 20);
  ~Api();

  // Thread-safe; never throws (an unexpected failure becomes a 500 naming it).
  Response handle(const Request& request) const;

  const std::vector<ServedTable>& tables() const { return tables_; }

 private:
  const ServedTable* table_for(std::string_view name) const;
  Json rules_json() const;
  Response route(const Request& request) const;

  std::vector<ServedTable> tables_;
  std::string version_;
  std::string info_body_;
  std::string etag_seed_;  // the tables' checksums: answers change only with them
  struct Cache;
  std::unique_ptr<Cache> cache_;
};

// The headers every answer carries, whatever its status: nosniff, the
// Content-Security-Policy of the path (the explorer's inline script allowed
// by its hash; nothing loaded by anything else), framing refused and no
// referrer sent.
std::vector<std::pair<std::string, std::string>> security_headers(std::string_view path);

}  // namespace fano::server
