// The tables `fano serve` loads and makes while it serves: a reading's table
// is read from the tables folder when first asked for (its header first, so
// that the memory bound is checked before it is decoded), and a reading
// whose table is missing is solved in the background, one solve at a time
// (the named variants first, at start; any other reading when it is first
// asked for), written as `fano solve` writes it (a temporary beside the
// file, renamed over it whole), read back and handed to the Api. A request
// for it meanwhile is answered 503 with Retry-After and the progress
// (Api::set_pending).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>

#include "fano/api.hpp"

namespace fano::server {

struct BackgroundOptions {
  std::string dir;          // the tables folder
  bool create_dir = false;  // made when missing (the default folder only)
  int threads = 0;          // the solver's threads (0: all cores)
  // The most memory the tables held may take, in bytes (9 a stored class;
  // 0: no limit). A reading whose table would take the tables held past it,
  // or (when it must be solved) whose solve's estimated peak alone is past
  // it, is refused when asked for, before anything is read or solved (its
  // size is known from the rules: known_classes): answered 404 naming the
  // figures and the bound. A table file is sized from its header before it
  // is decoded; a table solved anyway (a size the rules did not give) is
  // written but not held.
  std::size_t table_bytes_limit = 0;
  int retry_after_seconds = 1;  // for the 503 answers
  // The queue of solves and loads: at most `max_queued` readings, at most
  // `max_queued_per_client` of them asked by one client; a request past
  // either is answered 503 (state "busy") and not queued.
  std::size_t max_queued = 8;
  std::size_t max_queued_per_client = 2;
  // A failed solve (out of memory, a full disk) is tried again when asked
  // for after this long, doubled at each failure up to `retry_failed_max`.
  std::chrono::seconds retry_failed_after{5};
  std::chrono::seconds retry_failed_max{300};
  // --verify-tables: every table read from the folder goes through it
  // before it is held (throwing std::exception naming why refuses it).
  std::function<void(const ServedTable&)> check{};
  std::function<void(const std::string&)> log{};  // a line of progress (stderr)
};

// The bytes a held table takes, as the limit counts them.
std::size_t held_bytes(const Tablebase& table);
std::size_t held_bytes(std::uint64_t classes);

// A reading's stored classes, known from the rules without solving it (the
// table of every reading compiled in, server/src/table_sizes.cpp), or
// nullopt for a reading it does not list.
std::optional<std::uint64_t> known_classes(const Variant& v);
// The estimated peak resident memory of a reading's solve (the solver's
// measured bytes a class at its size, results/solve-memory-peaks.md: 34
// from 16 M classes, 54 from 1 M, 72 below); the server's own memory beside.
std::size_t solve_peak_bytes(std::uint64_t classes);

class BackgroundTables {
 public:
  // Starts the solving thread and becomes `api`'s pending tables: `api` must
  // outlive this object. Throws std::system_error when the thread cannot start.
  BackgroundTables(Api& api, BackgroundOptions options);
  // stop(), then waits for the solving thread.
  ~BackgroundTables();
  BackgroundTables(const BackgroundTables&) = delete;
  BackgroundTables& operator=(const BackgroundTables&) = delete;

  // Queues a reading's table behind those queued (nothing if it is held,
  // queued, being made, refused, or failed and not yet due again), for
  // `client` ("": the server itself, outside the per-client bound).
  void enqueue(const Variant& v, const std::string& client = "");
  // A request for a reading with no table: queues it, and says how far it is.
  std::optional<TableProgress> request(const Variant& v, const std::string& client = "");
  // Blocks until nothing is queued or being made (for tests and start-up
  // reports); false if `timeout` passed first.
  bool wait_idle(std::chrono::milliseconds timeout);
  // Empties the queue and stops the solve in progress between two of its
  // stages or rounds (its temporary file removed); thread-safe, idempotent.
  void stop();
  // After stop(): waits up to `timeout` for the solving thread to finish.
  bool wait_stopped(std::chrono::milliseconds timeout);

 private:
  struct Queued {
    Variant variant;
    std::string client;
  };
  struct Failure {
    std::string why;
    int attempts = 0;
    std::chrono::steady_clock::time_point retry_at;
  };
  void run();
  void make(const Variant& v);
  void say(const std::string& line) const {
    if (options_.log) options_.log(line);
  }
  // Under mutex_: why a table of `classes` classes is not served under the
  // bound (beside the tables held; `to_solve`: its solve's peak too), or "".
  std::string over_bound(std::uint64_t classes, bool to_solve) const;
  std::optional<TableProgress> busy_for(const std::string& client) const;  // under mutex_

  Api& api_;
  BackgroundOptions options_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Queued> queue_;
  std::optional<Variant> solving_;
  std::string stage_;  // the solver's last progress line
  std::chrono::steady_clock::time_point started_;
  std::map<std::string, std::string> refused_;  // slug -> why (never tried again)
  std::map<std::string, Failure> failed_;       // slug -> the last failure
  std::size_t held_ = 0;                        // bytes of the tables held
  bool stop_ = false;
  bool finished_ = false;  // the solving thread has returned
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace fano::server
