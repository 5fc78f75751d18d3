// The HTTP layer: Boost.Beast on Asio carries requests to the Api and back.
//
// Why not a thread per connection (cpp-httplib, before): a hostile client
// holding connections (a slow request head, idle or kept-alive connections)
// held the workers with them, and nobody else was answered. Here one network
// thread owns every connection's reads and writes; a connection costs a
// socket and a small buffer, never a thread. Each request is read under one
// deadline for the whole of it; a complete request goes to a worker.
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
// clang-format off
#include <utility>  // before Asio: Boost 1.74's awaitable.hpp uses std::exchange unincluded
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
// clang-format on
#include <mutex>
#include <stdexcept>
#include <thread>
#include <unordered_set>

#include "fano/json.hpp"
#include "fano/server.hpp"

namespace fano::server {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// %XX decoded (a malformed escape is kept as sent, for the Api to refuse);
// '+' is a space in a query.
std::string decode_url(std::string_view s, bool plus_is_space) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && hex_digit(s[i + 1]) >= 0 && hex_digit(s[i + 2]) >= 0) {
      out += char(hex_digit(s[i + 1]) * 16 + hex_digit(s[i + 2]));
      i += 2;
    } else if (s[i] == '+' && plus_is_space) {
      out += ' ';
    } else {
      out += s[i];
    }
  }
  return out;
}

// The path's segments decoded after splitting: an escaped slash ("%2F") is
// part of its segment, kept escaped, never a separator, so that
// "/api/v2/standard%2Fstats" names the reading "standard%2Fstats" (none),
// not the route /api/v2/standard/stats.
std::string decode_path(std::string_view path) {
  std::string out;
  out.reserve(path.size());
  for (std::size_t start = 0; start <= path.size();) {
    std::size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    for (const char c : decode_url(path.substr(start, end - start), false))
      out += c == '/' ? std::string_view("%2F") : std::string_view(&c, 1);
    if (end < path.size()) out += '/';
    start = end + 1;
  }
  return out;
}

// The query's parameters as sent, each repetition kept, so that the Api can
// refuse "?moves=C4&moves=C4" as it refuses "?moves=C4&moves=t3".
std::multimap<std::string, std::string> query_params(std::string_view target) {
  std::multimap<std::string, std::string> params;
  const std::size_t q = target.find('?');
  if (q == std::string_view::npos) return params;
  std::string_view query = target.substr(q + 1);
  query = query.substr(0, query.find('#'));
  for (std::size_t start = 0; start <= query.size();) {
    std::size_t end = query.find('&', start);
    if (end == std::string_view::npos) end = query.size();
    const std::string_view pair = query.substr(start, end - start);
    if (!pair.empty()) {
      const std::size_t eq = pair.find('=');
      params.emplace(
          decode_url(pair.substr(0, eq), true),
          eq == std::string_view::npos ? std::string() : decode_url(pair.substr(eq + 1), true));
    }
    start = end + 1;
  }
  return params;
}

std::string error_body(const std::string& message) { return json_text(Json{{"error", message}}); }

// The static explorer's files carry the same headers as every answer; its
// policy lets the page run its own scripts and compile its WebAssembly
// engine ('wasm-unsafe-eval'), register its service worker, and load
// nothing from elsewhere (the engine's fano_web.wasm is fetched from the
// same folder; the file:// copy, fano_web_inline.js, reads it from a data:
// URL inside, see FANO_WEB_SINGLE_FILE). (Its inline script is allowed as
// on any static host: the folder is built separately from this binary, so
// no hash of it is known here.)
std::vector<std::pair<std::string, std::string>> static_file_headers() {
  auto headers = security_headers("/static");
  for (auto& [k, v] : headers)
    if (k == "Content-Security-Policy")
      v = "default-src 'none'; script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval'; "
          "style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self' data:; "
          "worker-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; "
          "frame-ancestors 'none'";
  return headers;
}

std::string_view mime_type(std::string_view path) {
  const std::size_t dot = path.rfind('.');
  const std::string_view ext = dot == std::string_view::npos ? "" : path.substr(dot);
  if (ext == ".html" || ext == ".htm") return "text/html";
  if (ext == ".js" || ext == ".mjs") return "text/javascript";
  if (ext == ".css") return "text/css";
  if (ext == ".json") return "application/json";
  if (ext == ".webmanifest") return "application/manifest+json";
  if (ext == ".wasm") return "application/wasm";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".png") return "image/png";
  if (ext == ".ico") return "image/x-icon";
  if (ext == ".txt") return "text/plain";
  return "application/octet-stream";
}

// The file of `web_dir` a decoded path names, or "" (then the Api answers):
// no "..", no NUL, a folder's index.html.
std::string static_file(const std::string& web_dir, const std::string& path) {
  if (web_dir.empty() || path.empty() || path[0] != '/') return "";
  if (path.find('\0') != std::string::npos || path.find('\\') != std::string::npos) return "";
  for (std::size_t i = 0; i < path.size();) {
    const std::size_t next = std::min(path.find('/', i + 1), path.size());
    if (path.compare(i, next - i, "/..") == 0) return "";
    i = next;
  }
  std::string file = web_dir + path;
  if (file.back() == '/') file += "index.html";
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0) return "";
  if (S_ISDIR(st.st_mode)) {
    file += "/index.html";
    if (::stat(file.c_str(), &st) != 0) return "";
  }
  return S_ISREG(st.st_mode) ? file : "";
}

// Whether a whole request line (up to its '\n') can start a request:
// Beast's parser accepts only "METHOD SP target SP HTTP/d.d CRLF". A line
// ended short of that ("GET / \r\n\r\n": no version) would have the parser
// wait for more bytes until the deadline; it is refused at once instead.
bool request_line_complete(std::string_view line) {
  if (line.size() < 11 || line.back() != '\r') return false;
  const std::string_view v = line.substr(line.size() - 10, 9);  // " HTTP/d.d"
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  return v.substr(0, 6) == " HTTP/" && digit(v[6]) && v[7] == '.' && digit(v[8]);
}

std::size_t count_moves(const std::string& list) {
  std::size_t n = 0;
  bool in_move = false;
  for (const char c : list) {
    const bool sep = c == ',' || c == ' ' || c == '+' || c == '\t';
    if (!sep && !in_move) ++n;
    in_move = !sep;
  }
  return n;
}

// Expensive work runs at a lower priority, so that the cheap answers keep
// the CPU when both wait for it (Linux sets a thread's nice value alone).
void lower_this_threads_priority() {
#ifdef __linux__
  thread_local bool lowered = false;
  if (!lowered) {
    (void)::setpriority(PRIO_PROCESS, id_t(::syscall(SYS_gettid)), 10);
    lowered = true;
  }
#endif
}

}  // namespace

bool is_expensive(const Request& request) {
  const RouteMatch match = match_route(request.method, request.path);
  if (!match.route) return false;
  const auto moves = [&] {
    std::size_t n = 0;
    for (auto [it, end] = request.params.equal_range("moves"); it != end; ++it)
      n += count_moves(it->second);
    return n;
  };
  switch (match.route->cost) {
    case RouteCost::kCheap:
      return false;
    case RouteCost::kLongHistory:
      return moves() > kCheapMoves;
    case RouteCost::kAnyHistory:
      return moves() > 0;
    case RouteCost::kExpensive:
      return true;
  }
  return true;
}

// Worker threads running what is posted to them. Unlike asio::thread_pool,
// a thread that cannot be started (the address space or the process's
// thread limit exhausted) stops and joins those already started and throws
// naming the pool, so that the server ends with a message instead of
// waiting forever for threads that will never come.
class Workers {
 public:
  Workers(std::size_t n, const char* what) {
    try {
      threads_.reserve(n);
      for (std::size_t i = 0; i < n; ++i) threads_.emplace_back([this] { io_.run(); });
    } catch (const std::exception& e) {
      const std::size_t started = threads_.size();
      join();
      throw std::runtime_error("cannot start the " + std::string(what) + " threads (" +
                               std::to_string(started) + " of " + std::to_string(n) +
                               " started): " + e.what());
    }
  }
  ~Workers() { join(); }
  Workers(const Workers&) = delete;
  Workers& operator=(const Workers&) = delete;
  asio::io_context& context() { return io_; }

 private:
  // What is still queued is dropped, as asio::thread_pool's destructor drops it.
  void join() {
    guard_.reset();
    io_.stop();
    for (std::thread& t : threads_)
      if (t.joinable()) t.join();
    threads_.clear();
  }
  asio::io_context io_;
  asio::executor_work_guard<asio::io_context::executor_type> guard_ = asio::make_work_guard(io_);
  std::vector<std::thread> threads_;
};

// The cheap workers by default: one a core (a cheap answer takes
// microseconds; more threads would only take address space and memory).
std::size_t worker_count(int threads) {
  if (threads > 0) return std::size_t(threads);
  return std::size_t(std::max(1u, std::thread::hardware_concurrency()));
}

class Session;

struct HttpServer::Impl {
  // Declared first, destroyed last: sessions leave this set when destroyed,
  // possibly as the io_context drops their pending handlers.
  std::mutex sessions_mutex;
  std::unordered_set<Session*> sessions;

  Handler handler;
  Classifier expensive;
  ServerOptions options;
  std::vector<std::pair<std::string, std::string>> file_headers = static_file_headers();

  asio::io_context io{1};
  tcp::acceptor acceptor{io};
  asio::steady_timer accept_retry{io};
  asio::steady_timer shutdown_check{io};
  std::chrono::steady_clock::time_point shutdown_deadline;
  bool stopping = false;  // network thread only
  std::atomic<bool> stop_requested{false};
  std::atomic<int> expensive_running{0};
  std::atomic<std::size_t> working{0};  // answers being computed
  bool bound = false;

  // Destroyed first: joining the workers (their answers are posted to the
  // io_context, which is still there).
  Workers cheap_pool;
  Workers expensive_pool;

  Impl(Handler h, Classifier e, ServerOptions o)
      : handler(std::move(h)),
        expensive(std::move(e)),
        options(std::move(o)),
        cheap_pool(worker_count(options.threads), "server's worker"),
        expensive_pool(std::size_t(std::max(1, options.expensive_limit)),
                       "server's long-analysis") {}

  // Connections that may be open at once without taking the file
  // descriptors kept in reserve (set by start()).
  std::size_t descriptor_budget = 0;

  std::size_t session_count() {
    std::lock_guard lock(sessions_mutex);
    return sessions.size();
  }
  bool shed_one();
  void accept();
  void begin_shutdown();
  void check_shutdown();
};

// One connection: read a request (one deadline for all of it), have it
// answered, write the answer, then the next request (pipelined requests are
// already in the buffer, answered in order) or close.
class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(HttpServer::Impl& server, tcp::socket socket)
      : server_(server), stream_(std::move(socket)) {
    std::lock_guard lock(server_.sessions_mutex);
    server_.sessions.insert(this);
  }
  ~Session() {
    std::lock_guard lock(server_.sessions_mutex);
    server_.sessions.erase(this);
  }

  void read() {
    if (server_.stopping) return close();
    state_ = State::kReading;
    since_ = std::chrono::steady_clock::now();
    line_ended_ = false;
    line_scanned_ = 0;
    parser_.emplace();
    parser_->header_limit(std::uint32_t(kHeaderLimit));
    parser_->body_limit(kBodyLimit);  // a longer Content-Length is refused with the head
    // One deadline for the head and the body together.
    stream_.expires_after(server_.options.read_timeout);
    read_head();
  }

  // Out of file descriptors: a connection waiting for a request (or
  // lingering after its last answer) may be closed to make room for a new
  // one. Lingering ones go first, then the longest waiting.
  bool sheddable() const { return state_ == State::kReading || state_ == State::kClosing; }
  std::pair<int, std::chrono::steady_clock::time_point> shed_rank() const {
    return {state_ == State::kClosing ? 0 : 1, since_};
  }
  void shed() { close(); }

  // On stop(): a connection waiting for (or reading) a request closes now;
  // one whose answer is being computed or written closes after it.
  void on_stop() {
    if (state_ == State::kReading || state_ == State::kClosing) stream_.cancel();
  }

 private:
  enum class State { kReading, kWorking, kWriting, kClosing, kClosed };

  // The head, read here as http::async_read_header reads it (the parser
  // takes the bytes as they come, and refuses at once what cannot start a
  // request), with one more check: a request line that has ended but is not
  // "METHOD target HTTP/x.y" ("GET / \r\n\r\n") would leave the parser
  // waiting for the bytes of a version until the deadline; it is refused.
  void read_head() {
    if (buffer_.size() > 0) {
      beast::error_code ec;
      buffer_.consume(parser_->put(buffer_.data(), ec));
      const auto data = buffer_.cdata();
      const std::string_view head(static_cast<const char*>(data.data()), data.size());
      // Until the parser has parsed the request line it consumes nothing,
      // so the line is the buffer's start, searched once a byte.
      const bool line_parsed = !parser_->get().target().empty();
      std::size_t eol = std::string_view::npos;
      if (!line_parsed) {
        eol = head.find('\n', std::min(line_scanned_, head.size()));
        line_scanned_ = std::min(eol, head.size());
      }
      line_ended_ = line_parsed || eol < kHeaderLimit;  // within the limit (414 past it)
      if (ec != http::error::need_more) return ec ? on_read(ec) : on_header(ec);
      if (!line_parsed && eol != std::string_view::npos &&
          !request_line_complete(head.substr(0, eol)))
        return refuse(http::status::bad_request, "malformed HTTP request");
    }
    const std::size_t room = buffer_.max_size() - buffer_.size();
    if (room == 0) return on_read(http::error::header_limit);
    stream_.async_read_some(buffer_.prepare(std::min<std::size_t>(room, 65536)),
                            [self = shared_from_this()](beast::error_code ec, std::size_t n) {
                              // The client left (before or within a request),
                              // the deadline passed, or stop().
                              if (ec) return self->close();
                              self->buffer_.commit(n);
                              self->read_head();
                            });
  }

  // The head is read: a body is read only for POST (the batch route), any
  // other body is refused before it is read (413), so that it can never be
  // taken for the next request.
  void on_header(beast::error_code ec) {
    if (ec) return on_read(ec);
    if (parser_->get().method() != http::verb::post &&
        (parser_->chunked() || parser_->content_length().value_or(0) > 0))
      return refuse(http::status::payload_too_large,
                    "the request has a body (only POST takes one)");
    http::async_read(
        stream_, buffer_, *parser_,
        [self = shared_from_this()](beast::error_code e, std::size_t) { self->on_read(e); });
  }

  void on_read(beast::error_code ec) {
    if (ec == http::error::header_limit) {
      // The request line alone past the limit is a URI too long. (Known from
      // read_head(): the parser drops what it has parsed from the buffer, so
      // a long header line leaves no line end there.)
      return refuse(
          line_ended_ ? http::status::request_header_fields_too_large : http::status::uri_too_long,
          line_ended_ ? "the request's headers are too large" : "the request's URI is too long");
    }
    if (ec == http::error::body_limit)
      return refuse(http::status::payload_too_large,
                    "the request's body is over " + std::to_string(kBodyLimit / 1024) + " KiB");
    if (ec && ec.category() == http::make_error_code(http::error::end_of_stream).category() &&
        ec != http::error::end_of_stream && ec != http::error::partial_message)
      return refuse(http::status::bad_request, "malformed HTTP request");
    if (ec) return close();  // the client left, the deadline passed, or stop()
    auto& req = parser_->get();
    if (req.method() == http::verb::unknown)
      return refuse(http::status::bad_request, "malformed HTTP request");
    Request r;
    r.method = std::string(req.method_string());
    const std::string_view target(req.target().data(), req.target().size());
    r.path = decode_path(target.substr(0, target.find('?')));
    beast::error_code no_peer;
    const tcp::endpoint peer = stream_.socket().remote_endpoint(no_peer);
    if (!no_peer) r.client = peer.address().to_string();
    r.params = query_params(target);
    r.if_none_match = std::string(req[http::field::if_none_match]);
    r.body = std::move(req.body());  // POST /api/v2/{variant}/batch
    head_ = req.method() == http::verb::head;
    version_ = req.version();
    keep_alive_ = req.keep_alive() && ++served_ < server_.options.keep_alive_requests;
    if (head_ || req.method() == http::verb::get)
      if (const std::string file = static_file(server_.options.web_dir, r.path); !file.empty())
        return send_file(file);
    dispatch(std::move(r));
  }

  void dispatch(Request r) {
    state_ = State::kWorking;
    const bool expensive = server_.expensive(r);
    const std::chrono::milliseconds deadline = server_.options.expensive_deadline;
    if (expensive && ++server_.expensive_running > server_.options.expensive_limit) {
      --server_.expensive_running;
      Response busy;
      busy.status = int(http::status::service_unavailable);
      busy.body = error_body(
          "the server is busy with other long analyses (a history of more than " +
          std::to_string(kCheapMoves) + " moves, or a principal variation); retry after " +
          std::to_string(server_.options.retry_after_seconds) + " s");
      busy.headers = security_headers(r.path);
      busy.headers.push_back({"Retry-After", std::to_string(server_.options.retry_after_seconds)});
      return respond(std::move(busy));
    }
    ++server_.working;
    std::shared_ptr<std::atomic<bool>> gone;
    if (expensive) {
      gone = std::make_shared<std::atomic<bool>>(false);
      r.interrupt = Interrupt::when_set(gone);
      watch(std::move(gone));
    }
    asio::post(expensive ? server_.expensive_pool.context() : server_.cheap_pool.context(),
               [self = shared_from_this(), r = std::move(r), expensive, deadline]() mutable {
                 if (expensive) lower_this_threads_priority();
                 if (expensive && deadline.count() > 0) r.interrupt.within(deadline);
                 Response out;
                 try {
                   out = self->server_.handler(r);
                 } catch (const Interrupted& e) {
                   out.status = int(http::status::service_unavailable);
                   out.body = error_body(e.what());
                   out.headers = security_headers(r.path);
                 } catch (const std::exception&) {
                   out.status = int(http::status::internal_server_error);
                   out.body = error_body("internal error");
                   out.headers = security_headers("");
                 }
                 // A stopped analysis (past the deadline) may succeed later.
                 if (http::status(out.status) == http::status::service_unavailable &&
                     std::none_of(out.headers.begin(), out.headers.end(),
                                  [](const auto& h) { return h.first == "Retry-After"; }))
                   out.headers.push_back(
                       {"Retry-After", std::to_string(self->server_.options.retry_after_seconds)});
                 if (expensive) --self->server_.expensive_running;
                 --self->server_.working;
                 auto executor = self->stream_.get_executor();
                 asio::post(executor, [self = std::move(self), out = std::move(out)]() mutable {
                   self->respond(std::move(out));
                 });
               });
  }

  // While an expensive answer is computed, a read stays pending on the
  // socket: the client's close (or a reset) completes it with an error and
  // sets `gone`, which the analysis polls once a ply. Bytes that arrive
  // instead (a pipelined request) are kept in the buffer for the next read,
  // and the watch ends there.
  void watch(std::shared_ptr<std::atomic<bool>> gone) {
    const std::size_t room = buffer_.max_size() - buffer_.size();
    if (room == 0) return;
    watching_ = true;
    stream_.socket().async_read_some(
        buffer_.prepare(std::min<std::size_t>(room, 4096)),
        [self = shared_from_this(), gone = std::move(gone)](beast::error_code ec, std::size_t n) {
          self->watching_ = false;
          if (!ec)
            self->buffer_.commit(n);
          else if (ec != asio::error::operation_aborted)
            gone->store(true);
          if (self->after_watch_) {
            self->after_watch_ = false;
            self->after_write();
          }
        });
  }

  // An answer from the Api (or the server itself).
  void respond(Response out) {
    if (watching_) {
      // The answer is ready: the watch ends (its handler runs before the
      // answer's write completes, see send()).
      beast::error_code ignored;
      stream_.socket().cancel(ignored);
    }
    auto res =
        std::make_shared<http::response<http::string_body>>(http::status(out.status), version_);
    for (const auto& [k, v] : out.headers) res->insert(k, v);
    const http::status status = http::status(out.status);
    const bool empty = status == http::status::not_modified || status == http::status::no_content ||
                       http::to_status_class(status) == http::status_class::informational;
    if (!empty) {
      res->set(http::field::content_type, out.content_type);
      res->content_length(out.body.size());
      if (!head_) res->body() = std::move(out.body);
    }
    send(std::move(res));
  }

  void send_file(const std::string& file) {
    beast::error_code ec;
    http::file_body::value_type body;
    body.open(file.c_str(), beast::file_mode::scan, ec);
    if (ec) {
      Response missing;
      missing.status = int(http::status::not_found);
      missing.body = error_body("cannot read the file");
      missing.headers = security_headers("");
      return respond(std::move(missing));
    }
    const auto size = body.size();
    // A Range header is ignored (allowed by RFC 9110): the whole file, 200.
    if (head_) {
      auto res = std::make_shared<http::response<http::empty_body>>(http::status::ok, version_);
      for (const auto& [k, v] : server_.file_headers) res->insert(k, v);
      res->set(http::field::content_type, std::string(mime_type(file)));
      res->content_length(size);
      return send(std::move(res));
    }
    auto res = std::make_shared<http::response<http::file_body>>(
        std::piecewise_construct, std::make_tuple(std::move(body)),
        std::make_tuple(http::status::ok, version_));
    for (const auto& [k, v] : server_.file_headers) res->insert(k, v);
    res->set(http::field::content_type, std::string(mime_type(file)));
    res->content_length(size);
    send(std::move(res));
  }

  // An error of the request itself: answered, then the connection closes
  // (what follows in the stream cannot be trusted to start a request).
  void refuse(http::status status, const std::string& why) {
    head_ = false;
    keep_alive_ = false;
    Response r;
    r.status = int(status);
    r.body = error_body(why + " (HTTP " + std::to_string(int(status)) + ")");
    r.headers = security_headers("");
    respond(std::move(r));
  }

  template <class Body>
  void send(std::shared_ptr<http::response<Body>> res) {
    if (server_.stopping) keep_alive_ = false;
    res->keep_alive(keep_alive_);
    state_ = State::kWriting;
    stream_.expires_after(server_.options.read_timeout);
    http::async_write(stream_, *res,
                      [self = shared_from_this(), res](beast::error_code ec, std::size_t) {
                        if (ec) return self->close();
                        self->after_write();
                      });
  }

  void after_write() {
    // One read at a time: the next request's (or the lingering drain) waits
    // for the watch's end.
    if (watching_) return void(after_watch_ = true);
    if (keep_alive_ && !server_.stopping) return read();
    linger();
  }

  // Closing: the answer is sent; the rest of what the client sends (a body
  // refused, a request after the last) is read and dropped, at most
  // kBodyLimit bytes for at most a second, so that the close does not reset
  // the connection before the client has read the answer.
  void linger() {
    state_ = State::kClosing;
    since_ = std::chrono::steady_clock::now();
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    if (ec) return close();
    stream_.expires_after(std::chrono::seconds(1));
    drain();
  }
  void drain() {
    stream_.async_read_some(asio::buffer(drain_buffer_),
                            [self = shared_from_this()](beast::error_code ec, std::size_t n) {
                              self->drained_ += n;
                              if (ec || self->drained_ > kBodyLimit || self->server_.stopping)
                                return self->close();
                              self->drain();
                            });
  }

  void close() {
    state_ = State::kClosed;
    beast::error_code ec;
    stream_.socket().close(ec);
  }

  HttpServer::Impl& server_;
  beast::tcp_stream stream_;
  beast::flat_buffer buffer_{kBodyLimit};  // bounded: a request head is at most kHeaderLimit
  std::optional<http::request_parser<http::string_body>> parser_;
  std::array<char, 4096> drain_buffer_;
  std::size_t drained_ = 0;
  std::size_t served_ = 0;
  State state_ = State::kReading;
  std::chrono::steady_clock::time_point since_;  // the state's start (reading or closing)
  bool line_ended_ = false;                      // the request line has ended
  std::size_t line_scanned_ = 0;                 // bytes of it searched for its end
  bool head_ = false;
  bool keep_alive_ = false;
  bool watching_ = false;     // watch()'s read is pending
  bool after_watch_ = false;  // after_write() when it completes
  unsigned version_ = 11;
};

// Closes the connection that waited longest for a request (or lingers
// after its last answer), if any; network thread only.
bool HttpServer::Impl::shed_one() {
  std::lock_guard lock(sessions_mutex);
  Session* oldest = nullptr;
  for (Session* s : sessions)
    if (s->sheddable() && (!oldest || s->shed_rank() < oldest->shed_rank())) oldest = s;
  if (oldest) oldest->shed();
  return oldest != nullptr;
}

void HttpServer::Impl::accept() {
  acceptor.async_accept([this](beast::error_code ec, tcp::socket socket) {
    if (stopping || ec == asio::error::operation_aborted) return;
    if (ec) {
      // Out of file descriptors: an idle connection makes room and the
      // client waiting is accepted at once. Otherwise (nothing idle, or
      // another passing failure) try again shortly rather than spin;
      // answers finish and connections time out, and free theirs.
      const bool no_descriptor = ec == asio::error::no_descriptors ||
                                 ec == boost::system::errc::too_many_files_open_in_system;
      if (no_descriptor && shed_one()) return accept();
      accept_retry.expires_after(std::chrono::milliseconds(50));
      accept_retry.async_wait([this](beast::error_code e) {
        if (!e && !stopping) accept();
      });
      return;
    }
    // Near the descriptors' limit, a new client takes the place of an idle
    // one, so that the reserve stays for reading files and for the next
    // client; with none idle it is closed, as past max_connections.
    const std::size_t open = session_count();
    if (open >= options.max_connections || (open >= descriptor_budget && !shed_one())) {
      beast::error_code ignored;
      socket.close(ignored);
    } else {
      beast::error_code ignored;
      socket.set_option(tcp::no_delay(true), ignored);
      std::make_shared<Session>(*this, std::move(socket))->read();
    }
    accept();
  });
}

void HttpServer::Impl::begin_shutdown() {
  if (stopping) return;
  stopping = true;
  beast::error_code ignored;
  acceptor.close(ignored);  // new connections are refused from here
  accept_retry.cancel();
  {
    std::lock_guard lock(sessions_mutex);
    for (Session* s : sessions) s->on_stop();
  }
  shutdown_deadline = std::chrono::steady_clock::now() + options.shutdown_grace;
  check_shutdown();
}

// run() returns when every connection has closed, or at the grace's end.
void HttpServer::Impl::check_shutdown() {
  if (session_count() == 0 || std::chrono::steady_clock::now() >= shutdown_deadline) {
    io.stop();
    return;
  }
  shutdown_check.expires_after(std::chrono::milliseconds(10));
  shutdown_check.async_wait([this](beast::error_code) { check_shutdown(); });
}

// An expensive request whose answer is kept (a table's statistics once
// counted, a puzzle once drawn) is a lookup: answered by the cheap workers,
// it takes no slot.
HttpServer::HttpServer(const Api& api, ServerOptions options)
    : HttpServer([&api](const Request& r) { return api.handle(r); }, std::move(options),
                 [&api](const Request& r) { return is_expensive(r) && !api.answer_kept(r); }) {}

HttpServer::HttpServer(Handler handler, ServerOptions options, Classifier expensive)
    : impl_(std::make_unique<Impl>(std::move(handler), std::move(expensive), std::move(options))) {}

HttpServer::~HttpServer() { stop(); }

int HttpServer::start() {
  const ServerOptions& o = impl_->options;
  const std::string where = o.bind + ":" + std::to_string(o.port);
  beast::error_code ec;
  const asio::ip::address address = asio::ip::make_address(o.bind, ec);
  if (ec) throw std::runtime_error("cannot listen on " + where + " (not an IP address)");
  const tcp::endpoint endpoint(address, std::uint16_t(o.port));
  tcp::acceptor& a = impl_->acceptor;
  a.open(endpoint.protocol(), ec);
  if (!ec) a.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) a.bind(endpoint, ec);
  // A deep backlog: a burst of new connections is queued, not dropped.
  if (!ec) a.listen(4096, ec);
  if (ec)
    throw std::runtime_error("cannot listen on " + where +
                             " (address in use, or not an address of this machine)");
  // The descriptors a connection may take: the soft limit less those open
  // now (every one below the acceptor's, which took the lowest free) and a
  // reserve for the files answers read and for a new client.
  constexpr std::size_t kReserve = 32;
  rlimit limit{};
  std::size_t budget = o.max_connections;
  if (::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
    const std::size_t used = std::size_t(a.native_handle()) + 1 + kReserve;
    budget = limit.rlim_cur > used ? std::size_t(limit.rlim_cur - used) : 1;
  }
  impl_->descriptor_budget = budget;
  impl_->bound = true;
  impl_->accept();
  return a.local_endpoint().port();
}

void HttpServer::run() {
  // A stop() before run() has been posted already: it runs first.
  impl_->io.run();
}

void HttpServer::stop() {
  if (!impl_ || !impl_->bound || impl_->stop_requested.exchange(true)) return;
  asio::post(impl_->io, [impl = impl_.get()] { impl->begin_shutdown(); });
}

std::size_t HttpServer::unfinished() const { return impl_->working; }

}  // namespace fano::server
