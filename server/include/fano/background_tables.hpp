// The tables `fano serve` makes while it serves: a reading whose table is
// missing from the tables folder is solved in the background, one solve at a
// time (the named variants first, at start; any other reading when it is
// first asked for), written as `fano solve` writes it (a temporary beside
// the file, renamed over it whole), read back and handed to the Api. A
// request for it meanwhile is answered 503 with Retry-After and the solve's
// progress (Api::set_pending).
#pragma once

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
  // 0: no limit). A table that would go over it is written but not held:
  // its reading is then answered 404, naming the limit.
  std::size_t table_bytes_limit = 0;
  int retry_after_seconds = 1;                    // for the 503 answers
  std::function<void(const std::string&)> log{};  // a line of progress (stderr)
};

// The bytes a held table takes, as the limit counts them.
std::size_t held_bytes(const Tablebase& table);

class BackgroundTables {
 public:
  // Starts the solving thread and becomes `api`'s pending tables: `api` must
  // outlive this object.
  BackgroundTables(Api& api, BackgroundOptions options);
  // Waits for the solve in progress (a solve cannot be interrupted), then stops.
  ~BackgroundTables();
  BackgroundTables(const BackgroundTables&) = delete;
  BackgroundTables& operator=(const BackgroundTables&) = delete;

  // Queues a reading's solve behind those queued (nothing if it is held,
  // queued, being solved, or refused before).
  void enqueue(const Variant& v);
  // A request for a reading with no table: queues it, and says how far it is
  // ("failed" or "refused" with why: it will not come).
  std::optional<TableProgress> request(const Variant& v);
  // Blocks until nothing is queued or being solved (for tests and start-up
  // reports); false if `timeout` passed first.
  bool wait_idle(std::chrono::milliseconds timeout);

 private:
  void run();
  void make(const Variant& v);
  void say(const std::string& line) const {
    if (options_.log) options_.log(line);
  }

  Api& api_;
  BackgroundOptions options_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Variant> queue_;
  std::optional<Variant> solving_;
  std::string stage_;  // the solver's last progress line
  std::chrono::steady_clock::time_point started_;
  // slug -> (a failure, else over the limit; why): never tried again
  std::map<std::string, std::pair<bool, std::string>> refused_;
  std::size_t held_ = 0;  // bytes of the tables held
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace fano::server
