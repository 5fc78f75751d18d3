// The HTTP server of `fano serve`: the Api (fano/api.hpp) on a port, with
// cpp-httplib.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

#include "fano/api.hpp"

namespace fano::server {

struct ServerOptions {
  std::string bind = "127.0.0.1";
  int port = 8330;   // 0 asks for an ephemeral port
  int threads = 64;  // worker threads; each serves one connection at a time
  std::chrono::milliseconds read_timeout{5000};
  std::size_t keep_alive_requests = 10000;  // requests per connection before it is closed
  // A folder served at / (the static explorer, build/web): its files answer
  // GET and HEAD before the Api, which keeps /api and /api/v1. Empty: the
  // Api's embedded page answers /.
  std::string web_dir;
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
