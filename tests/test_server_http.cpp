// The HTTP layer (fano::server's HttpServer) against hostile clients, on an
// ephemeral port of 127.0.0.1 with raw sockets (slow and idle clients, huge
// and malformed requests, the expensive requests): each server here answers with a stand-in handler
// whose requests can be held busy, so that "in flight" and "over the limit"
// are states the test sets up, not races. The real Api over HTTP is tested
// in test_server.cpp. No timing is asserted: deadlines are configured short
// (2 s) and the tests wait far longer (30 s) before calling a connection held.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "fano/server.hpp"
#include "support.hpp"

namespace fano {
namespace {

using namespace fano::testing;
using server::Request;
using server::Response;

constexpr int kPatienceMs = 30000;  // far past every deadline configured here

// A gate that /hold requests wait at until opened.
struct Gate {
  std::mutex m;
  std::condition_variable cv;
  int entered = 0;
  bool open = false;
  void wait_inside() {
    std::unique_lock lock(m);
    ++entered;
    cv.notify_all();
    cv.wait(lock, [&] { return open; });
  }
  bool wait_entered(int n) {
    std::unique_lock lock(m);
    return cv.wait_for(lock, std::chrono::milliseconds(kPatienceMs), [&] { return entered >= n; });
  }
  void release() {
    std::lock_guard lock(m);
    open = true;
    cv.notify_all();
  }
};

// A server on an ephemeral port answering: /echo (the method, path and
// parameters as JSON), /hold (waits at the gate; counted expensive), /spin
// (works until its request's Interrupt stops it, as the analysis does;
// expensive), /quick (expensive, answered at once), else 404.
class Served {
 public:
  explicit Served(server::ServerOptions o = {}, bool run_now = true) {
    o.port = 0;
    o.bind = "127.0.0.1";
    http_ = std::make_unique<server::HttpServer>([this](const Request& r) { return answer(r); }, o,
                                                 [](const Request& r) {
                                                   return r.path == "/hold" || r.path == "/spin" ||
                                                          r.path == "/quick";
                                                 });
    port_ = http_->start();
    if (run_now) run();
  }
  ~Served() {
    quit = true;
    gate.release();
    http_->stop();
    if (thread_.joinable()) thread_.join();
  }
  void run() {
    thread_ = std::thread([this] {
      http_->run();
      stopped = true;
    });
  }
  server::HttpServer& http() { return *http_; }
  int port() const { return port_; }
  void join() { thread_.join(); }

  Gate gate;
  std::atomic<bool> stopped{false};
  std::atomic<int> answered{0};
  std::atomic<bool> quit{false};
  std::atomic<int> spinning{0}, cancelled{0}, past_deadline{0};

  // Waits (up to kPatienceMs) until `n` /spin requests have started.
  bool wait_spinning(int n) const {
    const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(kPatienceMs);
    while (spinning < n && std::chrono::steady_clock::now() < end)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return spinning >= n;
  }

 private:
  // Polls the Interrupt as the analysis does once a ply; gives up after
  // kPatienceMs (an answer 200 "not stopped") or when the test ends.
  void spin(const Request& r) {
    ++spinning;
    const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(kPatienceMs);
    while (!quit && std::chrono::steady_clock::now() < end) {
      try {
        r.interrupt.poll();
      } catch (const Interrupted& e) {
        ++(e.reason() == Interrupted::Reason::kCancelled ? cancelled : past_deadline);
        throw;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  }

  Response answer(const Request& r) {
    if (r.path == "/hold") gate.wait_inside();
    if (r.path == "/spin") spin(r);
    Response out;
    if (r.path != "/echo" && r.path != "/hold" && r.path != "/spin" && r.path != "/quick") {
      out.status = 404;
      out.body = R"({"error":"no such route"})";
      return out;
    }
    nlohmann::json params = nlohmann::json::object();
    for (const auto& [k, v] : r.params) params[k] = v;
    out.body = nlohmann::json{{"method", r.method},
                              {"path", r.path},
                              {"params", params},
                              {"body_bytes", r.body.size()}}
                   .dump();
    ++answered;
    return out;
  }

  std::unique_ptr<server::HttpServer> http_;
  int port_ = 0;
  std::thread thread_;
};

int connect_to(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(std::uint16_t(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

bool send_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n <= 0) return false;
    bytes.remove_prefix(std::size_t(n));
  }
  return true;
}

// One response read from a kept-alive connection: its head and its body
// (by Content-Length); empty when the server closes or stays silent.
struct Reply {
  std::string head, body;
  int status() const { return head.size() > 12 ? std::stoi(head.substr(9, 3)) : 0; }
  bool has(const std::string& header_line) const {
    return head.find("\r\n" + header_line + "\r\n") != std::string::npos;
  }
};
Reply read_reply(int fd, std::string& pending, int wait_ms = kPatienceMs) {
  Reply r;
  char buf[4096];
  for (;;) {
    const std::size_t end = pending.find("\r\n\r\n");
    if (end != std::string::npos) {
      r.head = pending.substr(0, end + 2);
      std::size_t length = 0;
      const std::size_t cl = r.head.find("Content-Length: ");
      if (cl != std::string::npos) length = std::stoul(r.head.substr(cl + 16));
      if (pending.size() >= end + 4 + length) {
        r.body = pending.substr(end + 4, length);
        pending.erase(0, end + 4 + length);
        return r;
      }
    }
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, wait_ms) <= 0) return {};
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) return {};
    pending.append(buf, std::size_t(n));
  }
}

// A fresh connection, one request, its reply.
Reply ask(int port, const std::string& target) {
  const int fd = connect_to(port);
  if (fd < 0) return {};
  std::string pending;
  send_all(fd, "GET " + target + " HTTP/1.1\r\nHost: x\r\n\r\n");
  Reply r = read_reply(fd, pending);
  ::close(fd);
  return r;
}

server::ServerOptions short_deadlines(int threads = 2) {
  server::ServerOptions o;
  o.threads = threads;
  o.read_timeout = std::chrono::milliseconds(2000);
  o.shutdown_grace = std::chrono::milliseconds(2000);
  return o;
}

// Slowloris. Clients sending their request head a byte a second are
// cut off at the request deadline (2 s), before their head is complete,
// and meanwhile others are answered, although the clients outnumber the
// workers (2) thirty-two times.
TEST(HttpServer, SlowHeadersAreCutOffAtTheRequestDeadlineWhileOthersAreAnswered) {
  Served s(short_deadlines(2));
  const std::string request =
      "GET /echo HTTP/1.1\r\nHost: x\r\nX-Padding: " + std::string(40, 'p') +
      "\r\n\r\n";  // 40 s at a byte a second
  constexpr int kSlow = 64;
  std::vector<int> sent(kSlow, 0);
  std::vector<char> cut(kSlow, 0);
  std::vector<std::thread> slow;
  for (int k = 0; k < kSlow; ++k)
    slow.emplace_back([&, k] {
      const int fd = connect_to(s.port());
      if (fd < 0) return;
      for (std::size_t i = 0; i < request.size(); ++i) {
        if (::send(fd, &request[i], 1, MSG_NOSIGNAL) != 1) {
          cut[std::size_t(k)] = 1;  // the server has closed
          break;
        }
        ++sent[std::size_t(k)];
        pollfd p{fd, POLLIN, 0};
        char c;
        if (::poll(&p, 1, 1000) > 0 && ::recv(fd, &c, 1, 0) <= 0) {
          cut[std::size_t(k)] = 1;
          break;
        }
      }
      ::close(fd);
    });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  for (int i = 0; i < 20; ++i) {
    const Reply r = ask(s.port(), "/echo?i=" + std::to_string(i));
    EXPECT_EQ(r.status(), 200) << "request " << i << " not answered among slow clients";
  }
  for (auto& t : slow) t.join();
  for (int k = 0; k < kSlow; ++k) {
    EXPECT_TRUE(cut[std::size_t(k)]) << "slow client " << k << " was never cut off";
    EXPECT_LT(sent[std::size_t(k)], int(request.size()))
        << "slow client " << k << " sent its whole head";
  }
}

// Idle connections (sending nothing) neither hold a worker nor stay
// open past the deadline.
TEST(HttpServer, IdleConnectionsAreClosedAndDoNotDelayOthers) {
  Served s(short_deadlines(1));
  std::vector<int> idle;
  for (int i = 0; i < 300; ++i) {
    const int fd = connect_to(s.port());
    ASSERT_GE(fd, 0) << "connection " << i << " refused";
    idle.push_back(fd);
  }
  const Reply r = ask(s.port(), "/echo");
  EXPECT_EQ(r.status(), 200);
  for (const int fd : idle) {
    bool closed = false;
    EXPECT_EQ(read_until_closed(fd, kPatienceMs, &closed), "");
    EXPECT_TRUE(closed) << "an idle connection was held open";
    ::close(fd);
  }
}

// Kept-alive connections sending requests all the time leave room
// for a new client, and one that falls silent after an answer is closed at
// the deadline.
TEST(HttpServer, KeepAliveClientsCannotStarveANewOneAndIdleOnesAreClosed) {
  Served s(short_deadlines(1));
  std::atomic<bool> done{false};
  std::atomic<int> answers{0};
  std::vector<std::thread> busy;
  for (int k = 0; k < 64; ++k)
    busy.emplace_back([&] {
      const int fd = connect_to(s.port());
      std::string pending;
      while (!done && fd >= 0) {
        if (!send_all(fd, "GET /echo HTTP/1.1\r\nHost: x\r\n\r\n")) break;
        if (read_reply(fd, pending).status() != 200) break;
        ++answers;
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
      }
      if (fd >= 0) ::close(fd);
    });
  // Once the kept-alive clients are all at it (two answers each, on average)...
  for (int i = 0; i < kPatienceMs / 10 && answers < 128; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_GE(answers, 128) << "the kept-alive clients were not served";
  // ...a new client is answered too.
  for (int i = 0; i < 20; ++i) EXPECT_EQ(ask(s.port(), "/echo").status(), 200) << i;
  done = true;
  for (auto& t : busy) t.join();

  const int fd = connect_to(s.port());
  std::string pending;
  ASSERT_TRUE(send_all(fd, "GET /echo HTTP/1.1\r\nHost: x\r\n\r\n"));
  const Reply first = read_reply(fd, pending);
  EXPECT_EQ(first.status(), 200);
  EXPECT_FALSE(first.has("Connection: close"));
  bool closed = false;
  EXPECT_EQ(read_until_closed(fd, kPatienceMs, &closed), "");
  EXPECT_TRUE(closed) << "an idle kept-alive connection was held open";
  ::close(fd);
}

// Out of file descriptors (a server limited to 128, four hundred idle
// connections): a new client is answered, idle connections being closed to
// make room, the longest waiting first. Their deadline is far past the
// test's patience, so that none frees its descriptor by timing out. The
// server runs in a child process, whose limit the test's sockets do not share.
TEST(HttpServer, OutOfDescriptorsIdleConnectionsMakeRoomForANewClient) {
  int port_pipe[2], stop_pipe[2];
  ASSERT_EQ(::pipe(port_pipe), 0);
  ASSERT_EQ(::pipe(stop_pipe), 0);
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::close(port_pipe[0]);
    ::close(stop_pipe[1]);
    rlimit limit{};
    ::getrlimit(RLIMIT_NOFILE, &limit);
    limit.rlim_cur = 128;
    if (::setrlimit(RLIMIT_NOFILE, &limit) != 0) ::_exit(2);
    server::ServerOptions o = short_deadlines();
    o.read_timeout = std::chrono::milliseconds(20 * kPatienceMs);
    Served s(o);
    const int port = s.port();
    if (::write(port_pipe[1], &port, sizeof port) != sizeof port) ::_exit(3);
    char c;
    while (::read(stop_pipe[0], &c, 1) > 0) {
    }
    ::_exit(0);  // the test's end: no destructor waits for the idle connections
  }
  ::close(port_pipe[1]);
  ::close(stop_pipe[0]);
  struct Reaper {
    pid_t pid;
    int stop;
    ~Reaper() {
      ::close(stop);
      if (::kill(pid, SIGKILL) == 0) ::waitpid(pid, nullptr, 0);
    }
  } reaper{pid, stop_pipe[1]};
  int port = 0;
  ASSERT_EQ(::read(port_pipe[0], &port, sizeof port), ssize_t(sizeof port));
  ::close(port_pipe[0]);

  std::vector<int> idle;
  for (int i = 0; i < 400; ++i) {
    const int fd = connect_to(port);
    ASSERT_GE(fd, 0) << "connection " << i << " refused";
    idle.push_back(fd);
  }
  for (int i = 0; i < 10; ++i)
    EXPECT_EQ(ask(port, "/echo?i=" + std::to_string(i)).status(), 200) << "new client " << i;
  bool closed = false;
  EXPECT_EQ(read_until_closed(idle.front(), kPatienceMs, &closed), "");
  EXPECT_TRUE(closed) << "the longest idle connection was kept";
  for (const int fd : idle) ::close(fd);
}

// Past max_connections a new connection is closed at once, and the
// connections held do not keep the server from answering once they go.
TEST(HttpServer, ConnectionsPastTheLimitAreClosedAtOnce) {
  server::ServerOptions o = short_deadlines();
  o.max_connections = 4;
  Served s(o);
  std::vector<int> held;
  for (int i = 0; i < 4; ++i) held.push_back(connect_to(s.port()));
  std::string pending;
  ASSERT_TRUE(send_all(held[0], "GET /echo HTTP/1.1\r\nHost: x\r\n\r\n"));
  EXPECT_EQ(read_reply(held[0], pending).status(), 200) << "a held connection is served";
  const int extra = connect_to(s.port());  // accepted by the kernel, closed by the server
  ASSERT_GE(extra, 0);
  send_all(extra, "GET /echo HTTP/1.1\r\nHost: x\r\n\r\n");
  bool closed = false;
  EXPECT_EQ(read_until_closed(extra, kPatienceMs, &closed), "");
  EXPECT_TRUE(closed);
  ::close(extra);
  for (const int fd : held) ::close(fd);
  // The server sees the four go (at once, or at the deadline) and serves again.
  Reply again;
  for (int i = 0; i < 100 && again.status() != 200; ++i) {
    again = ask(s.port(), "/echo");
    if (again.status() != 200) std::this_thread::sleep_for(std::chrono::milliseconds(300));
  }
  EXPECT_EQ(again.status(), 200);
}

// A flood of header lines is refused with 431 past the limit (the
// server reads no more than that), a long request line with 414.
TEST(HttpServer, AHeaderFloodIsRefusedWith431) {
  Served s(short_deadlines());
  const int fd = connect_to(s.port());
  ASSERT_GE(fd, 0);
  send_all(fd, "GET /echo HTTP/1.1\r\nHost: x\r\n");
  // Up to a million lines, until the server answers (or closes).
  const std::string line = "X-Flood: y\r\n";
  for (int lines = 0; lines < 1000000; ++lines) {
    pollfd p{fd, POLLOUT | POLLIN, 0};
    if (::poll(&p, 1, kPatienceMs) <= 0 || (p.revents & POLLIN) || !send_all(fd, line)) break;
  }
  const std::string reply = read_until_closed(fd, kPatienceMs);
  ::close(fd);
  EXPECT_EQ(reply.substr(0, 12), "HTTP/1.1 431") << reply.substr(0, 200);
  EXPECT_NE(reply.find("\r\n\r\n{\"error\":"), std::string::npos) << reply.substr(0, 400);
  EXPECT_NE(reply.find("Connection: close"), std::string::npos);

  const Reply uri = ask(s.port(), "/echo?" + std::string(server::kHeaderLimit + 10, 'a'));
  EXPECT_EQ(uri.status(), 414);
  EXPECT_EQ(ask(s.port(), "/echo").status(), 200);
}

// One header line past the limit, whatever its length, is a header too
// large (431), not a URI too long: the request line ended before it.
TEST(HttpServer, OneLongHeaderLineIsRefusedWith431AtAnyLength) {
  Served s(short_deadlines());
  for (const std::size_t bytes : {server::kHeaderLimit + 1000, std::size_t(40 * 1024),
                                  std::size_t(60 * 1024), std::size_t(200 * 1024)}) {
    const int fd = connect_to(s.port());
    ASSERT_GE(fd, 0);
    send_all(fd, "GET /echo HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(bytes, 'b') + "\r\n\r\n");
    const std::string reply = read_until_closed(fd, kPatienceMs);
    ::close(fd);
    EXPECT_EQ(reply.substr(0, 12), "HTTP/1.1 431") << bytes << ": " << reply.substr(0, 200);
    EXPECT_NE(reply.find("the request's headers are too large"), std::string::npos) << bytes;
  }
  // A request line that long is still a URI too long.
  EXPECT_EQ(ask(s.port(), "/echo?" + std::string(40 * 1024, 'a')).status(), 414);
  EXPECT_EQ(ask(s.port(), "/echo").status(), 200);
}

// A request line ended without its version ("GET / \r\n\r\n") is refused
// with 400 at once: the deadline here is far longer than the test waits, so
// a server waiting for the rest of the line fails it. On a kept-alive
// connection, after an answer, too.
TEST(HttpServer, ARequestLineWithoutItsVersionGets400AtOnce) {
  server::ServerOptions o = short_deadlines();
  o.read_timeout = std::chrono::milliseconds(10 * kPatienceMs);
  Served s(o);
  for (const std::string bad :
       {"GET / \r\n\r\n", "GET /echo \r\n\r\n", "GET /echo H\r\n\r\n", "GET /echo HTTP/1.\r\n\r\n",
        "GET / \n\n", "GET\r\n\r\n", "GET /echo HTTP/1.1\r\nHost: x\r\n\r\nGET / \r\n\r\n"}) {
    const int fd = connect_to(s.port());
    ASSERT_GE(fd, 0);
    send_all(fd, bad);
    std::string pending;
    if (bad.find("Host") != std::string::npos) {
      EXPECT_EQ(read_reply(fd, pending).status(), 200) << "the request before";
    }
    const Reply r = read_reply(fd, pending);
    ::close(fd);
    EXPECT_EQ(r.status(), 400) << bad;
    EXPECT_NE(r.body.find("malformed HTTP request"), std::string::npos) << r.body;
  }
  EXPECT_EQ(ask(s.port(), "/echo").status(), 200);
}

// A body (no request takes one) is refused with 413 at once, without
// waiting for it: a GET's body, a huge Content-Length, a chunked upload.
struct BodyCase {
  const char* name;
  std::string head;  // the body follows, if `body` > 0 bytes
  std::size_t body;
};
void PrintTo(const BodyCase& c, std::ostream* os) { *os << c.name; }
class HttpBody : public ::testing::TestWithParam<BodyCase> {};

TEST_P(HttpBody, IsRefusedWith413BeforeItIsRead) {
  Served s(short_deadlines());
  const int fd = connect_to(s.port());
  ASSERT_GE(fd, 0);
  ASSERT_TRUE(send_all(fd, GetParam().head));
  // A little of the body (never all of a huge one): the answer comes first.
  send_all(fd, std::string(std::min<std::size_t>(GetParam().body, 1000), 'b'));
  std::string pending;
  const Reply r = read_reply(fd, pending);
  EXPECT_EQ(r.status(), 413) << r.head;
  EXPECT_TRUE(r.has("Connection: close")) << r.head;
  EXPECT_EQ(nlohmann::json::parse(r.body)["error"].is_string(), true) << r.body;
  bool closed = false;
  read_until_closed(fd, kPatienceMs, &closed);
  EXPECT_TRUE(closed);
  ::close(fd);
  EXPECT_EQ(s.answered, 0) << "the handler saw a request with a body";
}

INSTANTIATE_TEST_SUITE_P(
    Bodies, HttpBody,
    ::testing::Values(
        BodyCase{"GetWithBody", "GET /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n", 5},
        BodyCase{"TeraByteContentLength",
                 "PUT /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000000000\r\n\r\n",
                 std::size_t(1) << 40},
        BodyCase{"ChunkedUpload",
                 "PUT /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                 "40000000\r\n",
                 std::size_t(1) << 30},
        BodyCase{"PostOfATeraByte",
                 "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000000000\r\n\r\n",
                 std::size_t(1) << 40},
        BodyCase{"ChunkedPostOfAGibiByte",
                 "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                 "40000000\r\n",
                 std::size_t(1) << 30}),
    [](const auto& info) { return std::string(info.param.name); });

// A POST's body up to the limit reaches the handler (the batch route), and
// the connection goes on with the next request.
TEST(HttpServer, APostBodyUpToTheLimitReachesTheHandler) {
  Served s(short_deadlines());
  const int fd = connect_to(s.port());
  ASSERT_GE(fd, 0);
  const std::string body(server::kBodyLimit, 'b');
  ASSERT_TRUE(send_all(
      fd, "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: " + std::to_string(body.size()) +
              "\r\n\r\n" + body + "GET /echo?after=1 HTTP/1.1\r\nHost: x\r\n\r\n"));
  std::string pending;
  const Reply post = read_reply(fd, pending);
  ASSERT_EQ(post.status(), 200) << post.head;
  EXPECT_EQ(nlohmann::json::parse(post.body)["body_bytes"], server::kBodyLimit);
  const Reply after = read_reply(fd, pending);
  ASSERT_EQ(after.status(), 200) << after.head;
  EXPECT_EQ(nlohmann::json::parse(after.body)["params"]["after"], "1");
  EXPECT_EQ(nlohmann::json::parse(after.body)["body_bytes"], 0);
  ::close(fd);
}

// Pipelined requests are answered in order; a GET whose body is
// another request is refused, never answered as two; a request followed
// by a half-close is answered before the server closes.
TEST(HttpServer, PipelinedRequestsAreAnsweredInOrder) {
  Served s(short_deadlines());
  const int fd = connect_to(s.port());
  ASSERT_GE(fd, 0);
  std::string packet;
  for (int i = 0; i < 5; ++i)
    packet += "GET /echo?n=" + std::to_string(i) + " HTTP/1.1\r\nHost: x\r\n\r\n";
  packet += "GET /echo?n=last HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
  ASSERT_TRUE(send_all(fd, packet));
  std::string pending;
  for (int i = 0; i < 5; ++i) {
    const Reply r = read_reply(fd, pending);
    ASSERT_EQ(r.status(), 200) << i;
    EXPECT_EQ(nlohmann::json::parse(r.body)["params"]["n"], std::to_string(i));
  }
  const Reply last = read_reply(fd, pending);
  EXPECT_EQ(nlohmann::json::parse(last.body)["params"]["n"], "last");
  EXPECT_TRUE(last.has("Connection: close"));
  bool closed = false;
  EXPECT_EQ(read_until_closed(fd, kPatienceMs, &closed) + pending, "");
  EXPECT_TRUE(closed);
  ::close(fd);
}

TEST(HttpServer, ARequestSmuggledInAGetBodyIsNeverAnswered) {
  Served s(short_deadlines());
  const std::string inner = "GET /echo?smuggled=1 HTTP/1.1\r\nHost: x\r\n\r\n";
  const int fd = connect_to(s.port());
  ASSERT_TRUE(send_all(fd, "GET /echo HTTP/1.1\r\nHost: x\r\nContent-Length: " +
                               std::to_string(inner.size()) + "\r\n\r\n" + inner));
  const std::string reply = read_until_closed(fd, kPatienceMs);
  ::close(fd);
  EXPECT_EQ(reply.substr(0, 12), "HTTP/1.1 413") << reply;
  EXPECT_EQ(reply.find("HTTP/1.1", 1), std::string::npos) << "a second answer: " << reply;
  EXPECT_EQ(reply.find("smuggled"), std::string::npos);
  EXPECT_EQ(s.answered, 0);
}

TEST(HttpServer, ARequestThenAHalfCloseIsAnswered) {
  Served s(short_deadlines());
  const int fd = connect_to(s.port());
  ASSERT_TRUE(send_all(fd, "GET /echo?half=1 HTTP/1.1\r\nHost: x\r\n\r\n"));
  ::shutdown(fd, SHUT_WR);
  std::string pending;
  const Reply r = read_reply(fd, pending);
  EXPECT_EQ(r.status(), 200);
  EXPECT_EQ(nlohmann::json::parse(r.body)["params"]["half"], "1");
  bool closed = false;
  read_until_closed(fd, kPatienceMs, &closed);
  EXPECT_TRUE(closed);
  ::close(fd);
}

// Stop() (SIGTERM in `fano serve`) refuses new connections, closes
// idle ones, lets the answer in flight finish, and run() returns.
TEST(HttpServer, StopFinishesTheAnswerInFlightAndRefusesNewConnections) {
  server::ServerOptions o = short_deadlines();
  o.shutdown_grace = std::chrono::milliseconds(kPatienceMs);
  Served s(o);
  const int busy = connect_to(s.port());
  ASSERT_TRUE(send_all(busy, "GET /hold HTTP/1.1\r\nHost: x\r\n\r\n"));
  ASSERT_TRUE(s.gate.wait_entered(1));
  const int idle = connect_to(s.port());
  const int slow = connect_to(s.port());
  ASSERT_TRUE(send_all(slow, "GET /ec"));
  s.http().stop();
  bool closed = false;
  EXPECT_EQ(read_until_closed(idle, kPatienceMs, &closed), "");
  EXPECT_TRUE(closed) << "an idle connection stayed open after stop()";
  EXPECT_EQ(read_until_closed(slow, kPatienceMs, &closed), "");
  EXPECT_TRUE(closed) << "a half-read request stayed open after stop()";
  EXPECT_EQ(connect_to(s.port()), -1) << "a new connection was accepted after stop()";
  EXPECT_FALSE(s.stopped) << "run() returned with an answer in flight";
  s.gate.release();
  std::string pending;
  const Reply r = read_reply(busy, pending);
  EXPECT_EQ(r.status(), 200);
  EXPECT_TRUE(r.has("Connection: close"));
  s.join();
  EXPECT_TRUE(s.stopped);
  EXPECT_EQ(s.http().unfinished(), 0u);
  for (const int fd : {busy, idle, slow}) ::close(fd);
}

TEST(HttpServer, StopReturnsAfterTheGraceWithAnAnswerStillComputing) {
  server::ServerOptions o = short_deadlines();
  o.shutdown_grace = std::chrono::milliseconds(200);
  Served s(o);
  const int busy = connect_to(s.port());
  ASSERT_TRUE(send_all(busy, "GET /hold HTTP/1.1\r\nHost: x\r\n\r\n"));
  ASSERT_TRUE(s.gate.wait_entered(1));
  s.http().stop();
  s.join();  // returns although the handler is still held
  EXPECT_EQ(s.http().unfinished(), 1u);
  ::close(busy);
}

// Expensive requests have their own limit (1 here): one more is answered
// 503 with Retry-After, cheap requests are answered meanwhile, and the
// limit frees when the held one ends.
// A 503 that says when to come back: the Retry-After header, the usual
// security headers, and a JSON error with `words` in it.
void expect_503_with_retry_after(const Reply& r, int seconds, const std::string& words) {
  EXPECT_EQ(r.status(), 503);
  EXPECT_TRUE(r.has("Retry-After: " + std::to_string(seconds))) << r.head;
  EXPECT_TRUE(r.has("X-Content-Type-Options: nosniff")) << r.head;
  EXPECT_NE(std::string(nlohmann::json::parse(r.body)["error"]).find(words), std::string::npos)
      << r.body;
}

TEST(HttpServer, ExpensiveRequestsOverTheLimitGet503WithRetryAfter) {
  server::ServerOptions o = short_deadlines(2);
  o.expensive_limit = 1;
  o.retry_after_seconds = 7;
  Served s(o);
  const int held = connect_to(s.port());
  ASSERT_TRUE(send_all(held, "GET /hold HTTP/1.1\r\nHost: x\r\n\r\n"));
  ASSERT_TRUE(s.gate.wait_entered(1));
  expect_503_with_retry_after(ask(s.port(), "/hold"), 7, "retry after 7 s");
  for (int i = 0; i < 10; ++i) EXPECT_EQ(ask(s.port(), "/echo").status(), 200);
  s.gate.release();
  std::string pending;
  EXPECT_EQ(read_reply(held, pending).status(), 200);
  ::close(held);
  EXPECT_EQ(ask(s.port(), "/hold").status(), 200) << "the limit was not freed";
}

// An expensive request whose client closes its connection stops computing
// (the server watches the socket and sets the Interrupt's flag): the limit
// (1) frees and the next expensive request is admitted, where it got 503
// while the first one was computing.
TEST(HttpServer, ExpensiveWorkStopsWhenItsClientDisconnects) {
  server::ServerOptions o = short_deadlines(2);
  o.expensive_limit = 1;
  o.expensive_deadline = std::chrono::milliseconds(0);  // none: only the close stops it
  Served s(o);
  const int client = connect_to(s.port());
  ASSERT_TRUE(send_all(client, "GET /spin HTTP/1.1\r\nHost: x\r\n\r\n"));
  ASSERT_TRUE(s.wait_spinning(1));
  EXPECT_EQ(ask(s.port(), "/quick").status(), 503) << "the limit is not held by the first";
  ::close(client);
  int status = 0;
  const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(kPatienceMs);
  while (status != 200 && std::chrono::steady_clock::now() < end) {
    status = ask(s.port(), "/quick").status();
    if (status != 200) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_EQ(status, 200) << "the work of the client gone still holds the limit";
  EXPECT_EQ(s.cancelled, 1);
  EXPECT_EQ(s.past_deadline, 0);
}

// Past the deadline an expensive request's work stops and is answered 503
// with Retry-After, naming the deadline; the limit frees.
TEST(HttpServer, ExpensiveWorkPastTheDeadlineGets503WithRetryAfter) {
  server::ServerOptions o = short_deadlines(2);
  o.expensive_limit = 1;
  o.retry_after_seconds = 7;
  o.expensive_deadline = std::chrono::milliseconds(50);
  Served s(o);
  expect_503_with_retry_after(ask(s.port(), "/spin"), 7, "deadline of 50 ms");
  EXPECT_EQ(s.past_deadline, 1);
  EXPECT_EQ(s.cancelled, 0);
  EXPECT_EQ(ask(s.port(), "/quick").status(), 200) << "the limit was not freed";
  EXPECT_EQ(ask(s.port(), "/echo").status(), 200);
}

// A request sent on the same connection while an expensive one is computed
// is read by the watch on the socket, kept, and answered after it (the
// first stops at its deadline, not as a client gone).
TEST(HttpServer, ARequestPipelinedDuringExpensiveWorkIsAnsweredAfterIt) {
  server::ServerOptions o = short_deadlines(2);
  o.expensive_deadline = std::chrono::milliseconds(300);
  Served s(o);
  const int fd = connect_to(s.port());
  ASSERT_TRUE(send_all(fd, "GET /spin HTTP/1.1\r\nHost: x\r\n\r\n"));
  ASSERT_TRUE(s.wait_spinning(1));
  ASSERT_TRUE(send_all(fd, "GET /echo?after=1 HTTP/1.1\r\nHost: x\r\n\r\n"));
  std::string pending;
  EXPECT_EQ(read_reply(fd, pending).status(), 503);
  const Reply second = read_reply(fd, pending);
  EXPECT_EQ(second.status(), 200);
  EXPECT_EQ(nlohmann::json::parse(second.body)["params"]["after"], "1");
  EXPECT_EQ(s.past_deadline, 1);
  EXPECT_EQ(s.cancelled, 0);
  ::close(fd);
}

// A client that half-closes after an expensive request cannot be told from
// one gone (README): its work stops, and it is still told why (503).
TEST(HttpServer, AHalfCloseAfterAnExpensiveRequestStopsItsWorkWithAnAnswer) {
  server::ServerOptions o = short_deadlines(2);
  o.expensive_deadline = std::chrono::milliseconds(0);
  Served s(o);
  const int fd = connect_to(s.port());
  ASSERT_TRUE(send_all(fd, "GET /spin HTTP/1.1\r\nHost: x\r\n\r\n"));
  ASSERT_TRUE(s.wait_spinning(1));
  ::shutdown(fd, SHUT_WR);
  std::string pending;
  const Reply r = read_reply(fd, pending);
  EXPECT_EQ(r.status(), 503);
  EXPECT_NE(r.body.find("cancelled"), std::string::npos) << r.body;
  EXPECT_EQ(s.cancelled, 1);
  ::close(fd);
}

TEST(HttpServer, ExpensiveMeansAHistoryOrAPrincipalVariationWithOne) {
  const auto req = [](std::string path, std::multimap<std::string, std::string> params) {
    Request r;
    r.path = std::move(path);
    r.params = std::move(params);
    return r;
  };
  const std::string nine = "C4,t3,C5,t5,T1,c2,T2,c6,C1";
  // The picture: a history of more than kCheapMoves moves.
  EXPECT_FALSE(
      server::is_expensive(req("/api/v2/standard/svg", {{"position", "-/-/-/-/-/-/-_w"}})));
  EXPECT_FALSE(server::is_expensive(req("/api/v2/standard/svg", {{"moves", "C4,t3,C5"}})));
  EXPECT_FALSE(
      server::is_expensive(req("/api/v2/standard/svg", {{"moves", "C4 t3 C5 t5 T1 c2 T2 c6"}})));
  EXPECT_TRUE(server::is_expensive(req("/api/v2/standard/svg", {{"moves", nine}})));
  EXPECT_TRUE(
      server::is_expensive(req("/api/v2/standard/svg", {{"moves", "C4+t3+C5+t5+T1+c2+T2+c6+C1"}})));
  // A position's report or main line (a principal variation): any history.
  EXPECT_TRUE(server::is_expensive(req("/api/v2/standard/mainline", {{"moves", "C4"}})));
  EXPECT_TRUE(server::is_expensive(req("/api/v2/cap3", {{"moves", "C4"}})));
  EXPECT_FALSE(
      server::is_expensive(req("/api/v2/standard/mainline", {{"position", "-/-/-/-/-/-/-_w"}})));
  EXPECT_FALSE(server::is_expensive(req("/api/v2/standard", {{"position", "-/-/-/-/-/-/-_w"}})));
  Request batch = req("/api/v2/standard/batch", {});
  batch.method = "POST";
  EXPECT_TRUE(server::is_expensive(batch));
  // Measured, not assumed: a table's statistics and its puzzles take up to
  // seconds of CPU the first time (listed once a table, under the deadline).
  EXPECT_TRUE(server::is_expensive(req("/api/v2/standard/stats", {})));
  EXPECT_TRUE(server::is_expensive(req("/api/v2/standard/puzzle", {{"seed", "1"}})));
  EXPECT_TRUE(server::is_expensive(req("/api/v2/standard/puzzle", {{"grade", "hard"}})));
  // Read from the route table: a request no route takes is refused at once.
  EXPECT_FALSE(server::is_expensive(req("/api/v2/standard/nothing", {{"moves", nine}})));
  batch.path = "/api/v2/standard";
  EXPECT_FALSE(server::is_expensive(batch));
}

// A Range header on a static file is ignored: the whole file, once,
// 200, whatever the ranges; HEAD gives its length and no body; no path
// leaves the folder.
TEST(HttpServer, StaticFilesIgnoreRangesAndStayInTheirFolder) {
  TempDir web;
  const std::string page = "<!doctype html><title>t</title>" + std::string(5000, 'x');
  write_text(web / "index.html", page);
  write_text(web / "app.js", "let a = 1;\n");
  server::ServerOptions o = short_deadlines();
  o.web_dir = web.path().string();
  Served s(o);
  std::string ranges = "bytes=0-";
  for (int i = 0; i < 2700; ++i) ranges += ",0-";
  ranges.resize(std::min(ranges.size(), server::kHeaderLimit - 200));
  for (const std::string& range : {std::string(), std::string("bytes=0-9"), ranges}) {
    const int fd = connect_to(s.port());
    send_all(fd, "GET / HTTP/1.1\r\nHost: x\r\n" +
                     (range.empty() ? "" : "Range: " + range + "\r\n") + "\r\n");
    std::string pending;
    const Reply r = read_reply(fd, pending);
    ::close(fd);
    EXPECT_EQ(r.status(), 200) << range.substr(0, 40);
    EXPECT_EQ(r.body, page);
    EXPECT_TRUE(r.has("Content-Type: text/html")) << r.head;
    EXPECT_TRUE(r.has("X-Content-Type-Options: nosniff")) << r.head;
  }
  const Reply js = ask(s.port(), "/app.js");
  EXPECT_EQ(js.body, "let a = 1;\n");
  EXPECT_TRUE(js.has("Content-Type: text/javascript")) << js.head;
  const int fd = connect_to(s.port());
  send_all(fd, "HEAD /index.html HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  const std::string head = read_until_closed(fd, kPatienceMs);
  ::close(fd);
  EXPECT_NE(head.find("Content-Length: " + std::to_string(page.size())), std::string::npos) << head;
  EXPECT_EQ(head.substr(head.find("\r\n\r\n") + 4), "");
  for (const char* escape : {"/../index.html", "/%2e%2e/index.html", "/..%2findex.html"})
    EXPECT_EQ(ask(s.port(), escape).status(), 404) << escape;
  EXPECT_EQ(ask(s.port(), "/echo").status(), 200) << "the handler answers what no file does";
}

// Slow clients, as a process: `fano serve` under slow clients stops on SIGTERM and
// exits 0.
TEST(FanoServeProcess, StopsOnSigtermUnderSlowClients) {
  TempDir tables, dir;
  const pid_t pid = spawn_fano({"serve", "--port", "0", "--tables", tables.path().string(), "--web",
                                "none", "--read-timeout", "60000"},
                               (dir / "out").string(), (dir / "err").string());
  // The server never outlives the test, whatever fails.
  struct Reaper {
    pid_t pid;
    ~Reaper() {
      if (pid > 0 && ::kill(pid, SIGKILL) == 0) ::waitpid(pid, nullptr, 0);
    }
  } reaper{pid};
  std::string url;
  for (int i = 0; i < 1200 && url.empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const std::string out = read_text(dir / "out");
    if (out.find('\n') != std::string::npos) url = out.substr(0, out.find('\n'));
  }
  ASSERT_FALSE(url.empty()) << read_text(dir / "err");
  const int port = std::stoi(url.substr(url.rfind(':') + 1));
  std::vector<int> slow;
  for (int i = 0; i < 64; ++i) {
    const int fd = connect_to(port);
    ASSERT_GE(fd, 0);
    send_all(fd, "GET /api/v2/standard?mo");
    slow.push_back(fd);
  }
  // The URL is printed at once: the standard game's table is solved meanwhile (503).
  Reply made = ask(port, "/api/v2/standard?moves=C4");
  for (int i = 0; i < kPatienceMs / 50 && made.status() == 503; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    made = ask(port, "/api/v2/standard?moves=C4");
  }
  EXPECT_EQ(made.status(), 200);
  ::kill(pid, SIGTERM);
  int status = -1;
  for (int i = 0; i < kPatienceMs / 10; ++i) {
    if (::waitpid(pid, &status, WNOHANG) == pid) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (status == -1) {
    ADD_FAILURE() << "fano serve did not stop on SIGTERM";
  } else {
    reaper.pid = -1;  // reaped
  }
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << read_text(dir / "err");
  for (const int fd : slow) ::close(fd);
}

// The path's segments are decoded after it is split: an escaped slash is
// part of its segment ("/echo%2Fx" is one segment, no route), any other
// escape is decoded ("/ech%6F" is /echo).
TEST(HttpServer, PathSegmentsAreDecodedAfterSplitting) {
  Served s(short_deadlines());
  const Reply slash = ask(s.port(), "/echo%2Fx");
  EXPECT_EQ(slash.status(), 404) << slash.body;
  const Reply lower = ask(s.port(), "/echo%2fx");
  EXPECT_EQ(lower.status(), 404) << lower.body;
  const Reply decoded = ask(s.port(), "/ech%6F?a=%2F");
  EXPECT_EQ(decoded.status(), 200) << decoded.body;
  EXPECT_NE(decoded.body.find("\"path\":\"/echo\""), std::string::npos) << decoded.body;
  EXPECT_NE(decoded.body.find("\"a\":\"/\""), std::string::npos) << decoded.body;
}

}  // namespace
}  // namespace fano
