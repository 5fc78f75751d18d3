// The HTTP server (fano::server) answering with the Api: real HTTP on an
// ephemeral port of 127.0.0.1, concurrent clients, hostile clients
// (oversized, malformed, slow, dropped connections), readings solved in the
// background while serving, and `fano serve` as a process. The Api's own
// answers are tested without a network in test_api.cpp.
#include <arpa/inet.h>
#include <fcntl.h>
#include <httplib.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <mutex>
#include <set>
#include <thread>

#include "api_fixtures.hpp"
#include "fano/analysis.hpp"
#include "fano/background_tables.hpp"
#include "fano/game_facts.hpp"
#include "fano/json.hpp"
#include "fano/notation.hpp"
#include "fano/players.hpp"
#include "fano/server.hpp"
#include "fano/solver.hpp"
#include "fano/table_files.hpp"
#include "fano/table_writer.hpp"

namespace fano {
namespace {

using namespace fano::testing;
using nlohmann::json;
using server::Api;
using server::Request;
using server::Response;

// ---------------------------------------------------------------------------
// Real HTTP on 127.0.0.1, an ephemeral port

class LiveServer : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server::ServerOptions o;
    o.port = 0;
    o.threads = 32;
    o.read_timeout = std::chrono::milliseconds(1000);
    http_ = new server::HttpServer(api(), o);
    port_ = http_->start();
    thread_ = new std::thread([] { http_->run(); });
  }
  static void TearDownTestSuite() {
    http_->stop();
    thread_->join();
    delete thread_;
    delete http_;
  }
  static httplib::Client client() {
    httplib::Client c("127.0.0.1", port_);
    c.set_read_timeout(10, 0);
    return c;
  }
  // Sends raw bytes on a new connection and returns everything the server
  // sends back until it closes the connection (or `wait_ms` pass in silence).
  static std::string raw(const std::string& bytes, int wait_ms = 3000, bool* closed = nullptr) {
    const int fd = connect_socket();
    if (fd < 0) return "";
    (void)!::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    std::string out = read_until_closed(fd, wait_ms, closed);
    ::close(fd);
    return out;
  }
  static int connect_socket() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(std::uint16_t(port_));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
      ::close(fd);
      return -1;
    }
    return fd;
  }
  static int port_;
  static server::HttpServer* http_;
  static std::thread* thread_;
};

int LiveServer::port_ = 0;
server::HttpServer* LiveServer::http_ = nullptr;
std::thread* LiveServer::thread_ = nullptr;

// Every byte but letters, digits and "-._~/," as %XX.
std::string percent_encoded(const std::string& s) {
  std::string out;
  for (const unsigned char c : s) {
    if (std::isalnum(c) || std::strchr("-._~/,", c)) {
      out += char(c);
    } else {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      out += buf;
    }
  }
  return out;
}

long rss_kib() {
  std::ifstream in("/proc/self/status");
  std::string key;
  long value = 0;
  while (in >> key)
    if (key == "VmRSS:" && in >> value) return value;
  return -1;
}

// The limits docs/api.md gives a client are the server's: its numbers and
// its quoted refusals, at the bound and one past it.
TEST(Server, TheLimitsTheApiReferenceDocumentsAreTheServers) {
  const std::string doc = read_text(fs::path(FANO_SOURCE_DIR) / "docs" / "api.md");
  const std::size_t at = doc.find("\n## Limits\n");
  ASSERT_NE(at, std::string::npos) << "docs/api.md has no Limits section";
  const std::string limits = doc.substr(at, doc.find("\n## ", at + 1) - at);
  for (const std::string& said : {std::string("4,096 bytes"), std::string("at most 1,000 items"),
                                  std::to_string(server::kBodyLimit / 1024) + " KiB",
                                  std::to_string(server::kHeaderLimit / 1024) + " KiB",
                                  std::string("parameter 'moves' is longer than 4096 bytes"),
                                  std::string("batch item N is longer than 4096 bytes"),
                                  std::string("too many batch items: N (at most 1000)")})
    EXPECT_NE(limits.find(said), std::string::npos) << said;
  EXPECT_EQ(server::kMaxBatchItems, 1000u);
  // Every route's cost class, as the route table has it.
  for (const server::Route& route : server::routes()) {
    const std::string cost = route.cost == server::RouteCost::kCheap ? "cheap"
                             : route.cost == server::RouteCost::kLongHistory
                                 ? "expensive with a `moves=` history of more than " +
                                       std::to_string(server::kCheapMoves) + " moves"
                             : route.cost == server::RouteCost::kAnyHistory
                                 ? "expensive with any `moves=` history"
                                 : "expensive";
    const std::string row =
        "| `" + std::string(route.method) + " " + std::string(route.pattern) + "` | " + cost + " |";
    EXPECT_NE(limits.find(row), std::string::npos) << row;
  }
  // The queue and the back-off, as the server's defaults have them.
  const server::BackgroundOptions defaults;
  EXPECT_NE(limits.find(std::to_string(defaults.max_queued) + " readings, " +
                        std::to_string(defaults.max_queued_per_client) + " a client"),
            std::string::npos);
  EXPECT_NE(limits.find(std::to_string(defaults.retry_failed_after.count()) +
                        " s, doubled at each failure up to " +
                        std::to_string(defaults.retry_failed_max.count()) + " s"),
            std::string::npos);
  // The memory bound, as `fano serve --help` gives its default.
  const RunResult help = run_fano({"serve", "--help"});
  const std::size_t at_mb = help.out.find("--tables-mb arg (=");
  ASSERT_NE(at_mb, std::string::npos) << help.out;
  const int mb = std::stoi(help.out.substr(at_mb + 18));
  EXPECT_GT(mb, 0) << "a finite default";
  std::string with_commas = std::to_string(mb);
  if (with_commas.size() > 3) with_commas.insert(with_commas.size() - 3, ",");
  EXPECT_NE(limits.find("`--tables-mb` " + with_commas + " MiB by default"), std::string::npos)
      << with_commas;

  // The memory bound's refusal, as the server words it: at the first
  // request, before anything is solved or written.
  {
    TempDir dir;
    Api a({}, "test");
    server::BackgroundOptions o;
    o.dir = dir.path().string();
    o.table_bytes_limit = std::size_t(8) << 20;
    server::BackgroundTables solving(a, o);
    const Response r =
        a.handle(Request{"GET", "/api/v2/cap3-board-colour-3c3t", {{"moves", "C4"}}, ""});
    EXPECT_EQ(r.status, 404);
    const std::string said = parse_json(r.body)["error"];
    EXPECT_NE(limits.find("with `--tables-mb 8`: `" + said + "`"), std::string::npos) << said;
    EXPECT_TRUE(fs::is_empty(dir.path()));
  }
  EXPECT_NE(limits.find("refused when first asked for, before anything is read or solved"),
            std::string::npos);
  const std::uint64_t largest =
      *server::known_classes(*variant_from_name("cap3-board-colour-3c3t"));
  const auto mib = [](std::size_t bytes) { return std::to_string((bytes + (1 << 20) - 1) >> 20); };
  EXPECT_NE(
      limits.find("`cap3-board-colour-3c3t`: a " + mib(server::held_bytes(largest)) +
                  " MiB table, about " + mib(server::solve_peak_bytes(largest)) + " MiB to solve"),
      std::string::npos);
  // What an error echoes is quoted and cut, as the section shows it.
  const Response echoed = get("/api/v2/" + std::string(102400, 'x'), {{"moves", "C4"}});
  EXPECT_EQ(echoed.status, 404);
  EXPECT_NE(parse_json(echoed.body)["error"].get<std::string>().find("...' (102400 bytes)"),
            std::string::npos)
      << echoed.body;
  EXPECT_NE(limits.find("...' (102400 bytes)"), std::string::npos);

  // 4,096 bytes of moves= are read (C4 and spaces), one more is refused.
  const std::string moves = "C4" + std::string(4094, ' ');
  EXPECT_EQ(get("/api/v2/standard", {{"moves", moves}}).status, 200);
  const Response longer = get("/api/v2/standard", {{"moves", moves + " "}});
  EXPECT_EQ(longer.status, 400);
  EXPECT_EQ(parse_json(longer.body)["error"], "parameter 'moves' is longer than 4096 bytes");
  const Response item = post_batch("/api/v2/standard/batch",
                                   json{{"items", {"moves: C4" + std::string(4088, ' ')}}}.dump());
  EXPECT_EQ(item.status, 400);
  EXPECT_EQ(parse_json(item.body)["error"], "batch item 1 is longer than 4096 bytes");
  EXPECT_EQ(post_batch("/api/v2/standard/batch",
                       json{{"items", {"moves: C4" + std::string(4087, ' ')}}}.dump())
                .status,
            200);
}

// An escaped slash in the reading's segment is part of the reading's name:
// "/api/v2/standard%2Fstats" asks for a reading "standard%2Fstats" (none,
// 404), never for the statistics of the standard game.
TEST_F(LiveServer, AnEscapedSlashIsNoSeparator) {
  httplib::Client c = client();
  const auto r = c.Get("/api/v2/standard%2Fstats");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404) << r->body;
  EXPECT_NE(r->body.find("unknown variant 'standard%2Fstats'"), std::string::npos) << r->body;
  const auto stats = c.Get("/api/v2/standard/stats");
  ASSERT_TRUE(stats);
  EXPECT_EQ(stats->status, 200);
}

// Over HTTP too, an error echoes no raw control character and stays short,
// whatever a route is sent: escaped control bytes in the path and in each
// parameter (a 100 KB request is refused by the HTTP layer, 414, in a line
// of its own).
TEST_F(LiveServer, ErrorsEchoNoControlCharactersAndStayShort) {
  const std::string controls = "%1B%5B2J%07%00%0D%0A%7F%C2%9B";
  std::vector<std::string> targets;
  for (const server::Route& route : server::routes()) {
    std::string path(route.pattern);
    if (const std::size_t at = path.find("{variant}"); at != std::string::npos) {
      targets.push_back(std::string(path).replace(at, 9, "x" + controls) + "?moves=C4");
      path.replace(at, 9, "standard");
    }
    for (const char* key : {"grade", "moves", "player", "position", "seed"})
      targets.push_back(path + "?" + key + "=C4" + controls);
    targets.push_back(path + "/" + controls);
  }
  targets.push_back("/api/v2/standard?moves=" + std::string(100 * 1024, 'x'));
  std::size_t errors = 0;
  for (const std::string& target : targets) {
    const std::string reply =
        raw("GET " + target + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    ASSERT_EQ(reply.rfind("HTTP/1.1 ", 0), 0u) << target.substr(0, 80);
    if (reply[9] < '4') continue;
    ++errors;
    const std::size_t body = reply.find("\r\n\r\n");
    ASSERT_NE(body, std::string::npos);
    const std::string message = parse_json(reply.substr(body + 4))["error"];
    EXPECT_LE(message.size(), 1000u) << target.substr(0, 80);
    for (const char c : message)
      EXPECT_FALSE(static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
          << target.substr(0, 80) << ": " << escape_text(message);
    EXPECT_EQ(message.find("\xc2\x9b"), std::string::npos) << message;
  }
  EXPECT_GT(errors, targets.size() / 2);
}

TEST_F(LiveServer, AnswersOverHttpWithHeaders) {
  httplib::Client c = client();
  const auto r = c.Get("/api/v2/standard?moves=C4,t3");
  ASSERT_TRUE(r) << httplib::to_string(r.error());
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->get_header_value("Content-Type"), "application/json");
  EXPECT_EQ(r->get_header_value("Access-Control-Allow-Origin"), "*");
  EXPECT_EQ(r->body, get("/api/v2/standard", {{"moves", "C4,t3"}}).body);
  // '+' and %20 decode to the space of a position, like '_'.
  for (const char* q : {"-/-/t/C/-/-/-+w", "-/-/t/C/-/-/-%20w", "-/-/t/C/-/-/-_w"}) {
    const auto p = c.Get((std::string("/api/v2/standard?position=") + q).c_str());
    ASSERT_TRUE(p);
    EXPECT_EQ(p->status, 200) << q << p->body;
    EXPECT_EQ(parse_json(p->body)["position"], "-/-/t/C/-/-/- w");
  }
  const auto etag = r->get_header_value("ETag");
  const auto cached = c.Get("/api/v2/standard?moves=C4,t3", {{"If-None-Match", etag}});
  ASSERT_TRUE(cached);
  EXPECT_EQ(cached->status, 304);
  const auto page = c.Get("/");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  const auto missing = c.Get("/api/v2/cap4?moves=C4");
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->status, 404);
  EXPECT_TRUE(parse_json(missing->body)["error"].is_string());
}

TEST_F(LiveServer, BatchIsPostedOverHttp) {
  httplib::Client c = client();
  const std::string body = R"({"items":["moves: C4,t3","-/-/t/C/-/-/- w"],"value_only":true})";
  const auto r = c.Post("/api/v2/standard/batch", body, "application/json");
  ASSERT_TRUE(r) << httplib::to_string(r.error());
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body, post_batch("/api/v2/standard/batch", body).body);
  EXPECT_EQ(parse_json(r->body)["answers"].size(), 2u);
  // A body over the server's 64 KB: refused before the Api, in the same JSON.
  std::string big = R"({"items":[)";
  for (int i = 0; i < 4000; ++i) big += std::string(i ? "," : "") + R"("moves: C4,t3")";
  big += "]}";
  const auto large = c.Post("/api/v2/standard/batch", big, "application/json");
  ASSERT_TRUE(large) << httplib::to_string(large.error());
  EXPECT_EQ(large->status, 413);
  EXPECT_TRUE(parse_json(large->body)["error"].is_string()) << large->body;
}

// A repeated parameter is refused whether or not its values differ
// (httplib's own parser drops a repeated "key=value" pair), with the security
// headers, as are httplib's own errors.
TEST_F(LiveServer, ARepeatedParameterIsRefusedEvenWithTheSameValue) {
  httplib::Client c = client();
  for (const char* path :
       {"/api/v2/standard?moves=C4&moves=C4", "/api/v2/standard?moves=C4&moves=t3",
        "/api/v2/standard?moves=C4&mo%76es=C4",
        "/api/v2/standard/svg?position=-/-/-/-/-/-/-_w&position=-/-/-/-/-/-/-_w"}) {
    SCOPED_TRACE(path);
    const auto r = c.Get(path);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 400);
    const json j = parse_json(r->body);
    ASSERT_TRUE(j.is_object() && j["error"].is_string()) << r->body;
    EXPECT_NE(std::string(j["error"]).find("given more than once"), std::string::npos) << j;
    EXPECT_EQ(r->get_header_value("X-Content-Type-Options"), "nosniff");
  }
  const auto once = c.Get("/api/v2/standard?moves=C4&position=-/-/-/-/-/-/-_w");
  ASSERT_TRUE(once);
  EXPECT_EQ(once->status, 200) << once->body;
  const std::string reply =
      raw("GET /?" + std::string(100 * 1024, 'a') + " HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(reply.substr(9, 3), "414") << reply.substr(0, 200);
  EXPECT_NE(reply.find("X-Content-Type-Options: nosniff"), std::string::npos)
      << reply.substr(0, 400);
}

TEST_F(LiveServer, ConcurrentClientsAllAnsweredRight) {
  // The expected answers, from the Api directly, for positions of a sample.
  const std::vector<State> sample = sample_positions(kStandard, 20, 99, 40, 40);
  std::vector<std::pair<std::string, std::string>> expected;
  for (const State st : sample) {
    std::string text = format_position(st);
    std::replace(text.begin(), text.end(), ' ', '_');
    expected.push_back({"/api/v2/standard?position=" + percent_encoded(text),
                        get("/api/v2/standard", {{"position", text}}).body});
  }
  std::atomic<int> right{0}, wrong{0};
  std::vector<std::thread> clients;
  for (int t = 0; t < 8; ++t)
    clients.emplace_back([&, t] {
      httplib::Client c = client();
      for (int i = 0; i < 500; ++i) {
        const auto& [path, body] =
            expected[(std::size_t(t) * 131 + std::size_t(i)) % expected.size()];
        const auto r = c.Get(path.c_str());
        (r && r->status == 200 && r->body == body ? right : wrong)++;
      }
    });
  for (auto& th : clients) th.join();
  EXPECT_EQ(right, 4000);
  EXPECT_EQ(wrong, 0);
}

TEST_F(LiveServer, HostileRequestsGet4xxAndTheServerKeepsAnswering) {
  struct Case {
    std::string request;
    std::string status;
  };
  const std::string big(100 * 1024, 'a');
  const std::vector<Case> cases = {
      {"GET /api/v2/standard?position=" + big + " HTTP/1.1\r\nHost: x\r\n\r\n", "414"},
      {"GET /api/v2/standard?moves=%zz%4 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", "400"},
      {"GET /api/v2/standard?position=-/-/%00/-/-/-/-_w HTTP/1.1\r\nHost: x\r\nConnection: "
       "close\r\n\r\n",
       "400"},
      {std::string(
           "GET /api/v2/standard?moves=C4\0 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 66),
       "400"},
      {"GET /api/v2/standard?position=%ff%fe HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
       "400"},
      {"GET /api/v2/standard HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", "400"},
      {"BREW /api/v2/standard?moves=C4 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", "400"},
      {"DELETE /api/v2/standard?moves=C4 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", "405"},
      {"GET /api/v2/standard?moves=C4 HTTP/1.1\r\nHost: x\r\nX: " + std::string(20000, 'h') +
           "\r\n\r\n",
       "4"},
      {std::string("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 not http\r\n\r\n", 25), "400"},
      {"GET /\r\n\r\n", "4"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(::testing::PrintToString(c.request.substr(0, 60)));
    const std::string reply = raw(c.request);
    ASSERT_GE(reply.size(), 12u) << "no answer";
    EXPECT_EQ(reply.substr(9, c.status.size()), c.status) << reply.substr(0, 200);
    EXPECT_NE(reply.find("\r\n\r\n{\"error\":"), std::string::npos) << reply.substr(0, 300);
  }
  // A request that never ends its line is dropped at the read timeout (1 s);
  // bytes that cannot start a request are refused at once.
  bool closed = false;
  EXPECT_EQ(raw("GET /api/v2/sta", 60000, &closed), "");
  EXPECT_TRUE(closed) << "the server held a connection that sent nothing more";
  EXPECT_EQ(raw("\x16\x03\x01\x02", 60000, &closed).substr(0, 12), "HTTP/1.1 400");
  EXPECT_TRUE(closed);
  httplib::Client cl = client();
  const auto r = cl.Get("/api/v2/standard?moves=C4");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
}

TEST_F(LiveServer, ASlowClientDoesNotHoldTheServer) {
  // A client that sends its request one byte every 300 ms, on four connections.
  std::atomic<bool> done{false};
  std::vector<std::thread> slow;
  for (int k = 0; k < 4; ++k)
    slow.emplace_back([&] {
      const int fd = connect_socket();
      const std::string req = "GET /api/v2/standard?moves=C4 HTTP/1.1\r\nHost: x\r\n\r\n";
      for (std::size_t i = 0; i < req.size() && !done; ++i) {
        if (::send(fd, &req[i], 1, MSG_NOSIGNAL) != 1) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
      }
      ::close(fd);
    });
  // A client that sends half a request and then nothing is dropped after the
  // read timeout (1 s here).
  const int idle = connect_socket();
  ASSERT_GE(idle, 0);
  (void)!::send(idle, "GET /api/v2/sta", 15, MSG_NOSIGNAL);
  // Meanwhile everyone else is answered.
  httplib::Client c = client();
  for (int i = 0; i < 200; ++i) {
    const auto r = c.Get("/api/v2/standard?moves=C4,t3");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200);
  }
  bool closed = false;
  const std::string idle_reply = read_until_closed(idle, 60000, &closed);
  ::close(idle);
  EXPECT_TRUE(closed) << "the server held a connection that sent half a request";
  EXPECT_TRUE(idle_reply.empty() || idle_reply.rfind("HTTP/1.1 4", 0) == 0) << idle_reply;
  done = true;
  for (auto& th : slow) th.join();
}

TEST_F(LiveServer, ThousandsOfDroppedConnectionsAndBoundedMemory) {
  httplib::Client c = client();
  ASSERT_TRUE(c.Get("/api/v2/standard?moves=C4"));
  const long before = rss_kib();
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 1000; ++i) {
      const int fd = connect_socket();
      ASSERT_GE(fd, 0) << "connection " << i << " refused";
      if (i % 3 == 1) (void)!::send(fd, "GET /api/v2/standard?mo", 23, MSG_NOSIGNAL);
      if (i % 3 == 2) {
        linger l{1, 0};  // a reset instead of a close
        ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof l);
      }
      ::close(fd);
    }
    for (int i = 0; i < 300; ++i) {
      const auto r = c.Get("/api/v2/standard?moves=C4,t3");
      ASSERT_TRUE(r) << "round " << round << " request " << i;
      EXPECT_EQ(r->status, 200);
    }
  }
  const long after = rss_kib();
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer keeps freed memory in quarantine: no bound on resident memory";
#endif
  EXPECT_LT(after - before, 64 * 1024)
      << "resident memory grew from " << before << " to " << after << " KiB";
}

// ---------------------------------------------------------------------------
// Readings solved in the background while the server answers

// The files of a folder, by name.
std::vector<std::string> files_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// The table `fano solve --rules NAME` writes, as bytes.
std::vector<std::uint8_t> solved_by_the_cli(const std::string& name) {
  TempDir dir;
  const std::string out = (dir / "t.fanotb").string();
  const RunResult r = run_fano({"solve", "--rules", name, "--out", out});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return read_bytes(out);
}

// An unsolved reading asked over HTTP: 503 with Retry-After and the solve's
// progress at once, then (polled, bounded) 200 with the values `fano query
// --rules NAME --json` gives from the table the server wrote, which is the
// table `fano solve` writes, byte for byte, and nothing else in the folder.
TEST(BackgroundSolving, AnUnsolvedReadingIs503WithProgressThenAnsweredAsFanoQuery) {
  TempDir dir;
  Api a({}, "test");
  server::BackgroundOptions o;
  o.dir = dir.path().string();
  o.threads = 1;
  o.retry_after_seconds = 2;
  server::BackgroundTables solving(a, o);
  server::ServerOptions so;
  so.port = 0;
  so.threads = 4;
  server::HttpServer http(a, so);
  const int port = http.start();
  std::thread running([&] { http.run(); });
  httplib::Client c("127.0.0.1", port);
  c.set_read_timeout(30, 0);
  const std::string path = "/api/v2/standard-1c1t?moves=C4,t3";
  const auto first = c.Get(path.c_str());
  ASSERT_TRUE(first) << httplib::to_string(first.error());
  EXPECT_EQ(first->status, 503);
  EXPECT_EQ(first->get_header_value("Retry-After"), "2");
  const json progress = parse_json(first->body)["progress"];
  EXPECT_EQ(progress["reading"], "standard-1c1t");
  EXPECT_TRUE(progress["state"] == "queued" || progress["state"] == "solving") << progress;
  ASSERT_TRUE(solving.wait_idle(std::chrono::seconds(120)));
  const auto answered = c.Get(path.c_str());
  ASSERT_TRUE(answered);
  ASSERT_EQ(answered->status, 200) << answered->body;
  const RunResult q = run_fano({"query", "--rules", "standard-1c1t", "--tables",
                                dir.path().string(), "--moves", "C4,t3", "--json"});
  ASSERT_EQ(q.exit_code, 0) << q.err;
  const json cli = parse_json(q.out), served = parse_json(answered->body);
  for (const auto& [key, value] : cli.items()) EXPECT_EQ(served[key], value) << key;
  EXPECT_GT(cli.size(), 5u);
  EXPECT_EQ(files_in(dir.path()), std::vector<std::string>{"standard-1c1t.fanotb"});
  EXPECT_EQ(read_bytes(dir / "standard-1c1t.fanotb"), solved_by_the_cli("standard-1c1t"));
  http.stop();
  running.join();
}

// One solve at a time, in the order asked (the named variants queued first
// by `fano serve`); each request for a reading queued says how many solves
// are ahead of it.
TEST(BackgroundSolving, OneSolveAtATimeInTheOrderAsked) {
  TempDir dir;
  Api a({}, "test");
  std::mutex m;
  std::vector<std::string> made;
  server::BackgroundOptions o;
  o.dir = dir.path().string();
  o.log = [&](const std::string& line) {
    const std::lock_guard lock(m);
    if (line.find(" solved and written") != std::string::npos)
      made.push_back(line.substr(7, line.find(' ', 7) - 7));
  };
  server::BackgroundTables solving(a, o);
  // Named by their slugs, as the log names them.
  const std::vector<std::string> order{"standard-1c1t", "cap2-projective-1c1t", "cap3-board-1c1t",
                                       "standard-colour-1c1t"};
  for (const std::string& name : order) solving.enqueue(*variant_from_name(name));
  const auto last = solving.request(*variant_from_name(order.back()));
  ASSERT_TRUE(last);
  if (last->state == "queued") {
    EXPECT_LE(last->ahead, order.size() - 1);
  }
  ASSERT_TRUE(solving.wait_idle(std::chrono::seconds(120)));
  EXPECT_EQ(made, order);
  EXPECT_EQ(a.tables().size(), order.size());
  // Held now: asking again queues nothing.
  EXPECT_EQ(a.handle(Request{"GET", "/api/v2/cap3-1c1t", {{"moves", "C4"}}, ""}).status, 200);
  EXPECT_TRUE(solving.wait_idle(std::chrono::seconds(1)));
  EXPECT_EQ(made.size(), order.size());
}

// A reading's size is known from the rules without solving it: the class
// count compiled into the server is, for every reading, the one
// results/variants.md gives (each reading solved and verified there), and
// the solver's own count for the smaller readings.
TEST(BackgroundSolving, EveryReadingsSizeIsKnownAsTheSolverCountsIt) {
  const std::string text = read_text(fs::path(FANO_SOURCE_DIR) / "results" / "variants.md");
  std::size_t solved = 0;
  for (const Variant& v : every_rules()) {
    const std::string slug = variant_slug(v);
    SCOPED_TRACE(slug);
    const std::optional<std::uint64_t> known = server::known_classes(v);
    ASSERT_TRUE(known);
    // The row "| slug | value | first moves | positions | classes | ...".
    const std::size_t row =
        text.find("\n| " + slug + " | ", text.find("\n## Every rule combination"));
    ASSERT_NE(row, std::string::npos);
    std::string cells = text.substr(row + 3, text.find('\n', row + 1) - row - 3);
    std::vector<std::string> cell;
    for (std::size_t at = 0; at < cells.size();) {
      const std::size_t bar = std::min(cells.find(" | ", at), cells.size());
      cell.push_back(cells.substr(at, bar - at));
      at = bar + 3;
    }
    ASSERT_GE(cell.size(), 5u);
    EXPECT_EQ(std::to_string(*known), cell[4]);
    if (*known <= 25'000) {
      EXPECT_EQ(solve(v).positions.size(), *known);
      ++solved;
    }
  }
  EXPECT_GE(solved, 10u);
  // The held bytes and the solve's peak grow with the classes; the largest
  // reading's solve (measured 945 to 1,004 MiB) fits the default bound.
  const std::uint64_t largest =
      *server::known_classes(*variant_from_name("cap3-board-colour-3c3t"));
  EXPECT_EQ(server::held_bytes(largest), largest * 9);
  EXPECT_GT(server::solve_peak_bytes(largest), std::size_t(900) << 20);
  EXPECT_LT(server::solve_peak_bytes(largest), std::size_t(1024) << 20);
}

// The operator's bound on memory: a reading whose table (its size known
// from the rules) would go past it, or whose solve would, is refused when
// asked for, before anything is solved or written: 404 at once, naming its
// size and the bound; a reading that fits is still solved and served.
TEST(BackgroundSolving, AReadingPastTheMemoryBoundIsRefusedBeforeItIsSolved) {
  TempDir dir;
  Api a({}, "test");
  std::mutex m;
  std::vector<std::string> log;
  server::BackgroundOptions o;
  o.dir = dir.path().string();
  o.table_bytes_limit = std::size_t(1) << 20;
  o.log = [&](const std::string& line) {
    const std::lock_guard lock(m);
    log.push_back(line);
  };
  server::BackgroundTables solving(a, o);
  const Request large{"GET", "/api/v2/cap3-board-colour-3c3t", {{"moves", "C4"}}, ""};
  const Response refused = a.handle(large);
  EXPECT_EQ(refused.status, 404) << refused.body;
  const std::string why = parse_json(refused.body)["error"];
  for (const char* figure :
       {"29,923,432 classes", "257 MiB", "about 971 MiB at its peak", "memory bound of 1 MiB"})
    EXPECT_NE(why.find(figure), std::string::npos) << figure << " in " << why;
  EXPECT_TRUE(solving.wait_idle(std::chrono::milliseconds(0)));
  EXPECT_EQ(a.handle(large).body, refused.body);  // never queued since
  // standard has 138,125 classes: its table (1.2 MiB) is past the bound too.
  EXPECT_EQ(a.handle(Request{"GET", "/api/v2/standard", {{"moves", "C4"}}, ""}).status, 404);
  const Request small{"GET", "/api/v2/standard-1c1t", {{"moves", "C4"}}, ""};
  EXPECT_EQ(a.handle(small).status, 503);
  ASSERT_TRUE(solving.wait_idle(std::chrono::seconds(120)));
  EXPECT_EQ(a.handle(small).status, 200);
  EXPECT_EQ(files_in(dir.path()), std::vector<std::string>{"standard-1c1t.fanotb"});
  const std::lock_guard lock(m);
  for (const std::string& line : log) {
    if (line.find("solving it") != std::string::npos) {
      EXPECT_NE(line.find("standard-1c1t"), std::string::npos) << line;
    }
  }
  EXPECT_NE(log.front().find("cap3-board-colour-3c3t is not served: its table takes 257 MiB"),
            std::string::npos)
      << log.front();
}

// Two readings that each fit the bound but not together: the second,
// queued while the first was read, is refused when its turn comes, before
// its solve starts (no file written for it).
TEST(BackgroundSolving, AReadingLeftNoRoomByTablesReadMeanwhileIsNotSolved) {
  TempDir dir;
  fs::copy_file(table_path(kStandard), dir / "standard.fanotb");
  Api a({}, "test");
  server::BackgroundOptions o;
  o.dir = dir.path().string();
  const std::uint64_t standard = *server::known_classes(kStandard);
  Variant small = kStandard;
  small.circles = 1, small.triangles = 1;
  const std::uint64_t tiny = *server::known_classes(small);
  o.table_bytes_limit = server::held_bytes(standard) + server::held_bytes(tiny) - 1;
  ASSERT_LE(server::solve_peak_bytes(tiny), o.table_bytes_limit);
  server::BackgroundTables solving(a, o);
  const Request first{"GET", "/api/v2/standard", {{"moves", "C4"}}, ""};
  const Request second{"GET", "/api/v2/standard-1c1t", {{"moves", "C4"}}, ""};
  EXPECT_EQ(a.handle(first).status, 503);
  const Response queued = a.handle(second);
  ASSERT_TRUE(solving.wait_idle(std::chrono::seconds(120)));
  EXPECT_EQ(a.handle(first).status, 200);
  const Response refused = a.handle(second);
  EXPECT_EQ(refused.status, 404) << queued.body << refused.body;
  EXPECT_NE(refused.body.find("832 classes"), std::string::npos) << refused.body;
  EXPECT_EQ(files_in(dir.path()), std::vector<std::string>{"standard.fanotb"});
}

// Two servers on one folder asked the same reading at once: each solves or
// reads it, both answer the same, and the folder holds the one whole table
// `fano solve` writes (each write a temporary of its own renamed over the
// file), no temporary left.
TEST(BackgroundSolving, TwoServersOnOneFolderLeaveOneWholeTable) {
  TempDir dir;
  Api a({}, "one"), b({}, "two");
  server::BackgroundOptions o;
  o.dir = dir.path().string();
  o.threads = 1;
  server::BackgroundTables first(a, o), second(b, o);
  const Request r{"GET", "/api/v2/cap3-projective-1c1t", {{"moves", "C4,t3"}}, ""};
  EXPECT_EQ(a.handle(r).status, 503);
  EXPECT_EQ(b.handle(r).status, 503);
  ASSERT_TRUE(first.wait_idle(std::chrono::seconds(120)));
  ASSERT_TRUE(second.wait_idle(std::chrono::seconds(120)));
  const Response x = a.handle(r), y = b.handle(r);
  ASSERT_EQ(x.status, 200) << x.body;
  EXPECT_EQ(x.body, y.body);
  EXPECT_EQ(files_in(dir.path()), std::vector<std::string>{"cap3-projective-1c1t.fanotb"});
  EXPECT_EQ(read_bytes(dir / "cap3-projective-1c1t.fanotb"),
            solved_by_the_cli("cap3-projective-1c1t"));
}

// ---------------------------------------------------------------------------
// `fano serve`, the process

// Starts `fano serve --port 0` with `args`; returns its pid and URL (read from
// its first line of stdout, within 120 s).
struct ServeProcess {
  pid_t pid = -1;
  std::string url;
  TempDir dir;

  explicit ServeProcess(const std::vector<std::string>& args) {
    std::vector<std::string> all{"serve", "--port", "0"};
    all.insert(all.end(), args.begin(), args.end());
    pid = spawn_fano(all, (dir / "out").string(), (dir / "err").string());
    for (int i = 0; i < 1200 && url.empty(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      const std::string out = read_text(dir / "out");
      if (out.find('\n') != std::string::npos) url = out.substr(0, out.find('\n'));
    }
  }
  int port() const { return std::stoi(url.substr(url.rfind(':') + 1)); }
  std::string err() const { return read_text(dir / "err"); }
};

// Polls `path` while it is answered 503 (a table being made), at most 120 s.
httplib::Result get_when_made(httplib::Client& c, const std::string& path) {
  httplib::Result r = c.Get(path.c_str());
  for (int i = 0; i < 1200 && r && r->status == 503; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    r = c.Get(path.c_str());
  }
  return r;
}

// The named variants' missing tables are solved in the background at start
// (the URL is printed at once, before they are held) and written to the folder; any
// other reading is solved when first asked for: 503 with Retry-After and the
// progress, then answered.
TEST(FanoServe, SolvesTheMissingTablesInTheBackgroundAndStopsOnSigterm) {
  TempDir tables;
  ServeProcess s({"--tables", tables.path().string(), "--solve-threads", "1"});
  ASSERT_FALSE(s.url.empty()) << s.err();
  EXPECT_EQ(s.url.rfind("http://127.0.0.1:", 0), 0u) << s.url;
  httplib::Client c("127.0.0.1", s.port());
  for (const Variant& v : kAllVariants) {
    const auto made = get_when_made(c, "/api/v2/" + variant_slug(v) + "?moves=C4");
    ASSERT_TRUE(made);
    EXPECT_EQ(made->status, 200) << made->body;
    EXPECT_TRUE(fs::exists(tables / (variant_slug(v) + ".fanotb")))
        << "the solved table was not written: " << variant_slug(v);
  }
  const auto r = c.Get("/api/v2/standard?moves=C4");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(parse_json(r->body)["value"], "draw");
  const auto other = c.Get("/api/v2/cap3?moves=C4");
  ASSERT_TRUE(other);
  EXPECT_EQ(other->status, 200);
  const std::string small = "/api/v2/projective-colour-1c1t?moves=C4";
  const auto first = c.Get(small.c_str());
  ASSERT_TRUE(first);
  EXPECT_EQ(first->status, 503) << first->body;
  EXPECT_EQ(first->get_header_value("Retry-After"), "1");
  EXPECT_EQ(parse_json(first->body)["progress"]["reading"], "cap2-projective-colour-1c1t");
  const auto answered = get_when_made(c, small);
  ASSERT_TRUE(answered);
  EXPECT_EQ(answered->status, 200) << answered->body;
  EXPECT_TRUE(fs::exists(tables / "cap2-projective-colour-1c1t.fanotb"));
  const auto info = c.Get("/api/v2/info");
  ASSERT_TRUE(info);
  EXPECT_EQ(parse_json(info->body)["variants"].size(), 5u);
  ::kill(s.pid, SIGTERM);
  const RunResult done = wait_fano(s.pid);
  EXPECT_EQ(done.exit_code, 0) << s.err();
}

TEST(FanoServe, ServesTheCommittedTablesAndStopsOnSigint) {
  ServeProcess s({"--tables", tables_folder(), "--threads", "4"});
  ASSERT_FALSE(s.url.empty()) << s.err();
  httplib::Client c("127.0.0.1", s.port());
  const auto info = c.Get("/api/v2/info");
  ASSERT_TRUE(info);
  EXPECT_EQ(parse_json(info->body)["variants"].size(), 4u);
  ::kill(s.pid, SIGINT);
  EXPECT_EQ(wait_fano(s.pid).exit_code, 0) << s.err();
}

TEST(FanoServe, BadArgumentsAndADamagedTable) {
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"serve", "--port", "70000"},
           {"serve", "--threads", "-1"},
           {"serve", "--expensive", "0"},
           {"serve", "--read-timeout", "5"},
           {"serve", "--tables-mb", "-1"},
           {"serve", "--solve-threads", "2000"},
           {"serve", "--bind", "not-an-address", "--port", "0", "--tables", tables_folder()}}) {
    const RunResult r = run_fano(args);
    EXPECT_NE(r.exit_code, 0) << command_line(args);
    EXPECT_EQ(r.err_lines(), 1) << r.err;
  }
  TempDir tables;
  std::vector<std::uint8_t> bytes = read_bytes(table_path(kStandard));
  bytes[bytes.size() / 2] ^= 0x40;
  write_bytes(tables / "standard.fanotb", bytes);
  const RunResult r = run_fano({"serve", "--port", "0", "--tables", tables.path().string()});
  EXPECT_EQ(r.exit_code, exit_code_of(TablebaseErrorKind::kChecksum)) << r.err;
  EXPECT_EQ(r.err_lines(), 1) << r.err;
}

// A copy of the named variants' tables in a folder of its own (so that a
// server started on it solves nothing at start).
void copy_named_tables(const fs::path& to) {
  for (const Variant& v : kAllVariants)
    fs::copy_file(table_path(v), to / (variant_slug(v) + ".fanotb"));
}

// A folder whose tables do not all fit --tables-mb is sized from the tables'
// headers and none is decoded at start; each is read when first asked for,
// its header checked against the bound before its body is decoded. The
// standard table's body is damaged: decoded, it would stop the start with a
// checksum error (as in BadArgumentsAndADamagedTable); past the bound (1.2
// MiB held), it is refused naming the limit, its body never read.
TEST(FanoServe, TablesPastTheBoundAreSizedFromTheirHeadersAndReadWhenAskedFor) {
  TempDir tables;
  copy_named_tables(tables.path());
  std::vector<std::uint8_t> damaged = read_bytes(table_path(kStandard));
  damaged[damaged.size() / 2] ^= 0x40;
  write_bytes(tables / "standard.fanotb", damaged);
  write_bytes(tables / "standard-1c1t.fanotb", solved_by_the_cli("standard-1c1t"));
  ServeProcess s({"--tables", tables.path().string(), "--tables-mb", "1", "--web", "none"});
  ASSERT_FALSE(s.url.empty()) << s.err();
  httplib::Client c("127.0.0.1", s.port());
  // The readings /api/v2/info lists: the tables decoded and held.
  const auto held = [&] {
    std::vector<std::string> slugs;
    const auto info = c.Get("/api/v2/info");
    EXPECT_TRUE(info && info->status == 200);
    if (!info || info->status != 200) return slugs;
    const nlohmann::json body = parse_json(info->body);
    for (const auto& v : body["variants"]) slugs.push_back(v["slug"].get<std::string>());
    return slugs;
  };
  const auto standard = get_when_made(c, "/api/v2/standard?moves=C4");
  ASSERT_TRUE(standard);
  EXPECT_EQ(standard->status, 404) << standard->body;
  EXPECT_NE(standard->body.find("memory bound of 1 MiB"), std::string::npos) << standard->body;
  EXPECT_EQ(standard->body.find("checksum"), std::string::npos) << standard->body;
  const auto before = held();
  EXPECT_EQ(std::count(before.begin(), before.end(), "standard-1c1t"), 0);
  EXPECT_EQ(std::count(before.begin(), before.end(), "standard"), 0);
  const auto first = c.Get("/api/v2/standard-1c1t?moves=C4");
  ASSERT_TRUE(first);
  EXPECT_EQ(first->status, 503) << first->body;
  const auto answered = get_when_made(c, "/api/v2/standard-1c1t?moves=C4");
  ASSERT_TRUE(answered);
  EXPECT_EQ(answered->status, 200) << answered->body;
  const auto after = held();
  EXPECT_EQ(std::count(after.begin(), after.end(), "standard-1c1t"), 1);
  ::kill(s.pid, SIGTERM);
  EXPECT_EQ(wait_fano(s.pid).exit_code, 0) << s.err();
}

// `--verify-tables` checks every table the server reads, also one that
// appears in the folder after start (another server's, the documented way):
// a table changed with its checksum made again (a class won stored as a
// draw) is refused (404 naming the check; the log names it too), never served.
TEST(FanoServe, VerifyTablesChecksATableDroppedInAfterStart) {
  TempDir tables;
  copy_named_tables(tables.path());
  ServeProcess s({"--tables", tables.path().string(), "--verify-tables", "--web", "none"});
  ASSERT_FALSE(s.url.empty()) << s.err();
  Variant small = kStandard;
  small.circles = 1, small.triangles = 1;
  const Solution sol = solve(small);
  auto outcomes = sol.outcomes;
  std::size_t won = 0;
  while (outcomes[won].value != Value::kWin) ++won;
  outcomes[won] = Outcome{Value::kDraw, 0};
  write_bytes(tables / "standard-1c1t.fanotb",
              encode_tablebase(small, tablebase_counts(sol), sol.positions, outcomes));
  httplib::Client c("127.0.0.1", s.port());
  const std::string path = "/api/v2/standard-1c1t?position=" +
                           percent_encoded(format_position(State{sol.positions[won]}));
  const auto r = get_when_made(c, path);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404) << r->body;
  EXPECT_NE(r->body.find("fails its check"), std::string::npos) << r->body;
  EXPECT_EQ(r->body.find("\"table_value\""), std::string::npos) << r->body;
  ::kill(s.pid, SIGTERM);
  EXPECT_EQ(wait_fano(s.pid).exit_code, 0) << s.err();
}

// The folder's tables do not all fit `--tables-mb 1` (sized from their
// headers, nothing decoded): none is read at start; each is read when first
// asked for (the named ones asked by the server itself) if it fits beside
// those held, and one that does not (standard, 138,125 classes: 1.2 MiB)
// is refused. A reading no one has asked for is not read: its first
// request is 503, then it is answered.
TEST(FanoServe, TablesPastTheBoundAtStartAreReadWhenFirstAskedFor) {
  TempDir tables;
  copy_named_tables(tables.path());
  Variant small = kStandard;
  small.circles = 1, small.triangles = 1;
  write_file_atomically(default_tablebase_path(small, tables.path().string()),
                        encode_solution(solve(small)));
  ServeProcess s({"--tables", tables.path().string(), "--tables-mb", "1", "--web", "none"});
  ASSERT_FALSE(s.url.empty()) << s.err();
  httplib::Client c("127.0.0.1", s.port());
  const std::string path = "/api/v2/standard-1c1t?moves=C4";
  const auto first = c.Get(path.c_str());
  ASSERT_TRUE(first);
  EXPECT_EQ(first->status, 503) << first->body;
  const auto answered = get_when_made(c, path);
  ASSERT_TRUE(answered);
  EXPECT_EQ(answered->status, 200) << answered->body;
  const auto large = get_when_made(c, "/api/v2/standard?moves=C4");
  ASSERT_TRUE(large);
  EXPECT_EQ(large->status, 404) << large->body;
  EXPECT_NE(large->body.find("memory bound of 1 MiB"), std::string::npos) << large->body;
  EXPECT_EQ(get_when_made(c, "/api/v2/projective?moves=C4")->status, 200);
  std::set<std::string> held;
  const json info = parse_json(c.Get("/api/v2/info")->body);
  for (const json& v : info["variants"]) held.insert(v["slug"]);
  EXPECT_EQ(held, (std::set<std::string>{"cap2-projective", "cap3-projective", "standard-1c1t"}));
  ::kill(s.pid, SIGTERM);
  EXPECT_EQ(wait_fano(s.pid).exit_code, 0) << s.err();
}

// `fano serve --tables-mb 8`: the largest reading (257 MiB of table, about
// 1 GiB to solve) is refused at its first request, before any solve: 404
// naming its size and the bound, and nothing written to the folder; the
// tables held are still answered. (The log's line is checked in
// BackgroundSolving.AReadingPastTheMemoryBoundIsRefusedBeforeItIsSolved.)
TEST(FanoServe, AReadingPastTablesMbIsRefusedBeforeItIsSolved) {
  TempDir tables;
  copy_named_tables(tables.path());
  ServeProcess s({"--tables", tables.path().string(), "--tables-mb", "8", "--web", "none"});
  ASSERT_FALSE(s.url.empty()) << s.err();
  httplib::Client c("127.0.0.1", s.port());
  const auto r = c.Get("/api/v2/cap3-board-colour-3c3t?moves=C4");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404) << r->body;
  const std::string why = parse_json(r->body)["error"];
  for (const char* figure :
       {"29,923,432 classes", "257 MiB", "MiB at its peak", "memory bound of 8 MiB (--tables-mb"})
    EXPECT_NE(why.find(figure), std::string::npos) << figure << " in " << why;
  const auto again = c.Get("/api/v2/cap3-board-colour-3c3t?moves=C4");
  ASSERT_TRUE(again);
  EXPECT_EQ(again->status, 404);
  EXPECT_EQ(c.Get("/api/v2/standard?moves=C4")->status, 200);
  ::kill(s.pid, SIGTERM);
  EXPECT_EQ(wait_fano(s.pid).exit_code, 0) << s.err();
  std::vector<std::string> named;
  for (const Variant& v : kAllVariants) named.push_back(variant_slug(v) + ".fanotb");
  std::sort(named.begin(), named.end());
  EXPECT_EQ(files_in(tables.path()), named);
}

// SIGTERM during a background solve stops it between two of its stages or
// rounds: the process exits 0, the table is not written and no temporary
// is left (the solve would otherwise have run to its end and written it).
// A second signal ends the process at once, leaving no temporary either.
TEST(FanoServe, SigtermStopsABackgroundSolveAndLeavesNoFile) {
  for (const int signals : {1, 2}) {
    SCOPED_TRACE(std::to_string(signals) + " signal(s)");
    TempDir tables;
    copy_named_tables(tables.path());
    ServeProcess s({"--tables", tables.path().string(), "--web", "none", "--solve-threads", "1"});
    ASSERT_FALSE(s.url.empty()) << s.err();
    httplib::Client c("127.0.0.1", s.port());
    // A reading whose solve takes a second or more: stopped once it has started.
    bool solving = false;
    for (int i = 0; i < 1200 && !solving; ++i) {
      const auto r = c.Get("/api/v2/cap3-board-2c3t?moves=C4");
      ASSERT_TRUE(r);
      ASSERT_EQ(r->status, 503) << r->body;
      const json p = parse_json(r->body)["progress"];
      solving = p["state"] == "solving" && !std::string(p["stage"]).empty();
      if (!solving) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ASSERT_TRUE(solving);
    for (int i = 0; i < signals; ++i) ::kill(s.pid, SIGTERM);
    const RunResult done = wait_fano(s.pid);
    // One signal: exit 0 once the solve has stopped; a second may end it at
    // once (exit 128 + SIGTERM) if the first has not finished by then.
    if (signals == 1) {
      EXPECT_EQ(done.exit_code, 0) << s.err();
    } else {
      EXPECT_TRUE(done.exit_code == 0 || done.exit_code == 128 + SIGTERM) << s.err();
    }
    std::vector<std::string> named;
    for (const Variant& v : kAllVariants) named.push_back(variant_slug(v) + ".fanotb");
    std::sort(named.begin(), named.end());
    EXPECT_EQ(files_in(tables.path()), named) << s.err();
  }
}

std::string header_value(const Response& r, const std::string& key) {
  for (const auto& [k, v] : r.headers)
    if (k == key) return v;
  return "";
}

// A reading whose table failed to be made (here a damaged file, which is
// never replaced unseen) is 503 with Retry-After and the reason in its
// progress, and is tried again after the back-off: once the file is whole,
// the reading is answered.
TEST(BackgroundSolving, AFailedTableIs503AndTriedAgainAfterTheBackOff) {
  TempDir dir;
  Api a({}, "test");
  std::vector<std::uint8_t> bytes = solved_by_the_cli("standard-1c1t");
  std::vector<std::uint8_t> damaged = bytes;
  damaged[damaged.size() / 2] ^= 0x40;
  write_bytes(dir / "standard-1c1t.fanotb", damaged);
  std::mutex m;
  std::vector<std::string> log;
  server::BackgroundOptions o;
  o.dir = dir.path().string();
  o.retry_failed_after = std::chrono::seconds(1);
  o.log = [&](const std::string& line) {
    const std::lock_guard lock(m);
    log.push_back(line);
  };
  server::BackgroundTables solving(a, o);
  const Request r{"GET", "/api/v2/standard-1c1t", {{"moves", "C4"}}, ""};
  EXPECT_EQ(a.handle(r).status, 503);
  ASSERT_TRUE(solving.wait_idle(std::chrono::seconds(120)));
  const Response failed = a.handle(r);
  EXPECT_EQ(failed.status, 503) << failed.body;
  EXPECT_FALSE(header_value(failed, "Retry-After").empty());
  const json p = parse_json(failed.body)["progress"];
  EXPECT_EQ(p["state"], "failed");
  EXPECT_NE(std::string(p["stage"]).find("checksum"), std::string::npos) << p;
  {
    const std::lock_guard lock(m);
    ASSERT_FALSE(log.empty());
    EXPECT_NE(log.back().find("cannot make the table of standard-1c1t"), std::string::npos)
        << log.back();
  }
  write_bytes(dir / "standard-1c1t.fanotb", bytes);
  Response answered = failed;
  for (int i = 0; i < 600 && answered.status == 503; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    answered = a.handle(r);
  }
  EXPECT_EQ(answered.status, 200) << answered.body;
}

// The queue of tables to make is bounded for each client: a client asking
// for many readings at once has a few queued and the rest answered 503
// ("busy", not queued), while another client is still queued.
TEST(BackgroundSolving, OneClientCannotFillTheQueue) {
  TempDir dir;
  Api a({}, "test");
  server::BackgroundOptions o;
  o.dir = dir.path().string();
  o.max_queued = 4;
  o.max_queued_per_client = 2;
  server::BackgroundTables solving(a, o);
  std::map<std::string, int> states;
  for (const char* name :
       {"standard-1c1t", "standard-1c2t", "standard-2c1t", "cap3-1c1t", "cap3-1c2t", "cap3-2c1t"}) {
    Request r{"GET", std::string("/api/v2/") + name, {{"moves", "C4"}}, ""};
    r.client = "192.0.2.1";
    const Response res = a.handle(r);
    ASSERT_EQ(res.status, 503) << res.body;
    ++states[parse_json(res.body)["progress"]["state"]];
  }
  // One may have left the queue for the solver already: 2 or 3 taken.
  EXPECT_GE(states["busy"], 3) << json(states);
  EXPECT_LE(states["busy"], 4) << json(states);
  Request other{"GET", "/api/v2/projective-1c1t", {{"moves", "C4"}}, ""};
  other.client = "192.0.2.2";
  const Response res = a.handle(other);
  EXPECT_NE(parse_json(res.body)["progress"]["state"], "busy") << res.body;
  ASSERT_TRUE(solving.wait_idle(std::chrono::seconds(120)));
}

// Started under an address-space limit (as a container's memory limit sets
// it), from 200 MB to 1.5 GB, `fano serve` either listens at once and
// answers, then stops on SIGTERM with exit 0, or ends with a one-line
// message and a non-zero exit: never a hang (the hang was seen in 2 starts
// of 3 at 900 MB: each limit is tried 10 times).
TEST(FanoServe, UnderAnAddressSpaceLimitItServesOrEndsWithOneLine) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer reserves terabytes of address space for its shadow memory: "
                  "no build of it starts under an address-space limit";
#endif
  for (const long mb : {200L, 400L, 900L, 1500L}) {
    for (int run = 0; run < 10; ++run) {
      SCOPED_TRACE(std::to_string(mb) + " MB, run " + std::to_string(run));
      TempDir dir;
      std::vector<std::string> storage{FANO_BIN,   "serve",         "--port", "0",
                                       "--tables", tables_folder(), "--web",  "none"};
      std::vector<char*> argv;
      for (std::string& a : storage) argv.push_back(a.data());
      argv.push_back(nullptr);
      const std::string out = (dir / "out").string(), err = (dir / "err").string();
      const pid_t pid = ::fork();
      ASSERT_GE(pid, 0);
      if (pid == 0) {
        const rlimit limit{rlim_t(mb) << 20, rlim_t(mb) << 20};
        const int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (o < 0 || e < 0 || ::setrlimit(RLIMIT_AS, &limit) != 0) ::_exit(127);
        ::dup2(o, 1), ::dup2(e, 2);
        ::execv(argv[0], argv.data());
        ::_exit(127);
      }
      std::string url;
      int status = 0;
      bool exited = false;
      for (int i = 0; i < 600 && url.empty() && !exited; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        const std::string text = read_text(dir / "out");
        if (text.find('\n') != std::string::npos) url = text.substr(0, text.find('\n'));
        exited = ::waitpid(pid, &status, WNOHANG) == pid;
      }
      if (exited) {
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) != 0);
        const std::string e = read_text(dir / "err");
        EXPECT_EQ(std::count(e.begin(), e.end(), '\n'), 1) << e;
        continue;
      }
      if (url.empty()) {
        ::kill(pid, SIGKILL);
        ::waitpid(pid, nullptr, 0);
        ADD_FAILURE() << "neither listening nor ended after 30 s: " << read_text(dir / "err");
        continue;
      }
      httplib::Client c("127.0.0.1", std::stoi(url.substr(url.rfind(':') + 1)));
      const auto info = c.Get("/api/v2/info");
      EXPECT_TRUE(info && info->status == 200);
      ::kill(pid, SIGTERM);
      for (int i = 0; i < 600 && !exited; ++i) {
        exited = ::waitpid(pid, &status, WNOHANG) == pid;
        if (!exited) std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
      if (!exited) {
        ::kill(pid, SIGKILL);
        ::waitpid(pid, nullptr, 0);
        ADD_FAILURE() << "SIGTERM did not end it within 30 s";
        continue;
      }
      EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << read_text(dir / "err");
    }
  }
}

}  // namespace
}  // namespace fano
