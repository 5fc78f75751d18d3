// The HTTP API and browser explorer of `fano serve`, over the analysis library.
//
// Api answers a request without sockets (what the tests and the HTTP layer
// call); HttpServer puts it on a port with cpp-httplib. Every answer is a
// pure function of the request and the tables, so it is cacheable forever.
#pragma once

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fano/rules.hpp"
#include "fano/tablebase.hpp"

namespace fano::server {

// The API's name of a variant: "standard", "cap3", "projective", "cap3-projective".
std::string api_variant_name(const Variant& v);
// The variant an API name (or a table slug such as "cap3-board") names.
std::optional<Variant> variant_from_api_name(std::string_view name);

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
//   GET / (the explorer page), GET /api (the API's documentation page)
// Errors: 400 bad input, 404 unknown route or variant, 405 a method other
// than GET or HEAD, 422 a legal position no game reaches; the body is
// {"error": "..."}.
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

struct ServerOptions {
  std::string bind = "127.0.0.1";
  int port = 8330;   // 0 asks for an ephemeral port
  int threads = 64;  // worker threads; each serves one connection at a time
  std::chrono::milliseconds read_timeout{5000};
  std::size_t keep_alive_requests = 10000;  // requests per connection before it is closed
};

// An HTTP server for an Api. start() binds; run() serves until stop().
class HttpServer {
 public:
  HttpServer(const Api& api, ServerOptions options);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds the address and port; returns the port (useful with port 0).
  // Throws std::runtime_error naming the address when it cannot bind.
  int start();
  // Serves until stop() (from another thread or a signal watcher). Requires start().
  void run();
  // Stops serving; run() returns. Thread-safe, idempotent.
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace fano::server
