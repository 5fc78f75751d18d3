// Files, inputs and messages: the atomic writer over
// special files, symbolic links, missing folders, read-only and full file
// systems; stale temporaries under flock and removal on SIGINT/SIGTERM;
// concurrent writers; bounded line reading; and the messages' text.
#include <grp.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/sysmacros.h>
#include <sys/un.h>

#include <thread>

#include "fano/analysis.hpp"
#include "fano/files.hpp"
#include "fano/table_files.hpp"
#include "support.hpp"

namespace fano {
namespace {

using namespace fano::testing;
using Bytes = std::vector<std::uint8_t>;

const std::string kEmpty = "-/-/-/-/-/-/- w";

// The files of a folder whose name starts with `prefix` (temporaries left behind).
std::vector<std::string> files_starting(const fs::path& dir, const std::string& prefix) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.rfind(prefix, 0) == 0) out.push_back(name);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string message_of(const std::function<void()>& f, FileProblem expected) {
  try {
    f();
  } catch (const FileError& e) {
    EXPECT_EQ(int(e.problem()), int(expected)) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no FileError";
  return "";
}

void write_with_library(const fs::path& p, std::string_view text) {
  write_output(p.string(), text);
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// Runs a shell command line (FANO_QUIET=1) with stderr joined to stdout.
RunResult shell(const std::string& cmd) {
  RunResult r;
  const std::optional<int> status = run_shell("export FANO_QUIET=1; " + cmd + " 2>&1", r.out);
  if (status && WIFEXITED(*status)) r.exit_code = WEXITSTATUS(*status);
  if (status && WIFSIGNALED(*status)) r.signal = WTERMSIG(*status);
  return r;
}

// `fano ARGS` with FANO_TABLES=dir.
RunResult with_tables_env(const fs::path& dir, const std::string& args) {
  return shell("FANO_TABLES=" + shell_quote(dir.string()) + " " + shell_quote(FANO_BIN) + " " +
               args);
}

// The standard table (solved in about 0.1 s) in a folder of its own.
class FilesEndToEnd : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    table_ = new std::string((*dir_ / "standard.fanotb").string());
    const RunResult r = run_fano({"solve", "--out", *table_});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    bytes_ = new Bytes(read_bytes(*table_));
  }
  static void TearDownTestSuite() {
    delete bytes_;
    delete table_;
    delete dir_;
  }
  static const std::string& table() { return *table_; }
  static const Bytes& table_bytes() { return *bytes_; }
  static std::vector<std::string> solve_to(const fs::path& out) {
    return {"solve", "--out", out.string()};
  }

 private:
  static TempDir* dir_;
  static std::string* table_;
  static Bytes* bytes_;
};
TempDir* FilesEndToEnd::dir_ = nullptr;
std::string* FilesEndToEnd::table_ = nullptr;
Bytes* FilesEndToEnd::bytes_ = nullptr;

// --- Special files, symbolic links, "-" ------------------------------------

TEST(AtomicWriter, ReplacesARegularFileKeepingItsPermissions) {
  TempDir dir;
  const fs::path p = dir / "a.txt";
  write_with_library(p, "new file\n");
  EXPECT_EQ(read_text(p), "new file\n");
  ::chmod(p.c_str(), 0600);
  write_with_library(p, "second\n");
  EXPECT_EQ(read_text(p), "second\n");
  EXPECT_EQ(fs::status(p).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write);
  EXPECT_EQ(files_starting(dir.path(), "a.txt.tmp"), std::vector<std::string>{});
}

TEST_F(FilesEndToEnd, DeviceNodeIsRefusedAndLeftAlone) {
  TempDir dir;
  const fs::path dev = dir / "null";
  ASSERT_EQ(::mknod(dev.c_str(), S_IFCHR | 0666, ::makedev(1, 3)), 0) << std::strerror(errno);
  const std::string msg = message_of([&] { write_with_library(dev, "x"); }, FileProblem::kNotAFile);
  EXPECT_TRUE(contains(msg, dev.string() + ": is a character device, not a regular file")) << msg;
  const RunResult r = run_fano(solve_to(dev));
  EXPECT_EQ(r.exit_code, exit_code_of(TablebaseErrorKind::kNotAFile)) << r.err;
  EXPECT_EQ(r.err_lines(), 1) << r.err;
  EXPECT_TRUE(contains(r.err, "character device")) << r.err;
  const RunResult s = run_fano({"show", kEmpty, "--svg", dev.string()});
  EXPECT_EQ(s.exit_code, 6) << s.err;
  const RunResult e = run_fano({"export", "--tb", table(), "--out", dev.string()});
  EXPECT_EQ(e.exit_code, 6) << e.err;
  EXPECT_TRUE(fs::is_character_file(dev));
  EXPECT_EQ(files_starting(dir.path(), "null."), std::vector<std::string>{});
}

TEST_F(FilesEndToEnd, FifoIsRefusedWithoutWaiting) {
  TempDir dir;
  const fs::path fifo = dir / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  // Nobody reads the FIFO: a writer that opened it would wait for ever (the test's timeout).
  const RunResult r = run_fano(solve_to(fifo));
  EXPECT_EQ(r.exit_code, exit_code_of(TablebaseErrorKind::kNotAFile)) << r.err;
  EXPECT_TRUE(contains(r.err, "FIFO")) << r.err;
  const RunResult s = run_fano({"show", kEmpty, "--svg", fifo.string()});
  EXPECT_EQ(s.exit_code, 6) << s.err;
  EXPECT_EQ(s.err_lines(), 1) << s.err;
  EXPECT_TRUE(fs::is_fifo(fifo));
  // Read as a table: refused too, without blocking on the open.
  const RunResult q = run_fano({"query", "--tb", fifo.string(), kEmpty});
  EXPECT_EQ(q.exit_code, exit_code_of(TablebaseErrorKind::kNotAFile)) << q.err;
}

TEST(AtomicWriter, SocketAndDirectoryAreRefused) {
  TempDir dir;
  const fs::path sock = dir / "sock";
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, sock.c_str(), sizeof addr.sun_path - 1);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  EXPECT_TRUE(contains(message_of([&] { write_with_library(sock, "x"); }, FileProblem::kNotAFile),
                       "a socket"));
  EXPECT_TRUE(fs::is_socket(sock));
  ::close(fd);
  fs::create_directory(dir / "d");
  EXPECT_TRUE(
      contains(message_of([&] { write_with_library(dir / "d", "x"); }, FileProblem::kNotAFile),
               "a directory"));
}

TEST_F(FilesEndToEnd, SymbolicLinkIsFollowedAndItsTargetReplaced) {
  TempDir here, there;
  const fs::path target = there / "real.fanotb", link = here / "link.fanotb";
  write_text(target, "old");
  fs::create_symlink(target, link);
  const RunResult r = run_fano(solve_to(link));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(fs::read_symlink(link), target);
  EXPECT_EQ(read_bytes(target), table_bytes());
  EXPECT_EQ(files_starting(here.path(), "link"), std::vector<std::string>{"link.fanotb"});
  EXPECT_EQ(files_starting(there.path(), "real"), std::vector<std::string>{"real.fanotb"});
  // A relative link through a chain of two, and a link to a missing file (created).
  fs::create_directory(here / "sub");
  fs::create_symlink("../link.fanotb", here / "sub" / "chain.svg");
  write_with_library(here / "sub" / "chain.svg", "<svg/>");
  EXPECT_EQ(read_text(target), "<svg/>");
  EXPECT_TRUE(fs::is_symlink(here / "sub" / "chain.svg"));
  fs::create_symlink(there / "new.svg", here / "dangling.svg");
  const RunResult s = run_fano({"show", kEmpty, "--svg", (here / "dangling.svg").string()});
  ASSERT_EQ(s.exit_code, 0) << s.err;
  EXPECT_TRUE(fs::is_symlink(here / "dangling.svg"));
  EXPECT_TRUE(contains(read_text(there / "new.svg"), "<svg"));
}

TEST(AtomicWriter, SymbolicLinkLoopIsNamed) {
  TempDir dir;
  fs::create_symlink("b", dir / "a");
  fs::create_symlink("a", dir / "b");
  const std::string msg = message_of([&] { write_with_library(dir / "a", "x"); }, FileProblem::kIo);
  EXPECT_TRUE(contains(msg, "a loop of symbolic links")) << msg;
  const RunResult r =
      run_fano({"solve", "--adjacency", "projective", "--out", (dir / "a").string()});
  EXPECT_EQ(r.exit_code, exit_code_of(TablebaseErrorKind::kIo)) << r.err;
  EXPECT_TRUE(contains(r.err, "a loop of symbolic links")) << r.err;
  EXPECT_TRUE(fs::is_symlink(dir / "a"));
}

TEST(StandardOutput, DashIsStandardOutputWrittenDirectly) {
  TempDir dir;
  const RunResult r = run_fano({"show", kEmpty, "--svg", "-"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("<svg", 0), 0u) << r.out.substr(0, 80);  // the picture alone
  EXPECT_TRUE(contains(r.out, "</svg>"));
  EXPECT_FALSE(fs::exists("-"));
  EXPECT_FALSE(fs::exists(dir / "-"));
}

TEST(OutputPaths, EmptyNamesAreUsageErrors) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"solve", "--out", ""},
        std::vector<std::string>{"show", kEmpty, "--svg", ""},
        std::vector<std::string>{"export", "--out", ""}}) {
    const RunResult r = run_fano(args);
    EXPECT_EQ(r.exit_code, 2) << command_line(args) << ": " << r.err;
    EXPECT_EQ(r.err_lines(), 1) << r.err;
    EXPECT_TRUE(contains(r.err, "needs a file name")) << r.err;
  }
}

// --- Folders, read-only and full file systems --------------------------------

TEST_F(FilesEndToEnd, MissingFolderOfAnExplicitPathIsRefusedNotCreated) {
  TempDir dir;
  const fs::path out = dir / "no" / "such" / "x.fanotb";
  const RunResult r = run_fano(solve_to(out));
  EXPECT_EQ(r.exit_code, exit_code_of(TablebaseErrorKind::kIo)) << r.err;
  EXPECT_EQ(r.err_lines(), 1) << r.err;
  EXPECT_TRUE(contains(r.err, "no folder " + (dir / "no" / "such").string())) << r.err;
  const RunResult s = run_fano({"show", kEmpty, "--svg", (dir / "no" / "p.svg").string()});
  EXPECT_EQ(s.exit_code, 6) << s.err;
  const RunResult t = run_fano({"solve", "--tables", (dir / "none").string()});
  EXPECT_EQ(t.exit_code, exit_code_of(TablebaseErrorKind::kIo)) << t.err;
  EXPECT_TRUE(contains(t.err, "no folder " + (dir / "none").string())) << t.err;
  EXPECT_TRUE(fs::is_empty(dir.path()));
}

// The destination is checked before the work: a solve into a missing folder
// prints no progress (no stage ran), a picture into one prints no board, and
// `fano serve` refuses an explicit tables folder that does not exist.
TEST_F(FilesEndToEnd, MissingOutputFolderIsRefusedBeforeTheWork) {
  TempDir dir;
  std::string out;
  const auto status = run_shell("FANO_QUIET=0 " + shell_quote(FANO_BIN) + " solve --out " +
                                    shell_quote((dir / "no" / "x.fanotb").string()) + " 2>&1",
                                out);
  ASSERT_TRUE(status.has_value());
  EXPECT_EQ(WEXITSTATUS(*status), exit_code_of(TablebaseErrorKind::kIo)) << out;
  EXPECT_FALSE(contains(out, "enumerate")) << out;
  EXPECT_TRUE(contains(out, "no folder")) << out;
  const RunResult s = run_fano({"show", kEmpty, "--svg", (dir / "no" / "p.svg").string()});
  EXPECT_EQ(s.exit_code, 6) << s.err;
  EXPECT_EQ(s.out, "");
  const RunResult t = run_fano({"serve", "--port", "0", "--tables", (dir / "none").string()});
  EXPECT_EQ(t.exit_code, 2) << t.err;
  EXPECT_EQ(t.err_lines(), 1) << t.err;
  EXPECT_TRUE(contains(t.err, "no such folder")) << t.err;
  EXPECT_TRUE(fs::is_empty(dir.path()));
}

TEST(DefaultFolder, OnlyTheDefaultTablesFolderIsCreated) {
  TempDir dir;
  const fs::path tables = dir / "a" / "tables";
  const RunResult r = with_tables_env(tables, "solve --adjacency projective");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(fs::is_regular_file(tables / "cap2-projective.fanotb"));
}

// A tmpfs mounted in a temporary folder (size and options as given), or none
// when this machine does not allow it; unmounted on destruction.
class Mount {
 public:
  Mount(const fs::path& at, const std::string& options) : at_(at) {
    fs::create_directories(at);
    mounted_ = ::mount("tmpfs", at.c_str(), "tmpfs", 0, options.c_str()) == 0;
    why_ = mounted_ ? "" : std::strerror(errno);
  }
  ~Mount() {
    if (mounted_) ::umount2(at_.c_str(), MNT_DETACH);
  }
  bool mounted() const { return mounted_; }
  const std::string& why() const { return why_; }
  void remount(const std::string& options) {
    ASSERT_EQ(::mount("tmpfs", at_.c_str(), "tmpfs", MS_REMOUNT, options.c_str()), 0)
        << std::strerror(errno);
  }

 private:
  fs::path at_;
  bool mounted_ = false;
  std::string why_;
};

TEST_F(FilesEndToEnd, ReadOnlyFileSystemIsNamed) {
  TempDir dir;
  Mount m(dir / "ro", "size=64k,mode=0755");
  if (!m.mounted()) GTEST_SKIP() << "cannot mount a tmpfs here: " << m.why();
  write_text(dir / "ro" / "old.fanotb", "old");
  m.remount("size=64k,ro");
  const RunResult r = run_fano(solve_to(dir / "ro" / "old.fanotb"));
  EXPECT_EQ(r.exit_code, exit_code_of(TablebaseErrorKind::kIo)) << r.err;
  EXPECT_EQ(r.err_lines(), 1) << r.err;
  EXPECT_TRUE(contains(r.err, "read-only file system")) << r.err;
  EXPECT_FALSE(contains(r.err, "No such file")) << r.err;
  EXPECT_EQ(read_text(dir / "ro" / "old.fanotb"), "old");
  // The default tables folder cannot be created there: the same cause.
  const RunResult d = with_tables_env(dir / "ro" / "t", "solve --adjacency projective");
  EXPECT_EQ(d.exit_code, exit_code_of(TablebaseErrorKind::kIo)) << d.out;
  EXPECT_TRUE(contains(d.out, "cannot create the folder: read-only file system")) << d.out;
  const RunResult s = run_fano({"show", kEmpty, "--svg", (dir / "ro" / "p.svg").string()});
  EXPECT_EQ(s.exit_code, 6) << s.err;
  EXPECT_TRUE(contains(s.err, "read-only file system")) << s.err;
}

TEST_F(FilesEndToEnd, FullFileSystemNamesTheDestination) {
  TempDir dir;
  Mount m(dir / "full", "size=16k");
  if (!m.mounted()) GTEST_SKIP() << "cannot mount a tmpfs here: " << m.why();
  ASSERT_GT(table_bytes().size(), 20000u) << "the table should not fit in 16 KiB";
  const fs::path out = dir / "full" / "t.fanotb";
  write_text(out, "old");
  const RunResult r = run_fano(solve_to(out));
  EXPECT_EQ(r.exit_code, exit_code_of(TablebaseErrorKind::kIo)) << r.err;
  EXPECT_EQ(r.err_lines(), 1) << r.err;
  EXPECT_TRUE(contains(r.err, out.string() + ": write failed: no space left on device")) << r.err;
  EXPECT_FALSE(contains(r.err, ".tmp.")) << r.err;
  EXPECT_EQ(read_text(out), "old");
  EXPECT_EQ(files_starting(dir / "full", "t.fanotb"), std::vector<std::string>{"t.fanotb"});
  const RunResult e =
      run_fano({"export", "--tb", table(), "--out", (dir / "full" / "x.csv").string()});
  EXPECT_EQ(e.exit_code, 6) << e.err;
  EXPECT_TRUE(contains(e.err, "x.csv: write failed: no space left on device")) << e.err;
  EXPECT_FALSE(fs::exists(dir / "full" / "x.csv"));
}

// --- Temporaries under flock, signals, concurrent writers -------------------

// An open file holding an flock, as a live writer in another process (or
// another PID namespace) holds its temporary.
struct HeldLock {
  int fd;
  explicit HeldLock(const fs::path& p) : fd(::open(p.c_str(), O_RDWR | O_CREAT, 0644)) {
    EXPECT_GE(fd, 0);
    EXPECT_EQ(::flock(fd, LOCK_EX | LOCK_NB), 0);
  }
  ~HeldLock() { ::close(fd); }
};

TEST(Temporaries, OnlyUnlockedTemporariesAreRemoved) {
  TempDir dir;
  const fs::path target = dir / "t.fanotb";
  const fs::path one = dir / "t.fanotb.tmp.1";         // PID 1 lives, but holds no lock
  const fs::path dead = dir / "t.fanotb.tmp.12345.2";  // a numbered retry, unlocked
  const fs::path live = dir / "t.fanotb.tmp.4242";     // locked: a live writer elsewhere
  const fs::path other = dir / "u.fanotb.tmp.999";     // another file's temporary
  const fs::path user = dir / "t.fanotb.tmp.notes";    // not a temporary's name
  for (const fs::path& p : {one, dead, other, user}) write_text(p, "left");
  HeldLock held(live);
  write_with_library(target, "new");
  EXPECT_EQ(read_text(target), "new");
  EXPECT_FALSE(fs::exists(one));
  EXPECT_FALSE(fs::exists(dead));
  EXPECT_TRUE(fs::exists(live));
  EXPECT_TRUE(fs::exists(other));
  EXPECT_TRUE(fs::exists(user));
}

// Two writers of one path whose temporaries would share a name (as two
// containers' processes with the same PID): neither removes the other's, and
// both publish.
TEST(Temporaries, ALiveWritersTemporaryIsNeverTaken) {
  TempDir dir;
  const fs::path target = dir / "t.svg";
  AtomicFileWriter first(target.string());
  first.write(std::string_view("first"));
  {
    AtomicFileWriter second(target.string());
    second.write(std::string_view("second"));
    second.commit();
  }
  EXPECT_EQ(read_text(target), "second");
  first.commit();
  EXPECT_EQ(read_text(target), "first");
  EXPECT_EQ(files_starting(dir.path(), "t.svg."), std::vector<std::string>{});
}

TEST(Temporaries, RemovedOnSigintAndSigterm) {
  for (int sig : {SIGINT, SIGTERM}) {
    SCOPED_TRACE(sig);
    TempDir dir;
    const fs::path target = dir / "t.fanotb";
    write_text(target, "old");
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      AtomicFileWriter w(target.string());
      w.write(std::string_view("partial"));
      ::raise(sig);
      ::_exit(0);  // not reached
    }
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << status;
    EXPECT_EQ(files_starting(dir.path(), "t.fanotb"), std::vector<std::string>{"t.fanotb"});
    EXPECT_EQ(read_text(target), "old");
  }
}

TEST_F(FilesEndToEnd, ConcurrentWritersEachPublishAWholeFile) {
  TempDir dir;
  const fs::path out = dir / "same.fanotb";
  std::vector<pid_t> pids;
  for (int i = 0; i < 4; ++i) pids.push_back(spawn_fano(solve_to(out)));
  for (const pid_t pid : pids) {
    const RunResult r = wait_fano(pid);
    EXPECT_EQ(r.exit_code, 0);
  }
  EXPECT_EQ(read_bytes(out), table_bytes());
  EXPECT_EQ(files_starting(dir.path(), "same"), std::vector<std::string>{"same.fanotb"});
  // Threads of one process (one PID: temporaries numbered apart), each file whole.
  const fs::path t = dir / "threads.txt";
  std::vector<std::thread> threads;
  for (int k = 0; k < 8; ++k)
    threads.emplace_back([&, k] {
      for (int round = 0; round < 25; ++round)
        write_with_library(t, std::string(1000 + k, char('a' + k)));
    });
  for (auto& th : threads) th.join();
  const std::string final_text = read_text(t);
  ASSERT_GE(final_text.size(), 1000u);
  EXPECT_EQ(final_text, std::string(final_text.size(), char('a' + (final_text.size() - 1000))));
  EXPECT_EQ(files_starting(dir.path(), "threads"), std::vector<std::string>{"threads.txt"});
}

// --- Bounded reads -----------------------------------------------------------

TEST(LineReaderTest, LinesAreReadAndBounded) {
  TempDir dir;
  const fs::path p = dir / "in.txt";
  const std::string exact(kMaxLineBytes, 'x');
  write_text(p, "a\n\nb\r\n" + exact + "\nlast");
  LineReader in(p.string());
  std::vector<std::string> lines;
  for (std::string line; in.next(line);) lines.push_back(line);
  EXPECT_EQ(lines, (std::vector<std::string>{"a", "", "b\r", exact, "last"}));
  EXPECT_EQ(in.line_number(), 5u);
  write_text(p, "one\ntwo\n" + exact + "y\nfour\n");
  LineReader again(p.string());
  std::string line;
  EXPECT_TRUE(again.next(line));
  EXPECT_TRUE(again.next(line));
  const std::string msg = message_of([&] { again.next(line); }, FileProblem::kTooLong);
  EXPECT_EQ(msg, p.string() + ": line 3 is longer than 65536 bytes");
  EXPECT_TRUE(
      contains(message_of([&] { LineReader d(dir.path().string()); }, FileProblem::kNotAFile),
               "is a directory"));
}

// `fano` with stdin from `input`, under a time and a memory limit (ulimit -v,
// 1 GiB of address space); output and errors together.
// Under AddressSanitizer (which reserves terabytes of address space) only the
// time is bounded; the plain build bounds the memory too.
#if defined(__SANITIZE_ADDRESS__)
constexpr const char* kMemoryBound = "";
#else
constexpr const char* kMemoryBound = "ulimit -v 1048576; ";
#endif
RunResult run_bounded(const std::string& args, const std::string& input = "/dev/null") {
  return shell(std::string(kMemoryBound) + "timeout 60 " + shell_quote(FANO_BIN) + " " + args +
               " < " + shell_quote(input));
}

TEST_F(FilesEndToEnd, EndlessLinesAreRefusedByNumber) {
  for (const std::string& args : {"verify --tb " + shell_quote(table()) + " --lines /dev/zero",
                                  std::string("verify --perft /dev/zero")}) {
    const RunResult r = run_bounded(args);
    EXPECT_EQ(r.exit_code, 2) << args << ": " << r.out;
    EXPECT_TRUE(contains(r.out, "/dev/zero: line 1 is longer than 65536 bytes")) << r.out;
  }
  const RunResult b = run_bounded("query --tb " + shell_quote(table()) + " --batch", "/dev/zero");
  EXPECT_EQ(b.exit_code, 2) << b.out;
  EXPECT_TRUE(contains(b.out, "standard input: line 1 is longer than 65536 bytes")) << b.out;
  const RunResult p = run_bounded("play --tb " + shell_quote(table()), "/dev/zero");
  EXPECT_EQ(p.exit_code, 2) << p.out;
  EXPECT_TRUE(contains(p.out, "standard input: line 1 is longer than 65536 bytes")) << p.out;
  // "-" is standard input.
  const RunResult dash =
      run_bounded("verify --tb " + shell_quote(table()) + " --lines -", "/dev/zero");
  EXPECT_EQ(dash.exit_code, 2) << dash.out;
  EXPECT_TRUE(contains(dash.out, "standard input: line 1 is longer than 65536 bytes")) << dash.out;
  // A long line after good ones is named by its number.
  TempDir dir;
  write_text(dir / "games.txt", "C4\nC4,t3\n" + std::string(100000, 'x') + "\n");
  const RunResult g = run_bounded("verify --tb " + shell_quote(table()) + " --lines " +
                                  shell_quote((dir / "games.txt").string()));
  EXPECT_EQ(g.exit_code, 2) << g.out;
  EXPECT_TRUE(contains(g.out, "games.txt: line 3 is longer than 65536 bytes")) << g.out;
}

TEST_F(FilesEndToEnd, DirectoryAsInputIsRefused) {
  TempDir dir;
  for (const char* opt : {"--lines", "--perft"}) {
    const RunResult r = run_fano({"verify", "--tb", table(), opt, dir.path().string()});
    EXPECT_EQ(r.exit_code, 2) << opt << ": " << r.err;
    EXPECT_EQ(r.err_lines(), 1) << r.err;
    EXPECT_TRUE(contains(r.err, dir.path().string() + ": is a directory, not a file")) << r.err;
  }
}

// --- Messages ------------------------------------------------------------------

TEST_F(FilesEndToEnd, MissingTableHintGivesTheVariantsFlags) {
  TempDir dir;
  // The default path (FANO_TABLES): the flags alone.
  const RunResult d = with_tables_env(dir.path(), "query --stack-cap 3 " + shell_quote(kEmpty));
  EXPECT_EQ(d.exit_code, exit_code_of(TablebaseErrorKind::kMissing)) << d.out;
  EXPECT_TRUE(contains(d.out, "no such file (run 'fano solve --stack-cap 3' to create it)"))
      << d.out;
  const RunResult t =
      run_fano({"query", "--adjacency", "projective", "--tables", dir.path().string(), kEmpty});
  EXPECT_TRUE(contains(t.err, "(run 'fano solve --adjacency projective --tables " +
                                  dir.path().string() + "' to create it)"))
      << t.err;
  const std::string file = (dir / "mine.fanotb").string();
  const RunResult n = run_fano({"query", "--tb", file, kEmpty});
  EXPECT_TRUE(contains(
      n.err, "(run 'fano solve --out " + file +
                 "' with the variant's options (--rules NAME, or --stack-cap, --adjacency, "
                 "--line-rule, --circles, --triangles) to create it)"))
      << n.err;
  const RunResult f = run_fano({"query", "--stack-cap", "3", "--tb", file, kEmpty});
  EXPECT_TRUE(contains(f.err, "(run 'fano solve --stack-cap 3 --out " + file + "' to create it)"))
      << f.err;
}

TEST_F(FilesEndToEnd, TableMessagesNameTheRealCause) {
  TempDir dir;
  fs::create_symlink("loop2", dir / "loop1");
  fs::create_symlink("loop1", dir / "loop2");
  const RunResult loop = run_fano({"query", "--tb", (dir / "loop1").string(), kEmpty});
  EXPECT_EQ(loop.exit_code, exit_code_of(TablebaseErrorKind::kIo)) << loop.err;
  EXPECT_TRUE(contains(loop.err, "a loop of symbolic links")) << loop.err;
  EXPECT_FALSE(contains(loop.err, "fano solve")) << loop.err;
  fs::create_symlink(dir / "gone.fanotb", dir / "dangling");
  const RunResult dangling = run_fano({"query", "--tb", (dir / "dangling").string(), kEmpty});
  EXPECT_EQ(dangling.exit_code, exit_code_of(TablebaseErrorKind::kMissing)) << dangling.err;
  EXPECT_TRUE(contains(dangling.err, "is a symbolic link to a file that does not exist"))
      << dangling.err;
  fs::create_directory(dir / "d.fanotb");
  const RunResult d = run_fano({"query", "--tb", (dir / "d.fanotb").string(), kEmpty});
  EXPECT_EQ(d.exit_code, exit_code_of(TablebaseErrorKind::kNotAFile)) << d.err;
  EXPECT_TRUE(contains(d.err, "is a directory, not a file")) << d.err;
}

// Root reads any file: the permission case runs the tool as nobody.
TEST_F(FilesEndToEnd, UnreadableTableSaysPermissionDenied) {
  TempDir dir;
  ::chmod(dir.path().c_str(), 0755);
  const fs::path file = dir / "locked.fanotb";
  write_bytes(file, table_bytes());
  ::chmod(file.c_str(), 0600);
  const fs::path err = dir / "err";
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
    const int null = ::open("/dev/null", O_RDWR);
    ::dup2(null, 0), ::dup2(null, 1), ::dup2(e, 2);
    if (::setgroups(0, nullptr) != 0 || ::setgid(65534) != 0 || ::setuid(65534) != 0) ::_exit(126);
    ::execl(FANO_BIN, FANO_BIN, "query", "--tb", file.c_str(), kEmpty.c_str(), nullptr);
    ::_exit(127);
  }
  RunResult r = wait_fano(pid);
  if (r.exit_code == 126 || r.exit_code == 127)
    GTEST_SKIP() << "cannot run the tool as another user here (" << r.exit_code << ")";
  r.err = read_text(err);
  if (::getuid() != 0) GTEST_SKIP() << "not root";
  EXPECT_EQ(r.exit_code, exit_code_of(TablebaseErrorKind::kIo)) << r.err;
  EXPECT_TRUE(contains(r.err, file.string() + ": cannot be read: permission denied")) << r.err;
  EXPECT_FALSE(contains(r.err, "fano solve")) << r.err;
}

// cC/tT/cT/-/-/tC/- b: no line stands in it (the old message said one
// did). The reason given is checked against the positions a move leads to it
// from, found independently by playing every legal move of every candidate.
TEST_F(FilesEndToEnd, UnreachableMessageGivesATrueReason) {
  const std::string text = "cC/tT/cT/-/-/tC/- b";
  const Rules rules(kStandard);
  const State st = parse_position(text, kStandard);
  EXPECT_EQ(formed_lines(st), 0);
  const Tablebase tb = open_tablebase(table());
  ASSERT_FALSE(tb.probe(st));
  // Candidate parents: a top piece of White (the last mover) taken off, and
  // put back on another space, or not at all (a placement); a parent is one
  // from which a legal move gives st.
  std::size_t parents = 0, with_line = 0, reached_and_going_on = 0;
  for (int to = 0; to < kSpaces; ++to) {
    if (st.empty(to) || colour_of(st.top(to)) != Colour::kWhite) continue;
    const State lifted = st.with_side_flipped().with_popped(to);
    std::vector<State> candidates{lifted};
    for (int from = 0; from < kSpaces; ++from)
      if (from != to && lifted.info(from).height < rules.stack_cap())
        candidates.push_back(lifted.with_pushed(from, st.top(to)));
    for (const State parent : candidates) {
      try {
        (void)parse_position(format_position(parent), kStandard);  // a legal position
      } catch (const NotationError&) {
        continue;
      }
      for (const Move& m : legal_moves(rules, parent))
        if (apply_move(parent, m) == st) {
          ++parents;
          with_line += formed_lines(parent) != 0;
          reached_and_going_on += game_over(rules, parent) == GameOver::kNone && tb.probe(parent);
        }
    }
  }
  ASSERT_GT(parents, 0u);
  EXPECT_EQ(reached_and_going_on, 0u);
  ASSERT_EQ(with_line, parents) << "the reason below assumes a line in every parent";
  const std::string expected = "fano query: position '" + text +
                               "' is legal but no game reaches it: a line stands in each of the " +
                               std::to_string(parents) + " positions a move leads to it from\n";
  const RunResult q = run_fano({"query", "--tb", table(), text});
  EXPECT_EQ(q.exit_code, 3) << q.err;
  EXPECT_EQ(q.err, expected);
  // show says what query says, with --best, --tb or the default table.
  const std::string shown = "fano show" + expected.substr(std::string("fano query").size());
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"show", "--tb", table(), "--best", text},
        std::vector<std::string>{"show", "--tb", table(), text}}) {
    const RunResult s = run_fano(args);
    EXPECT_EQ(s.exit_code, 3) << command_line(args);
    EXPECT_EQ(s.err, shown) << command_line(args);
  }
  const RunResult d = with_tables_env(fs::path(table()).parent_path(), "show " + shell_quote(text));
  EXPECT_EQ(d.exit_code, 3);
  EXPECT_EQ(d.out, shown);
  // Without any table the board is drawn from the rules alone.
  TempDir empty;
  EXPECT_EQ(with_tables_env(empty.path(), "show " + shell_quote(text)).exit_code, 0);
}

// --- JSON of raw input ---------------------------------------------------------

TEST_F(FilesEndToEnd, JsonEscapesInvalidUtf8FromInput) {
  TempDir dir;
  write_text(dir / "bad.txt", "C4,\xff\xfe\n\xc3(\n");
  const RunResult r =
      run_fano({"verify", "--tb", table(), "--lines", (dir / "bad.txt").string(), "--json"});
  EXPECT_FALSE(r.crashed());
  const nlohmann::json j = parse_json(r.out);
  ASSERT_TRUE(j.is_object()) << r.out;
  EXPECT_TRUE(contains(r.out, "\xef\xbf\xbd")) << "U+FFFD replaces the bad bytes: " << r.out;
}

// --- hostile inputs and outputs ------------------------------------------------

// Whether text has a byte that is a control character other than '\n'.
bool has_control_byte(const std::string& text) {
  return std::any_of(text.begin(), text.end(), [](char c) {
    const auto b = static_cast<unsigned char>(c);
    return (b < 0x20 && b != '\n') || b == 0x7f;
  });
}

// Noise is refused at its first line holding a control character,
// read as it arrives, under a memory bound (the whole input used to be read
// first: gigabytes, and no answer).
TEST_F(FilesEndToEnd, BinaryInputIsRefusedAtItsFirstBadLineInBoundedMemory) {
  for (const std::string& args : {"verify --tb " + shell_quote(table()) + " --lines /dev/urandom",
                                  std::string("verify --perft /dev/urandom")}) {
    const RunResult r = run_bounded(args);
    const std::string tail = r.out.substr(r.out.size() > 400 ? r.out.size() - 400 : 0);
    EXPECT_EQ(r.exit_code, 2) << args << ": " << tail;
    EXPECT_TRUE(contains(r.out, "fano verify: /dev/urandom: line ")) << tail;
  }
  // The records before the bad line are reported; nothing after it is read.
  TempDir dir;
  write_text(dir / "games.txt", "C4\nC4,t3\n\x1b]0;title\x07\nC5\n");
  const RunResult g =
      run_fano({"verify", "--tb", table(), "--lines", (dir / "games.txt").string()});
  EXPECT_EQ(g.exit_code, 2) << g.err;
  EXPECT_EQ(g.err_lines(), 1) << g.err;
  EXPECT_TRUE(contains(g.err, "games.txt: line 3: a control character (byte 0x1b) at byte 1"))
      << g.err;
  EXPECT_TRUE(contains(g.out, "line 2: C4,t3")) << g.out;
  EXPECT_FALSE(contains(g.out, "C5")) << g.out;
}

// A FIFO is read as `cat` reads it, waiting for a writer that starts
// late; an input without any record is an error, not "0 records".
TEST_F(FilesEndToEnd, FifoWhoseWriterStartsLateIsWaitedFor) {
  TempDir dir;
  const fs::path fifo = dir / "games";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string out = (dir / "out").string(), err = (dir / "err").string();
  const pid_t pid = spawn_fano({"verify", "--tb", table(), "--lines", fifo.string()}, out, err);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the writer comes late
  // Open the writing end once the command is reading (a write open without
  // a reader fails), unless the command has already given up.
  int fd = -1;
  bool exited = false;
  while (fd < 0 && !exited) {
    fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
      int status;
      exited = ::waitpid(pid, &status, WNOHANG) == pid;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  ASSERT_FALSE(exited) << "the command did not wait for the writer: " << read_text(out)
                       << read_text(err);
  const std::string game = "C4,t3\n";
  EXPECT_EQ(::write(fd, game.data(), game.size()), ssize_t(game.size()));
  ::close(fd);
  const RunResult r = wait_fano(pid);
  EXPECT_EQ(r.exit_code, 0) << read_text(err);
  EXPECT_TRUE(contains(read_text(out), "result: 1 records")) << read_text(out);

  write_text(dir / "comments.txt", "# only a comment\n\n");
  for (const std::string& input : {std::string("/dev/null"), (dir / "comments.txt").string()}) {
    const RunResult e = run_fano({"verify", "--tb", table(), "--lines", input});
    EXPECT_EQ(e.exit_code, 2) << input << ": " << e.err;
    EXPECT_EQ(e.err_lines(), 1) << e.err;
    EXPECT_TRUE(contains(e.err, input + ": no game record")) << e.err;
    EXPECT_TRUE(e.out.empty()) << e.out;
  }
  const RunResult in =
      run_fano_with_input({"verify", "--tb", table(), "--lines", "-", "--json"}, "");
  EXPECT_EQ(in.exit_code, 2) << in.err;
  EXPECT_TRUE(contains(in.err, "standard input: no game record")) << in.err;
}

// A report that cannot be written to stdout fails the command (exit
// 6, one line naming the cause), whichever command printed it.
TEST_F(FilesEndToEnd, UnwritableStandardOutputExits6) {
  TempDir dir;
  write_text(dir / "games.txt", "C4,t3\n");
  const std::vector<std::vector<std::string>> commands = {
      {"query", "--tb", table(), kEmpty},
      {"query", "--tb", table(), "--json", kEmpty},
      {"info"},
      {"perft", "--depth", "3"},
      {"verify", "--tb", table(), "--lines", (dir / "games.txt").string()},
      {"solve", "--json", "--out", (dir / "solved.fanotb").string()},
      {"show", kEmpty},
      {"--version"},
  };
  for (const auto& args : commands) {
    const std::string err = (dir / "err").string();
    RunResult r = wait_fano(spawn_fano(args, "/dev/full", err));
    r.err = read_text(err);
    EXPECT_EQ(r.exit_code, 6) << command_line(args) << ": " << r.err;
    EXPECT_EQ(r.err_lines(), 1) << command_line(args) << ": " << r.err;
    EXPECT_TRUE(contains(r.err, "standard output: write failed: no space left on device"))
        << command_line(args) << ": " << r.err;
  }
}

// Bytes of arguments and input files reach messages escaped, on one
// line: no escape sequence for the terminal, nothing that is not UTF-8.
TEST_F(FilesEndToEnd, MessagesEscapeControlBytesAndInvalidUtf8) {
  TempDir dir;
  std::string noise =
      "exact stop-at-end\n1 \xff\xfe\x9b"
      "31m\n";
  write_text(dir / "perft.txt", noise);
  std::string binary;
  for (int i = 0; i < 512; ++i) binary += char((i * 37 + 11) % 256);
  write_text(dir / "binary.txt", binary);
  const std::vector<std::vector<std::string>> commands = {
      {"query", "--tb", table(), "\x1b[31m-/-/x\r/-/-/-/- w"},
      {"query", "--tb", table(), "--moves", "C4,\xff\xfe\xc2\x9b"},
      {"show", "--moves", "C4,\x1b[2JQ9\n"},
      {"verify", "--perft", (dir / "perft.txt").string()},
      {"verify", "--tb", table(), "--lines", (dir / "binary.txt").string()},
      {"no\x1b]0;such\x07-command"},
  };
  for (const auto& args : commands) {
    const RunResult r = run_fano(args);
    EXPECT_EQ(r.exit_code, 2) << command_line(args) << ": " << r.err;
    EXPECT_EQ(r.err_lines(), 1) << r.err;
    EXPECT_FALSE(has_control_byte(r.err)) << r.err;
    // Every byte above 0x7f is part of UTF-8 (dump() throws on anything else) and
    // no C1 control is written.
    EXPECT_NO_THROW((void)nlohmann::json(r.err).dump()) << r.err;
    EXPECT_FALSE(contains(r.err, "\xc2\x9b")) << r.err;
  }
  const RunResult moves = run_fano(commands[1]);
  EXPECT_TRUE(contains(moves.err, "\\xff\\xfe\\xc2\\x9b")) << moves.err;
  const RunResult unknown = run_fano(commands.back());
  EXPECT_TRUE(contains(unknown.err, "unknown command 'no\\x1b]0;such\\x07-command'"))
      << unknown.err;
}

// An output that is an input of the command (the same file, by any
// name) is refused before anything is written, and the input is kept.
TEST_F(FilesEndToEnd, AnOutputThatIsTheInputTableIsRefused) {
  TempDir dir;
  const fs::path t = dir / "standard.fanotb";
  write_bytes(t, table_bytes());
  fs::create_symlink(t, dir / "link.csv");
  fs::create_hard_link(t, dir / "hard.svg");
  const std::vector<std::vector<std::string>> commands = {
      {"export", "--tb", t.string(), "--out", t.string()},
      {"export", "--tb", t.string(), "--out", (dir / "link.csv").string()},
      {"query", "--tb", t.string(), "--svg", t.string(), kEmpty},
      {"query", "--tb", t.string(), "--svg", (dir / "hard.svg").string(), kEmpty},
      {"show", "--tb", t.string(), "--svg", t.string(), kEmpty},
  };
  for (const auto& args : commands) {
    const RunResult r = run_fano(args);
    EXPECT_EQ(r.exit_code, 6) << command_line(args) << ": " << r.err;
    EXPECT_EQ(r.err_lines(), 1) << r.err;
    EXPECT_TRUE(contains(r.err, "is the tablebase read by this command")) << r.err;
    EXPECT_TRUE(read_bytes(t) == table_bytes()) << command_line(args);
  }
  // The default table too, named by the tables folder.
  const RunResult d = with_tables_env(
      dir.path(), "show --best --svg " + shell_quote(t.string()) + " " + shell_quote(kEmpty));
  EXPECT_EQ(d.exit_code, 6) << d.out;
  EXPECT_TRUE(read_bytes(t) == table_bytes());
  EXPECT_EQ(files_starting(dir.path(), "standard.fanotb.tmp"), std::vector<std::string>{});
  // Another file is written as before.
  const RunResult ok =
      run_fano({"query", "--tb", t.string(), "--svg", (dir / "b.svg").string(), kEmpty});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
}

}  // namespace
}  // namespace fano

namespace fano {
namespace {

using namespace fano::testing;

// Sets an environment variable for one scope.
struct ScopedEnv {
  std::string name;
  std::optional<std::string> old;
  ScopedEnv(std::string n, const char* value) : name(std::move(n)) {
    if (const char* o = std::getenv(name.c_str())) old = o;
    if (value)
      ::setenv(name.c_str(), value, 1);
    else
      ::unsetenv(name.c_str());
  }
  ~ScopedEnv() {
    if (old)
      ::setenv(name.c_str(), old->c_str(), 1);
    else
      ::unsetenv(name.c_str());
  }
};

TEST(TablesFolder, UserCacheFollowsXdgThenHome) {
  const fano::testing::TempDir dir;
  const std::string home_dir = (dir / "home").string();
  const ScopedEnv home("HOME", home_dir.c_str());
  {
    const std::string xdg_dir = (dir / "xdg").string();
    const ScopedEnv xdg("XDG_CACHE_HOME", xdg_dir.c_str());
    EXPECT_EQ(user_cache_dir(), (dir / "xdg" / "fano").string());
  }
  {
    const ScopedEnv xdg("XDG_CACHE_HOME", "relative");  // ignored, as the XDG spec asks
    EXPECT_EQ(user_cache_dir(), (dir / "home" / ".cache" / "fano").string());
  }
  const ScopedEnv tables("FANO_TABLES", nullptr);
  const TableDir d = table_dir_without_install();
  EXPECT_EQ(d.path, (dir / "home" / ".cache" / "fano").string());
  EXPECT_EQ(d.source, "cache");
  const std::string chosen_dir = (dir / "chosen").string();
  const ScopedEnv chosen("FANO_TABLES", chosen_dir.c_str());
  EXPECT_EQ(table_dir_without_install().source, "FANO_TABLES");
}

TEST(TablesFolder, CacheIsReadWhereTheDefaultFolderLacksATable) {
  const fano::testing::TempDir dir;
  const std::string xdg_dir = (dir / "xdg").string();
  const ScopedEnv xdg("XDG_CACHE_HOME", xdg_dir.c_str());
  const fs::path cache = dir / "xdg" / "fano";
  const TableDir base{(dir / "tables").string(), "source tree"};
  const Variant v = kAllVariants[1];
  const auto put = [&](const fs::path& folder) {
    fs::create_directories(folder);
    std::ofstream(folder / (variant_slug(v) + ".fanotb")) << "x";
  };
  // Neither folder holds it: the default folder, unless it is to be solved.
  EXPECT_EQ(table_dir_for_variant(v, base, false).path, base.path);
  EXPECT_EQ(table_dir_for_variant(v, base, true).path, cache.string());
  EXPECT_EQ(table_dir_for_variant(v, base, true).source, "cache");
  // Only the cache holds it: the cache, for reading too.
  put(cache);
  EXPECT_EQ(table_dir_for_variant(v, base, false).path, cache.string());
  // The default folder holds it: that folder.
  put(dir / "tables");
  EXPECT_EQ(table_dir_for_variant(v, base, false).path, base.path);
  EXPECT_EQ(table_dir_for_variant(v, base, true).path, base.path);
  // A folder the user chose is kept, holding the table or not.
  const TableDir chosen{(dir / "mine").string(), "FANO_TABLES"};
  EXPECT_EQ(table_dir_for_variant(v, chosen, true).path, chosen.path);
  EXPECT_EQ(table_dir_for_variant(v, chosen, false).path, chosen.path);
  // The command reports the cache folder it would read.
  const RunResult r = shell("XDG_CACHE_HOME=" + shell_quote((dir / "xdg").string()) + " " +
                            shell_quote(FANO_BIN) + " info --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["tables"]["cache"], cache.string());
}

TEST(TablesFolder, BuildTreeMarkerNamesTheSourceTables) {
  const ScopedEnv no_env("FANO_TABLES", nullptr);
  const fano::testing::TempDir tmp;
  const fs::path build = tmp.path() / "build", bin = build / "tools";
  fs::create_directories(bin);
  std::ofstream(build / kBuildTreeMarker) << "/src/of/fano/tables\n";
  const TableDir d = table_dir_for_binary((bin / "fano").string(), "bin", "/fallback");
  EXPECT_EQ(d.path, "/src/of/fano/tables");
  EXPECT_EQ(d.source, "source tree");
}

TEST(TablesFolder, InstalledProgramReadsItsPrefixShareFolder) {
  const ScopedEnv no_env("FANO_TABLES", nullptr);
  const fano::testing::TempDir tmp;
  const fs::path prefix = tmp.path() / "prefix";
  fs::create_directories(prefix / "lib" / "python3" / "dist-packages");
  fs::create_directories(prefix / "bin");
  const fs::path want = fs::weakly_canonical(prefix) / "share" / "fano" / "tables";
  TableDir d = table_dir_for_binary((prefix / "bin" / "fano").string(), "bin", "/fallback");
  EXPECT_EQ(d.path, want.string());
  EXPECT_EQ(d.source, "installed");
  d = table_dir_for_binary((prefix / "lib" / "python3" / "dist-packages" / "fano.so").string(),
                           "lib/python3/dist-packages", "/fallback");
  EXPECT_EQ(d.path, want.string());
  // Not under its install folder: the fallback.
  d = table_dir_for_binary((prefix / "elsewhere" / "fano").string(), "bin", "/fallback");
  EXPECT_EQ(d.path, "/fallback");
  // No install folder (a module built without install rules): the fallback.
  d = table_dir_for_binary((prefix / "bin" / "fano.so").string(), "", "/fallback");
  EXPECT_EQ(d.path, "/fallback");
}

// The command and the module open tables by the same rule (choose_table).
TEST(TablesFolder, ChoiceOfTableFile) {
  const Variant cap3{3, Adjacency::kBoard};
  TableChoice c = choose_table(std::nullopt, std::nullopt, "/t");
  EXPECT_EQ(c.path, "/t/standard.fanotb");
  EXPECT_EQ(c.expected, std::optional(kStandard));
  c = choose_table(std::nullopt, cap3, "/t");
  EXPECT_EQ(c.path, "/t/cap3-board.fanotb");
  EXPECT_EQ(c.expected, std::optional(cap3));
  c = choose_table(std::string("/x/mine.fanotb"), std::nullopt, "/t");
  EXPECT_EQ(c.path, "/x/mine.fanotb");
  EXPECT_FALSE(c.expected.has_value());  // the file's own variant
  c = choose_table(std::string("/x/mine.fanotb"), cap3, "/t");
  EXPECT_EQ(c.expected, std::optional(cap3));
}

TEST(TablesFolder, EnvironmentVariableWins) {
  const ScopedEnv env("FANO_TABLES", "/chosen/tables");
  const TableDir d = table_dir_for_binary("/usr/bin/fano", "bin", "/fallback");
  EXPECT_EQ(d.path, "/chosen/tables");
  EXPECT_EQ(d.source, "FANO_TABLES");
  EXPECT_EQ(default_table_dir().path, "/chosen/tables");
}

TEST(TablesFolder, TheBuildTreesProgramReadsTheSourceTables) {
  const ScopedEnv no_env("FANO_TABLES", nullptr);
  // The test binary itself lives in this build tree.
  const TableDir d = default_table_dir();
  EXPECT_EQ(d.source, "source tree");
  EXPECT_EQ(fs::weakly_canonical(d.path),
            fs::weakly_canonical(fs::path(FANO_SOURCE_DIR) / "tables"));
}

}  // namespace
}  // namespace fano

namespace fano {
namespace {

using namespace fano::testing;

// A killed solve leaves "X.tmp.<pid>" behind: the writer removes such files whose lock is free
// (their writer is gone: a PID check would be wrong across PID namespaces and never true of
// "X.tmp.1"), and leaves a live writer's locked file alone.
TEST(Temporaries, StaleTemporaryFilesAreRemoved) {
  TempDir dir;
  const fs::path target = dir / "t.fanotb";
  const fs::path dead = dir / "t.fanotb.tmp.999999999";   // no writer holds it
  const fs::path pid1 = dir / "t.fanotb.tmp.1";           // PID 1 lives, but holds no lock
  const fs::path live = dir / "t.fanotb.tmp.2";           // locked below: a live writer's
  const fs::path other = dir / "u.fanotb.tmp.999999999";  // another table's: not ours to touch
  for (const fs::path& p : {dead, pid1, live, other}) write_bytes(p, {1, 2, 3});
  const int held = ::open(live.c_str(), O_RDONLY);
  ASSERT_EQ(::flock(held, LOCK_EX | LOCK_NB), 0);
  const std::vector<std::uint8_t> bytes{4, 5, 6};
  write_file_atomically(target.string(), bytes);
  ::close(held);
  EXPECT_EQ(read_bytes(target), bytes);
  EXPECT_FALSE(fs::exists(dead));
  EXPECT_FALSE(fs::exists(pid1));
  EXPECT_TRUE(fs::exists(live));
  EXPECT_TRUE(fs::exists(other));
}

}  // namespace
}  // namespace fano
