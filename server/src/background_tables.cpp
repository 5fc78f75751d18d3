#include "fano/background_tables.hpp"

#include <algorithm>
#include <exception>

#include "fano/buffer.hpp"
#include "fano/solver.hpp"
#include "fano/table_files.hpp"

namespace fano::server {

std::size_t held_bytes(const Tablebase& table) {
  return table.size() * (sizeof(std::uint64_t) + sizeof(std::uint8_t));
}

BackgroundTables::BackgroundTables(Api& api, BackgroundOptions options)
    : api_(api), options_(std::move(options)) {
  for (const auto& t : api_.tables()) held_ += held_bytes(t->table);
  api_.set_pending([this](const Variant& v) { return request(v); });
  thread_ = std::thread([this] { run(); });
}

BackgroundTables::~BackgroundTables() {
  {
    const std::lock_guard lock(mutex_);
    stop_ = true;
    queue_.clear();
  }
  wake_.notify_all();
  thread_.join();
  // Requests answered after this one see no pending tables: 404.
  api_.set_pending({});
}

void BackgroundTables::enqueue(const Variant& v) {
  {
    const std::lock_guard lock(mutex_);
    if (refused_.count(variant_slug(v)) || solving_ == v ||
        std::find(queue_.begin(), queue_.end(), v) != queue_.end())
      return;
    for (const auto& t : api_.tables())
      if (t->table.variant() == v) return;
    queue_.push_back(v);
  }
  wake_.notify_all();
}

std::optional<TableProgress> BackgroundTables::request(const Variant& v) {
  enqueue(v);
  const std::lock_guard lock(mutex_);
  TableProgress p;
  p.retry_after = options_.retry_after_seconds;
  if (const auto it = refused_.find(variant_slug(v)); it != refused_.end()) {
    p.state = it->second.first ? "failed" : "refused";
    p.stage = it->second.second;
    return p;
  }
  if (solving_ == v) {
    p.state = "solving";
    p.stage = stage_;
    p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    return p;
  }
  const auto at = std::find(queue_.begin(), queue_.end(), v);
  if (at == queue_.end()) {
    // Held since (the request raced the hand-over): asked again, it is answered.
    p.state = "solving";
    p.stage = "done";
    return p;
  }
  p.state = "queued";
  p.ahead = std::size_t(at - queue_.begin()) + (solving_ ? 1 : 0);
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
      if (stop_) return;
      v = queue_.front();
      queue_.pop_front();
      solving_ = v;
      stage_.clear();
      started_ = std::chrono::steady_clock::now();
    }
    std::string failure;
    try {
      make(v);
    } catch (const std::exception& e) {
      failure = e.what();
    }
    {
      const std::lock_guard lock(mutex_);
      if (!failure.empty()) refused_[variant_slug(v)] = {true, failure};
      solving_.reset();
    }
    if (!failure.empty())
      say("serve: cannot make the table of " + variant_slug(v) + ": " + failure);
    wake_.notify_all();
  }
}

// One reading's table: the file if another server (or a `fano solve`) has
// written it meanwhile, else solved and written as `fano solve` writes it;
// held if it fits the limit.
void BackgroundTables::make(const Variant& v) {
  const std::string path = default_tablebase_path(v, options_.dir);
  const std::string slug = variant_slug(v);
  std::optional<ServedTable> made;
  try {
    made = ServedTable{open_tablebase(path, v), path};
    say("serve: " + slug + " from " + path);
  } catch (const TablebaseError& e) {
    if (e.kind() != ErrorKind::kMissing) throw;  // a damaged file is never replaced unseen
  }
  if (!made) {
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
    std::vector<std::uint8_t> bytes = encode_solution(solve(v, opts), options_.threads);
    release_free_buffer_pages();  // the solve's pages, kept for another solve otherwise
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
  const std::size_t bytes = held_bytes(made->table);
  {
    const std::lock_guard lock(mutex_);
    if (options_.table_bytes_limit && held_ + bytes > options_.table_bytes_limit) {
      const std::string why = "its table (" + std::to_string((bytes + (1 << 20) - 1) >> 20) +
                              " MiB) would take the tables held past this server's limit (" +
                              std::to_string(options_.table_bytes_limit >> 20) + " MiB)";
      refused_[slug] = {false, why};
      say("serve: " + slug + " is not held: " + why);
      return;
    }
    held_ += bytes;
  }
  api_.add_table(std::move(*made));
}

}  // namespace fano::server
