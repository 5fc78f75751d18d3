#include <pthread.h>
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <thread>

#include "cli.hpp"
#include "commands.hpp"
#include "fano/background_tables.hpp"
#include "fano/files.hpp"
#include "fano/server.hpp"
#include "fano/solver.hpp"
#include "fano/table_files.hpp"
#include "fano/verify.hpp"
#include "fano/version.hpp"

namespace fano::cli {
namespace {

// The readings in the order the server loads them: the named variants first.
std::vector<Variant> load_order() {
  std::vector<Variant> order(kAllVariants.begin(), kAllVariants.end());
  for (const Variant& v : every_rules())
    if (std::find(order.begin(), order.end(), v) == order.end()) order.push_back(v);
  return order;
}

// --verify-tables: a table checked whole (verify's quick check, see
// fano/verify.hpp) before it is served. The checksum the reader checks
// guards against damage, not against a table changed on purpose and its
// checksum computed again; a table that fails throws, named.
void check_table(const server::ServedTable& t) {
  verify::TablebaseOptions opts;
  opts.search_reachable = false;
  const verify::TablebaseReport r = verify::verify_tablebase(t.table, opts);
  if (const auto& f = r.first_error) {
    std::string what(verify::category_name(f->category));
    if (f->position) what += ": position " + *f->position;
    throw UsageError(
        "table " + t.path + " fails its check (" + what + ": " + f->problem + "); not served",
        kExitCheckFailed);
  }
  progress("serve: " + t.path + " checked (" + std::to_string(t.table.size()) + " classes, " +
           seconds_text(r.seconds) + ")");
}

// The tables found in `dir`, sized from their headers (nothing decoded):
// when they all fit `limit` bytes they are read now, in load order (and
// checked with --verify-tables); otherwise none is, and each is read when
// first asked for (BackgroundTables, which checks the bound before decoding).
// A table whose header is refused is an error: the server never hides a
// damaged file. The missing ones are solved in the background while the
// server answers.
std::vector<server::ServedTable> load_tables(const std::string& dir, std::size_t limit,
                                             bool verify) {
  std::vector<std::pair<Variant, std::string>> found;
  std::size_t total = 0;
  for (const Variant& v : load_order()) {
    const std::string path = default_tablebase_path(v, dir);
    try {
      total += server::held_bytes(read_tablebase_header(path, v).canonical);
      found.emplace_back(v, path);
    } catch (const TablebaseError& e) {
      if (e.kind() != TablebaseErrorKind::kMissing) throw;
    }
  }
  std::vector<server::ServedTable> out;
  if (limit && total > limit) {
    progress("serve: " + std::to_string(found.size()) + " tables in " + dir + " (" +
             std::to_string((total + (1 << 20) - 1) >> 20) + " MiB held) exceed --tables-mb (" +
             std::to_string(limit >> 20) + " MiB): each is read when first asked for");
    return out;
  }
  for (const auto& [v, path] : found) {
    out.push_back(server::ServedTable{open_tablebase(path, v), path});
    if (verify) check_table(out.back());
    progress("serve: " + variant_slug(v) + " from " + path);
  }
  return out;
}

}  // namespace

// Connections do not hold a worker: the workers compute answers.
constexpr ThreadsOption kServeThreads{
    0, 0, "worker threads computing answers (connections do not hold one)"};
// The default bound on the tables held (docs/api.md, "Limits"): the largest
// reading's table takes about 257 MiB, its solve about 971 MiB at its peak.
constexpr int kDefaultTablesMb = 1024;

int cmd_serve(const Args& args) {
  po::options_description desc("options");
  desc.add_options()("port", po::value<int>()->default_value(8330),
                     "TCP port (0: any free port, printed)")(
      "bind", po::value<std::string>()->default_value("127.0.0.1"),
      "address to listen on (0.0.0.0 for every interface)")(
      "tables", po::value<std::string>(), "folder of the tables (default: see 'fano info')");
  add_threads_option(desc, kServeThreads);
  desc.add_options()("cache-mb", po::value<int>()->default_value(64),
                     "memory for answers already given, in MiB (0: no cache)")(
      "expensive", po::value<int>()->default_value(2),
      "long analyses (a history of more than 8 moves, or a principal variation with one) "
      "computed at once; more are answered 503 with Retry-After (1..1024)")(
      "deadline-ms", po::value<int>()->default_value(2000),
      "milliseconds a long analysis may take before it is stopped and answered 503 with "
      "Retry-After (0: no deadline; 1..600000); it also stops when its client disconnects")(
      "read-timeout", po::value<int>()->default_value(5000),
      "milliseconds for a whole request (and the wait for the next one on a kept-alive "
      "connection) before the connection is closed (100..600000)")(
      "tables-mb", po::value<int>()->default_value(kDefaultTablesMb),
      "memory the tables held may take, in MiB (9 bytes a stored class; 0: no limit); a "
      "reading whose table would go past it, or whose solve would at its estimated peak, is "
      "not served (404 naming both figures), refused when first asked for, before it is read "
      "or solved (every reading's size is known from the rules); when the folder's tables do "
      "not all fit, each is read when first asked for")(
      "solve-threads", po::value<int>()->default_value(0),
      "threads of the background solves of missing tables, one table at a time (0: all "
      "cores; 0..1024)")(
      "web", po::value<std::string>(),
      "a folder to serve at / instead of the page embedded in the binary (which answers from "
      "this server's tables), e.g. build/web, the static explorer that solves in the browser "
      "(default: none)")(
      "verify-tables",
      "check every table loaded whole before serving (each value against its successors' by "
      "the rules, the header's counts), for tables from elsewhere: the checksum guards "
      "against damage, not against a change with its checksum made again; a table that "
      "fails is named and nothing is served");
  const auto vm =
      parse("serve",
            "[--port N] [--bind ADDR] [--tables DIR] [--threads N] [--cache-mb N] [--expensive N] "
            "[--deadline-ms MS] [--read-timeout MS] [--tables-mb N] [--solve-threads N] "
            "[--web DIR|none] [--verify-tables]",
            "Serves the solved game over HTTP until SIGINT or SIGTERM: the JSON API "
            "(/api documents it) and a browser explorer at /. Every reading of the rules is "
            "served: a table missing from the folder is solved in the background, one at a "
            "time (the named variants first, any other when first asked for; 503 with "
            "Retry-After and the progress meanwhile), and written there as 'fano solve' "
            "writes it.",
            desc, nullptr, args);
  if (!vm) return 0;
  const int port = (*vm)["port"].as<int>();
  if (port < 0 || port > 65535)
    throw UsageError("--port must be 0..65535, got " + std::to_string(port));
  const int threads = threads_from(*vm, kServeThreads);

  const int expensive = (*vm)["expensive"].as<int>();
  if (expensive < 1 || expensive > 1024)
    throw UsageError("--expensive must be 1..1024, got " + std::to_string(expensive));
  const int deadline = (*vm)["deadline-ms"].as<int>();
  if (deadline < 0 || deadline > 600000)
    throw UsageError("--deadline-ms must be 0..600000, got " + std::to_string(deadline));
  const int read_timeout = (*vm)["read-timeout"].as<int>();
  if (read_timeout < 100 || read_timeout > 600000)
    throw UsageError("--read-timeout must be 100..600000, got " + std::to_string(read_timeout));

  // Signals are taken by one thread (sigwait), never by a handler racing the server.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  const std::string dir =
      vm->count("tables") ? (*vm)["tables"].as<std::string>() : default_table_dir().path;
  // An explicit folder must exist (a typo would otherwise be served from
  // memory, its tables solved again at every start); the default one is made.
  if (std::error_code ec; vm->count("tables") && !std::filesystem::is_directory(dir, ec))
    throw UsageError("--tables " + dir + ": no such folder");
  const int cache_mb = (*vm)["cache-mb"].as<int>();
  if (cache_mb < 0 || cache_mb > 65536)
    throw UsageError("--cache-mb must be 0..65536, got " + std::to_string(cache_mb));
  const int tables_mb = (*vm)["tables-mb"].as<int>();
  if (tables_mb < 0 || tables_mb > 1048576)
    throw UsageError("--tables-mb must be 0..1048576, got " + std::to_string(tables_mb));
  const int solve_threads = (*vm)["solve-threads"].as<int>();
  if (solve_threads < 0 || solve_threads > 1024)
    throw UsageError("--solve-threads must be 0..1024, got " + std::to_string(solve_threads));
  const std::size_t limit = std::size_t(tables_mb) << 20;
  const bool verify = vm->count("verify-tables") > 0;
  std::vector<server::ServedTable> tables = load_tables(dir, limit, verify);
  server::Api api(std::move(tables), kVersion, std::size_t(cache_mb) << 20);
  server::BackgroundOptions background;
  background.dir = dir;
  background.create_dir = dir == default_table_dir().path;  // only the default folder is made
  background.threads = solve_threads;
  background.table_bytes_limit = limit;
  background.log = progress;
  // Every table read from the folder later is checked as those read now
  // (those the server solves itself need no check).
  if (verify) background.check = check_table;
  server::BackgroundTables solving(api, background);
  for (const Variant& v : kAllVariants) solving.enqueue(v);  // the named ones first
  server::ServerOptions options;
  options.bind = (*vm)["bind"].as<std::string>();
  options.port = port;
  options.threads = threads;
  options.expensive_limit = expensive;
  options.expensive_deadline = std::chrono::milliseconds(deadline);
  options.read_timeout = std::chrono::milliseconds(read_timeout);
  options.web_dir = vm->count("web") ? (*vm)["web"].as<std::string>() : "none";
  if (options.web_dir == "none") options.web_dir.clear();
  if (!options.web_dir.empty()) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(std::filesystem::path(options.web_dir) / "index.html",
                                          ec))
      throw UsageError("--web " + options.web_dir + ": no index.html there");
    progress("serve: the explorer from " + options.web_dir);
  }
  server::HttpServer http(api, options);
  int bound = 0;
  try {
    bound = http.start();
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what(), kExitCannotListen);
  }
  const std::string host =
      options.bind.find(':') != std::string::npos ? "[" + options.bind + "]" : options.bind;
  // Listening from here: the address is printed at once; a reading still
  // being read or solved is answered 503 with its progress meanwhile.
  std::cout << "http://" << host << ":" << bound << "/" << std::endl;

  // The first signal stops the server (answers in progress get the grace)
  // and the background solve (between two of its stages or rounds, its
  // temporary removed); a second ends the process at once, its temporaries
  // removed. `finished` tells the watcher the wake-up is the server's own.
  std::atomic<bool> finished{false};
  using Clock = std::chrono::steady_clock;
  std::atomic<Clock::rep> stopped_at{0};  // the first signal's time
  std::thread watcher([&] {
    for (int signals = 0;; ++signals) {
      int sig = 0;
      sigwait(&stop_signals, &sig);
      if (finished) return;
      const std::string name = sig == SIGINT ? "SIGINT" : "SIGTERM";
      if (signals > 0) {
        progress("serve: " + name + " again, ending now");
        remove_unfinished_temporaries();
        std::cout.flush();
        std::_Exit(128 + sig);
      }
      progress("serve: " + name + ", stopping");
      stopped_at = Clock::now().time_since_epoch().count();
      solving.stop();
      http.stop();
    }
  });
  http.run();
  // run() returned: by a signal (within the grace), or because the listening
  // socket failed. The background solve gets what is left of the grace.
  solving.stop();
  const Clock::time_point grace_end =
      (stopped_at ? Clock::time_point(Clock::duration(stopped_at.load())) : Clock::now()) +
      options.shutdown_grace;
  const bool solve_stopped = solving.wait_stopped(
      std::max(std::chrono::milliseconds(50),
               std::chrono::duration_cast<std::chrono::milliseconds>(grace_end - Clock::now())));
  finished = true;
  pthread_kill(watcher.native_handle(), SIGTERM);  // wakes the watcher, which returns
  watcher.join();
  const std::size_t left = http.unfinished();
  if (left || !solve_stopped) {
    // Analyses still computing after the grace (their clients are gone: the
    // connections are closed), or a solve step that has not reached its next
    // stop check: end now rather than wait for them (the tables are only
    // read; a solve's temporary is removed).
    if (left) progress("serve: " + std::to_string(left) + " answer(s) unfinished, dropped");
    if (!solve_stopped) progress("serve: the background solve did not stop in time, dropped");
    remove_unfinished_temporaries();
    std::cout.flush();
    std::cerr.flush();
    std::_Exit(0);
  }
  return 0;
}

}  // namespace fano::cli
