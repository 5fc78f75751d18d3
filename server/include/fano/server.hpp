// The HTTP server of `fano serve`: the Api (fano/api.hpp) on a port, an
// event-driven HTTP/1.1 server (Boost.Beast on Asio). One network thread
// holds every connection, whatever it is doing, with a deadline for each
// whole request; the answers are computed by worker threads, the expensive
// ones (history-aware analysis) by their own few workers under a limit.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "fano/api.hpp"

namespace fano::server {

struct ServerOptions {
  std::string bind = "127.0.0.1";
  int port = 8330;  // 0 asks for an ephemeral port
  // Workers computing cheap answers (connections do not take one); 0: one a core.
  int threads = 0;
  // The deadline of a whole request (from the end of the previous answer on
  // a kept-alive connection, or from the connection): past it, the
  // connection is closed. Also the deadline for writing an answer.
  std::chrono::milliseconds read_timeout{5000};
  std::size_t keep_alive_requests = 10000;  // requests per connection before it is closed
  // More connections are closed at once. So are connections past the
  // process's file descriptors (RLIMIT_NOFILE) less a reserve, except that a
  // new one then takes the place of the one waiting longest for a request.
  std::size_t max_connections = 4096;
  // Expensive requests (see is_expensive) answered at once; one more is
  // refused with 503 and Retry-After, so that cheap requests keep the CPU.
  int expensive_limit = 2;
  int retry_after_seconds = 2;
  // An expensive request's analysis is stopped past this long (it polls once
  // a ply) and answered 503 with Retry-After; 0: no deadline. It is also
  // stopped when its client closes the connection while it is computed: a
  // read stays pending on the socket meanwhile (a client that half-closes
  // after sending an expensive request counts as gone).
  std::chrono::milliseconds expensive_deadline{2000};
  // On stop(): answers being computed or written get this long to finish
  // (their connections then close); idle and reading connections close at once.
  std::chrono::milliseconds shutdown_grace{1500};
  // A folder served at / (the static explorer, build/web): its files answer
  // GET and HEAD before the Api, which keeps /api and /api/v2. Empty: the
  // Api's embedded page answers /.
  std::string web_dir;
};

// What answers a request (the Api, or a test's stand-in). Called from worker
// threads at once; must be thread-safe.
using Handler = std::function<Response(const Request&)>;
// Which requests count as expensive (for the limit of ServerOptions).
using Classifier = std::function<bool(const Request&)>;

// The Api's expensive requests, by the cost of their route in the route
// table (fano/api.hpp, routes()): an analysis under a long history (more
// than kCheapMoves moves), a principal variation with a history, a batch.
// A request no route takes is refused at once: cheap.
bool is_expensive(const Request& request);

// The limits of a request, refused past them: 431 (414 for the request
// line alone) past kHeaderLimit bytes of request line and headers; 413 for
// a body over kBodyLimit bytes (read no further), or any body on another
// method than POST (the batch route's).
inline constexpr std::size_t kHeaderLimit = 16 * 1024;
inline constexpr std::size_t kBodyLimit = 64 * 1024;

// An HTTP server for an Api. start() binds; run() serves until stop().
class HttpServer {
 public:
  HttpServer(const Api& api, ServerOptions options);
  HttpServer(Handler handler, ServerOptions options, Classifier expensive = is_expensive);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds the address and port; returns the port (useful with port 0).
  // Throws std::runtime_error naming the address when it cannot bind.
  int start();
  // Serves until stop() (from another thread or a signal watcher) and the
  // connections are closed, or the shutdown grace has passed. Requires start().
  void run();
  // Stops accepting (new connections are refused) and closes the idle ones;
  // answers in progress finish within the grace. Thread-safe, idempotent.
  void stop();
  // Answers still being computed (after run() returned: those the grace did
  // not see finish; the worker threads are joined by the destructor).
  std::size_t unfinished() const;

 private:
  struct Impl;
  friend class Session;  // a connection (http.cpp)
  std::unique_ptr<Impl> impl_;
};

}  // namespace fano::server
