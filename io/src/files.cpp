#include "fano/files.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <utility>

namespace fano {
namespace {

namespace fs = std::filesystem;

// The cause of a failed call, as a user reads it.
std::string cause(int err) {
  switch (err) {
    case ELOOP:
      return "a loop of symbolic links";
    case EACCES:
    case EPERM:
      return "permission denied";
    case EROFS:
      return "read-only file system";
    case ENOSPC:
      return "no space left on device";
    case EDQUOT:
      return "disk quota exceeded";
    case ENAMETOOLONG:
      return "the name is too long";
    case ENOTDIR:
      return "a folder on its path is a file";
    default:
      return std::strerror(err);
  }
}

[[noreturn]] void fail(FileProblem problem, bool output, const std::string& name,
                       const std::string& why) {
  throw FileError(problem, output, name + ": " + why);
}

// "a character device", "a FIFO (named pipe)", ... for a special file.
std::string kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISSOCK(mode)) return "a socket";
  return "a special file";
}

std::string folder_of(const std::string& path) {
  const fs::path p(path);
  return p.has_parent_path() ? p.parent_path().string() : std::string(".");
}

// The file a write to `path` replaces: `path` with every symbolic link of its
// last component followed (a missing final target is fine: it is created).
std::string final_target(const std::string& path) {
  std::string p = path;
  for (int hops = 0;; ++hops) {
    struct stat st;
    if (::lstat(p.c_str(), &st) != 0) {
      if (errno == ENOENT) return p;  // a new file (its folder is checked next)
      fail(FileProblem::kIo, true, path, "cannot be written: " + cause(errno));
    }
    if (!S_ISLNK(st.st_mode)) return p;
    if (hops >= 40) fail(FileProblem::kIo, true, path, "cannot be written: " + cause(ELOOP));
    std::vector<char> buf(std::size_t(st.st_size > 0 ? st.st_size : PATH_MAX) + 1);
    const ssize_t n = ::readlink(p.c_str(), buf.data(), buf.size());
    if (n < 0) fail(FileProblem::kIo, true, path, "cannot be written: " + cause(errno));
    const fs::path link(std::string(buf.data(), std::size_t(n)));
    p = link.is_absolute() || !fs::path(p).has_parent_path()
            ? link.string()
            : (fs::path(p).parent_path() / link).string();
  }
}

// The temporaries of running writers, removed by the SIGINT/SIGTERM handler.
// A slot is 0 free, 1 being filled, 2 holding a path.
constexpr int kSlots = 32;
struct Slot {
  std::atomic<int> state{0};
  char path[PATH_MAX]{};
};
// constinit: zero pages in .bss, not a constructor at start-up that wrote
// each slot's state and so faulted in 32 pages (128 KiB) in every command.
constinit Slot g_slots[kSlots];

void unlink_temporaries() {
  for (Slot& s : g_slots)
    if (s.state.load() == 2) ::unlink(s.path);
}

extern "C" void remove_temporaries_and_die(int sig) {
  unlink_temporaries();
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

// Installs the handler for the signals that still have their default action
// (a program's own handler, or an ignored signal, is left alone).
void install_signal_handlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int sig : {SIGINT, SIGTERM}) {
      struct sigaction old {};
      if (::sigaction(sig, nullptr, &old) != 0) continue;
      if ((old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL) continue;
      struct sigaction sa {};
      sa.sa_handler = remove_temporaries_and_die;
      sigemptyset(&sa.sa_mask);
      ::sigaction(sig, &sa, nullptr);
    }
  });
}

int claim_slot(const std::string& path) {
  if (path.size() >= PATH_MAX) return -1;
  for (int i = 0; i < kSlots; ++i) {
    int expected = 0;
    if (!g_slots[i].state.compare_exchange_strong(expected, 1)) continue;
    std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
    g_slots[i].state.store(2);
    return i;
  }
  return -1;  // no room: a killed writer's temporary is still removed by the next writer
}

void release_slot(int slot) {
  if (slot >= 0) g_slots[slot].state.store(0);
}

bool same_file(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

// Whether `name` is "<base>.tmp.<digits>" or "<base>.tmp.<digits>.<digits>".
bool is_temporary_of(const std::string& name, const std::string& base) {
  const std::string prefix = base + ".tmp.";
  if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) return false;
  int dots = 0;
  bool digit = false;
  for (std::size_t i = prefix.size(); i < name.size(); ++i) {
    if (name[i] == '.') {
      if (!digit || ++dots > 1) return false;
      digit = false;
    } else if (name[i] >= '0' && name[i] <= '9') {
      digit = true;
    } else {
      return false;
    }
  }
  return digit;
}

// Removes the temporaries of `target` whose lock can be taken: their writers
// are gone (a live writer holds its lock until its rename), whatever PID
// namespace they ran in. Errors are ignored: this is housekeeping.
void remove_stale_temporaries(const std::string& target) {
  const std::string dir = folder_of(target), base = fs::path(target).filename().string();
  DIR* d = ::opendir(dir.c_str());
  if (!d) return;
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (!is_temporary_of(name, base)) continue;
    const std::string path = (fs::path(dir) / name).string();
    const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) continue;
    struct stat held, now;
    if (::fstat(fd, &held) == 0 && S_ISREG(held.st_mode) && ::flock(fd, LOCK_EX | LOCK_NB) == 0 &&
        ::lstat(path.c_str(), &now) == 0 && same_file(held, now))
      ::unlink(path.c_str());
    ::close(fd);
  }
  ::closedir(d);
}

void write_all(int fd, const std::uint8_t* p, std::size_t size, const std::string& name) {
  while (size > 0) {
    const ssize_t n = ::write(fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail(FileProblem::kIo, true, name, "write failed: " + cause(n < 0 ? errno : EIO));
    p += n;
    size -= std::size_t(n);
  }
}

// Opens `path` for reading, or throws FileError naming the cause. A FIFO is
// opened at once (a check before a long step must not hang); with
// wait_for_writer it is then opened again blocking, which returns when a
// writer has opened it: read before that, it would look empty.
int open_for_reading(const std::string& path, bool regular_only, bool wait_for_writer = false) {
  if (path.empty()) fail(FileProblem::kMissing, false, "''", "no file name given");
  // O_NONBLOCK: opening a FIFO does not wait for a writer (cleared below).
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    struct stat link;
    if (err == ENOENT && ::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode))
      fail(FileProblem::kMissing, false, path, "is a symbolic link to a file that does not exist");
    if (err == ENOENT) fail(FileProblem::kMissing, false, path, "no such file");
    fail(FileProblem::kIo, false, path, "cannot be read: " + cause(err));
  }
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    fail(FileProblem::kIo, false, path, "cannot be read: " + cause(err));
  }
  if (S_ISDIR(st.st_mode) || (regular_only && !S_ISREG(st.st_mode))) {
    ::close(fd);
    fail(FileProblem::kNotAFile, false, path, "is " + kind_of(st.st_mode) + ", not a file");
  }
  if (wait_for_writer && S_ISFIFO(st.st_mode)) {
    int blocking;
    do blocking = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    while (blocking < 0 && errno == EINTR);
    const int err = errno;
    struct stat again;
    // The name may have been replaced meanwhile: read only the FIFO checked above.
    const bool same = blocking >= 0 && ::fstat(blocking, &again) == 0 &&
                      again.st_dev == st.st_dev && again.st_ino == st.st_ino;
    ::close(fd);
    if (!same) {
      if (blocking >= 0) ::close(blocking);
      fail(FileProblem::kIo, false, path,
           "cannot be read: " + (blocking < 0 ? cause(err) : std::string("replaced while opened")));
    }
    return blocking;
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}

}  // namespace

AtomicFileWriter::AtomicFileWriter(std::string path) : path_(std::move(path)) {
  if (path_.empty()) fail(FileProblem::kMissing, true, "''", "no file name given");
  target_ = final_target(path_);
  // Messages name the destination as given, and the file it leads to.
  const std::string name = target_ == path_ ? path_ : path_ + " (a link to " + target_ + ")";
  struct stat st;
  const bool exists = ::stat(target_.c_str(), &st) == 0;
  if (exists && !S_ISREG(st.st_mode))
    fail(FileProblem::kNotAFile, true, name,
         "is " + kind_of(st.st_mode) + ", not a regular file: not replaced");
  const std::string dir = folder_of(target_);
  struct stat ds;
  if (::stat(dir.c_str(), &ds) != 0) {
    if (errno == ENOENT)
      fail(FileProblem::kMissing, true, name, "cannot be written: no folder " + dir);
    fail(FileProblem::kIo, true, name, "cannot be written: folder " + dir + ": " + cause(errno));
  }
  if (!S_ISDIR(ds.st_mode))
    fail(FileProblem::kMissing, true, name, "cannot be written: " + dir + " is not a folder");
  remove_stale_temporaries(target_);
  install_signal_handlers();
  const std::string stem = target_ + ".tmp." + std::to_string(::getpid());
  for (int n = 0; fd_ < 0; ++n) {
    if (n == 1000) fail(FileProblem::kIo, true, name, "cannot be written: no free temporary name");
    tmp_ = n == 0 ? stem : stem + "." + std::to_string(n);
    const int fd = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
      if (errno == EEXIST) continue;  // another writer's (another PID namespace's)
      fail(FileProblem::kIo, true, name, "cannot be written: " + cause(errno));
    }
    // Locked, and still ours: a cleaner may have taken it between open and flock.
    struct stat held, now;
    if (::flock(fd, LOCK_EX) != 0 || ::fstat(fd, &held) != 0 || ::lstat(tmp_.c_str(), &now) != 0 ||
        !same_file(held, now)) {
      ::close(fd);
      continue;
    }
    fd_ = fd;
  }
  if (exists) (void)::fchmod(fd_, st.st_mode & 07777);
  slot_ = claim_slot(tmp_);
}

AtomicFileWriter::~AtomicFileWriter() {
  if (fd_ < 0) return;
  ::unlink(tmp_.c_str());
  release_slot(slot_);
  ::close(fd_);
}

void AtomicFileWriter::write(std::span<const std::uint8_t> bytes) {
  if (fd_ < 0) throw std::logic_error("AtomicFileWriter: write after commit");
  try {
    write_all(fd_, bytes.data(), bytes.size(), path_);
  } catch (const FileError& e) {
    // "path: write failed: no space left on device": the destination, not the temporary.
    throw FileError(e.problem(), true, std::string(e.what()));
  }
}

void AtomicFileWriter::commit() {
  if (fd_ < 0) throw std::logic_error("AtomicFileWriter: committed twice");
  // The lock is held through the rename, so no cleaner takes the temporary.
  const int fd = fd_;
  fd_ = -1;
  auto give_up = [&](const std::string& what) {
    const std::string why = cause(errno);
    ::unlink(tmp_.c_str());
    release_slot(slot_);
    ::close(fd);
    fail(FileProblem::kIo, true, path_, what + ": " + why);
  };
  if (::fsync(fd) != 0) give_up("write failed");
  if (::rename(tmp_.c_str(), target_.c_str()) != 0) give_up("cannot be replaced");
  release_slot(slot_);
  ::close(fd);
  // The rename itself made durable; a folder that cannot be synced is no error.
  const int dir = ::open(folder_of(target_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    (void)::fsync(dir);
    ::close(dir);
  }
}

void write_output(const std::string& path, std::span<const std::uint8_t> bytes) {
  if (path == "-") return write_stdout(bytes);
  AtomicFileWriter out(path);
  out.write(bytes);
  out.commit();
}

void write_output(const std::string& path, std::string_view text) {
  write_output(path, std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

void write_stdout(std::span<const std::uint8_t> bytes) {
  std::cout.flush();
  write_all(1, bytes.data(), bytes.size(), "standard output");
}

void write_stdout(std::string_view text) {
  write_stdout(std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

void finish_stdout() {
  // std::cout writes through stdout's buffer: its flush is the failing write.
  errno = 0;
  std::cout.flush();
  int err = errno;
  if (std::fflush(stdout) != 0 && !err) err = errno;
  if (!std::cout.bad() && !std::ferror(stdout)) return;
  // A write that failed earlier (a full buffer) may have left errno long since overwritten.
  fail(FileProblem::kIo, true, "standard output",
       "write failed: " + (err ? cause(err) : std::string("part of the output was lost")));
}

void check_output_is_not_input(const std::string& output, const std::string& option,
                               const std::string& input, const std::string& what) {
  if (output == "-") return;
  struct stat out, in;
  if (::stat(output.c_str(), &out) != 0 || ::stat(input.c_str(), &in) != 0) return;
  if (out.st_dev == in.st_dev && out.st_ino == in.st_ino)
    fail(FileProblem::kIsInput, true, output,
         "is " + what + " read by this command (" + input + "): not replaced; give " + option +
             " another file");
}

void create_folders(const std::string& path) {
  if (path.empty()) return;
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) {
    if (!S_ISDIR(st.st_mode))
      fail(FileProblem::kNotAFile, true, path, "cannot create the folder: a file is in the way");
    return;
  }
  const fs::path p = fs::path(path).lexically_normal();
  if (p.has_parent_path() && p.parent_path() != p) create_folders(p.parent_path().string());
  if (::mkdir(path.c_str(), 0755) != 0 && errno != EEXIST)
    fail(FileProblem::kIo, true, path, "cannot create the folder: " + cause(errno));
}

void check_readable_file(const std::string& path, bool regular_only) {
  ::close(open_for_reading(path, regular_only));
}

LineReader::LineReader(const std::string& path)
    : owned_(path != "-"), name_(path == "-" ? "standard input" : path), buf_(kMaxLineBytes) {
  fd_ = owned_ ? open_for_reading(path, false, true) : 0;
  if (!owned_) {
    struct stat st;
    if (::fstat(0, &st) == 0 && S_ISDIR(st.st_mode))
      fail(FileProblem::kNotAFile, false, name_, "is a directory, not a file");
  }
}

LineReader::~LineReader() {
  if (owned_ && fd_ >= 0) ::close(fd_);
}

bool LineReader::next(std::string& line) {
  line.clear();
  auto too_long = [&] {
    fail(FileProblem::kTooLong, false, name_,
         "line " + std::to_string(line_ + 1) + " is longer than " + std::to_string(kMaxLineBytes) +
             " bytes");
  };
  for (;;) {
    const char* start = buf_.data() + begin_;
    if (const void* nl = std::memchr(start, '\n', end_ - begin_)) {
      const std::size_t n = std::size_t(static_cast<const char*>(nl) - start);
      if (line.size() + n > kMaxLineBytes) too_long();
      line.append(start, n);
      begin_ += n + 1;
      ++line_;
      return true;
    }
    if (line.size() + (end_ - begin_) > kMaxLineBytes) too_long();
    line.append(start, end_ - begin_);
    begin_ = end_ = 0;
    if (eof_) {
      if (line.empty()) return false;
      ++line_;
      return true;
    }
    ssize_t n;
    do n = ::read(fd_, buf_.data(), buf_.size());
    while (n < 0 && errno == EINTR);
    if (n < 0) fail(FileProblem::kIo, false, name_, "cannot be read: " + cause(errno));
    end_ = std::size_t(n);
    eof_ = n == 0;
  }
}

std::string read_text_lines(const std::string& path) {
  LineReader in(path);
  std::string text, line;
  while (in.next(line)) text.append(line).push_back('\n');
  return text;
}

void remove_unfinished_temporaries() { unlink_temporaries(); }

}  // namespace fano
