#include "fano/background_tables.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <filesystem>
#include <stdexcept>

#include "fano/buffer.hpp"
#include "fano/solver.hpp"
#include "fano/table_files.hpp"

namespace fano::server {
namespace {

// Thrown from the solver's stop check: the server is stopping.
struct SolveStopped : std::runtime_error {
  SolveStopped() : std::runtime_error("the server is stopping") {}
};

std::string mib_text(std::size_t bytes) { return std::to_string((bytes + (1 << 20) - 1) >> 20); }

// 29923432 as "29,923,432".
std::string grouped(std::uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

}  // namespace

std::size_t solve_peak_bytes(std::uint64_t classes) {
  const std::uint64_t per_class = classes >= (16u << 20) ? 34 : classes >= (1u << 20) ? 54 : 72;
  return std::size_t(classes * per_class);
}

std::string BackgroundTables::over_bound(std::uint64_t classes, bool to_solve) const {
  const std::size_t limit = options_.table_bytes_limit;
  if (!limit) return "";
  const std::size_t table = held_bytes(classes), peak = solve_peak_bytes(classes);
  const bool table_fits = held_ + table <= limit, peak_fits = !to_solve || peak <= limit;
  if (table_fits && peak_fits) return "";
  return "its table takes " + mib_text(table) + " MiB (" + grouped(classes) + " classes" +
         (to_solve ? ", its solve about " + mib_text(peak) + " MiB at its peak" : "") +
         "), past this server's memory bound of " + mib_text(limit) + " MiB (--tables-mb; " +
         mib_text(held_) + " MiB of tables held now)";
}

std::size_t held_bytes(std::uint64_t classes) {
  return std::size_t(classes) * (sizeof(std::uint64_t) + sizeof(std::uint8_t));
}

std::size_t held_bytes(const Tablebase& table) { return held_bytes(table.size()); }

BackgroundTables::BackgroundTables(Api& api, BackgroundOptions options)
    : api_(api), options_(std::move(options)) {
  for (const auto& t : api_.tables()) held_ += held_bytes(t->table);
  thread_ = std::thread([this] { run(); });
  api_.set_pending(
      [this](const Variant& v, const std::string& client) { return request(v, client); });
}

BackgroundTables::~BackgroundTables() {
  stop();
  thread_.join();
  // Requests answered after this one see no pending tables: 404.
  api_.set_pending({});
}

void BackgroundTables::stop() {
  {
    const std::lock_guard lock(mutex_);
    stop_ = true;
    stopping_ = true;
    queue_.clear();
  }
  wake_.notify_all();
}

bool BackgroundTables::wait_stopped(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  return wake_.wait_for(lock, timeout, [&] { return finished_; });
}

void BackgroundTables::enqueue(const Variant& v, const std::string& client) {
  (void)request(v, client);
}

std::optional<TableProgress> BackgroundTables::busy_for(const std::string& client) const {
  TableProgress p;
  p.state = "busy";
  p.retry_after = options_.retry_after_seconds;
  p.ahead = queue_.size() + (solving_ ? 1 : 0);
  if (queue_.size() >= options_.max_queued) {
    p.stage = "the queue of tables to make is full (" + std::to_string(options_.max_queued) + ")";
    return p;
  }
  const auto mine = std::count_if(queue_.begin(), queue_.end(),
                                  [&](const Queued& q) { return q.client == client; });
  if (!client.empty() && std::size_t(mine) >= options_.max_queued_per_client) {
    p.stage = "this client has " + std::to_string(mine) + " tables queued already (at most " +
              std::to_string(options_.max_queued_per_client) + ")";
    return p;
  }
  return std::nullopt;
}

std::optional<TableProgress> BackgroundTables::request(const Variant& v,
                                                       const std::string& client) {
  TableProgress p;
  p.retry_after = options_.retry_after_seconds;
  const std::string slug = variant_slug(v);
  // Its size, known from the rules: checked against the bound before the
  // reading is queued (its file, if any, would be sized by its header).
  const std::optional<std::uint64_t> classes = known_classes(v);
  std::error_code ec;
  const bool to_solve = classes && options_.table_bytes_limit &&
                        !std::filesystem::exists(default_tablebase_path(v, options_.dir), ec);
  std::string refusal;
  {
    const std::lock_guard lock(mutex_);
    if (const auto it = refused_.find(slug); it != refused_.end()) {
      p.state = "refused";
      p.stage = it->second;
      return p;
    }
    if (solving_ == v) {
      p.state = "solving";
      p.stage = stage_;
      p.seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
      return p;
    }
    const auto at =
        std::find_if(queue_.begin(), queue_.end(), [&](const Queued& q) { return q.variant == v; });
    if (at != queue_.end()) {
      p.state = "queued";
      p.ahead = std::size_t(at - queue_.begin()) + (solving_ ? 1 : 0);
      return p;
    }
    if (const auto it = failed_.find(slug); it != failed_.end()) {
      const auto now = std::chrono::steady_clock::now();
      if (now < it->second.retry_at) {
        p.state = "failed";
        p.stage = it->second.why;
        p.retry_after = std::max(
            1, int(std::ceil(std::chrono::duration<double>(it->second.retry_at - now).count())));
        return p;
      }
    }
    for (const auto& t : api_.tables())
      if (t->table.variant() == v) {
        // Held since (the request raced the hand-over): asked again, it is answered.
        p.state = "solving";
        p.stage = "done";
        return p;
      }
    if (stop_) return std::nullopt;  // stopping: 404 as with no pending tables
    if (classes) refusal = over_bound(*classes, to_solve);
    if (!refusal.empty()) {
      refused_[slug] = refusal;
      p.state = "refused";
      p.stage = refusal;
    } else {
      if (const std::optional<TableProgress> busy = busy_for(client)) return busy;
      queue_.push_back({v, client});
      p.state = "queued";
      p.ahead = queue_.size() - 1 + (solving_ ? 1 : 0);
    }
  }
  if (!refusal.empty()) {
    say("serve: " + slug + " is not served: " + refusal);
    return p;
  }
  wake_.notify_all();
  return p;
}

bool BackgroundTables::wait_idle(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  return wake_.wait_for(lock, timeout, [&] { return queue_.empty() && !solving_; });
}

void BackgroundTables::run() {
  while (true) {
    Variant v;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || !queue_.empty(); });
      if (stop_) break;
      v = queue_.front().variant;
      queue_.pop_front();
      solving_ = v;
      stage_.clear();
      started_ = std::chrono::steady_clock::now();
    }
    const std::string slug = variant_slug(v);
    std::string failure;
    bool stopped = false;
    try {
      make(v);
    } catch (const SolveStopped&) {
      stopped = true;
    } catch (const std::bad_alloc&) {
      failure = "out of memory";
    } catch (const std::exception& e) {
      failure = e.what();
    }
    release_free_buffer_pages();  // a failed or stopped solve's pages too
    std::chrono::seconds wait{0};
    {
      const std::lock_guard lock(mutex_);
      if (!failure.empty()) {
        // Tried again when asked for after the back-off: the cause may pass.
        Failure& f = failed_[slug];
        wait = std::min<std::chrono::seconds>(
            options_.retry_failed_max,
            options_.retry_failed_after * (std::int64_t(1) << std::min(f.attempts, 20)));
        f.why = failure;
        ++f.attempts;
        f.retry_at = std::chrono::steady_clock::now() + wait;
      } else if (!stopped) {
        failed_.erase(slug);
      }
      solving_.reset();
    }
    if (stopped) say("serve: the solve of " + slug + " stopped; its temporary file removed");
    if (!failure.empty())
      say("serve: cannot make the table of " + slug + ": " + failure + " (tried again in " +
          std::to_string(wait.count()) + " s, when asked for)");
    wake_.notify_all();
  }
  {
    const std::lock_guard lock(mutex_);
    finished_ = true;
  }
  wake_.notify_all();
}

// One reading's table: the file if there is one (another server or a `fano
// solve` may have written it meanwhile), its header read first so that the
// bound is checked before it is decoded, and checked if the operator asked
// (--verify-tables); else solved and written as `fano solve` writes it.
// Held if it fits the bound.
void BackgroundTables::make(const Variant& v) {
  const std::string path = default_tablebase_path(v, options_.dir);
  const std::string slug = variant_slug(v);
  const auto refuse = [&](const std::string& why) {
    {
      const std::lock_guard lock(mutex_);
      refused_[slug] = why;
    }
    say("serve: " + slug + " is not served: " + why);
  };
  const auto over = [&](std::uint64_t classes, bool to_solve) {
    const std::lock_guard lock(mutex_);
    return over_bound(classes, to_solve);
  };
  std::optional<TablebaseHeader> header;
  try {
    header = read_tablebase_header(path, v);
  } catch (const TablebaseError& e) {
    if (e.kind() != ErrorKind::kMissing) throw;  // a damaged file is never replaced unseen
  }
  std::optional<ServedTable> made;
  if (header) {
    if (const std::string why = over(header->canonical, false); !why.empty()) return refuse(why);
    made = ServedTable{open_tablebase(path, v), path};
    if (options_.check) {
      try {
        options_.check(*made);
      } catch (const std::exception& e) {
        return refuse(e.what());
      }
    }
    say("serve: " + slug + " from " + path);
  } else {
    // Tables held since it was queued may leave no room for it now.
    if (const std::optional<std::uint64_t> classes = known_classes(v))
      if (const std::string why = over(*classes, true); !why.empty()) return refuse(why);
    say("serve: no table for " + slug + " at " + path + "; solving it in the background");
    std::optional<TableFileWriter> file;
    try {
      if (options_.create_dir) create_table_dir(options_.dir);
      file.emplace(path);  // its temporary, before the solve
    } catch (const TablebaseError& e) {
      say(std::string("serve: cannot write the table (") + e.what() + "); serving it from memory");
    }
    SolveOptions opts;
    opts.threads = options_.threads;
    opts.encode_sections = true;
    opts.progress = [this](const std::string& line) {
      const std::lock_guard lock(mutex_);
      stage_ = line;
    };
    opts.check_stop = [this] {
      if (stopping_) throw SolveStopped{};
    };
    std::vector<std::uint8_t> bytes = encode_solution(solve(v, opts), options_.threads);
    release_free_buffer_pages();  // the solve's pages, kept for another solve otherwise
    if (stopping_) throw SolveStopped{};
    bool written = false;
    if (file) {
      try {
        file->write_and_commit(bytes);
        written = true;
      } catch (const TablebaseError& e) {
        say(std::string("serve: cannot write the table (") + e.what() +
            "); serving it from memory");
      }
    }
    if (written) {
      made = ServedTable{open_tablebase(path, v), path};
      say("serve: " + slug + " solved and written to " + path);
    } else {
      made =
          ServedTable{Tablebase::from_bytes(bytes, "(solved in memory)", v), "(solved in memory)"};
    }
  }
  {
    const std::lock_guard lock(mutex_);
    if (const std::string why = over_bound(made->table.size(), false); !why.empty()) {
      refused_[slug] = why;
      say("serve: " + slug + " is not held: " + why);
      return;
    }
    held_ += held_bytes(made->table);
  }
  api_.add_table(std::move(*made));
}

}  // namespace fano::server
