// The HTTP layer: cpp-httplib carries requests to Api::handle and back.
#include <httplib.h>
#include <sys/socket.h>

#include <stdexcept>

#include "fano/json.hpp"
#include "fano/server.hpp"

namespace fano::server {
namespace {

// The query's parameters as sent, each repetition kept: httplib's own parser
// drops a repeated "key=value" pair, so that "?moves=C4&moves=C4" would pass
// where "?moves=C4&moves=t3" is refused; the Api refuses both.
std::multimap<std::string, std::string> query_params(const std::string& target) {
  std::multimap<std::string, std::string> params;
  const std::size_t q = target.find('?');
  if (q == std::string::npos) return params;
  const std::string query = target.substr(q + 1, target.find('#', q) - q - 1);
  for (std::size_t start = 0; start <= query.size();) {
    std::size_t end = query.find('&', start);
    if (end == std::string::npos) end = query.size();
    const std::string pair = query.substr(start, end - start);
    if (!pair.empty()) {
      const std::size_t eq = pair.find('=');
      params.emplace(httplib::detail::decode_url(pair.substr(0, eq), true),
                     eq == std::string::npos
                         ? std::string()
                         : httplib::detail::decode_url(pair.substr(eq + 1), true));
    }
    start = end + 1;
  }
  return params;
}

}  // namespace

struct HttpServer::Impl {
  const Api& api;
  ServerOptions options;
  httplib::Server http;
  bool bound = false;
  int listen_fd = -1;  // the listening socket, seen by the socket-options hook

  Impl(const Api& a, ServerOptions o) : api(a), options(std::move(o)) {}

  void answer(const httplib::Request& req, httplib::Response& res) const {
    Request r;
    r.method = req.method;
    r.path = req.path;
    r.params = query_params(req.target);
    r.if_none_match = req.get_header_value("If-None-Match");
    r.body = req.body;  // POST /api/v2/{variant}/batch
    const Response out = api.handle(r);
    res.status = out.status;
    for (const auto& [k, v] : out.headers) res.set_header(k, v);
    if (!out.body.empty() || out.status != 304) res.set_content(out.body, out.content_type);
  }
};

HttpServer::HttpServer(const Api& api, ServerOptions options)
    : impl_(std::make_unique<Impl>(api, std::move(options))) {
  httplib::Server& http = impl_->http;
  const std::size_t threads = std::size_t(std::max(1, impl_->options.threads));
  http.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  const auto timeout = impl_->options.read_timeout;
  http.set_read_timeout(std::chrono::duration_cast<std::chrono::microseconds>(timeout));
  http.set_write_timeout(std::chrono::duration_cast<std::chrono::microseconds>(timeout));
  http.set_keep_alive_timeout(std::max<time_t>(1, time_t(timeout.count() / 1000)));
  http.set_keep_alive_max_count(impl_->options.keep_alive_requests);
  http.set_payload_max_length(64 * 1024);  // requests are GETs; a body is never needed
  http.set_tcp_nodelay(true);
  Impl* impl = impl_.get();
  // The library listens with a backlog of 5, compiled into it: a burst of new
  // connections (a load test, a crowd) would see SYNs dropped and 1 s
  // retransmits. The hook records the socket so that start() can listen again
  // with a deep backlog (Linux updates the backlog of a listening socket).
  http.set_socket_options([impl](socket_t sock) {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    impl->listen_fd = sock;
  });
  auto handler = [impl](const httplib::Request& req, httplib::Response& res) {
    impl->answer(req, res);
  };
  // The static explorer's files, when a folder is given (checked first for GET and HEAD).
  if (!impl_->options.web_dir.empty() && !http.set_mount_point("/", impl_->options.web_dir))
    throw std::runtime_error("cannot serve the folder " + impl_->options.web_dir);
  // The static explorer's files carry the same headers as every answer; its
  // policy lets the page run its own scripts and compile its WebAssembly
  // engine ('wasm-unsafe-eval'), register its service worker, and load
  // nothing from elsewhere (the engine is fetched from a data: URL inside
  // fano_web.js, see FANO_WEB_SINGLE_FILE). (Its inline script is allowed as on any static
  // host: the folder is built separately from this binary, so no hash of it
  // is known here.)
  http.set_file_request_handler([](const httplib::Request&, httplib::Response& res) {
    for (const auto& [k, v] : security_headers("/static"))
      if (k != "Content-Security-Policy") res.set_header(k, v);
    res.set_header("Content-Security-Policy",
                   "default-src 'none'; script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval'; "
                   "style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
                   "connect-src 'self' data:; "
                   "worker-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; "
                   "frame-ancestors 'none'");
  });
  // Every other path and method reaches the Api, which answers 404 and 405 itself.
  for (const char* pattern : {R"(/.*)"}) {
    http.Get(pattern, handler);
    http.Post(pattern, handler);
    http.Put(pattern, handler);
    http.Delete(pattern, handler);
    http.Patch(pattern, handler);
    http.Options(pattern, handler);
  }
  // Errors httplib detects itself (a malformed request, a URI over its limit):
  // the same JSON body as the Api's errors.
  http.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;
    for (const auto& [k, v] : security_headers(req.path)) res.set_header(k, v);
    const char* why = res.status == 414   ? "the request's URI is too long"
                      : res.status == 413 ? "the request's body is too large"
                      : res.status == 400 ? "malformed HTTP request"
                                          : "the request was refused";
    res.set_content(
        json_text(Json{{"error", std::string(why) + " (HTTP " + std::to_string(res.status) + ")"}}),
        "application/json");
  });
  http.set_exception_handler(
      [](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
        res.status = 500;
        for (const auto& [k, v] : security_headers("")) res.set_header(k, v);
        res.set_content(json_text(Json{{"error", "internal error"}}), "application/json");
      });
}

HttpServer::~HttpServer() { stop(); }

int HttpServer::start() {
  const ServerOptions& o = impl_->options;
  int port = o.port;
  if (o.port == 0) {
    port = impl_->http.bind_to_any_port(o.bind);
  } else if (!impl_->http.bind_to_port(o.bind, o.port)) {
    port = -1;
  }
  if (port < 0)
    throw std::runtime_error("cannot listen on " + o.bind + ":" + std::to_string(o.port) +
                             " (address in use, or not an address of this machine)");
  impl_->bound = true;
  if (impl_->listen_fd >= 0) ::listen(impl_->listen_fd, 4096);
  return port;
}

void HttpServer::run() { impl_->http.listen_after_bind(); }

void HttpServer::stop() {
  if (impl_ && impl_->bound) impl_->http.stop();
}

}  // namespace fano::server
